//! A signer's own protocol parameters, rendered once.
//!
//! Most requests bring no protocol parameter of their own: the signer sends
//! the same consumer key, token, method and version every time, and only the
//! nonce, the timestamp and the signature change. So when a [`Signer`] is
//! built, its parameters are rendered twice over: as the run they make among
//! the base string's normalised parameters (encoded twice, joined with `%26`)
//! and as the `Authorization` header around the signature (encoded once).
//! Signing such a request copies the rendered text and fills in the three
//! values, instead of collecting, sorting, encoding and joining seven
//! parameters again.
//!
//! A signer renders when it signs its second request, so one built for a
//! single request pays nothing for it.
//!
//! The run stays whole in the sorted parameters as long as no request
//! parameter's name starts with `oauth_` (every name between two protocol
//! names does); the signer checks that, and takes the general path otherwise.
//!
//! [`Signer`]: crate::Signer

use crate::encode::{encode_to, encode_twice_to, encoded_len, escape_str, is_unreserved};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use crate::sink::{Sink, Writer};

/// A value that is only known when a request is signed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    /// A fresh nonce: alphanumeric, so the same at any depth of encoding.
    Nonce,
    /// A fresh timestamp: decimal digits, likewise.
    Timestamp,
    /// The signature (in the header only), encoded once.
    Signature,
}

/// A protocol parameter's value, as the signer knows it when it is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value<'s> {
    Fixed(&'s str),
    Slot(Slot),
}

/// One piece of rendered text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Slot(Slot),
}

/// The pieces of one rendering, literal text merged.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Pieces(Vec<Piece>);

impl Pieces {
    fn push_str(&mut self, s: &str) {
        match self.0.last_mut() {
            Some(Piece::Text(t)) => t.push_str(s),
            _ => self.0.push(Piece::Text(s.to_owned())),
        }
    }

    /// Appends `text` percent-encoded, once or `twice`.
    fn push_encoded(&mut self, text: &str, twice: bool) {
        let mut encoded = String::new();
        if twice {
            encode_twice_to(text.as_bytes(), &mut encoded);
        } else {
            encode_to(text.as_bytes(), &mut encoded);
        }
        self.push_str(&encoded);
    }

    fn push_slot(&mut self, slot: Slot) {
        self.0.push(Piece::Slot(slot));
    }

    /// Appends one parameter, after `separator` unless it is the `first`:
    /// the name, then the value between `around`, encoded once or `twice`.
    fn push_param(
        &mut self,
        first: &mut bool,
        separator: &str,
        name: &str,
        around: (&str, &str),
        value: Value<'_>,
        twice: bool,
    ) {
        if !std::mem::replace(first, false) {
            self.push_str(separator);
        }
        self.push_encoded(name, twice);
        self.push_str(around.0);
        match value {
            Value::Fixed(v) => self.push_encoded(v, twice),
            Value::Slot(slot) => self.push_slot(slot),
        }
        self.push_str(around.1);
    }
}

/// The values filled in for one request.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Filled<'v> {
    pub(crate) nonce: &'v str,
    pub(crate) timestamp: &'v str,
    pub(crate) signature: &'v str,
}

impl<'v> Filled<'v> {
    fn get(&self, slot: Slot) -> &'v str {
        match slot {
            Slot::Nonce => self.nonce,
            Slot::Timestamp => self.timestamp,
            Slot::Signature => self.signature,
        }
    }
}

/// A signer's protocol parameters, rendered for the base string and for the
/// header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Rendered {
    base: Pieces,
    header: Pieces,
}

