//! The Percent panel: text to its strict encoding (RFC 5849 §3.6), and an
//! encoded string back to bytes, strictly (RFC 3986) or as form text, where
//! `+` is a space; per character, the UTF-8 bytes it became and their
//! escapes. The library decides; this shapes its answer and adds the hints
//! where strictness surprises.

use oauth1_signer::{
    text::escape_controls, text::form_decode, text::percent_decode, text::percent_encode_str,
    text::Decoded, Error,
};
use serde::Serialize;
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization as _;

use crate::render::{dump_lines, hex, hex_dump_lines, hex_preview, Hint, Spot};

/// Text, encoded, as an edit of the encoding answered last: the first
/// `kept` bytes of that encoding stand, followed by `tail`. Typing at the
/// end of 256 KiB changes a few bytes of a 576 K-character encoding; the
/// page replaces those, and nothing crosses between WebAssembly and the
/// page but them.
#[derive(Clone, Debug, Serialize)]
pub struct EncodedEdit {
    /// How many bytes (ASCII: characters) of the last encoding stand.
    pub kept: usize,
    /// What follows them: the encoding of the text after their source.
    pub tail: String,
    /// The first bytes of the text's UTF-8 form, in hex
    /// ([`HEX_PREVIEW`](crate::render::HEX_PREVIEW) of them).
    pub bytes: String,
    /// How many bytes.
    pub byte_len: usize,
    /// Advice: `decomposed` (a character written as a letter and a
    /// combining mark).
    pub hints: Vec<Hint>,
}

/// The text encoded last by [`encode_edit`], and its encoding.
#[derive(Default)]
struct Last {
    text: String,
    encoded: String,
}

thread_local! {
    static LAST: std::cell::RefCell<Last> = std::cell::RefCell::default();
}

/// Encodes `text` as the signer does, as an edit of the encoding this
/// answered last (the first answer replaces an empty one). The encoding is
/// byte by byte (RFC 5849 §3.6), so the encoding of the bytes `text`
/// shares with the last text at its start is the start of the last
/// encoding: only the rest is encoded.
pub fn encode_edit(text: &str) -> EncodedEdit {
    LAST.with(|last| edit_of(&mut last.borrow_mut(), text))
}

/// [`encode_edit`] of `last`, which becomes `text` and its encoding.
fn edit_of(last: &mut Last, text: &str) -> EncodedEdit {
    let mut same = last
        .text
        .bytes()
        .zip(text.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !text.is_char_boundary(same) || !last.text.is_char_boundary(same) {
        same -= 1;
    }
    let kept = last.encoded.len() - encoded_len(&last.text[same..]);
    let tail = percent_encode_str(&text[same..]).to_string();
    last.encoded.truncate(kept);
    last.encoded.push_str(&tail);
    last.text.truncate(same);
    last.text.push_str(&text[same..]);
    EncodedEdit {
        kept,
        tail,
        bytes: hex_preview(text.as_bytes()),
        byte_len: text.len(),
        hints: decomposed(text).into_iter().collect(),
    }
}

/// The length of `text`'s encoding: three bytes for each byte that is
/// escaped, one for each that is not.
fn encoded_len(text: &str) -> usize {
    percent_encode_str(text).to_string().len()
}

/// An encoded string, decoded.
#[derive(Clone, Debug, Serialize)]
pub struct DecodedText {
    /// The decoded text, if the bytes are UTF-8.
    pub text: Option<String>,
    /// Whether the bytes are not UTF-8 (binary, not text).
    pub binary: bool,
    /// The first decoded bytes in hex.
    pub bytes: String,
    /// The first lines of the decoded bytes' hex dump, if they are binary
    /// (the rest from [`dump`]).
    pub dump: Vec<String>,
    /// How many lines the whole hex dump has.
    pub dump_lines: usize,
    /// How many bytes.
    pub byte_len: usize,
    /// A malformed escape, where it is and why.
    pub error: Option<Spot>,
    /// Whether the error is only an escape still being typed: a `%` and at
    /// most one hex digit at the very end.
    pub incomplete: bool,
    /// On an error, the text before it, decoded (if it is UTF-8): what the
    /// input reads as up to the malformed escape.
    pub partial: Option<String>,
    /// Advice: `plus-kept` (strict mode keeps a `+`), `decomposed`;
    /// `utf8-short` and `utf8-short-1` (bytes that end a character short),
    /// `latin1` (bytes that read as ISO-8859-1 letters).
    pub hints: Vec<Hint>,
}

/// Lines of a binary result's hex dump the first answer carries.
pub const FIRST_DUMP_LINES: usize = 64;

fn decoded_bytes<'a>(encoded: &'a str, mode: &str) -> Result<Decoded<'a>, Error> {
    if mode == "form" {
        form_decode(encoded.as_bytes())
    } else {
        percent_decode(encoded.as_bytes())
    }
}

