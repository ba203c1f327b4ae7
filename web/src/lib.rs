//! The page's WebAssembly side: the library's public API behind a few
//! functions that take the page's fields and return JSON for `app.js` to
//! render. Every rule (encoding, decoding, signing, explaining, Base64) is
//! the library's or the `base64` crate's; this crate only gathers inputs and
//! shapes answers, and the JavaScript only shows them.
//!
//! One module per panel: [`percent`], [`sign`] (which the explain panel
//! shares), [`explain`] (with [`capture`], what the client sent), [`b64`]; [`render`] holds what they show alike
//! (hex, a spot in an input, a difference), and [`say`] what they say of
//! the library's errors and warnings, by codes the page words in the
//! reader's language.
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

pub mod b64;
#[cfg(feature = "capture")]
pub mod capture;
#[cfg(feature = "explain")]
pub mod explain;
pub mod percent;
pub mod render;
pub mod say;
pub mod sign;

use wasm_bindgen::prelude::wasm_bindgen;

/// Percent panel, text to encoded, as an edit of the encoding it answered
/// last (JSON of [`percent::EncodedEdit`]).
#[wasm_bindgen]
pub fn percent_encode_text(text: &str) -> String {
    render::json(&percent::encode_edit(text))
}

/// Percent panel, encoded to text; `mode` is `strict` or `form` (JSON of
/// [`percent::DecodedText`]).
#[wasm_bindgen]
pub fn percent_decode_text(encoded: &str, mode: &str) -> String {
    render::json(&percent::decode(encoded, mode))
}

/// Percent panel: lines `from..from + count` of the hex dump of `encoded`,
/// decoded (JSON list), for the lines scrolled into view.
#[wasm_bindgen]
pub fn percent_dump(encoded: &str, mode: &str, from: usize, count: usize) -> String {
    render::json(&percent::dump(encoded, mode, from, count))
}

/// Percent panel: the per-character table of `text` around the caret (a
/// UTF-16 offset), at most `max_rows` rows (JSON of [`percent::CharTable`]).
#[wasm_bindgen]
pub fn percent_char_table(text: &str, caret: usize, max_rows: usize) -> String {
    render::json(&percent::char_table(text, caret, max_rows))
}

/// The signature methods the page offers, by their RFC names (JSON list).
#[wasm_bindgen]
pub fn signature_methods() -> String {
    render::json(&sign::method_names())
}

/// The providers the page offers, by the library's names (JSON list).
#[wasm_bindgen]
pub fn providers() -> String {
    render::json(&sign::provider_names())
}

/// Sign panel: what the profile of provider `name` sets, for a request to
/// `url` (JSON of [`sign::ProfileShown`], or `null` for none).
#[wasm_bindgen]
pub fn provider_profile(name: &str, url: &str) -> String {
    render::json(&sign::profile_shown(name, url))
}

/// Sign panel: the request's fields as JSON ([`sign::Fields`]) to every
/// stage (JSON of [`sign::Signed`]).
#[wasm_bindgen]
pub fn sign_request(fields: &str) -> String {
    render::json(&sign::sign_json(fields))
}

/// Sign panel: the X docs "Creating a signature" request's fields (JSON of
/// [`sign::Fields`]), for the example button.
#[wasm_bindgen]
pub fn sign_example() -> String {
    render::json(&sign::x_docs_example())
}

/// Sign panel: the X API's three endpoints of the flow (JSON object with
/// `request_token`, `authorize`, `access_token`), the library's.
#[wasm_bindgen]
pub fn x_endpoints() -> String {
    let e = oauth1_signer::flow::Endpoints::x();
    render::json(&serde_json::json!({
        "request_token": e.request_token,
        "authorize": e.authorize,
        "access_token": e.access_token,
    }))
}

/// Sign panel, the authorize step (RFC 5849 §2.2): the URL to send the user
/// to, `authorize` with the temporary token added to its query.
#[wasm_bindgen]
pub fn authorize_url(authorize: &str, token: &str) -> String {
    oauth1_signer::flow::authorize_url(authorize, token)
}

/// Explain panel: the Sign panel's fields and the other side's evidence as
/// JSON ([`explain::Evidence`]) to the causes (JSON of [`explain::Explained`]).
#[cfg(feature = "explain")]
#[wasm_bindgen]
pub fn explain_request(evidence: &str) -> String {
    render::json(&explain::explain_json(evidence))
}

/// Base64 panel, from text; `alphabet` is `standard` or `url` (JSON of [`b64::Coded`]).
#[wasm_bindgen]
pub fn base64_from_text(text: &str, alphabet: &str, padding: bool) -> String {
    render::json(&b64::from_text(text, alphabet, padding))
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

#[cfg(test)]
mod tests {
    use oauth1_signer::{BodyHashAlgorithm, BodyHashPolicy, Transmission};

    /// The option values of the select `id` in the page.
    fn options(id: &str) -> Vec<&'static str> {
        let html = include_str!("../static/index.html");
        let start = html
            .find(&format!("<select id=\"{id}\""))
            .unwrap_or_else(|| panic!("no select {id}"));
        let end = start + html[start..].find("</select>").unwrap();
        html[start..end]
            .split("<option value=\"")
            .skip(1)
            .map(|o| &o[..o.find('"').unwrap()])
            .collect()
    }

    /// The page's selects offer the library's words, each once, all of them:
    /// what the CLI's flags and the request file take.
    #[test]
    fn the_selects_offer_the_library_s_words() {
        assert_eq!(options("sign-body-hash"), BodyHashPolicy::NAMES);
        assert_eq!(
            options("sign-body-hash-algorithm"),
            BodyHashAlgorithm::NAMES
        );
        let mut transmissions = options("sign-transmission");
        let mut names = Transmission::NAMES.to_vec();
        transmissions.sort_unstable();
        names.sort_unstable();
        assert_eq!(transmissions, names);
    }
}
