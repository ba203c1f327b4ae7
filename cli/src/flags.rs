//! The credential flags (and the signature method and RSA key), defined
//! once for every subcommand that signs, verifies or logs in, and the one
//! path that resolves them ([`Credentials::fill`]): `--profile NAME`, else
//! the flags and the environment (`OAUTH_*`, values hidden in `--help`),
//! else the default profile. The secrets may start with '-' (`lib.rs` keeps
//! them out of clap's error messages).

use std::path::{Path, PathBuf};

use clap::Args;
use oauth1_signer::{RequestSpec, Secret, SignatureMethod};

use crate::profile::Profiles;
use crate::Failure;

/// Every credential a subcommand that signs or verifies takes, and where
/// they come from.
#[derive(Args, Debug)]
pub(crate) struct Credentials {
    /// Use the saved account NAME (see `oauth1 accounts`); without it and
    /// without a consumer key, the default account is used
    #[arg(long, value_name = "NAME")]
    pub(crate) profile: Option<String>,

    /// The client credentials
    #[command(flatten)]
    pub(crate) consumer: ConsumerFlags,

    /// The token credentials
    #[command(flatten)]
    pub(crate) tokens: TokenFlags,

    /// Use an empty consumer secret when none is given (otherwise refused)
    #[arg(long)]
    pub(crate) empty_consumer_secret: bool,
}

/// The flag ids of [`Credentials`] that name a credential (for `given`).
const CREDENTIAL_IDS: [&str; 4] = ["consumer_key", "consumer_secret", "token", "token_secret"];

impl Credentials {
    /// Fills the credentials of `spec`, the one path every subcommand
    /// takes: `--profile NAME`; else a consumer key from the flags or the
    /// environment, with its secrets from there too; else the default
    /// profile. [`check`](Self::check) says, later, whether the flags'
    /// credentials can sign.
    ///
    /// With a request taken literally (`--request FILE`, `--example`),
    /// `literal` is true: the file's credentials stand, the flags typed on
    /// the command line replace them (`given` says which), and the
    /// environment is not read; `--profile` replaces them all.
    pub(crate) fn fill(
        &self,
        spec: &mut RequestSpec,
        literal: bool,
        given: &dyn Fn(&str) -> bool,
    ) -> Result<(), Failure> {
        let text = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
        if let Some(id) = CREDENTIAL_IDS
            .iter()
            .find(|id| self.profile.is_some() && given(id))
        {
            return Err(Failure::input(format!(
                "--profile and --{} are two sources of credentials: give one",
                id.replace('_', "-")
            )));
        }
        if self.profile.is_none() && literal {
            if given("consumer_key") {
                spec.consumer_key = text(&self.consumer.consumer_key).unwrap_or_default();
            }
            if given("consumer_secret") {
                spec.consumer_secret = self.consumer.consumer_secret.clone().map(Secret::new);
            }
            if given("token") {
                spec.token = text(&self.tokens.token);
            }
            if given("token_secret") {
                spec.token_secret = self.tokens.token_secret.clone().map(Secret::new);
            }
            return Ok(());
        }
        if let (None, Some(key)) = (&self.profile, text(&self.consumer.consumer_key)) {
            spec.consumer_key = key;
            spec.consumer_secret = self.consumer.consumer_secret.clone().map(Secret::new);
            spec.token = text(&self.tokens.token);
            spec.token_secret = self.tokens.token_secret.clone().map(Secret::new);
            return Ok(());
        }
        let (profiles, _) = Profiles::load()?;
        if self.profile.is_none() && profiles.default.is_none() {
            return Err(Failure::input(
                "no consumer key: pass --consumer-key KEY or set OAUTH_CONSUMER_KEY (or \
                 --profile NAME, an account `oauth1 authorize` saved)",
            ));
        }
        let (_, profile) = profiles.get(self.profile.as_deref())?;
        spec.consumer_key.clone_from(&profile.consumer_key);
        spec.consumer_secret = Some(Secret::new(profile.consumer_secret.as_str()));
        spec.token = Some(profile.token.clone()).filter(|t| !t.is_empty());
        spec.token_secret = Some(Secret::new(profile.token_secret.as_str()));
        Ok(())
    }

