//! Signature methods and the signing key ([RFC 5849 §3.4.2–3.4.4]).
//!
//! HMAC methods key the MAC with `encode(consumer_secret) & encode(token_secret)`,
//! the `&` always present ([§3.4.2]); PLAINTEXT sends that key as the signature
//! ([§3.4.4]); RSA methods sign the base string with the client's private key
//! using RSASSA-PKCS1-v1_5 ([§3.4.3], feature `rsa`). HMAC-SHA256 and
//! HMAC-SHA512 are the common extensions of §3.4.2, RSA-SHA256 of §3.4.3.
//!
//! A [`SigningKey`] computes the keyed state once; every signature after that
//! starts from a copy of it, and the base string is streamed into it.
//!
//! [RFC 5849 §3.4.2–3.4.4]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.2
//! [§3.4.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.2
//! [§3.4.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.3
//! [§3.4.4]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.4

use std::fmt;
use std::str::FromStr;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use hmac::{Hmac, KeyInit, Mac};
use sha1::Sha1;
use sha2::{Sha256, Sha512};

use crate::error::{Error, ErrorKind};
use crate::pipeline::base_string::BaseString;
use crate::pipeline::credentials::Secret;
use crate::text::encode::encode_to;
use crate::text::sink::Sink;

// RSASSA-PKCS1-v1_5, the RSA methods (§3.4.3).
#[cfg(feature = "rsa")]
mod pkcs1;

#[cfg(feature = "rsa")]
use self::pkcs1::rsa_sign;
#[cfg(feature = "rsa")]
pub(crate) use self::pkcs1::rsa_verify;

/// A signature method (`oauth_signature_method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum SignatureMethod {
    /// `HMAC-SHA1` (§3.4.2), what the X API uses.
    #[default]
    HmacSha1,
    /// `HMAC-SHA256`.
    HmacSha256,
    /// `HMAC-SHA512`.
    HmacSha512,
    /// `PLAINTEXT` (§3.4.4): the signing key itself; only over TLS.
    Plaintext,
    /// `RSA-SHA1` (§3.4.3), feature `rsa`.
    RsaSha1,
    /// `RSA-SHA256`, feature `rsa`.
    RsaSha256,
}

impl SignatureMethod {
    /// Every method, in the order above (an RSA one needs the `rsa` feature
    /// to sign or verify).
    pub const ALL: [SignatureMethod; 6] = [
        SignatureMethod::HmacSha1,
        SignatureMethod::HmacSha256,
        SignatureMethod::HmacSha512,
        SignatureMethod::Plaintext,
        SignatureMethod::RsaSha1,
        SignatureMethod::RsaSha256,
    ];

    /// The name as sent in `oauth_signature_method`.
    pub fn as_str(&self) -> &'static str {
        match self {
            SignatureMethod::HmacSha1 => "HMAC-SHA1",
            SignatureMethod::HmacSha256 => "HMAC-SHA256",
            SignatureMethod::HmacSha512 => "HMAC-SHA512",
            SignatureMethod::Plaintext => "PLAINTEXT",
            SignatureMethod::RsaSha1 => "RSA-SHA1",
            SignatureMethod::RsaSha256 => "RSA-SHA256",
        }
    }

    /// Whether the method signs with an RSA private key.
    pub fn is_rsa(&self) -> bool {
        matches!(self, SignatureMethod::RsaSha1 | SignatureMethod::RsaSha256)
    }
}

impl fmt::Display for SignatureMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SignatureMethod {
    type Err = Error;

    /// Parses a method name; case does not matter (`hmac-sha1` is `HMAC-SHA1`).
    fn from_str(s: &str) -> Result<SignatureMethod, Error> {
        SignatureMethod::ALL
            .into_iter()
            .find(|m| m.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| Error::new(ErrorKind::UnknownSignatureMethod { name: s.to_owned() }))
    }
}

/// The text of the HMAC and PLAINTEXT key (§3.4.2):
/// `encode(consumer_secret) & encode(token_secret)`, the `&` always there.
///
/// ```
/// use oauth1_signer::pipeline::key_string;
///
/// let key = key_string("kd94hf93k423kf44", "");
/// assert_eq!(key.expose(), "kd94hf93k423kf44&");
/// assert_eq!(key_string("a b", "c&d").expose(), "a%20b&c%26d");
/// ```
pub fn key_string(consumer_secret: &str, token_secret: &str) -> Secret {
    let mut key = String::new();
    encode_to(consumer_secret.as_bytes(), &mut key);
    key.push('&');
    encode_to(token_secret.as_bytes(), &mut key);
    Secret::new(key)
}

