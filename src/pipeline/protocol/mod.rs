//! The protocol parameters a request sends ([RFC 5849 §3.1]): the one list of
//! their names ([`Name`]), the one rule of each value that has one
//! ([`Nonce`], [`Timestamp`]), a signer's own, and the one run of them that
//! a request sends.
//!
//! Every protocol parameter name starts with `oauth_`, and no request
//! parameter's may (a signer refuses one), so in the normalised parameters
//! the protocol parameters always sort as one run. A signer builds that run,
//! [`ProtocolParams`], once for each request, sorted; the parameter string
//! (`normalize.rs`) and the header (`header.rs`) each write it in their own
//! format, and this module knows neither format.
//!
//! What a signer knows ahead of time stays data ([`Own`]): its fixed values
//! (the consumer key, the token, the signature method, the version and a
//! pinned nonce or timestamp), whether each needs an escape, so that a
//! clean one is copied, and each run of clean ones as the two writers wrote
//! it when the signer was built ([`Joined`]), so that it is copied whole. A
//! fresh nonce or timestamp, a callback, a verifier and the request's extra
//! parameters are filled in per request.
//!
//! [RFC 5849 §3.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.1

use std::borrow::Cow;

use smallvec::SmallVec;

use crate::error::{Error, ErrorKind, Part};
use crate::text::repeat::first_repeat;
use crate::text::value::cmp_encoded;
use crate::text::word::{self, names};

mod kept;
mod name;
mod run;
mod values;

pub(crate) use kept::{token, Kept};
pub use name::Name;
#[cfg_attr(not(feature = "explain"), allow(unused_imports))]
pub(crate) use name::NAMES;
pub(crate) use run::{Form, Joined, Own, ProtocolParam, ProtocolParams, Value};
pub use values::{Nonce, Timestamp};

/// The prefix of every protocol parameter's name (§3.1), which no other
/// parameter's may start with.
pub const PROTOCOL_PREFIX: &str = "oauth_";

/// Whether `name` is a protocol parameter's (RFC 5849 §3.1: it starts with
/// `oauth_`), a registered one or an extension's.
pub fn is_protocol_name(name: &[u8]) -> bool {
    name.starts_with(PROTOCOL_PREFIX.as_bytes())
}

/// Where a request's protocol parameters are sent (RFC 5849 §3.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Transmission {
    /// The `Authorization` header (§3.5.1), the default.
    #[default]
    Header,
    /// The `application/x-www-form-urlencoded` body (§3.5.2).
    FormBody,
    /// The query of the request URL (§3.5.3).
    Query,
}

impl Transmission {
    /// The part of the request it is: [`Part::Header`], [`Part::FormBody`]
    /// or [`Part::Url`] (offsets in errors count there).
    pub fn part(self) -> Part {
        match self {
            Transmission::Header => Part::Header,
            Transmission::FormBody => Part::FormBody,
            Transmission::Query => Part::Url,
        }
    }
}

impl Transmission {
    /// Every transmission, in the order above.
    pub const ALL: [Transmission; 3] = [
        Transmission::Header,
        Transmission::FormBody,
        Transmission::Query,
    ];

    /// Their names, in the same order.
    pub const NAMES: [&'static str; 3] = names!(Transmission::ALL);

    /// Its name, the one vocabulary of the library, the `oauth1` flags
    /// (`--transmission`), the request file (`"transmission"`), the page
    /// and the docs: `header`, `form-body`, `query`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Transmission::Header => "header",
            Transmission::FormBody => "form-body",
            Transmission::Query => "query",
        }
    }
}

impl std::str::FromStr for Transmission {
    type Err = Error;

    /// The transmission of that [name](Transmission::NAMES), ASCII case aside.
    ///
    /// # Errors
    /// [`ErrorKind::UnknownName`] for any other word, naming it and the
    /// transmissions' names.
    fn from_str(s: &str) -> Result<Transmission, Error> {
        word::parse("transmission", &Self::ALL, &Self::NAMES, s)
    }
}

impl std::fmt::Display for Transmission {
    /// `header`, `query`, `form-body`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One protocol parameter as read: decoded name and value, and the byte
/// offset of its name in the text it was read from.
#[derive(Clone, Debug)]
struct Entry<'a> {
    name: Cow<'a, str>,
    value: Cow<'a, str>,
    /// The registered name it is ([`Name::from_name`], found once as it is
    /// read), `None` for an extension's: what lookups and sorts compare,
    /// one byte, instead of the name's text.
    id: Option<Name>,
    at: usize,
    /// Known to be of unreserved bytes only, name and value, so written as
    /// it is (the header's parser knows it from its own scan); `false` is
    /// "not known", never "not clean".
    clean: bool,
}

