//! What a catalogue row says the search tries: where its findings point,
//! and the mistakes, each with how it changes a [`Variant`].

use super::super::variant::{Departure, Depth, KeyRule, Variant};

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
    /// A real encoder ([`ENCODERS`](super::super::variant::ENCODERS), by index),
    /// tried at each [`EncodingLevel`](super::super::tried::EncodingLevel).
    Named(usize),
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

pub(super) const fn m(what: &'static str, change: Change) -> Mistake {
    Mistake { what, change }
}
