//! Strict OAuth 1.0a request signing ([RFC 5849]), built first for the X (Twitter) API.
//!
//! The pipeline, one module per stage, each public so it can be called (and
//! checked) on its own:
//!
//! ```text
//! percent_encode        §3.6      strict RFC 3986 encoding: only A-Z a-z 0-9 - . _ ~ stay
//! Params                §3.4.1.3  query + oauth_* + form body, sorted by encoded name, value
//! base_string_uri       §3.4.1.2  scheme and host lower-cased, default port dropped, no query
//! BaseString            §3.4.1.1  METHOD & uri & params, streamed into the MAC
//! SigningKey            §3.4.2-4  HMAC-SHA1 (X), HMAC-SHA256/512, PLAINTEXT, RSA-SHA1/256
//! authorization_header  §3.5.1    OAuth realm="...", oauth_...="..."
//! ```
//!
//! The one-liner most users want is a [`Signer`]. This reproduces the X
//! developer docs' "Creating a signature" example exactly:
//!
//! ```
//! use oauth1_signer::{Credentials, Request, Signer};
//!
//! let signer = Signer::new(
//!     Credentials::new("xvz1evFS4wEEPTGEFPHBog", "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw")
//!         .with_token("370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"),
//! )
//! .with_nonce("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg") // pinned only to reproduce the docs
//! .with_timestamp("1318622958");
//!
//! let request = Request::post("https://api.x.com/1.1/statuses/update.json?include_entities=true")
//!     .form_body(b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21");
//!
//! let header = signer.authorization(&request)?;
//! assert_eq!(
//!     header,
//!     "OAuth oauth_consumer_key=\"xvz1evFS4wEEPTGEFPHBog\", \
//!      oauth_nonce=\"kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg\", \
//!      oauth_signature=\"Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D\", \
//!      oauth_signature_method=\"HMAC-SHA1\", \
//!      oauth_timestamp=\"1318622958\", \
//!      oauth_token=\"370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb\", \
//!      oauth_version=\"1.0\""
//! );
//!
//! // Every stage is there to look at when a provider says 401.
//! let trace = signer.trace(&request)?;
//! let parts: Vec<&str> = trace.base_string.split('&').collect();
//! assert_eq!(parts[0], "POST");
//! assert_eq!(parts[1], "https%3A%2F%2Fapi.x.com%2F1.1%2Fstatuses%2Fupdate.json");
//! assert!(parts[2].starts_with("include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog"));
//! assert_eq!(trace.signature.as_str(), "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=");
//! # Ok::<(), oauth1_signer::Error>(())
//! ```
//!
//! Bad input is an [`Error`] naming what is wrong and where (a byte offset in
//! the URL or body, a parameter name); nothing here panics on input, and no
//! `Debug` output shows a secret.
//!
//! # Features
//! - `rsa`: `RSA-SHA1` and `RSA-SHA256` with PEM keys (PKCS#1 and PKCS#8).
//! - `json`: `RequestSpec`, a request to sign as JSON, in the schema of the
//!   test vectors' inputs (serde).
//! - `cli`: the `oauth1` command-line tool.
//!
//! [RFC 5849]: https://www.rfc-editor.org/rfc/rfc5849

#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod base_string;
pub mod credentials;
pub mod encode;
pub mod error;
pub mod header;
#[cfg(feature = "json")]
pub mod json;
pub mod params;
mod rendered;
mod request;
pub mod sign;
mod signed;
pub mod signer;
pub mod sink;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use base_string::{base_string_uri, BaseString, BaseStringUri, Method, RequestUrl};
pub use credentials::{Credentials, Secret};
pub use encode::{
    encoded_len, form_decode, is_unreserved, percent_decode, percent_encode, percent_encode_str,
    Decoded, PercentEncode,
};
pub use error::{Error, ErrorKind, Part};
pub use header::{
    append_to_query, authorization_header, check_realm, form_encode, parse_authorization_header,
};
#[cfg(feature = "json")]
pub use json::{JsonError, RequestSpec};
pub use params::{Normalized, Param, Params};
pub use sign::{signing_key, Signature, SignatureMethod, Signing, SigningKey};
pub use signer::{is_form_urlencoded, Request, Signed, Signer, Trace};
pub use sink::{Counter, Sink};
