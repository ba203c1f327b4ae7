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

use std::ops::RangeInclusive;

use std::borrow::Cow;

use crate::error::{Error, ErrorKind, Part};
use crate::text::repeat::first_repeat;
use crate::text::scan::is_unreserved;
use crate::text::word::{self, names};

mod run;

pub(crate) use run::{Form, Joined, Own, ProtocolParam, ProtocolParams, Value};

/// The protocol parameters of RFC 5849 (§2, §3.1) and the body hash
/// extension, in the order of their names: the order in which they are
/// signed (§3.4.1.3.2) and sent.
///
/// ```
/// use oauth1_signer::Name;
///
/// assert_eq!(Name::Nonce.as_str(), "oauth_nonce");
/// assert_eq!(Name::from_name("oauth_body_hash"), Some(Name::BodyHash));
/// assert_eq!(Name::from_name("oauth_session_handle"), None); // an extension's
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Name {
    /// `oauth_body_hash` (OAuth Request Body Hash): the hash of a body that
    /// is not form-encoded.
    BodyHash,
    /// `oauth_callback` (§2.1).
    Callback,
    /// `oauth_consumer_key` (§3.1).
    ConsumerKey,
    /// `oauth_nonce` (§3.3): see [`Nonce`].
    Nonce,
    /// `oauth_signature` (§3.4), never signed itself.
    Signature,
    /// `oauth_signature_method` (§3.1).
    SignatureMethod,
    /// `oauth_timestamp` (§3.3): see [`Timestamp`].
    Timestamp,
    /// `oauth_token` (§3.1).
    Token,
    /// `oauth_verifier` (§2.3): the verification code of the three-legged
    /// flow (not [`verify::Verifier`](crate::verify::Verifier)).
    Verifier,
    /// `oauth_version` (§3.1), `1.0` when sent.
    Version,
}

/// The prefix of every protocol parameter's name (§3.1), which no other
/// parameter's may start with.
pub const PROTOCOL_PREFIX: &str = "oauth_";

/// Whether `name` is a protocol parameter's (RFC 5849 §3.1: it starts with
/// `oauth_`), a registered one or an extension's.
pub fn is_protocol_name(name: &[u8]) -> bool {
    name.starts_with(PROTOCOL_PREFIX.as_bytes())
}

/// A nonce (§3.3): by the one rule this crate's signer and its verifier
/// share, 1 to 64 characters, each an ASCII letter or digit or one of
/// `- . _ ~ + / =`. That holds every nonce real clients make (oauthlib's
/// digits, the X docs' 42 letters and digits, a UUID, dghubble's 44
/// characters of Base64) and needs no escape but `+ / =`; a signer refuses
/// a pinned nonce outside it at `build()`, and a verifier refuses one by
/// default (its length range can be changed:
/// [`VerifierBuilder::nonce_len`](crate::verify::VerifierBuilder::nonce_len)).
///
/// ```
/// use oauth1_signer::pipeline::Nonce;
///
/// assert_eq!(Nonce::parse("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")?.as_str().len(), 42);
/// assert!(Nonce::parse("a b").is_err());
/// assert!(Nonce::parse(&"n".repeat(65)).is_err());
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nonce<'a>(&'a str);

impl<'a> Nonce<'a> {
    /// The lengths, in characters, a nonce may have by default.
    pub const LEN: RangeInclusive<usize> = 1..=64;

    /// `text` as a nonce, by the rule above.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidProtocolValue`] naming `oauth_nonce` and why.
    pub fn parse(text: &'a str) -> Result<Nonce<'a>, Error> {
        Nonce::parse_within(text, &Nonce::LEN)
    }

    /// `text` as a nonce whose length is in `len` instead of [`Nonce::LEN`].
    ///
    /// # Errors
    /// As [`parse`](Self::parse).
    pub fn parse_within(text: &'a str, len: &RangeInclusive<usize>) -> Result<Nonce<'a>, Error> {
        let invalid = |reason| {
            Err(Error::new(ErrorKind::InvalidProtocolValue {
                name: Name::Nonce.as_str(),
                reason,
            }))
        };
        if !text
            .bytes()
            .all(|b| is_unreserved(b) || matches!(b, b'+' | b'/' | b'='))
        {
            return invalid("a nonce holds only ASCII letters, digits and - . _ ~ + / =");
        }
        // ASCII by now: its length in bytes is its length in characters.
        if text.is_empty() {
            return invalid("a nonce cannot be empty");
        }
        if !len.contains(&text.len()) {
            return invalid(
                "the nonce's length is outside the accepted range (1 to 64 by default)",
            );
        }
        Ok(Nonce(text))
    }

    /// The nonce.
    pub fn as_str(&self) -> &'a str {
        self.0
    }
}

/// A timestamp (§3.3): "a positive integer", the number of seconds since
/// 1970, written in ASCII digits and fitting in 64 bits. One parse for the
/// signer (a pinned one is checked at `build()`) and the verifier.
///
/// ```
/// use oauth1_signer::pipeline::Timestamp;
///
/// assert_eq!(Timestamp::parse("1318622958")?.secs(), 1318622958);
/// for refused in ["", "0", "+1", "1.5", " 1", "18446744073709551616"] {
///     assert!(Timestamp::parse(refused).is_err(), "{refused:?}");
/// }
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(u64);

impl Timestamp {
    /// How far from now a timestamp is accepted by default, each way: five
    /// minutes (RFC 5849 §3.3 leaves it to the server; X allows a few
    /// minutes). A verifier's default window
    /// ([`verify::DEFAULT_WINDOW`](crate::verify::DEFAULT_WINDOW)), and how
    /// far a pinned one may be from the clock before the signer warns.
    pub const WINDOW: std::time::Duration = std::time::Duration::from_secs(300);

