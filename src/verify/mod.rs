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
//! [RFC 5849 §3.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.2

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
mod verified;
mod verifier;

#[cfg(feature = "redis")]
pub use self::redis::{RedisClusterNonceStore, RedisNonceStore, RedisOptions};
pub use builder::{VerifierBuilder, DEFAULT_WINDOW};
pub use memory::MemoryNonceStore;
pub use nonce::{Freshness, NonceKey, NonceStore, StoreError, StoreFuture};
pub use reason::{Reason, Rejection};
pub use received::Received;
pub use secrets::{Lookup, SecretFuture, SecretSource, Secrets, SecretsError, StaticSecrets};
pub use target::Forwarded;
#[cfg(feature = "tower")]
pub use tower::{
    LayerBody, OriginalUri, VerifyFuture, VerifyLayer, VerifyService, DEFAULT_BODY_LIMIT,
};
pub use verified::Verified;
pub use verifier::Verifier;
