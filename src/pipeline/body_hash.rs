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
use std::str::FromStr;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use sha1::Digest as _;

use crate::error::Error;
use crate::pipeline::sign::SignatureMethod;
use crate::text::word::{self, names};

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

impl BodyHashPolicy {
    /// Every policy, in the order above.
    pub const ALL: [BodyHashPolicy; 4] = [
        BodyHashPolicy::Never,
        BodyHashPolicy::UnlessForm,
        BodyHashPolicy::Required,
        BodyHashPolicy::Always,
    ];

    /// Their names, in the same order: `never`, `unless-form`, `required`,
    /// `always` (`oauth1 --body-hash`, the request file's `"body_hash"`, the
    /// page's select).
    pub const NAMES: [&'static str; 4] = names!(BodyHashPolicy::ALL);

    /// Its name.
    pub const fn as_str(self) -> &'static str {
        match self {
            BodyHashPolicy::Never => "never",
            BodyHashPolicy::UnlessForm => "unless-form",
            BodyHashPolicy::Required => "required",
            BodyHashPolicy::Always => "always",
        }
    }
}

impl fmt::Display for BodyHashPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BodyHashPolicy {
    type Err = Error;

    /// The policy of that [name](BodyHashPolicy::NAMES), ASCII case aside.
    ///
    /// # Errors
    /// [`ErrorKind::UnknownName`](crate::ErrorKind::UnknownName) for any
    /// other word, naming it and the policies' names.
    fn from_str(s: &str) -> Result<BodyHashPolicy, Error> {
        word::parse("body-hash policy", &Self::ALL, &Self::NAMES, s)
    }
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
    /// Every algorithm, in the order above.
    pub const ALL: [BodyHashAlgorithm; 4] = [
        BodyHashAlgorithm::FollowMethod,
        BodyHashAlgorithm::Sha1,
        BodyHashAlgorithm::Sha256,
        BodyHashAlgorithm::Sha512,
    ];

    /// Their names, in the same order: `follow-method`, `sha1`, `sha256`,
    /// `sha512` (`oauth1 --body-hash-algorithm`, the request file's
    /// `"body_hash_algorithm"`, the page's select).
    pub const NAMES: [&'static str; 4] = names!(BodyHashAlgorithm::ALL);

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

    /// Its name.
    pub const fn as_str(self) -> &'static str {
        match self {
            BodyHashAlgorithm::FollowMethod => "follow-method",
            BodyHashAlgorithm::Sha1 => "sha1",
            BodyHashAlgorithm::Sha256 => "sha256",
            BodyHashAlgorithm::Sha512 => "sha512",
        }
    }
}

impl fmt::Display for BodyHashAlgorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for BodyHashAlgorithm {
    type Err = Error;

