//! The catalogue of wrong rules: each mistake an OAuth 1.0a implementation is
//! known to make, as a small named transformation of how a base string (or
//! key) is built.
//!
//! The right rules are the stages' (`percent_encode`, `Params::normalize`,
//! `BaseStringUri`, `key_string`); a [`Variant`] says which of them a
//! mistaken implementation replaces, and `model.rs` writes the base string
//! that implementation would sign.

use crate::encode::percent_encode;
use crate::sign::SignatureMethod;

use super::{Cause, EncodingLevel};

/// How one side percent-encodes: RFC 5849 §3.6, with zero or more of the
/// known departures. One function, used for parameters, URI and the outer
/// encoding alike (as a mistaken library uses its one encoder everywhere).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Enc {
    /// A space as `+`.
    pub plus: bool,
    /// Lower-case hex digits.
    pub lower: bool,
    /// `! * ' ( )` left bare.
    pub bare: bool,
    /// `~` escaped as `%7E`.
    pub tilde: bool,
}

impl Enc {
    /// Every combination of the departures, the right encoding first.
    pub(crate) fn all() -> impl Iterator<Item = Enc> {
        (0u8..16).map(|bits| Enc {
            plus: bits & 1 != 0,
            lower: bits & 2 != 0,
            bare: bits & 4 != 0,
            tilde: bits & 8 != 0,
        })
    }

    /// How many departures: fewer is a simpler explanation.
    pub(crate) fn count(self) -> u32 {
        u32::from(self.plus) + u32::from(self.lower) + u32::from(self.bare) + u32::from(self.tilde)
    }

    /// The causes this encoding stands for.
    pub(crate) fn causes(self) -> impl Iterator<Item = Cause> {
        [
            (self.plus, Cause::SpaceAsPlus),
            (self.lower, Cause::LowercaseHex),
            (self.bare, Cause::ReservedUnencoded),
            (self.tilde, Cause::UnreservedEncoded),
        ]
        .into_iter()
        .filter_map(|(on, c)| on.then_some(c))
    }

