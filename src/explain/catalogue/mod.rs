//! The catalogue of causes: one table, each row a [`Cause`] with its stable
//! code, its documentation and the wrong rules (mistakes) the signature
//! search tries for it, each with how it changes a
//! [`Variant`](super::variant::Variant) and what it says the other side does.
//!
//! Everything about causes derives from that one table: the [`Cause`] enum
//! and [`Cause::ALL`], the codes ([`Cause::as_str`]), the list the search
//! tries and the sentence each finding says (`tried.rs`), the causes an
//! encoding rule stands for ([`rule_causes`]), the cause of a protocol
//! parameter's other value ([`value_cause`]).

use std::fmt;
use std::str::FromStr;

use crate::pipeline::protocol::Name;

use super::variant::{set, BodyRule, Departure, Depth, Dups, Enc, KeyRule, Order, Uni};

mod mistake;

use mistake::m;
pub(crate) use mistake::{Change, Mistake, Place};

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
    /// What to change, in one sentence addressed to whoever computed the
    /// other side's signature.
    pub fix: &'static str,
}

impl Entry {
    /// The fields a row does not name.
    const REST: Entry = Entry {
        cause: Cause::Unexplained,
        code: "",
        place: Place::Parameters,
        value_of: None,
        mistakes: &[],
        fix: "",
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
        fix: "Encode each space as `%20`, never `+`, in every name and value.",
        mistakes: &[m("encodes spaces as `+` instead of `%20`", Encoder(Departure::Plus))],
    };
    /// escapes written with lower-case hex (`%2f`, not `%2F`).
    LowercaseHex = "lowercase-hex" {
        fix: "Upper-case the hex digits of every escape: `%2F`, not `%2f`.",
        mistakes: &[m(
            "writes percent-escapes with lower-case hex (`%2f`)",
            Encoder(Departure::Lower),
        )],
    };
    /// `! * ' ( )` left bare (as `encodeURIComponent` does).
    ReservedUnencoded = "reserved-unencoded" {
        fix: "Percent-encode `! * ' ( )` as `%21 %2A %27 %28 %29` (JavaScript's `encodeURIComponent` leaves them bare).",
        mistakes: &[m("leaves `! * ' ( )` unencoded", Encoder(Departure::Bare))],
    };
    /// an unreserved character escaped (`~` as `%7E`).
    UnreservedEncoded = "unreserved-encoded" {
        fix: "Leave `A-Z a-z 0-9 - . _ ~` as they are: `~` stays `~`, not `%7E`.",
        mistakes: &[m("encodes `~` as `%7E`", Encoder(Departure::Tilde))],
    };
    /// parameters encoded twice before the base string encodes them once
    /// more (a value given already encoded).
    DoubleEncoded = "double-encoded" {
        fix: "Encode each name and value once: give the raw value, not one already percent-encoded.",
        mistakes: &[m("encodes parameter names and values twice", Change::Depth(Depth::Twice))],
    };
    /// parameters not encoded before the base string encodes the parameter
    /// string (or that string not encoded at all).
    NotEncoded = "not-encoded" {
        fix: "Percent-encode each name and value before joining them, then encode the joined parameter string once more.",
        mistakes: &[m("does not encode parameter names and values", Change::Depth(Depth::Raw))],
    };
    /// the same parameters, sorted by their raw (decoded) bytes rather than
    /// by their encodings.
    SortedRaw = "sorted-raw" {
        fix: "Sort the parameters by their encoded names, then encoded values, not by the raw text.",
        mistakes: &[m(
            "sorts the parameters by their raw bytes, not their encodings",
            Other(|v| set(&mut v.order, Order::Raw)),
        )],
    };
    /// sorted by the joined `name=value` text rather than by name, then
    /// value.
    SortedByPairString = "sorted-by-pair-string" {
        fix: "Sort by encoded name first, then by encoded value, not by the joined `name=value` text.",
        mistakes: &[m(
            "sorts the parameters by the joined `name=value` text",
            Other(|v| set(&mut v.order, Order::PairString)),
        )],
    };
    /// the parameters are in an order no known rule gives.
    NotSorted = "not-sorted" {
        fix: "Sort the parameters by encoded name, then by encoded value, in byte order.",
        mistakes: &[
            m(
                "does not sort the parameters (signs them in the order collected: query, \
                 `oauth_` parameters, body)",
                Other(|v| set(&mut v.order, Order::Collected)),
            ),
            m(
                "sorts the parameters by name only (a stable sort: the values of a repeated \
                 name stay in the order given)",
                Other(|v| set(&mut v.order, Order::NameOnly)),
            ),
        ],
    };
    /// `:80` (http) or `:443` (https) kept in the base string URI.
    DefaultPortKept = "default-port-kept" {
        fix: "Drop `:80` from an http URL and `:443` from an https URL in the base string URI.",
        place: Place::Uri,
        mistakes: &[m(
            "keeps the default port (`:80`/`:443`) in the base string URI",
            Other(|v| !v.drop_port && set(&mut v.default_port, true)),
        )],
    };
    /// a port that is not the default left out of the base string URI.
    PortDropped = "port-dropped" {
        fix: "Keep a port that is not the default (such as `:8080`) in the base string URI.",
        place: Place::Uri,
        mistakes: &[m(
            "drops the port from the base string URI",
            Other(|v| !v.default_port && set(&mut v.drop_port, true)),
        )],
    };
    /// another port.
    PortDiffers = "port-differs" {
        fix: "Sign the port the request is sent to.",
    };
    /// scheme or host not lower-cased.
    SchemeHostCase = "scheme-host-case" {
        fix: "Lower-case the scheme and the host in the base string URI.",
        place: Place::Uri,
        mistakes: &[m(
            "does not lower-case the scheme and host",
            Other(|v| set(&mut v.keep_case, true)),
        )],
    };
    /// `http` against `https`.
    SchemeDiffers = "scheme-differs" {
        fix: "Sign the scheme the request is sent over (`https` if the URL says so).",
        place: Place::Uri,
        mistakes: &[m(
            "signs `http` for `https` (or `https` for `http`), as a client behind a \
             TLS-terminating proxy that signs the URL it sees does",
            Other(|v| set(&mut v.scheme_swapped, true)),
        )],
    };
    /// another host (`api.twitter.com` for `api.x.com`).
    HostDiffers = "host-differs" {
        fix: "Sign the host the request is sent to (`api.x.com` and `api.twitter.com` differ).",
        place: Place::Uri,
        mistakes: &[m(
            "signs the other X API host (api.twitter.com / api.x.com)",
            Other(|v| set(&mut v.other_host, true)),
        )],
    };
    /// another path (decoded, a `/` more or less, empty rather than `/`).
    PathDiffers = "path-differs" {
        fix: "Sign the path exactly as it is sent: still encoded, with the same trailing `/`.",
        place: Place::Uri,
        mistakes: &[
            m(
                "signs the path percent-decoded",
                Other(|v| !v.path_tilde && set(&mut v.path_decoded, true)),
            ),
            m(
                "adds or removes a trailing `/` in the path",
                Other(|v| set(&mut v.path_slash, true)),
            ),
            m(
                "signs an empty path as empty, not `/`",
                Other(|v| set(&mut v.path_empty, true)),
            ),
            m(
                "escapes `~` in the path as `%7E`",
                Other(|v| !v.path_decoded && set(&mut v.path_tilde, true)),
            ),
            m(
                "keeps the query (`?...`) in the base string URI",
                Other(|v| set(&mut v.query_in_uri, true)),
            ),
            m(
                "keeps the fragment (`#...`) in the base string URI (it is never sent)",
                Other(|v| set(&mut v.fragment_in_uri, true)),
            ),
        ],
    };
    /// another method, or the method not upper-cased.
    MethodDiffers = "method-differs" {
        fix: "Sign the HTTP method the request is sent with, in upper case.",
        place: Place::Method,
        mistakes: &[
            m(
                "does not upper-case the method",
                Other(|v| !v.method_lower && set(&mut v.method_as_given, true)),
            ),
            m(
                "signs the method in lower case (`post`)",
                Other(|v| !v.method_as_given && set(&mut v.method_lower, true)),
            ),
            m("signs HEAD as GET", Other(|v| set(&mut v.head_as_get, true))),
            m(
                "signs the other method (GET for POST, or POST for GET)",
                Other(|v| set(&mut v.method_swapped, true)),
            ),
        ],
    };
    /// a query parameter not signed.
    QueryParamMissing = "query-param-missing" {
        fix: "Sign the query's parameters too.",
        mistakes: &[m(
            "does not sign the query parameters",
            Other(|v| set(&mut v.drop_query, true)),
        )],
    };
    /// a form-body parameter not signed.
    BodyParamMissing = "body-param-missing" {
        fix: "Sign the parameters of an `application/x-www-form-urlencoded` body too.",
        mistakes: &[m(
            "does not sign the form-body parameters",
            Other(|v| set(&mut v.drop_body, true)),
        )],
    };
    /// a body that is not `application/x-www-form-urlencoded` (a JSON
    /// body) signed as parameters.
    BodySigned = "body-signed" {
        fix: "Leave a body that is not `application/x-www-form-urlencoded` (such as JSON) out of the signature.",
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
        fix: "Sign every value of a name that is given more than once, not just one of them.",
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
        fix: "Sign this parameter too: every query, form-body and `oauth_` parameter is signed.",
        mistakes: &[m("does not sign parameter", Change::DropParam)],
    };
    /// they sign a parameter we do not.
    ParamExtra = "param-extra" {
        fix: "Sign only the parameters the request sends: drop this one, or send it.",
    };
    /// a parameter has another value, not explained by any encoding
    /// mistake.
    ValueDiffers = "value-differs" {
        fix: "Sign the value that the request sends.",
    };
    /// `oauth_version` signed by one side only, or with another value.
    OAuthVersionMismatch = "oauth-version-mismatch" {
        fix: "Sign `oauth_version` only when the request sends it, with the value it sends (`1.0`).",
        value_of: Some(Name::Version),
        mistakes: &[m(
            "signs oauth_version where we do not, or not where we do",
            Other(|v| !v.version_1_0a && set(&mut v.version_toggled, true)),
        ), m(
            "signs `oauth_version` as `1.0a` (the protocol's name, not its version value)",
            Other(|v| !v.version_toggled && set(&mut v.version_1_0a, true)),
        )],
    };
    /// `realm` signed as a parameter (§3.4.1.3.1 leaves it out).
    RealmSigned = "realm-signed" {
        fix: "Leave `realm` out of the signed parameters: it is sent in the header only.",
        mistakes: &[m("signs the realm as a parameter", Other(|v| set(&mut v.realm, true)))],
    };
    /// another realm in the header (it is never signed, but a provider may
    /// check it).
    RealmDiffers = "realm-differs" {
        fix: "Send the realm the provider expects.",
    };
    /// `oauth_signature` signed as a parameter.
    SignatureSigned = "signature-signed" {
        fix: "Leave `oauth_signature` out of the signed parameters.",
        mistakes: &[m(
            "signs `oauth_signature` (empty) as a parameter",
            Other(|v| set(&mut v.signature_signed, true)),
        )],
    };
    /// another `oauth_timestamp`.
    TimestampDiffers = "timestamp-differs" {
        fix: "Sign and send one and the same `oauth_timestamp`, in seconds.",
        value_of: Some(Name::Timestamp),
        mistakes: &[m(
            "signs the timestamp in milliseconds (or in seconds where milliseconds are sent)",
            Other(|v| set(&mut v.timestamp_ms, true)),
        )],
    };
    /// another `oauth_nonce`.
    NonceDiffers = "nonce-differs" {
        fix: "Sign and send one and the same `oauth_nonce`.",
        value_of: Some(Name::Nonce),
    };
    /// another `oauth_consumer_key`.
    ConsumerKeyDiffers = "consumer-key-differs" {
        fix: "Sign with the consumer key of the app whose consumer secret makes the key.",
        value_of: Some(Name::ConsumerKey),
    };
    /// another `oauth_token` (or one side has none).
    TokenDiffers = "token-differs" {
        fix: "Sign with the token the request sends (no token at all for a request-token call).",
        value_of: Some(Name::Token),
    };
    /// another `oauth_signature_method`.
    SignatureMethodDiffers = "signature-method-differs" {
        fix: "Use the same `oauth_signature_method` on both sides.",
        value_of: Some(Name::SignatureMethod),
    };
    /// the same text in another Unicode normalisation form (NFC against
    /// NFD), or not encoded as UTF-8.
    UnicodeNormalization = "unicode-normalization" {
        fix: "Sign the text's UTF-8 bytes exactly as sent: neither NFC nor NFD normalisation, nor ISO-8859-1.",
        mistakes: &[
            m("signs the text in Unicode NFC", Other(|v| set(&mut v.uni, Uni::Nfc))),
            m("signs the text in Unicode NFD (decomposed)", Other(|v| set(&mut v.uni, Uni::Nfd))),
            m(
                "signs non-ASCII text as ISO-8859-1 bytes, not UTF-8",
                Other(|v| set(&mut v.uni, Uni::Latin1)),
            ),
            m(
                "decodes the query as ISO-8859-1 (its UTF-8 bytes read as Latin-1 characters, \
                 as Tomcat does by default)",
                Other(|v| set(&mut v.uni, Uni::QueryLatin1)),
            ),
        ],
    };
    /// the same base string signed with another key; the finding's detail
    /// says which part is suspect.
    KeyMismatch = "key-mismatch" {
        fix: "Make the key `encode(consumer secret)&encode(token secret)`: both secrets, in that order, each encoded, the `&` always there.",
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
            m(
                "joins the secrets without the `&` (with no token, the key is the consumer \
                 secret alone)",
                Change::Key(KeyRule::NoAmpersand),
            ),
            m("signs with", Change::Method),
        ],
    };
    /// nothing in the catalogue accounts for the difference.
    Unexplained = "unexplained" {
        fix: "Compare the base strings part by part: paste theirs to see where they part.",
    };
}

