//! The credential flags, defined once for every subcommand that signs or
//! logs in: each may come from the environment (`OAUTH_*`, values hidden in
//! `--help`), and the secrets may start with '-' (`main.rs` keeps them out of
//! clap's error messages).

use clap::Args;

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
