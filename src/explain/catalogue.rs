//! The catalogue of causes: one table, each row a [`Cause`] with its stable
//! code, its documentation and the wrong rules (mistakes) the signature
//! search tries for it, each with how it changes a [`Variant`] and what it
//! says the other side does.
//!
//! Everything about causes derives from that one table: the [`Cause`] enum
//! and [`Cause::ALL`], the codes ([`Cause::as_str`]), the list the search
//! tries ([`search_list`]) and the sentence each finding says
//! ([`Tried::describe`]), the causes an encoding rule stands for
//! ([`rule_causes`]), the cause of a protocol parameter's other value
//! ([`value_cause`]).

use std::fmt;
use std::str::FromStr;

use crate::protocol::Name;
use crate::sign::SignatureMethod;

use super::variant::{set, BodyRule, Departure, Depth, Dups, Enc, KeyRule, Order, Uni, Variant};

/// Where the finding of a mistake the signature search tried points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    Method,
    Uri,
    /// The parameters (or, for a parameter left out, that parameter).
    Parameters,
    Key,
}

/// How a mistake changes the way the base string or key is built.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Change {
    /// One of an encoder's departures, tried at each [`EncodingLevel`].
    Encoder(Departure),
    /// Names and values encoded another number of times.
    Depth(Depth),
    /// Another key made of the secrets.
    Key(KeyRule),
    /// Another keyed signature method: tried with each.
    Method,
    /// One parameter left out: tried with each.
    DropParam,
    /// Any other change; false if the variant departs there already.
    Other(fn(&mut Variant) -> bool),
}

/// One wrong rule.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mistake {
    /// What the other side does, after "the other side ": for
    /// [`Change::DropParam`] and [`Change::Method`] the parameter or method
    /// follows.
    pub what: &'static str,
    pub change: Change,
}

const fn m(what: &'static str, change: Change) -> Mistake {
    Mistake { what, change }
}

/// One row of the catalogue.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub cause: Cause,
    pub code: &'static str,
    /// Where the search's findings of this cause point.
    pub place: Place,
    /// For a cause that is another value of one protocol parameter: that
    /// parameter.
    pub value_of: Option<Name>,
    /// The mistakes the signature search tries; none for a cause only a
    /// comparison names.
    pub mistakes: &'static [Mistake],
}

impl Entry {
    /// The fields a row does not name.
    const REST: Entry = Entry {
        cause: Cause::Unexplained,
        code: "",
        place: Place::Parameters,
        value_of: None,
        mistakes: &[],
    };
}

/// Declares [`Cause`] and [`CATALOGUE`] from one list of rows:
/// `doc Variant = "code" { other fields of its Entry };`.
macro_rules! catalogue {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $code:literal $({ $($field:ident: $value:expr),* $(,)? })?;
    )*) => {
        /// Why the other side's signature differs: one entry of the
        /// catalogue, with a stable code ([`as_str`](Self::as_str), also its
        /// `Display`) that tools and logs can rely on.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Cause {
            $(
                #[doc = concat!("`", $code, "`:")]
                $(#[doc = $doc])*
                $variant,
            )*
        }

        impl Cause {
            /// Every cause, in catalogue order.
            pub const ALL: [Cause; [$($code),*].len()] = [$(Cause::$variant),*];
        }

        /// The catalogue, in the order of [`Cause::ALL`]: row `i` is that of
        /// the cause `i`.
        const CATALOGUE: [Entry; [$($code),*].len()] = [$(
            Entry {
                cause: Cause::$variant,
                code: $code,
                $($($field: $value,)*)?
                ..Entry::REST
            },
        )*];
    };
}

use Change::{Encoder, Other};

