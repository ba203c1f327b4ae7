//! The signature search: with only their signature, recompute our request
//! under every catalogued mistake, then every pair of them, each with the
//! key rules (right, token secret missing, secrets swapped or not encoded)
//! and the keyed signature methods, until a variant reproduces it. The
//! variants come from `catalogue`; the base strings are written by `model`.

use std::collections::HashMap;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use hmac::{Hmac, KeyInit, Mac};
use sha1::Sha1;
use sha2::{Sha256, Sha512};

use super::catalogue::{KeyRule, Mistake, Variant};
use super::compare::show;
use super::model::{Model, Scratch};
use super::{Cause, Component, Explainer, Explanation, Finding, SEARCH_EACH_PARAM_MAX};
use crate::credentials::Secret;
use crate::protocol::NAMES;
use crate::sign::{SignatureMethod, SigningKey};

/// A prepared key of the signature search.
pub(super) enum Key {
    Stage(Box<SigningKey>),
    /// Key text the stages would never make (secrets not encoded).
    Raw(SignatureMethod, Secret),
}

impl Key {
    pub(super) fn sign(&self, base: &[u8]) -> Option<String> {
        match self {
            Key::Stage(k) => k.sign_bytes(base).ok().map(|s| s.as_str().to_owned()),
            Key::Raw(method, key) => {
                let key = key.expose().as_bytes();
                fn mac<M: Mac + KeyInit>(key: &[u8], base: &[u8]) -> Option<String> {
                    let mut m = <M as KeyInit>::new_from_slice(key).ok()?;
                    m.update(base);
                    Some(STANDARD.encode(m.finalize().into_bytes()))
                }
                match method {
                    SignatureMethod::HmacSha1 => mac::<Hmac<Sha1>>(key, base),
                    SignatureMethod::HmacSha256 => mac::<Hmac<Sha256>>(key, base),
                    SignatureMethod::HmacSha512 => mac::<Hmac<Sha512>>(key, base),
                    SignatureMethod::Plaintext => std::str::from_utf8(key).ok().map(str::to_owned),
                    _ => None,
                }
            }
        }
    }
}

/// The signature methods a key can be tried with.
const KEYED: [SignatureMethod; 4] = [
    SignatureMethod::HmacSha1,
    SignatureMethod::HmacSha256,
    SignatureMethod::HmacSha512,
    SignatureMethod::Plaintext,
];

/// The keys of the search: every key rule with every keyed method.
pub(super) struct Keys(pub(super) Vec<(KeyRule, SignatureMethod, Key)>);

impl Keys {
    pub(super) fn new(cs: &str, ts: &str) -> Keys {
        let mut keys = Vec::new();
        for method in KEYED {
            for rule in [
                KeyRule::Right,
                KeyRule::TokenSecretMissing,
                KeyRule::Swapped,
                KeyRule::NotEncoded,
            ] {
                let key = match rule {
                    KeyRule::Right => {
                        SigningKey::new(method, cs, ts).map(|k| Key::Stage(Box::new(k)))
                    }
                    KeyRule::TokenSecretMissing => {
                        SigningKey::new(method, cs, "").map(|k| Key::Stage(Box::new(k)))
                    }
                    KeyRule::Swapped => {
                        SigningKey::new(method, ts, cs).map(|k| Key::Stage(Box::new(k)))
                    }
                    KeyRule::NotEncoded => Ok(Key::Raw(method, Secret::new(format!("{cs}&{ts}")))),
                };
                if let Ok(key) = key {
                    keys.push((rule, method, key));
                }
            }
        }
        Keys(keys)
    }

    pub(super) fn get(&self, rule: KeyRule, method: SignatureMethod) -> Option<&Key> {
        self.0
            .iter()
            .find(|(r, m, _)| *r == rule && *m == method)
            .map(|(_, _, k)| k)
    }
}

impl Explainer {
    /// Every mistake that applies to `model`.
    fn catalogue(&self, model: &Model, method: SignatureMethod) -> Vec<Mistake> {
        let mut out: Vec<Mistake> = Mistake::FIXED
            .into_iter()
            .filter(|m| !matches!(m, Mistake::KeyMethod(_)))
            .collect();
        out.extend(
            KEYED
                .into_iter()
                .filter(|&m| m != method)
                .map(Mistake::KeyMethod),
        );
        // Each parameter left out in turn: all of a small request's, else
        // only the RFC's protocol parameters (SEARCH_EACH_PARAM_MAX), so the
        // search costs a constant number of base strings.
        let each = model.params.len() <= SEARCH_EACH_PARAM_MAX;
        out.extend(
            model
                .params
                .iter()
                .enumerate()
                .filter(|(_, p)| p.name != b"oauth_version")
                .filter(|(_, p)| each || NAMES.iter().any(|n| n.as_str().as_bytes() == p.name))
                .filter_map(|(i, _)| u16::try_from(i).ok().map(Mistake::ParamDropped)),
        );
        out
    }

    /// Recomputes under each mistake, then each pair; `findings` come first
    /// in the explanation.
    pub(super) fn search(
        &self,
        model: &Model,
        method: SignatureMethod,
        theirs: &str,
        findings: Vec<Finding>,
    ) -> Explanation {
        self.search_counted(model, method, theirs, findings).0
    }

