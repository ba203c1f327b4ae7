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

use crate::base_string::BaseString;
use crate::credentials::Secret;
use crate::encode::encode_to;
use crate::error::{Error, ErrorKind};
use crate::sink::Sink;

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
        [
            SignatureMethod::HmacSha1,
            SignatureMethod::HmacSha256,
            SignatureMethod::HmacSha512,
            SignatureMethod::Plaintext,
            SignatureMethod::RsaSha1,
            SignatureMethod::RsaSha256,
        ]
        .into_iter()
        .find(|m| m.as_str().eq_ignore_ascii_case(s))
        .ok_or_else(|| Error::new(ErrorKind::UnknownSignatureMethod { name: s.to_owned() }))
    }
}

/// The text of the HMAC and PLAINTEXT key (§3.4.2):
/// `encode(consumer_secret) & encode(token_secret)`, the `&` always there.
///
/// ```
/// use oauth1_signer::key_string;
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
    /// use oauth1_signer::{SignatureMethod, SigningKey};
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
/// ```
/// use oauth1_signer::{SignatureMethod, SigningKey};
///
/// // oauth.net TestCases, HMAC-SHA1 section.
/// let key = SigningKey::new(SignatureMethod::HmacSha1, "cs", "")?;
/// assert_eq!(key.sign_bytes(b"bs")?.as_str(), "egQqG5AJep5sJ7anhXju1unge2I=");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone)]
pub struct SigningKey {
    inner: Key,
}

#[derive(Clone)]
enum Key {
    HmacSha1(Hmac<Sha1>),
    HmacSha256(Hmac<Sha256>),
    HmacSha512(Hmac<Sha512>),
    Plaintext(Secret),
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

impl SigningKey {
    /// The HMAC-SHA1 key, which cannot fail.
    pub(crate) fn hmac_sha1(consumer_secret: &str, token_secret: &str) -> SigningKey {
        SigningKey {
            inner: Key::HmacSha1(hmac(&key_string(consumer_secret, token_secret))),
        }
    }

    /// Prepares the key of an HMAC or PLAINTEXT method from the two secrets.
    ///
    /// # Errors
    /// [`ErrorKind::MissingKey`] for an RSA method: use
    /// [`rsa_pem`](Self::rsa_pem) (feature `rsa`).
    pub fn new(
        method: SignatureMethod,
        consumer_secret: &str,
        token_secret: &str,
    ) -> Result<SigningKey, Error> {
        let key = key_string(consumer_secret, token_secret);
        let inner = match method {
            SignatureMethod::HmacSha1 => Key::HmacSha1(hmac(&key)),
            SignatureMethod::HmacSha256 => Key::HmacSha256(hmac(&key)),
            SignatureMethod::HmacSha512 => Key::HmacSha512(hmac(&key)),
            SignatureMethod::Plaintext => Key::Plaintext(key),
            SignatureMethod::RsaSha1 | SignatureMethod::RsaSha256 => {
                return Err(Error::new(ErrorKind::MissingKey {
                    method: method.as_str(),
                }))
            }
        };
        Ok(SigningKey { inner })
    }

    /// An RSA key for `RSA-SHA1` or `RSA-SHA256`.
    #[cfg(feature = "rsa")]
    fn rsa(method: SignatureMethod, key: rsa::PrivateKey) -> Result<SigningKey, Error> {
        let sha256 = match method {
            SignatureMethod::RsaSha1 => false,
            SignatureMethod::RsaSha256 => true,
            other => {
                return Err(Error::new(ErrorKind::InvalidKey {
                    reason: format!(
                        "an RSA private key signs only RSA-SHA1 or RSA-SHA256, not {other}"
                    ),
                }))
            }
        };
        Ok(SigningKey {
            inner: Key::Rsa(Box::new(key), sha256),
        })
    }

