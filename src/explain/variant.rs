//! The ways a base string (and key) can be built: the right one
//! (`Variant::default()`) and the parts a mistaken implementation changes.
//!
//! The right rules are the stages' (`percent_encode`, `Params::normalize`,
//! `BaseStringUri`, `key_string`); a [`Variant`] says which of them a
//! mistaken implementation replaces, `catalogue.rs` names each replacement,
//! and `model.rs` writes the base string that implementation would sign.

use crate::pipeline::credentials::Secret;
use crate::pipeline::sign::{key_string, SignatureMethod};
use crate::text::encode::percent_encode;

/// One known departure of a percent-encoder from RFC 5849 §3.6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Departure {
    /// A space as `+`.
    Plus = 1,
    /// Lower-case hex digits.
    Lower = 2,
    /// `! * ' ( )` left bare.
    Bare = 4,
    /// `~` escaped as `%7E`.
    Tilde = 8,
}

/// How one side percent-encodes: RFC 5849 §3.6, with zero or more
/// [`Departure`]s. One function, used for parameters, URI and the outer
/// encoding alike (as a mistaken library uses its one encoder everywhere).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Enc(u8);

impl Enc {
    /// Every combination of the departures, the right encoding first.
    pub(crate) fn all() -> impl Iterator<Item = Enc> {
        (0u8..16).map(Enc)
    }

    /// How many departures: fewer is a simpler explanation.
    pub(crate) fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub(crate) fn has(self, d: Departure) -> bool {
        self.0 & d as u8 != 0
    }

    pub(crate) fn with(self, d: Departure) -> Enc {
        Enc(self.0 | d as u8)
    }

    /// Writes `bytes` encoded this way: the stage's encoding, each piece
    /// then mapped by the departures.
    pub(crate) fn write(self, bytes: &[u8], out: &mut Vec<u8>) {
        if self == Enc::default() {
            percent_encode(bytes).write_to(out);
            return;
        }
        let (plus, lower, bare, tilde) = (
            self.has(Departure::Plus),
            self.has(Departure::Lower),
            self.has(Departure::Bare),
            self.has(Departure::Tilde),
        );
        for piece in percent_encode(bytes) {
            let p = piece.as_bytes();
            if p.first() == Some(&b'%') {
                match p {
                    b"%20" if plus => out.push(b'+'),
                    b"%21" | b"%2A" | b"%27" | b"%28" | b"%29" if bare => out.push(match p {
                        b"%21" => b'!',
                        b"%2A" => b'*',
                        b"%27" => b'\'',
                        b"%28" => b'(',
                        _ => b')',
                    }),
                    _ if lower => out.extend(p.iter().map(u8::to_ascii_lowercase)),
                    _ => out.extend_from_slice(p),
                }
            } else if tilde {
                for &b in p {
                    if b == b'~' {
                        out.extend_from_slice(if lower { b"%7e" } else { b"%7E" });
                    } else {
                        out.push(b);
                    }
                }
            } else {
                out.extend_from_slice(p);
            }
        }
    }
}

/// How many times names and values are encoded before the parameter string
/// is encoded once more for the base string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Depth {
    #[default]
    Once,
    /// Encoded twice (given already encoded).
    Twice,
    /// Not encoded.
    Raw,
}

impl Depth {
    /// Writes a name or value at this depth with `enc`.
    pub(crate) fn write(self, enc: Enc, bytes: &[u8], out: &mut Vec<u8>, tmp: &mut Vec<u8>) {
        match self {
            Depth::Once => enc.write(bytes, out),
            Depth::Twice => {
                tmp.clear();
                enc.write(bytes, tmp);
                enc.write(tmp, out);
            }
            Depth::Raw => out.extend_from_slice(bytes),
        }
    }
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

/// How the parameters are put in order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Order {
    /// §3.4.1.3.2: by encoded name, then encoded value.
    #[default]
    Encoded,
    /// By raw name, then raw value.
    Raw,
    /// By the encoded `name=value` text.
    PairString,
}

/// How the parameters from a name given several times are signed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Dups {
    #[default]
    All,
    First,
    Last,
}

/// Which text a value is signed as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Uni {
    #[default]
    AsGiven,
    Nfc,
    Nfd,
    /// ISO-8859-1 bytes instead of UTF-8, where every character fits.
    Latin1,
}

