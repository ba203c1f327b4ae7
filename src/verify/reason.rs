//! Why a request was rejected: one typed [`Reason`] for each check, and
//! the answer to send, in the [OAuth Problem Reporting] extension's form.
//!
//! The answer never tells an unknown consumer key or token from a bad
//! signature: all three are `signature_invalid` outside, while the
//! [`Reason`] keeps the truth for the server's own logs.
//!
//! [OAuth Problem Reporting]: https://wiki.oauth.net/w/page/12238543/ProblemReporting

use std::fmt;

use crate::error::{Error, ErrorKind, Part, Quoted};
use crate::pipeline::protocol::{Name, Protocol};
use crate::text::encode::percent_encode_str;

/// Why a request was rejected. Loggable: no secret, and names and values
/// from the request are quoted with control characters escaped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Reason {
    /// The header, URL or form body cannot be read: the [`Error`] says what
    /// and where (the part and the byte offset).
    Malformed(Error),
    /// A header that decides what is verified is there more than once (two
    /// `Authorization` or `Content-Type` headers).
    AmbiguousHeader {
        /// The header's name.
        name: &'static str,
    },
    /// A trusted proxy's `Forwarded` or `X-Forwarded-*` header names a
    /// scheme other than `http` or `https`, or a host that is not
    /// `host[:port]` (`api.example.com#` would turn the received path into
    /// a fragment), or both families came to a verifier not told which one
    /// its proxy writes ([`Forwarded::Either`](crate::verify::Forwarded::Either)):
    /// the URL the client signed cannot be known.
    ForwardedRejected {
        /// The header it was read from.
        header: &'static str,
        /// What is wrong.
        why: &'static str,
    },
    /// A parameter given twice in the `Forwarded` element a verifier reads
    /// (`proto=https;host=a;host=b`): RFC 7239 §4 allows each once per
    /// element, and readers differ on which one counts.
    ForwardedRepeated {
        /// The parameter's name, as received.
        name: String,
    },
    /// A parameter given twice where the protocol parameters are (RFC 5849
    /// §3.5.1, §3.5: each protocol parameter once): a name twice inside the
    /// header, or a protocol parameter twice in the query or the body.
    Duplicated {
        /// The decoded name.
        name: String,
        /// Where the second one is.
        part: Part,
        /// The byte offset of its name there.
        offset: usize,
    },
    /// Protocol parameters sent in two places (§3.5: "MUST NOT be
    /// included in more than one method"): the header and the query, say.
    InTwoPlaces {
        /// The decoded name of the first found in the second place.
        name: String,
        /// Where the protocol parameters were first found.
        first: Part,
        /// The other place.
        second: Part,
    },
    /// Required protocol parameters are absent (§3.1), in the order of
    /// their names.
    ParameterAbsent(Vec<&'static str>),
    /// A parameter's value (or the parameter itself) is refused.
    ParameterRejected {
        /// The decoded name.
        name: String,
        /// Why.
        why: &'static str,
    },
    /// `oauth_version` is present and is not `1.0` (§3.1).
    VersionRejected,
    /// `oauth_signature_method` is not one this verifier accepts.
    SignatureMethodRejected {
        /// The method as sent.
        method: String,
    },
    /// No such consumer key (answered as `signature_invalid`).
    ConsumerKeyUnknown,
    /// No such token for this consumer (answered as `signature_invalid`).
    TokenUnknown,
    /// The request is signed with an RSA method and the secret source gave
    /// no RSA public key for its consumer (answered as `signature_invalid`,
    /// as an unknown consumer is: the answer reveals no key).
    PublicKeyMissing {
        /// The RSA method the request names.
        method: crate::pipeline::sign::SignatureMethod,
    },
    /// The signature does not match the request as received.
    SignatureInvalid,
    /// `oauth_body_hash` is not the hash of the body received.
    BodyHashInvalid,
    /// `oauth_timestamp` is outside the window.
    TimestampRefused {
        /// How far outside: negative when the timestamp is before the
        /// window (too old), positive when after it (in the future).
        by_seconds: i64,
        /// The first and the last timestamp accepted now.
        acceptable: (u64, u64),
    },
    /// The nonce was used already with this consumer, token and timestamp.
    NonceUsed,
    /// The nonce store could not answer: the request is refused, never
    /// accepted unchecked.
    StoreUnavailable(String),
    /// The [`SecretSource`](crate::verify::SecretSource) could not answer.
    SecretsUnavailable(String),
}

