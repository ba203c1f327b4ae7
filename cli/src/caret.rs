//! Showing where in the input an error is: the input on one line, cut
//! around the spot, and a line of carets under it.

use oauth1_signer::text::escape_controls;

/// How much of a long input to show on each side of the caret, in columns.
const CONTEXT: usize = 40;

/// How many bytes on each side of the spot are kept. A column is at least one
/// character and a character at most four bytes, so this many bytes always
/// hold more than `CONTEXT` columns: what is cut away is never shown anyway.
const WINDOW: usize = 4 * CONTEXT + 8;

/// Where in which text an error points: only the bytes around the spot are
/// kept, so an error in a 10 MB body costs what it prints, not 10 MB.
#[derive(Debug)]
pub struct Caret {
    /// The bytes around the spot, starting on a character boundary.
    window: Vec<u8>,
    /// The spot, counted in `window`.
    offset: usize,
    len: usize,
}

impl Caret {
    /// Points at `text[offset..offset + len]` (which may run past the end).
    pub fn new(text: &[u8], offset: usize, len: usize) -> Caret {
        let at = offset.min(text.len());
        let mut start = at.saturating_sub(WINDOW);
        // Do not start inside a UTF-8 sequence (at most three continuation bytes).
        for _ in 0..3 {
            match text.get(start) {
                Some(b) if start > 0 && (0x80..0xC0).contains(b) => start += 1,
                _ => break,
            }
        }
        let len = len.min(CONTEXT);
        let end = at
            .saturating_add(len)
            .saturating_add(WINDOW)
            .min(text.len());
        Caret {
            window: text.get(start..end).unwrap_or_default().to_vec(),
            offset: offset - start,
            len,
        }
    }
}

/// The input on one line (control characters and non-UTF-8 bytes escaped, a
/// long input cut around the spot) and a line of carets under
/// `offset..offset + len`.
pub fn caret_lines(caret: &Caret) -> String {
    let (text, offset, len) = (caret.window.as_slice(), caret.offset, caret.len);
    // Each piece is the rendering of the bytes from `start` on.
    let mut pieces: Vec<(usize, String)> = Vec::new();
    let mut at = 0;
    for chunk in text.utf8_chunks() {
        for c in chunk.valid().chars() {
            let shown = if c.is_control() {
                c.escape_default().collect()
            } else {
                c.to_string()
            };
            pieces.push((at, shown));
            at += c.len_utf8();
        }
        for b in chunk.invalid() {
            pieces.push((at, format!("\\x{b:02x}")));
            at += 1;
        }
    }
    // Columns counted in characters: right for ASCII, which URLs and bodies are.
    let column_of = |byte: usize| -> usize {
        pieces
            .iter()
            .take_while(|(start, _)| *start < byte)
            .map(|(_, s)| s.chars().count())
            .sum::<usize>()
    };
    let total: usize = pieces.iter().map(|(_, s)| s.chars().count()).sum();
    let from = column_of(offset.min(text.len()));
    let to = if offset + len > text.len() {
        total + (offset + len - text.len())
    } else {
        column_of(offset + len)
    };
    let carets = to.saturating_sub(from).max(1);

    let line: String = pieces.iter().map(|(_, s)| s.as_str()).collect();
    let chars: Vec<char> = line.chars().collect();
    let (lo, prefix) = if from > CONTEXT {
        (from - CONTEXT, "...")
    } else {
        (0, "")
    };
    let hi = (from + carets + CONTEXT).min(chars.len());
    let suffix = if hi < chars.len() { "..." } else { "" };
    let shown: String = chars.get(lo..hi).unwrap_or_default().iter().collect();
    let pad = prefix.len() + from - lo;
    format!(
        "  {prefix}{shown}{suffix}\n  {}{}\n",
        " ".repeat(pad),
        "^".repeat(carets)
    )
}

/// Text for a human: control characters escaped, non-UTF-8 bytes as `\xNN`
/// (the library's one rule, [`escape_controls`]).
pub fn printable(bytes: &[u8]) -> String {
    escape_controls(bytes, &[])
}