/// How the key is made from the two secrets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum KeyRule {
    #[default]
    Right,
    TokenSecretMissing,
    Swapped,
    NotEncoded,
}

impl KeyRule {
    pub(crate) const ALL: [KeyRule; 4] = [
        KeyRule::Right,
        KeyRule::TokenSecretMissing,
        KeyRule::Swapped,
        KeyRule::NotEncoded,
    ];

    /// The key text this rule makes of the two secrets: the stage's
    /// [`key_string`] of the right, missing or swapped secrets, or the
    /// secrets joined without encoding.
    pub(crate) fn key(self, consumer_secret: &str, token_secret: &str) -> Secret {
        match self {
            KeyRule::Right => key_string(consumer_secret, token_secret),
            KeyRule::TokenSecretMissing => key_string(consumer_secret, ""),
            KeyRule::Swapped => key_string(token_secret, consumer_secret),
            KeyRule::NotEncoded => Secret::new(format!("{consumer_secret}&{token_secret}")),
        }
    }
}

/// How a non-form body is signed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum BodyRule {
    #[default]
    NotSigned,
    /// Parsed as a form body.
    AsForm,
    /// Its JSON object's fields signed as parameters.
    JsonFields,
}

/// One way of building the base string and key: the right one
/// (`Variant::default()`) with zero or more mistakes applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Variant {
    /// The encoder of the parameter names and values.
    pub enc: Enc,
    /// The encoder of the base string's outer encoding: the method, the
    /// base string URI and the parameter string.
    pub outer: Enc,
    pub depth: Depth,
    pub order: Order,
    pub default_port: bool,
    pub drop_port: bool,
    pub keep_case: bool,
    pub other_host: bool,
    pub path_decoded: bool,
    pub path_slash: bool,
    pub method_as_given: bool,
    pub method_swapped: bool,
    pub drop_query: bool,
    pub drop_body: bool,
    pub body: BodyRule,
    pub dups: Dups,
    pub drop_param: Option<u16>,
    pub version_toggled: bool,
    pub realm: bool,
    pub uni: Uni,
    pub key: KeyRule,
    pub method: Option<SignatureMethod>,
}

/// Sets a part of a variant that is still right; false if it departs
/// already (two mistakes of one kind do not make a pair).
pub(crate) fn set<T: PartialEq + Default>(field: &mut T, value: T) -> bool {
    if *field != T::default() {
        return false;
    }
    *field = value;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(e: Enc, s: &str) -> String {
        let mut out = Vec::new();
        e.write(s.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn each_departure_maps_only_its_pieces() {
        let s = "a b!~/é";
        let only = |d| Enc::default().with(d);
        assert_eq!(enc(Enc::default(), s), "a%20b%21~%2F%C3%A9");
        assert_eq!(enc(only(Departure::Plus), s), "a+b%21~%2F%C3%A9");
        assert_eq!(enc(only(Departure::Lower), s), "a%20b%21~%2f%c3%a9");
        assert_eq!(enc(only(Departure::Bare), "(!*')"), "(!*')");
        assert_eq!(enc(only(Departure::Tilde), s), "a%20b%21%7E%2F%C3%A9");
        assert_eq!(Enc::all().count(), 16);
        assert_eq!(Enc::all().next(), Some(Enc::default()));
    }

    #[test]
    fn the_simplest_rule_is_found() {
        let rule = |raw: &str, enc: &str| {
            explaining_rule(std::iter::once((raw.as_bytes(), enc.as_bytes())))
        };
        let plus = Enc::default().with(Departure::Plus);
        assert_eq!(rule("a b", "a%20b"), Some((Enc::default(), Depth::Once)));
        assert_eq!(rule("a b", "a+b"), Some((plus, Depth::Once)));
        assert_eq!(rule("a b", "a%2520b"), Some((Enc::default(), Depth::Twice)));
        assert_eq!(rule("a/b", "a/b").map(|r| r.1), Some(Depth::Raw));
        assert_eq!(rule("a b", "zzz"), None);
    }

    #[test]
    fn key_rules_make_the_key_texts_of_the_mistakes() {
        let keys: Vec<String> = KeyRule::ALL
            .iter()
            .map(|r| r.key("c s", "t&").expose().to_owned())
            .collect();
        assert_eq!(keys, ["c%20s&t%26", "c%20s&", "t%26&c%20s", "c s&t&"]);
    }
}
