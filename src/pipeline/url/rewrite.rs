//! A URL rewritten into the text the parser accepts: as an HTTP client
//! serialises it (`sent_url`, the `http` edge's), or with each character
//! the parser refuses percent-encoded (`encode_refused`, offered to a
//! person who typed the URL).

use std::borrow::Cow;

use crate::text::encode::escape_str;
use crate::text::scan::{find_byte, find_either, is_pchar};

use super::authority::parse_authority;

/// Where the first `://` of `text` is (`str::find("://")` without its
/// general searcher: each `:` found eight bytes at a time, then the two
/// slashes looked at).
pub(crate) fn find_scheme_end(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = find_byte(&bytes[from..], b':') {
        let at = from + i;
        if bytes[at + 1..].starts_with(b"//") {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// A URL as an HTTP client serialises it (`url::Url`, and so reqwest;
/// `http::Uri`), in the text the string API signs the same way: the `http`
/// edge passes every request's URL through here.
///
/// Those types send some bytes raw that RFC 3986 would have escaped: in the
/// query, `url` leaves `[ ] { } | ^` and `` ` `` alone, `http::Uri` also ``;
/// `http::Uri` keeps non-ASCII text raw. A server reads such a byte as
/// itself, so it is signed as its escape (RFC 5849 §3.4.1.3.1 decodes the
/// query before §3.6 encodes it again): here each such query byte is
/// written as its escape (`|` as `%7C`), which decodes to the same
/// parameters. A `%` that starts no escape (`?a=%zz`, `?b=%4`) is left for
/// the parser to refuse with its offset: servers read it two ways (as
/// itself, as an error, as a byte), and the query's parameters are signed
/// decoded, so it cannot be signed as any one of them. Nothing else is
/// changed. The path is signed byte for byte as it is sent
/// (§3.4.1.2), so it is left as it is; a path byte that RFC 3986 does not
/// allow raw is then refused by [`RequestUrl::parse`] with its offset, which
/// the rewrite leaves unchanged (it only touches the query, after the path).
/// Spaces and control bytes are left too, for the parser to refuse: no
/// client sends them raw.
pub(crate) fn sent_url(url: &str) -> Cow<'_, str> {
    let bytes = url.as_bytes();
    let Some(after_scheme) = find_scheme_end(url).map(|i| i + 3) else {
        return url.into();
    };
    let rest = &bytes[after_scheme..];
    let Some(q) = find_either(rest, b'?', b'#') else {
        return url.into();
    };
    // The first '?' or '#' after the authority: '#' ends the path and the
    // query never starts.
    if rest[q] != b'?' {
        return url.into();
    }
    let start = after_scheme + q + 1;
    let end = find_byte(&bytes[start..], b'#').map_or(bytes.len(), |f| start + f);
    let query = &bytes[start..end];
    let kept = |b: u8| KEPT_IN_QUERY[usize::from(b)];
    if query.iter().all(|&b| kept(b)) {
        return url.into();
    }
    let mut out = String::with_capacity(url.len() + 16);
    out.push_str(&url[..start]);
    for &b in query {
        if kept(b) {
            out.push(char::from(b));
        } else {
            out.push_str(escape_str(b));
        }
    }
    out.push_str(&url[end..]);
    out.into()
}

/// Whether [`sent_url`] leaves a query byte as it is: what RFC 3986 allows
/// raw in a query, and what it leaves for the parser to refuse with its
/// offset (a malformed escape, a space, a control byte).
const fn kept_in_query(b: u8) -> bool {
    match b {
        b'%' | 0x00..=0x20 | 0x7F => true,
        _ => b.is_ascii() && (is_pchar(b) || b == b'/' || b == b'?'),
    }
}

/// [`kept_in_query`] of every byte, looked up once a byte.
const KEPT_IN_QUERY: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = kept_in_query(b as u8);
        b += 1;
    }
    t
};

