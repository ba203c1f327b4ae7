//! Verifying received OAuth 1.0a requests ([RFC 5849 §3.2]).
//!
//! A [`Verifier`] takes a [`Received`] request, finds its protocol
//! parameters strictly (one place, each once), recomputes the signature
//! with the signer's own stages from the request as received, and checks
//! the timestamp window and the nonce. It answers [`Verified`] or a
//! [`Rejection`] with a typed [`Reason`] and an OAuth Problem Reporting
//! body. Secrets come from a [`SecretSource`]; nonces go to a
//! [`NonceStore`], only once the signature has verified.
//!
//! It imports the wings below it: the [`pipeline`](crate::pipeline) (the
//! signer's own stages, run on what was received), [`text`](crate::text)
//! and the `client`'s reading of an `http::Request` (its
//! media-type rule and errors, so that both edges read a request alike);
//! the `explain` wing imports it.
//!
//! # In a server: the tower layer
//!
//! With the `tower` feature, [`VerifyLayer`] verifies every request before
//! a tower service or an axum router sees it. A request that verifies
//! reaches the handler with its [`Verified`] in the request's extensions:
//! an axum handler takes it with the `Extension<Verified>` extractor (the
//! consumer key and token it acts for). One that does not never reaches
//! the handler: it is answered 401 (503 when a store could not answer) with
//! the realm and the OAuth Problem Reporting body.
//!
//! ```
//! # #[cfg(feature = "tower")]
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use axum::{routing::get, Extension, Router};
//! use oauth1_signer::verify::{MemoryNonceStore, StaticSecrets, Verified, Verifier, VerifyLayer};
//! use oauth1_signer::Credentials;
//!
//! async fn me(Extension(verified): Extension<Verified>) -> String {
//!     format!("hello, {} (token {:?})", verified.consumer_key(), verified.token())
//! }
//!
//! let secrets = StaticSecrets::new(Credentials::new("key", "secret"));
//! let verifier = Verifier::builder(secrets, MemoryNonceStore::with_capacity(100_000))
//!     .public_base_url("https://api.example.com")
//!     .build()?;
//! let app: Router = Router::new()
//!     .route("/me", get(me))
//!     .layer(VerifyLayer::new(Arc::new(verifier)).realm("api.example.com")?);
//! # let _ = app;
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "tower"))]
//! # fn main() {}
//! ```
//!
//! [`VerifyLayer`]'s own example sends a signed and an unsigned request
//! through it; `examples/axum_verify.rs` is a server to run.
//!
//! [RFC 5849 §3.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.2

// `VerifyLayer` is linked to with the `tower` feature, else to docs.rs.
#![cfg_attr(feature = "tower", doc = "[`VerifyLayer`]: VerifyLayer")]
#![cfg_attr(
    not(feature = "tower"),
    doc = concat!(
        "[`VerifyLayer`]: https://docs.rs/oauth1-signer/",
        env!("CARGO_PKG_VERSION"),
        "/oauth1_signer/verify/struct.VerifyLayer.html"
    )
)]

mod blocking;
mod builder;
mod checks;
#[cfg(feature = "http")]
mod http;
mod memory;
mod nonce;
mod parse;
mod reason;
mod received;
#[cfg(feature = "redis")]
mod redis;
mod secrets;
mod target;
#[cfg(feature = "tower")]
mod tower;
mod unavailable;
mod verified;
mod verifier;

#[cfg(feature = "redis")]
pub use self::redis::{RedisClusterNonceStore, RedisNonceStore, RedisOptions};
pub use builder::{VerifierBuilder, DEFAULT_WINDOW};
pub use memory::MemoryNonceStore;
pub use nonce::{Freshness, NonceKey, NonceStore, StoreFuture};
pub use reason::{Reason, Rejection};
pub use received::Received;
pub use secrets::{Lookup, SecretFuture, SecretSource, Secrets, StaticSecrets};
pub use target::Forwarded;
#[cfg(feature = "tower")]
pub use tower::{
    Diagnose, LayerBody, OriginalUri, VerifyFuture, VerifyLayer, VerifyService, DEFAULT_BODY_LIMIT,
};
pub use unavailable::{SecretsError, StoreError};
pub use verified::Verified;
pub use verifier::Verifier;
