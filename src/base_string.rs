//! The base string URI and the signature base string ([RFC 5849 §3.4.1]).
//!
//! The base string URI is the request URL with scheme and host lower-cased,
//! the default port (`:80` for http, `:443` for https) dropped, the path kept
//! exactly as sent (an empty path becomes `/`), and no query or fragment
//! ([§3.4.1.2]). The signature base string joins the upper-cased method, the
//! encoded base string URI and the encoded normalised parameters with `&`
//! ([§3.4.1.1]). It is written into a [`Sink`], never built and copied.
//!
//! The URL is read strictly as an RFC 3986 absolute URI: anything that a client
//! would have to rewrite before sending (a raw space, a non-ASCII byte, a
//! malformed `%`) is refused with its offset, because signing text that differs
//! from what goes on the wire is the classic cause of `401 Could not
//! authenticate you`.
//!
//! [RFC 5849 §3.4.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1
//! [§3.4.1.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.1
//! [§3.4.1.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.2

use std::fmt;

use crate::encode::{
    check_escapes, encode_into, escapes_complete, escapes_complete_wide, find_byte, find_either,
    is_unreserved,
};
use crate::error::{Error, Part};
use crate::params::{Normalized, Splice};
use crate::sink::{Sink, Writer};

/// `sub-delims` of RFC 3986 §2.2.
const fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// `pchar` of RFC 3986 §3.3, less `%` (escapes are checked on their own).
const fn is_pchar(b: u8) -> bool {
    crate::encode::is_unreserved(b) || is_sub_delim(b) || b == b':' || b == b'@'
}

/// Bytes a host name may hold: unreserved and `sub-delims` (RFC 3986 §3.2.2
/// `reg-name`, without escapes).
const HOST_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = crate::encode::is_unreserved(b as u8) || is_sub_delim(b as u8);
        b += 1;
    }
    t
};

/// The parts of an absolute `http`/`https` URL, borrowed from it.
///
/// ```
/// use oauth1_signer::RequestUrl;
///
/// let url = RequestUrl::parse("HTTPS://API.X.com:443/1.1/statuses/update.json?include_entities=true#top")?;
/// assert!(url.is_https());
/// assert_eq!(url.host(), "API.X.com");
/// assert_eq!(url.port(), Some(443));
/// assert_eq!(url.path(), "/1.1/statuses/update.json");
/// assert_eq!(url.query(), Some("include_entities=true"));
/// assert_eq!(url.base_string_uri().to_string(), "https://api.x.com/1.1/statuses/update.json");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestUrl<'a> {
    https: bool,
    host: &'a str,
    port: Option<u16>,
    path: &'a str,
    query: Option<&'a str>,
}

impl<'a> RequestUrl<'a> {
    /// Splits an absolute URL into its parts, checking each against RFC 3986.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidUrl`](crate::ErrorKind::InvalidUrl) for a relative
    /// URL, a scheme other than http or https, a missing host, user
    /// information, or a bad port;
    /// [`ErrorKind::InvalidByte`](crate::ErrorKind::InvalidByte) for a byte that
    /// must be percent-encoded before it can be sent (a space, a non-ASCII byte);
    /// [`ErrorKind::MalformedEscape`](crate::ErrorKind::MalformedEscape) for a
    /// bad `%`. Offsets count from the start of the URL.
    pub fn parse(url: &'a str) -> Result<RequestUrl<'a>, Error> {
        let bytes = url.as_bytes();
        let colon = bytes
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
            .filter(|&i| bytes[i] == b':' && i > 0 && bytes[0].is_ascii_alphabetic())
            .ok_or_else(|| {
                Error::invalid_url(
                    0,
                    "not an absolute URL (expected it to start with http:// or https://)",
                )
            })?;
        let scheme = &url[..colon];
        let https = if scheme.eq_ignore_ascii_case("https") {
            true
        } else if scheme.eq_ignore_ascii_case("http") {
            false
        } else {
            return Err(Error::invalid_url(
                0,
                "unsupported scheme (only http and https requests can be signed)",
            ));
        };
        let rest = &url[colon + 1..];
        let Some(rest) = rest.strip_prefix("//") else {
            return Err(Error::invalid_url(
                colon + 1,
                "missing host (expected '//' after the scheme)",
            ));
        };
        let auth_start = colon + 3;
        let auth_len = rest
            .bytes()
            .position(|b| matches!(b, b'/' | b'?' | b'#'))
            .unwrap_or(rest.len());
        let (host, port) = parse_authority(&rest[..auth_len], auth_start)?;

        let after = &rest[auth_len..];
        let after_start = auth_start + auth_len;
        let path_len = find_either(after.as_bytes(), b'?', b'#').unwrap_or(after.len());
        let path = &after[..path_len];
        if !well_formed(path.as_bytes(), false) {
            check_chars(
                path.as_bytes(),
                after_start,
                |b| is_pchar(b) || b == b'/',
                "a character allowed in a URL path; percent-encode it",
            )?;
            check_escapes(path.as_bytes(), false, Part::Url, after_start)?;
        }

        let mut query = None;
        if let Some(rest) = after[path_len..].strip_prefix('?') {
            // The common case in one pass: no fragment ('#' is not a query
            // byte), every byte allowed, every escape complete.
            let q = if well_formed(rest.as_bytes(), true) {
                rest
            } else {
                let q = &rest[..find_byte(rest.as_bytes(), b'#').unwrap_or(rest.len())];
                let query_offset = after_start + path_len + 1;
                check_chars(
                    q.as_bytes(),
                    query_offset,
                    |b| is_pchar(b) || b == b'/' || b == b'?',
                    "a character allowed in a URL query; percent-encode it",
                )?;
                check_escapes(q.as_bytes(), false, Part::Url, query_offset)?;
                q
            };
            query = Some(q);
        }
        Ok(RequestUrl {
            https,
            host,
            port,
            path,
            query,
        })
    }

    /// Whether the scheme is `https`.
    pub fn is_https(&self) -> bool {
        self.https
    }

    /// The host as written (not yet lower-cased); an IPv6 address keeps its brackets.
    pub fn host(&self) -> &'a str {
        self.host
    }