impl PartialEq for Entry<'_> {
    /// The parameter, whatever was known of its bytes.
    fn eq(&self, other: &Self) -> bool {
        (&self.name, &self.value, self.at) == (&other.name, &other.value, other.at)
    }
}

impl Eq for Entry<'_> {}

/// The protocol parameters of one request, as a verifier reads them or a
/// signer sends them: the one model every side shares. Every name starts
/// with `oauth_` (§3.1), each is there once (§3.5), all in one
/// [`Transmission`], with the header's `realm` (never signed) beside them.
/// Names and values are decoded, borrowed from the text read where decoding
/// changed nothing.
///
/// [`Protocol::from_header`] reads an `Authorization` header; the verifier
/// ([`Rejection::protocol`](crate::verify::Rejection::protocol),
/// [`Verified::protocol`](crate::verify::Verified::protocol)) gives what it
/// found wherever it was; [`Signed::protocol`](crate::Signed::protocol) what
/// a signer sent.
///
/// ```
/// use oauth1_signer::{Name, Protocol, Transmission};
///
/// let p = Protocol::from_header(r#"OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03", oauth_nonce="wIjqoS", oauth_body%5Fhash="2jmj7l5rSw0yVb%2FvlWAYkK%2FYBwk%3D""#)?;
/// assert_eq!(p.transmission(), Transmission::Header);
/// assert_eq!(p.realm(), Some("Photos"));
/// assert_eq!(p.get(Name::ConsumerKey), Some("dpf43f3p2l4k3l03"));
/// // However its name was spelt, it is `oauth_body_hash`.
/// assert_eq!(p.get(Name::BodyHash), Some("2jmj7l5rSw0yVb/vlWAYkK/YBwk="));
/// assert!(Protocol::from_header(r#"OAuth oauth_nonce="a", oauth_nonce="b""#).is_err());
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Protocol<'a> {
    transmission: Transmission,
    realm: Option<Cow<'a, str>>,
    params: Vec<Entry<'a>>,
}

/// Protocol parameters being read ([`Protocol::reading`]): the model so
/// far, and the first name refused.
pub(crate) struct Reading<'a> {
    protocol: Protocol<'a>,
    refused: Option<String>,
}

impl<'a> Reading<'a> {
    /// The next parameter read: a decoded name and value, the offset of
    /// its name, and whether its reader knows both to be unreserved bytes.
    pub(crate) fn push(&mut self, name: Cow<'a, str>, value: Cow<'a, str>, at: usize, clean: bool) {
        if self.refused.is_some() {
            return;
        }
        if !is_protocol_name(name.as_bytes()) {
            self.refused = Some(name.into_owned());
            return;
        }
        self.protocol.params.push(Entry {
            id: Name::from_name(&name),
            name,
            value,
            at,
            clean,
        });
    }

    /// The protocol parameters read.
    ///
    /// # Errors
    /// As [`Protocol::from_params`]: the first name that is not a protocol
    /// parameter's, else the first given twice.
    pub(crate) fn finish(self) -> Result<Protocol<'a>, Error> {
        if let Some(name) = self.refused {
            return Err(Error::new(ErrorKind::NotAProtocolParameter { name }));
        }
        let entries = &self.protocol.params;
        // A registered name is known by its bit, in one pass, whatever the
        // order; extensions' names are compared among themselves (in
        // `n log n`). The first repeat in the order given is the earlier.
        let mut seen = 0u16;
        let mut registered = None;
        for (i, id) in entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| Some((i, e.id?)))
        {
            let bit = 1 << id as u16;
            if seen & bit != 0 {
                registered = Some(i);
                break;
            }
            seen |= bit;
        }
        let extension = || entries.iter().enumerate().filter(|(_, e)| e.id.is_none());
        let extension_repeat = first_repeat(extension().map(|(_, e)| &e.name))
            .and_then(|k| extension().nth(k))
            .map(|(i, _)| i);
        if let Some(i) = registered.into_iter().chain(extension_repeat).min() {
            let e = &entries[i];
            return Err(Error::new(ErrorKind::DuplicateProtocolParameter {
                name: e.name.to_string(),
                at: Some((self.protocol.transmission.part(), e.at)),
            }));
        }
        Ok(self.protocol)
    }
}

