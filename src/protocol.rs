//! The protocol parameters a request sends ([RFC 5849 §3.1]): the one list of
//! their names, and a signer's own, encoded once.
//!
//! Every protocol parameter name starts with `oauth_`, and no request
//! parameter's may (a signer refuses one), so in the normalised parameters
//! the protocol parameters always sort as one run. A signer builds that run
//! for each request, sorted, and the parameter string and the header write
//! it in where it belongs.
//!
//! Of a signer's own parameters, the consumer key, the token, the signature
//! method, the version and a pinned nonce or timestamp are the same on every
//! request: they are encoded once, when the signer is built, for the
//! parameter string, the base string and the header ([`Own`]), and copied
//! from then on. A fresh nonce or timestamp, a callback, a verifier and the
//! request's extra parameters are filled in per request.
//!
//! [RFC 5849 §3.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.1

use std::ops::Range;

use smallvec::SmallVec;

use crate::error::{Error, ErrorKind};
use crate::header;
use crate::normalize::{write_pair, Piece};
use crate::request::OAuthRequest;
use crate::sink::Writer;
use crate::text::cmp_encoded;

/// The protocol parameters a signer sends, in the order of their names: the
/// order in which they are signed (§3.4.1.3.2) and sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Name {
    Callback,
    ConsumerKey,
    Nonce,
    Signature,
    SignatureMethod,
    Timestamp,
    Token,
    Verifier,
    Version,
}

/// Every [`Name`], sorted.
pub(crate) const NAMES: [Name; 9] = [
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
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
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

/// Where a pair's texts are in [`Own::text`]: the value as given, and the
/// pair encoded for the parameter string, the base string and the header.
#[derive(Clone, Debug)]
struct Texts {
    once: Range<usize>,
    twice: Range<usize>,
    header: Range<usize>,
}

/// One of a signer's own protocol parameters.
#[derive(Clone, Debug)]
struct OwnParam {
    name: Name,
    /// The value and its encodings; `None` for a fresh value.
    fixed: Option<(Range<usize>, Texts)>,
}

/// A piece of the run of a request that brings no protocol parameter of its
/// own (the common case): consecutive fixed parameters joined.
#[derive(Clone, Debug)]
enum OwnPiece {
    /// Each text in a string of its own, so that using it takes no slicing.
    Encoded {
        once: Box<str>,
        twice: Box<str>,
        header: Box<str>,
    },
    Fresh(Name),
    Signature,
}

/// A signer's own protocol parameters, sorted, every fixed value encoded
/// ahead of time by the same writers that write every other parameter, each
/// on its own and, for a request that brings none of its own, joined.
#[derive(Clone, Debug)]
pub(crate) struct Own {
    text: String,
    params: SmallVec<[OwnParam; 7]>,
    joined: SmallVec<[OwnPiece; 5]>,
}

/// A protocol parameter of one request: its name and value (for a trace, or
/// the signed parameters) and how it is written.
pub(crate) type Sent<'a> = (&'a str, &'a str, Piece<'a>);