/// A signature, as text: base64 for HMAC and RSA methods, the signing key for
/// PLAINTEXT. Not yet percent-encoded.
///
/// A PLAINTEXT signature is the secrets themselves: [`is_secret`](Self::is_secret)
/// says so, and `Debug` hides it. Compare signatures with
/// [`ct_eq`](Self::ct_eq), which takes the same time wherever they differ;
/// there is no `==`, so that a verifier cannot leak timing by accident.
#[derive(Clone)]
pub struct Signature {
    repr: Repr,
}

#[derive(Clone)]
enum Repr {
    /// Base64 of an HMAC, held inline: 88 bytes fit HMAC-SHA512.
    Inline([u8; 88], u8),
    Base64(String),
    Plaintext(Secret),
}

impl Signature {
    fn base64(digest: &[u8]) -> Signature {
        let mut buf = [0u8; 88];
        match STANDARD.encode_slice(digest, &mut buf) {
            Ok(n) => Signature {
                repr: Repr::Inline(buf, n as u8),
            },
            Err(_) => Signature {
                repr: Repr::Base64(STANDARD.encode(digest)),
            },
        }
    }

    /// Whether the signature is secret: a PLAINTEXT signature is the signing
    /// key. Whatever shows signatures (a trace, a log line, the CLI) asks this.
    pub fn is_secret(&self) -> bool {
        matches!(self.repr, Repr::Plaintext(_))
    }

    /// Compares the signature with `other` (an `oauth_signature` as
    /// received, not percent-encoded) in time that does not depend on where
    /// they differ.
    ///
    /// ```
    /// use oauth1_signer::{SignatureMethod, pipeline::SigningKey};
    ///
    /// let key = SigningKey::new(SignatureMethod::HmacSha1, "cs", "")?;
    /// let signature = key.sign_bytes(b"bs")?;
    /// assert!(signature.ct_eq("egQqG5AJep5sJ7anhXju1unge2I="));
    /// assert!(!signature.ct_eq("egQqG5AJep5sJ7anhXju1unge2J="));
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    pub fn ct_eq(&self, other: &str) -> bool {
        use subtle::ConstantTimeEq as _;
        self.as_str().as_bytes().ct_eq(other.as_bytes()).into()
    }

    /// The signature text (`oauth_signature` before percent-encoding).
    pub fn as_str(&self) -> &str {
        match &self.repr {
            Repr::Inline(buf, n) => std::str::from_utf8(&buf[..*n as usize]).unwrap_or_default(),
            Repr::Base64(s) => s,
            Repr::Plaintext(s) => s.expose(),
        }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Plaintext(_) => f.write_str("Signature(<redacted PLAINTEXT>)"),
            _ => f.debug_tuple("Signature").field(&self.as_str()).finish(),
        }
    }
}

/// A prepared key for one signature method: the keyed HMAC state, the
/// PLAINTEXT key, or an RSA private key. Build it once, sign many times.
///
/// An HMAC or PLAINTEXT key keeps the two secrets it was made from and its
/// [`key_string`](Self::key_string) (never shown by `Debug`), so that what
/// reports on a key (a [`Trace`](crate::Trace), the explainer) reads the key
/// that signed.
///
/// ```
/// use oauth1_signer::{SignatureMethod, pipeline::SigningKey};
///
/// // oauth.net TestCases, HMAC-SHA1 section.
/// let key = SigningKey::new(SignatureMethod::HmacSha1, "cs", "")?;
/// assert_eq!(key.sign_bytes(b"bs")?.as_str(), "egQqG5AJep5sJ7anhXju1unge2I=");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone)]
pub struct SigningKey {
    inner: Key,
    /// What an HMAC or PLAINTEXT key is made of; `None` for RSA.
    secrets: Option<Box<Secrets>>,
}

/// The two secrets of an HMAC or PLAINTEXT key and the key text made of them
/// (§3.4.2), kept with the key so that whatever reports on the key (a trace,
/// the explainer) reads it from the key that signed.
#[derive(Clone)]
struct Secrets {
    /// The consumer and token secrets, as given; `None` for a key made from
    /// its text alone (a mistaken key text the explainer tries).
    parts: Option<(Secret, Secret)>,
    text: Secret,
}

