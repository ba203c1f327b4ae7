//! The parameters of two base strings compared pair by pair, and the cause
//! of each difference named ([RFC 5849 §3.4.1.3]). The pairs are matched
//! by `matching.rs`; what is left over is missing on one side, and its
//! source (query, form body, protocol) says why. Then their order and the
//! encoding of their parameter string as a whole.
//!
//! [RFC 5849 §3.4.1.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3

use std::collections::{HashMap, HashSet};

use super::matching::{Match, Matching};
use crate::explain::catalogue::{encoder_causes, is_encoder, rule_causes, value_cause, Cause};
use crate::explain::finding::{Component, Finding};
use crate::explain::lenient::{show, Pair, Parsed};
use crate::explain::model::{Model, Source};
use crate::explain::tried::EncodingLevel;
use crate::explain::variant::explaining_rule;
use crate::pipeline::protocol::is_protocol_name;
use crate::text::encode::percent_encode;

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
    let m = Matching::new(&o.pairs, &t.pairs);
    let reported = report_encodings(&m, out);
    let mut found = Vec::new();
    report_values(&m, &mut found);
    report_ours_left(model, &m, &mut found);
    report_theirs_left(model, &m, &mut found);
    // The protocol parameters' causes come first.
    for (f, of_protocol) in found {
        if of_protocol {
            protocol.push(f);
        } else {
            out.push(f);
        }
    }
    compare_order(t, out);
    compare_outer(t, &reported, out);
}

/// A finding, and whether it is about a protocol parameter.
type Routed = (Finding, bool);

fn routed(f: Finding, name: &[u8]) -> Routed {
    (f, is_protocol_name(name))
}

fn name_of(b: &[u8]) -> Component {
    Component::Parameter(show(b))
}

fn shown_pair(p: &Pair) -> String {
    format!("{}={}", show(&p.name_enc), show(&p.value_enc))
}

/// Encodings of the pairs that match: one rule for all if one fits, else a
/// rule per name and per value. Answers the causes reported.
fn report_encodings(m: &Matching<'_>, out: &mut Vec<Finding>) -> Vec<Cause> {
    let (op, tp) = (m.ours, m.theirs);
    let enc_pairs = m.encoded();
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
        for cause in rules.into_iter().flat_map(rule_causes) {
            if !reported.contains(&cause) {
                reported.push(cause);
                out.push(
                    Finding::new(
                        cause,
                        name_of(&op[i].name),
                        shown_pair(&op[i]),
                        shown_pair(&tp[j]),
                        "their parameters are encoded this way",
                    )
                    .with_level(is_encoder(cause).then_some(EncodingLevel::Values)),
                );
            }
        }
    }
    reported
}

/// Plus signs, Unicode forms, then other values.
fn report_values(m: &Matching<'_>, found: &mut Vec<Routed>) {
    let (op, tp) = (m.ours, m.theirs);
    for (j, their) in tp.iter().enumerate() {
        let Some(i) = m.matched[j] else { continue };
        let (cause, detail) = match m.how[j] {
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
            show(&their.value_enc),
            detail,
        );
        found.push(routed(f, &op[i].name));
    }
}

/// Left over on our side: not signed by them. Where each came from, by name
/// and value, else by name (the first of the model's with it).
fn report_ours_left(model: &Model, m: &Matching<'_>, found: &mut Vec<Routed>) {
    let (op, tp) = (m.ours, m.theirs);
    let mut by_pair: HashMap<(&[u8], &[u8]), Source> = HashMap::new();
    let mut by_name: HashMap<&[u8], Source> = HashMap::new();
    for p in &model.params {
        by_pair.entry((&p.name, &p.value)).or_insert(p.source);
        by_name.entry(&p.name).or_insert(p.source);
    }
    let source_of = |p: &Pair| {
        by_pair
            .get(&(&p.name[..], &p.value[..]))
            .or_else(|| by_name.get(&p.name[..]))
            .copied()
    };
    // Whether every parameter of a source is left over: then the source is
    // not signed, rather than some of its names.
    let mut of_source: HashMap<Source, (usize, usize)> = HashMap::new();
    let mut our_names: HashMap<&[u8], usize> = HashMap::new();
    for (i, p) in op.iter().enumerate() {
        if let Some(source) = source_of(p) {
            let (all, left) = of_source.entry(source).or_default();
            *all += 1;
            *left += usize::from(!m.used[i]);
        }
        *our_names.entry(&p.name).or_default() += 1;
    }
    let all_missing = |source: Source| {
        of_source
            .get(&source)
            .is_some_and(|&(all, left)| all > 0 && all == left)
    };
    let their_names: HashSet<&[u8]> = tp.iter().map(|q| &q.name[..]).collect();
    for (i, p) in op.iter().enumerate() {
        if m.used[i] {
            continue;
        }
        let source = source_of(p);
        let repeated =
            our_names.get(&p.name[..]).is_some_and(|&n| n > 1) && their_names.contains(&p.name[..]);
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
        let f = Finding::new(cause, name_of(&p.name), shown_pair(p), "", detail);
        found.push(routed(f, &p.name));
    }
}

/// Left over on theirs: signed by them only.
fn report_theirs_left(model: &Model, m: &Matching<'_>, found: &mut Vec<Routed>) {
    let body_names: HashSet<&[u8]> = model.unsigned_body_names().collect();
    for (j, p) in m.theirs.iter().enumerate() {
        if m.matched[j].is_some() {
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
            name if body_names.contains(name) => (
                Cause::BodySigned,
                "they sign the body, which is not application/x-www-form-urlencoded",
            ),
            _ => (Cause::ParamExtra, "they sign a parameter we do not"),
        };
        let f = Finding::new(cause, name_of(&p.name), "", shown_pair(p), detail);
        found.push(routed(f, &p.name));
    }
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
    for cause in encoder_causes(enc) {
        // The same departure in the values and in the outer encoding: one
        // encoder used for both.
        let in_values = out
            .iter_mut()
            .find(|f| f.cause == cause && f.level == Some(EncodingLevel::Values));
        if let Some(f) = in_values {
            f.level = Some(EncodingLevel::Both);
            f.detail = "their parameters, and their parameter string in the base string, are \
                        encoded this way"
                .to_owned();
        } else if !reported.contains(&cause) {
            out.push(
                Finding::new(
                    cause,
                    Component::Parameters,
                    percent_encode(&t.inner).to_string(),
                    t.params_enc,
                    "their parameter string is encoded this way in the base string",
                )
                .with_level(Some(EncodingLevel::Outer)),
            );
        }
    }
}
