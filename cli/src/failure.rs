//! Why a command stopped, and the one hex writer: the clap-free pieces the
//! output code shares with `run` (and with the `cli_format` fuzz target,
//! through `_fuzz`).

use std::fmt::Write as _;

use crate::caret::Caret;

/// Why the command stopped.
#[derive(Debug)]
pub enum Failure {
    /// Bad input or usage (exit 2): the message, and the text an offset points into.
    Input(String, Option<Caret>),
    /// Could not read or write where no input was at fault (exit 1).
    Io(String),
    /// `request` got an answer other than 2xx, already printed (exit 1).
    Status,
}

impl Failure {
    pub(crate) fn input(message: impl Into<String>) -> Failure {
        Failure::Input(message.into(), None)
    }
}

/// An error and its causes, each once: the library's wrappers name their own
/// step and leave the cause to `source()` (as `http`'s errors do), so the
/// message a user reads is the whole chain joined by `: `.
pub(crate) fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    oauth1_signer::text::error_chain(e)
}

/// `bytes` in lowercase hex, two digits a byte.
pub(crate) fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}
