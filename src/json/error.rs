//! [`JsonError`]: why a JSON request could not be used, the JSON itself
//! (with a line and column, from serde_json) or the library's own [`Error`]
//! about the request it holds.

use std::fmt;

use crate::error::Error;

/// Why a JSON request could not be used: the JSON itself (with a line and
/// column), or what the library made of it.
///
/// ```
/// use oauth1_signer::{ErrorKind, json::JsonError, RequestSpec};
///
/// let err = RequestSpec::from_json("{\n  \"method\": \"GET\",\n  \"url\": 7\n}").unwrap_err();
/// assert_eq!(err.line_column(), Some((3, 10)));
/// // Its own step; serde_json's message is the source, printed once by a reporter.
/// assert_eq!(err.to_string(), "invalid request JSON");
/// let cause = std::error::Error::source(&err).map(ToString::to_string);
/// assert_eq!(cause.as_deref(), Some("invalid type: integer `7`, expected a string at line 3 column 10"));
///
/// # let json = r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true", "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21", "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE", "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "timestamp": "1318622958", "version": "1.0", "signature_method": "HMAC-SHA1"}"#;
/// // `json` holds the inputs of vector `x-docs-creating-a-signature`.
/// let mut spec = RequestSpec::from_json(json)?;
/// spec.signature_method = Some("HMAC-MD5".into());
/// let err = JsonError::from(spec.trace().unwrap_err());
/// assert!(matches!(err.request_error().map(|e| e.kind()), Some(ErrorKind::UnknownSignatureMethod { .. })));
/// assert_eq!(err.line_column(), None);
/// # Ok::<(), JsonError>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum JsonError {
    /// Not JSON, or not a request in this schema.
    Json(serde_json::Error),
    // `HttpError` is linked to with the `http` feature, else to docs.rs.
    #[cfg_attr(
        feature = "http",
        doc = "[`HttpError::Sign`]: crate::client::HttpError::Sign"
    )]
    #[cfg_attr(
        not(feature = "http"),
        doc = concat!(
            "[`HttpError::Sign`]: https://docs.rs/oauth1-signer/",
            env!("CARGO_PKG_VERSION"),
            "/oauth1_signer/client/enum.HttpError.html#variant.Sign"
        )
    )]
    /// A request the library refuses to sign (the same name as
    /// [`HttpError::Sign`] and [`FlowError::Sign`](crate::flow::FlowError::Sign)).
    Sign(Error),
}

impl JsonError {
    /// The line and column (both from 1) of a JSON error.
    ///
    /// ```
    /// use oauth1_signer::RequestSpec;
    ///
    /// # let json = r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true", "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21", "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE", "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "timestamp": "1318622958", "version": "1.0", "signature_method": "HMAC-SHA1"}"#;
    /// // `json` holds the inputs of vector `x-docs-creating-a-signature`.
    /// // Cut after `{"method": "POST"` (17 characters).
    /// let err = RequestSpec::from_json(&json[..17]).unwrap_err();
    /// assert_eq!(err.line_column(), Some((1, 17)));
    /// ```
    pub fn line_column(&self) -> Option<(usize, usize)> {
        match self {
            JsonError::Json(e) if e.line() > 0 => Some((e.line(), e.column())),
            _ => None,
        }
    }

    /// The library's error, if that is what this is.
    ///
    /// ```
    /// use oauth1_signer::{ErrorKind, json::JsonError, RequestSpec};
    ///
    /// # let json = r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true", "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21", "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE", "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "timestamp": "1318622958", "version": "1.0", "signature_method": "HMAC-SHA1"}"#;
    /// // `json` holds the inputs of vector `x-docs-creating-a-signature`.
    /// let mut spec = RequestSpec::from_json(json)?;
    /// spec.signature_method = Some("RSA-SHA1".into()); // with no rsa_private_key
    /// let err = JsonError::from(spec.signer().unwrap_err());
    /// assert!(matches!(err.request_error().map(|e| e.kind()), Some(ErrorKind::MissingKey { method: "RSA-SHA1", .. })));
    /// assert_eq!(err.to_string(), "signature method RSA-SHA1 needs an RSA private key");
    /// # Ok::<(), JsonError>(())
    /// ```
    pub fn request_error(&self) -> Option<&Error> {
        match self {
            JsonError::Sign(e) => Some(e),
            JsonError::Json(_) => None,
        }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // serde_json's message holds the line and column; it is the
            // source, printed once by a reporter that walks the chain.
            JsonError::Json(_) => f.write_str("invalid request JSON"),
            // The library's error, whole: its message is this one's.
            JsonError::Sign(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for JsonError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            JsonError::Json(e) => Some(e),
            JsonError::Sign(_) => None,
        }
    }
}

impl From<serde_json::Error> for JsonError {
    fn from(e: serde_json::Error) -> JsonError {
        JsonError::Json(e)
    }
}

impl From<Error> for JsonError {
    fn from(e: Error) -> JsonError {
        JsonError::Sign(e)
    }
}
