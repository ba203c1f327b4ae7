//! What goes on the wire for a signed [`RequestSpec`](crate::RequestSpec):
//! the signed protocol parameters where the transmission puts them
//! ([`Signed::placed`](crate::Signed::placed), the one rule), with the body
//! and its media type.

use std::fmt;

use crate::capture::CurlCommand;
use crate::error::Error;
use crate::outgoing::spec::RequestSpec;
use crate::pipeline::signed::{Mask, Placed, Signed};

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

impl Sent {
    /// A curl command that sends exactly this, by `method`: its URL, its
    /// `Authorization` header if the protocol parameters are there, its
    /// body with its media type ([`CurlCommand`], the one writer of a curl
    /// command; `{:#}` puts each header and the body on a line of its own).
    ///
    /// ```
    /// use oauth1_signer::RequestSpec;
    ///
    /// let spec = RequestSpec::from_json(r#"{"method": "POST", "url": "https://[2001:db8::1]/p", "form_body": "a=1",
    ///     "consumer_key": "ck", "consumer_secret": "cs", "nonce": "n", "timestamp": "1"}"#)?;
    /// let signed = spec.signer()?.sign(&spec.request(&spec.protocol_params()?))?;
    /// let sent = spec.sent(&signed)?;
    /// let command = sent.curl(&spec.method)?.to_string();
    /// assert!(command.starts_with("curl --globoff --path-as-is 'https://[2001:db8::1]/p' -H 'Authorization: OAuth oauth_consumer_key=\"ck\", "));
    /// assert!(command.ends_with(" -H 'Content-Type: application/x-www-form-urlencoded' --data-raw 'a=1'"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// What no curl command can send ([`CurlCommand::new`]): a NUL in the
    /// method, the URL or the body.
    pub fn curl<'a>(&'a self, method: &'a str) -> Result<CurlCommand<'a>, Error> {
        let authorization = self.authorization.as_deref().map(|h| ("Authorization", h));
        let content_type = self
            .body
            .as_ref()
            .and(self.content_type.as_deref())
            .map(|t| ("Content-Type", t));
        CurlCommand::new(
            method,
            &self.url,
            authorization.into_iter().chain(content_type),
            self.body.as_deref(),
        )
    }
}

impl RequestSpec {
    /// What is sent for `signed` (this request, signed): the URL, the
    /// `Authorization` header and the body, the protocol parameters where
    /// [`transmission`](Self::transmission) says.
    ///
    /// ```
    /// use oauth1_signer::RequestSpec;
    ///
    /// let spec = RequestSpec::from_json(r#"{"method": "GET", "url": "http://shop.example/wp-json/wc/v3/orders?page=2",
    ///     "consumer_key": "ck", "consumer_secret": "cs", "nonce": "n", "timestamp": "1",
    ///     "provider": "woocommerce"}"#)?;
    /// let params = spec.protocol_params()?;
    /// let signed = spec.signer()?.sign(&spec.request(&params))?;
    /// let sent = spec.sent(&signed)?;
    /// assert!(sent.url.starts_with("http://shop.example/wp-json/wc/v3/orders?page=2&oauth_consumer_key=ck&"));
    /// assert!(sent.url.contains("&oauth_signature_method=HMAC-SHA256&"));
    /// assert_eq!(sent.authorization, None);
    /// # Ok::<(), oauth1_signer::json::JsonError>(())
    /// ```
    ///
    /// # Errors
    /// As [`protocol_params`](Self::protocol_params).
    pub fn sent(&self, signed: &Signed) -> Result<Sent, Error> {
        self.sent_shown(signed, Mask::Show)
    }

    /// [`sent`](Self::sent) as it may be shown to a person: a secret
    /// signature (PLAINTEXT's, the signing key) written as `mask` says
    /// wherever the transmission puts it ([`Signed::placed_shown`]).
    ///
    /// ```
    /// use oauth1_signer::pipeline::Mask;
    /// use oauth1_signer::RequestSpec;
    ///
    /// let spec = RequestSpec::from_json(r#"{"method": "POST", "url": "https://h/p", "form_body": "a=1",
    ///     "consumer_key": "ck", "consumer_secret": "cs", "nonce": "n", "timestamp": "1",
    ///     "signature_method": "PLAINTEXT", "transmission": "form-body"}"#)?;
    /// let signed = spec.signer()?.sign(&spec.request(&spec.protocol_params()?))?;
    /// let shown = spec.sent_shown(&signed, Mask::With("<hidden>"))?;
    /// // RFC 5849 §3.4.4: the PLAINTEXT signature "cs&", encoded twice.
    /// assert!(spec.sent(&signed)?.body.unwrap().ends_with(b"&oauth_signature=cs%26&oauth_signature_method=PLAINTEXT&oauth_timestamp=1"));
    /// assert!(shown.body.unwrap().ends_with(b"&oauth_signature=<hidden>&oauth_signature_method=PLAINTEXT&oauth_timestamp=1"));
    /// # Ok::<(), oauth1_signer::json::JsonError>(())
    /// ```
    ///
    /// # Errors
    /// As [`protocol_params`](Self::protocol_params).
    pub fn sent_shown(&self, signed: &Signed, mask: Mask<'_>) -> Result<Sent, Error> {
        self.check()?;
        let own = self.own_body();
        let content_type = own.map(|(_, media)| media.to_owned());
        let mut body = own.map(|(bytes, _)| bytes.to_vec());
        let mut sent = Sent {
            url: self.url.clone(),
            authorization: None,
            body: None,
            content_type,
        };
        match signed.placed_shown(
            self.transmission(),
            &self.url,
            body.as_deref().unwrap_or_default(),
            mask,
        ) {
            Placed::Header(header) => sent.authorization = Some(header),
            Placed::Url(url) => sent.url = url,
            Placed::FormBody(form) => body = Some(form),
        }
        sent.body = body;
        Ok(sent)
    }
}
