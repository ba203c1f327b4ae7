//! One request as a server received it: the parts a verifier reads.

use std::borrow::Cow;
use std::fmt;

use crate::request::is_form_media_type;

/// One received request: its method, its URL (absolute, or the path and
/// query with the verifier's public base URL), its `Authorization` header,
/// and its body.
///
/// `Debug` shows the method and the URL, never the header (a PLAINTEXT
/// signature is the secrets) nor the body.
///
/// ```
/// use oauth1_signer::verify::Received;
///
/// let r = Received::new("POST", "/1.1/statuses/update.json?include_entities=true")
///     .authorization_header("OAuth oauth_consumer_key=\"xvz1evFS4wEEPTGEFPHBog\", ...")
///     .body(Some("application/x-www-form-urlencoded"), b"status=Hello");
/// assert_eq!(r.method(), "POST");
/// ```
#[derive(Clone)]
pub struct Received<'a> {
    pub(crate) method: &'a str,
    pub(crate) url: Cow<'a, str>,
    pub(crate) authorization: Option<&'a str>,
    pub(crate) body: &'a [u8],
    pub(crate) form: bool,
    pub(crate) forwarded_proto: Option<&'a str>,
    pub(crate) forwarded_host: Option<&'a str>,
}

impl<'a> Received<'a> {
    /// A request with `method` and `url`: an absolute URL, or a path and
    /// query (`/photos?size=original`) to be joined to the verifier's
    /// [public base URL](crate::verify::VerifierBuilder::public_base_url).
    pub fn new(method: &'a str, url: impl Into<Cow<'a, str>>) -> Received<'a> {
        Received {
            method,
            url: url.into(),
            authorization: None,
            body: b"",
            form: false,
            forwarded_proto: None,
            forwarded_host: None,
        }
    }

    /// The value of the `Authorization` header.
    pub fn authorization_header(mut self, header: &'a str) -> Received<'a> {
        self.authorization = Some(header);
        self
    }

    /// The body and its `Content-Type`: its parameters are verified when it
    /// is `application/x-www-form-urlencoded` (§3.4.1.3.1), and its bytes
    /// hashed when the request has `oauth_body_hash`.
    pub fn body(self, content_type: Option<&str>, body: &'a [u8]) -> Received<'a> {
        let form = content_type.is_some_and(|t| is_form_media_type(t.as_bytes()));
        self.body_as(form, body)
    }

    /// An `application/x-www-form-urlencoded` body.
    pub fn form_body(self, body: &'a [u8]) -> Received<'a> {
        self.body_as(true, body)
    }

    pub(crate) fn body_as(mut self, form: bool, body: &'a [u8]) -> Received<'a> {
        self.form = form;
        self.body = body;
        self
    }

    /// The `X-Forwarded-Proto` and `X-Forwarded-Host` headers, read only by
    /// a verifier that [trusts them](crate::verify::VerifierBuilder::trust_forwarded).
    pub fn forwarded(mut self, proto: Option<&'a str>, host: Option<&'a str>) -> Received<'a> {
        self.forwarded_proto = proto;
        self.forwarded_host = host;
        self
    }

    /// The method.
    pub fn method(&self) -> &'a str {
        self.method
    }

    /// The URL as given.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl fmt::Debug for Received<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Received")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("authorization", &self.authorization.map(|_| "<redacted>"))
            .field("body_len", &self.body.len())
            .field("form", &self.form)
            .finish_non_exhaustive()
    }
}