    /// The port, if the URL names one (an empty port, as in `http://h:/`, is none).
    pub fn port(&self) -> Option<u16> {
        self.port
    }

    /// The path exactly as written; empty if the URL has none.
    pub fn path(&self) -> &'a str {
        self.path
    }

    /// The query without its `?`, if there is one.
    pub fn query(&self) -> Option<&'a str> {
        self.query
    }

    /// The base string URI of this URL (§3.4.1.2).
    pub fn base_string_uri(&self) -> BaseStringUri<'a> {
        let default = if self.https { 443 } else { 80 };
        BaseStringUri {
            https: self.https,
            host: self.host,
            port: self.port.filter(|&p| p != default),
            path: self.path,
        }
    }
}

/// Classes of URL bytes, one bit each: [`PATH_BYTE`] for a byte a URL path may
/// hold as it is (`pchar`, `/`, and `%`, whose escapes are checked on their
/// own), and [`QUERY_BYTE`] for one a query may (the same, and `?`).
const URL_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        if is_pchar(byte) || byte == b'/' || byte == b'%' {
            t[b] = PATH_BYTE | QUERY_BYTE;
        } else if byte == b'?' {
            t[b] = QUERY_BYTE;
        }
        b += 1;
    }
    t
};
const PATH_BYTE: u8 = 1;
const QUERY_BYTE: u8 = 2;

/// Whether `b` may stand as it is in a URL path (`pchar`, `/`, and `%`, whose
/// escapes are checked on their own) or, with `query`, in a query (also `?`):
/// [`URL_CLASS`] as arithmetic the compiler can vectorise.
#[inline(always)]
fn is_url_byte_arith(b: u8, query: bool) -> bool {
    // $ % & ' ( ) * + , - . / 0-9 : ;   A-Z a-z   ! = @ _ ~
    (b.wrapping_sub(b'$') <= b';' - b'$')
        | ((b | 0x20).wrapping_sub(b'a') < 26)
        | (b == b'!')
        | (b == b'=')
        | (b == b'@')
        | (b == b'_')
        | (b == b'~')
        | (query & (b == b'?'))
}

/// Whether every byte of `bytes` is a path byte (or with `query`, a query
/// byte) and every `%` starts a complete escape. Only when it fails do the
/// slower checks run, to name the offending byte.
///
/// Long text (a query of percent-encoded non-Latin text, say) is checked in
/// one branch-free pass that compiles to vector code; short text a byte per
/// table load, then each `%` on its own.
#[inline]
fn well_formed(bytes: &[u8], query: bool) -> bool {
    if bytes.len() >= 64 {
        return well_formed_wide(bytes, query);
    }
    let class = if query { QUERY_BYTE } else { PATH_BYTE };
    let mut bad = 0u8;
    for &b in bytes {
        bad |= (URL_CLASS[b as usize] & class) ^ class;
    }
    bad == 0 && escapes_complete(bytes)
}

fn well_formed_wide(bytes: &[u8], query: bool) -> bool {
    let mut bad = 0u8;
    for &a in bytes {
        bad |= u8::from(!is_url_byte_arith(a, query));
    }
    bad == 0 && escapes_complete_wide(bytes)
}

fn check_chars(
    bytes: &[u8],
    base: usize,
    allowed: impl Fn(u8) -> bool,
    expected: &'static str,
) -> Result<(), Error> {
    if let Some(i) = bytes.iter().position(|&b| b != b'%' && !allowed(b)) {
        return Err(Error::invalid_byte(Part::Url, base + i, bytes[i], expected));
    }
    Ok(())
}

