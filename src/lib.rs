//! Strict OAuth 1.0a ([RFC 5849]) request signing and verifying, built first for the X
//! (Twitter) API: the `Authorization: OAuth ...` header the X API accepts the first time, and
//! every stage in between there to look at when a provider answers `401 Could not authenticate
//! you`.
//!
//! ```text
//! percent_encode        §3.6      only A-Z a-z 0-9 - . _ ~ stay; everything else %XX, upper-case hex
//! Params                §3.4.1.3  query + oauth_* + form body (never a JSON body), sorted by encoded name, then value
//! base_string_uri       §3.4.1.2  scheme and host lower-cased, :80/:443 dropped, path as sent, no query
//! BaseString            §3.4.1.1  METHOD & enc(uri) & enc(params), streamed straight into the MAC
//! SigningKey / header   §3.4.2-4, §3.5.1  HMAC-SHA1 → OAuth oauth_consumer_key="...", oauth_signature="..."
//! ```
//!
//! # Example
//!
//! The X developer docs' "Creating a signature" example, reproduced exactly (the nonce and
//! timestamp pinned only to reproduce it; a [`Signer`] makes fresh ones by default):
//!
//! ```
//! use oauth1_signer::{Credentials, OAuthRequest, Signer};
//!
//! let signer = Signer::builder(
//!     Credentials::new("xvz1evFS4wEEPTGEFPHBog", "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw")
//!         .with_token("370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"),
//! )
//! .with_nonce("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")
//! .with_timestamp("1318622958")
//! .build()?;
//! let request = OAuthRequest::post("https://api.x.com/1.1/statuses/update.json?include_entities=true")
//!     .form_body(b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21");
//! let trace = signer.trace(&request)?;
//! assert_eq!(trace.signature.as_str(), "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=");
//! // The base string, broken at each '&' that joins its parts:
//! let parts: Vec<&str> = trace.base_string.splitn(3, '&').collect();
//! assert_eq!(parts[..2], ["POST", "https%3A%2F%2Fapi.x.com%2F1.1%2Fstatuses%2Fupdate.json"]);
//! assert!(signer.authorization_header(&request)?.starts_with("OAuth oauth_consumer_key="));
//! # Ok::<(), oauth1_signer::Error>(())
//! ```
//!
//! [`Signer::new`] takes the defaults (HMAC-SHA1, `oauth_version`, a fresh nonce and
//! timestamp); [`Signer::builder`] stores each setting and [`SignerBuilder::build`] checks them
//! all. Every stage is a public item of its own: [`percent_encode`], [`Params`],
//! [`base_string_uri`], [`BaseString`], [`SigningKey`], [`authorization_header`].
//!
//! # One model of the protocol parameters
//!
//! [`Protocol`] holds a request's protocol parameters, read as well as written: decoded, each
//! name once, every name `oauth_*`, all in one [`Transmission`], with the realm beside them.
//! [`Nonce`] and [`Timestamp`] state the one rule for each value. The signer refuses at
//! `build()` what the verifier would refuse, a [`Signed`] holds what a signer sent, and the
//! verifier's [`verify::Verified`] and [`verify::Rejection`] hold what it read: what this crate
//! signs, its own verifier accepts.
//!
//! # The edges
//!
//! Each is a module: [`http`] signs `http::Request`s (feature `http`); [`middleware`] signs
//! every request of a `reqwest` client, re-signing retries and same-origin redirects (feature
//! `reqwest`); [`flow`] is the three-legged flow (RFC 5849 §2); [`explain`] says why a
//! signature does not match, naming the catalogued mistake (feature `explain`); [`json`] reads
//! a request in the test vectors' schema (feature `json`); [`verify`] checks requests a server
//! receives, with memory or Redis nonce stores (feature `redis`) and a tower layer (feature
//! `tower`).
//!
//! | feature | what |
//! |---|---|
//! | (none) | the pipeline (HMAC-SHA1/256/512, PLAINTEXT), [`flow`]'s parsers, [`verify`] |
//! | `rsa` | RSA-SHA1 and RSA-SHA256 keys (PEM), to sign and to verify |
//! | `json` | [`json`]: a request in the fixtures' JSON schema |
//! | `http` | [`http`]: sign, trace and verify `http::Request`s |
//! | `reqwest` | [`middleware`] and the flow's senders, over reqwest (whose TLS you choose) |
//! | `explain` | [`explain`]: why their base string, signature or header differs |
//! | `tower` | `verify::VerifyLayer` for tower and axum |
//! | `redis` | `verify::RedisNonceStore`, `verify::RedisClusterNonceStore` |
//!
//! # Strictness
//!
//! Encoding is RFC 5849 §3.6 exactly. Whatever could make the signed text differ from what is
//! sent is an [`Error`] naming its byte offset or parameter ([`Error::offset`]); every input
//! from the other side has a bound; text from outside reaches a terminal only through
//! [`escape_controls`]; `Debug` never shows a secret. An [`ErrorKind`] and its fields are
//! stable; the wording of messages is not.
//!
//! [RFC 5849]: https://www.rfc-editor.org/rfc/rfc5849
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

/// The README's examples, compiled and run as doctests (the README is the
/// repository's front page; these crate docs are docs.rs's).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The recipes of `docs/providers.md`, one per provider, run as doctests.
#[cfg(all(doctest, feature = "http", feature = "rsa"))]
#[doc = include_str!("../docs/providers.md")]
pub struct ProvidersDoctests;

// One private module per stage of the pipeline, its items re-exported here at
// exactly one path; the edges (an HTTP stack, the three-legged flow, the
// explainer, the verifier) are public modules of their own.
mod base_string;
mod body_hash;
mod builder;
mod clock;
mod credentials;
mod decode;
pub mod echo;
mod encode;
mod error;
#[cfg(feature = "explain")]
pub mod explain;
pub mod flow;
mod form;
mod header;
#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "json")]
pub mod json;
#[cfg(feature = "reqwest")]
pub mod middleware;
mod normalize;
mod params;
#[cfg(feature = "rsa")]
mod pem;
mod printable;
mod protocol;
mod provider;
mod quirks;
mod redact;
#[cfg(feature = "reqwest")]
mod redirect;
mod repeat;
mod request;
mod scan;
mod sign;
mod signed;
mod signer;
mod sink;
mod text;
mod url;
pub mod verify;
mod warnings;

pub use base_string::{base_string_uri, BaseString, BaseStringUri};
pub use body_hash::{body_hash, BodyHash, BodyHashAlgorithm, BodyHashPolicy};
pub use builder::SignerBuilder;
pub use credentials::{Credentials, Secret};
pub use decode::{form_decode, percent_decode, Decoded};
pub use encode::{percent_encode, percent_encode_str, PercentEncode};
pub use error::{Error, ErrorKind, Part};
pub use header::{
    append_to_query, authorization_header, check_realm, encode_pairs, parse_authorization_header,
};
pub use normalize::Normalized;
pub use params::{Param, Params};
pub use printable::escape_controls;
pub use protocol::{
    is_protocol_name, Name, Nonce, Protocol, Timestamp, Transmission, PROTOCOL_PREFIX,
};
pub use provider::{FlowQuirks, Profile, Provider, RealmRule, PROVIDERS};
pub use quirks::ParameterStyle;
pub use redact::{holds_secret, redact_secrets, redact_url};
pub use request::{is_form_urlencoded, OAuthRequest};
pub use scan::is_unreserved;
pub use sign::{key_string, Signature, SignatureMethod, SigningKey};
pub use signed::{Signed, Trace, Warning};
pub use signer::Signer;
pub use sink::Sink;
pub use url::RequestUrl;