#[derive(Clone)]
enum Key {
    HmacSha1(Hmac<Sha1>),
    HmacSha256(Hmac<Sha256>),
    HmacSha512(Hmac<Sha512>),
    Plaintext,
    #[cfg(feature = "rsa")]
    Rsa(Box<rsa::PrivateKey>, bool),
}

impl fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("method", &self.method())
            .finish_non_exhaustive()
    }
}

fn hmac<M: KeyInit>(key: &Secret) -> M {
    // HMAC takes keys of every length: `hmac`'s `new_from_slice` never fails.
    // The fallback only keeps this free of panics and is never taken.
    <M as KeyInit>::new_from_slice(key.expose().as_bytes())
        .unwrap_or_else(|_| <M as KeyInit>::new(&Default::default()))
}

impl Secrets {
    fn new(consumer_secret: &str, token_secret: &str) -> Secrets {
        Secrets {
            parts: Some((Secret::new(consumer_secret), Secret::new(token_secret))),
            text: key_string(consumer_secret, token_secret),
        }
    }
}

impl SigningKey {
    /// The HMAC-SHA1 key, which cannot fail.
    pub(crate) fn hmac_sha1(consumer_secret: &str, token_secret: &str) -> SigningKey {
        let secrets = Secrets::new(consumer_secret, token_secret);
        SigningKey {
            inner: Key::HmacSha1(hmac(&secrets.text)),
            secrets: Some(Box::new(secrets)),
        }
    }

    /// Prepares the key of an HMAC or PLAINTEXT method from the two secrets.
    ///
    /// # Errors
    /// [`ErrorKind::MissingKey`] for an RSA method: use
    /// `SigningKey::rsa_pem` (feature `rsa`).
    pub fn new(
        method: SignatureMethod,
        consumer_secret: &str,
        token_secret: &str,
    ) -> Result<SigningKey, Error> {
        SigningKey::with_secrets(method, Secrets::new(consumer_secret, token_secret))
    }

    /// [`new`](Self::new) from the key text itself: [`key_string`]'s, or
    /// another a mistaken implementation makes (the explainer tries those).
    #[cfg(feature = "explain")]
    pub(crate) fn from_key_string(
        method: SignatureMethod,
        key: Secret,
    ) -> Result<SigningKey, Error> {
        let secrets = Secrets {
            parts: None,
            text: key,
        };
        SigningKey::with_secrets(method, secrets)
    }

    /// The HMAC or PLAINTEXT key of `method` made of `secrets`.
    fn with_secrets(method: SignatureMethod, secrets: Secrets) -> Result<SigningKey, Error> {
        let inner = match method {
            SignatureMethod::HmacSha1 => Key::HmacSha1(hmac(&secrets.text)),
            SignatureMethod::HmacSha256 => Key::HmacSha256(hmac(&secrets.text)),
            SignatureMethod::HmacSha512 => Key::HmacSha512(hmac(&secrets.text)),
            SignatureMethod::Plaintext => Key::Plaintext,
            SignatureMethod::RsaSha1 | SignatureMethod::RsaSha256 => {
                return Err(Error::new(ErrorKind::MissingKey {
                    method: method.as_str(),
                }))
            }
        };
        Ok(SigningKey {
            inner,
            secrets: Some(Box::new(secrets)),
        })
    }

    /// The signature method this key is for.
    pub fn method(&self) -> SignatureMethod {
        match &self.inner {
            Key::HmacSha1(_) => SignatureMethod::HmacSha1,
            Key::HmacSha256(_) => SignatureMethod::HmacSha256,
            Key::HmacSha512(_) => SignatureMethod::HmacSha512,
            Key::Plaintext => SignatureMethod::Plaintext,
            #[cfg(feature = "rsa")]
            Key::Rsa(_, false) => SignatureMethod::RsaSha1,
            #[cfg(feature = "rsa")]
            Key::Rsa(_, true) => SignatureMethod::RsaSha256,
        }
    }

    /// The size in bits of an RSA key's modulus (1024, 2048...); `None` for
    /// the other methods.
    ///
    /// RSA keys under 2048 bits are too weak to sign with (NIST SP 800-131A
    /// has disallowed them since 2014). The library signs with them all the
    /// same, since a server may still ask for one; a caller that can warn
    /// should, when this is below 2048.
    pub fn rsa_bits(&self) -> Option<usize> {
        #[cfg(feature = "rsa")]
        if let Key::Rsa(key, _) = &self.inner {
            use rsa::traits::PublicKeyParts as _;
            return Some(key.n().bit_width() as usize);
        }
        None
    }

