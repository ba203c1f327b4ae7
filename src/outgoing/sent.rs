//! What goes on the wire for a signed [`RequestSpec`](crate::RequestSpec):
//! the signed protocol parameters where the transmission puts them
//! ([`Signed::placed`](crate::Signed::placed), the one rule), with the body
//! and its media type.

use std::fmt;

/// What is sent for a signed [`RequestSpec`](crate::RequestSpec): its URL, `Authorization`
/// header and body, the protocol parameters in one of them
/// ([`RequestSpec::sent`](crate::RequestSpec::sent)).
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Sent {
    /// The URL (with the query transmission, carrying the protocol
    /// parameters and the signature).
    pub url: String,
    /// The `Authorization` header value, with the header transmission only.
    pub authorization: Option<String>,
    /// The body (with the form-body transmission, carrying the protocol
    /// parameters), if there is one.
    pub body: Option<Vec<u8>>,
    /// The body's media type, if there is a body.
    pub content_type: Option<String>,
}

impl fmt::Debug for Sent {
    /// The URL without its query, the lengths of the query and the body,
    /// and whether there is a header: the protocol parameters (a PLAINTEXT
    /// signature is the signing key) are not shown.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (before_query, query) = self.url.split_once('?').unwrap_or((&self.url, ""));
        f.debug_struct("Sent")
            .field("url", &before_query)
            .field("query_len", &query.len())
            .field("authorization", &self.authorization.as_ref().map(|_| ".."))
            .field("body_len", &self.body.as_ref().map(Vec::len))
            .field("content_type", &self.content_type)
            .finish()
    }
}
