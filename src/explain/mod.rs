//! Explaining a signature mismatch: why the other side computed another
//! signature ([RFC 5849 §3.4]).
//!
//! An [`Explainer`] holds one request as it was meant, signed by the
//! pipeline's own stages ([`Signer::trace`](crate::Signer::trace)), and
//! compares it with whatever the other side gave: its signature base string
//! ([`Explainer::base_string`]), only its signature
//! ([`Explainer::signature`]), or its whole `Authorization` header
//! ([`Explainer::header`]). Each difference is a [`Finding`] naming a
//! [`Cause`] from a catalogue of the mistakes OAuth 1.0a implementations make
//! (a space encoded as `+`, a default port kept, parameters sorted raw...),
//! with a stable code.
//!
//! The right rules come from the stages; the explainer knows only the wrong
//! ones, each a small named transformation (see `catalogue.rs`). With only a
//! signature, it recomputes the base string under every catalogued mistake
//! and every pair of them, and says which variant reproduces it; a mistaken
//! encoder is tried for the names and values, for the outer encoding, and
//! for both ([`EncodingLevel`]).
//!
//! Cost: linear in what the other side gave (n log n where parameters are
//! sorted). Their base string's parameters are matched with ours through
//! hash maps; a response body is scanned once; the signature search writes
//! a bounded number of base strings whatever the number of parameters
//! ([`SEARCH_EACH_PARAM_MAX`]). Inputs no legitimate peer sends are refused
//! by name: a header over [`MAX_HEADER_LEN`], and in the CLI a response body
//! over [`MAX_RESPONSE_BODY_LEN`].
//!
//! [RFC 5849 §3.4]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4

mod catalogue;
mod compare;
mod explainer;
mod model;
mod response;
mod search;

use std::fmt;
use std::str::FromStr;

pub use explainer::Explainer;
pub use response::{base_string_from_response, find_base_string_in_response, ResponseBaseString};

/// The longest `Authorization` header [`Explainer::header`] reads: 1 MiB.
/// Servers refuse far shorter headers (8 to 64 KiB is the usual limit), so
/// no header a provider answered is longer; a longer one is an error
/// ([`ErrorKind::TooLong`](crate::ErrorKind::TooLong)), and exit status 2
/// in `oauth1 explain --their-header`.
pub const MAX_HEADER_LEN: usize = 1 << 20;

/// The longest saved response body `oauth1 explain --response-body` reads:
/// 16 MiB. An error response that echoes a base string is a few kilobytes;
/// a longer file is refused by name (exit status 2).
/// [`find_base_string_in_response`] itself takes time linear in any length.
pub const MAX_RESPONSE_BODY_LEN: usize = 16 << 20;

/// Up to this many signed parameters (64), the signature search
/// ([`Explainer::signature`]) also tries leaving out each one in turn; with
/// more, only the protocol parameters are tried one by one (query and body
/// parameters are still tried left out as a whole). Each such try costs a
/// base string and a MAC, so trying all of 10,000 parameters would cost
/// their square; no implementation is known to drop one request parameter
/// of many at random.
pub const SEARCH_EACH_PARAM_MAX: usize = 64;

