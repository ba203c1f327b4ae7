#![doc = include_str!("../README.md")]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

// One module per stage, each private: every public item is re-exported here,
// at exactly one path.
mod base_string;
mod builder;
mod credentials;
mod decode;
mod encode;
mod error;
#[cfg(feature = "explain")]
mod explain;
mod flow;
mod form;
mod header;
#[cfg(feature = "http")]
mod http;
#[cfg(feature = "json")]
mod json;
#[cfg(feature = "reqwest")]
mod middleware;
mod normalize;
mod params;
#[cfg(feature = "rsa")]
mod pem;
mod protocol;
#[cfg(feature = "reqwest")]
mod redirect;
mod request;
mod scan;
mod sign;
mod signed;
mod signer;
mod sink;
mod text;
mod url;
mod warnings;

#[cfg(feature = "http")]
pub use self::http::{sign_http_request, trace_http_request, BodyBytes, HttpError, HttpOptions};
pub use base_string::{base_string_uri, BaseString, BaseStringUri};
pub use builder::SignerBuilder;
pub use credentials::{Credentials, Secret};
pub use decode::{form_decode, percent_decode, Decoded};
pub use encode::{percent_encode, percent_encode_str, PercentEncode};
pub use error::{Error, ErrorKind, Part};
#[cfg(feature = "explain")]
pub use explain::{
    base_string_from_response, find_base_string_in_response, Cause, Component, EncodingLevel,
    Explainer, Explanation, Finding, ResponseBaseString, UnknownCause, MAX_HEADER_LEN,
    MAX_RESPONSE_BODY_LEN, SEARCH_EACH_PARAM_MAX,
};
pub use flow::{
    authorize_url, Endpoints, FlowError, TemporaryCredentials, TokenCredentials, MAX_TOKEN_ANSWER,
};
#[cfg(feature = "reqwest")]
pub use flow::{request_temporary_credentials, request_token_credentials};
pub use header::{
    append_to_query, authorization_header, check_realm, form_encode, parse_authorization_header,
};
#[cfg(feature = "json")]
pub use json::{JsonError, RequestSpec};
#[cfg(feature = "reqwest")]
pub use middleware::{
    sign_reqwest_request, trace_reqwest_request, MissingSigner, OAuth1Middleware,
};
pub use normalize::Normalized;
pub use params::{Param, Params};
#[cfg(feature = "reqwest")]
pub use redirect::{client_builder, RedirectError, Redirects, DEFAULT_REDIRECT_LIMIT};
pub use request::{is_form_urlencoded, OAuthRequest};
pub use scan::is_unreserved;
pub use sign::{key_string, Signature, SignatureMethod, SigningKey};
pub use signed::{Signed, Trace, Warning};
pub use signer::Signer;
pub use sink::Sink;
pub use url::RequestUrl;