    /// Fills the credentials of `spec` for a captured request, which names
    /// its own consumer key and token: `--profile NAME`; else the flags and
    /// the environment, whichever of them are given (the secrets alone
    /// will do, or an RSA key, `rsa`); else the default profile. A key or
    /// token filled here is pinned (checked against the capture's); says
    /// where they came from.
    pub(crate) fn fill_for_capture(
        &self,
        spec: &mut RequestSpec,
        rsa: bool,
        given: &dyn Fn(&str) -> bool,
    ) -> Result<Pins, Failure> {
        let text = |v: &Option<String>| v.clone().filter(|s| !s.is_empty());
        let any = text(&self.consumer.consumer_key).is_some()
            || text(&self.tokens.token).is_some()
            || self.consumer.consumer_secret.is_some()
            || self.tokens.token_secret.is_some()
            || self.empty_consumer_secret
            || rsa;
        if self.profile.is_none() && any {
            spec.consumer_key = text(&self.consumer.consumer_key).unwrap_or_default();
            spec.consumer_secret = self.consumer.consumer_secret.clone().map(Secret::new);
            spec.token = text(&self.tokens.token);
            spec.token_secret = self.tokens.token_secret.clone().map(Secret::new);
            let from = |id: &str, env: &str| match given(id) {
                true => format!("--{}", id.replace('_', "-")),
                false => env.to_owned(),
            };
            return Ok(Pins {
                consumer_key: from("consumer_key", "OAUTH_CONSUMER_KEY"),
                token: from("token", "OAUTH_TOKEN"),
            });
        }
        let (profiles, _) = Profiles::load()?;
        if self.profile.is_none() && profiles.default.is_none() {
            return Err(Failure::input(
                "no secrets: pass --consumer-secret SECRET (and --token-secret SECRET) or set \
                 OAUTH_CONSUMER_SECRET (and OAUTH_TOKEN_SECRET), or --profile NAME; the consumer \
                 key and token are the capture's",
            ));
        }
        self.fill(spec, false, given)?;
        let (name, _) = profiles.get(self.profile.as_deref())?;
        let of = |what: &str| format!("the account \"{name}\"'s {what}");
        Ok(Pins {
            consumer_key: of("consumer key"),
            token: of("token"),
        })
    }

    /// Refuses credentials from the flags that would sign with a key no
    /// server holds: no consumer secret (the key would be "&"), unless
    /// asked for or `rsa` (§3.4.3: RSA needs none); a token secret with no
    /// token. A profile's, and a file's, are taken as they are.
    pub(crate) fn check(&self, literal: bool, rsa: bool) -> Result<(), Failure> {
        let given = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
        // Not from the flags: a file's, or a profile's (named, or the
        // default one, used when no consumer key is given).
        if literal || self.profile.is_some() || !given(&self.consumer.consumer_key) {
            return Ok(());
        }
        if given(&self.tokens.token_secret) && !given(&self.tokens.token) {
            return Err(Failure::input(
                "--token-secret is set but no token: set --token / OAUTH_TOKEN, or drop the \
                 token secret",
            ));
        }
        if !rsa && !given(&self.consumer.consumer_secret) && !self.empty_consumer_secret {
            return Err(Failure::input(
                "no consumer secret: pass --consumer-secret SECRET or set OAUTH_CONSUMER_SECRET \
                 (--empty-consumer-secret signs with an empty one)",
            ));
        }
        Ok(())
    }
}

/// Where a capture's pinned consumer key and token came from, as a
/// contradiction names them: `--consumer-key`, `OAUTH_CONSUMER_KEY`, or an
/// account.
#[derive(Debug)]
pub(crate) struct Pins {
    pub(crate) consumer_key: String,
    pub(crate) token: String,
}

/// The text of the `--public-key` file (`verify`, `serve`), if one is given.
pub(crate) fn public_key(path: Option<&Path>) -> Result<Option<String>, Failure> {
    path.map(|path| {
        std::fs::read_to_string(path).map_err(|e| {
            Failure::input(format!(
                "cannot read --public-key file \"{}\": {e}",
                path.display()
            ))
        })
    })
    .transpose()
}

/// The credentials (and signature method and key) as a request with no
/// method or URL yet: `serve` verifies with them (`public_key`: it holds
/// the consumer's RSA public key, so a consumer secret may be absent),
/// `request` signs with them.
pub(crate) fn credentials_spec(
    credentials: &Credentials,
    method: &MethodFlags,
    public_key: bool,
) -> Result<RequestSpec, Failure> {
    let mut spec = RequestSpec::default();
    spec.version = true;
    method.fill(&mut spec, false, &|_| false)?;
    credentials.fill(&mut spec, false, &|_| false)?;
    credentials.check(false, public_key || method.rsa(&spec))?;
    Ok(spec)
}

/// The signature method and, for RSA, the private key.
#[derive(Args, Debug)]
pub(crate) struct MethodFlags {
    /// HMAC-SHA1 (default), HMAC-SHA256, HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256
    #[arg(long, value_name = "METHOD")]
    pub(crate) signature_method: Option<String>,

    /// The RSA private key
    #[command(flatten)]
    pub(crate) key: KeyFlags,
}

impl MethodFlags {
    /// Sets the method and the key of `spec`, when given (`literal`: only
    /// what was typed on the command line replaces the file's).
    pub(crate) fn fill(
        &self,
        spec: &mut RequestSpec,
        literal: bool,
        given: &dyn Fn(&str) -> bool,
    ) -> Result<(), Failure> {
        if !literal || given("signature_method") {
            if let Some(m) = &self.signature_method {
                spec.signature_method = Some(m.clone());
            }
        }
        if let Some(key) = self.key.read()? {
            spec.rsa_private_key = Some(key);
        }
        Ok(())
    }

    /// Whether the method given is an RSA one, or a key is.
    pub(crate) fn rsa(&self, spec: &RequestSpec) -> bool {
        self.key.private_key.is_some()
            || spec
                .signature_method
                .as_deref()
                .and_then(|m| m.parse::<SignatureMethod>().ok())
                .is_some_and(|m| m.is_rsa())
    }
}

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
