//! One request as a server received it: the parts a verifier reads.

use std::borrow::Cow;
use std::fmt;

use crate::error::Error;
use crate::pipeline::request::is_form_media_type;
use crate::verify::reason::Reason;

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
    /// False when the body was passed on unread ([`Received::body_not_read`]).
    pub(crate) body_read: bool,
    pub(crate) forwarded_proto: Option<&'a str>,
    pub(crate) forwarded_host: Option<&'a str>,
    /// The RFC 7239 `Forwarded` header.
    pub(crate) forwarded: Option<&'a str>,
    /// A `Content-Type` that only looks like the form's: the request is
    /// refused with this error before anything else is read.
    pub(crate) refused: Option<Error>,
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
            body_read: true,
            forwarded_proto: None,
            forwarded_host: None,
            forwarded: None,
            refused: None,
        }
    }

    /// The value of the `Authorization` header.
    pub fn authorization_header(mut self, header: &'a str) -> Received<'a> {
        self.authorization = Some(header);
        self
    }

    /// The body and its `Content-Type`: its parameters are verified when it
    /// is `application/x-www-form-urlencoded` (§3.4.1.3.1), and its bytes
    /// hashed when the request has `oauth_body_hash`. A type that only
    /// looks like the form's ([`is_form_urlencoded`](crate::pipeline::is_form_urlencoded)
    /// refuses it) gets the request refused, answered 415: a framework
    /// behind the verifier may read such a body as a form.
    pub fn body(mut self, content_type: Option<&str>, body: &'a [u8]) -> Received<'a> {
        let form = match content_type.map(|t| is_form_media_type(t.as_bytes())) {
            Some(Ok(form)) => form,
            None => false,
            Some(Err(e)) => {
                self.refused = Some(e);
                false
            }
        };
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

    /// The body was not read (a server streams it on to its handler): the
    /// request is verified without it, and one whose protocol parameters
    /// carry `oauth_body_hash` is refused, never checked against no bytes.
    /// [`Verifier::needs_body`](crate::verify::Verifier::needs_body) says
    /// when a body must be read instead.
    pub fn body_not_read(mut self) -> Received<'a> {
        self.body = b"";
        self.form = false;
        self.body_read = false;
        self
    }

    /// The `X-Forwarded-Proto` and `X-Forwarded-Host` headers (each the
    /// last line received, when repeated), read only by a verifier told its
    /// proxy writes them ([`Forwarded::XForwarded`](crate::verify::Forwarded::XForwarded)).
    pub fn forwarded(mut self, proto: Option<&'a str>, host: Option<&'a str>) -> Received<'a> {
        self.forwarded_proto = proto;
        self.forwarded_host = host;
        self
    }

    /// The RFC 7239 `Forwarded` header (its last line, when repeated),
    /// read only by a verifier told its proxy writes it
    /// ([`Forwarded::Rfc7239`](crate::verify::Forwarded::Rfc7239)).
    pub fn forwarded_header(mut self, forwarded: Option<&'a str>) -> Received<'a> {
        self.forwarded = forwarded;
        self
    }

    /// Whether a `Forwarded` header was received.
    pub(crate) fn has_rfc7239(&self) -> bool {
        self.forwarded.is_some()
    }

    /// Whether an `X-Forwarded-Proto` or `X-Forwarded-Host` header was
    /// received.
    pub(crate) fn has_x_forwarded(&self) -> bool {
        self.forwarded_proto.is_some() || self.forwarded_host.is_some()
    }

    /// The scheme and host the *last* element of `Forwarded` names, when it
    /// has both. A proxy appends what it saw to what came before it, which
    /// the client may have written itself; the last element is the nearest
    /// proxy's own.
    ///
    /// # Errors
    /// [`Reason::ForwardedRepeated`] for a parameter given twice in that
    /// element (RFC 7239 §4), which two readers would read two ways.
    pub(crate) fn rfc7239_origin(&self) -> Result<Option<Origin<'a>>, Reason> {
        let Some(value) = self.forwarded else {
            return Ok(None);
        };
        Ok(last_forwarded_element(value)?.map(|(p, h)| ((p, "Forwarded"), (h, "Forwarded"))))
    }

    /// The scheme and host the last values of `X-Forwarded-Proto` and
    /// `X-Forwarded-Host` name, when both are there.
    pub(crate) fn x_forwarded_origin(&self) -> Option<Origin<'a>> {
        let last = |v: &'a str| {
            v.rsplit(',')
                .next()
                .map(str::trim)
                .filter(|v| !v.is_empty())
        };
        Some((
            (last(self.forwarded_proto?)?, "X-Forwarded-Proto"),
            (last(self.forwarded_host?)?, "X-Forwarded-Host"),
        ))
    }

    /// The method.
    pub fn method(&self) -> &'a str {
        self.method
    }

    /// The URL as given.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The `Authorization` header's value, if given.
    pub fn authorization(&self) -> Option<&'a str> {
        self.authorization
    }

    /// The body given (empty when none was, or it was
    /// [not read](Self::body_not_read)).
    pub fn body_bytes(&self) -> &'a [u8] {
        self.body
    }

    /// Whether the body is `application/x-www-form-urlencoded`, so that its
    /// parameters are signed.
    pub fn is_form(&self) -> bool {
        self.form
    }
}

