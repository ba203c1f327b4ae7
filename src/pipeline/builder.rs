//! A signer's configuration, validated once.
//!
//! As `http::request::Builder` defers to `.body()` and
//! `reqwest::ClientBuilder` to `.build()`, every [`SignerBuilder`] step only
//! stores its value, and [`build`](SignerBuilder::build) checks them all and
//! derives what the signer signs with: the key, from the credentials' secrets
//! (§3.4.2) unless an RSA private key takes their place (§3.4.3), and the
//! signer's own protocol parameters, encoded. A chain needs one `?`, and a
//! [`Signer`] never changes once built, so nothing it computed can go stale.

use crate::error::{Error, ErrorKind};
use crate::pipeline::credentials::Credentials;
use crate::pipeline::header::check_realm;
use crate::pipeline::protocol::{Nonce, Timestamp};
use crate::pipeline::sign::{SignatureMethod, SigningKey};
use crate::pipeline::signer::{Fill, Signer};
use crate::pipeline::style::ParameterStyle;

/// A signer's two ways in: its defaults, or a builder. They live here, with
/// the settings they start from, so that `signer` never imports `builder`.
impl Signer {
    /// An HMAC-SHA1 signer that sends `oauth_version="1.0"`, as the X API
    /// expects, with a fresh nonce and timestamp for every request.
    pub fn new(credentials: Credentials) -> Signer {
        let key = SigningKey::hmac_sha1(
            credentials.consumer_secret().expose(),
            credentials.token_secret().expose(),
        );
        // The builder's defaults, which cannot fail: no need to check them.
        SignerBuilder::new(credentials).assemble(key)
    }

    /// A builder to choose the method, an RSA key, the realm, whether to send
    /// `oauth_version`, and a pinned or omitted nonce or timestamp; its
    /// [`build`](SignerBuilder::build) checks them all at once.
    ///
    /// ```
    /// use oauth1_signer::{Credentials, OAuthRequest, Signer};
    ///
    /// let signer = Signer::builder(Credentials::new("key", "secret"))
    ///     .with_version(false)
    ///     .without_nonce()
    ///     .with_timestamp("1318622958")
    ///     .build()?;
    /// let header = signer.authorization_header(&OAuthRequest::get("https://h/"))?;
    /// assert!(!header.contains("oauth_nonce") && !header.contains("oauth_version"));
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    pub fn builder(credentials: Credentials) -> SignerBuilder {
        SignerBuilder::new(credentials)
    }
}

/// The settings of a [`Signer`], from [`Signer::builder`]; every step stores
/// its value, and [`build`](Self::build) checks them.
///
/// The defaults are [`Signer::new`]'s: HMAC-SHA1, `oauth_version="1.0"`, no
/// realm, a fresh nonce and timestamp for every request.
///
/// ```
/// use oauth1_signer::{Credentials, OAuthRequest, SignatureMethod, Signer};
///
/// let signer = Signer::builder(Credentials::new("key", "secret"))
///     .with_method(SignatureMethod::HmacSha256)
///     .with_realm("Photos")
///     .with_nonce("n")
///     .with_timestamp("1")
///     .build()?;
/// let header = signer.authorization_header(&OAuthRequest::get("https://h/"))?;
/// assert!(header.starts_with(r#"OAuth realm="Photos", oauth_consumer_key="key", oauth_nonce="n""#));
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Debug)]
#[must_use = "a builder does nothing until `.build()`"]
pub struct SignerBuilder {
    credentials: Credentials,
    method: Option<SignatureMethod>,
    key: Option<SigningKey>,
    realm: Option<String>,
    version: bool,
    nonce: Fill,
    timestamp: Fill,
    style: ParameterStyle,
}

impl SignerBuilder {
    pub(crate) fn new(credentials: Credentials) -> SignerBuilder {
        SignerBuilder {
            credentials,
            method: None,
            key: None,
            realm: None,
            version: true,
            nonce: Fill::Fresh,
            timestamp: Fill::Fresh,
            style: ParameterStyle::Rfc5849,
        }
    }

    /// Writes the parameter string and the header in `style`: RFC 5849's
    /// (the default), or a provider's own client's, which its gateway
    /// verifies ([`ParameterStyle`]; a [`Profile`](crate::provider::Profile) sets it).
    pub fn with_parameter_style(mut self, style: ParameterStyle) -> SignerBuilder {
        self.style = style;
        self
    }

    /// Signs with `method` (default: HMAC-SHA1). For an HMAC method or
    /// PLAINTEXT the key is made from the credentials' secrets; an RSA
    /// method needs its private key, given with [`with_key`](Self::with_key).
    pub fn with_method(mut self, method: SignatureMethod) -> SignerBuilder {
        self.method = Some(method);
        self
    }

