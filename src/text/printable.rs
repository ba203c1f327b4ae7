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
    escape_controls_into(&mut out, bytes, keep);
    out
}

/// [`escape_controls`] written onto the end of `out`: a line made of
/// several texts from outside (a log line's method, target and detail) is
/// built in one `String`, with none for each text.
///
/// ```
/// use oauth1_signer::text::escape_controls_into;
///
/// let mut line = String::from("GET ");
/// escape_controls_into(&mut line, b"/r?q=\x1b[2J", &[]);
/// line.push_str(" 200");
/// assert_eq!(line, r"GET /r?q=\u{1b}[2J 200");
/// ```
pub fn escape_controls_into(out: &mut String, bytes: &[u8], keep: &[char]) {
    // Text, most of what is shown, is checked a word at a time; only bytes
    // that are not are taken apart, chunk by chunk.
    match std::str::from_utf8(bytes) {
        Ok(text) => push_escaped(out, text, keep),
        Err(_) => {
            for chunk in bytes.utf8_chunks() {
                push_escaped(out, chunk.valid(), keep);
                for b in chunk.invalid() {
                    let _ = write!(out, "\\x{b:02x}");
                }
            }
        }
    }
}

/// `text` onto `out`, each control character not in `keep` escaped. A
/// control character (`char::is_control`: U+0000 to U+001F, U+007F to
/// U+009F) starts with a byte below 0x20, with DEL or with 0xC2, so the
/// runs without those bytes are copied whole and the rule is applied to
/// the characters they start.
fn push_escaped(out: &mut String, text: &str, keep: &[char]) {
    let mut rest = text;
    while let Some(at) = rest
        .bytes()
        .position(|b| b < 0x20 || b == 0x7f || b == 0xc2)
    {
        out.push_str(&rest[..at]);
        // Each of those bytes starts a character.
        let Some(c) = rest[at..].chars().next() else {
            break;
        };
        if c.is_control() && !keep.contains(&c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
        rest = &rest[at + c.len_utf8()..];
    }
    out.push_str(rest);
}

/// An error and its causes, each once, joined by `: `: the library's
/// wrappers name their own step and leave the cause to `source()` (as the
/// `http` crate's errors do), so a reporter walks the chain.
///
/// ```
/// use oauth1_signer::client::{sign_http_request, HttpOptions};
/// use oauth1_signer::text::error_chain;
/// use oauth1_signer::{Credentials, Signer};
///
/// let signer = Signer::new(Credentials::new("k", "s"));
/// let mut request = http::Request::get("/relative").body(Vec::<u8>::new())?;
/// let e = sign_http_request(&signer, &mut request, HttpOptions::new()).unwrap_err();
/// assert_eq!(e.to_string(), "cannot sign the request");
/// assert!(error_chain(&e).starts_with("cannot sign the request: invalid URL at byte 0: "));
/// # Ok::<(), http::Error>(())
/// ```
pub fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut out = e.to_string();
    let mut next = e.source();
    while let Some(cause) = next {
        out.push_str(": ");
        out.push_str(&cause.to_string());
        next = cause.source();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule, a character at a time: what `escape_controls` must write.
    fn plain(bytes: &[u8], keep: &[char]) -> String {
        let mut out = String::new();
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

    #[test]
    fn runs_copied_whole_write_what_the_rule_writes_a_character_at_a_time() {
        // Every character to U+00FF and a few beyond, alone and between
        // others, with bytes that are not UTF-8 around them.
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for c in (0..=0xFFu32)
            .chain([0x2028, 0x2603, 0xFEFF, 0x1F600])
            .filter_map(char::from_u32)
        {
            let s = c.to_string();
            inputs.push(s.clone().into_bytes());
            inputs.push(format!("ab{s}cd{s}").into_bytes());
            inputs.push([b"x\xff".as_slice(), s.as_bytes(), b"\xc2"].concat());
        }
        inputs.push(b"GET /a?b=c%20d 401 \x1b[31mred\x1b[0m\n".to_vec());
        inputs.push(Vec::new());
        for bytes in &inputs {
            for keep in [&[][..], &['\n', '\t'][..], &['\u{85}'][..]] {
                assert_eq!(
                    escape_controls(bytes, keep),
                    plain(bytes, keep),
                    "{bytes:?} {keep:?}"
                );
            }
        }
    }
}
