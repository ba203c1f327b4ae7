//! The Base64 panel: bytes (text or hex) to Base64 and back, in the
//! standard or URL-safe alphabet (RFC 4648 §4, §5), with or without
//! padding, by the `base64` crate the library signs with. Raw bytes are
//! Base64's job; text in a URL is percent-encoding's.
//!
//! A signature's bytes are matched against the length of each HMAC method's
//! signature, as the library makes them (a SHA-1 MAC is 20 bytes...).
//!
//! What people paste is read as they mean it, and said so in a hint: a
//! signature as a header carries it (percent-encoded, `%2F` for `/`),
//! Base64 wrapped over lines; text of the other alphabet is named.

use base64::alphabet::{Alphabet, STANDARD, URL_SAFE};
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::{DecodeError, Engine as _};
use oauth1_signer::{pipeline::SigningKey, text::percent_decode, SignatureMethod};
use serde::Serialize;

use crate::render::{hex, Arg, Hint, Spot};
use crate::say;

/// Bytes in the three forms the panel shows.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Coded {
    /// Base64.
    pub encoded: String,
    /// The bytes as text, if they are UTF-8 (left out when they came from
    /// the text box: it holds them already).
    pub text: Option<String>,
    /// Whether the bytes are UTF-8.
    pub utf8: bool,
    /// The bytes in hex.
    pub hex: String,
    /// How many bytes.
    pub length: usize,
    /// The HMAC methods whose signatures are this many bytes.
    pub digest_of: Vec<&'static str>,
    /// Malformed input (Base64 or hex), where and why.
    pub error: Option<Spot>,
    /// Advice: `percent-decoded` (the Base64 was percent-encoded, as in a
    /// header; quoting it decoded), `wrapped` (line breaks or spaces
    /// skipped), `other-alphabet` (quoting `url` or `standard`: it decodes
    /// in that one).
    pub hints: Vec<Hint>,
}

fn engine(alphabet: &str, padding: bool) -> GeneralPurpose {
    let alphabet: &Alphabet = if alphabet == "url" {
        &URL_SAFE
    } else {
        &STANDARD
    };
    let config = GeneralPurposeConfig::new()
        .with_encode_padding(padding)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent);
    GeneralPurpose::new(alphabet, config)
}

/// `bytes` in every form.
pub fn from_bytes(bytes: &[u8], alphabet: &str, padding: bool) -> Coded {
    Coded {
        encoded: engine(alphabet, padding).encode(bytes),
        text: std::str::from_utf8(bytes).ok().map(str::to_owned),
        utf8: std::str::from_utf8(bytes).is_ok(),
        hex: hex(bytes),
        length: bytes.len(),
        digest_of: digest_of(bytes.len()),
        error: None,
        hints: Vec::new(),
    }
}

/// Text (its UTF-8 bytes) in every form but text.
pub fn from_text(text: &str, alphabet: &str, padding: bool) -> Coded {
    Coded {
        encoded: engine(alphabet, padding).encode(text),
        text: None,
        utf8: true,
        hex: hex(text.as_bytes()),
        length: text.len(),
        digest_of: digest_of(text.len()),
        error: None,
        hints: Vec::new(),
    }
}

/// Hex bytes (pairs of hex digits; spaces, tabs and line breaks between
/// pairs are skipped) in every form.
pub fn from_hex(text: &str, alphabet: &str, padding: bool) -> Coded {
    match parse_hex(text) {
        Ok(bytes) => from_bytes(&bytes, alphabet, padding),
        Err(spot) => failed(*spot),
    }
}

