//! Saved accounts (`oauth1 authorize` writes them, `request --profile` and
//! `accounts` read them), and the credentials of a command: from a profile,
//! or from the flags and the environment as `sign` takes them.
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

use clap::Args;
use oauth1_signer::{json::RequestSpec, Secret, Signer};
use serde::{Deserialize, Serialize};

use crate::flags::{ConsumerFlags, KeyFlags, TokenFlags};
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

/// The credentials of `request`: the same flags and environment variables
/// as `sign`, or a saved profile.
#[derive(Args, Debug)]
pub(crate) struct CredentialArgs {
    /// Use the saved account NAME (see `oauth1 accounts`); without it and
    /// without a consumer key, the default account is used
    #[arg(long, value_name = "NAME")]
    pub(crate) profile: Option<String>,

    /// The client credentials
    #[command(flatten)]
    pub(crate) consumer: ConsumerFlags,

    /// The token credentials
    #[command(flatten)]
    tokens: TokenFlags,

    /// HMAC-SHA1 (default), HMAC-SHA256, HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256
    #[arg(long, value_name = "METHOD")]
    signature_method: Option<String>,

    /// The RSA private key
    #[command(flatten)]
    key: KeyFlags,
}

impl CredentialArgs {
    /// A signer with fresh nonces and timestamps, built as `sign` builds
    /// one (through `RequestSpec::fresh_signer`).
    pub(crate) fn signer(&self) -> Result<Signer, Failure> {
        self.spec()?
            .fresh_signer()
            .map_err(|e| Failure::input(e.to_string()))
    }

    /// The credentials (and signature method and key) as a request with no
    /// method or URL yet: `serve` verifies with them.
    pub(crate) fn spec(&self) -> Result<RequestSpec, Failure> {
        let given = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
        let mut spec = RequestSpec::default();
        spec.version = true;
        spec.signature_method.clone_from(&self.signature_method);
        spec.rsa_private_key = self.key.read()?;
        match (&self.profile, given(&self.consumer.consumer_key)) {
            (None, Some(key)) => {
                // An RSA signature is made with the private key alone (§3.4.3).
                let secret = given(&self.consumer.consumer_secret);
                if secret.is_none() && spec.rsa_private_key.is_none() {
                    return Err(Failure::input(
                        "no consumer secret: pass --consumer-secret SECRET or set \
                         OAUTH_CONSUMER_SECRET",
                    ));
                }
                spec.consumer_key = key;
                spec.consumer_secret = secret.map(Secret::new);
                spec.token = given(&self.tokens.token);
                if spec.token.is_none() && given(&self.tokens.token_secret).is_some() {
                    return Err(Failure::input(
                        "--token-secret is set but no token: set --token / OAUTH_TOKEN, or drop the token secret",
                    ));
                }
                spec.token_secret = self.tokens.token_secret.clone().map(Secret::new);
            }
            (name, _) => {
                let (profiles, _) = Profiles::load()?;
                let (_, profile) = profiles.get(name.as_deref())?;
                spec.consumer_key.clone_from(&profile.consumer_key);
                spec.consumer_secret = Some(Secret::new(profile.consumer_secret.as_str()));
                spec.token = Some(profile.token.clone());
                spec.token_secret = Some(Secret::new(profile.token_secret.as_str()));
            }
        }
        Ok(spec)
    }
}
