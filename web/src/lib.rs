//! The page's WebAssembly side: the library's public API behind a few
//! functions that take the page's fields and return JSON for `app.js` to
//! render. Every rule (encoding, decoding, signing, explaining, Base64) is
//! the library's or the `base64` crate's; this crate only gathers inputs and
//! shapes answers, and the JavaScript only shows them.
//!
//! One module per panel: [`percent`], [`sign`] (which the explain panel
//! shares), [`explain`], [`b64`]; [`render`] holds what they show alike
//! (hex, a spot in an input, a difference).
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod b64;
pub mod explain;
pub mod percent;
pub mod render;
pub mod sign;

use wasm_bindgen::prelude::wasm_bindgen;

/// Percent panel, text to encoded (JSON of [`percent::Encoded`]).
#[wasm_bindgen]
pub fn percent_encode_text(text: &str) -> String {
    render::json(&percent::encode(text))
}

/// Percent panel, encoded to text; `mode` is `strict` or `form` (JSON of
/// [`percent::DecodedText`]).
#[wasm_bindgen]
pub fn percent_decode_text(encoded: &str, mode: &str) -> String {
    render::json(&percent::decode(encoded, mode))
}

/// The signature methods the page offers, by their RFC names (JSON list).
#[wasm_bindgen]
pub fn signature_methods() -> String {
    render::json(&sign::method_names())
}

/// Sign panel: the request's fields as JSON ([`sign::Fields`]) to every
/// stage (JSON of [`sign::Signed`]).
#[wasm_bindgen]
pub fn sign_request(fields: &str) -> String {
    render::json(&sign::sign_json(fields))
}

/// Explain panel: the Sign panel's fields and the other side's evidence as
/// JSON ([`explain::Evidence`]) to the causes (JSON of [`explain::Explained`]).
#[wasm_bindgen]
pub fn explain_request(evidence: &str) -> String {
    render::json(&explain::explain_json(evidence))
}

/// Base64 panel, from text; `alphabet` is `standard` or `url` (JSON of [`b64::Coded`]).
#[wasm_bindgen]
pub fn base64_from_text(text: &str, alphabet: &str, padding: bool) -> String {
    render::json(&b64::from_bytes(text.as_bytes(), alphabet, padding))
}

/// Base64 panel, from hex bytes (JSON of [`b64::Coded`]).
#[wasm_bindgen]
pub fn base64_from_hex(hex: &str, alphabet: &str, padding: bool) -> String {
    render::json(&b64::from_hex(hex, alphabet, padding))
}

/// Base64 panel, from Base64 (JSON of [`b64::Coded`]).
#[wasm_bindgen]
pub fn base64_decode(encoded: &str, alphabet: &str) -> String {
    render::json(&b64::decode(encoded, alphabet))
}
