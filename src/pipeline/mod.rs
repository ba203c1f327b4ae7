//! The signing pipeline of RFC 5849 §3.4–3.5, one module per stage: the
//! request and its URL, the parameters collected and normalised, the
//! protocol parameters, the base string, the signature methods and keys,
//! the header, the body hash, and the [`Signer`](crate::Signer) that runs them in order.
//!
//! It imports the [`text`](crate::text) wing and nothing above it: the
//! edges (client, verify, explain, flow, providers' styles) call it.
//!
//! ```text
//! OAuthRequest ─► RequestUrl ─► Params ─► Normalized ─┐
//!                          Protocol (the oauth_* run) ─┼─► BaseString ─► SigningKey ─► Signature
//!                                                     └─► authorization_header / query / form body
//! ```
//!
//! Every stage is public here, to be called on its own (to debug, to test,
//! to verify); the nouns a user needs ([`Signer`](crate::Signer),
//! [`OAuthRequest`](crate::OAuthRequest), [`Protocol`](crate::Protocol), ...)
//! are at the crate root:
//!
//! ```
//! use oauth1_signer::pipeline::{base_string_uri, BaseString, Params};
//!
//! let mut params = Params::new();
//! params.extend_form(b"b=2&a=1")?;
//! let base = BaseString::new("get", base_string_uri("HTTP://Example.com:80/r")?, params.normalize())?;
//! assert_eq!(base.to_string(), "GET&http%3A%2F%2Fexample.com%2Fr&a%3D1%26b%3D2");
//! # Ok::<(), oauth1_signer::Error>(())
//! ```

pub(crate) mod base_string;
pub(crate) mod body_hash;
pub(crate) mod builder;
pub(crate) mod clock;
pub(crate) mod credentials;
pub(crate) mod header;
pub(crate) mod normalize;
pub(crate) mod params;
#[cfg(feature = "rsa")]
pub(crate) mod pem;
pub(crate) mod protocol;
pub(crate) mod request;
pub(crate) mod sign;
pub(crate) mod signed;
pub(crate) mod signer;
pub(crate) mod style;
pub(crate) mod url;
pub(crate) mod warnings;

pub use base_string::{base_string_lines, base_string_uri, BaseString, BaseStringUri};
pub use body_hash::body_hash;
pub use header::{
    append_to_query, authorization_header, check_realm, encode_pairs, parse_authorization_header,
};
pub use normalize::Normalized;
pub use params::{Param, Params};
pub use protocol::{is_protocol_name, Nonce, Timestamp, PROTOCOL_PREFIX};
pub use request::is_form_urlencoded;
pub use sign::{key_string, Signature, SigningKey};
pub use signed::{Mask, ParamSource, Placed};
pub use style::ParameterStyle;
pub use url::{encode_refused, RequestUrl};