/// What every failure that depends on which keys exist is answered as.
static SIGNATURE_INVALID: Reason = Reason::SignatureInvalid;

impl Reason {
    /// The reason as the client may be told it: an unknown consumer key,
    /// an unknown token and a consumer without an RSA public key are all
    /// [`SignatureInvalid`](Reason::SignatureInvalid), so that no answer
    /// tells which keys exist; every other reason is itself (it names only
    /// what the client sent). [`problem`](Self::problem) answers this one;
    /// log the reason itself.
    ///
    /// ```
    /// use oauth1_signer::verify::Reason;
    ///
    /// assert_eq!(Reason::ConsumerKeyUnknown.public(), &Reason::SignatureInvalid);
    /// assert_eq!(Reason::NonceUsed.public(), &Reason::NonceUsed);
    /// ```
    pub fn public(&self) -> &Reason {
        match self {
            Reason::ConsumerKeyUnknown | Reason::TokenUnknown | Reason::PublicKeyMissing { .. } => {
                &SIGNATURE_INVALID
            }
            other => other,
        }
    }

    /// The `oauth_problem` code this reason is answered with (that of its
    /// [`public`](Self::public) form).
    pub fn problem_code(&self) -> &'static str {
        match self.public() {
            Reason::Malformed(_)
            | Reason::AmbiguousHeader { .. }
            | Reason::ForwardedRejected { .. }
            | Reason::ForwardedRepeated { .. }
            | Reason::Duplicated { .. }
            | Reason::InTwoPlaces { .. }
            | Reason::ParameterRejected { .. }
            | Reason::BodyHashInvalid => "parameter_rejected",
            Reason::ParameterAbsent(_) => "parameter_absent",
            Reason::VersionRejected => "version_rejected",
            Reason::SignatureMethodRejected { .. } => "signature_method_rejected",
            // Unknown keys and a missing public key are SignatureInvalid by
            // now (`public`): the answer reveals no key.
            Reason::ConsumerKeyUnknown
            | Reason::TokenUnknown
            | Reason::PublicKeyMissing { .. }
            | Reason::SignatureInvalid => "signature_invalid",
            Reason::TimestampRefused { .. } => "timestamp_refused",
            Reason::NonceUsed => "nonce_used",
            // Not one of the extension's codes: no code there says "try again".
            Reason::StoreUnavailable(_) | Reason::SecretsUnavailable(_) => {
                "temporarily_unavailable"
            }
        }
    }

    /// The HTTP status to answer with: 503 when a store or the secret source
    /// could not answer (the client may retry), 415 for a `Content-Type`
    /// that only looks like the form's
    /// ([`ErrorKind::AmbiguousMediaType`]), 401 otherwise.
    pub fn status(&self) -> u16 {
        match self {
            Reason::StoreUnavailable(_) | Reason::SecretsUnavailable(_) => 503,
            Reason::Malformed(e) if matches!(e.kind(), ErrorKind::AmbiguousMediaType { .. }) => 415,
            _ => 401,
        }
    }

    /// The OAuth Problem Reporting body (`application/x-www-form-urlencoded`):
    /// `oauth_problem=...` and, where the extension defines one, the
    /// parameter that says more (the absent or rejected parameters, the
    /// acceptable timestamps or versions).
    ///
    /// ```
    /// use oauth1_signer::verify::Reason;
    ///
    /// let r = Reason::ParameterAbsent(vec!["oauth_nonce", "oauth_timestamp"]);
    /// assert_eq!(r.problem(), "oauth_problem=parameter_absent&oauth_parameters_absent=oauth_nonce%26oauth_timestamp");
    /// assert_eq!(Reason::ConsumerKeyUnknown.problem(), Reason::SignatureInvalid.problem());
    /// ```
    pub fn problem(&self) -> String {
        let mut out = format!("oauth_problem={}", self.problem_code());
        // The lists are `&`-joined, then encoded as one value.
        let rejected =
            |name: &str| format!("&oauth_parameters_rejected={}", percent_encode_str(name));
        match self.public() {
            Reason::ParameterAbsent(names) => {
                let list = names.join("&");
                out.push_str(&format!(
                    "&oauth_parameters_absent={}",
                    percent_encode_str(&list)
                ));
            }
            Reason::Duplicated { name, .. }
            | Reason::InTwoPlaces { name, .. }
            | Reason::ParameterRejected { name, .. } => out.push_str(&rejected(name)),
            Reason::BodyHashInvalid => out.push_str(&rejected(Name::BodyHash.as_str())),
            Reason::VersionRejected => out.push_str("&oauth_acceptable_versions=1.0-1.0"),
            Reason::TimestampRefused {
                acceptable: (from, to),
                ..
            } => out.push_str(&format!("&oauth_acceptable_timestamps={from}-{to}")),
            _ => {}
        }
        out
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Malformed(e) => write!(f, "malformed request: {e}"),
            Reason::AmbiguousHeader { name } => {
                write!(f, "the {name} header is given more than once")
            }
            Reason::ForwardedRejected { header, why } => {
                write!(f, "the trusted proxy's {header} header is refused: {why}")
            }
            Reason::ForwardedRepeated { name } => write!(
                f,
                "the trusted proxy's Forwarded header gives {} twice in one element \
                 (RFC 7239 §4: each parameter once)",
                Quoted(name)
            ),
            Reason::Duplicated { name, part, offset } => write!(
                f,
                "{} is given twice (again at byte {offset} of the {part})",
                Quoted(name)
            ),
            Reason::InTwoPlaces {
                name,
                first,
                second,
            } => write!(
                f,
                "protocol parameters are sent in the {first} and in the {second} ({} in the {second})",
                Quoted(name)
            ),
            Reason::ParameterAbsent(names) => {
                write!(f, "required parameters absent: {}", names.join(", "))
            }
            Reason::ParameterRejected { name, why } => {
                write!(f, "parameter {} rejected: {why}", Quoted(name))
            }
            Reason::VersionRejected => f.write_str("oauth_version is not 1.0"),
            Reason::SignatureMethodRejected { method } => {
                write!(f, "signature method {} is not accepted", Quoted(method))
            }
            Reason::ConsumerKeyUnknown => f.write_str("unknown consumer key"),
            Reason::TokenUnknown => f.write_str("unknown token"),
            Reason::PublicKeyMissing { method } => write!(
                f,
                "no RSA public key for this consumer, to verify its {method} signature with"
            ),
            Reason::SignatureInvalid => f.write_str("the signature does not match the request"),
            Reason::BodyHashInvalid => {
                f.write_str("oauth_body_hash is not the hash of the body received")
            }
            Reason::TimestampRefused {
                by_seconds,
                acceptable: (from, to),
            } => {
                let side = if *by_seconds < 0 { "before" } else { "after" };
                write!(
                    f,
                    "timestamp refused: {} s {side} the window {from}-{to}",
                    by_seconds.unsigned_abs()
                )
            }
            Reason::NonceUsed => f.write_str("nonce already used (a replay)"),
            Reason::StoreUnavailable(e) => write!(f, "nonce store unavailable: {e}"),
            Reason::SecretsUnavailable(e) => write!(f, "secret source unavailable: {e}"),
        }
    }
}