    /// Writes `bytes` encoded this way: the stage's encoding, each piece
    /// then mapped by the departures.
    pub(crate) fn write(self, bytes: &[u8], out: &mut Vec<u8>) {
        if self == Enc::default() {
            percent_encode(bytes).write_to(out);
            return;
        }
        for piece in percent_encode(bytes) {
            let p = piece.as_bytes();
            if p.first() == Some(&b'%') {
                match p {
                    b"%20" if self.plus => out.push(b'+'),
                    b"%21" | b"%2A" | b"%27" | b"%28" | b"%29" if self.bare => out.push(match p {
                        b"%21" => b'!',
                        b"%2A" => b'*',
                        b"%27" => b'\'',
                        b"%28" => b'(',
                        _ => b')',
                    }),
                    _ if self.lower => out.extend(p.iter().map(u8::to_ascii_lowercase)),
                    _ => out.extend_from_slice(p),
                }
            } else if self.tilde {
                for &b in p {
                    if b == b'~' {
                        out.extend_from_slice(if self.lower { b"%7e" } else { b"%7E" });
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
    pub signature: bool,
    pub uni: Uni,
    pub key: KeyRule,
    pub method: Option<SignatureMethod>,
}

/// One catalogued mistake.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mistake {
    SpaceAsPlus(EncodingLevel),
    LowercaseHex(EncodingLevel),
    ReservedUnencoded(EncodingLevel),
    UnreservedEncoded(EncodingLevel),
    DoubleEncoded,
    NotEncoded,
    SortedRaw,
    SortedByPairString,
    DefaultPortKept,
    PortDropped,
    SchemeHostCase,
    OtherXHost,
    PathDecoded,
    PathSlash,
    MethodNotUpperCased,
    MethodSwapped,
    QueryDropped,
    BodyDropped,
    BodyAsForm,
    BodyJsonFields,
    DuplicatesFirst,
    DuplicatesLast,
    ParamDropped(u16),
    VersionToggled,
    RealmSigned,
    Nfc,
    Nfd,
    Latin1,
    TokenSecretMissing,
    SecretsSwapped,
    SecretsNotEncoded,
    KeyMethod(SignatureMethod),
}

impl Mistake {
    /// Every mistake but the per-parameter ones, each encoding departure at
    /// each level (the narrowest first); the model adds one
    /// [`ParamDropped`](Mistake::ParamDropped) per parameter and a
    /// [`KeyMethod`](Mistake::KeyMethod) per other HMAC method.
    pub(crate) const FIXED: [Mistake; 39] = [
        Mistake::SpaceAsPlus(EncodingLevel::Values),
        Mistake::SpaceAsPlus(EncodingLevel::Outer),
        Mistake::SpaceAsPlus(EncodingLevel::Both),
        Mistake::LowercaseHex(EncodingLevel::Values),
        Mistake::LowercaseHex(EncodingLevel::Outer),
        Mistake::LowercaseHex(EncodingLevel::Both),
        Mistake::ReservedUnencoded(EncodingLevel::Values),
        Mistake::ReservedUnencoded(EncodingLevel::Outer),
        Mistake::ReservedUnencoded(EncodingLevel::Both),
        Mistake::UnreservedEncoded(EncodingLevel::Values),
        Mistake::UnreservedEncoded(EncodingLevel::Outer),
        Mistake::UnreservedEncoded(EncodingLevel::Both),
        Mistake::DoubleEncoded,
        Mistake::NotEncoded,
        Mistake::SortedRaw,
        Mistake::SortedByPairString,
        Mistake::DefaultPortKept,
        Mistake::PortDropped,
        Mistake::SchemeHostCase,
        Mistake::OtherXHost,
        Mistake::PathDecoded,
        Mistake::PathSlash,
        Mistake::MethodNotUpperCased,
        Mistake::MethodSwapped,
        Mistake::QueryDropped,
        Mistake::BodyDropped,
        Mistake::BodyAsForm,
        Mistake::BodyJsonFields,
        Mistake::DuplicatesFirst,
        Mistake::DuplicatesLast,
        Mistake::VersionToggled,
        Mistake::RealmSigned,
        Mistake::Nfc,
        Mistake::Nfd,
        Mistake::Latin1,
        Mistake::TokenSecretMissing,
        Mistake::SecretsSwapped,
        Mistake::SecretsNotEncoded,
        // A placeholder the model replaces by the other methods.
        Mistake::KeyMethod(SignatureMethod::HmacSha1),
    ];

    /// The cause this mistake stands for.
    pub(crate) fn cause(self) -> Cause {
        match self {
            Mistake::SpaceAsPlus(_) => Cause::SpaceAsPlus,
            Mistake::LowercaseHex(_) => Cause::LowercaseHex,
            Mistake::ReservedUnencoded(_) => Cause::ReservedUnencoded,
            Mistake::UnreservedEncoded(_) => Cause::UnreservedEncoded,
            Mistake::DoubleEncoded => Cause::DoubleEncoded,
            Mistake::NotEncoded => Cause::NotEncoded,
            Mistake::SortedRaw => Cause::SortedRaw,
            Mistake::SortedByPairString => Cause::SortedByPairString,
            Mistake::DefaultPortKept => Cause::DefaultPortKept,
            Mistake::PortDropped => Cause::PortDropped,
            Mistake::SchemeHostCase => Cause::SchemeHostCase,
            Mistake::OtherXHost => Cause::HostDiffers,
            Mistake::PathDecoded | Mistake::PathSlash => Cause::PathDiffers,
            Mistake::MethodNotUpperCased | Mistake::MethodSwapped => Cause::MethodDiffers,
            Mistake::QueryDropped => Cause::QueryParamMissing,
            Mistake::BodyDropped => Cause::BodyParamMissing,
            Mistake::BodyAsForm | Mistake::BodyJsonFields => Cause::BodySigned,
            Mistake::DuplicatesFirst | Mistake::DuplicatesLast => Cause::DuplicateCollapsed,
            Mistake::ParamDropped(_) => Cause::ParamMissing,
            Mistake::VersionToggled => Cause::OAuthVersionMismatch,
            Mistake::RealmSigned => Cause::RealmSigned,
            Mistake::Nfc | Mistake::Nfd | Mistake::Latin1 => Cause::UnicodeNormalization,
            Mistake::TokenSecretMissing
            | Mistake::SecretsSwapped
            | Mistake::SecretsNotEncoded
            | Mistake::KeyMethod(_) => Cause::KeyMismatch,
        }
    }

    /// Applies the mistake to `v`; false if `v` already departs there (two
    /// mistakes of one kind do not make a pair).
    pub(crate) fn apply(self, v: &mut Variant) -> bool {
        // One departure at one level: set at any level already, it does not
        // pair with itself at another (that is the `Both` mistake).
        fn depart(v: &mut Variant, level: EncodingLevel, bit: fn(&mut Enc) -> &mut bool) -> bool {
            if *bit(&mut v.enc) || *bit(&mut v.outer) {
                return false;
            }
            if level != EncodingLevel::Outer {
                *bit(&mut v.enc) = true;
            }
            if level != EncodingLevel::Values {
                *bit(&mut v.outer) = true;
            }
            true
        }
        fn set<T: PartialEq + Default>(field: &mut T, value: T) -> bool {
            if *field != T::default() {
                return false;
            }
            *field = value;
            true
        }
        match self {
            Mistake::SpaceAsPlus(level) => depart(v, level, |e| &mut e.plus),
            Mistake::LowercaseHex(level) => depart(v, level, |e| &mut e.lower),
            Mistake::ReservedUnencoded(level) => depart(v, level, |e| &mut e.bare),
            Mistake::UnreservedEncoded(level) => depart(v, level, |e| &mut e.tilde),
            Mistake::DoubleEncoded => set(&mut v.depth, Depth::Twice),
            Mistake::NotEncoded => set(&mut v.depth, Depth::Raw),
            Mistake::SortedRaw => set(&mut v.order, Order::Raw),
            Mistake::SortedByPairString => set(&mut v.order, Order::PairString),
            Mistake::DefaultPortKept => !v.drop_port && set(&mut v.default_port, true),
            Mistake::PortDropped => !v.default_port && set(&mut v.drop_port, true),
            Mistake::SchemeHostCase => set(&mut v.keep_case, true),
            Mistake::OtherXHost => set(&mut v.other_host, true),
            Mistake::PathDecoded => set(&mut v.path_decoded, true),
            Mistake::PathSlash => set(&mut v.path_slash, true),
            Mistake::MethodNotUpperCased => set(&mut v.method_as_given, true),
            Mistake::MethodSwapped => set(&mut v.method_swapped, true),
            Mistake::QueryDropped => set(&mut v.drop_query, true),
            Mistake::BodyDropped => set(&mut v.drop_body, true),
            Mistake::BodyAsForm => set(&mut v.body, BodyRule::AsForm),
            Mistake::BodyJsonFields => set(&mut v.body, BodyRule::JsonFields),
            Mistake::DuplicatesFirst => set(&mut v.dups, Dups::First),
            Mistake::DuplicatesLast => set(&mut v.dups, Dups::Last),
            Mistake::ParamDropped(i) => set(&mut v.drop_param, Some(i)),
            Mistake::VersionToggled => set(&mut v.version_toggled, true),
            Mistake::RealmSigned => set(&mut v.realm, true),
            Mistake::Nfc => set(&mut v.uni, Uni::Nfc),
            Mistake::Nfd => set(&mut v.uni, Uni::Nfd),
            Mistake::Latin1 => set(&mut v.uni, Uni::Latin1),
            Mistake::TokenSecretMissing => set(&mut v.key, KeyRule::TokenSecretMissing),
            Mistake::SecretsSwapped => set(&mut v.key, KeyRule::Swapped),
            Mistake::SecretsNotEncoded => set(&mut v.key, KeyRule::NotEncoded),
            Mistake::KeyMethod(m) => set(&mut v.method, Some(m)),
        }
    }

    /// Where an encoding mistake's encoder is used; `None` for the others.
    pub(crate) fn level(self) -> Option<EncodingLevel> {
        match self {
            Mistake::SpaceAsPlus(level)
            | Mistake::LowercaseHex(level)
            | Mistake::ReservedUnencoded(level)
            | Mistake::UnreservedEncoded(level) => Some(level),
            _ => None,
        }
    }

    /// What the other side does, in a sentence ("encodes spaces as `+`").
    pub(crate) fn describe(self, dropped: Option<&str>) -> String {
        let s = match self {
            Mistake::SpaceAsPlus(_) => "encodes spaces as `+` instead of `%20`",
            Mistake::LowercaseHex(_) => "writes percent-escapes with lower-case hex (`%2f`)",
            Mistake::ReservedUnencoded(_) => "leaves `! * ' ( )` unencoded",
            Mistake::UnreservedEncoded(_) => "encodes `~` as `%7E`",
            Mistake::DoubleEncoded => "encodes parameter names and values twice",
            Mistake::NotEncoded => "does not encode parameter names and values",
            Mistake::SortedRaw => "sorts the parameters by their raw bytes, not their encodings",
            Mistake::SortedByPairString => "sorts the parameters by the joined `name=value` text",
            Mistake::DefaultPortKept => {
                "keeps the default port (`:80`/`:443`) in the base string URI"
            }
            Mistake::PortDropped => "drops the port from the base string URI",
            Mistake::SchemeHostCase => "does not lower-case the scheme and host",
            Mistake::OtherXHost => "signs the other X API host (api.twitter.com / api.x.com)",
            Mistake::PathDecoded => "signs the path percent-decoded",
            Mistake::PathSlash => "adds or removes a trailing `/` in the path",
            Mistake::MethodNotUpperCased => "does not upper-case the method",
            Mistake::MethodSwapped => "signs the other method (GET for POST, or POST for GET)",
            Mistake::QueryDropped => "does not sign the query parameters",
            Mistake::BodyDropped => "does not sign the form-body parameters",
            Mistake::BodyAsForm => "signs the (non-form) body as if it were a form body",
            Mistake::BodyJsonFields => "signs the JSON body's fields as parameters",
            Mistake::DuplicatesFirst => "signs only the first value of a repeated name",
            Mistake::DuplicatesLast => "signs only the last value of a repeated name",
            Mistake::ParamDropped(_) => {
                return format!(
                    "does not sign parameter {:?}",
                    dropped.unwrap_or("(unknown)")
                )
            }
            Mistake::VersionToggled => "signs oauth_version where we do not, or not where we do",
            Mistake::RealmSigned => "signs the realm as a parameter",
            Mistake::Nfc => "signs the text in Unicode NFC",
            Mistake::Nfd => "signs the text in Unicode NFD (decomposed)",
            Mistake::Latin1 => "signs non-ASCII text as ISO-8859-1 bytes, not UTF-8",
            Mistake::TokenSecretMissing => {
                "signs without the token secret (key `consumer_secret&`)"
            }
            Mistake::SecretsSwapped => "swaps the consumer secret and the token secret in the key",
            Mistake::SecretsNotEncoded => "does not percent-encode the secrets in the key",
            Mistake::KeyMethod(m) => return format!("signs with {m}"),
        };
        let at = match self.level() {
            Some(EncodingLevel::Values) => {
                " in the parameter names and values only (the base string itself is encoded right)"
            }
            Some(EncodingLevel::Outer) => {
                " in the base string's outer encoding only (method, URI and parameter string; \
                 the names and values in it are encoded right)"
            }
            Some(EncodingLevel::Both) => {
                " both in the parameter names and values and in the base string's outer encoding"
            }
            None => "",
        };
        format!("the other side {s}{at}")
    }
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
        assert_eq!(enc(Enc::default(), s), "a%20b%21~%2F%C3%A9");
        let plus = Enc {
            plus: true,
            ..Enc::default()
        };
        assert_eq!(enc(plus, s), "a+b%21~%2F%C3%A9");
        let lower = Enc {
            lower: true,
            ..Enc::default()
        };
        assert_eq!(enc(lower, s), "a%20b%21~%2f%c3%a9");
        let bare = Enc {
            bare: true,
            ..Enc::default()
        };
        assert_eq!(enc(bare, "(!*')"), "(!*')");
        let tilde = Enc {
            tilde: true,
            ..Enc::default()
        };
        assert_eq!(enc(tilde, s), "a%20b%21%7E%2F%C3%A9");
        assert_eq!(Enc::all().count(), 16);
        assert_eq!(Enc::all().next(), Some(Enc::default()));
    }

    #[test]
    fn a_mistake_applies_once_and_two_of_a_kind_do_not_pair() {
        let mut v = Variant::default();
        assert!(Mistake::SpaceAsPlus(EncodingLevel::Values).apply(&mut v));
        assert!(!Mistake::SpaceAsPlus(EncodingLevel::Values).apply(&mut v));
        assert!(!Mistake::SpaceAsPlus(EncodingLevel::Outer).apply(&mut v));
        assert!(Mistake::LowercaseHex(EncodingLevel::Outer).apply(&mut v));
        assert_eq!((v.enc.plus, v.outer.plus), (true, false));
        assert_eq!((v.enc.lower, v.outer.lower), (false, true));
        assert!(Mistake::DoubleEncoded.apply(&mut v));
        assert!(!Mistake::NotEncoded.apply(&mut v));
        assert!(Mistake::DefaultPortKept.apply(&mut v));
        assert!(!Mistake::PortDropped.apply(&mut v));
    }
}
