//! The parameters of two base strings compared pair by pair, and the cause
//! of each difference named. Their pairs are matched with ours by decoded
//! name and value first, then by what one of the catalogue's encodings makes
//! of ours, then as a `+` read as a space, then by Unicode form, then by name
//! alone; what is left over is missing on one side, and its source (query,
//! form body, protocol) says why. Then their order and the encoding of their
//! parameter string as a whole ([RFC 5849 §3.4.1.3]).
//!
//! [RFC 5849 §3.4.1.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3

use std::collections::{HashMap, HashSet};

use unicode_normalization::UnicodeNormalization as _;

use crate::encode::percent_encode;
use crate::explain::catalogue::{encoder_causes, is_encoder, rule_causes, value_cause, Cause};
use crate::explain::finding::{Component, Finding};
use crate::explain::lenient::{lenient_decode, show, Pair, Parsed};
use crate::explain::model::{Model, Source};
use crate::explain::tried::EncodingLevel;
use crate::explain::variant::explaining_rule;

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

/// A key our pairs are indexed by in one matching pass.
type Key = (Vec<u8>, Vec<u8>);

/// The keys of one pass: ours has these, theirs looks up these.
struct Keys<'a> {
    ours: &'a dyn Fn(&Pair) -> Vec<Key>,
    theirs: &'a dyn Fn(&Pair) -> Vec<Key>,
}

/// Whether one of ours fits one of theirs in a pass.
type Fits<'a> = dyn Fn(&Pair, &Pair) -> bool + 'a;

