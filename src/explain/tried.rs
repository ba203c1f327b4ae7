//! The catalogue's mistakes as the signature search tries them
//! ([`search_list`]): each encoder departure at each [`EncodingLevel`],
//! each parameter left out, each other method; how each changes a
//! [`Variant`] ([`Tried::apply`]) and what it says ([`Tried::describe`]).

use std::fmt;

use crate::pipeline::sign::SignatureMethod;

use super::catalogue::{catalogue, encoder_causes, Cause, Change, Mistake};
use super::variant::{set, Enc, Encoder, KeyRule, Variant, ENCODERS};

/// Where a mistaken percent-encoder was used: a library with its own
/// encoder may use it for the parameter names and values, for the base
/// string's outer encoding (the method, the base string URI and the
/// parameter string as a whole, RFC 5849 §3.4.1.1), or for both. The
/// signature search ([`Explainer::signature`](crate::explain::Explainer::signature))
/// tries each, and its finding says which reproduces their signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodingLevel {
    /// The names and values only; the base string then encoded right.
    Values,
    /// The base string's outer encoding only; the names and values in it
    /// encoded right.
    Outer,
    /// Both.
    Both,
}

impl EncodingLevel {
    /// Sets `v`'s encoder at this level to `enc` of what it was: the names'
    /// and values' (`Values`), the outer encoding's (`Outer`), or both.
    pub(super) fn set(self, v: &mut Variant, enc: impl Fn(Enc) -> Enc) {
        if self != EncodingLevel::Outer {
            v.enc = enc(v.enc);
        }
        if self != EncodingLevel::Values {
            v.outer = enc(v.outer);
        }
    }

    /// Every level, the narrowest first.
    pub const ALL: [EncodingLevel; 3] = [
        EncodingLevel::Values,
        EncodingLevel::Outer,
        EncodingLevel::Both,
    ];

    /// `values`, `outer` or `both`.
    pub fn as_str(&self) -> &'static str {
        match self {
            EncodingLevel::Values => "values",
            EncodingLevel::Outer => "outer",
            EncodingLevel::Both => "both",
        }
    }

    /// Where the mistaken encoder is used, after "the same encoder".
    pub(crate) fn used(self) -> &'static str {
        match self {
            EncodingLevel::Values => "used in the parameter names and values only",
            EncodingLevel::Outer => "used in the base string's outer encoding only",
            EncodingLevel::Both => {
                "used both in the parameter names and values and in the base string's outer \
                 encoding"
            }
        }
    }

    /// Where the mistaken encoder is used, after the mistake's sentence.
    fn describe(self) -> &'static str {
        match self {
            EncodingLevel::Values => {
                " in the parameter names and values only (the base string itself is encoded right)"
            }
            EncodingLevel::Outer => {
                " in the base string's outer encoding only (method, URI and parameter string; \
                 the names and values in it are encoded right)"
            }
            EncodingLevel::Both => {
                " both in the parameter names and values and in the base string's outer encoding"
            }
        }
    }
}

impl fmt::Display for EncodingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The real encoders as mistakes: each its own (its sentence is its
/// encoder's, `Tried::describe`).
static NAMED: [Mistake; ENCODERS.len()] = named();

const fn named() -> [Mistake; ENCODERS.len()] {
    let mut out = [Mistake {
        what: "",
        change: Change::Named(0),
    }; ENCODERS.len()];
    let mut i = 0;
    while i < ENCODERS.len() {
        out[i] = Mistake {
            what: ENCODERS[i].name,
            change: Change::Named(i),
        };
        i += 1;
    }
    out
}

/// What a mistake that is tried more than one way is tried with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arg {
    None,
    Level(EncodingLevel),
    Param(u16),
    Method(SignatureMethod),
}

/// One mistake as the signature search tries it: at one encoding level,
/// with one parameter left out, or with one other method.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tried {
    pub cause: Cause,
    mistake: &'static Mistake,
    arg: Arg,
}

impl Tried {
    /// Applies the mistake to `v`; false if `v` already departs there (two
    /// mistakes of one kind do not make a pair).
    pub(crate) fn apply(self, v: &mut Variant) -> bool {
        match (self.mistake.change, self.arg) {
            (Change::Encoder(d), Arg::Level(level)) => {
                // One departure at one level: set at any level already, it
                // does not pair with itself at another (that is `Both`).
                if v.named || v.enc.has(d) || v.outer.has(d) {
                    return false;
                }
                level.set(v, |enc| enc.with(d));
                true
            }
            (Change::Named(i), Arg::Level(level)) => {
                let Some(e) = ENCODERS.get(i) else {
                    return false;
                };
                if v.named || v.enc != Enc::default() || v.outer != Enc::default() {
                    return false;
                }
                v.named = true;
                level.set(v, |_| e.enc);
                true
            }
            (Change::Depth(depth), _) => set(&mut v.depth, depth),
            (Change::Key(rule), _) => set(&mut v.key, rule),
            (Change::Method, Arg::Method(method)) => set(&mut v.method, Some(method)),
            (Change::DropParam, Arg::Param(i)) => set(&mut v.drop_param, Some(i)),
            (Change::Other(change), _) => change(v),
            // The search list gives each change its argument.
            (Change::Encoder(_) | Change::Named(_) | Change::Method | Change::DropParam, _) => {
                false
            }
        }
    }

