//! The request URL, read strictly as an RFC 3986 absolute URI ([RFC 3986 §3]).
//!
//! Only `http` and `https` URLs can be signed. The URL is split into scheme,
//! host, port, path and query, each borrowed from the caller's text and
//! checked against its grammar: anything that a client would have to rewrite
//! before sending (a raw space, a non-ASCII byte, a malformed `%`) is refused
//! with its byte offset, because signing text that differs from what goes on
//! the wire is the classic cause of `401 Could not authenticate you`.
//!
//! [RFC 3986 §3]: https://www.rfc-editor.org/rfc/rfc3986#section-3

use std::net::Ipv6Addr;

use crate::decode::check_escapes;
use crate::error::{Error, Part};
use crate::scan::{
    escapes_complete, escapes_complete_wide, find_byte, find_either, is_host_byte, is_pchar,
    is_sub_delim, is_unreserved,
};

/// The parts of an absolute `http`/`https` URL, borrowed from it.
///
/// ```
/// use oauth1_signer::{BaseStringUri, RequestUrl};
///
/// let url = RequestUrl::parse("HTTPS://API.X.com:443/1.1/statuses/update.json?include_entities=true#top")?;
/// assert!(url.is_https());
/// assert_eq!(url.host(), "API.X.com");
/// assert_eq!(url.port(), Some(443));
/// assert_eq!(url.path(), "/1.1/statuses/update.json");
/// assert_eq!(url.query(), Some("include_entities=true"));
/// assert_eq!(BaseStringUri::new(&url).to_string(), "https://api.x.com/1.1/statuses/update.json");
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
    /// information, a bracketed host that is not an IPv6 address (or has a
    /// zone id), or a bad port (including port 0);
    /// [`ErrorKind::InvalidByte`](crate::ErrorKind::InvalidByte) for a byte that
    /// must be percent-encoded before it can be sent (a space, a non-ASCII byte)
    /// or a `\` in the host;
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

    /// The port to sign: none when the URL names its scheme's default port
    /// (80 for http, 443 for https), as RFC 5849 §3.4.1.2 requires.
    pub(crate) fn signed_port(&self) -> Option<u16> {
        let default = if self.https { 443 } else { 80 };
        self.port.filter(|&p| p != default)
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
        .position(|&b| !is_host_byte(b))
        .unwrap_or(bytes.len());
    if host_len > 0 {
        match bytes[host_len..] {
            [] => return Ok((auth, None)),
            [b':', ref digits @ ..] if (1..=5).contains(&digits.len()) => {
                let port = digits.iter().try_fold(0u32, |n, &d| {
                    d.is_ascii_digit().then(|| n * 10 + u32::from(d - b'0'))
                });
                // Port 0 falls through, so the check below names it.
                if let Some(port) = port.and_then(|p| u16::try_from(p).ok()).filter(|&p| p != 0) {
                    return Ok((&auth[..host_len], Some(port)));
                }
            }
            _ => {}
        }
    }
    // Before the '@' check: in `h\@evil` the backslash is the trick (browsers
    // read `\` as `/`, so they go to `h`; servers see user information and
    // go to `evil`), and it is what must be named.
    if let Some(at) = auth.find('\\') {
        return Err(Error::invalid_byte(
            Part::Url,
            base + at,
            b'\\',
            "'\\' is not allowed in a URL; browsers read it as '/', servers do not",
        ));
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
        check_ip_literal(&host[1..close], base + 1)?;
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
        check_host(host, base, |b| is_unreserved(b) || is_sub_delim(b))?;
    }
    let port = match port_text {
        None | Some("") => None,
        Some(p) => {
            if let Some(i) = p.bytes().position(|b| !b.is_ascii_digit()) {
                return Err(Error::invalid_url(
                    base + port_at + i,
                    "the port must be decimal digits",
                ));
            }
            let port = p
                .parse::<u16>()
                .map_err(|_| Error::invalid_url(base + port_at, "the port is larger than 65535"))?;
            // Port 0 is reserved (IANA); no request can reach it, so none can be
            // signed for it. An empty port (RFC 3986 §3.2.3) means the default.
            if port == 0 {
                return Err(Error::invalid_url(
                    base + port_at,
                    "port 0 cannot be connected to",
                ));
            }
            Some(port)
        }
    };
    Ok((host, port))
}

