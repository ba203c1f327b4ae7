//! Two base strings compared part by part: the method, then the base
//! string URI (scheme, host, port, path, and how their URI is encoded), then
//! the parameters (in `params`).
//!
//! Their base string was written by a mistaken implementation, so it is read
//! leniently: either hex case, stray `%`, a parameter string left unencoded.
//! An encoding of theirs is explained by the simplest rule of the catalogue
//! that reproduces it (`explaining_rule`), which names its causes.

mod params;

use super::catalogue::{Depth, Enc};
use super::model::Model;
use super::{Cause, Component, Explanation, Finding};
use crate::encode::percent_encode;
use crate::scan::hex_value;
use params::compare_params;

/// Decodes `%XX` (either case) and, if `plus`, `+` as a space; anything else,
/// a malformed escape included, is kept as it is.
pub(crate) fn lenient_decode(input: &[u8], plus: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if b == b'%' {
            if let (Some(h), Some(l)) = (
                input.get(i + 1).and_then(|&h| hex_value(h)),
                input.get(i + 2).and_then(|&l| hex_value(l)),
            ) {
                out.push(h << 4 | l);
                i += 3;
                continue;
            }
        }
        out.push(if plus && b == b'+' { b' ' } else { b });
        i += 1;
    }
    out
}

/// Bytes for people: text if UTF-8, escaped otherwise.
pub(crate) fn show(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => bytes.escape_ascii().to_string(),
    }
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
    let pairs = inner
        .split(|&b| b == b'&')
        .filter(|s| !s.is_empty())
        .map(|seg| {
            let (n, v) = match seg.iter().position(|&b| b == b'=') {
                Some(i) => (&seg[..i], &seg[i + 1..]),
                None => (seg, &seg[seg.len()..]),
            };
            Pair {
                name_enc: n.to_vec(),
                value_enc: v.to_vec(),
                name: lenient_decode(n, true),
                value: lenient_decode(v, true),
            }
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

/// The simplest encoding (fewest departures, once before twice before not
/// at all) that turns every `(raw, encoded)` into its encoded form.
pub(crate) fn explaining_rule<'a>(
    cases: impl Iterator<Item = (&'a [u8], &'a [u8])> + Clone,
) -> Option<(Enc, Depth)> {
    let mut encs: Vec<Enc> = Enc::all().collect();
    encs.sort_by_key(|e| e.count());
    let mut out = Vec::new();
    let mut tmp = Vec::new();
    for depth in [Depth::Once, Depth::Twice, Depth::Raw] {
        for &enc in &encs {
            let all = cases.clone().all(|(raw, want)| {
                out.clear();
                depth.write(enc, raw, &mut out, &mut tmp);
                out == want
            });
            if all {
                return Some((enc, depth));
            }
            if depth == Depth::Raw {
                break;
            }
        }
    }
    None
}

/// The causes a rule stands for.
fn rule_causes(rule: (Enc, Depth)) -> Vec<Cause> {
    let mut causes: Vec<Cause> = rule.0.causes().collect();
    match rule.1 {
        Depth::Once => {}
        Depth::Twice => causes.push(Cause::DoubleEncoded),
        Depth::Raw => causes = vec![Cause::NotEncoded],
    }
    causes
}

/// `scheme`, `host`, `port`, `path` of a base string URI.
fn split_uri(uri: &str) -> (&str, &str, Option<&str>, &str) {
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

/// Compares our base string (from `model`'s request) with theirs.
pub(crate) fn compare(model: &Model, ours: &str, theirs: &str) -> Explanation {
    if ours == theirs.trim() {
        return Explanation::matching();
    }
    let mut ex = Explanation {
        matches: false,
        findings: Vec::new(),
        their_base_string: Some(theirs.trim().to_owned()),
    };
    let (Some(o), Some(t)) = (parse(ours), parse(theirs)) else {
        ex.findings.push(Finding::new(
            Cause::Unexplained,
            Component::Parameters,
            ours,
            theirs,
            "their text is not a signature base string (METHOD&URI&PARAMETERS, RFC 5849 §3.4.1.1)",
        ));
        return ex;
    };
    let (mut protocol, mut rest) = (Vec::new(), Vec::new());
    compare_params(model, &o, &t, &mut protocol, &mut rest);
    ex.findings.extend(protocol);
    compare_method(&o, &t, &mut ex.findings);
    compare_uri(&o, &t, &mut ex.findings);
    ex.findings.extend(rest);
    if ex.findings.is_empty() {
        ex.findings.push(Finding::new(
            Cause::Unexplained,
            Component::Parameters,
            ours,
            theirs.trim(),
            "the base strings differ in a way the catalogue does not name",
        ));
    }
    ex
}

fn compare_method(o: &Parsed<'_>, t: &Parsed<'_>, out: &mut Vec<Finding>) {
    if o.method == t.method {
        return;
    }
    let detail = if o.method.eq_ignore_ascii_case(t.method) {
        "the method is not upper-cased (RFC 5849 §3.4.1.1)".to_owned()
    } else {
        format!("they signed {} where the request is {}", t.method, o.method)
    };
    out.push(Finding::new(
        Cause::MethodDiffers,
        Component::Method,
        o.method,
        t.method,
        detail,
    ));
}

fn compare_uri(o: &Parsed<'_>, t: &Parsed<'_>, out: &mut Vec<Finding>) {
    let (os, oh, op, opath) = split_uri(&o.uri);
    let (ts, th, tp, tpath) = split_uri(&t.uri);
    let uri = |cause, detail: &str| Finding::new(cause, Component::Uri, &o.uri, &t.uri, detail);
    if os != ts || oh != th {
        if os.eq_ignore_ascii_case(ts) && oh.eq_ignore_ascii_case(th) {
            out.push(uri(
                Cause::SchemeHostCase,
                "scheme and host are not lower-cased (RFC 5849 §3.4.1.2)",
            ));
        } else {
            if !os.eq_ignore_ascii_case(ts) {
                out.push(uri(
                    Cause::SchemeDiffers,
                    &format!("they signed {ts}:, we {os}:"),
                ));
            }
            if !oh.eq_ignore_ascii_case(th) {
                out.push(uri(
                    Cause::HostDiffers,
                    &format!("they signed host {th}, we {oh}"),
                ));
            }
        }
    }
    let default = if ts.eq_ignore_ascii_case("https") {
        "443"
    } else {
        "80"
    };
    match (op, tp) {
        (None, Some(p)) if p == default => out.push(uri(
            Cause::DefaultPortKept,
            &format!("they keep the default port :{p}, which RFC 5849 §3.4.1.2 drops"),
        )),
        (Some(p), None) => out.push(uri(
            Cause::PortDropped,
            &format!("they drop port :{p}, which is not the default and is signed"),
        )),
        (a, b) if a != b => out.push(uri(Cause::PortDiffers, "they sign another port")),
        _ => {}
    }
    if opath != tpath {
        let detail = if tpath.is_empty() {
            "they sign an empty path, where RFC 5849 §3.4.1.2 signs `/`"
        } else if lenient_decode(opath.as_bytes(), false) == lenient_decode(tpath.as_bytes(), false)
        {
            "the same path, escaped differently (the path is signed exactly as sent)"
        } else if opath.trim_end_matches('/') == tpath.trim_end_matches('/') {
            "the paths differ by a trailing `/`"
        } else {
            "they sign another path"
        };
        out.push(uri(Cause::PathDiffers, detail));
    }
    // Their URI's own encoding.
    if t.uri_enc.contains("://") {
        out.push(uri(Cause::NotEncoded, "the base string URI is not encoded"));
    } else if let Some(rule) =
        explaining_rule(std::iter::once((t.uri.as_bytes(), t.uri_enc.as_bytes())))
    {
        for cause in rule_causes(rule) {
            out.push(Finding::new(
                cause,
                Component::Uri,
                percent_encode(t.uri.as_bytes()).to_string(),
                t.uri_enc,
                "their base string URI is encoded this way",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenient_decoding_keeps_what_it_cannot_read() {
        assert_eq!(lenient_decode(b"a%2fb%2Gc%", false), b"a/b%2Gc%");
        assert_eq!(lenient_decode(b"a+b", true), b"a b");
        assert_eq!(lenient_decode(b"a+b", false), b"a+b");
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

    #[test]
    fn the_simplest_rule_is_found() {
        let rule = |raw: &str, enc: &str| {
            explaining_rule(std::iter::once((raw.as_bytes(), enc.as_bytes())))
        };
        assert_eq!(rule("a b", "a%20b"), Some((Enc::default(), Depth::Once)));
        assert_eq!(
            rule("a b", "a+b").map(rule_causes),
            Some(vec![Cause::SpaceAsPlus])
        );
        assert_eq!(
            rule("a b", "a%2520b").map(rule_causes),
            Some(vec![Cause::DoubleEncoded])
        );
        assert_eq!(
            rule("a/b", "a/b").map(rule_causes),
            Some(vec![Cause::NotEncoded])
        );
        assert_eq!(rule("a b", "zzz"), None);
    }
}
