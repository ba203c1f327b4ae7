//! The one way the CLI writes JSON (`explain`, `verify`, `serve`): with
//! every control character escaped.

use serde::Serialize;
use serde_json::ser::Formatter;

/// `value` as JSON text with every control character escaped, and a final
/// newline, written by `format` (compact or pretty): serde_json escapes
/// U+0000..U+001F in strings, but leaves DEL and the C1 controls
/// (U+0080..U+009F, which some terminals obey) raw. They can only be in
/// strings, where `\uXXXX` is the same JSON value ([`TerminalSafe`]). The
/// one way `explain`, `verify` and `serve` write JSON.
///
/// # Errors
/// A `Serialize` impl's own failure (ours do not fail).
pub(crate) fn terminal_json<T: Serialize + ?Sized, F: Formatter>(
    value: &T,
    format: F,
) -> Result<String, serde_json::Error> {
    // A verdict's is about 700 bytes: written without growing.
    let mut out = Vec::with_capacity(1024);
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut out,
        TerminalSafe(format),
    ))?;
    out.push(b'\n');
    // serde_json writes UTF-8, and the escapes added are ASCII.
    String::from_utf8(out).map_err(|e| serde_json::Error::io(std::io::Error::other(e)))
}

/// A formatter that writes a string's DEL and C1 controls as `\u007f` ..
/// `\u009f` and is `F` in all else.
struct TerminalSafe<F>(F);

impl<F: Formatter> Formatter for TerminalSafe<F> {
    /// What serde_json did not escape: a run of a string's characters. In
    /// UTF-8 a DEL is 0x7f and a C1 control 0xc2 then 0x80..=0x9f, so the
    /// runs between those two lead bytes are copied as they are.
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let bytes = fragment.as_bytes();
        // Most fragments are ASCII below DEL: one pass without branches
        // (vectorised) says so, and they are copied whole.
        if bytes.iter().fold(0, |seen, &b| seen | u8::from(b >= 0x7f)) == 0 {
            return writer.write_all(bytes);
        }
        let (mut start, mut i) = (0, 0);
        while let Some(at) = bytes[i..].iter().position(|&b| b == 0x7f || b == 0xc2) {
            let at = i + at;
            let control = match (bytes[at], bytes.get(at + 1)) {
                (0x7f, _) => Some((0x7f, 1)),
                (_, Some(&next @ 0x80..=0x9f)) => Some((next, 2)),
                _ => None,
            };
            match control {
                Some((code, len)) => {
                    writer.write_all(&bytes[start..at])?;
                    write!(writer, "\\u{code:04x}")?;
                    start = at + len;
                    i = start;
                }
                // Another character after 0xc2 (U+00A0..U+00BF): kept.
                None => i = at + 1,
            }
        }
        writer.write_all(&bytes[start..])
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::ser::{CompactFormatter, PrettyFormatter};
    use std::fmt::Write as _;

    /// The naive reference: serde_json's text, then every control
    /// character but a newline escaped, a `char` at a time.
    fn naive(text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            if c.is_control() && c != '\n' {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            } else {
                out.push(c);
            }
        }
        out.push('\n');
        out
    }

    #[test]
    fn every_control_character_is_escaped_and_nothing_else_changes() {
        let mut texts: Vec<String> = (0..=0x10ffu32)
            .filter_map(char::from_u32)
            .map(|c| format!("a{c}b{c}{c}"))
            .collect();
        texts.push("\u{7f}\u{80}\u{9f}\u{a0}\u{c2}\u{bf}é\u{1b}[31m\u{85}".to_owned());
        texts.push(String::new());
        for text in &texts {
            let value = serde_json::json!({"k\u{85}": [text, 1, null], "v": {"x": text}});
            assert_eq!(
                terminal_json(&value, CompactFormatter).unwrap(),
                naive(&serde_json::to_string(&value).unwrap()),
                "{text:?}"
            );
            assert_eq!(
                terminal_json(&value, PrettyFormatter::new()).unwrap(),
                naive(&serde_json::to_string_pretty(&value).unwrap()),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_del_and_a_c1_control_are_written_as_escapes() {
        let text = terminal_json(&["\u{7f}x\u{9b}2J\u{a0}"], CompactFormatter).unwrap();
        assert_eq!(text, "[\"\\u007fx\\u009b2J\u{a0}\"]\n");
    }
}