/// Why the other side's signature differs: one entry of the catalogue, with
/// a stable code ([`as_str`](Self::as_str), also its `Display`) that tools
/// and logs can rely on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Cause {
    /// `space-as-plus`: a space encoded as `+` rather than `%20`.
    SpaceAsPlus,
    /// `lowercase-hex`: escapes written with lower-case hex (`%2f`, not `%2F`).
    LowercaseHex,
    /// `reserved-unencoded`: `! * ' ( )` left bare (as `encodeURIComponent` does).
    ReservedUnencoded,
    /// `unreserved-encoded`: an unreserved character escaped (`~` as `%7E`).
    UnreservedEncoded,
    /// `double-encoded`: parameters encoded twice before the base string
    /// encodes them once more (a value given already encoded).
    DoubleEncoded,
    /// `not-encoded`: parameters not encoded before the base string encodes
    /// the parameter string (or that string not encoded at all).
    NotEncoded,
    /// `sorted-raw`: the same parameters, sorted by their raw (decoded)
    /// bytes rather than by their encodings.
    SortedRaw,
    /// `sorted-by-pair-string`: sorted by the joined `name=value` text
    /// rather than by name, then value.
    SortedByPairString,
    /// `not-sorted`: the parameters are in an order no known rule gives.
    NotSorted,
    /// `default-port-kept`: `:80` (http) or `:443` (https) kept in the base
    /// string URI.
    DefaultPortKept,
    /// `port-dropped`: a port that is not the default left out of the base
    /// string URI.
    PortDropped,
    /// `port-differs`: another port.
    PortDiffers,
    /// `scheme-host-case`: scheme or host not lower-cased.
    SchemeHostCase,
    /// `scheme-differs`: `http` against `https`.
    SchemeDiffers,
    /// `host-differs`: another host (`api.twitter.com` for `api.x.com`).
    HostDiffers,
    /// `path-differs`: another path (decoded, a `/` more or less, empty
    /// rather than `/`).
    PathDiffers,
    /// `method-differs`: another method, or the method not upper-cased.
    MethodDiffers,
    /// `query-param-missing`: a query parameter not signed.
    QueryParamMissing,
    /// `body-param-missing`: a form-body parameter not signed.
    BodyParamMissing,
    /// `body-signed`: a body that is not `application/x-www-form-urlencoded`
    /// (a JSON body) signed as parameters.
    BodySigned,
    /// `duplicate-collapsed`: a name given more than once signed once.
    DuplicateCollapsed,
    /// `param-missing`: a parameter we sign is not in theirs.
    ParamMissing,
    /// `param-extra`: they sign a parameter we do not.
    ParamExtra,
    /// `value-differs`: a parameter has another value, not explained by
    /// any encoding mistake.
    ValueDiffers,
    /// `oauth-version-mismatch`: `oauth_version` signed by one side only,
    /// or with another value.
    OAuthVersionMismatch,
    /// `realm-signed`: `realm` signed as a parameter (§3.4.1.3.1 leaves it out).
    RealmSigned,
    /// `realm-differs`: another realm in the header (it is never signed,
    /// but a provider may check it).
    RealmDiffers,
    /// `signature-signed`: `oauth_signature` signed as a parameter.
    SignatureSigned,
    /// `timestamp-differs`: another `oauth_timestamp`.
    TimestampDiffers,
    /// `nonce-differs`: another `oauth_nonce`.
    NonceDiffers,
    /// `consumer-key-differs`: another `oauth_consumer_key`.
    ConsumerKeyDiffers,
    /// `token-differs`: another `oauth_token` (or one side has none).
    TokenDiffers,
    /// `signature-method-differs`: another `oauth_signature_method`.
    SignatureMethodDiffers,
    /// `unicode-normalization`: the same text in another Unicode
    /// normalisation form (NFC against NFD), or not encoded as UTF-8.
    UnicodeNormalization,
    /// `key-mismatch`: the same base string signed with another key; the
    /// finding's detail says which part is suspect.
    KeyMismatch,
    /// `unexplained`: nothing in the catalogue accounts for the difference.
    Unexplained,
}

impl Cause {
    /// Every cause, in catalogue order.
    pub const ALL: [Cause; 36] = [
        Cause::SpaceAsPlus,
        Cause::LowercaseHex,
        Cause::ReservedUnencoded,
        Cause::UnreservedEncoded,
        Cause::DoubleEncoded,
        Cause::NotEncoded,
        Cause::SortedRaw,
        Cause::SortedByPairString,
        Cause::NotSorted,
        Cause::DefaultPortKept,
        Cause::PortDropped,
        Cause::PortDiffers,
        Cause::SchemeHostCase,
        Cause::SchemeDiffers,
        Cause::HostDiffers,
        Cause::PathDiffers,
        Cause::MethodDiffers,
        Cause::QueryParamMissing,
        Cause::BodyParamMissing,
        Cause::BodySigned,
        Cause::DuplicateCollapsed,
        Cause::ParamMissing,
        Cause::ParamExtra,
        Cause::ValueDiffers,
        Cause::OAuthVersionMismatch,
        Cause::RealmSigned,
        Cause::RealmDiffers,
        Cause::SignatureSigned,
        Cause::TimestampDiffers,
        Cause::NonceDiffers,
        Cause::ConsumerKeyDiffers,
        Cause::TokenDiffers,
        Cause::SignatureMethodDiffers,
        Cause::UnicodeNormalization,
        Cause::KeyMismatch,
        Cause::Unexplained,
    ];