    /// Signs with an RSA private key (from `SigningKey::rsa_pem`, feature `rsa`), in
    /// place of the credentials' secrets; the signer's method is the key's.
    ///
    /// Only an RSA key is taken: the key of an HMAC method or PLAINTEXT is
    /// always made from the credentials, so that the two cannot disagree.
    pub fn with_key(mut self, key: SigningKey) -> SignerBuilder {
        self.key = Some(key);
        self
    }

    /// Sends `realm="..."` first in the header (never signed).
    pub fn with_realm(mut self, realm: impl Into<String>) -> SignerBuilder {
        self.realm = Some(realm.into());
        self
    }

    /// Whether to send `oauth_version="1.0"` (default: yes; it is optional).
    pub fn with_version(mut self, send: bool) -> SignerBuilder {
        self.version = send;
        self
    }

    /// Pins the nonce, for reproducible output (tests, bug reports).
    pub fn with_nonce(mut self, nonce: impl Into<String>) -> SignerBuilder {
        self.nonce = Fill::Pinned(nonce.into());
        self
    }

    /// Sends no `oauth_nonce` at all (PLAINTEXT over TLS may omit it).
    pub fn without_nonce(mut self) -> SignerBuilder {
        self.nonce = Fill::Omitted;
        self
    }

    /// Pins the timestamp, for reproducible output: seconds since 1970 in
    /// ASCII digits, sent as given (leading zeros too).
    pub fn with_timestamp(mut self, timestamp: impl Into<String>) -> SignerBuilder {
        self.timestamp = Fill::Pinned(timestamp.into());
        self
    }

    /// Sends no `oauth_timestamp` at all.
    pub fn without_timestamp(mut self) -> SignerBuilder {
        self.timestamp = Fill::Omitted;
        self
    }

    /// Checks the settings and builds the signer: the signing key and the
    /// signer's own protocol parameters, encoded, are made here, once.
    ///
    /// # Errors
    /// The first of these, checked in this order:
    /// - the key: [`ErrorKind::MissingKey`] for an RSA method without a key;
    ///   [`ErrorKind::InvalidKey`] for a key given with
    ///   [`with_key`](Self::with_key) that is not an RSA key, or whose method
    ///   is not the one given with [`with_method`](Self::with_method);
    /// - the realm: [`ErrorKind::InvalidByte`] at the first byte that
    ///   [`check_realm`](crate::pipeline::check_realm) refuses;
    /// - the nonce: [`ErrorKind::InvalidProtocolValue`] unless it is one by
    ///   [`Nonce::parse`] (1 to 64 letters, digits and `- . _ ~ + / =`), the
    ///   rule [`verify::Verifier`](crate::verify::Verifier) applies;
    /// - the timestamp: [`ErrorKind::InvalidProtocolValue`] unless it is one
    ///   by [`Timestamp::parse`] (a positive integer that fits in 64 bits).
    ///
    /// ```
    /// use oauth1_signer::{Credentials, ErrorKind, Signer};
    ///
    /// let e = Signer::builder(Credentials::new("key", "secret"))
    ///     .with_nonce("")
    ///     .with_timestamp("12abc")
    ///     .build()
    ///     .unwrap_err();
    /// assert!(matches!(e.kind(), ErrorKind::InvalidProtocolValue { name: "oauth_nonce", .. }));
    /// ```
    pub fn build(mut self) -> Result<Signer, Error> {
        let key = self.key()?;
        if let Some(realm) = &self.realm {
            check_realm(realm)?;
        }
        // The verifier's own rules: what this signer sends, it accepts.
        if let Fill::Pinned(nonce) = &self.nonce {
            Nonce::parse(nonce)?;
        }
        if let Fill::Pinned(timestamp) = &self.timestamp {
            Timestamp::parse(timestamp)?;
        }
        Ok(self.assemble(key))
    }

    /// The signer of these settings, already checked, and `key`.
    pub(crate) fn assemble(self, key: SigningKey) -> Signer {
        let mut signer = Signer::assemble(
            self.credentials,
            key,
            self.realm,
            self.version,
            self.nonce,
            self.timestamp,
        );
        signer.style = self.style;
        signer
    }