catalogue! {
    /// a space encoded as `+` rather than `%20`.
    SpaceAsPlus = "space-as-plus" {
        mistakes: &[m("encodes spaces as `+` instead of `%20`", Encoder(Departure::Plus))],
    };
    /// escapes written with lower-case hex (`%2f`, not `%2F`).
    LowercaseHex = "lowercase-hex" {
        mistakes: &[m(
            "writes percent-escapes with lower-case hex (`%2f`)",
            Encoder(Departure::Lower),
        )],
    };
    /// `! * ' ( )` left bare (as `encodeURIComponent` does).
    ReservedUnencoded = "reserved-unencoded" {
        mistakes: &[m("leaves `! * ' ( )` unencoded", Encoder(Departure::Bare))],
    };
    /// an unreserved character escaped (`~` as `%7E`).
    UnreservedEncoded = "unreserved-encoded" {
        mistakes: &[m("encodes `~` as `%7E`", Encoder(Departure::Tilde))],
    };
    /// parameters encoded twice before the base string encodes them once
    /// more (a value given already encoded).
    DoubleEncoded = "double-encoded" {
        mistakes: &[m("encodes parameter names and values twice", Change::Depth(Depth::Twice))],
    };
    /// parameters not encoded before the base string encodes the parameter
    /// string (or that string not encoded at all).
    NotEncoded = "not-encoded" {
        mistakes: &[m("does not encode parameter names and values", Change::Depth(Depth::Raw))],
    };
    /// the same parameters, sorted by their raw (decoded) bytes rather than
    /// by their encodings.
    SortedRaw = "sorted-raw" {
        mistakes: &[m(
            "sorts the parameters by their raw bytes, not their encodings",
            Other(|v| set(&mut v.order, Order::Raw)),
        )],
    };
    /// sorted by the joined `name=value` text rather than by name, then
    /// value.
    SortedByPairString = "sorted-by-pair-string" {
        mistakes: &[m(
            "sorts the parameters by the joined `name=value` text",
            Other(|v| set(&mut v.order, Order::PairString)),
        )],
    };
    /// the parameters are in an order no known rule gives.
    NotSorted = "not-sorted";
    /// `:80` (http) or `:443` (https) kept in the base string URI.
    DefaultPortKept = "default-port-kept" {
        place: Place::Uri,
        mistakes: &[m(
            "keeps the default port (`:80`/`:443`) in the base string URI",
            Other(|v| !v.drop_port && set(&mut v.default_port, true)),
        )],
    };
    /// a port that is not the default left out of the base string URI.
    PortDropped = "port-dropped" {
        place: Place::Uri,
        mistakes: &[m(
            "drops the port from the base string URI",
            Other(|v| !v.default_port && set(&mut v.drop_port, true)),
        )],
    };
    /// another port.
    PortDiffers = "port-differs";
    /// scheme or host not lower-cased.
    SchemeHostCase = "scheme-host-case" {
        place: Place::Uri,
        mistakes: &[m(
            "does not lower-case the scheme and host",
            Other(|v| set(&mut v.keep_case, true)),
        )],
    };
    /// `http` against `https`.
    SchemeDiffers = "scheme-differs";
    /// another host (`api.twitter.com` for `api.x.com`).
    HostDiffers = "host-differs" {
        place: Place::Uri,
        mistakes: &[m(
            "signs the other X API host (api.twitter.com / api.x.com)",
            Other(|v| set(&mut v.other_host, true)),
        )],
    };
    /// another path (decoded, a `/` more or less, empty rather than `/`).
    PathDiffers = "path-differs" {
        place: Place::Uri,
        mistakes: &[
            m("signs the path percent-decoded", Other(|v| set(&mut v.path_decoded, true))),
            m(
                "adds or removes a trailing `/` in the path",
                Other(|v| set(&mut v.path_slash, true)),
            ),
        ],
    };
    /// another method, or the method not upper-cased.
    MethodDiffers = "method-differs" {
        place: Place::Method,
        mistakes: &[
            m("does not upper-case the method", Other(|v| set(&mut v.method_as_given, true))),
            m(
                "signs the other method (GET for POST, or POST for GET)",
                Other(|v| set(&mut v.method_swapped, true)),
            ),
        ],
    };
    /// a query parameter not signed.
    QueryParamMissing = "query-param-missing" {
        mistakes: &[m(
            "does not sign the query parameters",
            Other(|v| set(&mut v.drop_query, true)),
        )],
    };
    /// a form-body parameter not signed.
    BodyParamMissing = "body-param-missing" {
        mistakes: &[m(
            "does not sign the form-body parameters",
            Other(|v| set(&mut v.drop_body, true)),
        )],
    };
    /// a body that is not `application/x-www-form-urlencoded` (a JSON
    /// body) signed as parameters.
    BodySigned = "body-signed" {
        mistakes: &[
            m(
                "signs the (non-form) body as if it were a form body",
                Other(|v| set(&mut v.body, BodyRule::AsForm)),
            ),
            m(
                "signs the JSON body's fields as parameters",
                Other(|v| set(&mut v.body, BodyRule::JsonFields)),
            ),
        ],
    };
    /// a name given more than once signed once.
    DuplicateCollapsed = "duplicate-collapsed" {
        mistakes: &[
            m(
                "signs only the first value of a repeated name",
                Other(|v| set(&mut v.dups, Dups::First)),
            ),
            m(
                "signs only the last value of a repeated name",
                Other(|v| set(&mut v.dups, Dups::Last)),
            ),
        ],
    };
    /// a parameter we sign is not in theirs.
    ParamMissing = "param-missing" {
        mistakes: &[m("does not sign parameter", Change::DropParam)],
    };
    /// they sign a parameter we do not.
    ParamExtra = "param-extra";
    /// a parameter has another value, not explained by any encoding
    /// mistake.
    ValueDiffers = "value-differs";
    /// `oauth_version` signed by one side only, or with another value.
    OAuthVersionMismatch = "oauth-version-mismatch" {
        value_of: Some(Name::Version),
        mistakes: &[m(
            "signs oauth_version where we do not, or not where we do",
            Other(|v| set(&mut v.version_toggled, true)),
        )],
    };
    /// `realm` signed as a parameter (§3.4.1.3.1 leaves it out).
    RealmSigned = "realm-signed" {
        mistakes: &[m("signs the realm as a parameter", Other(|v| set(&mut v.realm, true)))],
    };
    /// another realm in the header (it is never signed, but a provider may
    /// check it).
    RealmDiffers = "realm-differs";
    /// `oauth_signature` signed as a parameter.
    SignatureSigned = "signature-signed";
    /// another `oauth_timestamp`.
    TimestampDiffers = "timestamp-differs" { value_of: Some(Name::Timestamp) };
    /// another `oauth_nonce`.
    NonceDiffers = "nonce-differs" { value_of: Some(Name::Nonce) };
    /// another `oauth_consumer_key`.
    ConsumerKeyDiffers = "consumer-key-differs" { value_of: Some(Name::ConsumerKey) };
    /// another `oauth_token` (or one side has none).
    TokenDiffers = "token-differs" { value_of: Some(Name::Token) };
    /// another `oauth_signature_method`.
    SignatureMethodDiffers = "signature-method-differs" {
        value_of: Some(Name::SignatureMethod),
    };
    /// the same text in another Unicode normalisation form (NFC against
    /// NFD), or not encoded as UTF-8.
    UnicodeNormalization = "unicode-normalization" {
        mistakes: &[
            m("signs the text in Unicode NFC", Other(|v| set(&mut v.uni, Uni::Nfc))),
            m("signs the text in Unicode NFD (decomposed)", Other(|v| set(&mut v.uni, Uni::Nfd))),
            m(
                "signs non-ASCII text as ISO-8859-1 bytes, not UTF-8",
                Other(|v| set(&mut v.uni, Uni::Latin1)),
            ),
        ],
    };
    /// the same base string signed with another key; the finding's detail
    /// says which part is suspect.
    KeyMismatch = "key-mismatch" {
        place: Place::Key,
        mistakes: &[
            m(
                "signs without the token secret (key `consumer_secret&`)",
                Change::Key(KeyRule::TokenSecretMissing),
            ),
            m(
                "swaps the consumer secret and the token secret in the key",
                Change::Key(KeyRule::Swapped),
            ),
            m(
                "does not percent-encode the secrets in the key",
                Change::Key(KeyRule::NotEncoded),
            ),
            m("signs with", Change::Method),
        ],
    };
    /// nothing in the catalogue accounts for the difference.
    Unexplained = "unexplained";
}