/// The whole catalogue, in the order of [`Cause::ALL`].
pub(crate) fn catalogue() -> &'static [Entry] {
    &CATALOGUE
}

impl Cause {
    /// The stable code, such as `space-as-plus`.
    pub fn as_str(&self) -> &'static str {
        self.entry().code
    }

    /// What to change, in one sentence addressed to whoever computed the
    /// other side's signature: for [`Cause::LowercaseHex`], "Upper-case the
    /// hex digits of every escape: \`%2F\`, not \`%2f\`." Code is marked
    /// with backticks, as the mistakes' sentences mark it.
    pub fn fix(&self) -> &'static str {
        self.entry().fix
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

/// The causes of an encoder's departures.
pub(crate) fn encoder_causes(enc: Enc) -> impl Iterator<Item = Cause> {
    let enc = enc.as_catalogued();
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

    #[test]
    fn every_cause_says_its_fix_in_one_sentence() {
        for c in Cause::ALL {
            let fix = c.fix();
            assert!(
                fix.starts_with(|ch: char| ch.is_ascii_uppercase()),
                "{c}: {fix}"
            );
            assert!(fix.ends_with('.') && !fix.contains('\n'), "{c}: {fix}");
            assert_eq!(fix.matches('`').count() % 2, 0, "{c}: {fix}");
        }
        assert_eq!(
            Cause::SpaceAsPlus.fix(),
            "Encode each space as `%20`, never `+`, in every name and value."
        );
        assert_eq!(
            Cause::LowercaseHex.fix(),
            "Upper-case the hex digits of every escape: `%2F`, not `%2f`."
        );
    }

    #[test]
    fn rules_and_values_name_their_causes() {
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
    }
}
