//! Strict OAuth 1.0a ([RFC 5849]) request signing and verifying, built first for the X
//! (Twitter) API: the `Authorization: OAuth ...` header the X API accepts the first time, and
//! every stage in between there to look at when a provider answers `401 Could not authenticate
//! you`.
//!
//! ```toml
//! [dependencies]
//! oauth1-signer = { version = "0.1", features = ["reqwest"] }   # or "http", "tower", ...
//! # Only for the reqwest middleware: reqwest needs a TLS feature of your choice, or an
//! # https call fails at run time with "scheme is not http".
//! reqwest = { version = "0.13", default-features = false, features = ["rustls"] }
//! reqwest-middleware = "0.5"
//! tokio = { version = "1", features = ["macros", "rt-multi-thread"] }
//! http = "1"
//! ```
//!
//! # Jobs and where they are
//!
//! | job | type or function | feature |
//! |---|---|---|
//! | sign every request of a reqwest client | [`client::OAuth1Middleware`] | `reqwest` |
//! | sign an `http::Request` (header, query or form body) | [`client::sign_http_request`], [`client::HttpOptions`] | `http` |
//! | sign from strings, see every stage | [`Signer`], [`OAuthRequest`], [`Signer::trace`] | |
//! | a provider's defaults and quirks (NetSuite, WooCommerce, Mastercard, ...) | [`Provider`], [`provider::Profile`] | |
//! | protect an axum or tower route; the handler reads [`verify::Verified`] | [`verify::VerifyLayer`] | `tower` |
//! | verify a request by hand, nonces in memory or Redis | [`verify::Verifier`] | (`redis`) |
//! | log a user in: the three-legged flow | [`flow`] | (`reqwest`) |
//! | why does my signature not match? | [`explain::Explainer`], `oauth1 explain` | `explain` |
//! | read what a client sent: a curl command, a HAR file, a raw request; a provider's error answer | [`capture`] | `capture` |
//! | one stage on its own: encode, collect, normalise, base string, key | [`text`], [`pipeline`] | |
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
//! all.
//!
//! # The wings
//!
//! ```text
//! text       bytes: percent-encoding and decoding (§3.6), form text, what may reach a terminal
//! pipeline   §3.4-3.5, a module per stage: URL, parameters, base string, keys, header, Signer
//! capture    requests as people have them: a curl command, a HAR file, a raw HTTP request
//! provider   profiles, parameter styles (Mastercard's), OAuth Echo
//! client     the sending edge: http::Request, the reqwest middleware, redirects
//! flow       the three-legged flow (§2)
//! verify     the receiving side: the Verifier, nonce stores, the tower layer
//! explain    why a signature does not match
//! json       the request file's schema (serde)
//! ```
//!
//! [`Protocol`] holds a request's protocol parameters, read as well as written: decoded, each
//! name once, every name `oauth_*`, all in one [`Transmission`], with the realm beside them.
//! The signer refuses at `build()` what the verifier would refuse, a [`Signed`] holds what a
//! signer sent, and the verifier's [`verify::Verified`] and [`verify::Rejection`] hold what it
//! read: what this crate signs, its own verifier accepts. ARCHITECTURE.md, in the repository,
//! draws the map and its invariants.
//!
//! | feature | what |
//! |---|---|
//! | (none) | the pipeline (HMAC-SHA1/256/512, PLAINTEXT), [`flow`]'s parsers, [`verify`] |
//! | `rsa` | RSA-SHA1 and RSA-SHA256 keys (PEM), to sign and to verify |
//! | `json` | [`json`]: a request in the fixtures' JSON schema |
//! | `http` | [`client`]: sign and trace `http::Request`s; [`verify::Verifier::verify_http`] |
//! | `reqwest` | [`client::OAuth1Middleware`] and the flow's senders, over reqwest (whose TLS you choose) |
//! | `explain` | [`explain`]: why their base string, signature or header differs |
//! | `capture` | [`capture`]: a curl command, a HAR file or a raw request read; a provider's error answer |
//! | `tower` | [`verify::VerifyLayer`] for tower and axum |
//! | `redis` | [`verify::RedisNonceStore`], [`verify::RedisClusterNonceStore`] |
//!
//! # Strictness
//!
//! Encoding is RFC 5849 §3.6 exactly. Whatever could make the signed text differ from what is
//! sent, or let a receiver read a request two ways, is an [`Error`] naming its byte offset or
//! parameter ([`Error::offset`]); every input from the other side has a bound; text from
//! outside reaches a terminal only through [`text::escape_controls`]; `Debug` never shows a
//! secret. An [`ErrorKind`] and its fields are stable; the wording of messages is not.
//!
//! [RFC 5849]: https://www.rfc-editor.org/rfc/rfc5849
// What a feature adds is linked from the page above whatever features these
// docs are built with: to the item with its feature, else to its page on
// docs.rs (built with every feature), so that no link is left unresolved
// (shown as `[capture]`).
#![cfg_attr(
    feature = "http",
    doc = "[`client`]: crate::client\n[`client::sign_http_request`]: crate::client::sign_http_request\n[`client::HttpOptions`]: crate::client::HttpOptions\n[`verify::Verifier::verify_http`]: crate::verify::Verifier::verify_http"
)]
#![cfg_attr(not(feature = "http"), doc = concat!("[`client`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/client/index.html", "\n", "[`client::sign_http_request`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/client/fn.sign_http_request.html", "\n", "[`client::HttpOptions`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/client/struct.HttpOptions.html", "\n", "[`verify::Verifier::verify_http`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/verify/struct.Verifier.html#method.verify_http"))]
#![cfg_attr(
    feature = "reqwest",
    doc = "[`client::OAuth1Middleware`]: crate::client::OAuth1Middleware"
)]
#![cfg_attr(not(feature = "reqwest"), doc = concat!("[`client::OAuth1Middleware`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/client/struct.OAuth1Middleware.html"))]
#![cfg_attr(
    feature = "tower",
    doc = "[`verify::VerifyLayer`]: crate::verify::VerifyLayer"
)]
#![cfg_attr(not(feature = "tower"), doc = concat!("[`verify::VerifyLayer`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/verify/struct.VerifyLayer.html"))]
#![cfg_attr(
    feature = "explain",
    doc = "[`explain`]: crate::explain\n[`explain::Explainer`]: crate::explain::Explainer"
)]
#![cfg_attr(not(feature = "explain"), doc = concat!("[`explain`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/explain/index.html", "\n", "[`explain::Explainer`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/explain/struct.Explainer.html"))]
#![cfg_attr(feature = "capture", doc = "[`capture`]: crate::capture")]
#![cfg_attr(not(feature = "capture"), doc = concat!("[`capture`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/capture/index.html"))]
#![cfg_attr(feature = "json", doc = "[`json`]: crate::json")]
#![cfg_attr(not(feature = "json"), doc = concat!("[`json`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/json/index.html"))]
#![cfg_attr(
    feature = "redis",
    doc = "[`verify::RedisNonceStore`]: crate::verify::RedisNonceStore\n[`verify::RedisClusterNonceStore`]: crate::verify::RedisClusterNonceStore"
)]
#![cfg_attr(not(feature = "redis"), doc = concat!("[`verify::RedisNonceStore`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/verify/struct.RedisNonceStore.html", "\n", "[`verify::RedisClusterNonceStore`]: https://docs.rs/oauth1-signer/", env!("CARGO_PKG_VERSION"), "/oauth1_signer/verify/struct.RedisClusterNonceStore.html"))]
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