/// The whole catalogue, in the order of [`Cause::ALL`].
fn catalogue() -> &'static [Entry] {
    &CATALOGUE
}

impl Cause {
    /// The stable code, such as `space-as-plus`.
    pub fn as_str(&self) -> &'static str {
        self.entry().code
    }

    pub(crate) fn entry(self) -> &'static Entry {
        // Row `i` is the cause `i`: both come from the one list above.
        &catalogue()[self as usize]
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The code is not one of [`Cause::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCause(pub String);

impl fmt::Display for UnknownCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown cause code {:?}", self.0)
    }
}

impl std::error::Error for UnknownCause {}

impl FromStr for Cause {
    type Err = UnknownCause;

    /// Parses a code such as `space-as-plus`.
    fn from_str(s: &str) -> Result<Cause, UnknownCause> {
        catalogue()
            .iter()
            .find(|e| e.code == s)
            .map(|e| e.cause)
            .ok_or_else(|| UnknownCause(s.to_owned()))
    }
}

/// Where a mistaken percent-encoder was used: a library with its own
/// encoder may use it for the parameter names and values, for the base
/// string's outer encoding (the method, the base string URI and the
/// parameter string as a whole, RFC 5849 §3.4.1.1), or for both. The
/// signature search ([`Explainer::signature`](crate::Explainer::signature))
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
                if v.enc.has(d) || v.outer.has(d) {
                    return false;
                }
                if level != EncodingLevel::Outer {
                    v.enc = v.enc.with(d);
                }
                if level != EncodingLevel::Values {
                    v.outer = v.outer.with(d);
                }
                true
            }
            (Change::Depth(depth), _) => set(&mut v.depth, depth),
            (Change::Key(rule), _) => set(&mut v.key, rule),
            (Change::Method, Arg::Method(method)) => set(&mut v.method, Some(method)),
            (Change::DropParam, Arg::Param(i)) => set(&mut v.drop_param, Some(i)),
            (Change::Other(change), _) => change(v),
            // The search list gives each change its argument.
            (Change::Encoder(_) | Change::Method | Change::DropParam, _) => false,
        }
    }

    /// Where an encoding mistake's encoder is used; `None` for the others.
    pub(crate) fn level(self) -> Option<EncodingLevel> {
        match self.arg {
            Arg::Level(level) => Some(level),
            _ => None,
        }
    }

    /// The parameter left out, by its index in the model.
    pub(crate) fn dropped(self) -> Option<usize> {
        match self.arg {
            Arg::Param(i) => Some(usize::from(i)),
            _ => None,
        }
    }

    /// Where its finding points.
    pub(crate) fn place(self) -> Place {
        self.cause.entry().place
    }

    /// Whether it changes the key (or the method), not the base string.
    pub(crate) fn keys_only(self) -> bool {
        matches!(self.mistake.change, Change::Key(_) | Change::Method)
    }

    /// What the other side does, in a sentence ("the other side encodes
    /// spaces as `+`..."); `dropped` names the parameter left out.
    pub(crate) fn describe(self, dropped: Option<&str>) -> String {
        let what = self.mistake.what;
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

/// The causes of an encoder's departures.
pub(crate) fn encoder_causes(enc: Enc) -> impl Iterator<Item = Cause> {
    catalogue().iter().filter_map(move |e| {
        e.mistakes
            .iter()
            .any(|m| matches!(m.change, Change::Encoder(d) if enc.has(d)))
            .then_some(e.cause)
    })
}

/// Whether a cause is one of an encoder's departures (which have a level).
pub(crate) fn is_encoder(cause: Cause) -> bool {
    cause
        .entry()
        .mistakes
        .iter()
        .any(|m| matches!(m.change, Change::Encoder(_)))
}

/// The causes an encoding rule stands for: its encoder's departures, and
/// encoding twice; or not encoding at all alone.
pub(crate) fn rule_causes((enc, depth): (Enc, Depth)) -> Vec<Cause> {
    let by_depth = catalogue().iter().find(|e| {
        e.mistakes
            .iter()
            .any(|m| matches!(m.change, Change::Depth(d) if d == depth))
    });
    match (depth, by_depth) {
        (Depth::Raw, Some(e)) => vec![e.cause],
        (_, by_depth) => encoder_causes(enc)
            .chain(by_depth.map(|e| e.cause))
            .collect(),
    }
}

/// The cause of another value of a parameter with this name: the
/// protocol parameter's own cause, or `value-differs`.
pub(crate) fn value_cause(name: &[u8]) -> Cause {
    catalogue()
        .iter()
        .find(|e| e.value_of.is_some_and(|n| n.as_str().as_bytes() == name))
        .map_or(Cause::ValueDiffers, |e| e.cause)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codes_are_the_published_ones_in_catalogue_order() {
        // The stable codes of `oauth1 explain --format json` and
        // fixtures/explain.json, as published: none may change.
        let codes: Vec<&str> = Cause::ALL.iter().map(Cause::as_str).collect();
        assert_eq!(
            codes,
            [
                "space-as-plus",
                "lowercase-hex",
                "reserved-unencoded",
                "unreserved-encoded",
                "double-encoded",
                "not-encoded",
                "sorted-raw",
                "sorted-by-pair-string",
                "not-sorted",
                "default-port-kept",
                "port-dropped",
                "port-differs",
                "scheme-host-case",
                "scheme-differs",
                "host-differs",
                "path-differs",
                "method-differs",
                "query-param-missing",
                "body-param-missing",
                "body-signed",
                "duplicate-collapsed",
                "param-missing",
                "param-extra",
                "value-differs",
                "oauth-version-mismatch",
                "realm-signed",
                "realm-differs",
                "signature-signed",
                "timestamp-differs",
                "nonce-differs",
                "consumer-key-differs",
                "token-differs",
                "signature-method-differs",
                "unicode-normalization",
                "key-mismatch",
                "unexplained",
            ]
        );
        assert_eq!(Cause::SpaceAsPlus.as_str(), "space-as-plus");
        assert_eq!(Cause::Unexplained.to_string(), "unexplained");
    }

    #[test]
    fn codes_are_distinct_kebab_case_and_parse_back() {
        let mut seen = std::collections::HashSet::new();
        for (i, c) in Cause::ALL.into_iter().enumerate() {
            assert_eq!(c.entry().cause, c);
            assert_eq!(c as usize, i);
            let code = c.as_str();
            assert!(seen.insert(code), "{code}");
            assert!(code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'));
            assert_eq!(code.parse::<Cause>(), Ok(c));
            assert_eq!(c.to_string(), code);
        }
        assert!("nope".parse::<Cause>().is_err());
    }

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
        let levels: Vec<_> = of(Cause::SpaceAsPlus).map(|t| t.level()).collect();
        assert_eq!(
            levels,
            EncodingLevel::ALL.map(Some),
            "the narrowest level first"
        );
        let dropped: Vec<_> = of(Cause::ParamMissing).map(|t| t.dropped()).collect();
        assert_eq!(dropped, [Some(0), Some(1)]);
        // The key rules, and the one other method.
        assert_eq!(of(Cause::KeyMismatch).count(), 4);
        assert!(of(Cause::KeyMismatch).all(|t| t.keys_only()));
        // A cause only a comparison names is never tried.
        assert_eq!(of(Cause::NotSorted).count(), 0);
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
        assert!(find(Cause::DefaultPortKept, None).apply(&mut v));
        assert!(!find(Cause::PortDropped, None).apply(&mut v));
    }

    #[test]
    fn rules_values_and_keys_name_their_causes() {
        let plus = Enc::default().with(Departure::Plus);
        assert_eq!(rule_causes((plus, Depth::Once)), [Cause::SpaceAsPlus]);
        assert_eq!(
            rule_causes((plus, Depth::Twice)),
            [Cause::SpaceAsPlus, Cause::DoubleEncoded]
        );
        assert_eq!(rule_causes((plus, Depth::Raw)), [Cause::NotEncoded]);
        assert_eq!(rule_causes((Enc::default(), Depth::Once)), []);
        assert!(is_encoder(Cause::UnreservedEncoded) && !is_encoder(Cause::DoubleEncoded));
        assert_eq!(value_cause(b"oauth_nonce"), Cause::NonceDiffers);
        assert_eq!(value_cause(b"oauth_version"), Cause::OAuthVersionMismatch);
        assert_eq!(value_cause(b"status"), Cause::ValueDiffers);
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