/// Base64 to bytes, in every form. Blanks anywhere are skipped (wrapped
/// Base64); a value that is percent-encoded, as a signature is in an
/// `Authorization` header, is decoded first, strictly.
pub fn decode(text: &str, alphabet: &str) -> Coded {
    let mut hints = Vec::new();
    let trimmed = text.trim();
    // A signature as a header carries it: `Ls93...%2FzU4%3D`.
    let unescaped = trimmed
        .contains('%')
        .then(|| percent_decode(trimmed.as_bytes()).ok())
        .flatten()
        .and_then(|d| d.to_str().map(str::to_owned))
        .filter(|d| engine(alphabet, true).decode(strip_blanks(d).0).is_ok());
    if let Some(d) = &unescaped {
        hints.push(Hint::new("percent-decoded", [d.clone()]));
    }
    let source = unescaped.as_deref().unwrap_or(text);
    let (clean, at) = strip_blanks(source);
    if clean.len() != source.trim().len() {
        hints.push(Hint::new("wrapped", []));
    }
    // An offset in `clean` as one in `text` (`source` is `text`, unless it
    // was percent-decoded, and then it decoded).
    let place = |i: usize| at.get(i).copied().unwrap_or(text.len());
    match engine(alphabet, true).decode(&clean) {
        Ok(bytes) => Coded {
            encoded: clean,
            hints,
            ..from_bytes(&bytes, alphabet, true)
        },
        Err(e) => {
            let other = if alphabet == "url" { "standard" } else { "url" };
            if engine(other, true).decode(&clean).is_ok() {
                let word = if other == "url" {
                    "alpha.url"
                } else {
                    "alpha.standard"
                };
                hints.push(Hint::with("other-alphabet", [Arg::word(word)]));
            }
            let alpha = if alphabet == "url" {
                "alpha.url"
            } else {
                "alpha.standard"
            };
            let spot = match e {
                DecodeError::InvalidByte(i, byte) => Spot::at(
                    format!(
                        "invalid Base64 at byte {}: {:?} is not in the {} alphabet",
                        place(i),
                        char::from(byte),
                        if alphabet == "url" {
                            "URL-safe"
                        } else {
                            "standard"
                        }
                    ),
                    text,
                    place(i),
                    1,
                )
                .said(Hint::with(
                    "b64.invalid-byte",
                    [
                        say::char_at(text, place(i)),
                        Arg::data(place(i).to_string()),
                        Arg::word(alpha),
                    ],
                )),
                DecodeError::InvalidLastSymbol(i, _) => Spot::at(
                    format!(
                        "invalid Base64 at byte {}: the last symbol has bits set that no byte holds",
                        place(i)
                    ),
                    text,
                    place(i),
                    1,
                )
                .said(Hint::new("b64.last-symbol", [place(i).to_string()])),
                DecodeError::InvalidLength(len) => {
                    // The cut group, from its first symbol to the last one.
                    let start = place(len - len % 4);
                    let end = place(len.saturating_sub(1)) + 1;
                    Spot::at(
                        format!("invalid Base64 length {len}: the last group is cut short"),
                        text,
                        start,
                        end.saturating_sub(start),
                    )
                    .said(Hint::new("b64.length", [len.to_string()]))
                }
                DecodeError::InvalidPadding => Spot::message(format!("invalid Base64: {e}"))
                    .said(Hint::new("b64.padding", [])),
            };
            Coded {
                hints,
                ..failed(spot)
            }
        }
    }
}

/// `text` without its ASCII blanks, and for each byte kept its offset in
/// `text`.
fn strip_blanks(text: &str) -> (String, Vec<usize>) {
    let mut clean = String::with_capacity(text.len());
    let mut at = Vec::with_capacity(text.len());
    for (i, c) in text.char_indices() {
        if !c.is_ascii_whitespace() {
            clean.push(c);
            at.extend((0..c.len_utf8()).map(|k| i + k));
        }
    }
    (clean, at)
}

fn failed(spot: Spot) -> Coded {
    Coded {
        error: Some(spot),
        ..Coded::default()
    }
}

/// Pairs of hex digits; blanks between pairs skipped.
fn parse_hex(text: &str) -> Result<Vec<u8>, Box<Spot>> {
    let digit = |b: u8| char::from(b).to_digit(16);
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 2);
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let high = digit(bytes[i]);
        let low = bytes.get(i + 1).and_then(|&b| digit(b));
        match (high, low) {
            (Some(h), Some(l)) => out.push((h * 16 + l) as u8),
            (None, _) => {
                return Err(Box::new(
                    Spot::at(format!("not a hex digit at byte {i}"), text, i, 1).said(Hint::with(
                        "hex.digit",
                        [say::char_at(text, i), Arg::data(i.to_string())],
                    )),
                ));
            }
            (Some(_), None) => {
                let at = i + 1;
                return Err(Box::new(
                    Spot::at(
                        format!("at byte {at}: a byte is two hex digits"),
                        text,
                        at,
                        1,
                    )
                    .said(Hint::new("hex.pair", [at.to_string()])),
                ));
            }
        }
        i += 2;
    }
    Ok(out)
}

