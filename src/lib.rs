#![doc = include_str!("../README.md")]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

// One private module per stage of the pipeline, its items re-exported here at
// exactly one path; the edges (an HTTP stack, the three-legged flow, the
// explainer, the verifier) are public modules of their own.
mod base_string;
mod builder;
mod clock;
mod credentials;
mod decode;
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
pub use request::{is_form_urlencoded, OAuthRequest};
pub use scan::is_unreserved;
pub use sign::{key_string, Signature, SignatureMethod, SigningKey};
pub use signed::{Signed, Trace, Warning};
pub use signer::Signer;
pub use sink::Sink;
pub use url::RequestUrl;
