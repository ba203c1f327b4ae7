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

use crate::error::{Error, Part};
use crate::text::decode::check_escapes;
use crate::text::scan::{
    escapes_complete, escapes_complete_wide, find_byte, find_either, is_pchar,
};

mod authority;
mod rewrite;

pub(crate) use authority::parse_authority;
#[cfg(test)]
use authority::{checked_authority, plain_authority};
pub use rewrite::encode_refused;
pub(crate) use rewrite::{find_scheme_end, sent_url};

/// The parts of an absolute `http`/`https` URL, borrowed from it.
///
/// ```
/// use oauth1_signer::{pipeline::BaseStringUri, pipeline::RequestUrl};
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
    /// The offset of the query (just past its `?`) in the URL.
    query_at: usize,
    /// The fragment without its `#` (never signed nor sent).
    fragment: Option<&'a str>,
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
    ///
    /// A fragment (`#top`) is never signed nor sent: HTTP clients drop it at
    /// the first `#` (`http::Uri` cuts it off unread). It may hold what RFC
    /// 3986 §3.5 allows and a further `#` (which `url::Url` and browsers
    /// accept); a byte that would have to be percent-encoded (a space, a
    /// control byte) is refused like anywhere else, since a URL is shown (a
    /// trace, a curl line) as it was given.
    pub fn parse(url: &'a str) -> Result<RequestUrl<'a>, Error> {
        RequestUrl::parse_as(url, false)
    }

    /// [`parse`](Self::parse) for a URL as an HTTP client serialises it
    /// (`url::Url`, `http::Uri`): its path may hold bytes RFC 3986 would
    /// have escaped (`| [ ] ^`, a `%` that starts no escape, non-ASCII),
    /// which the client sends raw and the server reads as themselves. They
    /// are path data, signed as sent: the base string URI encodes them like
    /// any other byte (§3.4.1.2), so a raw `|` signs as `%7C` while a sent
    /// `%7C` signs as `%257C`. Only spaces and control bytes are refused.
    /// (The query of such a URL is made strict by `sent_url` first.)
    pub(crate) fn parse_sent(url: &'a str) -> Result<RequestUrl<'a>, Error> {
        RequestUrl::parse_as(url, true)
    }

    fn parse_as(url: &'a str, sent: bool) -> Result<RequestUrl<'a>, Error> {
        let bytes = url.as_bytes();
        // RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`,
        // then `:`. A scheme that is http or https but is not followed by
        // `://` (`http;//h/`, `https///h`, `http:/h`) is a typo, named where
        // it is: read leniently, it would be signed as another URL.
        let colon = bytes
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
            .unwrap_or(bytes.len());
        let scheme = &url[..colon];
        let https = if scheme.eq_ignore_ascii_case("https") {
            true
        } else if scheme.eq_ignore_ascii_case("http") {
            false
        } else if colon > 0 && bytes[0].is_ascii_alphabetic() && bytes.get(colon) == Some(&b':') {
            return Err(Error::invalid_url(
                0,
                "unsupported scheme (only http and https requests can be signed)",
            ));
        } else {
            return Err(Error::invalid_url(
                0,
                "not an absolute URL (expected it to start with http:// or https://)",
            ));
        };
        if bytes.get(colon) != Some(&b':') {
            return Err(Error::invalid_url(
                colon,
                "expected ':' after the scheme (as in https://)",
            ));
        }
        let rest = &url[colon + 1..];
        let Some(rest) = rest.strip_prefix("//") else {
            return Err(Error::invalid_url(
                colon + 1,
                "expected '//' and a host after the scheme's ':'",
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
        if sent {
            check_chars(
                path.as_bytes(),
                after_start,
                |b| b > b' ' && b != 0x7F,
                "a byte an HTTP client sends in a path (not a space or a control byte)",
            )?;
        } else if !well_formed(path.as_bytes(), false) {
            check_chars(
                path.as_bytes(),
                after_start,
                |b| is_pchar(b) || b == b'/',
                "a character allowed in a URL path; percent-encode it",
            )?;
            check_escapes(path.as_bytes(), false, Part::Url, after_start)?;
        }

        let mut query = None;
        let query_at = after_start + path_len + 1;
        if let Some(rest) = after[path_len..].strip_prefix('?') {
            // The common case in one pass: no fragment ('#' is not a query
            // byte), every byte allowed, every escape complete.
            let q = if well_formed(rest.as_bytes(), true) {
                rest
            } else {
                let q = &rest[..find_byte(rest.as_bytes(), b'#').unwrap_or(rest.len())];
                check_chars(
                    q.as_bytes(),
                    query_at,
                    |b| is_pchar(b) || b == b'/' || b == b'?',
                    "a character allowed in a URL query; percent-encode it",
                )?;
                check_escapes(q.as_bytes(), false, Part::Url, query_at)?;
                q
            };
            query = Some(q);
        }
        // The fragment is never signed nor sent: every client drops it at the
        // first '#' (`http::Uri` cuts it off unread, `url::Url` keeps it on
        // the client side). So a '#' inside it is data, as `url::Url` and
        // browsers accept it. But it is shown (a trace, a curl line): it is
        // otherwise held to RFC 3986 §3.5 like the rest, so no control byte
        // gets through to a terminal.
        let end = path_len + query.map_or(0, |q| q.len() + 1);
        let fragment = after.get(end..).and_then(|f| f.strip_prefix('#'));
        if let Some(fragment) = fragment {
            let at = after_start + end + 1;
            if sent {
                check_chars(
                    fragment.as_bytes(),
                    at,
                    |b| b > b' ' && b != 0x7F,
                    "a byte an HTTP client sends (not a space or a control byte)",
                )?;
            } else {
                check_chars(
                    fragment.as_bytes(),
                    at,
                    |b| is_pchar(b) || matches!(b, b'/' | b'?' | b'#'),
                    "a character allowed in a URL fragment (never sent, but shown); percent-encode it",
                )?;
                check_escapes(fragment.as_bytes(), false, Part::Url, at)?;
            }
        }
        Ok(RequestUrl {
            https,
            host,
            port,
            path,
            query,
            query_at,
            fragment,
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

    /// The fragment without its `#`, if there is one: never signed nor
    /// sent (the explainer tries a side that keeps it in the base string
    /// URI).
    pub fn fragment(&self) -> Option<&'a str> {
        self.fragment
    }

    /// The byte offset of the query (just past its `?`) in the URL.
    pub(crate) fn query_at(&self) -> usize {
        self.query_at
    }

    /// The port to sign: none when the URL names its scheme's default port
    /// (80 for http, 443 for https), as RFC 5849 §3.4.1.2 requires.
    pub(crate) fn signed_port(&self) -> Option<u16> {
        self.port.filter(|&p| p != default_port(self.https))
    }
}

/// The default port of `http` (80) or, if `https`, of `https` (443).
pub(crate) fn default_port(https: bool) -> u16 {
    if https {
        443
    } else {
        80
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
    fn a_mistyped_scheme_separator_is_named_where_it_is() {
        // The offset of the byte where ':' or '//' should have been, counted
        // by hand: `http` is 4 bytes, `https` 5, `http:` 5.
        for (url, offset, says) in [
            ("http;//h/", 4, "':'"),
            ("https///h/p", 5, "':'"),
            ("http//h/", 4, "':'"),
            ("HTTP", 4, "':'"),
            ("http:/h/", 5, "'//'"),
            ("https:h/p", 6, "'//'"),
            ("http:", 5, "'//'"),
        ] {
            match refusal(url) {
                ErrorKind::InvalidUrl {
                    offset: at, reason, ..
                } => {
                    assert_eq!(at, offset, "{url}: {reason}");
                    assert!(reason.contains(says), "{url}: {reason}");
                }
                other => panic!("{url}: {other:?}"),
            }
        }
        // Not http or https at all: the URL is named from its start, as
        // another scheme when it has one.
        for (url, says) in [
            ("ws://h/", "unsupported scheme"),
            ("ftp:/h", "unsupported scheme"),
            ("h/p", "not an absolute URL"),
            ("h", "not an absolute URL"),
            ("1http://h/", "not an absolute URL"),
            (":x", "not an absolute URL"),
            ("", "not an absolute URL"),
        ] {
            match refusal(url) {
                ErrorKind::InvalidUrl {
                    offset: 0, reason, ..
                } => assert!(reason.starts_with(says), "{url}: {reason}"),
                other => panic!("{url}: {other:?}"),
            }
        }
    }

    #[test]
    fn no_count_of_port_digits_overflows() {
        // `http://h:` is 9 bytes: the port starts at 9 whatever its length.
        for digits in [6, 10, 11, 20, 40] {
            let url = format!("http://h:{}/", "9".repeat(digits));
            match refusal(&url) {
                ErrorKind::InvalidUrl {
                    offset: 9, reason, ..
                } => assert!(reason.contains("65535"), "{url}: {reason}"),
                other => panic!("{url}: {other:?}"),
            }
        }
        for url in [
            "http://h:99999999999/",
            "http://h:65536",
            "http://h:4294967376/",
        ] {
            assert!(
                matches!(refusal(url), ErrorKind::InvalidUrl { offset: 9, .. }),
                "{url}"
            );
        }
        // Leading zeros are no overflow: 65535 and 80 are ports, however written.
        for (url, port) in [
            ("http://h:65535/", 65535),
            ("http://h:000000000080/", 80),
            ("http://h:1", 1),
        ] {
            assert_eq!(RequestUrl::parse(url).unwrap().port(), Some(port), "{url}");
        }
    }

    #[test]
    fn the_plain_authority_path_agrees_with_the_checked_one() {
        // The common authorities take the one-pass path...
        for (auth, host, port) in [
            ("h", "h", None),
            ("api.x.com", "api.x.com", None),
            ("h:1", "h", Some(1)),
            ("h:8080", "h", Some(8080)),
            ("h:65535", "h", Some(65535)),
            ("h:000000000080", "h", Some(80)),
        ] {
            assert_eq!(plain_authority(auth), Some((host, port)), "{auth}");
        }
        // ...and on every authority it takes, it gives what the checked path gives.
        let pieces = ["h", ":", "0", "9", "6", "@", "[", "]", "%", "\\", "é", "."];
        let mut stack = vec![String::new()];
        while let Some(auth) = stack.pop() {
            if let Some(plain) = plain_authority(&auth) {
                assert_eq!(checked_authority(&auth, 0), Ok(plain), "{auth:?}");
            }
            if auth.len() < 6 {
                for p in pieces {
                    stack.push(format!("{auth}{p}"));
                }
            }
        }
        for auth in [
            "",
            "h:",
            "h:0",
            "h:65536",
            "h:99999999999",
            "[::1]",
            "u@h",
            "h:8o",
        ] {
            assert_eq!(plain_authority(auth), None, "{auth}");
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
    fn the_fragment_is_held_to_the_grammar_too() {
        // Offsets counted by hand: "http://h/p#" is 11 bytes.
        for (url, offset) in [
            ("http://h/p#\0", 11),
            ("http://h/p#a\x1b[31m", 12),
            ("http://h/p?q=1#a b", 16),
            ("http://h/p#%zz", 11),
            // After a second '#', the same rules: `http://h/p##` is 12 bytes.
            ("http://h/p##a b", 13),
        ] {
            let err = RequestUrl::parse(url).unwrap_err();
            assert_eq!(err.offset(), Some((Part::Url, offset)), "{url:?}: {err}");
        }
        for url in [
            "http://h/p#top",
            "http://h/p?q=1#a/b?c%20",
            "http://h#",
            "http://h/#!x",
            // A second '#' is fragment data (`url::Url` keeps it; `http::Uri`
            // drops the whole fragment at the first '#').
            "http://h/p##",
            "http://h/p?q=1#a#b",
            "http://h#x#",
        ] {
            assert!(RequestUrl::parse(url).is_ok(), "{url}");
        }
        // Nothing after the first '#' is part of the path or query.
        let url = RequestUrl::parse("http://h/p?q=1#a#b?c").unwrap();
        assert_eq!((url.path(), url.query()), ("/p", Some("q=1")));
        match refusal("http://h/p#a|b") {
            ErrorKind::InvalidByte { expected, .. } => {
                assert!(expected.contains("fragment"), "{expected}")
            }
            other => panic!("{other:?}"),
        }
        assert!(RequestUrl::parse_sent("http://h/p#a|b").is_ok());
        assert!(RequestUrl::parse_sent("http://h/p#a\x1b").is_err());
    }

    #[test]
    fn a_sent_path_is_data_byte_for_byte() {
        let url = RequestUrl::parse_sent("http://h/a|b[c]^d%e%7C").unwrap();
        assert_eq!(url.path(), "/a|b[c]^d%e%7C");
        assert!(RequestUrl::parse("http://h/a|b").is_err());
        // Only spaces and control bytes are refused, at their offset.
        let err = RequestUrl::parse_sent("http://h/a b").unwrap_err();
        assert_eq!(err.offset(), Some((Part::Url, 10)));
    }

    #[test]
    fn the_scheme_ends_where_find_says() {
        for text in [
            "",
            ":",
            "://",
            "a://b",
            "http:/x://y",
            "a:b:c://d://",
            "::://",
            "x:/",
            "abc",
            "https://api.x.com/1.1/statuses/update.json?q=http://x",
        ] {
            assert_eq!(find_scheme_end(text), text.find("://"), "{text}");
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
    #[cfg(feature = "http")]
    fn a_sent_url_signs_its_raw_query_bytes_as_their_escapes() {
        for (sent, signed) in [
            (
                "https://api.x.com/2/tweets?ids=1|2",
                "https://api.x.com/2/tweets?ids=1%7C2",
            ),
            (
                "http://h/p?a=[x]&b={y}^`\\",
                "http://h/p?a=%5Bx%5D&b=%7By%7D%5E%60%5C",
            ),
            ("http://h/?q=é#frag|", "http://h/?q=%C3%A9#frag|"),
            ("http://h/?a=\"<>", "http://h/?a=%22%3C%3E"),
        ] {
            assert_eq!(sent_url(sent), signed, "{sent}");
            assert!(RequestUrl::parse_sent(&sent_url(sent)).is_ok(), "{sent}");
        }
        // A `%` that starts no escape is read two ways by servers: left
        // for the parser, which refuses it at its offset.
        for (sent, offset) in [
            ("http://h/?a=%zz&b=1", 12),
            ("http://h/?b=%4", 12),
            ("http://h/?c=%", 12),
            ("http://h/?x=|&c=%", 18),
        ] {
            let url = sent_url(sent);
            match RequestUrl::parse_sent(&url).map_err(|e| e.kind().clone()) {
                Err(ErrorKind::MalformedEscape { offset: o, .. }) => {
                    assert_eq!(o, offset, "{sent}")
                }
                other => panic!("{sent}: {other:?}"),
            }
        }
        // Nothing to change: borrowed, not copied.
        for url in [
            "https://api.x.com/2/tweets?ids=1%7C2&x=a+b",
            "http://h/a|b#?x=|",
            "http://h",
            "not a url |",
            "http://h/?a b",
        ] {
            assert!(
                matches!(sent_url(url), std::borrow::Cow::Borrowed(_)),
                "{url}"
            );
        }
        // The path is signed as sent: a raw byte there is the parser's to refuse,
        // at its own offset (`http://h/a` is 10 bytes).
        match refusal(&sent_url("http://h/a|b?c=|")) {
            ErrorKind::InvalidByte {
                offset: 10,
                byte: b'|',
                ..
            } => {}
            other => panic!("{other:?}"),
        }
    }
}