impl From<Error> for Reason {
    /// The one place where the library's [`Error`] becomes the verifier's
    /// [`Reason`]: a name given twice where it was read is
    /// [`Duplicated`](Reason::Duplicated); a name or a value the protocol's
    /// rules refuse is [`ParameterRejected`](Reason::ParameterRejected);
    /// anything else that cannot be read is [`Malformed`](Reason::Malformed).
    fn from(e: Error) -> Reason {
        match e.kind() {
            ErrorKind::DuplicateProtocolParameter {
                name,
                at: Some((part, offset)),
            } => Reason::Duplicated {
                name: name.clone(),
                part: *part,
                offset: *offset,
            },
            ErrorKind::NotAProtocolParameter { name } => Reason::ParameterRejected {
                name: name.clone(),
                why: "not a protocol parameter (an Authorization header holds only realm and \
                      oauth_* parameters; in Mastercard's style, only the seven its signers \
                      send)",
            },
            ErrorKind::InvalidProtocolValue { name, reason } => Reason::ParameterRejected {
                name: (*name).to_owned(),
                why: reason,
            },
            _ => Reason::Malformed(e),
        }
    }
}

/// A rejected request: why, and what to answer; and what the verifier had
/// found by then, for a server's own diagnosis: the protocol parameters,
/// the URL it checked against, the base string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    reason: Reason,
    /// Boxed: a rejection is returned by every check, and mostly is none.
    found: Option<Box<Found>>,
}

