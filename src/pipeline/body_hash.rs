//! The [OAuth Request Body Hash] extension: `oauth_body_hash`, the Base64 of
//! a hash of the body's bytes, signed with the other protocol parameters so
//! that a body that is not form-encoded (JSON, XML, bytes) is covered too.
//!
//! Two choices, one [`BodyHash`] holding both: when a request carries the
//! hash ([`BodyHashPolicy`]: never, as X; on bodies that are not
//! form-encoded, as the extension says, §3.1; on every request, the empty
//! body included, as Mastercard's gateway wants), and which hash
//! ([`BodyHashAlgorithm`]: SHA-1, SHA-256, or the signature method's own, as
//! the extension says: SHA-1 for HMAC-SHA1 and RSA-SHA1, SHA-256 for the
//! `-SHA256` methods, SHA-512 for HMAC-SHA512). A form-encoded body never
//! has one (§3.2: its parameters are signed already). The signer's edges and
//! the verifier read the same `BodyHash`.
//!
//! [OAuth Request Body Hash]: https://oauth.googlecode.com/svn/spec/ext/body_hash/1.0/oauth-bodyhash.html

use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use sha1::Digest as _;

use crate::pipeline::sign::SignatureMethod;

/// When a request carries `oauth_body_hash`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BodyHashPolicy {
    /// Never (the X API's way, and the default). A verifier still checks
    /// one that is sent.
    #[default]
    Never,
    /// On a request whose body is not form-encoded, the empty body
    /// included (the extension's §3.1).
    UnlessForm,
    /// On every request but one whose body is form-encoded, and a verifier
    /// refuses a request without it.
    Required,
    /// On every request, a form-encoded body's too, and a verifier refuses
    /// a request without it: Mastercard's signers, whose parameter string
    /// does not sign a form's parameters
    /// ([`ParameterStyle::body_hash`](crate::pipeline::ParameterStyle::body_hash)
    /// makes it that style's rule).
    Always,
}

/// Which hash `oauth_body_hash` is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BodyHashAlgorithm {
    /// The signature method's (the extension's rule): SHA-1 for HMAC-SHA1,
    /// RSA-SHA1 and PLAINTEXT, SHA-256 for HMAC-SHA256 and RSA-SHA256,
    /// SHA-512 for HMAC-SHA512.
    #[default]
    FollowMethod,
    /// SHA-1, whatever the method.
    Sha1,
    /// SHA-256, whatever the method.
    Sha256,
    /// SHA-512, whatever the method.
    Sha512,
}

impl BodyHashAlgorithm {
    /// The hash used for `method`: itself, or the method's when it follows it.
    pub fn for_method(self, method: SignatureMethod) -> BodyHashAlgorithm {
        match self {
            BodyHashAlgorithm::FollowMethod => match method {
                SignatureMethod::HmacSha256 | SignatureMethod::RsaSha256 => {
                    BodyHashAlgorithm::Sha256
                }
                SignatureMethod::HmacSha512 => BodyHashAlgorithm::Sha512,
                _ => BodyHashAlgorithm::Sha1,
            },
            fixed => fixed,
        }
    }

    /// Its name: `follow-method`, `SHA-1`, `SHA-256`, `SHA-512`.
    pub fn as_str(self) -> &'static str {
        match self {
            BodyHashAlgorithm::FollowMethod => "follow-method",
            BodyHashAlgorithm::Sha1 => "SHA-1",
            BodyHashAlgorithm::Sha256 => "SHA-256",
            BodyHashAlgorithm::Sha512 => "SHA-512",
        }
    }
}

impl fmt::Display for BodyHashAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// When and how a request's body is hashed into `oauth_body_hash`.
///
/// ```
/// use oauth1_signer::{BodyHash, BodyHashAlgorithm, BodyHashPolicy, SignatureMethod};
///
/// // Every request but a form's, SHA-256 with RSA-SHA256; the empty body's hash on a GET.
/// let required = BodyHash::new(BodyHashPolicy::Required, BodyHashAlgorithm::FollowMethod);
/// assert_eq!(
///     required.value(SignatureMethod::RsaSha256, false, b"").as_deref(),
///     Some("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
/// );
/// // Never on a form-encoded body (but with `Always`), and never by default.
/// assert_eq!(required.value(SignatureMethod::RsaSha256, true, b"a=1"), None);
/// assert_eq!(BodyHash::default().value(SignatureMethod::HmacSha1, false, b"{}"), None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BodyHash {
    policy: BodyHashPolicy,
    algorithm: BodyHashAlgorithm,
}

