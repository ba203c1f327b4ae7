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