    /// The algorithm of that [name](BodyHashAlgorithm::NAMES), ASCII case
    /// aside.
    ///
    /// # Errors
    /// [`ErrorKind::UnknownName`](crate::ErrorKind::UnknownName) for any
    /// other word, naming it and the algorithms' names.
    fn from_str(s: &str) -> Result<BodyHashAlgorithm, Error> {
        word::parse("body-hash algorithm", &Self::ALL, &Self::NAMES, s)
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

    /// The rule a user's choices give, when they name only one of the two
    /// (a flag, a field of the request file, a select left empty): each one
    /// named replaces `otherwise`'s (the provider's rule, say). A hash named
    /// without a policy is a hash wanted: over a policy of
    /// [`Never`](BodyHashPolicy::Never) it is sent on the bodies the
    /// extension says, [`UnlessForm`](BodyHashPolicy::UnlessForm).
    ///
    /// ```
    /// use oauth1_signer::{BodyHash, BodyHashAlgorithm as A, BodyHashPolicy as P};
    ///
    /// let never = BodyHash::default();
    /// assert_eq!(BodyHash::chosen(None, Some(A::Sha256), never), BodyHash::new(P::UnlessForm, A::Sha256));
    /// assert_eq!(BodyHash::chosen(Some(P::Always), None, never), BodyHash::new(P::Always, A::FollowMethod));
    /// let mastercard = BodyHash::new(P::Always, A::Sha256);
    /// assert_eq!(BodyHash::chosen(None, Some(A::Sha1), mastercard), BodyHash::new(P::Always, A::Sha1));
    /// assert_eq!(BodyHash::chosen(None, None, mastercard), mastercard);
    /// ```
    pub fn chosen(
        policy: Option<BodyHashPolicy>,
        algorithm: Option<BodyHashAlgorithm>,
        otherwise: BodyHash,
    ) -> BodyHash {
        let policy = match (policy, otherwise.policy) {
            (Some(policy), _) => policy,
            (None, BodyHashPolicy::Never) if algorithm.is_some() => BodyHashPolicy::UnlessForm,
            (None, policy) => policy,
        };
        BodyHash::new(policy, algorithm.unwrap_or(otherwise.algorithm))
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
    fn each_word_reads_as_its_value_and_prints_back() {
        // The words of `oauth1 --body-hash` and `--body-hash-algorithm`
        // (docs/cli.md, `oauth1 sign --help`), which the page's selects and
        // the request file share; the algorithms are the extension's hashes
        // (draft-eaton-oauth-bodyhash-00 §3.1: the signature method's own),
        // SHA-1 and the SHA-2 ones of FIPS 180-4.
        for (word, policy) in [
            ("never", BodyHashPolicy::Never),
            ("unless-form", BodyHashPolicy::UnlessForm),
            ("required", BodyHashPolicy::Required),
            ("always", BodyHashPolicy::Always),
        ] {
            assert_eq!(word.parse::<BodyHashPolicy>(), Ok(policy));
            assert_eq!(policy.to_string(), word);
        }
        for (word, algorithm) in [
            ("follow-method", BodyHashAlgorithm::FollowMethod),
            ("sha1", BodyHashAlgorithm::Sha1),
            ("sha256", BodyHashAlgorithm::Sha256),
            ("sha512", BodyHashAlgorithm::Sha512),
        ] {
            assert_eq!(word.parse::<BodyHashAlgorithm>(), Ok(algorithm));
            assert_eq!(algorithm.to_string(), word);
        }
        assert_eq!(
            BodyHashPolicy::NAMES,
            ["never", "unless-form", "required", "always"]
        );
        assert_eq!("SHA256".parse(), Ok(BodyHashAlgorithm::Sha256));
        // The request file's words before this release name no policy.
        let e = "none".parse::<BodyHashPolicy>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown body-hash policy \"none\" (expected never, unless-form, required, always)"
        );
        let e = "SHA-1".parse::<BodyHashAlgorithm>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown body-hash algorithm \"SHA-1\" (expected follow-method, sha1, sha256, sha512)"
        );
    }

    #[test]
    fn a_choice_named_alone_keeps_the_other_from_the_rule_it_replaces() {
        use BodyHashAlgorithm as A;
        use BodyHashPolicy as P;
        let lti = BodyHash::new(P::UnlessForm, A::FollowMethod);
        let mastercard = BodyHash::new(P::Always, A::Sha256);
        let r = BodyHash::new;
        for (policy, algorithm, otherwise, expected) in [
            (None, None, BodyHash::default(), BodyHash::default()),
            (None, None, mastercard, mastercard),
            // A hash named alone over never: sent where the extension says.
            (
                None,
                Some(A::Sha256),
                BodyHash::default(),
                r(P::UnlessForm, A::Sha256),
            ),
            (None, Some(A::Sha1), mastercard, r(P::Always, A::Sha1)),
            (None, Some(A::Sha512), lti, r(P::UnlessForm, A::Sha512)),
            // A policy named alone keeps the rule's hash.
            (
                Some(P::Required),
                None,
                mastercard,
                r(P::Required, A::Sha256),
            ),
            (
                Some(P::Always),
                None,
                BodyHash::default(),
                r(P::Always, A::FollowMethod),
            ),
            (Some(P::Never), None, mastercard, r(P::Never, A::Sha256)),
            // Both named: the rule has no say.
            (
                Some(P::Never),
                Some(A::Sha1),
                mastercard,
                r(P::Never, A::Sha1),
            ),
        ] {
            assert_eq!(BodyHash::chosen(policy, algorithm, otherwise), expected);
        }
    }

    #[test]
    fn the_policies_say_when() {
        let unless = BodyHash::new(BodyHashPolicy::UnlessForm, BodyHashAlgorithm::Sha1);
        assert!(unless.applies(false) && !unless.applies(true));
        assert!(!BodyHash::default().applies(false));
    }
}