    /// The key text of an HMAC or PLAINTEXT key,
    /// `encode(consumer_secret) & encode(token_secret)` (see [`key_string`]);
    /// `None` for RSA, which signs with the private key.
    ///
    /// ```
    /// use oauth1_signer::{SignatureMethod, pipeline::SigningKey};
    ///
    /// let key = SigningKey::new(SignatureMethod::HmacSha1, "a b", "c&d")?;
    /// assert_eq!(key.key_string().map(|k| k.expose()), Some("a%20b&c%26d"));
    /// # Ok::<(), oauth1_signer::Error>(())
    /// ```
    pub fn key_string(&self) -> Option<&Secret> {
        self.secrets.as_deref().map(|s| &s.text)
    }

    /// The consumer secret and the token secret an HMAC or PLAINTEXT key is
    /// made of; `None` for RSA, and for a key made from its text alone.
    #[cfg_attr(not(feature = "explain"), allow(dead_code))]
    pub(crate) fn secrets(&self) -> Option<(&Secret, &Secret)> {
        let (consumer, token) = self.secrets.as_deref()?.parts.as_ref()?;
        Some((consumer, token))
    }

    /// Starts a signature: a [`Sink`] to stream the base string into.
    fn begin(&self) -> Signing<'_> {
        let state = match &self.inner {
            Key::HmacSha1(m) => State::HmacSha1(m.clone()),
            Key::HmacSha256(m) => State::HmacSha256(m.clone()),
            Key::HmacSha512(m) => State::HmacSha512(m.clone()),
            Key::Plaintext => State::Plaintext,
            #[cfg(feature = "rsa")]
            Key::Rsa(_, false) => State::Sha1(<Sha1 as sha1::Digest>::new()),
            #[cfg(feature = "rsa")]
            Key::Rsa(_, true) => State::Sha256(<Sha256 as sha2::Digest>::new()),
        };
        Signing { key: self, state }
    }

    /// Signs a base string, streaming it into the MAC without building it.
    ///
    /// # Errors
    /// Only for RSA: [`ErrorKind::Rsa`] if the private-key operation fails.
    pub fn sign(&self, base_string: &BaseString<'_, '_>) -> Result<Signature, Error> {
        let mut s = self.begin();
        base_string.write_to(&mut s);
        s.finish()
    }

    /// Signs a base string given as bytes.
    ///
    /// # Errors
    /// Only for RSA: [`ErrorKind::Rsa`] if the private-key operation fails.
    pub fn sign_bytes(&self, base_string: &[u8]) -> Result<Signature, Error> {
        let mut s = self.begin();
        s.put(base_string);
        s.finish()
    }

    /// Whether `theirs` (an `oauth_signature` as received, not
    /// percent-encoded) is this key's HMAC or PLAINTEXT signature of
    /// `base_string` (§3.4.2, §3.4.4), by the signing path itself (the
    /// keyed state copied, the base string streamed in): for HMAC, their
    /// base64 decoded and compared with the MAC's bytes, for PLAINTEXT the
    /// key text compared with theirs, both in time that does not depend on
    /// where they differ. False for an RSA key (a verifier holds the public
    /// key: `rsa_verify`).
    pub(crate) fn matches(&self, base_string: &[u8], theirs: &str) -> bool {
        let mut s = self.begin();
        s.put(base_string);
        s.matches(theirs)
    }
}

/// Whether `theirs`, base64, decodes to `ours`, compared in constant time
/// (RFC 5849 §3.4.2: the signature is base64 of the digest; comparing the
/// bytes, not the text, leaves no second spelling of one signature).
fn decoded_eq(ours: &[u8], theirs: &str) -> bool {
    use subtle::ConstantTimeEq as _;
    let mut buf = [0u8; 64];
    match STANDARD.decode_slice(theirs.as_bytes(), &mut buf) {
        Ok(n) => buf[..n].ct_eq(ours).into(),
        Err(_) => false,
    }
}

/// A signature in progress: the base string is written into it, then
/// [`finish`](Signing::finish) gives the signature.
struct Signing<'k> {
    key: &'k SigningKey,
    state: State,
}

enum State {
    HmacSha1(Hmac<Sha1>),
    HmacSha256(Hmac<Sha256>),
    HmacSha512(Hmac<Sha512>),
    Plaintext,
    #[cfg(feature = "rsa")]
    Sha1(Sha1),
    #[cfg(feature = "rsa")]
    Sha256(Sha256),
}

