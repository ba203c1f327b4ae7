//! What a variant the search found says: the mistake, naming the
//! parameter it leaves out, and the real encoders that write the same base
//! string.

use super::super::lenient::show;
use super::super::model::{Model, Scratch};
use super::super::tried::Tried;
use super::super::variant::{Variant, ENCODERS};

/// What a mistake says, naming the parameter it leaves out.
pub(super) fn describe(model: &Model, m: Tried) -> String {
    let dropped = m
        .dropped()
        .and_then(|i| model.params.get(i))
        .map(|p| show(&p.name));
    m.describe(dropped.as_deref())
}

/// The real encoders ([`ENCODERS`]) that, used where the encoding mistake
/// `m` is (with the `rest` of its combination), write `base`: those the
/// evidence fits.
pub(super) fn fitting_encoders(
    model: &Model,
    m: Tried,
    rest: &[Tried],
    base: &[u8],
    s: &mut Scratch,
    out: &mut Vec<u8>,
) -> Vec<&'static str> {
    let Some(level) = m.level() else {
        return Vec::new();
    };
    let own = m.encoder().map(|e| e.name);
    ENCODERS
        .iter()
        .filter(|e| Some(e.name) != own)
        .filter(|e| {
            let mut v = Variant::default();
            if !rest.iter().all(|o| o.apply(&mut v)) {
                return false;
            }
            v.named = true;
            level.set(&mut v, |_| e.enc);
            model.write(&v, s, out);
            out == base
        })
        .map(|e| e.name)
        .collect()
}

/// The sentence naming the real encoders that write what `m` writes.
pub(super) fn encoders_sentence(m: Tried, names: &[&str]) -> String {
    let list = match names {
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => String::new(),
    };
    match (m.encoder(), names.len()) {
        (Some(_), 1) => format!("So does {list} here."),
        (Some(_), _) => format!("So do {list} here."),
        (None, 1) => format!("{list} writes this base string here."),
        (None, _) => format!("{list} write this base string here."),
    }
}

/// `text` as a sentence's start: its first letter upper-case.
pub(super) fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
