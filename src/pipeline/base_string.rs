//! The base string URI and the signature base string ([RFC 5849 §3.4.1]).
//!
//! The base string URI is the request URL with scheme and host lower-cased,
//! the default port (`:80` for http, `:443` for https) dropped, the path kept
//! exactly as sent (an empty path becomes `/`), and no query or fragment
//! ([§3.4.1.2]). The signature base string joins the upper-cased method, the
//! encoded base string URI and the encoded normalised parameters with `&`
//! ([§3.4.1.1]). It is written into a [`Sink`], never built and copied.
//!
//! [RFC 5849 §3.4.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1
//! [§3.4.1.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.1
//! [§3.4.1.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.2

use std::fmt;

use crate::error::{Error, ErrorKind, Part};
use crate::pipeline::normalize::Normalized;
use crate::pipeline::url::RequestUrl;
use crate::text::encode::encode_into;
use crate::text::scan::{is_tchar, is_unreserved};
use crate::text::sink::{decimal, Sink, Writer};

/// Writes `text` through `map` byte by byte, then percent-encoded, into the writer.
fn encode_mapped<S: Sink + ?Sized>(text: &[u8], map: fn(&u8) -> u8, w: &mut Writer<'_, S>) {
    // Most methods and hosts are already in case and need no escape
    // (`POST`, `api.x.com`): then they are copied.
    if text.iter().all(|b| map(b) == *b && is_unreserved(*b)) {
        w.put(text);
        return;
    }
    let mut buf = [0u8; 64];
    for chunk in text.chunks(buf.len()) {
        let out = &mut buf[..chunk.len()];
        for (o, b) in out.iter_mut().zip(chunk) {
            *o = map(b);
        }
        encode_into(out, w);
    }
}

/// The base string URI (§3.4.1.2): `scheme://host[:port]/path`, normalised.
///
/// Its `Display` is the URI itself; [`write_encoded`](Self::write_encoded)
/// writes it percent-encoded, as it stands in the signature base string.
///
/// ```
/// use oauth1_signer::pipeline::base_string_uri;
///
/// assert_eq!(base_string_uri("http://EXAMPLE.COM:80/r%20v/X?id=123")?.to_string(), "http://example.com/r%20v/X");
/// assert_eq!(base_string_uri("https://www.example.net:8080/?q=1")?.to_string(), "https://www.example.net:8080/");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BaseStringUri<'a> {
    https: bool,
    host: &'a str,
    port: Option<u16>,
    path: &'a str,
}

/// The base string URI of `url` (§3.4.1.2).
///
/// # Errors
/// As [`RequestUrl::parse`].
pub fn base_string_uri(url: &str) -> Result<BaseStringUri<'_>, Error> {
    Ok(BaseStringUri::new(&RequestUrl::parse(url)?))
}

impl<'a> BaseStringUri<'a> {
    /// The base string URI of a parsed URL.
    pub fn new(url: &RequestUrl<'a>) -> BaseStringUri<'a> {
        BaseStringUri {
            https: url.is_https(),
            host: url.host(),
            port: url.signed_port(),
            path: url.path(),
        }
    }

    /// The scheme as written: `http` or `https`.
    pub(crate) fn scheme(&self) -> &'static str {
        if self.https {
            "https"
        } else {
            "http"
        }
    }

    /// The host as written: lower-cased.
    pub(crate) fn host(&self) -> String {
        self.host.to_ascii_lowercase()
    }

    /// The port as written: none for the scheme's default.
    pub(crate) fn port(&self) -> Option<u16> {
        self.port
    }

    /// The path as written: `/` for an empty one.
    pub(crate) fn path_or_root(&self) -> &str {
        if self.path.is_empty() {
            "/"
        } else {
            self.path
        }
    }

    /// Writes the URI percent-encoded (as it appears in the base string).
    pub fn write_encoded<S: Sink + ?Sized>(&self, sink: &mut S) {
        let mut w = Writer::new(sink);
        self.write_into(&mut w);
        w.finish();
    }

    fn write_into<S: Sink + ?Sized>(&self, w: &mut Writer<'_, S>) {
        w.put(if self.https {
            b"https%3A%2F%2F"
        } else {
            b"http%3A%2F%2F"
        });
        encode_mapped(self.host.as_bytes(), u8::to_ascii_lowercase, w);
        if let Some(port) = self.port {
            w.put(b"%3A");
            w.put(decimal(port.into(), &mut [0; 20]));
        }
        encode_into(self.path_or_root().as_bytes(), w);
    }
}