impl fmt::Debug for Signing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signing")
            .field("method", &self.key.method())
            .finish_non_exhaustive()
    }
}

impl Sink for Signing<'_> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        match &mut self.state {
            State::HmacSha1(m) => m.update(bytes),
            State::HmacSha256(m) => m.update(bytes),
            State::HmacSha512(m) => m.update(bytes),
            State::Plaintext => {}
            #[cfg(feature = "rsa")]
            State::Sha1(d) => sha1::Digest::update(d, bytes),
            #[cfg(feature = "rsa")]
            State::Sha256(d) => sha2::Digest::update(d, bytes),
        }
    }
}

impl Signing<'_> {
    /// Finishes the signature; fails only for RSA, if the private-key
    /// operation does.
    fn finish(self) -> Result<Signature, Error> {
        Ok(match self.state {
            State::HmacSha1(m) => Signature::base64(&m.finalize().into_bytes()),
            State::HmacSha256(m) => Signature::base64(&m.finalize().into_bytes()),
            State::HmacSha512(m) => Signature::base64(&m.finalize().into_bytes()),
            State::Plaintext => Signature {
                repr: Repr::Plaintext(self.key.key_string().cloned().unwrap_or_default()),
            },
            #[cfg(feature = "rsa")]
            State::Sha1(d) => rsa_sign::<Sha1>(self.key, &sha1::Digest::finalize(d))?,
            #[cfg(feature = "rsa")]
            State::Sha256(d) => rsa_sign::<Sha256>(self.key, &sha2::Digest::finalize(d))?,
        })
    }
}