/// The HMAC methods whose signatures are `len` bytes: each signs once, and
/// its signature is measured (the library's output, not a table here).
fn digest_of(len: usize) -> Vec<&'static str> {
    [
        SignatureMethod::HmacSha1,
        SignatureMethod::HmacSha256,
        SignatureMethod::HmacSha512,
    ]
    .into_iter()
    .filter(|&m| {
        SigningKey::new(m, "", "")
            .and_then(|k| k.sign_bytes(b""))
            .ok()
            .and_then(|s| {
                base64::engine::general_purpose::STANDARD
                    .decode(s.as_str())
                    .ok()
            })
            .is_some_and(|mac| mac.len() == len)
    })
    .map(|m| m.as_str())
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // X docs "Creating a signature": the signature, and its 20 bytes
    // (as Python's base64.b64decode reads the published value).
    #[test]
    fn the_x_docs_signature_is_an_hmac_sha1_mac() {
        let c = decode("Ls93hJiZbQ3akF3HF3x1Bz8/zU4=", "standard");
        assert_eq!(c.length, 20);
        assert_eq!(
            c.hex,
            "2e cf 77 84 98 99 6d 0d da 90 5d c7 17 7c 75 07 3f 3f cd 4e"
        );
        assert_eq!(c.digest_of, ["HMAC-SHA1"]);
    }

    // RFC 4648 §10 test vectors.
    #[test]
    fn rfc4648_vectors_with_and_without_padding() {
        assert_eq!(from_bytes(b"fo", "standard", true).encoded, "Zm8=");
        let t = from_text("foobar", "standard", true);
        assert_eq!(
            (t.encoded.as_str(), t.length, t.utf8),
            ("Zm9vYmFy", 6, true)
        );
        assert_eq!(from_bytes(b"fo", "standard", false).encoded, "Zm8");
        assert_eq!(decode("Zm9vYg", "standard").text.as_deref(), Some("foob"));
        assert_eq!(from_hex("fb ff", "url", true).encoded, "-_8=");
        assert_eq!(from_hex("fbff", "standard", true).encoded, "+/8=");
    }

    // The X docs signature as its Authorization header carries it
    // (fixtures/signatures.json, x-docs-creating-a-signature).
    #[test]
    fn a_signature_from_a_header_is_percent_decoded_first() {
        let c = decode("Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D", "standard");
        assert_eq!((c.length, c.error), (20, None));
        assert_eq!(
            c.hints,
            [Hint::new(
                "percent-decoded",
                ["Ls93hJiZbQ3akF3HF3x1Bz8/zU4=".to_owned()]
            )]
        );
        assert_eq!(c.encoded, "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=");
    }

    // RFC 4648 §10 "foobar", wrapped as MIME wraps Base64.
    #[test]
    fn wrapped_base64_is_read_with_its_blanks_skipped() {
        let c = decode("Zm9v\r\nYmFy\n", "standard");
        assert_eq!(c.text.as_deref(), Some("foobar"));
        assert_eq!(c.hints, [Hint::new("wrapped", [])]);
        // An error after a line break is placed in the text as given.
        let e = decode("Zm9v\nYm!y", "standard").error.unwrap();
        assert_eq!((e.offset, e.at.as_str()), (Some(7), "!"));
    }

    #[test]
    fn the_other_alphabet_is_named() {
        let c = decode("-_8=", "standard");
        assert!(c.error.is_some());
        assert_eq!(
            c.hints,
            [Hint::with("other-alphabet", [Arg::word("alpha.url")])]
        );
        let c = decode("+/8=", "url");
        assert_eq!(
            c.hints,
            [Hint::with("other-alphabet", [Arg::word("alpha.standard")])]
        );
        assert!(decode("!!!!", "standard").hints.is_empty());
    }

    #[test]
    fn malformed_input_is_spotted_at_its_offset() {
        let e = decode("Zm9v!mFy", "standard").error.unwrap();
        assert_eq!((e.offset, e.at.as_str()), (Some(4), "!"));
        // '-' is not in the standard alphabet, only in the URL-safe one.
        assert_eq!(decode("-_8=", "standard").error.unwrap().offset, Some(0));
        let e = from_hex("ab zz", "standard", true).error.unwrap();
        assert_eq!(e.offset, Some(3));
        let e = from_hex("abc", "standard", true).error.unwrap();
        assert_eq!(e.offset, Some(3));
    }
}