    /// Where an encoding mistake's encoder is used; `None` for the others.
    pub(crate) fn level(self) -> Option<EncodingLevel> {
        match self.arg {
            Arg::Level(level) => Some(level),
            _ => None,
        }
    }

    /// The real encoder it is, if it is one.
    pub(crate) fn encoder(self) -> Option<&'static Encoder> {
        match self.mistake.change {
            Change::Named(i) => ENCODERS.get(i),
            _ => None,
        }
    }

    /// Every cause it stands for: a real encoder's departures are each
    /// one; any other mistake is its one cause.
    pub(crate) fn causes(self) -> Vec<Cause> {
        match self.encoder() {
            Some(e) => encoder_causes(e.enc).collect(),
            None => vec![self.cause],
        }
    }

    /// Whether the search tries it in a triple: not one request parameter
    /// left out (there may be many), and an encoder only at both levels.
    pub(crate) fn in_triples(self, protocol_param: impl Fn(usize) -> bool) -> bool {
        match self.arg {
            Arg::Param(i) => protocol_param(usize::from(i)),
            Arg::Level(level) => level == EncodingLevel::Both,
            _ => true,
        }
    }

    /// Whether `other` is the same mistake (at another level, or with
    /// another argument).
    pub(crate) fn is_same_mistake(self, other: Tried) -> bool {
        std::ptr::eq(self.mistake, other.mistake)
    }

    /// The parameter left out, by its index in the model.
    pub(crate) fn dropped(self) -> Option<usize> {
        match self.arg {
            Arg::Param(i) => Some(usize::from(i)),
            _ => None,
        }
    }

    /// Whether it changes the key (or the method), not the base string.
    pub(crate) fn keys_only(self) -> bool {
        matches!(self.mistake.change, Change::Key(_) | Change::Method)
    }

    /// What the other side does, in a sentence ("the other side encodes
    /// spaces as `+`..."); `dropped` names the parameter left out.
    pub(crate) fn describe(self, dropped: Option<&str>) -> String {
        let what = self.mistake.what;
        if let (Some(e), Arg::Level(level)) = (self.encoder(), self.arg) {
            return format!(
                "the other side encodes as {} does ({}){}",
                e.name,
                e.says,
                level.describe()
            );
        }
        match self.arg {
            Arg::None => format!("the other side {what}"),
            Arg::Level(level) => format!("the other side {what}{}", level.describe()),
            Arg::Param(_) => format!("the other side {what} {:?}", dropped.unwrap_or("(unknown)")),
            Arg::Method(method) => format!("the other side {what} {method}"),
        }
    }
}

/// Every mistake of the catalogue as the signature search tries it, in
/// catalogue order: each encoder departure at each level (the narrowest
/// first), each parameter of `params` left out, each of `methods` but
/// `method`.
pub(crate) fn search_list(
    method: SignatureMethod,
    methods: &[SignatureMethod],
    params: &[u16],
) -> Vec<Tried> {
    let mut out = Vec::new();
    for entry in catalogue() {
        for mistake in entry.mistakes {
            let tried = |arg| Tried {
                cause: entry.cause,
                mistake,
                arg,
            };
            match mistake.change {
                Change::Encoder(_) => {
                    out.extend(EncodingLevel::ALL.map(|l| tried(Arg::Level(l))));
                }
                Change::Method => out.extend(
                    methods
                        .iter()
                        .filter(|&&m| m != method)
                        .map(|&m| tried(Arg::Method(m))),
                ),
                Change::DropParam => out.extend(params.iter().map(|&i| tried(Arg::Param(i)))),
                _ => out.push(tried(Arg::None)),
            }
        }
    }
    // The real encoders that are more than one catalogued departure (one
    // that is a single departure is that departure: the finding names it).
    for (mistake, e) in NAMED.iter().zip(&ENCODERS) {
        if e.enc.count() < 2 && e.enc.as_catalogued() == e.enc {
            continue;
        }
        let Some(cause) = encoder_causes(e.enc).next() else {
            continue;
        };
        out.extend(EncodingLevel::ALL.map(|l| Tried {
            cause,
            mistake,
            arg: Arg::Level(l),
        }));
    }
    out
}

