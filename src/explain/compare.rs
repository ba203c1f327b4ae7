//! Two base strings compared part by part: method, base string URI, then
//! every parameter as a decoded name/value pair with both sides' encodings.
//!
//! Their base string was written by a mistaken implementation, so it is read
//! leniently: either hex case, stray `%`, a parameter string left unencoded.
//! Pairs are matched by decoded name and value first, then by what one of
//! the catalogue's encodings makes of ours, then by Unicode form, then by
//! name alone; what is left over is missing on one side.

use unicode_normalization::UnicodeNormalization as _;

use super::catalogue::{Depth, Enc};
use super::model::{Model, Source};
use super::{Cause, Component, Explanation, Finding};
use crate::encode::percent_encode;
use crate::scan::hex_value;

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

/// How a pair of theirs was matched with one of ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Match {
    None,
    Exact,
    Encoding,
    Plus,
    Unicode,
    Name,
}

/// The cause of a differing value of a parameter with this name.
fn value_cause(name: &[u8]) -> Cause {
    match name {
        b"oauth_nonce" => Cause::NonceDiffers,
        b"oauth_timestamp" => Cause::TimestampDiffers,
        b"oauth_version" => Cause::OAuthVersionMismatch,
        b"oauth_consumer_key" => Cause::ConsumerKeyDiffers,
        b"oauth_token" => Cause::TokenDiffers,
        b"oauth_signature_method" => Cause::SignatureMethodDiffers,
        _ => Cause::ValueDiffers,
    }
}

fn same_text(a: &[u8], b: &[u8]) -> bool {
    let (Ok(a), Ok(b)) = (std::str::from_utf8(a), std::str::from_utf8(b)) else {
        return false;
    };
    a.nfc().eq(b.nfc())
}

