//! Normalising the parameters ([RFC 5849 §3.4.1.3.2]): every name and
//! value encoded, the pairs sorted by encoded name and then encoded value in
//! byte order, and joined as `name=value` with `&`; a signer's protocol
//! parameters written in as one run where their names sort.
//!
//! [RFC 5849 §3.4.1.3.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3.2

use std::fmt;

use crate::params::Param;
use crate::sink::{Sink, Writer};
use crate::text::Text;

/// A piece of a signer's protocol parameters, which it writes as one run in
/// among the request's parameters (see [`Normalized::with_protocol`]) and in
/// the header.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Piece<'a> {
    /// One or more parameters encoded ahead of time, by [`write_pair`] and
    /// the header's pair writer, and joined: `a=1&b=2`, `a%3D1%26b%3D2`, and
    /// `a="1", b="2"` for the header.
    Encoded {
        once: &'a str,
        twice: &'a str,
        header: &'a str,
    },
    /// One parameter, encoded as it is written; `clean` when neither name
    /// nor value needs an escape, so that it is copied.
    Param {
        name: &'a str,
        value: &'a str,
        clean: bool,
    },
    /// Where `oauth_signature` goes: in the header, never in a base string.
    Signature,
}

impl Piece<'_> {
    /// Writes the piece's `name=value` pairs, encoded once more if `twice`.
    fn write_into<S: Sink + ?Sized>(&self, w: &mut Writer<'_, S>, twice: bool) {
        match *self {
            Piece::Encoded { once, twice: t, .. } => w.put(if twice { t } else { once }.as_bytes()),
            Piece::Param {
                name,
                value,
                clean: true,
            } => {
                w.put(name.as_bytes());
                w.put(if twice { b"%3D" } else { b"=" });
                w.put(value.as_bytes());
            }
            Piece::Param { name, value, .. } => {
                write_pair(w, name.as_bytes(), value.as_bytes(), twice)
            }
            Piece::Signature => {}
        }
    }
}

/// Writes one parameter of the parameter string, `name=value` with both
/// encoded, and all of it encoded once more if `twice`: the one definition
/// of a pair's form in the normalised parameters (§3.4.1.3.2).
pub(crate) fn write_pair<S: Sink + ?Sized>(
    w: &mut Writer<'_, S>,
    name: &[u8],
    value: &[u8],
    twice: bool,
) {
    Text::Raw(name).write_into(w, twice);
    w.put(if twice { b"%3D" } else { b"=" });
    Text::Raw(value).write_into(w, twice);
}

/// The normalised parameters (§3.4.1.3.2), ready to be written.
///
/// `Display` gives the parameter string (`a=b&c=d`);
/// [`write_to`](Self::write_to) writes the same into a [`Sink`], and
/// [`write_encoded`](Self::write_encoded) writes it encoded once more, as it
/// stands in the signature base string.
#[derive(Clone, Copy)]
pub struct Normalized<'p, 'a> {
    items: &'p [Param<'a>],
    /// A signer's protocol parameters, sorted, and the index among `items`
    /// they go before: every protocol name starts with `oauth_`, and no
    /// request parameter's may, so they sort as one run.
    protocol: Option<(usize, &'p [Piece<'a>])>,
}

impl<'p, 'a> Normalized<'p, 'a> {
    /// Parameters sorted by [`Params::normalize`].
    pub(crate) fn new(items: &'p [Param<'a>]) -> Self {
        Normalized {
            items,
            protocol: None,
        }
    }

    /// Sorted request parameters, none named `oauth_*`, with a signer's
    /// sorted protocol parameters written in where their names sort.
    pub(crate) fn with_protocol(items: &'p [Param<'a>], protocol: &'p [Piece<'a>]) -> Self {
        let at = items.partition_point(|p| p.cmp_name(b"oauth_").is_lt());
        Normalized {
            items,
            protocol: Some((at, protocol)),
        }
    }

    /// Writes the parameter string, encoded once more if `twice`.
    pub(crate) fn write_into<S: Sink + ?Sized>(&self, w: &mut Writer<'_, S>, twice: bool) {
        let amp: &[u8] = if twice { b"%26" } else { b"&" };
        let eq: &[u8] = if twice { b"%3D" } else { b"=" };
        let (at, protocol) = self.protocol.unwrap_or((usize::MAX, &[]));
        let (before, after) = self.items.split_at(at.min(self.items.len()));
        let mut first = true;
        let mut sep = |w: &mut Writer<'_, S>| {
            if !std::mem::replace(&mut first, false) {
                w.put(amp);
            }
        };
        for p in before {
            sep(w);
            p.name.write_into(w, twice);
            w.put(eq);
            p.value.write_into(w, twice);
        }
        for p in protocol {
            if !matches!(p, Piece::Signature) {
                sep(w);
                p.write_into(w, twice);
            }
        }
        for p in after {
            sep(w);
            p.name.write_into(w, twice);
            w.put(eq);
            p.value.write_into(w, twice);
        }
    }

    /// Writes the parameter string (`a=b&c=d`).
    pub fn write_to<S: Sink + ?Sized>(&self, sink: &mut S) {
        let mut w = Writer::new(sink);
        self.write_into(&mut w, false);
        w.finish();
    }

    /// Writes the parameter string percent-encoded (`a%3Db%26c%3Dd`).
    pub fn write_encoded<S: Sink + ?Sized>(&self, sink: &mut S) {
        let mut w = Writer::new(sink);
        self.write_into(&mut w, true);
        w.finish();
    }

    /// The parameters in normalised order (for a signer's, the request's
    /// own: its protocol parameters are written in, not listed).
    pub fn iter(&self) -> std::slice::Iter<'p, Param<'a>> {
        self.items.iter()
    }
}

impl fmt::Display for Normalized<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_to(&mut s);
        f.write_str(&s)
    }
}

impl fmt::Debug for Normalized<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Normalized")
            .field(&self.to_string())
            .finish()
    }
}
