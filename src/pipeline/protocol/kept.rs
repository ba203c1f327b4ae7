//! A [`Protocol`] kept after a verification: its texts in its holder's
//! buffer, one allocation for all of them, read back as the model.

use std::borrow::Cow;
use std::ops::Range;

use super::{Entry, Name, Protocol, Transmission};

impl Protocol<'_> {
    /// Its texts appended to `text`, each once, and where each went: what
    /// a holder of many texts ([`Verified`](crate::verify::Verified)) keeps
    /// in one allocation instead of one a text.
    pub(crate) fn keep_in(&self, text: &mut String) -> Kept {
        let mut place = |s: &str| {
            let start = text.len();
            text.push_str(s);
            start..text.len()
        };
        Kept {
            transmission: self.transmission,
            realm: self.realm.as_deref().map(&mut place),
            params: self
                .params
                .iter()
                .map(|e| KeptParam {
                    id: e.id,
                    name: place(&e.name),
                    value: place(&e.value),
                    at: e.at,
                })
                .collect(),
        }
    }
}

/// A [`Protocol`] whose texts are kept in its holder's buffer
/// ([`Protocol::keep_in`]): the transmission, and where the realm and each
/// name and value are in that buffer. Read back as the [`Protocol`] it was,
/// borrowing from the buffer ([`Kept::protocol`]), or one value at a time.
#[derive(Clone, Debug)]
pub(crate) struct Kept {
    transmission: Transmission,
    realm: Option<Range<usize>>,
    params: Vec<KeptParam>,
}

/// One parameter kept: where its name and value are in the holder's
/// buffer, the registered name it is (if it is one), and the offset where
/// it was read.
#[derive(Clone, Debug)]
struct KeptParam {
    id: Option<Name>,
    name: Range<usize>,
    value: Range<usize>,
    at: usize,
}

impl Kept {
    /// The protocol parameters kept, borrowed from `text`, the buffer they
    /// were kept in.
    pub(crate) fn protocol<'t>(&self, text: &'t str) -> Protocol<'t> {
        Protocol {
            transmission: self.transmission,
            realm: self.realm(text).map(Cow::Borrowed),
            params: self
                .params
                .iter()
                .map(|p| Entry {
                    id: p.id,
                    name: Cow::Borrowed(&text[p.name.clone()]),
                    value: Cow::Borrowed(&text[p.value.clone()]),
                    at: p.at,
                    clean: false,
                })
                .collect(),
        }
    }

    /// [`Protocol::get`] of what was kept, read from `text`.
    pub(crate) fn get<'t>(&self, text: &'t str, name: Name) -> Option<&'t str> {
        self.params
            .iter()
            .find(|p| p.id == Some(name))
            .map(|p| &text[p.value.clone()])
    }

    /// [`Protocol::realm`] of what was kept, read from `text`.
    pub(crate) fn realm<'t>(&self, text: &'t str) -> Option<&'t str> {
        self.realm.clone().map(|r| &text[r])
    }
}

/// `oauth_token`'s value as a token: an empty one is none (a request for
/// temporary credentials may send it empty).
pub(crate) fn token(value: Option<&str>) -> Option<&str> {
    value.filter(|t| !t.is_empty())
}