fn parse_authority(auth: &str, base: usize) -> Result<(&str, Option<u16>), Error> {
    // The common case in one pass: a host name of allowed bytes, perhaps a
    // port. Anything else (user information, IPv6, a bad byte or port) is
    // left to the checks below, which name what is wrong.
    let bytes = auth.as_bytes();
    let host_len = bytes
        .iter()
        .position(|&b| !HOST_BYTE[b as usize])
        .unwrap_or(bytes.len());
    if host_len > 0 {
        match bytes[host_len..] {
            [] => return Ok((auth, None)),
            [b':', ref digits @ ..] if (1..=5).contains(&digits.len()) => {
                let port = digits.iter().try_fold(0u32, |n, &d| {
                    d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
                });
                if let Some(port) = port.and_then(|p| u16::try_from(p).ok()) {
                    return Ok((&auth[..host_len], Some(port)));
                }
            }
            _ => {}
        }
    }
    if let Some(at) = auth.find('@') {
        return Err(Error::invalid_url(
            base + at,
            "user information in the URL is never sent in the Host header; remove it",
        ));
    }
    let (host, port_text, port_at) = if auth.starts_with('[') {
        let Some(close) = auth.find(']') else {
            return Err(Error::invalid_url(
                base,
                "IPv6 address without its closing ']'",
            ));
        };
        let host = &auth[..=close];
        check_host(&host[1..close], base + 1, |b| {
            b.is_ascii_hexdigit() || b == b':' || b == b'.'
        })?;
        match &auth[close + 1..] {
            "" => (host, None, 0),
            rest => match rest.strip_prefix(':') {
                Some(p) => (host, Some(p), close + 2),
                None => {
                    return Err(Error::invalid_url(
                        base + close + 1,
                        "expected ':' and a port after the IPv6 address",
                    ))
                }
            },
        }
    } else {
        match auth.rfind(':') {
            Some(c) => (&auth[..c], Some(&auth[c + 1..]), c + 1),
            None => (auth, None, 0),
        }
    };
    if host.is_empty() {
        return Err(Error::invalid_url(base, "missing host"));
    }
    if !host.starts_with('[') {
        check_host(host, base, |b| {
            crate::encode::is_unreserved(b) || is_sub_delim(b)
        })?;
    }
    let port =
        match port_text {
            None | Some("") => None,
            Some(p) => {
                if let Some(i) = p.bytes().position(|b| !b.is_ascii_digit()) {
                    return Err(Error::invalid_url(
                        base + port_at + i,
                        "the port must be decimal digits",
                    ));
                }
                Some(p.parse::<u16>().map_err(|_| {
                    Error::invalid_url(base + port_at, "the port is larger than 65535")
                })?)
            }
        };
    Ok((host, port))
}

fn check_host(host: &str, base: usize, allowed: impl Fn(u8) -> bool) -> Result<(), Error> {
    match host.bytes().position(|b| !allowed(b)) {
        Some(i) => Err(Error::invalid_byte(
            Part::Url,
            base + i,
            host.as_bytes()[i],
            "a character allowed in a host name (percent-encoded and non-ASCII hosts are not supported; use the punycode form)",
        )),
        None => Ok(()),
    }
}

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
/// use oauth1_signer::base_string_uri;
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
    Ok(RequestUrl::parse(url)?.base_string_uri())
}

impl BaseStringUri<'_> {
    fn scheme(&self) -> &'static str {
        if self.https {
            "https"
        } else {
            "http"
        }
    }

    fn path_or_root(&self) -> &str {
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

/// Decimal digits of `n`, written at the end of `buf`.
pub(crate) fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

impl fmt::Display for BaseStringUri<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme(), self.host.to_ascii_lowercase())?;
        if let Some(port) = self.port {
            write!(f, ":{port}")?;
        }
        f.write_str(self.path_or_root())
    }
}

/// An HTTP method, checked to be an RFC 9110 token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Method<'a>(&'a str);

impl<'a> Method<'a> {
    /// Checks that `method` is a non-empty HTTP token (`GET`, `post`, `PATCH`...).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidByte`](crate::ErrorKind::InvalidByte) naming the first
    /// byte that cannot be part of a method; [`ErrorKind::Empty`](crate::ErrorKind::Empty)
    /// for an empty one.
    pub fn parse(method: &'a str) -> Result<Method<'a>, Error> {
        if method.is_empty() {
            return Err(crate::ErrorKind::Empty { part: Part::Method }.into());
        }
        let is_tchar = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
        match method.bytes().position(|b| !is_tchar(b)) {
            Some(i) => Err(Error::invalid_byte(
                Part::Method,
                i,
                method.as_bytes()[i],
                "a character allowed in an HTTP method",
            )),
            None => Ok(Method(method)),
        }
    }

    /// The method as given.
    pub fn as_str(&self) -> &'a str {
        self.0
    }
}

