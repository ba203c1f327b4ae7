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
//! ones, each a small named transformation of how a base string is built
//! (`variant.rs`), listed with its cause in one table (`catalogue.rs`). With only a
//! signature, it recomputes the base string under every catalogued mistake
//! and every pair of them, and says which variant reproduces it; a mistaken
//! encoder is tried for the names and values, for the outer encoding, and
//! for both ([`EncodingLevel`]).
//!
//! Cost: linear in what the other side gave (n log n where parameters are
//! sorted). Their base string's parameters are matched with ours through
//! hash maps; a response body is scanned once; the signature search writes
//! a bounded number of base strings whatever the number of parameters
//! ([`SEARCH_EACH_PARAM_MAX`]), and is not made at all for a request over
//! [`SEARCH_MAX_PARAMS`] parameters or [`SEARCH_MAX_BYTES`] (the finding
//! says so). Inputs no legitimate peer sends are refused
//! by name: a header over [`MAX_HEADER_LEN`], and in the CLI a response body
//! over [`MAX_RESPONSE_BODY_LEN`].
//!
//! [RFC 5849 §3.4]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4

// This module only declares and re-exports. The others use only those
// before them in this order (tests/modules.rs checks that none uses one
// after it): variant, catalogue, tried, finding, lenient, model, compare, search,
// explainer; response uses lenient.
mod catalogue;
mod compare;
mod explainer;
mod finding;
mod lenient;
mod model;
mod rejected;
mod response;
mod search;
mod tried;
mod variant;

pub use catalogue::{Cause, UnknownCause};
pub use explainer::{Explainer, Theirs, MAX_HEADER_LEN};
pub use finding::{Component, Explanation, Finding, FoundBy};
pub use rejected::{Audience, Rejected};
pub use response::{
    base_string_from_response, find_base_string_in_response, ResponseBaseString,
    MAX_RESPONSE_BODY_LEN,
};
pub use search::{
    SEARCH_EACH_PARAM_MAX, SEARCH_MAX_BYTES, SEARCH_MAX_PARAMS, SEARCH_MAX_SIGNATURES,
};
pub use tried::EncodingLevel;