impl Rendered {
    /// Renders `params`, sorted by name and holding `oauth_signature` as
    /// [`Slot::Signature`], with `realm` first in the header.
    pub(crate) fn new<'s>(
        realm: Option<&str>,
        params: impl IntoIterator<Item = (&'s str, Value<'s>)>,
    ) -> Rendered {
        let mut base = Pieces::default();
        let mut header = Pieces::default();
        header.push_str("OAuth ");
        let mut first_header = true;
        if let Some(realm) = realm {
            header.push_str("realm=\"");
            header.push_str(realm);
            header.push_str("\"");
            first_header = false;
        }
        let mut first_base = true;
        for (name, value) in params {
            header.push_param(&mut first_header, ", ", name, ("=\"", "\""), value, false);
            if value != Value::Slot(Slot::Signature) {
                base.push_param(&mut first_base, "%26", name, ("%3D", ""), value, true);
            }
        }
        Rendered { base, header }
    }

    /// Writes the parameters' run in the base string.
    pub(crate) fn write_base<S: Sink + ?Sized>(&self, w: &mut Writer<'_, S>, values: &Filled<'_>) {
        for piece in &self.base.0 {
            match piece {
                Piece::Text(t) => w.put(t.as_bytes()),
                Piece::Slot(slot) => w.put(values.get(*slot).as_bytes()),
            }
        }
    }

    /// The `Authorization` header, allocated once at its exact length.
    pub(crate) fn header(&self, values: &Filled<'_>) -> String {
        let len = self
            .header
            .0
            .iter()
            .map(|piece| match piece {
                Piece::Text(t) => t.len(),
                Piece::Slot(Slot::Signature) => encoded_len(values.signature.as_bytes()),
                Piece::Slot(slot) => values.get(*slot).len(),
            })
            .sum();
        let mut out = String::with_capacity(len);
        for piece in &self.header.0 {
            match piece {
                Piece::Text(t) => out.push_str(t),
                Piece::Slot(Slot::Signature) => push_encoded(&mut out, values.signature),
                Piece::Slot(slot) => out.push_str(values.get(*slot)),
            }
        }
        out
    }
}

/// Appends `text` percent-encoded: runs of unreserved bytes as slices of it,
/// other bytes as their escapes. A signature is short (28 characters of
/// base64 for HMAC-SHA1) and mostly unreserved.
fn push_encoded(out: &mut String, text: &str) {
    let mut run = 0;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if !is_unreserved(b) {
            // A run holds unreserved (ASCII) bytes only, so a non-empty one
            // is whole text; an empty one may sit inside a character, where
            // `get` gives nothing.
            out.push_str(text.get(run..i).unwrap_or_default());
            out.push_str(escape_str(b));
            run = i + 1;
        }
    }
    out.push_str(text.get(run..).unwrap_or_default());
}

/// A signer's [`Rendered`] parameters, made when it signs its second request:
/// rendering costs a few allocations, which a signer built for one request
/// (or changed by a builder method afterwards) never pays.
#[derive(Debug, Default)]
pub(crate) struct Lazy {
    used: AtomicBool,
    rendered: OnceLock<Rendered>,
}

impl Clone for Lazy {
    fn clone(&self) -> Lazy {
        Lazy {
            used: AtomicBool::new(self.used.load(Ordering::Relaxed)),
            rendered: self.rendered.clone(),
        }
    }
}

impl Lazy {
    /// The rendered parameters, rendered by `render` if this is the second
    /// request or later; `None` on the first.
    pub(crate) fn get(&self, render: impl FnOnce() -> Rendered) -> Option<&Rendered> {
        if let Some(rendered) = self.rendered.get() {
            return Some(rendered);
        }
        if !self.used.swap(true, Ordering::Relaxed) {
            return None;
        }
        Some(self.rendered.get_or_init(render))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_both_encodings_and_fills_the_slots() {
        let r = Rendered::new(
            Some("Photos"),
            [
                ("oauth_consumer_key", Value::Fixed("a b")),
                ("oauth_nonce", Value::Slot(Slot::Nonce)),
                ("oauth_signature", Value::Slot(Slot::Signature)),
                ("oauth_timestamp", Value::Slot(Slot::Timestamp)),
            ],
        );
        let values = Filled {
            nonce: "n0",
            timestamp: "17",
            signature: "a+b/c=",
        };
        let mut base = Vec::new();
        let mut w = Writer::new(&mut base);
        r.write_base(&mut w, &values);
        w.finish();
        assert_eq!(
            String::from_utf8(base).unwrap(),
            "oauth_consumer_key%3Da%2520b%26oauth_nonce%3Dn0%26oauth_timestamp%3D17"
        );
        let header = r.header(&values);
        assert_eq!(
            header,
            r#"OAuth realm="Photos", oauth_consumer_key="a%20b", oauth_nonce="n0", oauth_signature="a%2Bb%2Fc%3D", oauth_timestamp="17""#
        );
        assert_eq!(header.capacity(), header.len());
    }
}