/// What the verifier had found when it refused.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Found {
    protocol: Protocol<'static>,
    request_url: String,
    base_string: Option<String>,
}

impl Rejection {
    pub(crate) fn new(reason: Reason) -> Rejection {
        Rejection {
            reason,
            found: None,
        }
    }

    /// The rejection with the protocol parameters read and the URL the
    /// request was checked against.
    pub(crate) fn with_protocol(mut self, protocol: &Protocol<'_>, request_url: &str) -> Rejection {
        self.found = Some(Box::new(Found {
            protocol: protocol.owned_copy(),
            request_url: request_url.to_owned(),
            base_string: None,
        }));
        self
    }

    /// [`with_protocol`](Self::with_protocol), and the base string the
    /// verifier computed.
    pub(crate) fn with_found(
        self,
        base_string: String,
        protocol: &Protocol<'_>,
        request_url: &str,
    ) -> Rejection {
        let mut r = self.with_protocol(protocol, request_url);
        if let Some(found) = r.found.as_mut() {
            found.base_string = Some(base_string);
        }
        r
    }

    /// The protocol parameters the verifier read, when it got that far
    /// (every reason after the header, query and body parsed): what the
    /// client sent, to diagnose a bad signature with (the `protocol` of an
    /// `explain::Explainer`, feature `explain`). Request data: a PLAINTEXT
    /// signature among them is the client's guess at a secret.
    pub fn protocol(&self) -> Option<&Protocol<'static>> {
        self.found.as_ref().map(|f| &f.protocol)
    }

    /// The URL the request was checked against
    /// ([`Verifier::request_url`](crate::verify::Verifier::request_url)),
    /// when the verifier got as far as the protocol parameters.
    pub fn request_url(&self) -> Option<&str> {
        self.found.as_ref().map(|f| f.request_url.as_str())
    }

    /// The signature base string the verifier computed from the request as
    /// received, when it got that far (every reason after the protocol
    /// parameters were read): to compare with the client's when a
    /// signature does not match. It holds no secret, but it is request
    /// data: log it where request data may go, never answer it.
    pub fn base_string(&self) -> Option<&str> {
        self.found.as_ref().and_then(|f| f.base_string.as_deref())
    }

    /// Why (the truth, for logs: an unknown key is
    /// [`ConsumerKeyUnknown`](Reason::ConsumerKeyUnknown) here).
    pub fn reason(&self) -> &Reason {
        &self.reason
    }

    /// The OAuth Problem Reporting body to answer with ([`Reason::problem`]).
    pub fn problem(&self) -> String {
        self.reason.problem()
    }

    /// The HTTP status to answer with ([`Reason::status`]).
    pub fn status(&self) -> u16 {
        self.reason.status()
    }
}

impl From<Reason> for Rejection {
    fn from(reason: Reason) -> Rejection {
        Rejection::new(reason)
    }
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "request rejected: {}", self.reason)
    }
}

/// Its message says the reason whole (a log line), so it has no source: a
/// reporter that walks the chain prints each cause once.
impl std::error::Error for Rejection {}

#[cfg(test)]
mod tests {
    use super::*;

    // What a log line says: which side of the window, by how much, and the
    // window (RFC 5849 §3.3 leaves its size to the server).
    #[test]
    fn a_refused_timestamp_says_which_side_of_the_window() {
        let old = Reason::TimestampRefused {
            by_seconds: -301,
            acceptable: (1000, 1600),
        };
        assert_eq!(
            old.to_string(),
            "timestamp refused: 301 s before the window 1000-1600"
        );
        let future = Reason::TimestampRefused {
            by_seconds: 5,
            acceptable: (1000, 1600),
        };
        assert_eq!(
            future.to_string(),
            "timestamp refused: 5 s after the window 1000-1600"
        );
        assert_eq!(
            Reason::NonceUsed.to_string(),
            "nonce already used (a replay)"
        );
        assert_eq!(
            Rejection::new(Reason::NonceUsed).to_string(),
            "request rejected: nonce already used (a replay)"
        );
    }
}