impl Signing<'_> {
    /// Whether the finished MAC (or the PLAINTEXT key) is `theirs`; false
    /// for RSA, which signs only with the private key.
    fn matches(self, theirs: &str) -> bool {
        use subtle::ConstantTimeEq as _;
        match self.state {
            State::HmacSha1(m) => decoded_eq(&m.finalize().into_bytes(), theirs),
            State::HmacSha256(m) => decoded_eq(&m.finalize().into_bytes(), theirs),
            State::HmacSha512(m) => decoded_eq(&m.finalize().into_bytes(), theirs),
            State::Plaintext => self
                .key
                .key_string()
                .is_some_and(|k| k.expose().as_bytes().ct_eq(theirs.as_bytes()).into()),
            #[cfg(feature = "rsa")]
            State::Sha1(_) | State::Sha256(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_names_round_trip() {
        for m in [
            "HMAC-SHA1",
            "HMAC-SHA256",
            "HMAC-SHA512",
            "PLAINTEXT",
            "RSA-SHA1",
            "RSA-SHA256",
        ] {
            assert_eq!(m.parse::<SignatureMethod>().unwrap().as_str(), m);
        }
        assert_eq!(
            "hmac-sha1".parse::<SignatureMethod>().unwrap(),
            SignatureMethod::HmacSha1
        );
        assert!("HMAC-MD5".parse::<SignatureMethod>().is_err());
    }

    #[test]
    fn verifying_compares_the_decoded_signature() {
        // oauth.net TestCases, HMAC-SHA1: key "cs&", base string "bs".
        let key = SigningKey::new(SignatureMethod::HmacSha1, "cs", "").unwrap();
        let ok = |theirs| key.matches(b"bs", theirs);
        assert!(ok("egQqG5AJep5sJ7anhXju1unge2I="));
        // One bit off in the digest; the last digit's unused bits set (a
        // second spelling of the same bytes that strict base64 refuses); the
        // padding dropped; the text percent-encoded still.
        for theirs in [
            "egQqG5AJep5sJ7anhXju1unge2M=",
            "egQqG5AJep5sJ7anhXju1unge2J=",
            "egQqG5AJep5sJ7anhXju1unge2I",
            "egQqG5AJep5sJ7anhXju1unge2I%3D",
            "",
        ] {
            assert!(!ok(theirs), "{theirs}");
        }
        // PLAINTEXT: the key text itself (§3.4.4).
        let key = SigningKey::new(SignatureMethod::Plaintext, "a b", "c").unwrap();
        let plain = |theirs| key.matches(b"", theirs);
        assert!(plain("a%20b&c"));
        assert!(!plain("a b&c"));
        assert!(!plain("a%20b&c&"));
        #[cfg(feature = "rsa")]
        {
            let key = SigningKey::rsa_pem(SignatureMethod::RsaSha1, PKCS1).unwrap();
            let theirs = key.sign_bytes(b"bs").unwrap();
            assert!(!key.matches(b"bs", theirs.as_str()));
        }
    }

    #[test]
    fn plaintext_signature_is_hidden_from_debug() {
        let key = SigningKey::new(SignatureMethod::Plaintext, "cs-secret", "ts-secret").unwrap();
        let sig = key.sign_bytes(b"anything").unwrap();
        assert_eq!(sig.as_str(), "cs-secret&ts-secret");
        assert!(!format!("{sig:?}").contains("secret&"));
        assert!(!format!("{key:?}").contains("cs-secret"));
    }

    #[test]
    fn rsa_without_key_is_an_error() {
        assert!(SigningKey::new(SignatureMethod::RsaSha1, "", "").is_err());
    }

    #[cfg(feature = "rsa")]
    #[test]
    fn key_errors_say_what_is_wrong() {
        let e = SigningKey::rsa_pem(SignatureMethod::RsaSha1, "[package]\nname = 'x'").unwrap_err();
        assert!(e.to_string().contains("no PEM block found"), "{e}");
        let pem = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/keys/oauthlib_tests_rsa_pkcs1.pem"
        ));
        let e = SigningKey::rsa_pem(SignatureMethod::HmacSha1, pem).unwrap_err();
        assert!(e.to_string().contains("not HMAC-SHA1"), "{e}");
        assert!(SigningKey::rsa_pem(SignatureMethod::RsaSha256, pem).is_ok());
    }

    #[cfg(feature = "rsa")]
    const PKCS8: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/keys/oauth_net_testcases_rsa_pkcs8.pem"
    ));
    #[cfg(feature = "rsa")]
    const PKCS1: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/keys/oauthlib_tests_rsa_pkcs1.pem"
    ));

    /// RSA-SHA1 of `bs` with each test key, from Python `cryptography` 48
    /// (`key.sign(b"bs", padding.PKCS1v15(), hashes.SHA1())`).
    #[cfg(feature = "rsa")]
    const SIGNED_BS: [(&str, &str); 2] = [
        (
            PKCS8,
            "guOBIdus7wpsSR5hDxR5H5BREasDTnYKsG3s8gq0VcIKSBDldMBu4TbZdthOndmw1Q7vRw8gpyZ1M/islww\
             SuXiWCAMuUnpfpzqXrI1XlVjZLk4jyNFi0paZm4ZPh4123rcA34WouHlPnyTuaD7YuI9ZFkrkMyBSnPJrr2UflVo=",
        ),
        (
            PKCS1,
            "n/8ZUeinTVEcz5HzLP2yDTnCsCy/Vd6ZYSaocHndHhKTNTQPyOEKQLEDndfJ5jc2nZSAleS9NzMuBY9TYVo\
             brLRAfk/AQIr+VQvd6+T14wi62+aNFWVXuaRwa+Ao0vDya2iDhu3koqakbDg/0jKRnc2F902oyRnbAurRXHXeNdw=",
        ),
    ];

    #[cfg(feature = "rsa")]
    fn pem_error(pem: &str) -> String {
        SigningKey::rsa_pem(SignatureMethod::RsaSha1, pem)
            .unwrap_err()
            .to_string()
    }

    #[cfg(feature = "rsa")]
    #[test]
    fn the_oauth_net_rsa_vector_is_reproduced() {
        // oauth.net TestCases, RSA-SHA1 (the published base string and signature).
        let key = SigningKey::rsa_pem(SignatureMethod::RsaSha1, PKCS8).unwrap();
        let base = "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacaction.jpg\
                    %26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3D13917289812797014437\
                    %26oauth_signature_method%3DRSA-SHA1%26oauth_timestamp%3D1196666512\
                    %26oauth_version%3D1.0%26size%3Doriginal";
        assert_eq!(
            key.sign_bytes(base.as_bytes()).unwrap().as_str(),
            "jvTp/wX1TYtByB1m+Pbyo0lnCOLIsyGCH7wke8AUs3BpnwZJtAuEJkvQL2/9n4s5wUmUl4aCI4BwpraNx4Rt\
             EXMe5qg5T1LVTGliMRpKasKsW//e+RinhejgCuzoH26dyF8iY2ZZ/5D1ilgeijhV/vBka5twt399mXwaYdCwFYE="
        );
        assert_eq!(key.method(), SignatureMethod::RsaSha1);
    }

    #[cfg(feature = "rsa")]
    #[test]
    fn pem_keys_are_read_as_openssl_and_python_read_them() {
        let cert = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/keys/oauth_net_testcases_rsa.cert"
        ));
        for (pem, want) in SIGNED_BS {
            // The body on one line, and at 76 columns (both read by OpenSSL).
            let begin_end: Vec<&str> = pem.lines().filter(|l| l.starts_with("-----")).collect();
            let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
            let one_line = format!("{}\n{body}\n{}\n", begin_end[0], begin_end[1]);
            let at_76: Vec<&str> = body
                .as_bytes()
                .chunks(76)
                .map(|c| std::str::from_utf8(c).unwrap())
                .collect();
            let at_76 = format!("{}\n{}\n{}", begin_end[0], at_76.join("\n"), begin_end[1]);
            let variants = [
                pem.to_owned(),
                pem.trim_end().to_owned(),
                format!("{pem}\n\n"),
                format!("{pem}  \t\n"),
                format!("\u{FEFF}{pem}"),
                pem.replace('\n', "\r\n"),
                format!("\u{FEFF}{}\r\n\r\n", pem.replace('\n', "\r\n")),
                format!("\n  {}", pem.replace('\n', "  \n  ")),
                format!("Bag Attributes\n    localKeyID: 01 00\n{pem}"),
                format!("{cert}\n{pem}"),
                format!("{pem}\n{cert}\n"),
                one_line,
                at_76,
            ];
            for variant in &variants {
                let key = SigningKey::rsa_pem(SignatureMethod::RsaSha1, variant)
                    .unwrap_or_else(|e| panic!("{e}: {variant:?}"));
                assert_eq!(key.sign_bytes(b"bs").unwrap().as_str(), want, "{variant:?}");
            }
        }
    }

    #[cfg(feature = "rsa")]
    #[test]
    fn pem_errors_name_the_real_cause() {
        let encrypted = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/keys/encrypted_pkcs8.pem"
        ));
        let e = pem_error(encrypted);
        assert_eq!(
            e,
            "invalid private key: encrypted keys are not supported; decrypt it with \
             `openssl pkcs8 -in key.pem -out plain.pem`"
        );
        assert_eq!(pem_error(&format!("\u{FEFF}{encrypted}\r\n")), e);
        // The legacy encryption of PKCS#1 (RFC 1421 headers).
        let legacy = PKCS1.replacen(
            "KEY-----\n",
            "KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: DES-EDE3-CBC,333A97811ADBD29F\n\n",
            1,
        );
        assert!(
            pem_error(&legacy).contains("decrypt it with `openssl rsa -in key.pem -out plain.pem`"),
            "{legacy}"
        );

        // From `openssl pkey -pubout` of the oauth.net key.
        let public = "-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQC0YjCwIfYoprq/FQO6lb3asXrx