fn latin1_of(utf8: &[u8], theirs: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(utf8) else {
        return false;
    };
    !s.is_ascii()
        && s.chars()
            .map(u32::from)
            .eq(theirs.iter().map(|&b| u32::from(b)))
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

fn compare_params(
    model: &Model,
    o: &Parsed<'_>,
    t: &Parsed<'_>,
    protocol: &mut Vec<Finding>,
    out: &mut Vec<Finding>,
) {
    let (op, tp) = (&o.pairs, &t.pairs);
    let mut used = vec![false; op.len()];
    let mut matched: Vec<Option<usize>> = vec![None; tp.len()];
    let name_of = |b: &[u8]| Component::Parameter(show(b));
    // Each pass matches what the ones before left, and says how.
    let mut how = vec![Match::None; tp.len()];
    let mut pass = |how: &mut Vec<Match>, kind: Match, fits: &dyn Fn(&Pair, &Pair) -> bool| {
        for (j, tj) in tp.iter().enumerate() {
            if how[j] != Match::None {
                continue;
            }
            if let Some(i) = (0..op.len()).find(|&i| !used[i] && fits(&op[i], tj)) {
                used[i] = true;
                matched[j] = Some(i);
                how[j] = kind;
            }
        }
    };
    pass(&mut how, Match::Exact, &|a, b| {
        a.name == b.name && a.value == b.value
    });
    let explained = |raw: &[u8], enc: &[u8]| explaining_rule(std::iter::once((raw, enc))).is_some();
    pass(&mut how, Match::Encoding, &|a, b| {
        explained(&a.name, &b.name_enc) && explained(&a.value, &b.value_enc)
    });
    // A `+` we read as a space (form encoding) and they as a plus sign.
    pass(&mut how, Match::Plus, &|a, b| {
        a.name == b.name
            && a.value.contains(&b' ')
            && a.value
                .iter()
                .map(|&c| if c == b' ' { b'+' } else { c })
                .eq(lenient_decode(&b.value_enc, false))
    });
    pass(&mut how, Match::Unicode, &|a, b| {
        (a.name == b.name || same_text(&a.name, &b.name))
            && (same_text(&a.value, &b.value) || latin1_of(&a.value, &b.value))
    });
    pass(&mut how, Match::Name, &|a, b| a.name == b.name);

    // Encodings of the pairs that match: one rule for all if one fits, else
    // a rule per name and per value.
    let enc_pairs: Vec<(usize, usize)> = (0..tp.len())
        .filter(|&j| matches!(how[j], Match::Exact | Match::Encoding))
        .filter_map(|j| matched[j].map(|i| (i, j)))
        .collect();
    let all: Vec<(&[u8], &[u8])> = enc_pairs
        .iter()
        .flat_map(|&(i, j)| {
            [
                (&op[i].name[..], &tp[j].name_enc[..]),
                (&op[i].value[..], &tp[j].value_enc[..]),
            ]
        })
        .collect();
    let mut reported: Vec<Cause> = Vec::new();
    let mut report = |cause: Cause, i: usize, j: usize, out: &mut Vec<Finding>| {
        if !reported.contains(&cause) {
            reported.push(cause);
            out.push(Finding::new(
                cause,
                name_of(&op[i].name),
                format!("{}={}", show(&op[i].name_enc), show(&op[i].value_enc)),
                format!("{}={}", show(&tp[j].name_enc), show(&tp[j].value_enc)),
                "their parameters are encoded this way",
            ));
        }
    };
    let global = explaining_rule(all.iter().copied());
    for &(i, j) in &enc_pairs {
        if op[i].name_enc == tp[j].name_enc && op[i].value_enc == tp[j].value_enc {
            continue;
        }
        let rules = match global {
            Some(rule) => vec![rule],
            None => [
                (&op[i].name, &tp[j].name_enc),
                (&op[i].value, &tp[j].value_enc),
            ]
            .into_iter()
            .filter_map(|(raw, enc)| explaining_rule(std::iter::once((&raw[..], &enc[..]))))
            .collect(),
        };
        for rule in rules {
            for cause in rule_causes(rule) {
                report(cause, i, j, out);
            }
        }
    }
    // Plus signs, Unicode forms, then other values.
    for j in 0..tp.len() {
        let Some(i) = matched[j] else { continue };
        let (cause, detail) = match how[j] {
            Match::Plus => (
                Cause::SpaceAsPlus,
                "we read the '+' in the query as a space (form encoding), they as a plus sign: \
                 send %20 for a space, %2B for a plus",
            ),
            Match::Unicode => (
                Cause::UnicodeNormalization,
                "the same text in another Unicode form or not as UTF-8 bytes",
            ),
            Match::Name => (value_cause(&op[i].name), "they sign another value"),
            _ => continue,
        };
        let f = Finding::new(
            cause,
            name_of(&op[i].name),
            show(&op[i].value_enc),
            show(&tp[j].value_enc),
            detail,
        );
        if op[i].name.starts_with(b"oauth_") {
            protocol.push(f);
        } else {
            out.push(f);
        }
    }
    // Left over on our side: not signed by them.
    let source_of = |p: &Pair| {
        let found = model
            .params
            .iter()
            .find(|m| m.name == p.name && m.value == p.value);
        found
            .or_else(|| model.params.iter().find(|m| m.name == p.name))
            .map(|m| m.source)
    };
    // Whether every parameter of a source is left over: then the source is
    // not signed, rather than some of its names.
    let all_missing = |source: Source| {
        let mut of_source = op
            .iter()
            .enumerate()
            .filter(|(_, p)| source_of(p) == Some(source));
        of_source.clone().next().is_some() && of_source.all(|(i, _)| !used[i])
    };
    for (i, p) in op.iter().enumerate() {
        if used[i] {
            continue;
        }
        let source = source_of(p);
        let repeated = op.iter().filter(|q| q.name == p.name).count() > 1
            && tp.iter().any(|q| q.name == p.name);
        let (cause, detail) = match source {
            _ if p.name == b"oauth_version" => (
                Cause::OAuthVersionMismatch,
                "we sign oauth_version, they do not",
            ),
            Some(Source::Query) if all_missing(Source::Query) => (
                Cause::QueryParamMissing,
                "they sign none of the query parameters",
            ),
            Some(Source::Body) if all_missing(Source::Body) => (
                Cause::BodyParamMissing,
                "they sign none of the form-body parameters",
            ),
            _ if repeated => (
                Cause::DuplicateCollapsed,
                "the name is given more than once and they sign fewer of its values",
            ),
            Some(Source::Query) => (
                Cause::QueryParamMissing,
                "they do not sign this query parameter",
            ),
            Some(Source::Body) => (
                Cause::BodyParamMissing,
                "they do not sign this form-body parameter",
            ),
            _ => (Cause::ParamMissing, "they do not sign this parameter"),
        };
        let f = Finding::new(
            cause,
            name_of(&p.name),
            format!("{}={}", show(&p.name_enc), show(&p.value_enc)),
            "",
            detail,
        );
        if p.name.starts_with(b"oauth_") {
            protocol.push(f);
        } else {
            out.push(f);
        }
    }
    // Left over on theirs: signed by them only.
    for (j, p) in tp.iter().enumerate() {
        if matched[j].is_some() {
            continue;
        }
        let (cause, detail) = match &p.name[..] {
            b"realm" => (
                Cause::RealmSigned,
                "they sign the realm, which RFC 5849 §3.4.1.3.1 leaves out",
            ),
            b"oauth_signature" => (
                Cause::SignatureSigned,
                "they sign oauth_signature, which is never signed",
            ),
            b"oauth_version" => (
                Cause::OAuthVersionMismatch,
                "they sign oauth_version, we do not",
            ),
            name if model.unsigned_body_names().any(|n| n == name) => (
                Cause::BodySigned,
                "they sign the body, which is not application/x-www-form-urlencoded",
            ),
            _ => (Cause::ParamExtra, "they sign a parameter we do not"),
        };
        let f = Finding::new(
            cause,
            name_of(&p.name),
            "",
            format!("{}={}", show(&p.name_enc), show(&p.value_enc)),
            detail,
        );
        if p.name.starts_with(b"oauth_") {
            protocol.push(f);
        } else {
            out.push(f);
        }
    }
    compare_order(t, out);
    compare_outer(t, &reported, out);
}

/// Whether their list is in order, and if not, which rule it follows.
fn compare_order(t: &Parsed<'_>, out: &mut Vec<Finding>) {
    let p = &t.pairs;
    let sorted_by = |cmp: &dyn Fn(&Pair, &Pair) -> std::cmp::Ordering| {
        p.windows(2).all(|w| cmp(&w[0], &w[1]).is_le())
    };
    if sorted_by(&|a, b| {
        a.name_enc
            .cmp(&b.name_enc)
            .then(a.value_enc.cmp(&b.value_enc))
    }) {
        return;
    }
    let (cause, detail) = if sorted_by(&|a, b| a.name.cmp(&b.name).then(a.value.cmp(&b.value))) {
        (
            Cause::SortedRaw,
            "they sort by raw names and values; RFC 5849 §3.4.1.3.2 sorts the encoded ones",
        )
    } else if sorted_by(&|a, b| {
        let x = a.name_enc.iter().chain(b"=").chain(&a.value_enc);
        let y = b.name_enc.iter().chain(b"=").chain(&b.value_enc);
        x.cmp(y)
    }) {
        (
            Cause::SortedByPairString,
            "they sort the joined name=value text; RFC 5849 §3.4.1.3.2 sorts by name, then value",
        )
    } else {
        (Cause::NotSorted, "their parameters are not sorted")
    };
    let names = |p: &[Pair]| {
        p.iter()
            .map(|q| show(&q.name_enc))
            .collect::<Vec<_>>()
            .join("&")
    };
    let mut right = p.clone();
    right.sort_by(|a, b| {
        a.name_enc
            .cmp(&b.name_enc)
            .then(a.value_enc.cmp(&b.value_enc))
    });
    out.push(Finding::new(
        cause,
        Component::Parameters,
        names(&right),
        names(p),
        detail,
    ));
}

/// The encoding of their parameter string as a whole.
fn compare_outer(t: &Parsed<'_>, reported: &[Cause], out: &mut Vec<Finding>) {
    if t.outer_raw {
        if !reported.contains(&Cause::NotEncoded) {
            out.push(Finding::new(
                Cause::NotEncoded,
                Component::Parameters,
                percent_encode(t.params_enc.as_bytes()).to_string(),
                t.params_enc,
                "the parameter string is not encoded in the base string",
            ));
        }
        return;
    }
    let Some((enc, _)) = explaining_rule(std::iter::once((&t.inner[..], t.params_enc.as_bytes())))
    else {
        return;
    };
    for cause in enc.causes() {
        if !reported.contains(&cause) {
            out.push(Finding::new(
                cause,
                Component::Parameters,
                percent_encode(&t.inner).to_string(),
                t.params_enc,
                "their parameter string is encoded this way in the base string",
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