    /// `text` as a timestamp.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidProtocolValue`] naming `oauth_timestamp` and why.
    pub fn parse(text: &str) -> Result<Timestamp, Error> {
        let reason = if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            "a timestamp is a positive integer in ASCII digits"
        } else {
            match text.parse::<u64>() {
                Ok(0) => "a timestamp is a positive integer (0 is not)",
                Ok(n) => return Ok(Timestamp(n)),
                Err(_) => "a timestamp must fit in 64 bits",
            }
        };
        Err(Error::new(ErrorKind::InvalidProtocolValue {
            name: Name::Timestamp.as_str(),
            reason,
        }))
    }

    /// Seconds since 1970.
    pub fn secs(self) -> u64 {
        self.0
    }
}

impl std::fmt::Display for Timestamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
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
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry<'a> {
    name: Cow<'a, str>,
    value: Cow<'a, str>,
    at: usize,
}

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
        let mut entries = Vec::with_capacity(8);
        for (name, value, at) in params {
            if !is_protocol_name(name.as_bytes()) {
                return Err(Error::new(ErrorKind::NotAProtocolParameter {
                    name: name.into_owned(),
                }));
            }
            entries.push(Entry { name, value, at });
        }
        if let Some(i) = first_repeat(entries.iter().map(|e| &e.name)) {
            let e = &entries[i];
            return Err(Error::new(ErrorKind::DuplicateProtocolParameter {
                name: e.name.to_string(),
                at: Some((transmission.part(), e.at)),
            }));
        }
        Ok(Protocol {
            transmission,
            realm,
            params: entries,
        })
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
                    name: Cow::Owned(name),
                    value: Cow::Owned(value),
                    at: 0,
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
        self.named(name.as_str())
    }

    /// The value of the parameter named `name` (decoded), registered or an
    /// extension's (`oauth_session_handle`), if sent.
    pub fn named(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|e| e.name == name)
            .map(|e| e.value.as_ref())
    }

    /// Every parameter, `oauth_signature` included, as `(name, value)` in
    /// the order read.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.params
            .iter()
            .map(|e| (e.name.as_ref(), e.value.as_ref()))
    }

    /// Where `name`'s name was in the text read (a byte offset in the part
    /// of its [`transmission`](Self::transmission)).
    pub fn offset(&self, name: &str) -> Option<usize> {
        self.params.iter().find(|e| e.name == name).map(|e| e.at)
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
        self.get(Name::Token).filter(|t| !t.is_empty())
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
        let name = |c: &str| match Name::from_name(c) {
            Some(n) => Cow::Borrowed(n.as_str()),
            None => owned(c),
        };
        Protocol {
            transmission: self.transmission,
            realm: self.realm.as_deref().map(owned),
            params: self
                .params
                .iter()
                .map(|e| Entry {
                    name: name(&e.name),
                    value: owned(&e.value),
                    at: e.at,
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

/// Every [`Name`], sorted (the explainer tries each).
#[cfg_attr(not(feature = "explain"), allow(dead_code))]
pub(crate) const NAMES: [Name; 10] = [
    Name::BodyHash,
    Name::Callback,
    Name::ConsumerKey,
    Name::Nonce,
    Name::Signature,
    Name::SignatureMethod,
    Name::Timestamp,
    Name::Token,
    Name::Verifier,
    Name::Version,
];

impl Name {
    /// The parameter's name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Name::BodyHash => "oauth_body_hash",
            Name::Callback => "oauth_callback",
            Name::ConsumerKey => "oauth_consumer_key",
            Name::Nonce => "oauth_nonce",
            Name::Signature => "oauth_signature",
            Name::SignatureMethod => "oauth_signature_method",
            Name::Timestamp => "oauth_timestamp",
            Name::Token => "oauth_token",
            Name::Verifier => "oauth_verifier",
            Name::Version => "oauth_version",
        }
    }

    /// The registered parameter named `name` (decoded), if it is one.
    pub fn from_name(name: &str) -> Option<Name> {
        NAMES.into_iter().find(|n| n.as_str() == name)
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::value::cmp_encoded;

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
    fn the_names_are_sorted_as_encoded() {
        for pair in NAMES.windows(2) {
            let (a, b) = (pair[0].as_str(), pair[1].as_str());
            assert!(cmp_encoded(a.as_bytes(), b.as_bytes()).is_lt(), "{a} {b}");
            assert!(a.starts_with("oauth_"));
        }
    }
}