impl fmt::Display for BaseStringUri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme(), self.host())?;
        if let Some(port) = self.port() {
            write!(f, ":{port}")?;
        }
        f.write_str(self.path_or_root())
    }
}

/// Checks that `method` is a non-empty HTTP token (RFC 9110 §9.1: `GET`,
/// `post`, `PATCH`...).
fn check_method(method: &str) -> Result<(), Error> {
    if method.is_empty() {
        return Err(Error::new(ErrorKind::Empty { part: Part::Method }));
    }
    match method.bytes().position(|b| !is_tchar(b)) {
        Some(i) => Err(Error::invalid_byte(
            Part::Method,
            i,
            method.as_bytes()[i],
            "a character allowed in an HTTP method",
        )),
        None => Ok(()),
    }
}

/// The signature base string (§3.4.1.1): `METHOD&uri&params`, each part encoded.
///
/// Nothing is built until it is written: [`write_to`](Self::write_to) streams
/// the bytes into any [`Sink`] (the MAC when signing, a `String` when tracing),
/// and `Display` writes the same bytes.
///
/// ```
/// use oauth1_signer::{pipeline::base_string_uri, pipeline::BaseString, pipeline::Params};
///
/// let mut params = Params::new();
/// params.extend_form(b"b=2&a=1")?;
/// let base = BaseString::new("get", base_string_uri("HTTP://Example.com:80/r")?, params.normalize())?;
/// assert_eq!(base.to_string(), "GET&http%3A%2F%2Fexample.com%2Fr&a%3D1%26b%3D2");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct BaseString<'p, 'a> {
    method: &'a str,
    uri: BaseStringUri<'a>,
    params: Normalized<'p, 'a>,
}

impl<'p, 'a> BaseString<'p, 'a> {
    /// Joins the three parts of a base string; the method is upper-cased when
    /// written.
    ///
    /// # Errors
    /// [`ErrorKind::Empty`] for an empty method, [`ErrorKind::InvalidByte`]
    /// for a byte that cannot be part of one (RFC 9110 token characters only).
    pub fn new(
        method: &'a str,
        uri: BaseStringUri<'a>,
        params: Normalized<'p, 'a>,
    ) -> Result<Self, Error> {
        check_method(method)?;
        Ok(BaseString {
            method,
            uri,
            params,
        })
    }

    /// The normalised parameters.
    pub(crate) fn params(&self) -> Normalized<'p, 'a> {
        self.params
    }

    /// Streams the base string into `sink`.
    pub fn write_to<S: Sink + ?Sized>(&self, sink: &mut S) {
        let mut w = Writer::new(sink);
        encode_mapped(self.method.as_bytes(), u8::to_ascii_uppercase, &mut w);
        w.put(b"&");
        self.uri.write_into(&mut w);
        w.put(b"&");
        self.params.write_into(&mut w, true);
        w.finish();
    }
}

/// A base string whose parameter string a provider's style wrote
/// (`quirks.rs`), not §3.4.1.3.2: the method upper-cased and the base string
/// URI as [`BaseString`] writes them, then `parameter_string`, each
/// percent-encoded once and joined with `&`.
///
/// # Errors
/// As [`BaseString::new`], for the method.
pub(crate) fn styled_base_string(
    method: &str,
    uri: &BaseStringUri<'_>,
    parameter_string: &str,
) -> Result<String, Error> {
    check_method(method)?;
    let mut out = String::with_capacity(method.len() + 3 * parameter_string.len() + 64);
    let mut w = Writer::new(&mut out);
    encode_mapped(method.as_bytes(), u8::to_ascii_uppercase, &mut w);
    w.put(b"&");
    uri.write_into(&mut w);
    w.put(b"&");
    encode_into(parameter_string.as_bytes(), &mut w);
    w.finish();
    Ok(out)
}

