//! Building a [`Verifier`]: each setting stored, then checked once at
//! [`build`](VerifierBuilder::build), as the signer's builder does
//! (`src/builder.rs`); the dummy secrets for unknown keys keyed there.

use std::fmt;
use std::ops::RangeInclusive;
use std::time::Duration;

use crate::error::Error;
use crate::pipeline::body_hash::BodyHash;
use crate::pipeline::clock::unix_now;
use crate::pipeline::credentials::Secret;
use crate::pipeline::sign::SignatureMethod;
use crate::pipeline::style::ParameterStyle;
use crate::pipeline::url::RequestUrl;
use crate::verify::nonce::NonceStore;
use crate::verify::secrets::{SecretSource, Secrets};
use crate::verify::target::{Forwarded, UrlPolicy};
use crate::verify::verifier::{Config, Verifier};

/// The default timestamp window, each way: five minutes.
pub const DEFAULT_WINDOW: Duration = crate::pipeline::Timestamp::WINDOW;

/// Settings of a [`Verifier`], checked at [`build`](Self::build).
pub struct VerifierBuilder<S, N> {
    secrets: S,
    nonces: N,
    base: Option<String>,
    forwarded: Forwarded,
    before: Duration,
    after: Duration,
    methods: Vec<SignatureMethod>,
    nonce_len: RangeInclusive<usize>,
    body_hash: BodyHash,
    style: ParameterStyle,
    clock: fn() -> u64,
}

impl<S, N> fmt::Debug for VerifierBuilder<S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VerifierBuilder")
            .field("public_base_url", &self.base)
            .field("forwarded", &self.forwarded)
            .field("methods", &self.methods)
            .finish_non_exhaustive()
    }
}

impl<S: SecretSource, N: NonceStore> Verifier<S, N> {
    /// A builder with the defaults: no public base URL (received URLs must
    /// be absolute), forwarded headers ignored ([`Forwarded::Ignore`]), a window of
    /// [`DEFAULT_WINDOW`] each way, the HMAC methods (HMAC-SHA1,
    /// HMAC-SHA256, HMAC-SHA512) accepted, nonces by [`Nonce`](crate::pipeline::Nonce)'s rule ([`Nonce::LEN`](crate::pipeline::Nonce::LEN))
    /// characters.
    pub fn builder(secrets: S, nonces: N) -> VerifierBuilder<S, N> {
        VerifierBuilder {
            secrets,
            nonces,
            base: None,
            forwarded: Forwarded::Ignore,
            before: DEFAULT_WINDOW,
            after: DEFAULT_WINDOW,
            methods: vec![
                SignatureMethod::HmacSha1,
                SignatureMethod::HmacSha256,
                SignatureMethod::HmacSha512,
            ],
            nonce_len: crate::pipeline::protocol::Nonce::LEN,
            body_hash: BodyHash::default(),
            style: ParameterStyle::Rfc5849,
            clock: system_clock,
        }
    }
}

/// Seconds since 1970 by the local clock; 0 before 1970 or on a target
/// without a clock, where every timestamp is then refused (fail closed).
fn system_clock() -> u64 {
    unix_now().unwrap_or(0)
}

impl<S, N> VerifierBuilder<S, N> {
    /// The URL clients sign against, `https://api.example.com` (a path,
    /// `https://example.com/api`, is put before every received path): its
    /// scheme, host and port replace the received URL's, as a server behind
    /// a proxy or a TLS terminator needs.
    pub fn public_base_url(mut self, url: impl Into<String>) -> Self {
        self.base = Some(url.into());
        self
    }