    /// [`search`](Self::search), and how many base strings it wrote.
    pub(super) fn search_counted(
        &self,
        model: &Model,
        method: SignatureMethod,
        theirs: &str,
        mut findings: Vec<Finding>,
    ) -> (Explanation, usize) {
        let Some((cs, ts)) = &self.secrets else {
            findings.push(self.signature_finding(
                Cause::Unexplained,
                Component::Signature,
                theirs,
                "the signature search needs an HMAC or PLAINTEXT key; with RSA, compare base strings"
                    .into(),
            ));
            return (
                Explanation {
                    matches: false,
                    findings,
                    their_base_string: None,
                },
                0,
            );
        };
        let keys = Keys::new(cs.expose(), ts.expose());
        let mut s = Scratch::default();
        let mut base = Vec::new();
        let mut right = Vec::new();
        model.write(&Variant::default(), &mut s, &mut right);
        let try_variant = |v: &Variant, s: &mut Scratch, base: &mut Vec<u8>| -> bool {
            model.write(v, s, base);
            keys.get(v.key, v.method.unwrap_or(method))
                .and_then(|k| k.sign(base))
                .is_some_and(|sig| sig == theirs)
        };
        if try_variant(&Variant::default(), &mut s, &mut base) {
            return (
                Explanation {
                    matches: findings.is_empty(),
                    findings,
                    their_base_string: Some(String::from_utf8_lossy(&right).into_owned()),
                },
                s.writes,
            );
        }
        // Mistakes that change nothing here are left out, so pairs are of
        // mistakes that each change the base string or the key; so is an
        // encoding departure at a wider level that writes the same base
        // string as at a narrower one: the narrower is named, and said to be
        // the same bytes as the wider.
        let mut seen: HashMap<(Cause, Vec<u8>), usize> = HashMap::new();
        let mut same_as: Vec<Vec<Mistake>> = Vec::new();
        let mut catalogue: Vec<Mistake> = Vec::new();
        for m in self.catalogue(model, method) {
            let mut v = Variant::default();
            m.apply(&mut v);
            if v.key != KeyRule::Right || v.method.is_some() {
                catalogue.push(m);
                same_as.push(Vec::new());
                continue;
            }
            model.write(&v, &mut s, &mut base);
            if base == right {
                continue;
            }
            // Only one departure at several levels is one mistake; two
            // mistakes that write the same bytes are both named.
            let key = m.level().map(|_| (m.cause(), base.clone()));
            match key.as_ref().and_then(|key| seen.get(key)) {
                Some(&k) => same_as[k].push(m),
                None => {
                    if let Some(key) = key {
                        seen.insert(key, catalogue.len());
                    }
                    catalogue.push(m);
                    same_as.push(Vec::new());
                }
            }
        }
        drop(seen);
        let mut found: Vec<(Vec<Mistake>, Vec<u8>)> = Vec::new();
        let mut found_same: Vec<&[Mistake]> = Vec::new();
        for (k, &m) in catalogue.iter().enumerate() {
            let mut v = Variant::default();
            if m.apply(&mut v) && try_variant(&v, &mut s, &mut base) {
                found.push((vec![m], base.clone()));
                found_same.push(&same_as[k]);
            }
        }
        if found.is_empty() {
            for (i, &a) in catalogue.iter().enumerate() {
                for &b in &catalogue[i + 1..] {
                    let mut v = Variant::default();
                    if a.apply(&mut v) && b.apply(&mut v) && try_variant(&v, &mut s, &mut base) {
                        found.push((vec![a, b], base.clone()));
                    }
                }
            }
        }
        let their_base_string = found
            .first()
            .map(|(_, b)| String::from_utf8_lossy(b).into_owned());
        if found.is_empty() {
            findings.push(
                self.signature_finding(
                    Cause::Unexplained,
                    Component::Signature,
                    theirs,
                    "no catalogued mistake, nor any pair of them, reproduces their signature: \
                 compare base strings (ask for theirs), and check both secrets"
                        .into(),
                ),
            );
        }
        for (k, (mistakes, _)) in found.iter().enumerate() {
            let with = if mistakes.len() > 1 {
                " (with the other mistake of this pair)".to_owned()
            } else {
                // The same bytes at a wider level: the signature cannot tell
                // them apart, and the finding says so.
                let wider: Vec<&str> = found_same
                    .get(k)
                    .into_iter()
                    .flat_map(|same| same.iter())
                    .filter_map(|m| m.level().map(|l| l.as_str()))
                    .collect();
                if wider.is_empty() {
                    String::new()
                } else {
                    format!(
                        "; or so at level {} too, which here writes the same base string: the \
                         signature cannot tell which",
                        wider.join(", ")
                    )
                }
            };
            for &m in mistakes {
                let dropped = match m {
                    Mistake::ParamDropped(i) => {
                        model.params.get(usize::from(i)).map(|p| show(&p.name))
                    }
                    _ => None,
                };
                let component = match m.cause() {
                    Cause::MethodDiffers => Component::Method,
                    Cause::DefaultPortKept
                    | Cause::PortDropped
                    | Cause::SchemeHostCase
                    | Cause::HostDiffers
                    | Cause::PathDiffers => Component::Uri,
                    Cause::KeyMismatch => Component::Key,
                    _ => match &dropped {
                        Some(name) => Component::Parameter(name.clone()),
                        None => Component::Parameters,
                    },
                };
                let detail = format!(
                    "{}{with}: recomputing our request this way reproduces their signature",
                    m.describe(dropped.as_deref())
                );
                let f = self
                    .signature_finding(m.cause(), component, theirs, detail)
                    .with_level(m.level());
                if !findings.contains(&f) {
                    findings.push(f);
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
        )
    }
}