impl BodyHash {
    /// `policy` with `algorithm`.
    pub const fn new(policy: BodyHashPolicy, algorithm: BodyHashAlgorithm) -> BodyHash {
        BodyHash { policy, algorithm }
    }

    /// When the hash is sent.
    pub fn policy(&self) -> BodyHashPolicy {
        self.policy
    }

    /// Which hash.
    pub fn algorithm(&self) -> BodyHashAlgorithm {
        self.algorithm
    }

    /// Whether a request with this body is to carry the hash (a
    /// form-encoded one only with [`BodyHashPolicy::Always`]).
    pub fn applies(&self, form: bool) -> bool {
        match self.policy {
            BodyHashPolicy::Never => false,
            BodyHashPolicy::UnlessForm | BodyHashPolicy::Required => !form,
            BodyHashPolicy::Always => true,
        }
    }

    /// Whether a verifier refuses a request with this body that carries no
    /// hash.
    pub fn required(&self, form: bool) -> bool {
        match self.policy {
            BodyHashPolicy::Never | BodyHashPolicy::UnlessForm => false,
            BodyHashPolicy::Required => !form,
            BodyHashPolicy::Always => true,
        }
    }

    /// The `oauth_body_hash` a request signed with `method` carries for
    /// `body`, if it carries one.
    pub fn value(&self, method: SignatureMethod, form: bool, body: &[u8]) -> Option<String> {
        self.applies(form)
            .then(|| body_hash(self.algorithm.for_method(method), body))
    }
}

/// Base64 (RFC 4648 §4, padded) of `body`'s hash by `algorithm` (the
/// method's own is SHA-1 when no method is known).
///
/// ```
/// use oauth1_signer::{pipeline::body_hash, BodyHashAlgorithm};
///
/// // The extension's example (draft-eaton-oauth-bodyhash-00, Appendix A).
/// assert_eq!(body_hash(BodyHashAlgorithm::Sha1, b"Hello World!"), "Lve95gjOVATpfV8EL5X4nxwjKHE=");
/// ```
pub fn body_hash(algorithm: BodyHashAlgorithm, body: &[u8]) -> String {
    match algorithm {
        BodyHashAlgorithm::FollowMethod | BodyHashAlgorithm::Sha1 => {
            STANDARD.encode(sha1::Sha1::digest(body))
        }
        BodyHashAlgorithm::Sha256 => STANDARD.encode(sha2::Sha256::digest(body)),
        BodyHashAlgorithm::Sha512 => STANDARD.encode(sha2::Sha512::digest(body)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_method_decides_when_followed() {
        use SignatureMethod::*;
        let follow = BodyHashAlgorithm::FollowMethod;
        assert_eq!(follow.for_method(HmacSha1), BodyHashAlgorithm::Sha1);
        assert_eq!(follow.for_method(RsaSha1), BodyHashAlgorithm::Sha1);
        assert_eq!(follow.for_method(Plaintext), BodyHashAlgorithm::Sha1);
        assert_eq!(follow.for_method(HmacSha256), BodyHashAlgorithm::Sha256);
        assert_eq!(follow.for_method(RsaSha256), BodyHashAlgorithm::Sha256);
        assert_eq!(follow.for_method(HmacSha512), BodyHashAlgorithm::Sha512);
        assert_eq!(
            BodyHashAlgorithm::Sha1.for_method(HmacSha512),
            BodyHashAlgorithm::Sha1
        );
    }

    #[test]
    fn the_policies_say_when() {
        let unless = BodyHash::new(BodyHashPolicy::UnlessForm, BodyHashAlgorithm::Sha1);
        assert!(unless.applies(false) && !unless.applies(true));
        assert!(!BodyHash::default().applies(false));
    }
}