/// `url` with each character the URL parser refuses in its path, query or
/// fragment percent-encoded, as the signer encodes (each of its UTF-8 bytes
/// as `%XX`, RFC 3986 §2.1): a space as `%20`, `ş` as `%C5%9F`, `[` as
/// `%5B`, `"` as `%22`. What a person typed, made into a URL that
/// [`RequestUrl::parse`](crate::pipeline::RequestUrl::parse) reads, in one
/// pass; borrowed when there is nothing to encode.
///
/// What the parser refuses for another reason is left as it is, for the
/// parser to name: a `%` that starts no escape, and a URL whose start it
/// does not read (not `http://` or `https://`, an authority it refuses),
/// which comes back unchanged.
///
/// ```
/// use oauth1_signer::pipeline::{encode_refused, RequestUrl};
///
/// // As Python's urllib.parse.quote(s, safe="/?:=&") encodes each part.
/// let fixed = encode_refused(r#"https://api.x.com/2/tweets/search?query=ağaç [x] {"a"}#frag ment"#);
/// assert_eq!(fixed, "https://api.x.com/2/tweets/search?query=a%C4%9Fa%C3%A7%20%5Bx%5D%20%7B%22a%22%7D#frag%20ment");
/// assert!(RequestUrl::parse(&fixed).is_ok());
/// assert!(matches!(encode_refused("https://h/?q=a%20b"), std::borrow::Cow::Borrowed(_)));
/// assert_eq!(encode_refused("ftp://h/a b"), "ftp://h/a b");
/// ```
pub fn encode_refused(url: &str) -> Cow<'_, str> {
    let Some(colon) = find_scheme_end(url) else {
        return url.into();
    };
    let scheme = &url[..colon];
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return url.into();
    }
    let start = colon + 3;
    let rest = &url[start..];
    let auth_len = rest
        .bytes()
        .position(|b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    if parse_authority(&rest[..auth_len], start).is_err() {
        return url.into();
    }
    let from = start + auth_len;
    let tail = &url.as_bytes()[from..];
    if tail.iter().all(|&b| kept(b)) {
        return url.into();
    }
    let mut out = String::with_capacity(url.len() + 16);
    out.push_str(&url[..from]);
    for &b in tail {
        if kept(b) {
            out.push(char::from(b));
        } else {
            out.push_str(escape_str(b));
        }
    }
    out.into()
}

/// Whether the parser takes byte `b` as it is after the authority (RFC 3986
/// §3.3-3.5: `pchar` and `/`; the `?` and `#` that begin the query and the
/// fragment, and any later, which a query or a fragment may hold); `%` is
/// left for the parser to read as an escape.
fn kept(b: u8) -> bool {
    b == b'%' || is_pchar(b) || matches!(b, b'/' | b'?' | b'#')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::url::RequestUrl;

    // Python's urllib.parse.quote of each refused part (a space %20, ş
    // %C5%9F, [ ] %5B %5D, { " } %7B %22 %7D, | ^ ` \ < > %7C %5E %60 %5C
    // %3C %3E; `:` and `=` are allowed in a query, as quote(safe=':=')
    // keeps them), the page's cases before the rule moved here.
    #[test]
    fn each_refused_character_is_encoded_as_python_s_quote_encodes_it() {
        for (url, fixed) in [
            ("https://h/?q=a b", "https://h/?q=a%20b"),
            ("https://h/?e=ş", "https://h/?e=%C5%9F"),
            ("https://h/?ids[]=1", "https://h/?ids%5B%5D=1"),
            (
                r#"https://h/?filter={"a":1}"#,
                "https://h/?filter=%7B%22a%22:1%7D",
            ),
            (
                "https://h/p ath/ş?x=a b|c^d`e\\f<g>h",
                "https://h/p%20ath/%C5%9F?x=a%20b%7Cc%5Ed%60e%5Cf%3Cg%3Eh",
            ),
            ("https://h/#frag ment", "https://h/#frag%20ment"),
            ("https://h:8443/a b", "https://h:8443/a%20b"),
            ("https://[::1]/a b", "https://[::1]/a%20b"),
        ] {
            let got = encode_refused(url);
            assert_eq!(got, fixed, "{url}");
            assert!(RequestUrl::parse(&got).is_ok(), "{got}");
        }
    }

    #[test]
    fn what_is_refused_otherwise_is_left_for_the_parser_to_name() {
        for url in [
            "https://h/?q=a%20b",
            "ftp://h/ x",
            "https:/h/ x",
            "h/ x",
            "https://u@h/ x",
            "https://h:0/ x",
            "",
        ] {
            assert!(
                matches!(encode_refused(url), Cow::Borrowed(u) if u == url),
                "{url}"
            );
        }
        // A `%` that starts no escape stays, for the parser to name; the
        // rest is encoded around it.
        assert_eq!(
            encode_refused("https://h/%zz?a=b c"),
            "https://h/%zz?a=b%20c"
        );
    }

    /// Every byte after the authority, one at a time: the encoded URL is one
    /// the parser reads, and a byte is left alone exactly when the parser
    /// took the URL holding it as it was.
    #[test]
    fn a_byte_is_encoded_exactly_when_the_parser_refuses_it() {
        for b in 1..=0x7Fu8 {
            if b == b'%' {
                continue;
            }
            let url = format!(
                "https://h/p{}q?r{}s#t{}u",
                char::from(b),
                char::from(b),
                char::from(b)
            );
            let fixed = encode_refused(&url);
            assert!(RequestUrl::parse(&fixed).is_ok(), "{b:#04x}: {fixed}");
            assert_eq!(
                matches!(fixed, Cow::Borrowed(_)),
                RequestUrl::parse(&url).is_ok(),
                "{b:#04x}"
            );
        }
    }
}
