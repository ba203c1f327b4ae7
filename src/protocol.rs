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
//! pinned nonce or timestamp), and whether each needs an escape, so that a
//! clean one is copied. A fresh nonce or timestamp, a callback, a verifier
//! and the request's extra parameters are filled in per request.
//!
//! [RFC 5849 §3.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.1

use std::ops::RangeInclusive;

use smallvec::SmallVec;

use crate::error::{Error, ErrorKind};
use crate::request::OAuthRequest;
use crate::scan::is_unreserved;
use crate::text::cmp_encoded;

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
/// use oauth1_signer::Nonce;
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
/// use oauth1_signer::Timestamp;
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

/// A signer's own value for a protocol parameter.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value<'s> {
    /// The same on every request.
    Fixed(&'s str),
    /// Made afresh for every request (a nonce or a timestamp): ASCII letters
    /// and digits, which need no escape.
    Fresh,
}

/// How a [`ProtocolParam`] is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// Neither name nor value needs an escape: both are copied.
    Clean,
    /// Name and value are percent-encoded as they are written.
    Encode,
    /// `oauth_signature`, whose value is not known yet: never in a base
    /// string, and in the header the signature given to its writer.
    Signature,
}

/// One protocol parameter of a request: its name and value (not encoded).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProtocolParam<'a> {
    pub(crate) name: &'a str,
    pub(crate) value: &'a str,
    pub(crate) form: Form,
}

/// The protocol parameters of one request, sorted by name as a signer sends
/// them, the place of `oauth_signature` among them: built once per request
/// and written by the parameter string and by the header, each in its own
/// format. (For [`authorization_header`](crate::authorization_header), the
/// parameters given, in the order given.)
#[derive(Clone, Debug, Default)]
pub(crate) struct ProtocolParams<'a> {
    params: SmallVec<[ProtocolParam<'a>; 12]>,
}

impl<'a> ProtocolParams<'a> {
    /// Plain `(name, value)` pairs, in the order given, encoded when written.
    pub(crate) fn from_pairs(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        pairs
            .into_iter()
            .map(|(name, value)| ProtocolParam {
                name,
                value,
                form: Form::Encode,
            })
            .collect()
    }

    /// The parameters, in order.
    pub(crate) fn as_slice(&self) -> &[ProtocolParam<'a>] {
        &self.params
    }

    /// The parameters sent with a value: all but `oauth_signature`'s place.
    pub(crate) fn valued(&self) -> impl Iterator<Item = &ProtocolParam<'a>> {
        self.params
            .iter()
            .filter(|p| !matches!(p.form, Form::Signature))
    }
}

impl<'a> FromIterator<ProtocolParam<'a>> for ProtocolParams<'a> {
    fn from_iter<I: IntoIterator<Item = ProtocolParam<'a>>>(iter: I) -> Self {
        ProtocolParams {
            params: iter.into_iter().collect(),
        }
    }
}

/// One of a signer's own protocol parameters, or the signature's place: its
/// value, `None` where it is fresh, and how it is written.
#[derive(Clone, Debug)]
struct OwnParam {
    name: Name,
    fixed: Option<Box<str>>,
    form: Form,
}

/// A signer's own protocol parameters, sorted, the signature's place among
/// them.
#[derive(Clone, Debug)]
pub(crate) struct Own {
    params: SmallVec<[OwnParam; 7]>,
}

