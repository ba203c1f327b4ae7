//! The HTTP edge of the sending side (feature `http`): signing
//! `http::Request`s in place in any of the three transmissions, and with
//! feature `reqwest` a `reqwest_middleware::Middleware` that signs every
//! request of a client, re-signing retries and same-origin redirects.
//!
//! It imports the [`pipeline`](crate::pipeline), [`provider`](crate::provider),
//! `capture` (a provider's answer, for the clock skew) and
//! [`text`](crate::text) wings; the flow's senders and the verifier's
//! reading of an `http::Request` import it.

pub(crate) mod http_request;
#[cfg(feature = "reqwest")]
pub(crate) mod middleware;
#[cfg(feature = "reqwest")]
pub(crate) mod redirect;
#[cfg(feature = "reqwest")]
pub(crate) mod skew;

pub use http_request::{sign_http_request, trace_http_request, BodyBytes, HttpError, HttpOptions};
#[cfg(feature = "reqwest")]
pub use middleware::{
    sign_reqwest_request, trace_reqwest_request, MissingSigner, OAuth1Middleware,
};
#[cfg(feature = "reqwest")]
pub use redirect::{client_builder, RedirectError, Redirects, DEFAULT_REDIRECT_LIMIT};
