//! The run of protocol parameters a signer sends with one request: its own
//! (fixed, encoded once, or fresh), the request's callback, verifier and
//! extras, sorted by name, the signature's place among them. Built once per
//! request; the parameter string (`normalize.rs`) and the header
//! (`header.rs`) each write it in their own format.
//!
//! A signer's fixed parameters that need no escape are the same text in
//! every request it signs: each run of them is written once, when the
//! signer is built, by those same two writers ([`Joined`]), and spliced in
//! whole by them afterwards, wherever nothing the request brings sorts in
//! between.

use smallvec::SmallVec;

use super::{is_protocol_name, Name, Protocol};
use crate::error::{Error, ErrorKind};
use crate::pipeline::request::OAuthRequest;
use crate::text::scan::{is_clean, is_unreserved};
use crate::text::value::cmp_encoded;

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
    /// On the first of a run of a signer's fixed clean parameters: the whole
    /// run as each writer writes it, to be copied in its place.
    pub(crate) joined: Option<&'a Joined>,
}

impl<'a> ProtocolParam<'a> {
    /// A parameter with no run written out ahead.
    pub(crate) fn new(name: &'a str, value: &'a str, form: Form) -> Self {
        ProtocolParam {
            name,
            value,
            form,
            joined: None,
        }
    }
}

/// A run of consecutive protocol parameters of a signer, fixed and clean,
/// written out by the parameter string's writer and the header's when the
/// signer is built (`signer.rs`): data those writers copy in whole, so that
/// each format is still written by its one writer.
#[derive(Clone, Debug)]
pub(crate) struct Joined {
    /// How many parameters the run holds (the first carries this).
    pub(crate) len: usize,
    /// The run in the parameter string: `n=v&n=v`.
    pub(crate) once: Box<str>,
    /// The same, encoded once more, as it stands in a base string.
    pub(crate) twice: Box<str>,
    /// The run in the header: `n="v", n="v"`.
    pub(crate) header: Box<str>,
}

/// The protocol parameters of one request, sorted by name as a signer sends
/// them, the place of `oauth_signature` among them: built once per request
/// and written by the parameter string and by the header, each in its own
/// format. (For [`authorization_header`](crate::pipeline::authorization_header), the
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
            .map(|(name, value)| ProtocolParam::new(name, value, Form::Encode))
            .collect()
    }

    /// The protocol parameters of a received header, as its signer sent
    /// them: sorted by name ([`Protocol::in_signed_order`]; each given
    /// once), `oauth_signature` in its place, and each copied when it is
    /// written if it needs no escape (known from the reader's scan,
    /// `clean`, or checked here).
    pub(crate) fn received(protocol: &'a Protocol<'_>) -> Self {
        // Filled in place: the run is returned where the caller keeps it.
        let mut run = ProtocolParams::default();
        for (id, name, value, clean) in protocol.in_signed_order() {
            let form = if id == Some(Name::Signature) {
                Form::Signature
            } else if clean || is_clean(name.as_bytes()) && is_clean(value.as_bytes()) {
                Form::Clean
            } else {
                Form::Encode
            };
            run.params.push(ProtocolParam::new(name, value, form));
        }
        run
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
    /// On the first of a run of fixed clean ones: the run written out.
    joined: Option<Joined>,
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
                    joined: None,
                },
                Value::Fresh => OwnParam {
                    name,
                    fixed: None,
                    form: Form::Clean,
                    joined: None,
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
                joined: None,
            },
        );
        Own { params: own }
    }

    /// Writes out each run of two or more fixed clean parameters with `write` (the two
    /// writers' own code, given by the signer: this module knows neither
    /// format), to be spliced in whole from then on.
    pub(crate) fn join(mut self, write: impl Fn(&[ProtocolParam<'_>]) -> Joined) -> Own {
        let fixed_clean = |p: &OwnParam| p.form == Form::Clean && p.fixed.is_some();
        let mut at = 0;
        while at < self.params.len() {
            let len = self.params[at..]
                .iter()
                .take_while(|p| fixed_clean(p))
                .count();
            // A run of one is written about as fast as it is copied: only
            // longer ones are worth writing out when the signer is built.
            if len < 2 {
                at += len.max(1);
                continue;
            }
            let run: SmallVec<[ProtocolParam<'_>; 7]> = self.params[at..at + len]
                .iter()
                .map(|p| {
                    ProtocolParam::new(p.name.as_str(), p.fixed.as_deref().unwrap_or(""), p.form)
                })
                .collect();
            let joined = write(&run);
            drop(run);
            self.params[at].joined = Some(joined);
            at += len;
        }
        self
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
        // A run written out ahead is spliced in only where nothing the
        // request brings can sort into it.
        let whole = request.extra.is_empty();
        let own = |p: &'a OwnParam| ProtocolParam {
            name: p.name.as_str(),
            value: match &p.fixed {
                Some(v) => v,
                None => fresh(p.name),
            },
            form: p.form,
            joined: p.joined.as_ref().filter(|_| whole),
        };
        let requested = |name: Name, value| ProtocolParam::new(name.as_str(), value, Form::Encode);
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
                if p.name as u8 > Name::Verifier as u8
                    && let Some(v) = verifier.take()
                {
                    run.push(requested(Name::Verifier, v));
                }
                // The verifier may sort into a run: each is written alone.
                run.push(ProtocolParam {
                    joined: None,
                    ..own(p)
                });
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
            if !is_protocol_name(name.as_bytes()) {
                return Err(Error::new(ErrorKind::NotAProtocolParameter {
                    name: name.into(),
                }));
            }
            run.push(ProtocolParam::new(name, value, Form::Encode));
        }
        // Sorted, so that a name given twice sits next to itself.
        run.sort_unstable_by(|a, b| cmp_encoded(a.name.as_bytes(), b.name.as_bytes()));
        if let Some(twice) = run.windows(2).find(|w| w[0].name == w[1].name) {
            return Err(Error::new(ErrorKind::DuplicateProtocolParameter {
                name: twice[0].name.into(),
                at: None,
            }));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
                    at: None,
                },
            ),
            (
                &[("oauth_a", "1"), ("oauth_a", "2")][..],
                ErrorKind::DuplicateProtocolParameter {
                    name: "oauth_a".into(),
                    at: None,
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