/// Checks the text between the brackets of an RFC 3986 §3.2.2 `IP-literal`,
/// whose first byte is at `base`: it must be an `IPv6address`, which the
/// standard library parses to the same grammar. A byte class alone lets
/// `[]` or `[::1::2]` through, and a host the client cannot connect to is
/// one whose signature nobody can check.
fn check_ip_literal(text: &str, base: usize) -> Result<(), Error> {
    // RFC 6874 zone ids (`%25eth0`) name an interface of the sender's
    // machine: meaningless to the server, and left out of the Host header.
    if let Some(at) = text.find('%') {
        return Err(Error::invalid_url(
            base + at,
            "an IPv6 zone id ('%25...') names a local interface and cannot be signed; remove it",
        ));
    }
    if text.starts_with(['v', 'V']) {
        return Err(Error::invalid_url(
            base,
            "IPvFuture addresses ('[v1.x]') are not supported; only IPv6 addresses are",
        ));
    }
    match text.parse::<Ipv6Addr>() {
        Ok(_) => Ok(()),
        Err(_) => Err(Error::invalid_url(base, "not an IPv6 address")),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

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

    /// The kind and offset of the error `url` is refused with.
    fn refusal(url: &str) -> ErrorKind {
        match RequestUrl::parse(url) {
            Ok(parsed) => panic!("{url} was accepted: {parsed:?}"),
            Err(e) => e.kind().clone(),
        }
    }

    #[test]
    fn ipv6_literals_must_be_addresses() {
        // `http://[` is 8 bytes, so the first byte inside the brackets is at 8.
        for url in [
            "http://[]/",
            "http://[:::::::::]/",
            "http://[1.2.3.4]/",
            "http://[::1::2]/",
            "http://[12345::1]/",
            "http://[::1 ]/",
            "http://[v1.x]/",
        ] {
            match refusal(url) {
                ErrorKind::InvalidUrl { offset: 8, .. } => {}
                other => panic!("{url}: {other:?}"),
            }
        }
        match refusal("http://[v1.x]/") {
            ErrorKind::InvalidUrl { reason, .. } => {
                assert!(reason.contains("IPvFuture"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
        // `http://[fe80::1` is 15 bytes: the zone id's `%` is at 15.
        match refusal("http://[fe80::1%25eth0]/") {
            ErrorKind::InvalidUrl {
                offset: 15, reason, ..
            } => {
                assert!(reason.contains("zone"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
        for (url, host, port) in [
            ("http://[::1]:8080/x", "[::1]", Some(8080)),
            ("http://[2001:db8::1]/", "[2001:db8::1]", None),
            ("http://[2001:DB8::1]:/", "[2001:DB8::1]", None),
            ("http://[::ffff:192.0.2.1]/", "[::ffff:192.0.2.1]", None),
        ] {
            let parsed = RequestUrl::parse(url).unwrap();
            assert_eq!((parsed.host(), parsed.port()), (host, port), "{url}");
        }
    }

    #[test]
    fn port_zero_is_refused_on_both_paths() {
        // `http://h:` is 9 bytes; `http://[::1]:` is 13.
        for (url, offset) in [
            ("http://h:0/", 9),
            ("http://h:00000/", 9),
            ("http://h:000000/", 9),
            ("http://[::1]:0/", 13),
        ] {
            match refusal(url) {
                ErrorKind::InvalidUrl {
                    offset: at, reason, ..
                } => {
                    assert_eq!(at, offset, "{url}");
                    assert!(reason.contains("port 0"), "{url}: {reason}");
                }
                other => panic!("{url}: {other:?}"),
            }
        }
        assert_eq!(RequestUrl::parse("http://h:/").unwrap().port(), None);
        assert_eq!(
            RequestUrl::parse("http://h:00080/").unwrap().port(),
            Some(80)
        );
    }

    #[test]
    fn a_backslash_in_the_authority_is_named() {
        // `http://h` is 8 bytes, so the `\` is at 8 (the `@` at 9).
        match refusal("http://h\\@evil/") {
            ErrorKind::InvalidByte {
                offset: 8,
                byte: b'\\',
                expected,
                ..
            } => {
                assert!(expected.contains("browsers"), "{expected}");
            }
            other => panic!("{other:?}"),
        }
        match refusal("http://h\\evil/") {
            ErrorKind::InvalidByte {
                offset: 8,
                byte: b'\\',
                ..
            } => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn ipv6_authority_errors_point_at_the_byte() {
        for (url, offset) in [
            // h0 t1 t2 p3 :4 /5 /6 [7: the unclosed '[' itself.
            ("http://[::1/", 7),
            // [7 :8 :9 1(10) ](11) x(12): the byte after ']'.
            ("http://[::1]x/", 12),
            // ](11) :(12) 8(13) o(14): the first non-digit of the port.
            ("http://[::1]:8o/", 14),
            // :(12) 7(13): the port's first digit.
            ("http://[::1]:70000/", 13),
            // ](11) @(12): the '@' of user information.
            ("http://[::1]@h/", 12),
        ] {
            let err = RequestUrl::parse(url).unwrap_err();
            assert_eq!(err.offset(), Some((Part::Url, offset)), "{url}: {err}");
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
}