/// Decodes `encoded`: `mode` `form` reads `+` as a space, any other mode
/// (`strict`) keeps it.
pub fn decode(encoded: &str, mode: &str) -> DecodedText {
    let mut hints = Vec::new();
    if mode != "form" && encoded.contains('+') {
        hints.push(Hint::new("plus-kept", []));
    }
    match decoded_bytes(encoded, mode) {
        Ok(d) => {
            let bytes = d.as_bytes();
            let text = d.to_str().map(str::to_owned);
            hints.extend(text.as_deref().and_then(decomposed));
            if !d.is_text() {
                hints.extend(not_utf8(encoded, bytes));
            }
            DecodedText {
                binary: !d.is_text(),
                dump: if d.is_text() {
                    Vec::new()
                } else {
                    hex_dump_lines(bytes, 0, FIRST_DUMP_LINES)
                },
                dump_lines: dump_lines(bytes.len()),
                bytes: hex_preview(bytes),
                byte_len: bytes.len(),
                text,
                error: None,
                incomplete: false,
                partial: None,
                hints,
            }
        }
        Err(e) => DecodedText {
            text: None,
            binary: false,
            bytes: String::new(),
            dump: Vec::new(),
            dump_lines: 0,
            byte_len: 0,
            incomplete: e.offset().is_some_and(|(_, at)| still_typing(encoded, at)),
            partial: e.offset().and_then(|(_, at)| {
                let before = encoded.get(..at)?;
                decoded_bytes(before, mode)
                    .ok()
                    .and_then(|d| d.to_str().map(str::to_owned))
            }),
            error: Some(Spot::of(&e, encoded)),
            hints,
        },
    }
}

/// Lines `from..from + count` of the hex dump of `encoded`, decoded (none if
/// it does not decode).
pub fn dump(encoded: &str, mode: &str, from: usize, count: usize) -> Vec<String> {
    decoded_bytes(encoded, mode)
        .map(|d| hex_dump_lines(d.as_bytes(), from, count))
        .unwrap_or_default()
}

/// Why decoded `bytes` (of `encoded`) are not UTF-8, where it says more
/// than "binary": a character cut short (`%E0%A4`, a Devanagari letter
/// without its last byte: `utf8-short-1` or `utf8-short`, quoting the byte
/// of `encoded` where the character starts, its first escape, and the
/// byte of `encoded` where its missing bytes belong), and text whose
/// every byte above ASCII is a letter in ISO-8859-1, among ASCII letters
/// (`caf%E9`: `latin1`, quoting that reading).
fn not_utf8(encoded: &str, bytes: &[u8]) -> Vec<Hint> {
    let mut out = Vec::new();
    if let Err(e) = std::str::from_utf8(bytes) {
        let start = e.valid_up_to();
        let lead = bytes[start];
        let width = match lead {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 0,
        };
        // The continuation bytes it has: all the rest (`error_len` None:
        // the bytes end inside it), or those before the byte that is not one.
        let have = e.error_len().unwrap_or(bytes.len() - start);
        if width > have {
            let short = width - have;
            let at_start = encoded_offset(encoded, start);
            let at_end = encoded_offset(encoded, start + have);
            let escape = encoded.get(at_start..at_start + 3).unwrap_or_default();
            let args = [at_start.to_string(), escape.to_owned(), at_end.to_string()];
            out.push(if short == 1 {
                Hint::new("utf8-short-1", args)
            } else {
                Hint::new("utf8-short", args.into_iter().chain([short.to_string()]))
            });
        }
    }
    // Text, not any bytes: ASCII letters among them (ÿþ, ff fe, is a
    // UTF-16 byte order mark, not Latin-1 text).
    if bytes.iter().any(u8::is_ascii_alphabetic)
        && bytes
            .iter()
            .all(|&b| b.is_ascii() || char::from(b).is_alphabetic())
    {
        out.push(Hint::new(
            "latin1",
            [bytes.iter().map(|&b| char::from(b)).collect::<String>()],
        ));
    }
    out
}

