//! Their parameters matched with ours ([RFC 5849 §3.4.1.3]): five passes,
//! each over what the ones before left, each saying how a pair matched —
//! as it is, through one of the catalogue's encodings, as a `+` read as a
//! space, in another Unicode form, or by name alone. What each match means
//! is `params.rs`'s to say.
//!
//! [RFC 5849 §3.4.1.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3

use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization as _;

use crate::explain::lenient::{lenient_decode, Pair};
use crate::explain::variant::explaining_rule;

/// How a pair of theirs was matched with one of ours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Match {
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

/// Their pairs matched with ours: for each of theirs, which of ours and
/// how; for each of ours, whether it was matched.
pub(super) struct Matching<'p> {
    pub(super) ours: &'p [Pair],
    pub(super) theirs: &'p [Pair],
    pub(super) used: Vec<bool>,
    pub(super) matched: Vec<Option<usize>>,
    pub(super) how: Vec<Match>,
}

impl<'p> Matching<'p> {
    /// Runs the passes, each matching what the ones before left.
    pub(super) fn new(ours: &'p [Pair], theirs: &'p [Pair]) -> Self {
        let mut m = Matching {
            ours,
            theirs,
            used: vec![false; ours.len()],
            matched: vec![None; theirs.len()],
            how: vec![Match::None; theirs.len()],
        };
        let pair = |n: &[u8], v: &[u8]| (n.to_vec(), v.to_vec());
        m.pass(
            Match::Exact,
            &Keys {
                ours: &|a| vec![pair(&a.name, &a.value)],
                theirs: &|b| vec![pair(&b.name, &b.value)],
            },
            &|a, b| a.name == b.name && a.value == b.value,
        );
        let explained =
            |raw: &[u8], enc: &[u8]| explaining_rule(std::iter::once((raw, enc))).is_some();
        m.pass(
            Match::Encoding,
            &Keys {
                ours: &|a| vec![pair(&a.name, &a.value)],
                // Every catalogued encoding, once, twice or not at all, is
                // undone by decoding (a `+` as a space) that many times.
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
        m.pass(
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
        m.pass(
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
        m.pass(
            Match::Name,
            &Keys {
                ours: &|a| vec![(a.name.clone(), Vec::new())],
                theirs: &|b| vec![(b.name.clone(), Vec::new())],
            },
            &|a, b| a.name == b.name,
        );
        m
    }

    /// One pass: each pair of theirs left takes the first of ours left that
    /// fits. Ours are indexed by a key, and theirs look up the few keys a
    /// fitting one of ours can have, so a pass costs one look at each pair,
    /// not one per pair of pairs.
    fn pass(&mut self, kind: Match, keys: &Keys<'_>, fits: &Fits<'_>) {
        let (op, tp) = (self.ours, self.theirs);
        let mut index: HashMap<Key, Vec<usize>> = HashMap::new();
        for (i, p) in op.iter().enumerate().rev() {
            if !self.used[i] {
                for key in (keys.ours)(p) {
                    index.entry(key).or_default().push(i);
                }
            }
        }
        for (j, tj) in tp.iter().enumerate() {
            if self.how[j] != Match::None {
                continue;
            }
            let mut best: Option<usize> = None;
            for key in (keys.theirs)(tj) {
                let Some(list) = index.get_mut(&key) else {
                    continue;
                };
                while list.last().is_some_and(|&i| self.used[i]) {
                    list.pop();
                }
                // One key's pairs have the same name and value, so the first
                // fits if any does.
                if let Some(&i) = list.last()
                    && fits(&op[i], tj)
                    && best.is_none_or(|b| i < b)
                {
                    best = Some(i);
                }
            }
            if let Some(i) = best {
                self.used[i] = true;
                self.matched[j] = Some(i);
                self.how[j] = kind;
            }
        }
    }

    /// The pairs matched as they are or through an encoding: (ours, theirs).
    pub(super) fn encoded(&self) -> Vec<(usize, usize)> {
        (0..self.theirs.len())
            .filter(|&j| matches!(self.how[j], Match::Exact | Match::Encoding))
            .filter_map(|j| self.matched[j].map(|i| (i, j)))
            .collect()
    }
}