/// What an encoded name or value was before a catalogued encoding: as it
/// is (not encoded), decoded once, decoded twice.
fn undone(enc: &[u8]) -> Vec<Vec<u8>> {
    let once = lenient_decode(enc, true);
    let twice = lenient_decode(&once, true);
    let mut out = vec![enc.to_vec()];
    for v in [once, twice] {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

/// Text in NFC, if it is UTF-8.
fn nfc(text: &[u8]) -> Option<Vec<u8>> {
    let s = std::str::from_utf8(text).ok()?;
    Some(s.nfc().collect::<String>().into_bytes())
}

/// A name as the Unicode pass compares it (NFC if UTF-8, else its bytes),
/// after a tag byte that keeps the pass's two indexes apart.
fn tagged(tag: u8, name: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    out.extend(nfc(name).as_deref().unwrap_or(name));
    out
}

/// The ISO-8859-1 bytes of non-ASCII UTF-8 text whose characters all fit.
fn latin1(text: &[u8]) -> Option<Vec<u8>> {
    let s = std::str::from_utf8(text).ok()?;
    if s.is_ascii() {
        return None;
    }
    s.chars().map(|c| u8::try_from(u32::from(c)).ok()).collect()
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
    // Each pass matches what the ones before left, and says how: their pair
    // takes the first of ours left that fits. Ours are indexed by a key, and
    // theirs look up the few keys a fitting one of ours can have, so a pass
    // costs one look at each pair, not one per pair of pairs.
    let mut how = vec![Match::None; tp.len()];
    let mut pass = |how: &mut Vec<Match>, kind: Match, keys: &Keys<'_>, fits: &Fits<'_>| {
        let mut index: HashMap<Key, Vec<usize>> = HashMap::new();
        for (i, p) in op.iter().enumerate().rev() {
            if !used[i] {
                for key in (keys.ours)(p) {
                    index.entry(key).or_default().push(i);
                }
            }
        }
        for (j, tj) in tp.iter().enumerate() {
            if how[j] != Match::None {
                continue;
            }
            let mut best: Option<usize> = None;
            for key in (keys.theirs)(tj) {
                let Some(list) = index.get_mut(&key) else {
                    continue;
                };
                while list.last().is_some_and(|&i| used[i]) {
                    list.pop();
                }
                // One key's pairs have the same name and value, so the first
                // fits if any does.
                if let Some(&i) = list.last() {
                    if fits(&op[i], tj) && best.is_none_or(|b| i < b) {
                        best = Some(i);
                    }
                }
            }
            if let Some(i) = best {
                used[i] = true;
                matched[j] = Some(i);
                how[j] = kind;
            }
        }
    };
    let pair = |n: &[u8], v: &[u8]| (n.to_vec(), v.to_vec());
    pass(
        &mut how,
        Match::Exact,
        &Keys {
            ours: &|a| vec![pair(&a.name, &a.value)],
            theirs: &|b| vec![pair(&b.name, &b.value)],
        },
        &|a, b| a.name == b.name && a.value == b.value,
    );
    let explained = |raw: &[u8], enc: &[u8]| explaining_rule(std::iter::once((raw, enc))).is_some();
    pass(
        &mut how,
        Match::Encoding,
        &Keys {
            ours: &|a| vec![pair(&a.name, &a.value)],
            // Every catalogued encoding, once, twice or not at all, is undone
            // by decoding (a `+` as a space) that many times.
            theirs: &|b| {
                let (names, values) = (undone(&b.name_enc), undone(&b.value_enc));
                let mut keys: Vec<Key> = Vec::new();
                for n in &names {
                    for v in &values {
                        let key = pair(n, v);
                        if !keys.contains(&key) {
                            keys.push(key);
                        }
                    }
                }
                keys
            },
        },
        &|a, b| explained(&a.name, &b.name_enc) && explained(&a.value, &b.value_enc),
    );
    // A `+` we read as a space (form encoding) and they as a plus sign.
    let plus_for_space = |v: &[u8]| -> Vec<u8> {
        v.iter()
            .map(|&c| if c == b' ' { b'+' } else { c })
            .collect()
    };
    pass(
        &mut how,
        Match::Plus,
        &Keys {
            ours: &|a| {
                if a.value.contains(&b' ') {
                    vec![(a.name.clone(), plus_for_space(&a.value))]
                } else {
                    Vec::new()
                }
            },
            theirs: &|b| vec![(b.name.clone(), lenient_decode(&b.value_enc, false))],
        },
        &|a, b| {
            a.name == b.name
                && a.value.contains(&b' ')
                && plus_for_space(&a.value) == lenient_decode(&b.value_enc, false)
        },
    );
    pass(
        &mut how,
        Match::Unicode,
        &Keys {
            ours: &|a| {
                let mut keys = Vec::new();
                if let Some(v) = nfc(&a.value) {
                    keys.push((tagged(0, &a.name), v));
                }
                if let Some(v) = latin1(&a.value) {
                    keys.push((tagged(1, &a.name), v));
                }
                keys
            },
            theirs: &|b| {
                let mut keys = Vec::new();
                if let Some(v) = nfc(&b.value) {
                    keys.push((tagged(0, &b.name), v));
                }
                keys.push((tagged(1, &b.name), b.value.clone()));
                keys
            },
        },
        &|a, b| {
            (a.name == b.name || same_text(&a.name, &b.name))
                && (same_text(&a.value, &b.value) || latin1_of(&a.value, &b.value))
        },
    );
    pass(
        &mut how,
        Match::Name,
        &Keys {
            ours: &|a| vec![(a.name.clone(), Vec::new())],
            theirs: &|b| vec![(b.name.clone(), Vec::new())],
        },
        &|a, b| a.name == b.name,
    );

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
            out.push(
                Finding::new(
                    cause,
                    name_of(&op[i].name),
                    format!("{}={}", show(&op[i].name_enc), show(&op[i].value_enc)),
                    format!("{}={}", show(&tp[j].name_enc), show(&tp[j].value_enc)),
                    "their parameters are encoded this way",
                )
                .with_level(is_encoder(cause).then_some(EncodingLevel::Values)),
            );
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
    // Left over on our side: not signed by them. Where each came from, by
    // name and value, else by name (the first of the model's with it).
    let mut by_pair: HashMap<(&[u8], &[u8]), Source> = HashMap::new();
    let mut by_name: HashMap<&[u8], Source> = HashMap::new();
    for m in &model.params {
        by_pair.entry((&m.name, &m.value)).or_insert(m.source);
        by_name.entry(&m.name).or_insert(m.source);
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
            *left += usize::from(!used[i]);
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
        if used[i] {
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
    let body_names: HashSet<&[u8]> = model.unsigned_body_names().collect();
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
            name if body_names.contains(name) => (
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
