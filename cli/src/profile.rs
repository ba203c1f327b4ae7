//! Saved accounts: `oauth1 authorize` writes them, `accounts` lists them,
//! and every subcommand that signs or verifies reads them through the one
//! credential path (`flags.rs`, `--profile NAME`).
//!
//! Profiles live in one JSON file, `profiles.json`, in `$OAUTH1_CONFIG_DIR`
//! or the platform's configuration directory (`$XDG_CONFIG_HOME/oauth1`,
//! `~/.config/oauth1`; `~/Library/Application Support/oauth1` on macOS;
//! `%APPDATA%\oauth1` on Windows). It holds secrets, so it is created with
//! mode 0600 (and its directory 0700) on Unix; `store` changes it under a
//! lock and replaces it whole.

mod store;

pub(crate) use store::profiles_path;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::Failure;

/// One saved account. `Debug` is not derived: it holds secrets.
#[derive(Clone, Serialize, Deserialize)]
pub(crate) struct Profile {
    pub(crate) consumer_key: String,
    pub(crate) consumer_secret: String,
    pub(crate) token: String,
    pub(crate) token_secret: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) user_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) screen_name: Option<String>,
}

/// The profiles file.
#[derive(Clone, Default, Serialize, Deserialize)]
pub(crate) struct Profiles {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) default: Option<String>,
    #[serde(default)]
    pub(crate) profiles: BTreeMap<String, Profile>,
}

impl Profiles {
    /// Reads the profiles file; none yet is no profiles.
    pub(crate) fn load() -> Result<(Profiles, PathBuf), Failure> {
        let path = store::profiles_path()?;
        Ok((store::read(&path)?, path))
    }

    /// Checks that the profiles file can be changed (its directory made,
    /// locked, written to): before a flow, so that a read-only directory is
    /// found before the provider issues a token, not after.
    pub(crate) fn check_writable() -> Result<PathBuf, Failure> {
        let path = store::profiles_path()?;
        store::check_writable(&path)?;
        Ok(path)
    }

    /// Changes the profiles file at `path` under its lock: `change` sees
    /// the file as it is now, and what it leaves is written atomically.
    pub(crate) fn update<T>(
        path: &Path,
        change: impl FnOnce(&mut Profiles) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        store::update(path, change)
    }

    /// The profile `name`, or the default one.
    pub(crate) fn get(&self, name: Option<&str>) -> Result<(&str, &Profile), Failure> {
        let name = match name {
            Some(name) => name,
            None => self.default.as_deref().ok_or_else(|| {
                Failure::input(
                    "no credentials: pass --consumer-key and --consumer-secret (or set \
                     OAUTH_CONSUMER_KEY, ...), --profile NAME, or log in with `oauth1 authorize`",
                )
            })?,
        };
        self.profiles
            .get_key_value(name)
            .map(|(n, p)| (n.as_str(), p))
            .ok_or_else(|| {
                Failure::input(format!(
                    "no profile named {name:?} (`oauth1 accounts` lists them)"
                ))
            })
    }
}
