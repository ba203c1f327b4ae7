//! The Percent panel: text to its strict encoding (RFC 5849 §3.6), and an
//! encoded string back to bytes, strictly (RFC 3986) or as form text, where
//! `+` is a space. The library decides; this shapes its answer.

use oauth1_signer::{form_decode, percent_decode, percent_encode_str};
use serde::Serialize;

use crate::render::{hex, hex_dump, Spot};

/// Text, encoded.
#[derive(Clone, Debug, Serialize)]
pub struct Encoded {
    /// The strict encoding (a space is `%20` in both modes: form decoding reads it as one).
    pub encoded: String,
    /// The text's UTF-8 bytes in hex.
    pub bytes: String,
    /// How many bytes.
    pub byte_len: usize,
}

/// An encoded string, decoded.
#[derive(Clone, Debug, Serialize)]
pub struct DecodedText {
    /// The decoded text, if the bytes are UTF-8.
    pub text: Option<String>,
    /// Whether the bytes are not UTF-8 (binary, not text).
    pub binary: bool,
    /// The decoded bytes in hex.
    pub bytes: String,
    /// A hex dump of the decoded bytes.
    pub hex_dump: String,
    /// How many bytes.
    pub byte_len: usize,
    /// A malformed escape, where it is and why.
    pub error: Option<Spot>,
}

/// Encodes `text` as the signer does.
pub fn encode(text: &str) -> Encoded {
    Encoded {
        encoded: percent_encode_str(text).to_string(),
        bytes: hex(text.as_bytes()),
        byte_len: text.len(),
    }
}

/// Decodes `encoded`: `mode` `form` reads `+` as a space, any other mode
/// (`strict`) keeps it.
pub fn decode(encoded: &str, mode: &str) -> DecodedText {
    let result = if mode == "form" {
        form_decode(encoded.as_bytes())
    } else {
        percent_decode(encoded.as_bytes())
    };
    match result {
        Ok(d) => DecodedText {
            text: d.to_str().map(str::to_owned),
            binary: !d.is_text(),
            bytes: hex(d.as_bytes()),
            hex_dump: hex_dump(d.as_bytes()),
            byte_len: d.as_bytes().len(),
            error: None,
        },
        Err(e) => DecodedText {
            text: None,
            binary: false,
            bytes: String::new(),
            hex_dump: String::new(),
            byte_len: 0,
            error: Some(match e.offset() {
                Some((_, at)) => Spot::at(e.to_string(), encoded, at, e.span_len()),
                None => Spot::message(e.to_string()),
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Public values: X docs "Percent encoding parameters" (☃ is %E2%98%83).
    #[test]
    fn snowman() {
        let e = encode("☃");
        assert_eq!(
            (e.encoded.as_str(), e.bytes.as_str(), e.byte_len),
            ("%E2%98%83", "e2 98 83", 3)
        );
        assert_eq!(decode("%E2%98%83", "strict").text.as_deref(), Some("☃"));
    }

    #[test]
    fn plus_is_a_space_only_in_form_mode() {
        assert_eq!(decode("a+b", "strict").text.as_deref(), Some("a+b"));
        assert_eq!(decode("a+b", "form").text.as_deref(), Some("a b"));
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
    }

    #[test]
    fn bytes_that_are_not_utf8_are_binary() {
        let d = decode("%FF%FE", "strict");
        assert!(d.binary);
        assert_eq!((d.text, d.bytes.as_str()), (None, "ff fe"));
    }
}