    /// Which of the proxy's headers say the scheme and host the client
    /// used ([`Forwarded`]): [`Rfc7239`](Forwarded::Rfc7239) behind a proxy
    /// that writes `Forwarded`, [`XForwarded`](Forwarded::XForwarded) behind
    /// one that writes `X-Forwarded-Proto` and `X-Forwarded-Host`; the other
    /// family is then ignored, for a client may write it. By default
    /// ([`Ignore`](Forwarded::Ignore)) neither is read. When a family gives
    /// both a scheme and a host, they replace the
    /// [public base URL](Self::public_base_url)'s (whose path prefix stays);
    /// else the base URL's are used. Only the *last* value of each is read:
    /// a proxy that appends puts its own last, and earlier values are the
    /// client's to choose. Behind a chain of proxies, have the nearest one
    /// overwrite the headers, or set the public base URL instead.
    pub fn forwarded(mut self, family: Forwarded) -> Self {
        self.forwarded = family;
        self
    }

    /// Whether to take the scheme and host from a proxy's headers, without
    /// naming which: `true` is [`Forwarded::Either`] (a request carrying
    /// both families is refused), `false` is [`Forwarded::Ignore`].
    #[deprecated(
        since = "0.1.0",
        note = "name the family the proxy writes: `.forwarded(Forwarded::XForwarded)` or `.forwarded(Forwarded::Rfc7239)`"
    )]
    pub fn trust_forwarded(self, on: bool) -> Self {
        self.forwarded(if on {
            Forwarded::Either
        } else {
            Forwarded::Ignore
        })
    }

    /// How far a timestamp may be `before` now and `after` now.
    pub fn window(mut self, before: Duration, after: Duration) -> Self {
        self.before = before;
        self.after = after;
        self
    }

    /// The signature methods accepted (PLAINTEXT only when listed here).
    pub fn methods(mut self, methods: &[SignatureMethod]) -> Self {
        self.methods = methods.to_vec();
        self
    }

    /// The nonce lengths accepted, in characters, in place of
    /// [`Nonce::LEN`](crate::pipeline::Nonce::LEN) (1 to 64, what this crate's signer
    /// sends). A nonce holds letters, digits, `-._~` and base64's `+/=`
    /// whatever its length ([`Nonce`](crate::pipeline::Nonce)).
    pub fn nonce_len(mut self, len: RangeInclusive<usize>) -> Self {
        self.nonce_len = len;
        self
    }

    /// How `oauth_body_hash` is checked ([`BodyHash`]): a hash that is sent
    /// is always checked, against the body received, by the policy's hash
    /// (by default the signature method's: SHA-1 for HMAC-SHA1, SHA-256 for
    /// the `-SHA256` methods); with [`BodyHashPolicy::Required`](crate::BodyHashPolicy::Required)
    /// a request whose body is not form-encoded and that sends none is
    /// refused (`ParameterAbsent`).
    pub fn body_hash(mut self, body_hash: BodyHash) -> Self {
        self.body_hash = body_hash;
        self
    }

    /// The parameter string clients sign, as a signer with
    /// [`with_parameter_style`](crate::SignerBuilder::with_parameter_style)
    /// writes it: RFC 5849's (the default), or that of the official client
    /// a provider's users run, for a stand-in of that provider
    /// ([`ParameterStyle::Mastercard`]). Mastercard's style reads only what
    /// its signers send (their seven parameters, in the header, values as
    /// they write them, none holding `&` or `=`), and requires and checks
    /// `oauth_body_hash` over every body, a form's too
    /// ([`ParameterStyle::body_hash`]), whatever [`body_hash`](Self::body_hash)
    /// says of when.
    pub fn parameter_style(mut self, style: ParameterStyle) -> Self {
        self.style = style;
        self
    }

    /// The clock [`Verifier::verify`] reads, in seconds since 1970: the
    /// system clock by default; a fixed instant to replay recorded requests
    /// (a test double of a provider, say).
    pub fn clock(mut self, now_unix: fn() -> u64) -> Self {
        self.clock = now_unix;
        self
    }

    /// The verifier.
    ///
    /// # Errors
    /// A public base URL that [`RequestUrl::parse`] refuses, or that has a
    /// query or a fragment ([`ErrorKind::InvalidUrl`](crate::ErrorKind::InvalidUrl)).
    pub fn build(self) -> Result<Verifier<S, N>, Error> {
        let base = match &self.base {
            None => None,
            Some(text) => {
                let url = RequestUrl::parse(text)?;
                if let Some(at) = text.find(['?', '#']) {
                    return Err(Error::invalid_url(
                        at,
                        "a public base URL has no query or fragment",
                    ));
                }
                let path_at = text.len() - url.path().len();
                Some((
                    text[..path_at].to_owned(),
                    url.path().trim_end_matches('/').to_owned(),
                ))
            }
        };
        Ok(Verifier {
            secrets: self.secrets,
            nonces: self.nonces,
            config: Config {
                url: UrlPolicy {
                    base,
                    forwarded: self.forwarded,
                },
                before: self.before,
                after: self.after,
                nonce_len: self.nonce_len,
                // The style's own rule: Mastercard's requires a hash on
                // every request, a form's too (`quirks.rs`).
                body_hash: self.style.body_hash(self.body_hash),
                style: self.style,
                dummy: dummy_secrets(&self.methods),
                methods: self.methods,
                clock: self.clock,
            },
        })
    }
}

