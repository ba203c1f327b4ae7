//! What the panels show alike: bytes in hex, a spot in an input (the text
//! before, at and after an error's span, so the page can mark it in place),
//! where two texts differ, and hints: the page's own advice, by a stable
//! code the page words in the reader's language.

use serde::Serialize;

pub use crate::say::{Arg, Hint};

/// `value` as JSON; a value that cannot be written says so in JSON.
pub fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!(r#"{{"fault":{:?}}}"#, e.to_string()))
}

/// Bytes as lower-case hex pairs separated by spaces: `e2 98 83`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 3);
    for (i, &b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}

/// How many bytes a line of the panels shows in hex: the rest are counted,
/// not laid out (64 KiB in hex is 192 KiB of text to lay out at every
/// keystroke).
pub const HEX_PREVIEW: usize = 64;

/// The first [`HEX_PREVIEW`] bytes in hex.
pub fn hex_preview(bytes: &[u8]) -> String {
    hex(&bytes[..bytes.len().min(HEX_PREVIEW)])
}

/// Bytes in a line of a hex dump.
pub const DUMP_WIDTH: usize = 16;

/// How many lines a hex dump of `len` bytes has.
pub fn dump_lines(len: usize) -> usize {
    len.div_ceil(DUMP_WIDTH)
}

/// Lines `from..from + count` of a hex dump of `bytes` (fewer at the end):
/// per line of 16 bytes, the offset, the bytes, and the printable ASCII ones
/// (others as `.`). The page shows the lines in view, not all of them.
pub fn hex_dump_lines(bytes: &[u8], from: usize, count: usize) -> Vec<String> {
    bytes
        .chunks(DUMP_WIDTH)
        .enumerate()
        .skip(from)
        .take(count)
        .map(|(line, chunk)| {
            let ascii: String = chunk
                .iter()
                .map(|&b| {
                    if b.is_ascii_graphic() || b == b' ' {
                        b as char
                    } else {
                        '.'
                    }
                })
                .collect();
            format!("{:08x}  {:<47}  |{ascii}|", line * DUMP_WIDTH, hex(chunk))
        })
        .collect()
}

/// An error, and where it is in the input it is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Spot {
    /// The error's own words in English (the library's `Display`), for
    /// scripts.
    pub message: String,
    /// What the page says of it, in the reader's language.
    pub said: Option<Hint>,
    /// Byte offset of the span, if the error points at one.
    pub offset: Option<usize>,
    /// The input before the span.
    pub before: String,
    /// The span itself.
    pub at: String,
    /// The input after the span.
    pub after: String,
}

impl Spot {
    /// An error that points at no byte of `input`.
    pub fn message(message: impl Into<String>) -> Spot {
        Spot {
            message: message.into(),
            said: None,
            offset: None,
            before: String::new(),
            at: String::new(),
            after: String::new(),
        }
    }

    /// The same, with what the page says of it.
    pub fn said(mut self, said: Hint) -> Spot {
        self.said = Some(said);
        self
    }

    /// The library's error `e` about `input`, at its offset if it has one,
    /// with what the page says of it.
    pub fn of(e: &oauth1_signer::Error, input: &str) -> Spot {
        Spot::of_in(e, input, 0)
    }

    /// [`of`](Self::of) for an error about `input[shift..]`, marked and
    /// said in `input`.
    pub fn of_in(e: &oauth1_signer::Error, input: &str, shift: usize) -> Spot {
        let spot = match e.offset() {
            Some((_, at)) => Spot::at(e.to_string(), input, shift + at, e.span_len()),
            None => Spot::message(e.to_string()),
        };
        spot.said(crate::say::error_in(e, input, shift))
    }

    /// An error at bytes `offset..offset + len` of `input`, widened to whole
    /// characters (an offset past the end marks the end).
    pub fn at(message: impl Into<String>, input: &str, offset: usize, len: usize) -> Spot {
        let mut start = offset.min(input.len());
        while !input.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = start.saturating_add(len.max(1)).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        Spot {
            message: message.into(),
            said: None,
            offset: Some(offset),
            before: input[..start].to_owned(),
            at: input[start..end].to_owned(),
            after: input[end..].to_owned(),
        }
    }
}

/// A text split where it differs from another: the common start, the part
/// that differs, the common end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diff {
    /// What both texts start with.
    pub same_start: String,
    /// This text's part that differs.
    pub differs: String,
    /// What both texts end with (after `same_start`).
    pub same_end: String,
}

/// `ours` and `theirs`, each split around where they differ (by character).
pub fn diff(ours: &str, theirs: &str) -> (Diff, Diff) {
    let start: usize = ours
        .char_indices()
        .zip(theirs.chars())
        .take_while(|((_, a), b)| a == b)
        .map(|((_, a), _)| a.len_utf8())
        .sum();
    let (o, t) = (&ours[start..], &theirs[start..]);
    let end: usize = o
        .chars()
        .rev()
        .zip(t.chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum();
    let split = |s: &str| Diff {
        same_start: s[..start].to_owned(),
        differs: s[start..s.len() - end].to_owned(),
        same_end: s[s.len() - end..].to_owned(),
    };
    (split(ours), split(theirs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_dump() {
        assert_eq!(hex(&[0xe2, 0x98, 0x83]), "e2 98 83");
        assert_eq!(
            hex_dump_lines(b"\xff\xfeA", 0, 9),
            [format!("00000000  {:<47}  |..A|", "ff fe 41")]
        );
        let bytes = [0u8; 40];
        assert_eq!(dump_lines(bytes.len()), 3);
        let last = hex_dump_lines(&bytes, 2, 9);
        assert_eq!(last.len(), 1);
        assert_eq!(
            last[0],
            format!("00000020  {:<47}  |........|", hex(&[0; 8]))
        );
        assert_eq!(hex_preview(&[0xab; 100]).len(), HEX_PREVIEW * 3 - 1);
    }

    #[test]
    fn a_spot_is_widened_to_whole_characters() {
        // '☃' is bytes 1..4; a span from byte 2 marks all of it.
        let s = Spot::at("m", "a☃b", 2, 1);
        assert_eq!(
            (s.before.as_str(), s.at.as_str(), s.after.as_str()),
            ("a", "☃", "b")
        );
        let end = Spot::at("m", "ab", 9, 1);
        assert_eq!((end.before.as_str(), end.at.as_str()), ("ab", ""));
    }

    #[test]
    fn a_diff_keeps_what_is_common() {
        let (o, t) = diff("a%20b", "a+b");
        assert_eq!(
            (
                o.same_start.as_str(),
                o.differs.as_str(),
                o.same_end.as_str()
            ),
            ("a", "%20", "b")
        );
        assert_eq!(t.differs, "+");
        let (o, t) = diff("same", "same");
        assert_eq!((o.differs.as_str(), t.same_start.as_str()), ("", "same"));
        // A common end never overlaps the common start.
        let (o, t) = diff("aa", "aaa");
        assert_eq!(
            (
                o.same_start.as_str(),
                o.differs.as_str(),
                o.same_end.as_str()
            ),
            ("aa", "", "")
        );
        assert_eq!(t.differs, "a");
    }
}