    /// Reads a PEM private key, PKCS#8 (`BEGIN PRIVATE KEY`) or PKCS#1
    /// (`BEGIN RSA PRIVATE KEY`), for `RSA-SHA1` or `RSA-SHA256`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidKey`] if the PEM holds no RSA private key.
    #[cfg(feature = "rsa")]
    pub fn rsa_pem(method: SignatureMethod, pem: &str) -> Result<SigningKey, Error> {
        use rsa::pkcs1::DecodeRsaPrivateKey;
        use rsa::pkcs8::DecodePrivateKey;
        if !pem.contains("-----BEGIN ") {
            return Err(Error::new(ErrorKind::InvalidKey {
                reason: "no PEM block found (expected -----BEGIN PRIVATE KEY----- \
                         or -----BEGIN RSA PRIVATE KEY-----)"
                    .into(),
            }));
        }
        let key = if pem.contains("BEGIN RSA PRIVATE KEY") {
            rsa::PrivateKey::from_pkcs1_pem(pem).map_err(|e| e.to_string())
        } else {
            rsa::PrivateKey::from_pkcs8_pem(pem).map_err(|e| e.to_string())
        }
        .map_err(|reason| {
            Error::new(ErrorKind::InvalidKey {
                reason: format!("not a PEM RSA private key (PKCS#1 or PKCS#8): {reason}"),
            })
        })?;
        SigningKey::rsa(method, key)
    }

    /// The signature method this key is for.
    pub fn method(&self) -> SignatureMethod {
        match &self.inner {
            Key::HmacSha1(_) => SignatureMethod::HmacSha1,
            Key::HmacSha256(_) => SignatureMethod::HmacSha256,
            Key::HmacSha512(_) => SignatureMethod::HmacSha512,
            Key::Plaintext(_) => SignatureMethod::Plaintext,
            #[cfg(feature = "rsa")]
            Key::Rsa(_, false) => SignatureMethod::RsaSha1,
            #[cfg(feature = "rsa")]
            Key::Rsa(_, true) => SignatureMethod::RsaSha256,
        }
    }

    /// Starts a signature: a [`Sink`] to stream the base string into.
    fn begin(&self) -> Signing<'_> {
        let state = match &self.inner {
            Key::HmacSha1(m) => State::HmacSha1(m.clone()),
            Key::HmacSha256(m) => State::HmacSha256(m.clone()),
            Key::HmacSha512(m) => State::HmacSha512(m.clone()),
            Key::Plaintext(_) => State::Plaintext,
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
            State::Plaintext => match &self.key.inner {
                Key::Plaintext(k) => Signature {
                    repr: Repr::Plaintext(k.clone()),
                },
                _ => Signature {
                    repr: Repr::Base64(String::new()),
                },
            },
            #[cfg(feature = "rsa")]
            State::Sha1(d) => rsa_sign::<Sha1>(self.key, &sha1::Digest::finalize(d))?,
            #[cfg(feature = "rsa")]
            State::Sha256(d) => rsa_sign::<Sha256>(self.key, &sha2::Digest::finalize(d))?,
        })
    }
}

#[cfg(feature = "rsa")]
fn rsa_sign<D>(key: &SigningKey, digest: &[u8]) -> Result<Signature, Error>
where
    D: sha2::Digest + rsa::pkcs8::AssociatedOid,
{
    let Key::Rsa(private, _) = &key.inner else {
        return Err(Error::new(ErrorKind::MissingKey {
            method: key.method().as_str(),
        }));
    };
    let sig = private
        .sign(rsa::Pkcs1v15Sign::new::<D>(), digest)
        .map_err(|e| {
            Error::new(ErrorKind::Rsa {
                reason: e.to_string(),
            })
        })?;
    Ok(Signature {
        repr: Repr::Base64(STANDARD.encode(sig)),
    })
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
        let pem = include_str!("../fixtures/keys/oauthlib_tests_rsa_pkcs1.pem");
        let e = SigningKey::rsa_pem(SignatureMethod::HmacSha1, pem).unwrap_err();
        assert!(e.to_string().contains("not HMAC-SHA1"), "{e}");
        assert!(SigningKey::rsa_pem(SignatureMethod::RsaSha256, pem).is_ok());
    }
}
