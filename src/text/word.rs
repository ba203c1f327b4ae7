//! The words a user types for the library's choices (a transmission, a
//! body-hash policy or algorithm, a provider): each type's one list of names,
//! read with ASCII case ignored, as the signature method's are, and the
//! error that names the word given and the words accepted.

use crate::error::{Error, ErrorKind};

/// The one of `all` whose name (`names`, in the same order) is `word`, ASCII
/// case aside.
pub(crate) fn parse<T: Copy>(
    what: &'static str,
    all: &[T],
    names: &'static [&'static str],
    word: &str,
) -> Result<T, Error> {
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(word))
        .and_then(|i| all.get(i).copied())
        .ok_or_else(|| {
            Error::new(ErrorKind::UnknownName {
                what,
                name: word.to_owned(),
                expected: names,
            })
        })
}

/// The names of the values in a constant array, in its order, each its
/// `const fn as_str(self)`: `names!(Transmission::ALL)`.
macro_rules! names {
    ($all:expr) => {{
        let mut names = [""; $all.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = $all[i].as_str();
            i += 1;
        }
        names
    }};
}
pub(crate) use names;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_is_read_case_aside_and_an_unknown_one_named_with_the_choices() {
        const NAMES: [&str; 2] = ["header", "form-body"];
        assert_eq!(parse("transmission", &[1, 2], &NAMES, "Form-Body"), Ok(2));
        let e = parse("transmission", &[1, 2], &NAMES, "body\u{1b}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown transmission \"body\\u{1b}\" (expected header, form-body)"
        );
    }
}
