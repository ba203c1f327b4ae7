//! The signature search: with only their signature, recompute our request
//! under every catalogued mistake, then every pair of them, each with the
//! key rules (right, token secret missing, secrets swapped or not encoded)
//! and the keyed signature methods, until a variant reproduces it. The
//! mistakes come from `catalogue`, the base strings are written by `model`,
//! and every signature is the signing stage's ([`SigningKey`]).

use std::collections::HashMap;

use super::catalogue::Cause;
use super::finding::{Component, Explanation, Finding, FoundBy};
use super::lenient::show;
use super::model::{Model, Scratch};
use super::ours::{signs_as, Keys, Ours};
use super::tried::{search_list, EncodingLevel, Tried};
use super::variant::{KeyRule, Variant};
use crate::pipeline::protocol::NAMES;
use crate::pipeline::sign::SignatureMethod;

mod say;

use say::{describe, encoders_sentence, fitting_encoders, sentence};

/// Up to this many signed parameters (64), the signature search
/// ([`Explainer::signature`](crate::explain::Explainer::signature)) also tries
/// leaving out each one in turn; with more, only the protocol parameters are
/// tried one by one (query and body parameters are still tried left out as
/// a whole). Each such try costs a base string and a MAC, so trying all of
/// 10,000 parameters would cost their square; no implementation is known to
/// drop one request parameter of many at random.
pub const SEARCH_EACH_PARAM_MAX: usize = 64;

/// The most base strings the signature search writes and signs (10,000).
/// It tries every single mistake, then every pair, then every triple of
/// the likelier ones (a parameter left out only among the protocol
/// parameters, an encoder only at both levels), the simplest first, and
/// stops at the first of these that reproduces their signature, or here,
/// or at [`SEARCH_MAX_WRITTEN`] bytes. Each try is one base string and one
/// MAC, linear in the request (a few µs for an ordinary one: the X docs
/// request, when nothing reproduces, takes about 5,600 tries), so the
/// search's time is bounded whatever the answer; a search stopped by the
/// bound says so. A client not yet trusted
/// ([`Explainer::for_untrusted_client`](crate::explain::Explainer::for_untrusted_client))
/// is searched for single mistakes and pairs only.
pub const SEARCH_MAX_SIGNATURES: usize = 10_000;

/// Nor do the signature search's pairs and triples write more than this
/// many bytes of base strings (12 MiB: each byte written and signed costs
/// about 5.6 ns in a release build, BENCHMARKS.md, so some 70 ms): a large
/// request gets fewer tries, and no search takes much over 100 ms. (The
/// single mistakes are always tried: they are a few dozen.)
pub const SEARCH_MAX_WRITTEN: usize = 12 * 1024 * 1024;

/// Over this many parameters (1,024), the signature search is not made:
/// each catalogued mistake, and each pair of them, rewrites the whole
/// request, so its cost grows with the request times the square of the
/// catalogue (a 200,000-parameter form took 14 s and 209 MB). The finding
/// says so; comparing base strings still works at any size.
pub const SEARCH_MAX_PARAMS: usize = 1024;

/// Over this many bytes of parameters (256 KiB), likewise.
pub const SEARCH_MAX_BYTES: usize = 256 * 1024;

/// Every mistake that applies to `model`, signed with `method`, a key
/// tried with each of `keyed`.
fn mistakes(model: &Model, method: SignatureMethod, keyed: &[SignatureMethod]) -> Vec<Tried> {
    // Each parameter left out in turn: all of a small request's, else only
    // the RFC's protocol parameters (SEARCH_EACH_PARAM_MAX), so the search
    // costs a constant number of base strings.
    let each = model.params.len() <= SEARCH_EACH_PARAM_MAX;
    let params: Vec<u16> = model
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.name != b"oauth_version")
        .filter(|(_, p)| each || NAMES.iter().any(|n| n.as_str().as_bytes() == p.name))
        .filter_map(|(i, _)| u16::try_from(i).ok())
        .collect();
    search_list(method, keyed, &params)
}