impl Own {
    /// A signer's own `params`, given in the order of [`NAMES`].
    pub(crate) fn new<'s>(params: impl IntoIterator<Item = (Name, Value<'s>)>) -> Own {
        let mut own: SmallVec<[OwnParam; 7]> = params
            .into_iter()
            .map(|(name, value)| match value {
                Value::Fixed(v) => OwnParam {
                    name,
                    fixed: Some(v.into()),
                    form: match v.bytes().all(is_unreserved) {
                        true => Form::Clean,
                        false => Form::Encode,
                    },
                },
                Value::Fresh => OwnParam {
                    name,
                    fixed: None,
                    form: Form::Clean,
                },
            })
            .collect();
        let at = own.partition_point(|p| (p.name as u8) < Name::Signature as u8);
        own.insert(
            at,
            OwnParam {
                name: Name::Signature,
                fixed: Some("".into()),
                form: Form::Signature,
            },
        );
        Own { params: own }
    }

    /// Whether the signer sends `name`.
    pub(crate) fn sends(&self, name: Name) -> bool {
        self.params.iter().any(|p| p.name == name)
    }

    /// Fills `sent` (empty) with one request's protocol parameters, sorted by
    /// name, the signature's place among them. `fresh` gives a fresh nonce
    /// and timestamp. (Filled in place: the run is held inline, and returning
    /// it would copy it.)
    ///
    /// # Errors
    /// An extra parameter whose name does not start with `oauth_`, or that
    /// the signer or the request sends already.
    pub(crate) fn params<'a>(
        &'a self,
        request: &OAuthRequest<'a>,
        fresh: impl Fn(Name) -> &'a str,
        sent: &mut ProtocolParams<'a>,
    ) -> Result<(), Error> {
        let run = &mut sent.params;
        let own = |p: &'a OwnParam| ProtocolParam {
            name: p.name.as_str(),
            value: match &p.fixed {
                Some(v) => v,
                None => fresh(p.name),
            },
            form: p.form,
        };
        let requested = |name: Name, value| ProtocolParam {
            name: name.as_str(),
            value,
            form: Form::Encode,
        };
        if request.callback.is_none() && request.verifier.is_none() {
            for p in &self.params {
                run.push(own(p));
            }
        } else {
            // The signer's own never include these two; the callback sorts
            // first of all, the verifier before the version.
            if let Some(v) = request.callback {
                run.push(requested(Name::Callback, v));
            }
            let mut verifier = request.verifier;
            for p in &self.params {
                if p.name as u8 > Name::Verifier as u8 {
                    if let Some(v) = verifier.take() {
                        run.push(requested(Name::Verifier, v));
                    }
                }
                run.push(own(p));
            }
            if let Some(v) = verifier {
                run.push(requested(Name::Verifier, v));
            }
        }
        if request.extra.is_empty() {
            return Ok(());
        }
        for (name, value) in request.extra.iter() {
            if name == Name::Signature.as_str() {
                continue;
            }
            if !name.starts_with("oauth_") {
                return Err(Error::new(ErrorKind::NotAProtocolParameter {
                    name: name.into(),
                }));
            }
            run.push(ProtocolParam {
                name,
                value,
                form: Form::Encode,
            });
        }
        // Sorted, so that a name given twice sits next to itself.
        run.sort_unstable_by(|a, b| cmp_encoded(a.name.as_bytes(), b.name.as_bytes()));
        if let Some(twice) = run.windows(2).find(|w| w[0].name == w[1].name) {
            return Err(Error::new(ErrorKind::DuplicateProtocolParameter {
                name: twice[0].name.into(),
            }));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_names_are_sorted_as_encoded() {
        for pair in NAMES.windows(2) {
            let (a, b) = (pair[0].as_str(), pair[1].as_str());
            assert!(cmp_encoded(a.as_bytes(), b.as_bytes()).is_lt(), "{a} {b}");
            assert!(a.starts_with("oauth_"));
        }
    }

    fn names<'a>(sent: &ProtocolParams<'a>) -> Vec<&'a str> {
        sent.as_slice().iter().map(|s| s.name).collect()
    }

    #[test]
    fn fills_fresh_values_and_knows_which_fixed_ones_need_an_escape() {
        let own = Own::new([
            (Name::ConsumerKey, Value::Fixed("a b")),
            (Name::Nonce, Value::Fresh),
            (Name::SignatureMethod, Value::Fixed("HMAC-SHA1")),
            (Name::Version, Value::Fixed("1.0")),
        ]);
        // With a callback: the signature sorts after oauth_nonce.
        let request = OAuthRequest::get("https://h/").callback("http://c/?x=1");
        let mut sent = ProtocolParams::default();
        own.params(&request, |_| "n0", &mut sent).unwrap();
        assert_eq!(
            names(&sent),
            [
                "oauth_callback",
                "oauth_consumer_key",
                "oauth_nonce",
                "oauth_signature",
                "oauth_signature_method",
                "oauth_version"
            ]
        );
        let p = sent.as_slice();
        let forms: Vec<Form> = p.iter().map(|p| p.form).collect();
        assert_eq!(
            forms,
            [
                Form::Encode,
                Form::Encode,
                Form::Clean,
                Form::Signature,
                Form::Clean,
                Form::Clean
            ]
        );
        assert_eq!((p[1].value, p[2].value), ("a b", "n0"));
        assert_eq!(sent.valued().count(), 5);
    }

    #[test]
    fn extras_are_sorted_in_and_checked() {
        let own = Own::new([(Name::ConsumerKey, Value::Fixed("k"))]);
        let extras = [
            ("oauth_z", "1"),
            ("oauth_body_hash", "h"),
            ("oauth_signature", "ignored"),
        ];
        let request = OAuthRequest::get("https://h/").protocol_params(&extras);
        let mut sent = ProtocolParams::default();
        own.params(&request, |_| "", &mut sent).unwrap();
        assert_eq!(
            names(&sent),
            [
                "oauth_body_hash",
                "oauth_consumer_key",
                "oauth_signature",
                "oauth_z"
            ]
        );

        for (extras, want) in [
            (
                &[("oauth_consumer_key", "k2")][..],
                ErrorKind::DuplicateProtocolParameter {
                    name: "oauth_consumer_key".into(),
                },
            ),
            (
                &[("oauth_a", "1"), ("oauth_a", "2")][..],
                ErrorKind::DuplicateProtocolParameter {
                    name: "oauth_a".into(),
                },
            ),
            (
                &[("x_a", "1")][..],
                ErrorKind::NotAProtocolParameter { name: "x_a".into() },
            ),
        ] {
            let request = OAuthRequest::get("https://h/").protocol_params(extras);
            let mut sent = ProtocolParams::default();
            let err = own.params(&request, |_| "", &mut sent).unwrap_err();
            assert_eq!(err.kind(), &want);
        }
    }
}