/// The scheme and the host a trusted proxy names, each with the name of the
/// header it came from.
pub(crate) type Origin<'a> = ((&'a str, &'static str), (&'a str, &'static str));

/// `proto` and `host` of the last element of a `Forwarded` value (RFC 7239
/// §4: elements separated by `,`, pairs by `;`, values a token or a quoted
/// string), when it has both.
///
/// # Errors
/// [`Reason::ForwardedRepeated`] when a parameter name (compared without
/// regard to case, §4) is given twice in that element.
fn last_forwarded_element(value: &str) -> Result<Option<(&str, &str)>, Reason> {
    let Some(element) = value.rsplit(',').next() else {
        return Ok(None);
    };
    let (mut proto, mut host) = (None, None);
    let pairs = element.split(';').filter_map(|pair| pair.split_once('='));
    for (i, (name, value)) in pairs.clone().enumerate() {
        let name = name.trim();
        // §4: "Each parameter MUST NOT occur more than once per
        // forwarded-element"; the last would win here, the first elsewhere.
        if pairs
            .clone()
            .take(i)
            .any(|(earlier, _)| earlier.trim().eq_ignore_ascii_case(name))
        {
            return Err(Reason::ForwardedRepeated {
                name: name.to_owned(),
            });
        }
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        match name {
            n if n.eq_ignore_ascii_case("proto") => proto = Some(value),
            n if n.eq_ignore_ascii_case("host") => host = Some(value),
            _ => {}
        }
    }
    Ok(match (proto, host) {
        (Some(p), Some(h)) if !p.is_empty() && !h.is_empty() => Some((p, h)),
        _ => None,
    })
}

impl fmt::Debug for Received<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Received")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("authorization", &self.authorization.map(|_| "<redacted>"))
            .field("body_len", &self.body.len())
            .field("form", &self.form)
            .field("body_read", &self.body_read)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin<'a>(r: &Received<'a>) -> Option<(&'a str, &'a str)> {
        r.rfc7239_origin()
            .unwrap()
            .or_else(|| r.x_forwarded_origin())
            .map(|((p, _), (h, _))| (p, h))
    }

    #[test]
    fn the_proxy_nearest_the_server_is_believed() {
        // RFC 7239 §7.4's example of two proxies, then a client's own.
        let r = Received::new("GET", "/").forwarded_header(Some(
            "for=192.0.2.43;proto=http;host=evil.example, for=198.51.100.17;proto=https;host=\"api.x.com\"",
        ));
        assert_eq!(origin(&r), Some(("https", "api.x.com")));
        let r = Received::new("GET", "/")
            .forwarded_header(Some("proto=https;host=a.example, for=1.2.3.4"));
        assert_eq!(r.rfc7239_origin(), Ok(None));
        let r = Received::new("GET", "/")
            .forwarded(Some("http, https"), Some("evil.example, api.x.com "));
        assert_eq!(origin(&r), Some(("https", "api.x.com")));
        let r = Received::new("GET", "/").forwarded(Some("https"), None);
        assert_eq!(r.x_forwarded_origin(), None);
        let r = Received::new("GET", "/").forwarded(Some("https"), Some("a, "));
        assert_eq!(r.x_forwarded_origin(), None);
    }

    #[test]
    fn a_parameter_twice_in_the_element_read_is_refused_by_name() {
        // RFC 7239 §4: at most once per element; names without regard to case.
        for (value, name) in [
            ("proto=https;host=a.example;host=b.example", "host"),
            ("host=a.example;proto=https;HOST=b.example", "HOST"),
            (
                "for=1.2.3.4, proto=http;proto=https;host=a.example",
                "proto",
            ),
            ("for=1.2.3.4;for=5.6.7.8;proto=https;host=a.example", "for"),
        ] {
            let r = Received::new("GET", "/").forwarded_header(Some(value));
            assert_eq!(
                r.rfc7239_origin(),
                Err(Reason::ForwardedRepeated { name: name.into() }),
                "{value}"
            );
        }
        // Once in each of two elements is two elements, not a repetition.
        let r = Received::new("GET", "/").forwarded_header(Some(
            "proto=http;host=a.example, proto=https;host=b.example",
        ));
        assert_eq!(origin(&r), Some(("https", "b.example")));
    }
}