/// What the search recomputes our request to reproduce: their signature,
/// or their base string (then no key is needed, and a key mistake cannot
/// show).
#[derive(Clone, Copy)]
enum Target<'a> {
    Signature(&'a str),
    BaseString(&'a [u8]),
}

/// Recomputes `model` under each mistake, then each pair, and names those
/// that reproduce `theirs`; `findings` come first in the explanation. Also
/// says how many base strings it wrote.
pub(super) fn search(
    ours: Ours<'_>,
    model: &Model,
    method: SignatureMethod,
    theirs: &str,
    findings: Vec<Finding>,
) -> (Explanation, usize) {
    let (ex, writes, _) = search_for(ours, model, method, Target::Signature(theirs), findings);
    (ex, writes)
}

/// The same search as from their signature, made for their base string:
/// the combination of mistakes that writes it, most fundamental first, its
/// real encoders named, found as [`FoundBy::Compared`] (the base strings
/// are compared, no key is tried). `None` when no combination within the
/// search's bounds writes it (or the request is over them).
pub(super) fn search_base_string(
    ours: Ours<'_>,
    model: &Model,
    method: SignatureMethod,
    theirs: &[u8],
) -> Option<Explanation> {
    match search_for(ours, model, method, Target::BaseString(theirs), Vec::new()) {
        (ex, _, true) => Some(ex),
        _ => None,
    }
}

/// The search for `target`: the explanation, how many base strings it
/// wrote, and whether a combination reproduced it.
fn search_for(
    ours: Ours<'_>,
    model: &Model,
    method: SignatureMethod,
    target: Target<'_>,
    mut findings: Vec<Finding>,
) -> (Explanation, usize, bool) {
    let (theirs, what, evidence) = match target {
        Target::Signature(sig) => (sig, "their signature", "the signature"),
        Target::BaseString(_) => ("", "their base string", "their base string"),
    };
    // A finding of the search: about the signature, or (for their base
    // string) found by comparing base strings, whose parts the comparison
    // shows.
    let finding = |cause: Cause, component: Component, detail: String| match target {
        Target::Signature(_) => ours.finding(cause, component, theirs, detail),
        Target::BaseString(_) => Finding::new(cause, component, "", "", detail),
    };
    let secrets =
        match (ours.secrets, target) {
            (Some(secrets), _) => secrets,
            (None, Target::BaseString(_)) => ("", ""),
            (None, Target::Signature(_)) => return not_searched(
                findings,
                ours.finding(
                    Cause::Unexplained,
                    Component::Signature,
                    theirs,
                    "the signature search needs an HMAC or PLAINTEXT key; with RSA, compare base \
                     strings"
                        .into(),
                ),
            ),
        };
    let bytes: usize = model
        .params
        .iter()
        .map(|p| p.name.len() + p.value.len())
        .sum();
    let over = model.params.len() > SEARCH_MAX_PARAMS || bytes > SEARCH_MAX_BYTES;
    if over && matches!(target, Target::BaseString(_)) {
        return (Explanation::matching(), 0, false);
    }
    if over {
        return not_searched(
            findings,
            ours.finding(
                Cause::Unexplained,
                Component::Signature,
                theirs,
                format!(
                    "the request has {} parameters ({bytes} bytes), over the \
                     {SEARCH_MAX_PARAMS} parameters or {SEARCH_MAX_BYTES} bytes the signature \
                     search is made for: compare base strings (ask for theirs)",
                    model.params.len()
                ),
            ),
        );
    }
    let keys = match target {
        Target::Signature(_) => Keys::for_side(&ours, secrets.0, secrets.1),
        Target::BaseString(_) => Keys(Vec::new()),
    };
    let mut s = Scratch::default();
    let mut base = Vec::new();
    let mut right = Vec::new();
    model.write(&Variant::default(), &mut s, &mut right);
    let signs = |v: &Variant, base: &[u8]| -> bool {
        match target {
            Target::Signature(theirs) => keys
                .get(v.key, v.method.unwrap_or(method))
                .is_some_and(|k| signs_as(k, base, theirs)),
            // A key mistake does not change the base string.
            Target::BaseString(theirs) => v.key == KeyRule::Right && base == theirs,
        }
    };
    if matches!(target, Target::BaseString(b) if b == right.as_slice()) {
        return (Explanation::matching(), s.writes, false);
    }
    if signs(&Variant::default(), &right) {
        return (
            Explanation {
                matches: findings.is_empty(),
                findings,
                their_base_string: Some(String::from_utf8_lossy(&right).into_owned()),
            },
            s.writes,
            true,
        );
    }
    // Each single mistake. Those that change nothing here are left out,
    // and of those that write the same base string only the first (the
    // simplest: catalogue order, the narrowest level first) is combined
    // with others; the rest are said with it (`same_as`).
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut same_as: Vec<Vec<Tried>> = Vec::new();
    let mut catalogue: Vec<Tried> = Vec::new();
    let mut found: Vec<(Vec<Tried>, Vec<u8>)> = Vec::new();
    let mut found_single: Vec<usize> = Vec::new();
    let mut other = Vec::new();
    for m in mistakes(model, method, ours.keyed()) {
        let mut v = Variant::default();
        if !m.apply(&mut v) {
            continue;
        }
        if m.keys_only() {
            if signs(&v, &right) {
                found.push((vec![m], right.clone()));
                found_single.push(catalogue.len());
            }
            catalogue.push(m);
            same_as.push(Vec::new());
            continue;
        }
        model.write(&v, &mut s, &mut base);
        if base == right {
            continue;
        }
        let hash = hash_of(&base);
        if let Some(&k) = seen.get(&hash) {
            // The same hash: the same bytes, checked (a collision is one
            // more mistake combined, never a wrong grouping).
            let mut first = Variant::default();
            if let Some(&earlier) = catalogue.get(k) {
                earlier.apply(&mut first);
                model.write(&first, &mut s, &mut other);
                if other == base {
                    same_as[k].push(m);
                    continue;
                }
            }
        }
        seen.insert(hash, catalogue.len());
        if signs(&v, &base) {
            found.push((vec![m], base.clone()));
            found_single.push(catalogue.len());
        }
        catalogue.push(m);
        same_as.push(Vec::new());
    }
    drop(seen);
    let budget = SEARCH_MAX_SIGNATURES.min(SEARCH_MAX_WRITTEN / right.len().max(1));
    // Then each pair, then each triple of the likelier mistakes, the
    // simplest first, until one reproduces their signature or the bound is
    // spent.
    let mut stopped = false;
    if found.is_empty() {
        'pairs: for (i, &a) in catalogue.iter().enumerate() {
            for &b in &catalogue[i + 1..] {
                let mut v = Variant::default();
                if !(a.apply(&mut v) && b.apply(&mut v)) {
                    continue;
                }
                if s.writes >= budget {
                    stopped = true;
                    break 'pairs;
                }
                model.write(&v, &mut s, &mut base);
                if signs(&v, &base) {
                    found.push((vec![a, b], base.clone()));
                }
            }
        }
    }
    if found.is_empty() && !stopped && !ours.untrusted {
        let protocol = |i: usize| {
            model
                .params
                .get(i)
                .is_some_and(|p| NAMES.iter().any(|n| n.as_str().as_bytes() == p.name))
        };
        // An encoder at both levels; at a narrower level only where that
        // writes what both levels write (so stands for them here).
        let likely: Vec<Tried> = catalogue
            .iter()
            .zip(&same_as)
            .filter(|(m, same)| {
                m.in_triples(protocol)
                    || (m.level().is_some()
                        && same.iter().any(|o| {
                            o.is_same_mistake(**m) && o.level() == Some(EncodingLevel::Both)
                        }))
            })
            .map(|(m, _)| *m)
            .collect();
        'triples: for (i, &a) in likely.iter().enumerate() {
            for (j, &b) in likely.iter().enumerate().skip(i + 1) {
                let mut ab = Variant::default();
                if !(a.apply(&mut ab) && b.apply(&mut ab)) {
                    continue;
                }
                for &c in &likely[j + 1..] {
                    let mut v = ab;
                    if !c.apply(&mut v) {
                        continue;
                    }
                    if s.writes >= budget {
                        stopped = true;
                        break 'triples;
                    }
                    model.write(&v, &mut s, &mut base);
                    if signs(&v, &base) {
                        found.push((vec![a, b, c], base.clone()));
                    }
                }
            }
        }
    }
    let their_base_string = found
        .first()
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned());
    if found.is_empty() && matches!(target, Target::BaseString(_)) {
        return (Explanation::matching(), s.writes, false);
    }
    if found.is_empty() {
        let tried = if ours.untrusted {
            "No catalogued mistake, nor any pair of them, reproduces their signature"
        } else if stopped {
            "No catalogued mistake, nor any pair or triple of them tried before the search's \
             bound (SEARCH_MAX_SIGNATURES, SEARCH_MAX_WRITTEN), reproduces their signature"
        } else {
            "No catalogued mistake, nor any pair or likely triple of them, reproduces their \
             signature"
        };
        findings.push(
            ours.finding(
                Cause::Unexplained,
                Component::Signature,
                theirs,
                format!(
                    "{tried}. Compare the base strings (ask for theirs), and check both secrets."
                ),
            )
            .found_by(FoundBy::NotReproduced),
        );
    }
    // Within a combination, the most fundamental cause first (catalogue
    // order), whichever was tried first.
    for (mistakes, _) in &mut found {
        mistakes.sort_by_key(|m| m.cause);
    }
    for (k, (mistakes, their_base)) in found.iter().enumerate() {
        // Each finding in sentences: what the other side does; that this
        // reproduces their signature; which real encoders write it; and
        // what else writes the same base string, so that the signature
        // cannot tell which.
        let mut ambiguous = false;
        let mut after = match mistakes.len() {
            1 => format!(". Recomputing our request this way reproduces {what}."),
            2 => format!(
                ", with the other mistake of this pair. Recomputing our request with both \
                 reproduces {what}."
            ),
            _ => format!(
                ", with the other two mistakes of this triple. Recomputing our request with \
                 all three reproduces {what}."
            ),
        };
        let same: &[Tried] = if mistakes.len() == 1 {
            found_single
                .get(k)
                .and_then(|&i| same_as.get(i))
                .map_or(&[], Vec::as_slice)
        } else {
            &[]
        };
        if let [m] = mistakes[..] {
            let wider: Vec<&str> = same
                .iter()
                .filter(|o| o.cause == m.cause && o.encoder().is_none())
                .filter_map(|o| o.level().map(EncodingLevel::used))
                .collect();
            if !wider.is_empty() {
                ambiguous = true;
                after.push_str(&format!(
                    " The same encoder {} writes the same base string here, so {evidence} \
                     cannot tell which.",
                    wider.join(" or ")
                ));
            }
            let others: Vec<String> = same
                .iter()
                .filter(|o| o.cause != m.cause && o.encoder().is_none())
                .map(|o| describe(model, *o))
                .collect();
            if !others.is_empty() {
                ambiguous = true;
                after.push_str(&format!(
                    " Equally, {} writes the same base string here, so {evidence} cannot \
                     tell which.",
                    others.join("; or ")
                ));
            }
        }
        // The real encoders that write what the one encoding mistake of
        // this combination writes, with its other mistakes.
        let mut encoding = mistakes.iter().filter(|m| m.level().is_some());
        if let (Some(&m), None) = (encoding.next(), encoding.next()) {
            let rest: Vec<Tried> = mistakes
                .iter()
                .copied()
                .filter(|o| !o.is_same_mistake(m))
                .collect();
            let names = fitting_encoders(model, m, &rest, their_base, &mut s, &mut other);
            if !names.is_empty() {
                after.push_str(&format!(" {}", encoders_sentence(m, &names)));
            }
        }
        if mistakes.len() > 1
            && found
                .iter()
                .enumerate()
                .any(|(o, (_, b))| o != k && b == their_base)
        {
            ambiguous = true;
            after.push_str(&format!(
                " Another combination writes the same base string here, so {evidence} \
                 cannot tell which."
            ));
        }
        // The findings of this combination, then those of the other
        // mistakes that write the same base string.
        let alternatives = same
            .iter()
            .filter(|o| o.encoder().is_none() && o.cause != mistakes[0].cause);
        for (n, &m) in mistakes.iter().chain(alternatives).enumerate() {
            let dropped = m
                .dropped()
                .and_then(|i| model.params.get(i))
                .map(|p| show(&p.name));
            let detail = if n < mistakes.len() {
                format!("{}{after}", sentence(&m.describe(dropped.as_deref())))
            } else {
                format!(
                    "{}. Recomputing our request this way reproduces {what}, as another \
                     mistake does (said above), so {evidence} cannot tell which.",
                    sentence(&m.describe(dropped.as_deref()))
                )
            };
            for cause in m.causes() {
                let component = Component::of(cause.entry().place, dropped.clone());
                let found_by = match target {
                    Target::Signature(_) => FoundBy::Reproduced {
                        paired: mistakes.len() > 1,
                        ambiguous: ambiguous || n >= mistakes.len(),
                    },
                    Target::BaseString(_) => FoundBy::Compared,
                };
                let f = finding(cause, component, detail.clone())
                    .with_level(m.level())
                    .found_by(found_by);
                if !findings.contains(&f) {
                    findings.push(f);
                }
            }
        }
    }
    (
        Explanation {
            matches: false,
            findings,
            their_base_string,
        },
        s.writes,
        true,
    )
}

/// The search's answer when it is not made: `finding` (why) after the
/// findings so far, nothing written.
fn not_searched(mut findings: Vec<Finding>, finding: Finding) -> (Explanation, usize, bool) {
    findings.push(finding.found_by(FoundBy::NotSearched));
    (
        Explanation {
            matches: false,
            findings,
            their_base_string: None,
        },
        0,
        false,
    )
}

/// A deterministic hash of a base string (`DefaultHasher::new` has fixed
/// keys).
fn hash_of(bytes: &[u8]) -> u64 {
    use std::hash::{Hash as _, Hasher as _};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}