impl<'a> Protocol<'a> {
    /// The protocol parameters read from `transmission`, each a decoded
    /// name, a decoded value and the byte offset of its name there, in the
    /// order read: the one place where their names are checked.
    ///
    /// # Errors
    /// [`ErrorKind::NotAProtocolParameter`] for a name that does not start
    /// with `oauth_`; [`ErrorKind::DuplicateProtocolParameter`] for a name
    /// given twice, at its second (found in `n log n`, however many).
    pub fn from_params(
        transmission: Transmission,
        realm: Option<Cow<'a, str>>,
        params: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>, usize)>,
    ) -> Result<Protocol<'a>, Error> {
        let params = params.into_iter().map(|(n, v, at)| (n, v, at, false));
        Protocol::read(transmission, realm, params)
    }

    /// [`from_params`](Self::from_params), each parameter with whether its
    /// reader knows its name and value to be of unreserved bytes only.
    pub(crate) fn read(
        transmission: Transmission,
        realm: Option<Cow<'a, str>>,
        params: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>, usize, bool)>,
    ) -> Result<Protocol<'a>, Error> {
        let mut reading = Protocol::reading(transmission, realm);
        for (name, value, at, clean) in params {
            reading.push(name, value, at, clean);
        }
        reading.finish()
    }

    /// [`read`](Self::read) one parameter at a time, for a reader that
    /// finds them one by one (the header's parser): no list between.
    pub(crate) fn reading(transmission: Transmission, realm: Option<Cow<'a, str>>) -> Reading<'a> {
        Reading {
            protocol: Protocol {
                transmission,
                realm,
                params: Vec::with_capacity(8),
            },
            refused: None,
        }
    }

    /// What a signer sends: its run of parameters, already checked (each
    /// name once, `oauth_*`), in the order it signs them.
    pub(crate) fn signed(
        realm: Option<String>,
        params: impl Iterator<Item = (String, String)>,
    ) -> Protocol<'static> {
        Protocol {
            transmission: Transmission::Header,
            realm: realm.map(Cow::Owned),
            params: params
                .map(|(name, value)| Entry {
                    id: Name::from_name(&name),
                    name: Cow::Owned(name),
                    value: Cow::Owned(value),
                    at: 0,
                    clean: false,
                })
                .collect(),
        }
    }

    /// Where they were sent.
    pub fn transmission(&self) -> Transmission {
        self.transmission
    }

    /// The header's `realm`, as given (§3.5.1: never signed).
    pub fn realm(&self) -> Option<&str> {
        self.realm.as_deref()
    }

    /// The value of `name`, if sent.
    pub fn get(&self, name: Name) -> Option<&str> {
        let id = Some(name);
        self.params
            .iter()
            .find(|e| e.id == id)
            .map(|e| e.value.as_ref())
    }

    /// The value of the parameter named `name` (decoded), registered or an
    /// extension's (`oauth_session_handle`), if sent.
    pub fn named(&self, name: &str) -> Option<&str> {
        self.entry(name).map(|e| e.value.as_ref())
    }

    /// The parameter named `name`: found by its [`Name`] where registered.
    fn entry(&self, name: &str) -> Option<&Entry<'a>> {
        match Name::from_name(name) {
            Some(id) => self.params.iter().find(|e| e.id == Some(id)),
            None => self
                .params
                .iter()
                .find(|e| e.id.is_none() && e.name == name),
        }
    }

    /// Every parameter, `oauth_signature` included, as `(name, value)` in
    /// the order read.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.params
            .iter()
            .map(|e| (e.name.as_ref(), e.value.as_ref()))
    }

    /// Every parameter in the order they are signed (§3.4.1.3.2: by name,
    /// encoded), each with its [`Name`] where it is registered and whether
    /// its reader knew it to be of unreserved bytes only (`false`: not
    /// known). Two registered names are ordered by their [`Name`]s, whose
    /// order is their names' (one byte compared), any other two by text.
    pub(crate) fn in_signed_order(
        &self,
    ) -> impl Iterator<Item = (Option<Name>, &str, &str, bool)> + '_ {
        let mut order: SmallVec<[usize; 12]> = (0..self.params.len()).collect();
        order.sort_unstable_by(|&a, &b| {
            let (a, b) = (&self.params[a], &self.params[b]);
            match (a.id, b.id) {
                (Some(x), Some(y)) => x.cmp(&y),
                _ => cmp_encoded(a.name.as_bytes(), b.name.as_bytes()),
            }
        });
        order.into_iter().map(|i| {
            let e = &self.params[i];
            (e.id, e.name.as_ref(), e.value.as_ref(), e.clean)
        })
    }

    /// Where `name`'s name was in the text read (a byte offset in the part
    /// of its [`transmission`](Self::transmission)).
    pub fn offset(&self, name: &str) -> Option<usize> {
        self.entry(name).map(|e| e.at)
    }

    /// How many parameters (the realm not counted).
    pub fn len(&self) -> usize {
        self.params.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }

    /// `oauth_consumer_key`.
    pub fn consumer_key(&self) -> Option<&str> {
        self.get(Name::ConsumerKey)
    }

    /// `oauth_token`; an empty one is none (a request for temporary
    /// credentials may send it empty).
    pub fn token(&self) -> Option<&str> {
        token(self.get(Name::Token))
    }

    /// `oauth_signature`, decoded (Base64 text for the HMAC and RSA methods).
    pub fn signature(&self) -> Option<&str> {
        self.get(Name::Signature)
    }

    /// The same, with `realm`.
    pub(crate) fn with_realm(mut self, realm: Option<Cow<'a, str>>) -> Protocol<'a> {
        self.realm = realm;
        self
    }

    /// The realm, taken out (the rest dropped).
    pub(crate) fn into_realm(self) -> Option<Cow<'a, str>> {
        self.realm
    }

    /// The parameters with nothing borrowed.
    pub fn into_owned(self) -> Protocol<'static> {
        self.owned_copy()
    }

    /// [`into_owned`](Self::into_owned) from a borrow: each text copied
    /// once, a registered name not at all (it is its static text).
    pub(crate) fn owned_copy(&self) -> Protocol<'static> {
        let owned = |c: &str| Cow::Owned(c.to_owned());
        let name = |e: &Entry<'_>| match e.id {
            Some(n) => Cow::Borrowed(n.as_str()),
            None => owned(&e.name),
        };
        Protocol {
            transmission: self.transmission,
            realm: self.realm.as_deref().map(owned),
            params: self
                .params
                .iter()
                .map(|e| Entry {
                    id: e.id,
                    name: name(e),
                    value: owned(&e.value),
                    at: e.at,
                    clean: e.clean,
                })
                .collect(),
        }
    }
}