LlJFuCvtinTF5p0GxvQGu5O3gYytUvtC2JlYzypSRjVxwxrsuRcP3e641SdASwfr
mzyvIgP08N4S0IFzEURkV1wp/IpH7kH41EtbmUmrXSwfNZsnQRE5SYSOhh+LcK2w
yQkdgcMv11l4KoBkcwIDAQAB
-----END PUBLIC KEY-----
";
        let e = pem_error(public);
        assert!(
            e.contains("this is a public key (-----BEGIN PUBLIC KEY-----)"),
            "{e}"
        );
        assert!(e.contains("signing needs the private key"), "{e}");
        let e = pem_error(&public.replace("PUBLIC", "RSA PUBLIC"));
        assert!(
            e.contains("public key (-----BEGIN RSA PUBLIC KEY-----)"),
            "{e}"
        );
        let cert = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/keys/oauth_net_testcases_rsa.cert"
        ));
        let e = pem_error(cert);
        assert!(
            e.contains("this is a certificate (-----BEGIN CERTIFICATE-----)"),
            "{e}"
        );
        assert!(e.contains("holds only the public key"), "{e}");

        // `openssl genpkey -algorithm ed25519`, a throwaway key.
        let ed25519 = "-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIJjKa4fgnkupAm0mzwsVefuHWaCuoDIqrtp5X8NHoPQz
