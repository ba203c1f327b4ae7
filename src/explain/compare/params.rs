//! The parameters of two base strings compared pair by pair, and the cause
//! of each difference named. Their pairs are matched with ours by decoded
//! name and value first, then by what one of the catalogue's encodings makes
//! of ours, then as a `+` read as a space, then by Unicode form, then by name
//! alone; what is left over is missing on one side, and its source (query,
//! form body, protocol) says why. Then their order and the encoding of their
//! parameter string as a whole ([RFC 5849 §3.4.1.3]).
//!
//! [RFC 5849 §3.4.1.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3

use unicode_normalization::UnicodeNormalization as _;

use super::{explaining_rule, lenient_decode, rule_causes, show, Pair, Parsed};
use crate::encode::percent_encode;
use crate::explain::model::{Model, Source};
use crate::explain::{Cause, Component, Finding};

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

/// Matches their pairs with ours and names why each one differs: causes
/// of the protocol parameters go to `protocol` (they come first), the rest
/// to `out`.
pub(super) fn compare_params(
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
