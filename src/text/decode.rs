//! Strict percent-decoding ([RFC 5849 §3.6], [RFC 3986 §2.1]).
//!
//! `%XX` (either case) becomes the byte; a `%` that is not followed by two
//! hex digits is refused, naming its offset, never passed through or guessed
//! at. In form-encoded text (a query, a form body) a `+` is a space. Decoded
//! values are bytes: `%FF` is a valid value even though it is not UTF-8.
//!
//! [RFC 5849 §3.6]: https://www.rfc-editor.org/rfc/rfc5849#section-3.6
//! [RFC 3986 §2.1]: https://www.rfc-editor.org/rfc/rfc3986#section-2.1

use std::borrow::Cow;
use std::fmt;

use crate::error::{Error, Part};
use crate::text::scan::{
    escapes_complete, escapes_complete_wide, find_byte, find_either, hex_value, HEX_VALUE,
};

/// Checks every `%` in `input` and says whether decoding would change anything.
///
/// `base` is added to offsets in errors, so that an error inside a URL's query
/// names its byte offset within the whole URL.
pub(crate) fn check_escapes(
    input: &[u8],
    form: bool,
    part: Part,
    base: usize,
) -> Result<bool, Error> {
    // Most names, values and paths hold no `%` at all.
    let Some(first) = find_byte(input, b'%') else {
        return Ok(form && find_byte(input, b'+').is_some());
    };
    let rest = &input[first..];
    let complete = if rest.len() >= 64 {
        escapes_complete_wide(rest)
    } else {
        escapes_complete(rest)
    };
    if complete {
        Ok(true)
    } else {
        check_escapes_slow(input, form, part, base)
    }
}

#[cold]
fn check_escapes_slow(input: &[u8], form: bool, part: Part, base: usize) -> Result<bool, Error> {
    let mut changes = false;
    let mut i = 0;
    while i < input.len() {
        match input[i] {
            b'%' => {
                let ok = matches!(
                    (input.get(i + 1), input.get(i + 2)),
                    (Some(&h), Some(&l)) if hex_value(h).is_some() && hex_value(l).is_some()
                );
                if !ok {
                    return Err(Error::malformed_escape(part, input, i).shifted(base));
                }
                changes = true;
                i += 3;
            }
            b'+' if form => {
                changes = true;
                i += 1;
            }
            _ => i += 1,
        }
    }
    Ok(changes)
}

/// The bytes of an already-checked encoded string, decoded one at a time.
#[derive(Clone, Debug)]
pub(crate) struct DecodeBytes<'a> {
    rest: &'a [u8],
    form: bool,
}

impl<'a> DecodeBytes<'a> {
    /// `input` must have passed [`check_escapes`]; a malformed escape that slips
    /// through decodes to its `%` rather than panicking, and what follows the
    /// `%` is read as it is (the explainer reads another side's text so).
    pub(crate) fn new(input: &'a [u8], form: bool) -> Self {
        DecodeBytes { rest: input, form }
    }
}

impl Iterator for DecodeBytes<'_> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        let (&b, tail) = self.rest.split_first()?;
        match b {
            b'%' => {
                if let [h, l, tail @ ..] = tail
                    && let (Some(h), Some(l)) = (hex_value(*h), hex_value(*l))
                {
                    self.rest = tail;
                    return Some(h << 4 | l);
                }
                self.rest = tail;
                Some(b'%')
            }
            b'+' if self.form => {
                self.rest = tail;
                Some(b' ')
            }
            _ => {
                self.rest = tail;
                Some(b)
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.rest.len().div_ceil(3), Some(self.rest.len()))
    }
}

/// The result of strict decoding: bytes, which may or may not be UTF-8 text.
#[derive(Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    bytes: Cow<'a, [u8]>,
}

impl<'a> Decoded<'a> {
    /// The decoded bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The decoded bytes as text, if they are valid UTF-8.
    pub fn to_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes).ok()
    }

    /// Whether the decoded bytes are valid UTF-8 (overlong forms, surrogates,
    /// truncated sequences and stray continuation bytes are not).
    pub fn is_text(&self) -> bool {
        self.to_str().is_some()
    }

    /// The decoded bytes, borrowed from the input when nothing needed decoding.
    pub fn into_bytes(self) -> Cow<'a, [u8]> {
        self.bytes
    }
}

impl fmt::Debug for Decoded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_str() {
            Some(s) => f.debug_tuple("Text").field(&s).finish(),
            None => f
                .debug_tuple("Binary")
                .field(&format_args!("{}", self.bytes.escape_ascii()))
                .finish(),
        }
    }
}

