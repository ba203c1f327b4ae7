//! Where a verifier finds the secrets of a request's consumer and token
//! ([RFC 5849 §3.4.2]): a trait the application implements, async-friendly
//! (a database, a vault), and [`StaticSecrets`], one fixed set of credentials.
//!
//! [RFC 5849 §3.4.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.2

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

use crate::pipeline::credentials::{Credentials, Secret};
use crate::pipeline::sign::{SignatureMethod, SigningKey};

use super::unavailable::SecretsError;
/// The future a [`SecretSource`] returns.
pub type SecretFuture<'a> = Pin<Box<dyn Future<Output = Result<Lookup, SecretsError>> + Send + 'a>>;

/// What a [`SecretSource`] knows of one consumer key and token.
#[derive(Debug)]
#[non_exhaustive]
pub enum Lookup {
    /// Both are known: their secrets.
    Found(Secrets),
    /// No such consumer key.
    UnknownConsumer,
    /// The consumer is known, the token is not (or is not the consumer's).
    UnknownToken,
}

/// The secrets that verify one request: the consumer secret and, when the
/// request names a token, the token secret (HMAC and PLAINTEXT); under the
/// `rsa` feature, the consumer's RSA public key (RSA-SHA1, RSA-SHA256).
/// Cloned by reference count; `Debug` shows no secret.
///
/// The keyed MAC is data held here: the first request a `Secrets` (or any
/// clone of it) verifies with an HMAC method keys that method's MAC, the
/// signer's own [`SigningKey`], and every request after copies the keyed
/// state, as a [`Signer`](crate::Signer) does. Keep your `Secrets` (as
/// [`StaticSecrets`] does, or a cache in your [`SecretSource`]) and keying
/// is paid once, not per request.
#[derive(Clone, Default)]
pub struct Secrets {
    keys: Arc<Keys>,
}

#[derive(Clone, Default)]
struct Keys {
    consumer_secret: Secret,
    token_secret: Secret,
    /// The key of each method, made on first use: HMAC-SHA1, HMAC-SHA256,
    /// HMAC-SHA512, PLAINTEXT (see [`slot`]).
    keyed: [OnceLock<Option<SigningKey>>; 4],
    #[cfg(feature = "rsa")]
    rsa_public_key: Option<rsa::PublicKey>,
}

/// Where `method`'s key is kept in [`Keys::keyed`]; `None` for RSA.
fn slot(method: SignatureMethod) -> Option<usize> {
    match method {
        SignatureMethod::HmacSha1 => Some(0),
        SignatureMethod::HmacSha256 => Some(1),
        SignatureMethod::HmacSha512 => Some(2),
        SignatureMethod::Plaintext => Some(3),
        SignatureMethod::RsaSha1 | SignatureMethod::RsaSha256 => None,
    }
}

impl Secrets {
    /// The consumer secret and the token secret (empty for a request
    /// without a token).
    pub fn new(consumer_secret: impl Into<Secret>, token_secret: impl Into<Secret>) -> Secrets {
        Secrets {
            keys: Arc::new(Keys {
                consumer_secret: consumer_secret.into(),
                token_secret: token_secret.into(),
                keyed: Default::default(),
                #[cfg(feature = "rsa")]
                rsa_public_key: None,
            }),
        }
    }

    /// The consumer's RSA public key, read from PEM: `BEGIN PUBLIC KEY`
    /// (SubjectPublicKeyInfo), `BEGIN RSA PUBLIC KEY` (PKCS#1) or a
    /// `BEGIN CERTIFICATE` holding one (RFC 5849 §3.4.3: the consumer gives
    /// the server its public key, often as a certificate).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`](crate::ErrorKind::InvalidKey) when the PEM
    /// holds no RSA public key.
    #[cfg(feature = "rsa")]
    pub fn with_rsa_public_key_pem(mut self, pem: &str) -> Result<Secrets, crate::Error> {
        Arc::make_mut(&mut self.keys).rsa_public_key =
            Some(crate::pipeline::pem::read_rsa_public_key(pem)?);
        Ok(self)
    }

    /// The key that verifies `method` (HMAC or PLAINTEXT), made of the two
    /// secrets on first use and kept for every clone; `None` for RSA.
    /// The consumer secret and the token secret, for a diagnosis made with
    /// them (`explain`'s, through the tower layer).
    #[cfg(all(feature = "tower", feature = "explain"))]
    pub(crate) fn pair(&self) -> (&Secret, &Secret) {
        (&self.keys.consumer_secret, &self.keys.token_secret)
    }

    pub(crate) fn signing_key(&self, method: SignatureMethod) -> Option<&SigningKey> {
        let k = &*self.keys;
        k.keyed[slot(method)?]
            .get_or_init(|| {
                SigningKey::new(method, k.consumer_secret.expose(), k.token_secret.expose()).ok()
            })
            .as_ref()
    }

    /// Whether `method`'s key is made already.
    #[cfg(test)]
    pub(crate) fn is_keyed(&self, method: SignatureMethod) -> bool {
        slot(method).is_some_and(|i| self.keys.keyed[i].get().is_some())
    }

    #[cfg(feature = "rsa")]
    pub(crate) fn rsa_public_key(&self) -> Option<&rsa::PublicKey> {
        self.keys.rsa_public_key.as_ref()
    }
}