-----END PRIVATE KEY-----
";
        let e = pem_error(ed25519);
        assert!(
            e.contains("a PKCS#8 key for Ed25519 (algorithm 1.3.101.112), not RSA"),
            "{e}"
        );
        for (label, want) in [
            (
                "EC PRIVATE KEY",
                "this is not an RSA key (-----BEGIN EC PRIVATE KEY-----)",
            ),
            ("OPENSSH PRIVATE KEY", "ssh-keygen -p -m PKCS8"),
            (
                "X509 CRL",
                "a PEM block labelled \"X509 CRL\" is not a private key",
            ),
        ] {
            let e = pem_error(&format!(
                "-----BEGIN {label}-----\nAAAA\n-----END {label}-----\n"
            ));
            assert!(e.contains(want), "{label}: {e}");
        }

        // Broken blocks: where, never the key's text.
        let e = pem_error(
            PKCS8
                .trim_end()
                .trim_end_matches("-----END PRIVATE KEY-----"),
        );
        assert!(
            e.contains("-----BEGIN PRIVATE KEY----- has no -----END PRIVATE KEY----- line"),
            "{e}"
        );
        let e = pem_error(&PKCS8.replace("END PRIVATE", "END RSA PRIVATE"));
        assert!(
            e.contains(
                "-----BEGIN PRIVATE KEY----- is closed by -----END RSA PRIVATE KEY----- on line 16"
            ),
            "{e}"
        );
        // Line 3 of the file: `A7qV...` with a `*` in it.
        let e = pem_error(&PKCS8.replacen("A7qV", "A7*V", 1));
        assert_eq!(
            e,
            "invalid private key: line 3 of the -----BEGIN PRIVATE KEY----- block is not base64"
        );
        let e = pem_error(&PKCS8.replacen("A7qV", "A7q", 1));
        assert!(e.contains("block is not valid base64"), "{e}");
        assert!(!e.contains("MIIC"), "{e}");
        // Valid base64, but a PKCS#1 body under a PKCS#8 label, and the reverse.
        let e = pem_error(&PKCS1.replace("RSA PRIVATE", "PRIVATE"));
        assert!(e.contains("not a PKCS#8 RSA private key"), "{e}");
        let e = pem_error(&PKCS8.replace("PRIVATE", "RSA PRIVATE"));
        assert!(e.contains("not a PKCS#1 RSA private key"), "{e}");
        assert!(pem_error("").contains("no PEM block found"));
    }

    #[cfg(feature = "rsa")]
    #[test]
    fn rsa_bits_is_the_modulus_size() {
        // Both test keys are 1024-bit (`openssl rsa -text`: "Private-Key: (1024 bit, 2 primes)").
        for pem in [PKCS8, PKCS1] {
            let key = SigningKey::rsa_pem(SignatureMethod::RsaSha256, pem).unwrap();
            assert_eq!(key.rsa_bits(), Some(1024));
        }
    }

    #[test]
    fn rsa_bits_is_none_without_an_rsa_key() {
        for m in [
            SignatureMethod::HmacSha1,
            SignatureMethod::HmacSha256,
            SignatureMethod::HmacSha512,
            SignatureMethod::Plaintext,
        ] {
            assert_eq!(SigningKey::new(m, "cs", "ts").unwrap().rsa_bits(), None);
        }
    }

    #[test]
    fn debug_shows_the_method_and_a_signature_but_never_a_key() {
        // oauth.net TestCases, HMAC-SHA1: key "cs&", base string "bs".
        let key = SigningKey::new(SignatureMethod::HmacSha1, "cs", "").unwrap();
        assert_eq!(format!("{key:?}"), "SigningKey { method: HmacSha1, .. }");
        let sig = key.sign_bytes(b"bs").unwrap();
        assert_eq!(
            format!("{sig:?}"),
            "Signature(\"egQqG5AJep5sJ7anhXju1unge2I=\")"
        );
        let key = SigningKey::new(SignatureMethod::Plaintext, "cs-secret", "").unwrap();
        assert_eq!(format!("{key:?}"), "SigningKey { method: Plaintext, .. }");
        assert_eq!(
            format!("{:?}", key.sign_bytes(b"").unwrap()),
            "Signature(<redacted PLAINTEXT>)"
        );
        #[cfg(feature = "rsa")]
        {
            let key = SigningKey::rsa_pem(SignatureMethod::RsaSha256, PKCS1).unwrap();
            assert_eq!(format!("{key:?}"), "SigningKey { method: RsaSha256, .. }");
        }
    }
}