impl Own {
    /// Encodes `params`, given in the order of [`NAMES`].
    pub(crate) fn new<'s>(params: impl IntoIterator<Item = (Name, Value<'s>)>) -> Own {
        // Room for every text, so that encoding them allocates once.
        let mut text = String::with_capacity(1024);
        let mut own = SmallVec::<[OwnParam; 7]>::new();
        for (name, value) in params {
            let fixed = match value {
                Value::Fixed(v) => {
                    let start = text.len();
                    text.push_str(v);
                    let value = start..text.len();
                    let n = name.as_str().as_bytes();
                    let once = append(&mut text, |w| write_pair(w, n, v.as_bytes(), false));
                    let twice = append(&mut text, |w| write_pair(w, n, v.as_bytes(), true));
                    let start = text.len();
                    header::push_pair(&mut text, name.as_str(), v);
                    let header = start..text.len();
                    Some((
                        value,
                        Texts {
                            once,
                            twice,
                            header,
                        },
                    ))
                }
                Value::Fresh => None,
            };
            own.push(OwnParam { name, fixed });
        }
        // Joined: runs of fixed parameters, split where a fresh value or the
        // signature goes.
        let mut joined = SmallVec::new();
        let mut run: Vec<&Texts> = Vec::new();
        let flush = |text: &String, run: &mut Vec<&Texts>, joined: &mut SmallVec<_>| {
            if run.is_empty() {
                return;
            }
            let join = |pick: fn(&Texts) -> &Range<usize>, sep: &str| {
                let mut joined = String::new();
                for (i, t) in run.iter().enumerate() {
                    if i > 0 {
                        joined.push_str(sep);
                    }
                    joined.push_str(text.get(pick(t).clone()).unwrap_or_default());
                }
                joined.into_boxed_str()
            };
            joined.push(OwnPiece::Encoded {
                once: join(|t| &t.once, "&"),
                twice: join(|t| &t.twice, "%26"),
                header: join(|t| &t.header, ", "),
            });
            run.clear();
        };
        let mut signature_done = false;
        for p in &own {
            if !signature_done && p.name as u8 > Name::Signature as u8 {
                flush(&text, &mut run, &mut joined);
                joined.push(OwnPiece::Signature);
                signature_done = true;
            }
            match &p.fixed {
                Some((_, texts)) => run.push(texts),
                None => {
                    flush(&text, &mut run, &mut joined);
                    joined.push(OwnPiece::Fresh(p.name));
                }
            }
        }
        flush(&text, &mut run, &mut joined);
        if !signature_done {
            joined.push(OwnPiece::Signature);
        }
        Own {
            text,
            params: own,
            joined,
        }
    }

    fn get(&self, range: &Range<usize>) -> &str {
        self.text.get(range.clone()).unwrap_or_default()
    }

    fn encoded(&self, t: &Texts) -> Piece<'_> {
        Piece::Encoded {
            once: self.get(&t.once),
            twice: self.get(&t.twice),
            header: self.get(&t.header),
        }
    }

    /// The pieces of one request's protocol parameters, in order, the
    /// signature's place among them. `fresh` gives a fresh nonce and
    /// timestamp.
    ///
    /// # Errors
    /// As [`sent`](Self::sent).
    pub(crate) fn pieces<'a>(
        &'a self,
        request: &OAuthRequest<'a>,
        fresh: impl Fn(Name) -> &'a str,
        pieces: &mut SmallVec<[Piece<'a>; 12]>,
    ) -> Result<(), Error> {
        if request.callback.is_none() && request.verifier.is_none() && request.extra.is_empty() {
            pieces.extend(self.joined.iter().map(|p| match p {
                OwnPiece::Encoded {
                    once,
                    twice,
                    header,
                } => Piece::Encoded {
                    once,
                    twice,
                    header,
                },
                OwnPiece::Fresh(name) => Piece::Param {
                    name: name.as_str(),
                    value: fresh(*name),
                    clean: true,
                },
                OwnPiece::Signature => Piece::Signature,
            }));
            return Ok(());
        }
        let mut sent = SmallVec::new();
        self.sent(request, fresh, &mut sent)?;
        pieces.extend(sent.into_iter().map(|(_, _, piece)| piece));
        Ok(())
    }

    /// One request's protocol parameters, one by one, sorted by name, the
    /// signature among them (with an empty value).
    ///
    /// # Errors
    /// An extra parameter whose name does not start with `oauth_`, or that
    /// the signer or the request sends already.
    pub(crate) fn sent<'a>(
        &'a self,
        request: &OAuthRequest<'a>,
        fresh: impl Fn(Name) -> &'a str,
        sent: &mut SmallVec<[Sent<'a>; 12]>,
    ) -> Result<(), Error> {
        let mut own = self.params.iter().peekable();
        for name in NAMES {
            let requested = match name {
                Name::Callback => request.callback,
                Name::Verifier => request.verifier,
                Name::Signature => {
                    sent.push((name.as_str(), "", Piece::Signature));
                    continue;
                }
                _ => None,
            };
            let param = |name: &'a str, value: &'a str, clean| {
                (name, value, Piece::Param { name, value, clean })
            };
            if let Some(value) = requested {
                sent.push(param(name.as_str(), value, false));
            } else if let Some(p) = own.next_if(|p| p.name == name) {
                sent.push(match &p.fixed {
                    Some((value, texts)) => (name.as_str(), self.get(value), self.encoded(texts)),
                    None => param(name.as_str(), fresh(name), true),
                });
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
            sent.push((
                name,
                value,
                Piece::Param {
                    name,
                    value,
                    clean: false,
                },
            ));
        }
        // Sorted, so that a name given twice sits next to itself.
        sent.sort_unstable_by(|a, b| cmp_encoded(a.0.as_bytes(), b.0.as_bytes()));
        if let Some(twice) = sent.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(Error::new(ErrorKind::DuplicateProtocolParameter {
                name: twice[0].0.into(),
            }));
        }
        Ok(())
    }
}

