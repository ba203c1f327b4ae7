//! Client and token credentials ([RFC 5849 §1.1]).
//!
//! The consumer key and the token travel in the clear in every request; the
//! two secrets never do, and are kept in [`Secret`], whose `Debug` and
//! `Display` never show them.
//!
//! [RFC 5849 §1.1]: https://www.rfc-editor.org/rfc/rfc5849#section-1.1

use std::fmt;

/// A string that must not be shown: `Debug` prints `Secret(<redacted>)`.
///
/// Its memory is overwritten with zeros when it is dropped, and it has no
/// `==`: [`ct_eq`](Self::ct_eq) compares in time that does not depend on
/// where two secrets differ.
///
/// ```
/// use oauth1_signer::Secret;
///
/// let s = Secret::new("kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw");
/// assert_eq!(format!("{s:?}"), "Secret(<redacted>)");
/// assert_eq!(s.expose(), "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw");
/// assert!(s.ct_eq(&Secret::new("kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw")));
/// ```
#[derive(Clone, Default)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(secret: impl Into<String>) -> Secret {
        Secret(secret.into())
    }

    /// The secret itself. Call this only where the secret is really needed.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether the secret is the empty string.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Compares two secrets in time that depends only on their lengths.
    pub fn ct_eq(&self, other: &Secret) -> bool {
        use subtle::ConstantTimeEq as _;
        self.0.as_bytes().ct_eq(other.0.as_bytes()).into()
    }
}

impl Drop for Secret {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.0);
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<redacted>)")
    }
}

impl From<String> for Secret {
    fn from(s: String) -> Secret {
        Secret(s)
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Secret {
        Secret(s.to_owned())
    }
}

/// The client credentials and, optionally, the token credentials of a request.
///
/// ```
/// use oauth1_signer::Credentials;
///
/// let c = Credentials::new("xvz1evFS4wEEPTGEFPHBog", "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw")
///     .with_token("370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE");
/// let shown = format!("{c:?}");
/// assert!(shown.contains("xvz1evFS4wEEPTGEFPHBog"));
/// assert!(!shown.contains("kAcSOqF21"));
/// assert!(!shown.contains("LswwdoUa"));
/// ```
#[derive(Clone, Debug)]
pub struct Credentials {
    consumer_key: String,
    consumer_secret: Secret,
    token: Option<String>,
    token_secret: Secret,
}

impl Credentials {
    /// Client credentials only (as for a request-token call).
    pub fn new(consumer_key: impl Into<String>, consumer_secret: impl Into<Secret>) -> Credentials {
        Credentials {
            consumer_key: consumer_key.into(),
            consumer_secret: consumer_secret.into(),
            token: None,
            token_secret: Secret::default(),
        }
    }

    /// Adds the token credentials (the X API's "access token" and "access token secret").
    pub fn with_token(
        mut self,
        token: impl Into<String>,
        token_secret: impl Into<Secret>,
    ) -> Credentials {
        self.token = Some(token.into());
        self.token_secret = token_secret.into();
        self
    }

    /// Sets the token secret without a token, as when a token secret is known
    /// but `oauth_token` is not to be sent.
    pub fn with_token_secret(mut self, token_secret: impl Into<Secret>) -> Credentials {
        self.token_secret = token_secret.into();
        self
    }

    /// The consumer key (`oauth_consumer_key`).
    pub fn consumer_key(&self) -> &str {
        &self.consumer_key
    }

    /// The consumer secret.
    pub fn consumer_secret(&self) -> &Secret {
        &self.consumer_secret
    }

    /// The token (`oauth_token`), if any.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The token secret; empty when there is none.
    pub fn token_secret(&self) -> &Secret {
        &self.token_secret
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_shows_the_key_and_token_but_not_the_secrets() {
        let c = Credentials::new("ck-PUBLIC", "cs-SECRET").with_token("tk-PUBLIC", "ts-SECRET");
        assert_eq!(
            format!("{c:?}"),
            "Credentials { consumer_key: \"ck-PUBLIC\", consumer_secret: Secret(<redacted>), \
             token: Some(\"tk-PUBLIC\"), token_secret: Secret(<redacted>) }"
        );
        let c = Credentials::new("ck", "cs-SECRET").with_token_secret("ts-SECRET");
        assert_eq!(c.token(), None);
        assert_eq!(c.token_secret().expose(), "ts-SECRET");
        assert!(!format!("{c:?}").contains("SECRET"));
    }
}
