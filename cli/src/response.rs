//! `request`'s output: each hop's status line and headers (`-i`), then the
//! body, written chunk by chunk as it arrives (never held whole). `decode`
//! writes its text through the same [`Output`].
//!
//! Into a pipe or a file the bytes go as they came. On a terminal, text from
//! the server never reaches it raw: control characters other than `\n` and
//! `\t` are escaped (the library's `escape_controls`), and a UTF-8 sequence cut
//! between two chunks is held until the rest of it arrives.

use std::fmt::Write as _;

use crate::{emit, Failure};
use oauth1_signer::text::escape_controls;

/// The control characters a body keeps on a terminal: it is text to read.
const KEPT: [char; 2] = ['\n', '\t'];

/// Standard output, escaped when it is a terminal.
#[derive(Debug)]
pub(crate) struct Output {
    terminal: bool,
    /// The start of a UTF-8 sequence whose end is in the next chunk.
    held: Vec<u8>,
    /// The last byte written, to end a body shown on a terminal with a newline.
    last: Option<u8>,
}

impl Output {
    pub(crate) fn stdout() -> Output {
        Output::new(std::io::IsTerminal::is_terminal(&std::io::stdout()))
    }

    fn new(terminal: bool) -> Output {
        Output {
            terminal,
            held: Vec::new(),
            last: None,
        }
    }

    /// Writes one chunk.
    pub(crate) fn write(&mut self, chunk: &[u8]) -> Result<(), Failure> {
        if chunk.is_empty() {
            return Ok(());
        }
        self.last = chunk.last().copied();
        if !self.terminal {
            return emit(chunk);
        }
        emit(self.shown(chunk).as_bytes())
    }

    /// What a terminal is given for `chunk`, after what was held.
    fn shown(&mut self, chunk: &[u8]) -> String {
        let mut bytes = std::mem::take(&mut self.held);
        bytes.extend_from_slice(chunk);
        let cut = bytes.len() - incomplete_tail(&bytes);
        self.held = bytes.split_off(cut);
        escape_controls(&bytes, &KEPT)
    }

    /// Ends a body: what was held is shown (escaped: it never completed),
    /// and on a terminal a body that does not end a line gets a newline.
    pub(crate) fn finish(&mut self) -> Result<(), Failure> {
        if !self.terminal {
            return Ok(());
        }
        let mut tail = escape_controls(&std::mem::take(&mut self.held), &KEPT);
        if self.last.is_some_and(|b| b != b'\n') {
            tail.push('\n');
        }
        self.last = None;
        emit(tail.as_bytes())
    }
}

/// How many bytes at the end of `bytes` start a UTF-8 sequence that is not
/// complete yet (0 to 3).
fn incomplete_tail(bytes: &[u8]) -> usize {
    for k in 1..=bytes.len().min(3) {
        let b = bytes[bytes.len() - k];
        if b & 0xC0 == 0x80 {
            continue; // a continuation byte: its lead is further back
        }
        let needs = match b {
            0xF0.. => 4,
            0xE0.. => 3,
            0xC0.. => 2,
            _ => 1,
        };
        return if needs > k { k } else { 0 };
    }
    0
}

/// A response's status line and headers, as `curl -i` shows them, and a
/// blank line.
pub(crate) fn head(response: &reqwest::Response) -> String {
    let mut head = format!("{:?} {}\n", response.version(), response.status());
    for (name, value) in response.headers() {
        let _ = writeln!(
            head,
            "{name}: {}",
            String::from_utf8_lossy(value.as_bytes())
        );
    }
    head.push('\n');
    head
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a terminal shows for `body` cut into chunks at every `step`.
    fn on_terminal(body: &[u8], step: usize) -> String {
        let mut out = Output::new(true);
        let mut shown: String = body.chunks(step).map(|c| out.shown(c)).collect();
        shown.push_str(&escape_controls(&out.held, &KEPT));
        shown
    }

    #[test]
    fn a_terminal_gets_control_characters_escaped_but_newlines_and_tabs() {
        let body = "a\tb\nc\u{1b}[31md\re\u{7f}f\u{9b}g".as_bytes();
        for step in 1..=body.len() {
            assert_eq!(
                on_terminal(body, step),
                "a\tb\nc\\u{1b}[31md\\re\\u{7f}f\\u{9b}g",
                "chunks of {step}"
            );
        }
    }

    #[test]
    fn a_character_cut_between_chunks_is_shown_whole() {
        let body = "é日本😀".as_bytes();
        for step in 1..=body.len() {
            assert_eq!(on_terminal(body, step), "é日本😀", "chunks of {step}");
        }
        // Bytes that are not UTF-8 are shown as such, wherever the cut falls.
        let bad = b"a\xffb\xe6\x97c\xf0";
        for step in 1..=bad.len() {
            assert_eq!(on_terminal(bad, step), "a\\xffb\\xe6\\x97c\\xf0");
        }
    }

    #[test]
    fn incomplete_tails_are_counted_from_the_lead_byte() {
        for (bytes, want) in [
            (&b""[..], 0),
            (b"a", 0),
            (b"\xc3", 1),
            (b"\xc3\xa9", 0),
            (b"\xe6\x97", 2),
            (b"\xe6\x97\xa5", 0),
            (b"\xf0\x9f\x98", 3),
            (b"\xf0\x9f\x98\x80", 0),
            (b"\x80\x80\x80", 0),
        ] {
            assert_eq!(incomplete_tail(bytes), want, "{bytes:?}");
        }
    }
}
