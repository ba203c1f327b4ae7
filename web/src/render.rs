//! What the panels show alike: bytes in hex, a spot in an input (the text
//! before, at and after an error's span, so the page can mark it in place),
//! and where two texts differ.

use serde::Serialize;

/// `value` as JSON; a value that cannot be written says so in JSON.
pub fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!(r#"{{"fault":{:?}}}"#, e.to_string()))
}

/// Bytes as lower-case hex pairs separated by spaces: `e2 98 83`.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// A hex dump: per line of 16 bytes, the offset, the bytes, and the
/// printable ASCII ones (others as `.`).
pub fn hex_dump(bytes: &[u8]) -> String {
    let mut out = String::new();
    for (line, chunk) in bytes.chunks(16).enumerate() {
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
        out.push_str(&format!(
            "{:08x}  {:<47}  |{ascii}|\n",
            line * 16,
            hex(chunk)
        ));
    }
    out
}

/// An error, and where it is in the input it is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Spot {
    /// The error's own words (the library's `Display`).
    pub message: String,
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
            offset: None,
            before: String::new(),
            at: String::new(),
            after: String::new(),
        }
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
            hex_dump(b"\xff\xfeA"),
            format!("00000000  {:<47}  |..A|\n", "ff fe 41")
        );
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
