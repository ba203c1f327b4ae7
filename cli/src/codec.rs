//! `encode` and `decode`: RFC 5849 §3.6 percent-encoding of one text, and
//! its strict inverse.

use std::io::{self, Write};

use clap::{Args, ValueEnum};
use oauth1_signer::{text::form_decode, text::percent_decode, text::percent_encode};
use serde::Serialize;

use crate::caret::Caret;
use crate::response::Output;
use crate::{emit, hex, read_stdin, Failure};

pub(crate) const STDIN_NOTE: &str =
    "When the input is read from standard input, exactly one trailing newline \
     (\"\\n\" or \"\\r\\n\") is removed first, so `echo` and here-strings work.";

#[derive(Args, Debug)]
pub(crate) struct EncodeArgs {
    /// The text to encode (its UTF-8 bytes); when absent, stdin less one trailing newline
    text: Option<String>,

    /// The input is hex digits of the raw bytes to encode (e.g. --hex e29883)
    #[arg(long)]
    hex: bool,
}

#[derive(Args, Debug)]
pub(crate) struct DecodeArgs {
    /// The percent-encoded text; when absent, stdin less one trailing newline
    input: Option<String>,

    /// Form decoding: a '+' is a space (as in a query or a form body)
    #[arg(long)]
    form: bool,

    /// Output format
    #[arg(long, value_enum, default_value_t = DecodeFormat::Text)]
    format: DecodeFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DecodeFormat {
    /// The decoded text, or a lower-case hex dump when it is not UTF-8
    Text,
    /// {"text": ..., "hex": ..., "binary": false} or {"hex": ..., "binary": true}
    Json,
}

pub(crate) fn encode(args: &EncodeArgs) -> Result<(), Failure> {
    let input = input_bytes(args.text.as_deref())?;
    let bytes = if args.hex { parse_hex(&input)? } else { input };
    let mut out = percent_encode(&bytes).to_string();
    out.push('\n');
    emit(out.as_bytes())
}

pub(crate) fn decode(args: &DecodeArgs) -> Result<(), Failure> {
    let input = input_bytes(args.input.as_deref())?;
    let decoded = if args.form {
        form_decode(&input)
    } else {
        percent_decode(&input)
    };
    let decoded = decoded.map_err(|e| {
        let caret = e
            .offset()
            .map(|(_, offset)| Caret::new(&input, offset, e.span_len()));
        Failure::Input(e.to_string(), caret)
    })?;
    let bytes = decoded.as_bytes();
    let out = match (args.format, decoded.to_str()) {
        (DecodeFormat::Text, Some(text)) => {
            // The decoded text byte for byte into a pipe; on a terminal its
            // control characters (an escape sequence, say) escaped.
            let mut out = Output::stdout();
            out.write(format!("{text}\n").as_bytes())?;
            return out.finish();
        }
        (DecodeFormat::Text, None) => {
            let n = bytes.len();
            let _ = writeln!(
                io::stderr(),
                "binary (not UTF-8): {n} byte{}",
                if n == 1 { "" } else { "s" }
            );
            format!("{}\n", hex(bytes))
        }
        (DecodeFormat::Json, text) => {
            #[derive(Serialize)]
            struct Out<'a> {
                #[serde(skip_serializing_if = "Option::is_none")]
                text: Option<&'a str>,
                hex: String,
                binary: bool,
            }
            let out = Out {
                text,
                hex: hex(bytes),
                binary: text.is_none(),
            };
            serde_json::to_string(&out).map_err(|e| Failure::Io(e.to_string()))? + "\n"
        }
    };
    emit(out.as_bytes())
}

/// The argument, or standard input less exactly one trailing newline.
fn input_bytes(arg: Option<&str>) -> Result<Vec<u8>, Failure> {
    if let Some(text) = arg {
        return Ok(text.as_bytes().to_vec());
    }
    let mut bytes = read_stdin()?;
    if bytes.ends_with(b"\r\n") {
        bytes.truncate(bytes.len() - 2);
    } else if bytes.ends_with(b"\n") {
        bytes.truncate(bytes.len() - 1);
    }
    Ok(bytes)
}

fn parse_hex(digits: &[u8]) -> Result<Vec<u8>, Failure> {
    let value = |at: usize| -> Result<u8, Failure> {
        let d = digits.get(at).copied().unwrap_or(b'0');
        match (d as char).to_digit(16) {
            Some(v) => Ok(v as u8),
            None => Err(Failure::Input(
                format!(
                    "invalid hex digit {} at byte {at} of the input (expected 0-9, a-f or A-F)",
                    shown_byte(d)
                ),
                Some(Caret::new(digits, at, 1)),
            )),
        }
    };
    let mut out = Vec::with_capacity(digits.len() / 2);
    for at in (0..digits.len()).step_by(2) {
        let high = value(at)?;
        if at + 1 == digits.len() {
            return Err(Failure::Input(
                format!(
                    "odd number of hex digits ({}): the digit at byte {at} of the input has no partner (a byte takes two)",
                    digits.len()
                ),
                Some(Caret::new(digits, at, 1)),
            ));
        }
        out.push(high << 4 | value(at + 1)?);
    }
    Ok(out)
}

fn shown_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("0x{b:02X}")
    }
}
