//! The credential flags (and the RSA key), defined once for every
//! subcommand that signs or logs in: each may come from the environment (`OAUTH_*`, values hidden in
//! `--help`), and the secrets may start with '-' (`main.rs` keeps them out of
//! clap's error messages).

use std::path::{Path, PathBuf};

use clap::Args;
use oauth1_signer::Secret;

use crate::Failure;

/// The client credentials.
#[derive(Args, Debug)]
pub(crate) struct ConsumerFlags {
    /// Consumer (API) key
    #[arg(long, env = "OAUTH_CONSUMER_KEY", hide_env_values = true)]
    pub(crate) consumer_key: Option<String>,

    /// Consumer (API) secret (may start with '-')
    #[arg(
        long,
        env = "OAUTH_CONSUMER_SECRET",
        hide_env_values = true,
        allow_hyphen_values = true
    )]
    pub(crate) consumer_secret: Option<String>,
}

/// The token credentials.
#[derive(Args, Debug)]
pub(crate) struct TokenFlags {
    /// Token (access token)
    #[arg(long, env = "OAUTH_TOKEN", hide_env_values = true)]
    pub(crate) token: Option<String>,

    /// Token secret (access token secret; may start with '-')
    #[arg(
        long,
        env = "OAUTH_TOKEN_SECRET",
        hide_env_values = true,
        allow_hyphen_values = true
    )]
    pub(crate) token_secret: Option<String>,
}

/// The RSA private key, for RSA-SHA1 and RSA-SHA256 (`sign`, `explain`,
/// `request`).
#[derive(Args, Debug)]
pub(crate) struct KeyFlags {
    /// PEM RSA private key (PKCS#1 or PKCS#8), for RSA-SHA1 and RSA-SHA256
    #[arg(long, value_name = "FILE")]
    pub(crate) private_key: Option<PathBuf>,
}

impl KeyFlags {
    /// The key file's text, if one is given.
    pub(crate) fn read(&self) -> Result<Option<Secret>, Failure> {
        self.private_key
            .as_deref()
            .map(|path| read_key(path).map(Secret::new))
            .transpose()
    }
}

fn read_key(path: &Path) -> Result<String, Failure> {
    let shown = path.display();
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::input(format!("cannot read --private-key file \"{shown}\": {e}")))?;
    String::from_utf8(bytes).map_err(|_| {
        Failure::input(format!(
            "--private-key file \"{shown}\" is not text (expected a PEM RSA private key)"
        ))
    })
}