/// The signature base string (§3.4.1.1): `METHOD&uri&params`, each part encoded.
///
/// Nothing is built until it is written: [`write_to`](Self::write_to) streams
/// the bytes into any [`Sink`] (the MAC when signing, a `String` when tracing),
/// and `Display` writes the same bytes.
#[derive(Clone, Copy, Debug)]
pub struct BaseString<'p, 'a> {
    method: Method<'a>,
    uri: BaseStringUri<'a>,
    params: Normalized<'p, 'a>,
}

impl<'p, 'a> BaseString<'p, 'a> {
    /// Joins the three parts of a base string.
    pub fn new(method: Method<'a>, uri: BaseStringUri<'a>, params: Normalized<'p, 'a>) -> Self {
        BaseString {
            method,
            uri,
            params,
        }
    }

    /// Streams the base string into `sink`.
    pub fn write_to<S: Sink + ?Sized>(&self, sink: &mut S) {
        self.write_spliced_to(sink, None);
    }

    /// [`write_to`](Self::write_to), with a run of parameters, encoded for the
    /// base string, written in among the normalised ones (see
    /// [`Normalized`]'s `write_spliced_into`).
    pub(crate) fn write_spliced_to<S: Sink + ?Sized>(
        &self,
        sink: &mut S,
        splice: Option<Splice<'_, S>>,
    ) {
        let mut w = Writer::new(sink);
        encode_mapped(self.method.0.as_bytes(), u8::to_ascii_uppercase, &mut w);
        w.put(b"&");
        self.uri.write_into(&mut w);
        w.put(b"&");
        self.params.write_spliced_into(&mut w, true, splice);
        w.finish();
    }
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
    fn rejects_what_cannot_be_signed() {
        for (url, offset) in [
            ("/relative", 0),
            ("ftp://x/", 0),
            ("http:x", 5),
            ("http://", 7),
            ("http://u:p@h/", 10),
            ("http://h:8o/", 10),
            ("http://h:70000/", 9),
            ("http://h:65536/", 9),
            ("http://h:123456/", 9),
            ("http://h:1:2/", 8),
            ("http://h/a b", 10),
            ("http://h/?q=é", 12),
            ("http://h/%zz", 9),
            ("http://h/?a=%4", 12),
            ("http://h%41/", 8),
            ("http://[::1/", 7),
        ] {
            let err = RequestUrl::parse(url).unwrap_err();
            assert_eq!(err.offset().map(|(_, at)| at), Some(offset), "{url}: {err}");
        }
    }

    #[test]
    fn fast_path_byte_class_matches_the_grammar() {
        for b in 0..=255u8 {
            let path = is_pchar(b) || b == b'/' || b == b'%';
            assert_eq!(URL_CLASS[b as usize] & PATH_BYTE != 0, path, "{b:#04x}");
            assert_eq!(is_url_byte_arith(b, false), path, "{b:#04x}");
            let query = URL_CLASS[b as usize] & QUERY_BYTE != 0;
            assert_eq!(query, path || b == b'?', "{b:#04x}");
            assert_eq!(is_url_byte_arith(b, true), path || b == b'?', "{b:#04x}");
        }
    }

    #[test]
    fn one_pass_check_agrees_with_the_precise_ones() {
        let pieces: [&[u8]; 9] = [b"%", b"4", b"1", b"g", b"a", b"#", b" ", b"?", b"\xE9"];
        let mut stack = vec![Vec::new()];
        while let Some(s) = stack.pop() {
            let precise = |allowed: fn(u8) -> bool| {
                check_chars(&s, 0, allowed, "").is_ok()
                    && check_escapes(&s, false, Part::Url, 0).is_ok()
            };
            let path = precise(|b| is_pchar(b) || b == b'/');
            let query = precise(|b| is_pchar(b) || b == b'/' || b == b'?');
            assert_eq!(well_formed(&s, false), path, "{s:?}");
            assert_eq!(well_formed_wide(&s, false), path, "{s:?}");
            assert_eq!(well_formed(&s, true), query, "{s:?}");
            assert_eq!(well_formed_wide(&s, true), query, "{s:?}");
            if s.len() < 5 {
                for p in pieces {
                    stack.push([&s[..], p].concat());
                }
            }
        }
    }

    #[test]
    fn method_must_be_a_token() {
        assert!(Method::parse("get").is_ok());
        assert_eq!(
            Method::parse("GE T").unwrap_err().offset(),
            Some((Part::Method, 2))
        );
        assert!(Method::parse("").is_err());
    }
}