// The house by wing (ARCHITECTURE.md): each folder a wing, opening with what
// it owns and what it may import. The nouns a user needs are re-exported
// here; every other item has its one path in its wing's module.
#[cfg(feature = "capture")]
pub mod capture;
/// Requests as people have them: without the `capture` feature, only the
/// curl command writer ([`capture::CurlCommand`]), which what signs a
/// request shows (the page's first download has no readers).
#[cfg(not(feature = "capture"))]
pub mod capture {
    #[path = "curl/write.rs"]
    mod write;
    pub use write::CurlCommand;
}
#[cfg(feature = "http")]
pub mod client;
mod error;
#[cfg(feature = "explain")]
pub mod explain;
pub mod flow;
#[cfg(feature = "json")]
pub mod json;
pub mod outgoing;
pub mod pipeline;
pub mod provider;
pub mod text;
pub mod verify;

pub use error::{Error, ErrorKind, Part};
pub use outgoing::spec::RequestSpec;
pub use pipeline::body_hash::{BodyHash, BodyHashAlgorithm, BodyHashPolicy};
pub use pipeline::builder::SignerBuilder;
pub use pipeline::credentials::{Credentials, Secret};
pub use pipeline::protocol::{Name, Protocol, Transmission};
pub use pipeline::request::OAuthRequest;
pub use pipeline::sign::SignatureMethod;
pub use pipeline::signed::{Signed, Trace, Warning};
pub use pipeline::signer::Signer;
pub use provider::profile::Provider;
