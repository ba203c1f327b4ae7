//! Our side of a signature comparison: the keys the explainer may try
//! (each key rule with each keyed method, fewer for a client not yet
//! trusted), and how our signature and theirs are shown in a finding
//! (redacted where either is, or holds, secret material).

use super::catalogue::Cause;
use super::finding::{Component, Finding};
use super::variant::KeyRule;
use crate::pipeline::sign::{SignatureMethod, SigningKey};
use crate::text::redact::holds_secret;

const REDACTED: &str = "<redacted: a PLAINTEXT signature is the signing key>";

/// The signature methods a key can be tried with (for a client not yet
/// trusted, the first three: see [`Ours::untrusted`]).
const KEYED: [SignatureMethod; 4] = [
    SignatureMethod::HmacSha1,
    SignatureMethod::HmacSha256,
    SignatureMethod::HmacSha512,
    SignatureMethod::Plaintext,
];

/// The keys of the search: every key rule with every keyed method, each a
/// key of the signing stage.
pub(super) struct Keys(pub(super) Vec<(KeyRule, SignatureMethod, SigningKey)>);

impl Keys {
    /// The keys `ours` may try: for a client not yet trusted, only those
    /// made of both our secrets ([`Ours::key_rules`]) and no PLAINTEXT.
    pub(super) fn for_side(ours: &Ours<'_>, consumer_secret: &str, token_secret: &str) -> Keys {
        let mut keys = Vec::new();
        for &method in ours.keyed() {
            for &rule in ours.key_rules() {
                let key = rule.key(consumer_secret, token_secret);
                if let Ok(key) = SigningKey::from_key_string(method, key) {
                    keys.push((rule, method, key));
                }
            }
        }
        Keys(keys)
    }

    pub(super) fn get(&self, rule: KeyRule, method: SignatureMethod) -> Option<&SigningKey> {
        self.0
            .iter()
            .find(|(r, m, _)| *r == rule && *m == method)
            .map(|(_, _, k)| k)
    }
}

/// Whether `key`'s signature over `base` is `theirs`.
pub(super) fn signs_as(key: &SigningKey, base: &[u8], theirs: &str) -> bool {
    key.sign_bytes(base).is_ok_and(|sig| sig.ct_eq(theirs))
}

/// Our side of a signature comparison: our signature, shown redacted when
/// it is the key (PLAINTEXT), and our secrets (`None` for RSA).
#[derive(Clone, Copy)]
pub(super) struct Ours<'a> {
    pub signature: &'a str,
    pub redact: bool,
    pub secrets: Option<(&'a str, &'a str)>,
    /// The findings go to a client not yet trusted: they show neither side
    /// (ours is computed with our secrets; theirs may be a guess at one),
    /// and no PLAINTEXT key is tried (a signature equal to the key text
    /// would confirm a guessed secret).
    pub untrusted: bool,
}

impl Ours<'_> {
    /// A signature as a finding shows it: redacted if it is the key (our
    /// method is PLAINTEXT), or if it holds a secret whatever method its
    /// header claims: any key text the key rules make of our secrets (a
    /// PLAINTEXT key sent under an HMAC name), or either secret itself.
    pub(super) fn shown(&self, sig: &str) -> String {
        if self.redact || self.holds_secret(sig) {
            REDACTED.to_owned()
        } else {
            sig.to_owned()
        }
    }

    /// Whether `text` is, or holds, secret material of ours, in any
    /// spelling (`crate::redact`: escapes in either case of hex, escaped
    /// twice, `+` for a space): either secret (from 8 bytes on anywhere, a
    /// shorter one where it stands alone), or a key text the key rules make
    /// of them.
    fn holds_secret(&self, text: &str) -> bool {
        let Some((cs, ts)) = self.secrets else {
            return false;
        };
        let keys: Vec<_> = KeyRule::ALL.iter().map(|rule| rule.key(cs, ts)).collect();
        let mut secrets: Vec<&str> = keys.iter().map(|k| k.expose()).collect();
        secrets.extend([cs, ts]);
        holds_secret(text, &secrets)
    }

    /// A finding about the signature: ours against `theirs`.
    pub(super) fn finding(
        &self,
        cause: Cause,
        component: Component,
        theirs: &str,
        detail: String,
    ) -> Finding {
        if self.untrusted {
            return Finding::new(cause, component, "", "", detail);
        }
        Finding::new(
            cause,
            component,
            self.shown(self.signature),
            self.shown(theirs),
            detail,
        )
    }

    /// The key rules tried. For a client not yet trusted, only the keys
    /// made of *both* our secrets: a key of the consumer secret alone (the
    /// token secret missing) would reproduce the signature of whoever holds
    /// only that secret (often extractable from a shipped app), telling
    /// them which tokens are ours and confirming a guess at the consumer
    /// secret. A key of both reproduces only a client that holds both.
    fn key_rules(&self) -> &'static [KeyRule] {
        const BOTH: [KeyRule; 3] = [KeyRule::Right, KeyRule::Swapped, KeyRule::NotEncoded];
        if self.untrusted {
            &BOTH
        } else {
            &KeyRule::ALL
        }
    }

    /// The methods a key is tried with.
    pub(super) fn keyed(&self) -> &'static [SignatureMethod] {
        if self.untrusted {
            &KEYED[..3]
        } else {
            &KEYED
        }
    }
}