/// Writes with a [`Writer`] at the end of `text`: where it went.
fn append(text: &mut String, write: impl FnOnce(&mut Writer<'_, String>)) -> Range<usize> {
    let start = text.len();
    let mut w = Writer::new(text);
    write(&mut w);
    w.finish();
    start..text.len()
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

    fn names<'a>(sent: &[Sent<'a>]) -> Vec<&'a str> {
        sent.iter().map(|s| s.0).collect()
    }

    #[test]
    fn encodes_each_fixed_value_three_ways_and_fills_fresh_ones() {
        let own = Own::new([
            (Name::ConsumerKey, Value::Fixed("a b")),
            (Name::Nonce, Value::Fresh),
            (Name::SignatureMethod, Value::Fixed("HMAC-SHA1")),
            (Name::Version, Value::Fixed("1.0")),
        ]);
        // One by one, with a callback: the signature sorts after oauth_nonce.
        let request = OAuthRequest::get("https://h/").callback("http://c/?x=1");
        let mut sent = SmallVec::new();
        own.sent(&request, |_| "n0", &mut sent).unwrap();
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
        let Piece::Encoded {
            once,
            twice,
            header,
        } = sent[1].2
        else {
            panic!("{:?}", sent[1]);
        };
        assert_eq!(sent[1].1, "a b");
        assert_eq!(once, "oauth_consumer_key=a%20b");
        assert_eq!(twice, "oauth_consumer_key%3Da%2520b");
        assert_eq!(header, "oauth_consumer_key=\"a%20b\"");
        assert_eq!(sent[2].1, "n0");
        assert!(matches!(sent[2].2, Piece::Param { clean: true, .. }));
        assert!(matches!(sent[0].2, Piece::Param { clean: false, .. }));
        assert!(matches!(sent[3].2, Piece::Signature));

        // A request with none of its own: runs of fixed parameters joined,
        // split at the fresh nonce and at the signature.
        let mut pieces = SmallVec::new();
        own.pieces(&OAuthRequest::get("https://h/"), |_| "n0", &mut pieces)
            .unwrap();
        assert_eq!(pieces.len(), 4, "{pieces:?}");
        assert!(matches!(
            pieces[0],
            Piece::Encoded {
                header: "oauth_consumer_key=\"a%20b\"",
                ..
            }
        ));
        assert!(matches!(
            pieces[1],
            Piece::Param {
                name: "oauth_nonce",
                value: "n0",
                clean: true
            }
        ));
        assert!(matches!(pieces[2], Piece::Signature));
        let Piece::Encoded {
            once,
            twice,
            header,
        } = pieces[3]
        else {
            panic!("{:?}", pieces[3]);
        };
        assert_eq!(once, "oauth_signature_method=HMAC-SHA1&oauth_version=1.0");
        assert_eq!(
            twice,
            "oauth_signature_method%3DHMAC-SHA1%26oauth_version%3D1.0"
        );
        assert_eq!(
            header,
            "oauth_signature_method=\"HMAC-SHA1\", oauth_version=\"1.0\""
        );
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
        let mut sent = SmallVec::new();
        own.sent(&request, |_| "", &mut sent).unwrap();
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
            let mut pieces = SmallVec::new();
            let err = own.pieces(&request, |_| "", &mut pieces).unwrap_err();
            assert_eq!(err.kind(), &want);
        }
    }
}
