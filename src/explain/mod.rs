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
//! It imports the wings below it: the [`pipeline`](crate::pipeline) (the
//! stages it reruns), [`text`](crate::text), `capture`
//! (a captured request and the provider's answer),
//! `outgoing` (the request as meant) and
//! [`verify`](crate::verify) (a request as received); no wing imports it.
//!
//! The right rules come from the stages; the explainer knows only the wrong
//! ones, each a small named transformation of how a base string is built
//! (`variant.rs`), listed with its cause in one table (`catalogue.rs`). With only a
//! signature, it recomputes the base string under every catalogued mistake,
//! every pair of them and the likely triples, the simplest first, and says
//! which combination reproduces it; a mistaken encoder is tried for the
//! names and values, for the outer encoding, and for both
//! ([`EncodingLevel`]).
//!
//! The mistakes are independent axes, each a field of a `Variant` that a
//! catalogued mistake sets (two of one axis never combine):
//!
//! - the encoder: a space as `+`, lower-case hex, `! * ' ( )` bare, `~`
//!   escaped, and the real encoders that depart in part of their alphabet,
//!   a table citing each one's documentation (`variant::ENCODERS`: Java's
//!   `URLEncoder`, PHP's `urlencode`, MDN's `fixedEncodeURIComponent`,
//!   Python's `quote`, .NET's `WebUtility`/`HttpUtility.UrlEncode`, Go's
//!   `url.PathEscape`; those equal to one departure, such as Python's
//!   `quote_plus`, are named in its finding); the depth (twice, not at all);
//! - the order: raw, by `name=value`, not sorted, a stable sort by name;
//! - the base string URI: the scheme (`http` for `https`), a default port
//!   kept or a port dropped, the case, the other X host, the path (decoded,
//!   a `/` more or less, empty, `~` as `%7E`), the query or the fragment
//!   kept in it;
//! - the method: not upper-cased, lower-cased, the other one, HEAD as GET;
//! - the parameters: the query's, the body's, each one, duplicates, `realm`,
//!   an empty `oauth_signature`, a non-form body, `oauth_version` toggled
//!   or `1.0a`, a timestamp in milliseconds, the text's form (NFC, NFD,
//!   ISO-8859-1, the query read as ISO-8859-1);
//! - the key (the token secret missing, swapped, not encoded, no `&`) and
//!   each keyed method.
//!
//! Where mistakes write the same base string, the finding says so and names
//! each. The search stops at [`SEARCH_MAX_SIGNATURES`] tries or
//! [`SEARCH_MAX_WRITTEN`] bytes of base strings (the finding says so); a
//! client not yet trusted gets single mistakes and pairs only.
//!
//! Cost: linear in what the other side gave (n log n where parameters are
//! sorted). Their base string's parameters are matched with ours through
//! hash maps; a response body is scanned once; the signature search writes
//! a bounded number of base strings whatever the number of parameters
//! ([`SEARCH_EACH_PARAM_MAX`], [`SEARCH_MAX_SIGNATURES`],
//! [`SEARCH_MAX_WRITTEN`]), each linear in the request, and is not made at all for a request over
//! [`SEARCH_MAX_PARAMS`] parameters or [`SEARCH_MAX_BYTES`] (the finding
//! says so). Inputs no legitimate peer sends are refused
//! by name: a header over [`MAX_HEADER_LEN`], and in the CLI a response body
//! over [`MAX_RESPONSE_BODY_LEN`].
//!
//! A request as the client sent it (a curl command, a HAR entry, a raw HTTP
//! request: the `capture` feature) is explained in one call,
//! [`CaptureExplainer`]: its own protocol parameters are signed with the
//! secrets given, a value pinned that it contradicts is said first
//! ([`Contradiction`]), and the provider's answer is read with the client's
//! [`Clock`].
//!
//! [RFC 5849 §3.4]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4

// This module only declares and re-exports. The others use only those
// before them in this order (tests/modules.rs checks that none uses one
// after it): variant, catalogue, tried, finding, lenient, model, compare, search,
// explainer, rejected, captured; response uses lenient.
#[cfg(feature = "capture")]
mod captured;
mod catalogue;
mod compare;
mod explainer;
mod finding;
mod lenient;
mod model;
mod ours;
mod rejected;
mod response;
mod search;
mod tried;
mod variant;

#[cfg(feature = "capture")]
pub use captured::{CaptureExplainer, CaptureExplanation, Clock, Contradiction};
pub use catalogue::{Cause, UnknownCause};
pub use explainer::{Explainer, Theirs, MAX_HEADER_LEN};
pub use finding::{Component, Explanation, Finding, FoundBy};
#[cfg(feature = "tower")]
pub use rejected::Diagnoser;
pub use rejected::{Audience, Rejected, DIAGNOSE_MAX_BYTES, DIAGNOSE_MAX_PARAMS};
pub use response::{
    base_string_from_response, find_base_string_in_response, ResponseBaseString,
    MAX_RESPONSE_BODY_LEN,
};
pub use search::{
    SEARCH_EACH_PARAM_MAX, SEARCH_MAX_BYTES, SEARCH_MAX_PARAMS, SEARCH_MAX_SIGNATURES,
    SEARCH_MAX_WRITTEN,
};
pub use tried::EncodingLevel;
