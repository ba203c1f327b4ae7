//! The Base64 panel: bytes (text or hex) to Base64 and back, in the
//! standard or URL-safe alphabet (RFC 4648 §4, §5), with or without
//! padding, by the `base64` crate the library signs with. Raw bytes are
//! Base64's job; text in a URL is percent-encoding's.
//!
//! A signature's bytes are matched against the length of each HMAC method's
//! signature, as the library makes them (a SHA-1 MAC is 20 bytes...).

use base64::alphabet::{Alphabet, STANDARD, URL_SAFE};
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::{DecodeError, Engine as _};
use oauth1_signer::{SignatureMethod, SigningKey};
use serde::Serialize;

use crate::render::{hex, Spot};

/// Bytes in the three forms the panel shows.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Coded {
    /// Base64.
    pub encoded: String,
    /// The bytes as text, if they are UTF-8.
    pub text: Option<String>,
    /// The bytes in hex.
    pub hex: String,
    /// How many bytes.
    pub length: usize,
    /// The HMAC methods whose signatures are this many bytes.
    pub digest_of: Vec<&'static str>,
    /// Malformed input (Base64 or hex), where and why.
    pub error: Option<Spot>,
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
        hex: hex(bytes),
        length: bytes.len(),
        digest_of: digest_of(bytes.len()),
        error: None,
    }
}

/// Hex bytes (pairs of hex digits; spaces, tabs and line breaks between
/// pairs are skipped) in every form.
pub fn from_hex(text: &str, alphabet: &str, padding: bool) -> Coded {
    match parse_hex(text) {
        Ok(bytes) => from_bytes(&bytes, alphabet, padding),
        Err(spot) => failed(spot),
    }
}

/// Base64 (blanks around it skipped) to bytes, in every form.
pub fn decode(text: &str, alphabet: &str) -> Coded {
    let lead = text.len() - text.trim_start().len();
    let trimmed = text.trim();
    match engine(alphabet, true).decode(trimmed) {
        Ok(bytes) => Coded {
            encoded: trimmed.to_owned(),
            ..from_bytes(&bytes, alphabet, true)
        },
        Err(e) => failed(match e {
            DecodeError::InvalidByte(at, byte) => Spot::at(
                format!(
                    "invalid Base64 at byte {}: {:?} is not in the {} alphabet",
                    lead + at,
                    char::from(byte),
                    if alphabet == "url" {
                        "URL-safe"
                    } else {
                        "standard"
                    }
                ),
                text,
                lead + at,
                1,
            ),
            DecodeError::InvalidLastSymbol(at, _) => Spot::at(
                format!(
                    "invalid Base64 at byte {}: the last symbol has bits set that no byte holds",
                    lead + at
                ),
                text,
                lead + at,
                1,
            ),
            DecodeError::InvalidLength(len) => Spot::at(
                format!("invalid Base64 length {len}: the last group is cut short"),
                text,
                lead + len - len % 4,
                len % 4,
            ),
            DecodeError::InvalidPadding => Spot::message(format!("invalid Base64: {e}")),
        }),
    }
}

fn failed(spot: Spot) -> Coded {
    Coded {
        error: Some(spot),
        ..Coded::default()
    }
}

/// Pairs of hex digits; blanks between pairs skipped.
fn parse_hex(text: &str) -> Result<Vec<u8>, Spot> {
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
                return Err(Spot::at(format!("not a hex digit at byte {i}"), text, i, 1));
            }
            (Some(_), None) => {
                let at = i + 1;
                return Err(Spot::at(
                    format!("at byte {at}: a byte is two hex digits"),
                    text,
                    at,
                    1,
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
        assert_eq!(from_bytes(b"fo", "standard", false).encoded, "Zm8");
        assert_eq!(decode("Zm9vYg", "standard").text.as_deref(), Some("foob"));
        assert_eq!(from_hex("fb ff", "url", true).encoded, "-_8=");
        assert_eq!(from_hex("fbff", "standard", true).encoded, "+/8=");
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