/// The key mistake that signs with `rule` and `method`, where `ours` is our
/// method: another method with the right key, or a wrong key.
pub(crate) fn key_mistake(
    rule: KeyRule,
    method: SignatureMethod,
    ours: SignatureMethod,
) -> Option<Tried> {
    let entry = Cause::KeyMismatch.entry();
    entry.mistakes.iter().find_map(|mistake| {
        let arg = match mistake.change {
            Change::Key(r) if r == rule => Arg::None,
            Change::Method if rule == KeyRule::Right && method != ours => Arg::Method(method),
            _ => return None,
        };
        Some(Tried {
            cause: entry.cause,
            mistake,
            arg,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::variant::Departure;

    fn list() -> Vec<Tried> {
        search_list(
            SignatureMethod::HmacSha1,
            &[SignatureMethod::HmacSha1, SignatureMethod::HmacSha256],
            &[0, 1],
        )
    }

    #[test]
    fn the_search_list_tries_each_encoder_at_each_level_and_each_parameter_and_method() {
        let list = list();
        let of = |cause| list.iter().filter(move |t| t.cause == cause);
        let levels: Vec<_> = of(Cause::SpaceAsPlus)
            .filter(|t| t.encoder().is_none())
            .map(|t| t.level())
            .collect();
        assert_eq!(
            levels,
            EncodingLevel::ALL.map(Some),
            "the narrowest level first"
        );
        let dropped: Vec<_> = of(Cause::ParamMissing).map(|t| t.dropped()).collect();
        assert_eq!(dropped, [Some(0), Some(1)]);
        // The key rules, and the one other method.
        assert_eq!(of(Cause::KeyMismatch).count(), 5);
        assert!(of(Cause::KeyMismatch).all(|t| t.keys_only()));
        // A cause only a comparison names is never tried.
        assert_eq!(of(Cause::ParamExtra).count(), 0);
        // The real encoders of more than one departure, each at each level,
        // named for their first cause; one of a single departure is that
        // departure (Python's `quote_plus` is `space-as-plus`).
        let named: Vec<&str> = list
            .iter()
            .filter_map(|t| t.encoder().map(|e| e.name))
            .collect();
        assert_eq!(named.len(), 3 * 7, "{named:?}");
        assert!(!named.contains(&"Python's `quote_plus`"));
        let java = list
            .iter()
            .find(|t| t.encoder().is_some_and(|e| e.name.starts_with("Java")))
            .unwrap();
        assert_eq!(java.cause, Cause::SpaceAsPlus);
        assert_eq!(
            java.causes(),
            [
                Cause::SpaceAsPlus,
                Cause::ReservedUnencoded,
                Cause::UnreservedEncoded
            ]
        );
        assert_eq!(
            java.describe(None),
            "the other side encodes as Java's `URLEncoder` does (`+` for a space, `*` left \
             bare, `~` as `%7E`) in the parameter names and values only (the base string \
             itself is encoded right)"
        );
        assert_eq!(
            of(Cause::KeyMismatch).next_back().map(|t| t.describe(None)),
            Some("the other side signs with HMAC-SHA256".to_owned())
        );
        assert_eq!(
            of(Cause::ParamMissing)
                .next()
                .map(|t| t.describe(Some("a"))),
            Some("the other side does not sign parameter \"a\"".to_owned())
        );
    }

    #[test]
    fn a_mistake_applies_once_and_two_of_a_kind_do_not_pair() {
        let list = list();
        let find = |cause, level| {
            *list
                .iter()
                .find(|t| t.cause == cause && t.level() == level)
                .unwrap()
        };
        let plus = |l| find(Cause::SpaceAsPlus, Some(l));
        let mut v = Variant::default();
        assert!(plus(EncodingLevel::Values).apply(&mut v));
        assert!(!plus(EncodingLevel::Values).apply(&mut v));
        assert!(!plus(EncodingLevel::Outer).apply(&mut v));
        assert!(find(Cause::LowercaseHex, Some(EncodingLevel::Outer)).apply(&mut v));
        let (p, l) = (Departure::Plus, Departure::Lower);
        assert_eq!((v.enc.has(p), v.outer.has(p)), (true, false));
        assert_eq!((v.enc.has(l), v.outer.has(l)), (false, true));
        assert!(find(Cause::DoubleEncoded, None).apply(&mut v));
        assert!(!find(Cause::NotEncoded, None).apply(&mut v));
        // No catalogued departure is added to a real encoder, nor it to one.
        let java = *list.iter().find(|t| t.encoder().is_some()).unwrap();
        assert!(!java.apply(&mut v.clone()));
        let mut w = Variant::default();
        assert!(java.apply(&mut w));
        assert!(!find(Cause::LowercaseHex, Some(EncodingLevel::Outer)).apply(&mut w));
        assert!(find(Cause::DefaultPortKept, None).apply(&mut v));
        assert!(!find(Cause::PortDropped, None).apply(&mut v));
    }

    #[test]
    fn key_rules_and_other_methods_are_key_mistakes() {
        let (sha1, sha256) = (SignatureMethod::HmacSha1, SignatureMethod::HmacSha256);
        let key = |rule, method| key_mistake(rule, method, sha1).map(|t| t.describe(None));
        assert_eq!(
            key(KeyRule::Swapped, sha1).as_deref(),
            Some("the other side swaps the consumer secret and the token secret in the key")
        );
        assert_eq!(
            key(KeyRule::Right, sha256).as_deref(),
            Some("the other side signs with HMAC-SHA256")
        );
        assert_eq!(key(KeyRule::Right, sha1), None);
    }
}