impl std::fmt::Debug for Protocol<'_> {
    /// The parameters, `oauth_signature`'s value hidden: a PLAINTEXT
    /// signature is the secrets (and a received one may be a guess at them).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut list = f.debug_list();
        for (name, value) in self.iter() {
            let value = if name == Name::Signature.as_str() {
                "<redacted>"
            } else {
                value
            };
            list.entry(&(name, value));
        }
        list.finish()?;
        write!(f, " in the {}", self.transmission)?;
        if let Some(realm) = self.realm() {
            write!(f, ", realm {realm:?}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_transmission_word_reads_as_its_value_and_prints_back() {
        // RFC 5849 §3.5.1 (the Authorization header), §3.5.2 (the form body),
        // §3.5.3 (the query), by the words of `oauth1 --transmission`
        // (docs/cli.md) and the request file (docs/providers.md).
        for (word, t) in [
            ("header", Transmission::Header),
            ("form-body", Transmission::FormBody),
            ("query", Transmission::Query),
        ] {
            assert_eq!(word.parse::<Transmission>(), Ok(t));
            assert_eq!(t.to_string(), word);
        }
        assert_eq!("QUERY".parse(), Ok(Transmission::Query));
        let e = "body".parse::<Transmission>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown transmission \"body\" (expected header, form-body, query)"
        );
    }

    #[test]
    fn debug_hides_the_signature_whatever_the_method() {
        let p = Protocol::from_header(
            r#"OAuth realm="r", oauth_signature_method="PLAINTEXT", oauth_signature="cs%26ts""#,
        )
        .unwrap();
        let shown = format!("{p:?}");
        assert!(!shown.contains("cs&ts"), "{shown}");
        assert!(
            shown.contains(r#"("oauth_signature", "<redacted>")"#)
                && shown.contains(r#"("oauth_signature_method", "PLAINTEXT")"#)
                && shown.ends_with(r#" in the header, realm "r""#),
            "{shown}"
        );
    }

    #[test]
    fn a_repeat_is_found_at_its_second_whichever_kind_of_name() {
        let at = |names: &[&str]| {
            let params = names
                .iter()
                .enumerate()
                .map(|(i, n)| (Cow::Borrowed(*n), Cow::Borrowed("v"), i));
            match Protocol::from_params(Transmission::Query, None, params) {
                Ok(p) => {
                    assert_eq!(
                        p.get(Name::Nonce),
                        names.contains(&"oauth_nonce").then_some("v")
                    );
                    None
                }
                Err(e) => match e.kind() {
                    ErrorKind::DuplicateProtocolParameter {
                        name,
                        at: Some((_, at)),
                    } => Some((name.clone(), *at)),
                    other => panic!("{other:?}"),
                },
            }
        };
        assert_eq!(at(&["oauth_nonce", "oauth_x", "oauth_token"]), None);
        assert_eq!(
            at(&["oauth_nonce", "oauth_x", "oauth_nonce"]),
            Some(("oauth_nonce".into(), 2))
        );
        assert_eq!(
            at(&["oauth_x", "oauth_y", "oauth_x"]),
            Some(("oauth_x".into(), 2))
        );
        // The first second, in the order given, whichever kind repeats.
        let both = ["oauth_x", "oauth_nonce", "oauth_nonce", "oauth_x"];
        assert_eq!(at(&both), Some(("oauth_nonce".into(), 2)));
        let both = ["oauth_x", "oauth_nonce", "oauth_x", "oauth_nonce"];
        assert_eq!(at(&both), Some(("oauth_x".into(), 2)));
    }

    /// The model's two readings of the names, by `Name` where registered,
    /// against their plain definitions over proptest's fixed-seed
    /// generator (500 lists of up to 14 names, registered and extensions'
    /// mixed, repeats among them): the repeat reported is the first name,
    /// in the order given, equal to one before it; a list without one comes
    /// out in the order of the names encoded, byte by byte.
    #[test]
    fn repeats_and_the_signed_order_are_their_plain_definitions() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

        let pool = [
            "oauth_nonce",
            "oauth_token",
            "oauth_signature",
            "oauth_signature_method",
            "oauth_body_hash",
            "oauth_version",
            "oauth_consumer_key",
            "oauth_timestamp",
            "oauth_callback",
            "oauth_verifier",
            "oauth_a",
            "oauth_nonce_",
            "oauth_é",
            "oauth_~",
            "oauth_signature!",
        ];
        let config = Config {
            cases: 500,
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner =
            TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
        let lists = proptest::collection::vec(0..pool.len(), 0..14);
        runner
            .run(&lists, |picks| {
                let names: Vec<&str> = picks.iter().map(|&i| pool[i]).collect();
                let params = names
                    .iter()
                    .enumerate()
                    .map(|(i, n)| (Cow::Borrowed(*n), Cow::Borrowed("v"), i));
                let read = Protocol::from_params(Transmission::Query, None, params);
                let first_repeat = (0..names.len()).find(|&i| names[..i].contains(&names[i]));
                match (read, first_repeat) {
                    (Err(e), Some(i)) => {
                        let want = ErrorKind::DuplicateProtocolParameter {
                            name: names[i].to_owned(),
                            at: Some((Part::Url, i)),
                        };
                        prop_assert_eq!(e.kind(), &want);
                    }
                    (Ok(p), None) => {
                        let got: Vec<&str> = p.in_signed_order().map(|(_, n, _, _)| n).collect();
                        let mut want: Vec<(String, &str)> = names
                            .iter()
                            .map(|n| (crate::text::percent_encode_str(n).to_string(), *n))
                            .collect();
                        want.sort();
                        let want: Vec<&str> = want.into_iter().map(|(_, n)| n).collect();
                        prop_assert_eq!(got, want);
                    }
                    (read, want) => {
                        prop_assert!(false, "{:?} for {:?}, repeat {:?}", read, names, want)
                    }
                }
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn the_signed_order_is_the_names_encoded_and_sorted_whatever_their_kind() {
        // §3.4.1.3.2: sorted by name, as encoded, byte by byte. Registered
        // names, extensions' (`é` is `%C3%A9` encoded, before any letter,
        // where its raw bytes sort after them) and `oauth_signature`, given
        // out of order.
        let names = [
            "oauth_token",
            "oauth_é",
            "oauth_body_hash",
            "oauth_xa",
            "oauth_nonce",
            "oauth_a",
            "oauth_signature_method",
            "oauth_signature",
            "oauth_z",
        ];
        let params = names
            .iter()
            .enumerate()
            .map(|(i, n)| (Cow::Borrowed(*n), Cow::Borrowed("v"), i));
        let p = Protocol::from_params(Transmission::Query, None, params).unwrap();
        let got: Vec<&str> = p.in_signed_order().map(|(_, n, _, _)| n).collect();
        let mut want = names.map(|n| (crate::text::percent_encode_str(n).to_string(), n));
        want.sort();
        assert_eq!(got, want.map(|(_, n)| n));
        for (id, name, _, _) in p.in_signed_order() {
            assert_eq!(id, Name::from_name(name), "{name}");
        }
    }
}
