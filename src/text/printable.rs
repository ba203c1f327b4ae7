//! Text from the other side, made safe to show: the one rule every edge
//! (the flow's errors, a redirect's `Location`, the CLI, the verifier's
//! logs) uses before text it did not write reaches a log or a terminal.

use std::fmt::Write as _;

/// `bytes` as text for a human or a log: control characters escaped as
/// Rust writes them (`\n`, `\u{1b}`), bytes that are not UTF-8 as `\xNN`,
/// everything else as it is. The control characters in `keep` stay as they
/// are (say `\n` and `\t` of a response body shown on a terminal).
///
/// ```
/// use oauth1_signer::text::escape_controls;
///
/// assert_eq!(escape_controls(b"ok \x1b[2J\xff", &[]), r"ok \u{1b}[2J\xff");
/// assert_eq!(escape_controls("line\nnext ☃".as_bytes(), &['\n']), "line\nnext ☃");
/// ```
pub fn escape_controls(bytes: &[u8], keep: &[char]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() && !keep.contains(&c) {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}