/// 32 alphanumeric characters from the thread's generator: a secret
/// nobody knows.
#[cfg(not(fuzzing))]
fn unknown_secret() -> Secret {
    use rand::RngExt as _;
    let mut rng = rand::rng();
    Secret::new(
        (0..32)
            .map(|_| char::from(rng.sample(rand::distr::Alphanumeric)))
            .collect::<String>(),
    )
}

/// In a fuzzing build (`--cfg fuzzing`, which cargo-fuzz sets), one fixed
/// text: the generator's rejection sampling runs a random number of rounds
/// and compares random values, and libFuzzer, which keeps an input for the
/// new coverage it shows and mutates with the values compared, would keep
/// different inputs from one seed from run to run (`fuzz/run.sh`).
#[cfg(fuzzing)]
fn unknown_secret() -> Secret {
    Secret::new("fuzzing-build-no-random-secrets")
}

/// Secrets nobody knows, made once per verifier, with the key of every
/// method it accepts made now: an unknown consumer or token is verified
/// with a keyed MAC ready, as a known one whose [`Secrets`] are kept is.
fn dummy_secrets(methods: &[SignatureMethod]) -> Secrets {
    let secrets = Secrets::new(unknown_secret(), unknown_secret());
    #[cfg(feature = "rsa")]
    let secrets = match secrets
        .clone()
        .with_rsa_public_key_pem(DUMMY_RSA_PUBLIC_KEY)
    {
        Ok(with_key) => with_key,
        Err(_) => secrets,
    };
    for &m in methods {
        secrets.signing_key(m);
    }
    secrets
}

/// A 1024-bit public key for the unknown consumers of RSA methods, so that
/// they cost an RSA verification like the known ones (the result is thrown
/// away). It is oauthlib's test key's (`fixtures/keys/oauthlib_tests_rsa_public.pem`).
#[cfg(feature = "rsa")]
const DUMMY_RSA_PUBLIC_KEY: &str = "-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDVahqY+sRrmRYmbkMaJjt15Bg4
lyIUdKwyM5TxE6fN3vn38ifxyFlz4XUDmLLE+W+zXf5m4Xc5dJq3gpAWJtDH35BF
L5UMeaf5xcfsf26YQ1jWF6dP7AIRWaOw8mb3H2A0AMMBHUpJH/m0TX6dJCkuvlwq
NdFRCCH+iyTjJxVFKwIDAQAB
-----END PUBLIC KEY-----
";

#[cfg(all(test, feature = "rsa"))]
mod tests {
    use super::*;

    #[test]
    fn unknown_rsa_consumers_cost_an_rsa_verification_too() {
        // The dummy public key parses, so an unknown consumer is verified
        // against it rather than answered at once.
        assert!(dummy_secrets(&[]).rsa_public_key().is_some());
    }
}
