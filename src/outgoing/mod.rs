//! The outgoing request, in the core: [`RequestSpec`](crate::RequestSpec) holds one request
//! to sign with everything that decides how it is signed and sent (its
//! method, URL and body; credentials; the nonce, timestamp, version and
//! realm; a provider's defaults; the body hash; the transmission), checks
//! them against each other once, says what is likely a slip ([`Lint`]),
//! and gives the [`Signer`](crate::Signer),
//! the [`OAuthRequest`](crate::OAuthRequest) and what goes on the wire
//! ([`Sent`]). The request file of `oauth1`, the page and the HTTP edges
//! all use it; `json` only reads and writes it.
//!
//! It imports the [`pipeline`](crate::pipeline) and [`provider`](crate::provider)
//! wings, [`capture`](crate::capture)'s curl writer, and with feature
//! `capture` the rest of the `capture` wing (a captured request read into a
//! `RequestSpec`).

#[cfg(feature = "capture")]
mod captured;
mod check;
mod lint;
pub(crate) mod read;
pub(crate) mod sent;
#[cfg(feature = "json")]
pub(crate) mod serde_fields;
pub(crate) mod spec;

pub use lint::Lint;
pub use read::Lifted;
pub use sent::Sent;