    /// The stable code, such as `space-as-plus`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Cause::SpaceAsPlus => "space-as-plus",
            Cause::LowercaseHex => "lowercase-hex",
            Cause::ReservedUnencoded => "reserved-unencoded",
            Cause::UnreservedEncoded => "unreserved-encoded",
            Cause::DoubleEncoded => "double-encoded",
            Cause::NotEncoded => "not-encoded",
            Cause::SortedRaw => "sorted-raw",
            Cause::SortedByPairString => "sorted-by-pair-string",
            Cause::NotSorted => "not-sorted",
            Cause::DefaultPortKept => "default-port-kept",
            Cause::PortDropped => "port-dropped",
            Cause::PortDiffers => "port-differs",
            Cause::SchemeHostCase => "scheme-host-case",
            Cause::SchemeDiffers => "scheme-differs",
            Cause::HostDiffers => "host-differs",
            Cause::PathDiffers => "path-differs",
            Cause::MethodDiffers => "method-differs",
            Cause::QueryParamMissing => "query-param-missing",
            Cause::BodyParamMissing => "body-param-missing",
            Cause::BodySigned => "body-signed",
            Cause::DuplicateCollapsed => "duplicate-collapsed",
            Cause::ParamMissing => "param-missing",
            Cause::ParamExtra => "param-extra",
            Cause::ValueDiffers => "value-differs",
            Cause::OAuthVersionMismatch => "oauth-version-mismatch",
            Cause::RealmSigned => "realm-signed",
            Cause::RealmDiffers => "realm-differs",
            Cause::SignatureSigned => "signature-signed",
            Cause::TimestampDiffers => "timestamp-differs",
            Cause::NonceDiffers => "nonce-differs",
            Cause::ConsumerKeyDiffers => "consumer-key-differs",
            Cause::TokenDiffers => "token-differs",
            Cause::SignatureMethodDiffers => "signature-method-differs",
            Cause::UnicodeNormalization => "unicode-normalization",
            Cause::KeyMismatch => "key-mismatch",
            Cause::Unexplained => "unexplained",
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The code is not one of [`Cause::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCause(pub String);

impl fmt::Display for UnknownCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown cause code {:?}", self.0)
    }
}

impl std::error::Error for UnknownCause {}

impl FromStr for Cause {
    type Err = UnknownCause;

    /// Parses a code such as `space-as-plus`.
    fn from_str(s: &str) -> Result<Cause, UnknownCause> {
        Cause::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCause(s.to_owned()))
    }
}

/// Where a mistaken percent-encoder was used: a library with its own
/// encoder may use it for the parameter names and values, for the base
/// string's outer encoding (the method, the base string URI and the
/// parameter string as a whole, RFC 5849 §3.4.1.1), or for both. The
/// signature search ([`Explainer::signature`]) tries each, and its finding
/// says which reproduces their signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodingLevel {
    /// The names and values only; the base string then encoded right.
    Values,
    /// The base string's outer encoding only; the names and values in it
    /// encoded right.
    Outer,
    /// Both.
    Both,
}

impl EncodingLevel {
    /// Every level, the narrowest first.
    pub const ALL: [EncodingLevel; 3] = [
        EncodingLevel::Values,
        EncodingLevel::Outer,
        EncodingLevel::Both,
    ];

    /// `values`, `outer` or `both`.
    pub fn as_str(&self) -> &'static str {
        match self {
            EncodingLevel::Values => "values",
            EncodingLevel::Outer => "outer",
            EncodingLevel::Both => "both",
        }
    }
}

impl fmt::Display for EncodingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which part of the request a [`Finding`] is about.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Component {
    /// The HTTP method, first in the base string.
    Method,
    /// The base string URI.
    Uri,
    /// The parameter string as a whole (its order, its outer encoding).
    Parameters,
    /// One parameter, by decoded name.
    Parameter(String),
    /// A parameter of the `Authorization` header that is not signed (`realm`).
    Header(String),
    /// The signing key.
    Key,
    /// The signature itself.
    Signature,
}

impl fmt::Display for Component {
    /// `method`, `uri`, `parameters`, `parameter:NAME`, `header:NAME`, `key`, `signature`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Component::Method => f.write_str("method"),
            Component::Uri => f.write_str("uri"),
            Component::Parameters => f.write_str("parameters"),
            Component::Parameter(name) => write!(f, "parameter:{name}"),
            Component::Header(name) => write!(f, "header:{name}"),
            Component::Key => f.write_str("key"),
            Component::Signature => f.write_str("signature"),
        }
    }
}

/// One difference and its cause: what we have, what they have, and why.
///
/// `ours` and `theirs` never hold a secret: where a value is one (a
/// PLAINTEXT signature, a key), they say `<redacted>`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// The cause, from the catalogue.
    pub cause: Cause,
    /// Where the difference is.
    pub component: Component,
    /// Our text there (encoded as it stands in our base string).
    pub ours: String,
    /// Their text there.
    pub theirs: String,
    /// One sentence for people.
    pub detail: String,
    /// For an encoding cause found by the signature search: where the
    /// mistaken encoder was used.
    pub level: Option<EncodingLevel>,
}

impl Finding {
    pub(crate) fn new(
        cause: Cause,
        component: Component,
        ours: impl Into<String>,
        theirs: impl Into<String>,
        detail: impl Into<String>,
    ) -> Finding {
        Finding {
            cause,
            component,
            ours: ours.into(),
            theirs: theirs.into(),
            detail: detail.into(),
            level: None,
        }
    }

    pub(crate) fn with_level(mut self, level: Option<EncodingLevel>) -> Finding {
        self.level = level;
        self
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.cause, self.component, self.detail)
    }
}

/// What an [`Explainer`] found: whether the other side's evidence matches
/// ours, and each cause of the differences.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Explanation {
    /// Whether what they gave (base string, signature, header) is what we
    /// compute.
    pub matches: bool,
    /// The causes, most fundamental first (protocol parameters, then
    /// method, URI, parameters, key). Empty when `matches`.
    pub findings: Vec<Finding>,
    /// Their base string: as given, or the one a signature search found
    /// that reproduces their signature.
    pub their_base_string: Option<String>,
}

impl Explanation {
    pub(crate) fn matching() -> Explanation {
        Explanation {
            matches: true,
            findings: Vec::new(),
            their_base_string: None,
        }
    }

    /// Whether a finding names `cause`.
    pub fn names(&self, cause: Cause) -> bool {
        self.findings.iter().any(|f| f.cause == cause)
    }

    /// The distinct causes named, in the order first found.
    pub fn causes(&self) -> Vec<Cause> {
        let mut out: Vec<Cause> = Vec::new();
        for f in &self.findings {
            if !out.contains(&f.cause) {
                out.push(f.cause);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_kebab_case_and_parse_back() {
        let mut seen = std::collections::HashSet::new();
        for c in Cause::ALL {
            let code = c.as_str();
            assert!(seen.insert(code), "{code}");
            assert!(code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'));
            assert_eq!(code.parse::<Cause>(), Ok(c));
            assert_eq!(c.to_string(), code);
        }
        assert!("nope".parse::<Cause>().is_err());
    }

    #[test]
    fn components_display_as_stable_names() {
        assert_eq!(
            Component::Parameter("a b".into()).to_string(),
            "parameter:a b"
        );
        assert_eq!(Component::Uri.to_string(), "uri");
    }
}