/// The byte of `encoded` (which decodes without error) where decoded byte
/// `index` comes from: each escape is three bytes, anything else one.
fn encoded_offset(encoded: &str, index: usize) -> usize {
    let raw = encoded.as_bytes();
    let (mut at, mut n) = (0, 0);
    while n < index && at < raw.len() {
        at += if raw[at] == b'%' { 3 } else { 1 };
        n += 1;
    }
    at
}

/// Whether the malformed escape at `at` is the input's last few bytes, a `%`
/// and at most one hex digit: an escape the user is still typing.
fn still_typing(encoded: &str, at: usize) -> bool {
    let rest = encoded.as_bytes().get(at..).unwrap_or_default();
    match rest {
        [b'%'] => true,
        [b'%', d] => d.is_ascii_hexdigit(),
        _ => false,
    }
}

/// The first character of `text` written decomposed (a letter and a
/// combining mark where one composed character exists, such as `e` and
/// U+0301 for `é`): the decomposed text and its encoding, the composed one
/// and its encoding. Both are valid UTF-8, but they are other bytes, so the
/// two sides must sign the same one.
fn decomposed(text: &str) -> Option<Hint> {
    if unicode_normalization::is_nfc_quick(text.chars()) == unicode_normalization::IsNormalized::Yes
    {
        return None;
    }
    // The first base character and its combining marks whose composed form
    // differs.
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if !is_combining_mark(c) {
            start = i;
            continue;
        }
        let end = i + c.len_utf8();
        let end = end
            + text[end..]
                .char_indices()
                .find(|&(_, m)| !is_combining_mark(m))
                .map_or(text.len() - end, |(j, _)| j);
        let cluster = &text[start..end];
        let composed: String = cluster.nfc().collect();
        if composed != cluster {
            return Some(Hint::new(
                "decomposed",
                [
                    cluster.to_owned(),
                    percent_encode_str(cluster).to_string(),
                    composed.clone(),
                    percent_encode_str(&composed).to_string(),
                ],
            ));
        }
    }
    None
}

/// One character of the text: what it is, the UTF-8 bytes it became and
/// their escapes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CharRow {
    /// The character as shown (a control character escaped, as Rust writes it).
    pub shown: String,
    /// Its code point: `U+0928`.
    pub code_point: String,
    /// Its UTF-8 bytes in hex.
    pub bytes: String,
    /// Their escapes, as the signer writes them (or the character itself,
    /// if it is unreserved).
    pub escape: String,
    /// Whether it is a combining mark, drawn on the character before it.
    pub combining: bool,
}

/// A window of the per-character table: the rows around the caret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CharTable {
    /// The index of the first row's character in the text (0-based).
    pub first: usize,
    /// How many characters the text has.
    pub total: usize,
    /// The index of the character at the caret (`total` at the end).
    pub caret: usize,
    /// The rows, at most the number asked for.
    pub rows: Vec<CharRow>,
}