/// A base string broken for display, each piece with the separator before
/// it: the method, then `&` and the base string URI, then each parameter of
/// the parameter string (`&` before the first, `%26` before the others).
/// Joined, the pieces are the base string; a trace, `oauth1 explain`'s diff
/// and the page all show it so.
///
/// ```
/// use oauth1_signer::pipeline::base_string_lines;
///
/// let base = "POST&https%3A%2F%2Fh%2Fa%26b&a%3D1%26b%3D2";
/// let lines = base_string_lines(base);
/// assert_eq!(lines, ["POST", "&https%3A%2F%2Fh%2Fa%26b", "&a%3D1", "%26b%3D2"]);
/// assert_eq!(lines.concat(), base);
/// ```
pub fn base_string_lines(base: &str) -> Vec<&str> {
    let mut out = Vec::new();
    // The method and the URI end at the first two `&` (each part is
    // encoded, so no other `&` is there); the parameters at each `%26`.
    let first = base.find('&').unwrap_or(base.len());
    out.push(&base[..first]);
    let rest = &base[first..];
    let second = rest
        .get(1..)
        .and_then(|r| r.find('&'))
        .map_or(rest.len(), |i| i + 1);
    if !rest.is_empty() {
        out.push(&rest[..second]);
    }
    let mut params = &rest[second..];
    while !params.is_empty() {
        let end = params
            .get(1..)
            .and_then(|p| p.find("%26"))
            .map_or(params.len(), |i| i + 1);
        out.push(&params[..end]);
        params = &params[end..];
    }
    out
}

impl fmt::Display for BaseString<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_to(&mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uri(url: &str) -> String {
        base_string_uri(url).unwrap().to_string()
    }

    fn encoded(url: &str) -> String {
        let mut s = String::new();
        base_string_uri(url).unwrap().write_encoded(&mut s);
        s
    }

    #[test]
    fn normalises_scheme_host_and_default_ports() {
        assert_eq!(uri("HTTP://Example.COM:80/a"), "http://example.com/a");
        assert_eq!(uri("https://example.com:443"), "https://example.com/");
        assert_eq!(uri("http://example.com:443/"), "http://example.com:443/");
        assert_eq!(uri("https://example.com:80/"), "https://example.com:80/");
        assert_eq!(uri("http://[::1]:8080/x"), "http://[::1]:8080/x");
        assert_eq!(uri("http://h:/"), "http://h/");
        assert_eq!(uri("http://h:080/a"), "http://h/a");
        assert_eq!(uri("https://h:00443"), "https://h/");
        assert_eq!(uri("http://h:65535/"), "http://h:65535/");
        assert_eq!(
            uri("http://a-b.c_d~e!$&'()*+,;=:1/"),
            "http://a-b.c_d~e!$&'()*+,;=:1/"
        );
        assert_eq!(uri("http://h/A%2fb"), "http://h/A%2fb");
    }

    #[test]
    fn encodes_for_the_base_string() {
        assert_eq!(
            encoded("http://EXAMPLE.COM:8080/r%20v/X?id=1"),
            "http%3A%2F%2Fexample.com%3A8080%2Fr%2520v%2FX"
        );
        assert_eq!(encoded("http://[::1]/"), "http%3A%2F%2F%5B%3A%3A1%5D%2F");
    }

    #[test]
    fn method_must_be_a_token() {
        assert!(check_method("get").is_ok());
        assert_eq!(
            check_method("GE T").unwrap_err().offset(),
            Some((Part::Method, 2))
        );
        assert_eq!(
            check_method("").unwrap_err().kind(),
            &ErrorKind::Empty { part: Part::Method }
        );
    }

    #[test]
    fn method_and_host_are_recased_even_when_every_byte_changes() {
        // §3.4.1.1: the method upper-cased; §3.4.1.2: the host lower-cased.
        // Every byte of "get" and "HOST" changes case, none needs an escape.
        for (method, url, want) in [
            ("get", "http://HOST/", "GET&http%3A%2F%2Fhost%2F&"),
            (
                "post",
                "https://Api.X.com/a",
                "POST&https%3A%2F%2Fapi.x.com%2Fa&",
            ),
            ("GET", "http://host/", "GET&http%3A%2F%2Fhost%2F&"),
            (
                "m-search",
                "http://h.example/",
                "M-SEARCH&http%3A%2F%2Fh.example%2F&",
            ),
            ("x!y", "http://h/", "X%21Y&http%3A%2F%2Fh%2F&"),
        ] {
            let mut p = crate::pipeline::Params::new();
            let base =
                BaseString::new(method, base_string_uri(url).unwrap(), p.normalize()).unwrap();
            assert_eq!(base.to_string(), want, "{method} {url}");
        }
        assert_eq!(uri("http://HOST/"), "http://host/");
        assert_eq!(encoded("http://HOST/"), "http%3A%2F%2Fhost%2F");
    }
}