fn decode(input: &[u8], form: bool) -> Result<Decoded<'_>, Error> {
    let bytes = if check_escapes(input, form, Part::Input, 0)? {
        Cow::Owned(decode_checked(input, form))
    } else {
        Cow::Borrowed(input)
    };
    Ok(Decoded { bytes })
}

/// Decodes `input`, which has passed [`check_escapes`]: runs without escapes
/// are copied whole, found eight bytes at a time.
fn decode_checked(input: &[u8], form: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut rest = input;
    loop {
        let next = if form {
            find_either(rest, b'%', b'+')
        } else {
            find_byte(rest, b'%')
        };
        let Some(at) = next else {
            out.extend_from_slice(rest);
            return out;
        };
        out.extend_from_slice(&rest[..at]);
        rest = &rest[at..];
        // A run of escapes (non-Latin text is nothing else) in a tight loop.
        while let [b'%', h, l, tail @ ..] = rest {
            let (h, l) = (HEX_VALUE[*h as usize], HEX_VALUE[*l as usize]);
            if (h | l) >= 16 {
                break;
            }
            out.push(h << 4 | l);
            rest = tail;
        }
        // A '+' (form), or a '%' that slipped past the check (kept as it is).
        if let [b, tail @ ..] = rest
            && (*b == b'+' || *b == b'%')
        {
            out.push(if *b == b'+' && form { b' ' } else { *b });
            rest = tail;
        }
    }
}

/// Decoded bytes as text, each sequence that is not UTF-8 replaced by
/// U+FFFD as `String::from_utf8_lossy` does, but checked by `from_utf8`
/// first (whose scan of ASCII runs a word at a time, where the lossy one
/// goes a byte at a time): borrowed bytes that are text stay borrowed, and
/// owned bytes are kept, not copied.
pub(crate) fn lossy_text(bytes: Cow<'_, [u8]>) -> Cow<'_, str> {
    match bytes {
        Cow::Borrowed(b) => match std::str::from_utf8(b) {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(b),
        },
        Cow::Owned(v) => Cow::Owned(
            String::from_utf8(v)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        ),
    }
}

/// Strictly decodes percent-escapes; a `+` stays a `+` (RFC 3986 plain mode).
///
/// Use this for values that are percent-encoded but not form-encoded, such as
/// the quoted values of an `Authorization` header.
///
/// ```
/// use oauth1_signer::text::percent_decode;
///
/// assert_eq!(percent_decode(b"a+b%2bc%2Bd").unwrap().to_str(), Some("a+b+c+d"));
/// assert_eq!(percent_decode(b"%FF").unwrap().as_bytes(), &[0xFF]);
/// let err = percent_decode(b"abc%2Gdef").unwrap_err();
/// assert_eq!(err.offset().map(|(_, at)| at), Some(3));
/// ```
///
/// # Errors
/// A `%` not followed by two hex digits: [`ErrorKind::MalformedEscape`](crate::ErrorKind::MalformedEscape)
/// with the offset of the `%`.
pub fn percent_decode(input: &[u8]) -> Result<Decoded<'_>, Error> {
    decode(input, false)
}

