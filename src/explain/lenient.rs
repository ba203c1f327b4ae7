//! Reading what a mistaken implementation wrote: leniently (either hex
//! case, a stray `%` kept as it is), and a base string taken apart into its
//! method, URI and parameters ([RFC 5849 §3.4.1.1]).
//!
//! [RFC 5849 §3.4.1.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.1

use crate::text::decode::DecodeBytes;
use crate::text::form::pairs;

/// Decodes `%XX` (either case) and, if `plus`, `+` as a space; anything
/// else, a malformed escape included, is kept as it is: the decoding
/// stage's own decoder, which keeps what it cannot read.
pub(crate) fn lenient_decode(input: &[u8], plus: bool) -> Vec<u8> {
    DecodeBytes::new(input, plus).collect()
}

/// Bytes for people: text if UTF-8, escaped otherwise.
pub(crate) fn show(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.escape_ascii().to_string(),
    }
}

/// The `name=value` pairs of form-like text: the form splitter's
/// [`pairs`] (empty segments skipped), a bare name with an empty value;
/// nothing decoded.
pub(crate) fn split_pairs(text: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    pairs(text).map(|p| (p.name, p.value_or_empty()))
}

/// One parameter of a base string.
#[derive(Clone, Debug)]
pub(crate) struct Pair {
    pub name_enc: Vec<u8>,
    pub value_enc: Vec<u8>,
    pub name: Vec<u8>,
    pub value: Vec<u8>,
}

/// A base string taken apart.
#[derive(Clone, Debug)]
pub(crate) struct Parsed<'a> {
    pub method: &'a str,
    pub uri_enc: &'a str,
    pub uri: String,
    pub params_enc: &'a str,
    /// The parameter string is not encoded (it holds a raw `=`).
    pub outer_raw: bool,
    /// The parameter string, the outer encoding undone.
    pub inner: Vec<u8>,
    pub pairs: Vec<Pair>,
}

/// Splits a base string at its first two `&`; `None` if it has fewer.
pub(crate) fn parse(base: &str) -> Option<Parsed<'_>> {
    let base = base.trim();
    let mut parts = base.splitn(3, '&');
    let (method, uri_enc, params_enc) = (parts.next()?, parts.next()?, parts.next()?);
    let outer_raw = params_enc.contains('=');
    let inner = if outer_raw {
        params_enc.as_bytes().to_vec()
    } else {
        lenient_decode(params_enc.as_bytes(), false)
    };
    let pairs = split_pairs(&inner)
        .map(|(n, v)| Pair {
            name_enc: n.to_vec(),
            value_enc: v.to_vec(),
            name: lenient_decode(n, true),
            value: lenient_decode(v, true),
        })
        .collect();
    Some(Parsed {
        method,
        uri_enc,
        uri: String::from_utf8_lossy(&lenient_decode(uri_enc.as_bytes(), false)).into_owned(),
        params_enc,
        outer_raw,
        inner,
        pairs,
    })
}

/// `scheme`, `host`, `port`, `path` of a base string URI.
pub(crate) fn split_uri(uri: &str) -> (&str, &str, Option<&str>, &str) {
    let (scheme, rest) = uri.split_once("://").unwrap_or(("", uri));
    let (authority, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let colon = match authority.rfind(']') {
        Some(b) => authority[b..].find(':').map(|i| b + i),
        None => authority.rfind(':'),
    };
    match colon {
        Some(c) => (scheme, &authority[..c], Some(&authority[c + 1..]), path),
        None => (scheme, authority, None, path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_decoding_keeps_what_it_cannot_read() {
        assert_eq!(lenient_decode(b"a%2fb%2Gc%", false), b"a/b%2Gc%");
        assert_eq!(lenient_decode(b"%%41%4", false), b"%A%4");
        assert_eq!(lenient_decode(b"a+b", true), b"a b");
        assert_eq!(lenient_decode(b"a+b", false), b"a+b");
    }

    #[test]
    fn pairs_split_at_the_first_equals_sign() {
        let pairs: Vec<_> = split_pairs(b"a=1&&b&c=d=e").collect();
        assert_eq!(pairs, [(&b"a"[..], &b"1"[..]), (b"b", b""), (b"c", b"d=e")]);
    }

    #[test]
    fn uris_split_into_their_parts() {
        assert_eq!(
            split_uri("https://h:443/p"),
            ("https", "h", Some("443"), "/p")
        );
        assert_eq!(
            split_uri("http://[::1]:8080/"),
            ("http", "[::1]", Some("8080"), "/")
        );
        assert_eq!(split_uri("http://[::1]"), ("http", "[::1]", None, ""));
    }
}