/// The characters of `text` around `caret` (a UTF-16 offset, as the browser
/// counts), at most `max_rows` of them: the whole text when it is short,
/// else the window that holds the caret (the last rows for a caret at the
/// end, where typing happens).
pub fn char_table(text: &str, caret: usize, max_rows: usize) -> CharTable {
    let mut utf16 = 0;
    let mut caret_char = None;
    let mut total: usize = 0;
    for c in text.chars() {
        if caret_char.is_none() && utf16 >= caret {
            caret_char = Some(total);
        }
        utf16 += c.len_utf16();
        total += 1;
    }
    let caret_char = caret_char.unwrap_or(total);
    let first = caret_char
        .saturating_sub(max_rows / 2)
        .min(total.saturating_sub(max_rows));
    let rows = text
        .chars()
        .skip(first)
        .take(max_rows)
        .map(|c| {
            let mut utf8 = [0; 4];
            let s = c.encode_utf8(&mut utf8);
            CharRow {
                shown: escape_controls(s.as_bytes(), &[]),
                code_point: format!("U+{:04X}", u32::from(c)),
                bytes: hex(s.as_bytes()),
                escape: percent_encode_str(s).to_string(),
                combining: is_combining_mark(c),
            }
        })
        .collect();
    CharTable {
        first,
        total,
        caret: caret_char,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Public values: X docs "Percent encoding parameters" (☃ is %E2%98%83).
    /// Each edit, applied to the encoding before it, gives the encoding of
    /// the text after it: typed at the end, deleted, pasted in the middle,
    /// replaced whole, with characters of one to four bytes at the seams.
    #[test]
    fn an_edit_of_the_last_encoding_is_the_encoding() {
        let mut shown = String::new();
        let mut last = Last::default();
        for text in [
            "a b",
            "a b+",
            "a b+न",
            "a b+नम",
            "a b+न",
            "a ☃ b+न",
            "😀",
            "😀😀x",
            "",
            "Hello Ladies + Gentlemen, a signed OAuth request!",
        ] {
            let e = edit_of(&mut last, text);
            shown.truncate(e.kept);
            shown.push_str(&e.tail);
            // The strict encoding, as encodeURIComponent with ! ' ( ) *
            // escaped too: an oracle of its own.
            let want: String = text
                .bytes()
                .map(|b| match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                        char::from(b).to_string()
                    }
                    b => format!("%{b:02X}"),
                })
                .collect();
            assert_eq!(shown, want, "{text}");
            assert_eq!(e.byte_len, text.len());
        }
        assert_eq!(
            edit_of(
                &mut last,
                "Hello Ladies + Gentlemen, a signed OAuth request!!"
            )
            .tail,
            "%21"
        );
    }

    /// Text encoded whole (an edit of nothing).
    fn encode(text: &str) -> EncodedEdit {
        edit_of(&mut Last::default(), text)
    }

    #[test]
    fn snowman() {
        let e = encode("☃");
        assert_eq!(
            (e.tail.as_str(), e.bytes.as_str(), e.byte_len),
            ("%E2%98%83", "e2 98 83", 3)
        );
        assert_eq!(decode("%E2%98%83", "strict").text.as_deref(), Some("☃"));
    }

    #[test]
    fn plus_is_a_space_only_in_form_mode_and_strict_mode_says_so() {
        let strict = decode("a+b", "strict");
        assert_eq!(strict.text.as_deref(), Some("a+b"));
        assert_eq!(strict.hints, [Hint::new("plus-kept", [])]);
        let form = decode("a+b", "form");
        assert_eq!(form.text.as_deref(), Some("a b"));
        assert!(form.hints.is_empty());
    }

    #[test]
    fn a_malformed_escape_is_spotted_at_its_offset() {
        let d = decode("abc%2Gdef", "strict");
        let spot = d.error.unwrap();
        assert_eq!(spot.offset, Some(3));
        assert_eq!(
            (spot.before.as_str(), spot.at.as_str(), spot.after.as_str()),
            ("abc", "%2G", "def")
        );
        assert!(spot.message.contains('3'), "{}", spot.message);
        assert!(!d.incomplete);
    }

    #[test]
    fn an_escape_cut_short_at_the_end_is_still_being_typed() {
        assert!(decode("abc%", "strict").incomplete);
        assert!(decode("abc%2", "strict").incomplete);
        assert!(!decode("abc%G", "strict").incomplete);
        assert!(!decode("%2 x", "strict").incomplete);
    }

    #[test]
    fn a_malformed_escape_keeps_the_text_before_it() {
        let d = decode("100%", "strict");
        assert_eq!(d.error.map(|e| e.offset), Some(Some(3)));
        assert_eq!(d.partial.as_deref(), Some("100"));
        assert_eq!(decode("ab%4", "strict").partial.as_deref(), Some("ab"));
    }

    // %E0%A4 is the first two of the three bytes of U+0928 (e0 a4 a8);
    // e9 is é in ISO-8859-1.
    #[test]
    fn a_character_cut_short_and_latin1_are_named() {
        let d = decode("%E0%A4", "strict");
        assert!(d.binary);
        assert_eq!(
            d.hints,
            [Hint::new(
                "utf8-short-1",
                ["0".into(), "%E0".into(), "6".into()]
            )]
        );
        let d = decode("x%E0%A4y", "strict");
        assert_eq!(
            d.hints,
            [Hint::new(
                "utf8-short-1",
                ["1".into(), "%E0".into(), "7".into()]
            )]
        );
        let d = decode("caf%E9", "strict");
        assert_eq!(d.hints.last(), Some(&Hint::new("latin1", ["café".into()])));
        assert!(decode("%FF%FE", "strict").hints.is_empty());
    }

    #[test]
    fn bytes_that_are_not_utf8_are_binary_and_dumped_in_lines() {
        let d = decode("%FF%FE", "strict");
        assert!(d.binary);
        assert_eq!((d.text, d.bytes.as_str()), (None, "ff fe"));
        assert_eq!(d.dump_lines, 1);
        assert!(d.dump[0].starts_with("00000000  ff fe"));
        let long = "%FF".repeat(1000);
        let d = decode(&long, "strict");
        assert_eq!((d.byte_len, d.dump_lines, d.dump.len()), (1000, 63, 63));
        assert_eq!(dump(&long, "strict", 62, 10).len(), 1);
    }

    // é as `e` and U+0301 (NFD) is e%CC%81; composed (NFC) it is %C3%A9.
    #[test]
    fn a_decomposed_character_is_named_with_both_encodings() {
        let e = encode("Cafe\u{301}");
        assert_eq!((e.kept, e.tail.as_str()), (0, "Cafe%CC%81"));
        assert_eq!(
            e.hints,
            [Hint::new(
                "decomposed",
                ["e\u{301}", "e%CC%81", "é", "%C3%A9"].map(String::from)
            )]
        );
        assert!(encode("Café").hints.is_empty());
        // Devanagari vowel signs are combining marks with no composed form.
        assert!(encode("नमस्ते").hints.is_empty());
        assert_eq!(decode("e%CC%81", "strict").hints.len(), 1);
    }

    // न is U+0928, UTF-8 e0 a4 a8 (The Unicode Standard, Devanagari block).
    #[test]
    fn the_table_shows_each_character_s_bytes_and_escapes() {
        let t = char_table("नमस्ते", 0, 32);
        assert_eq!((t.first, t.total, t.rows.len()), (0, 6, 6));
        assert_eq!(
            t.rows[0],
            CharRow {
                shown: "न".into(),
                code_point: "U+0928".into(),
                bytes: "e0 a4 a8".into(),
                escape: "%E0%A4%A8".into(),
                combining: false,
            }
        );
        // ् (virama) is a combining mark.
        assert!(t.rows[3].combining);
        assert_eq!(char_table("a\n", 0, 9).rows[1].shown, "\\n");
    }

    #[test]
    fn the_table_is_a_window_around_the_caret() {
        let text = "a".repeat(100) + "☃";
        // The caret at the end: the last rows.
        let end = char_table(&text, 101, 10);
        assert_eq!((end.first, end.total, end.rows.len()), (91, 101, 10));
        assert_eq!(end.caret, 101);
        assert_eq!(end.rows[9].escape, "%E2%98%83");
        assert_eq!(char_table(&text, 0, 10).first, 0);
        assert_eq!(char_table(&text, 50, 10).first, 45);
        // A caret counted in UTF-16 units: 😀 is two of them.
        let t = char_table("😀😀😀b", 4, 2);
        assert_eq!(t.first, 1);
    }
}