/// Strictly decodes `application/x-www-form-urlencoded` text: a `+` is a space.
///
/// This is how query strings and form bodies are read before signing.
///
/// ```
/// use oauth1_signer::text::form_decode;
///
/// assert_eq!(form_decode(b"x+y%21").unwrap().to_str(), Some("x y!"));
/// assert!(form_decode(b"100%").is_err());
/// ```
///
/// # Errors
/// A `%` not followed by two hex digits: [`ErrorKind::MalformedEscape`](crate::ErrorKind::MalformedEscape)
/// with the offset of the `%`.
pub fn form_decode(input: &[u8]) -> Result<Decoded<'_>, Error> {
    decode(input, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::scan::has_escapes;

    #[test]
    fn lossy_text_is_from_utf8_lossy() {
        // Text, a lone continuation byte, a cut sequence, an overlong one.
        let cases: [&[u8]; 5] = [
            b"ascii",
            "caf\u{e9} \u{2603}".as_bytes(),
            b"a\x80b",
            b"\xe2\x98",
            b"\xc0\xaf!",
        ];
        for bytes in cases {
            let want = String::from_utf8_lossy(bytes).into_owned();
            assert_eq!(lossy_text(Cow::Borrowed(bytes)), want, "{bytes:?}");
            assert_eq!(lossy_text(Cow::Owned(bytes.to_vec())), want, "{bytes:?}");
        }
        assert_eq!(lossy_text(Cow::Borrowed(b"a\x80b")), "a\u{fffd}b");
        // Text borrowed is lent back, not copied.
        assert!(matches!(
            lossy_text(Cow::Borrowed(b"ascii")),
            Cow::Borrowed("ascii")
        ));
    }

    #[test]
    fn escape_scan_agrees_with_the_sequential_check() {
        let pieces: [&[u8]; 8] = [b"%", b"4", b"1", b"g", b"+", b"a", b"%%", b"F"];
        // Every string of up to five pieces.
        let mut stack = vec![Vec::new()];
        while let Some(s) = stack.pop() {
            for form in [false, true] {
                let slow = check_escapes_slow(&s, form, Part::Input, 0);
                let fast = check_escapes(&s, form, Part::Input, 0);
                assert_eq!(fast, slow, "{:?}", s.escape_ascii().to_string());
                assert_eq!(escapes_complete(&s), slow.is_ok());
                assert_eq!(escapes_complete_wide(&s), slow.is_ok());
                if let Ok(changes) = slow {
                    assert_eq!(has_escapes(&s, form), changes);
                }
            }
            if s.len() < 6 {
                for p in pieces {
                    stack.push([&s[..], p].concat());
                }
            }
        }
    }

    #[test]
    fn fast_decoding_agrees_with_the_byte_iterator() {
        let long = "%E0%A4%A8+a%20b%2b%%41".repeat(20);
        for input in [
            &b""[..],
            b"+",
            b"%41",
            b"a+b%2Bc",
            b"%",
            b"%4",
            b"%%41",
            b"ab%zz+",
            long.as_bytes(),
        ] {
            for form in [false, true] {
                let want: Vec<u8> = DecodeBytes::new(input, form).collect();
                assert_eq!(
                    decode_checked(input, form),
                    want,
                    "{:?} {form}",
                    input.escape_ascii().to_string()
                );
            }
        }
    }

    #[test]
    fn decode_accepts_either_hex_case() {
        assert_eq!(percent_decode(b"%2b%2B").unwrap().as_bytes(), b"++");
    }

    #[test]
    fn decode_rejects_bad_escapes_with_offsets() {
        for (input, at, found) in [
            (&b"%2G"[..], 0, "%2G"),
            (b"ab%4", 2, "%4"),
            (b"abc%", 3, "%"),
            (b"%%41", 0, "%%4"),
            (b"ok%41%g1", 5, "%g1"),
        ] {
            let err = form_decode(input).unwrap_err();
            assert_eq!(
                err.kind(),
                &crate::ErrorKind::MalformedEscape {
                    part: Part::Input,
                    offset: at,
                    found: found.into()
                },
                "{input:?}"
            );
        }
    }

    #[test]
    fn decode_borrows_when_nothing_changes() {
        assert!(matches!(
            form_decode(b"plain").unwrap().into_bytes(),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            percent_decode(b"a+b").unwrap().into_bytes(),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            form_decode(b"a+b").unwrap().into_bytes(),
            Cow::Owned(_)
        ));
    }

    #[test]
    fn binary_is_not_text() {
        let d = percent_decode(b"%C0%AF").unwrap(); // overlong '/'
        assert!(!d.is_text());
        let d = percent_decode(b"%ED%A0%80").unwrap(); // surrogate
        assert!(!d.is_text());
        assert!(percent_decode(b"%E2%98%83").unwrap().is_text());
    }

    #[test]
    fn debug_shows_the_decoded_bytes() {
        assert_eq!(
            format!("{:?}", form_decode(b"screen+name%3Djack").unwrap()),
            r#"Text("screen name=jack")"#
        );
        assert_eq!(
            format!("{:?}", percent_decode(b"a%FF%0A").unwrap()),
            r#"Binary(a\xff\n)"#
        );
    }

    #[test]
    fn size_hint_bounds_the_decoded_length() {
        // Each decoded byte takes one to three input bytes: 0 for "", 2 for
        // "%41%42", 3 for "a+b", 4 for "%41bcd".
        for (input, n) in [(&b""[..], 0), (b"%41%42", 2), (b"a+b", 3), (b"%41bcd", 4)] {
            let it = DecodeBytes::new(input, true);
            let (lo, hi) = it.size_hint();
            assert_eq!(it.count(), n);
            assert!(
                lo <= n && hi.is_some_and(|hi| n <= hi),
                "{input:?}: {lo} {hi:?}"
            );
        }
    }
}