impl fmt::Debug for Secrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Secrets").finish_non_exhaustive()
    }
}

/// Where a [`Verifier`](crate::verify::Verifier) finds secrets: implemented
/// by the application.
///
/// `token` is `None` for a request without `oauth_token`. An error means
/// the source could not answer; the verifier then rejects the request
/// ([`Reason::SecretsUnavailable`](crate::verify::Reason::SecretsUnavailable)).
///
/// **Keep the [`Secrets`] you return** (a cache keyed by consumer key and
/// token, as [`StaticSecrets`] keeps its two): the time a request takes
/// should not tell whether its key exists. An unknown consumer or token is
/// verified against the verifier's dummy secrets, whose MAC is keyed once,
/// when the verifier is built; a known one against your `Secrets`, keyed at
/// their first request and kept. With kept `Secrets` both cost the same per
/// request (a copy of the keyed state, the base string, the finalisation);
/// new `Secrets` for every lookup would add the keying (the key text and two
/// hash blocks) to known keys only, a difference that many timed requests
/// could show. The lookup itself is the source's to keep even.
///
/// ```
/// use oauth1_signer::verify::{Lookup, SecretFuture, SecretSource, Secrets};
///
/// struct OneConsumer;
///
/// impl SecretSource for OneConsumer {
///     fn secrets<'a>(&'a self, consumer_key: &'a str, token: Option<&'a str>) -> SecretFuture<'a> {
///         Box::pin(async move {
///             Ok(match (consumer_key, token) {
///                 ("key", None) => Lookup::Found(Secrets::new("secret", "")),
///                 ("key", Some(_)) => Lookup::UnknownToken,
///                 _ => Lookup::UnknownConsumer,
///             })
///         })
///     }
/// }
/// ```
pub trait SecretSource: Send + Sync {
    /// The secrets of `consumer_key` and, when `token` is `Some`, of the token.
    fn secrets<'a>(&'a self, consumer_key: &'a str, token: Option<&'a str>) -> SecretFuture<'a>;
}

impl<S: SecretSource + ?Sized> SecretSource for std::sync::Arc<S> {
    fn secrets<'a>(&'a self, consumer_key: &'a str, token: Option<&'a str>) -> SecretFuture<'a> {
        (**self).secrets(consumer_key, token)
    }
}

/// One fixed set of credentials, for tests, a command-line tool or a
/// service with a single client: the consumer key and secret, and the token
/// and its secret if the credentials have one.
///
/// A request naming the consumer key and no token is verified with the
/// consumer secret and an empty token secret (§3.4.2), as a request for
/// temporary credentials is signed (or with the credentials' token secret,
/// when they have one and no token).
#[derive(Clone)]
pub struct StaticSecrets {
    consumer_key: String,
    token: Option<String>,
    /// For a request with the token.
    with_token: Secrets,
    /// For a request without one.
    without_token: Secrets,
}

impl fmt::Debug for StaticSecrets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticSecrets")
            .field("consumer_key", &self.consumer_key)
            .field("token", &self.token)
            .finish_non_exhaustive()
    }
}

impl StaticSecrets {
    /// The secrets of `credentials`.
    pub fn new(credentials: Credentials) -> StaticSecrets {
        let c = &credentials;
        // An empty token is none, as the verifier reads an empty
        // `oauth_token` (the signer sends it as given). Credentials with a
        // token secret and no token (oauthlib signs so) verify requests
        // without a token with that secret.
        let token = c.token().filter(|t| !t.is_empty());
        let without = match token {
            Some(_) => Secret::default(),
            None => c.token_secret().clone(),
        };
        StaticSecrets {
            consumer_key: c.consumer_key().to_owned(),
            token: token.map(str::to_owned),
            with_token: Secrets::new(c.consumer_secret().clone(), c.token_secret().clone()),
            without_token: Secrets::new(c.consumer_secret().clone(), without),
        }
    }

    /// The consumer's RSA public key (see [`Secrets::with_rsa_public_key_pem`]).
    ///
    /// # Errors
    /// As [`Secrets::with_rsa_public_key_pem`].
    #[cfg(feature = "rsa")]
    pub fn with_rsa_public_key_pem(mut self, pem: &str) -> Result<StaticSecrets, crate::Error> {
        self.with_token = self.with_token.with_rsa_public_key_pem(pem)?;
        self.without_token = self.without_token.with_rsa_public_key_pem(pem)?;
        Ok(self)
    }

    fn lookup(&self, consumer_key: &str, token: Option<&str>) -> Lookup {
        if consumer_key != self.consumer_key {
            return Lookup::UnknownConsumer;
        }
        match (token, self.token.as_deref()) {
            (None, _) => Lookup::Found(self.without_token.clone()),
            (Some(t), Some(ours)) if t == ours => Lookup::Found(self.with_token.clone()),
            (Some(_), _) => Lookup::UnknownToken,
        }
    }
}

impl SecretSource for StaticSecrets {
    fn secrets<'a>(&'a self, consumer_key: &'a str, token: Option<&'a str>) -> SecretFuture<'a> {
        let found = self.lookup(consumer_key, token);
        Box::pin(std::future::ready(Ok(found)))
    }
}