    /// The key: the RSA key given, or the one the method makes from the
    /// credentials' secrets.
    fn key(&mut self) -> Result<SigningKey, Error> {
        let Some(key) = self.key.take() else {
            let credentials = &self.credentials;
            return SigningKey::new(
                self.method.unwrap_or_default(),
                credentials.consumer_secret().expose(),
                credentials.token_secret().expose(),
            );
        };
        let reason = match self.method {
            _ if !key.method().is_rsa() => format!(
                "a {} key is made from the credentials' secrets: choose the method with \
                 `with_method`, and give only an RSA private key with `with_key`",
                key.method()
            ),
            Some(method) if method != key.method() => {
                format!("the RSA private key is for {}, not {method}", key.method())
            }
            _ => return Ok(key),
        };
        Err(Error::new(ErrorKind::InvalidKey { reason }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Part;
    use crate::OAuthRequest;

    fn builder() -> SignerBuilder {
        Signer::builder(Credentials::new("ck", "cs").with_token("tk", "ts"))
            .with_nonce("n")
            .with_timestamp("1")
    }

    fn protocol_value(e: &Error) -> &'static str {
        match e.kind() {
            ErrorKind::InvalidProtocolValue { name, .. } => name,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_setting_is_checked_at_build_and_the_first_bad_one_reported() {
        // Each bad value alone, then every one at once: the key first, then
        // the realm, the nonce, the timestamp.
        let bad_realm = |b: SignerBuilder| b.with_realm("a\"b");
        let e = bad_realm(builder()).build().unwrap_err();
        // "a" is one byte: the quote is at byte 1.
        assert_eq!(e.offset(), Some((Part::Realm, 1)));
        let e = builder().with_nonce("").build().unwrap_err();
        assert_eq!(protocol_value(&e), "oauth_nonce");
        for t in [
            "",
            "0",
            "00",
            "-1",
            "+1",
            " 1",
            "1.5",
            "12a",
            "18446744073709551616",
        ] {
            let e = builder().with_timestamp(t).build().unwrap_err();
            assert_eq!(protocol_value(&e), "oauth_timestamp", "{t:?}");
        }
        for t in ["1", "0042", "18446744073709551615"] {
            let s = builder().with_timestamp(t).build().unwrap();
            let h = s
                .authorization_header(&OAuthRequest::get("https://h/"))
                .unwrap();
            assert!(h.contains(&format!("oauth_timestamp=\"{t}\"")), "{h}");
        }
        let all_bad = || {
            bad_realm(builder())
                .with_nonce("")
                .with_timestamp("x")
                .with_method(SignatureMethod::RsaSha1)
        };
        let e = all_bad().build().unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::MissingKey { method: "RSA-SHA1" });
        let e = all_bad()
            .with_method(SignatureMethod::HmacSha1)
            .build()
            .unwrap_err();
        assert_eq!(e.offset(), Some((Part::Realm, 1)));
        let e = all_bad()
            .with_method(SignatureMethod::HmacSha1)
            .with_realm("r")
            .build()
            .unwrap_err();
        assert_eq!(protocol_value(&e), "oauth_nonce");
    }

    #[test]
    fn the_key_is_made_from_the_credentials_unless_it_is_an_rsa_key() {
        // A key made from other secrets cannot stand in for the credentials'.
        for method in [SignatureMethod::HmacSha1, SignatureMethod::Plaintext] {
            let other = SigningKey::new(method, "other", "secrets").unwrap();
            for with_method in [None, Some(method)] {
                let mut b = builder().with_key(other.clone());
                if let Some(m) = with_method {
                    b = b.with_method(m);
                }
                let e = b.build().unwrap_err();
                assert!(
                    matches!(e.kind(), ErrorKind::InvalidKey { .. }),
                    "{:?}",
                    e.kind()
                );
                assert!(e.to_string().contains("with_method"), "{e}");
                assert!(!e.to_string().contains("other"), "{e}");
            }
        }
        // Every HMAC and PLAINTEXT key is the credentials': "cs&ts".
        for method in [
            SignatureMethod::HmacSha1,
            SignatureMethod::HmacSha256,
            SignatureMethod::HmacSha512,
            SignatureMethod::Plaintext,
        ] {
            let s = builder().with_method(method).build().unwrap();
            let t = s.trace(&OAuthRequest::get("https://h/")).unwrap();
            assert_eq!(t.signing_key.unwrap().expose(), "cs&ts");
            assert_eq!(s.method(), method);
        }
    }

    #[cfg(feature = "rsa")]
    #[test]
    fn an_rsa_key_must_be_for_the_method_asked_for() {
        let pem = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/keys/oauth_net_testcases_rsa_pkcs8.pem"
        ));
        let key = SigningKey::rsa_pem(SignatureMethod::RsaSha1, pem).unwrap();
        let s = builder().with_key(key.clone()).build().unwrap();
        assert_eq!(s.method(), SignatureMethod::RsaSha1);
        // RSA signs with the private key: no text key to show.
        let t = s.trace(&OAuthRequest::get("https://h/")).unwrap();
        assert!(t.signing_key.is_none());
        for method in [SignatureMethod::RsaSha256, SignatureMethod::HmacSha1] {
            let e = builder()
                .with_key(key.clone())
                .with_method(method)
                .build()
                .unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::InvalidKey { .. }),
                "{:?}",
                e.kind()
            );
            assert!(e.to_string().contains("is for RSA-SHA1"), "{e}");
        }
    }
}
