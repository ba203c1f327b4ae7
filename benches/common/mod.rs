//! The requests the benchmarks and `tests/alloc.rs` sign, defined once.
//!
//! The X docs request is the "Creating a signature" example; the 20-parameter
//! GET carries Hindi, Turkish and emoji text in its query, percent-encoded by
//! `percent-encoding` (not by this crate) the way a client would send it.

#![allow(dead_code)]

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

pub const CONSUMER_KEY: &str = "xvz1evFS4wEEPTGEFPHBog";
pub const CONSUMER_SECRET: &str = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw";
pub const TOKEN: &str = "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb";
pub const TOKEN_SECRET: &str = "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE";
pub const NONCE: &str = "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg";
pub const TIMESTAMP: &str = "1318622958";

/// The protocol parameters a signer with these credentials and the pinned
/// nonce and timestamp sends (HMAC-SHA1, version 1.0), less the signature.
pub const PROTOCOL_PARAMS: [(&str, &str); 6] = [
    ("oauth_consumer_key", CONSUMER_KEY),
    ("oauth_nonce", NONCE),
    ("oauth_signature_method", "HMAC-SHA1"),
    ("oauth_timestamp", TIMESTAMP),
    ("oauth_token", TOKEN),
    ("oauth_version", "1.0"),
];

/// X docs, "Creating a signature".
pub const X_DOCS_URL: &str = "https://api.x.com/1.1/statuses/update.json?include_entities=true";
pub const X_DOCS_BODY: &[u8] =
    b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21";
/// The same request as decoded parameters (what `oauth1-request` takes) and
/// the query-less URI.
pub const X_DOCS_URI: &str = "https://api.x.com/1.1/statuses/update.json";
pub const X_DOCS_PARAMS: [(&str, &str); 2] = [
    ("include_entities", "true"),
    (
        "status",
        "Hello Ladies + Gentlemen, a signed OAuth request!",
    ),
];

/// RFC 3986 unreserved characters stay; everything else is escaped.
pub const RFC3986: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

pub const GET20_URI: &str = "https://api.x.com/2/tweets/search/recent";

/// Twenty values of non-ASCII text.
pub const GET20_VALUES: [&str; 20] = [
    "नमस्ते दुनिया",
    "İstanbul'da güzel bir gün",
    "🎉🚀✨",
    "भारत की राजधानी नई दिल्ली है",
    "Çok teşekkür ederim",
    "😀 😃 😄 😁",
    "मुझे हिंदी पसंद है",
    "Şişli'de öğle yemeği",
    "🇹🇷🇮🇳🌍",
    "क्रिकेट मैच आज शाम को",
    "Günaydın! Nasılsın?",
    "❤️‍🔥 🔥",
    "यह एक परीक्षण है",
    "Ağaç, çiçek, böcek",
    "👩‍💻👨‍🔬",
    "स्वागत है",
    "Işık ılık süt iç",
    "🍕🍔🍟🌮",
    "धन्यवाद",
    "Üsküdar'a gider iken",
];

/// Parameter names `q00`..`q19`, paired with [`GET20_VALUES`].
pub fn get20_params() -> Vec<(String, &'static str)> {
    GET20_VALUES
        .iter()
        .enumerate()
        .map(|(i, v)| (format!("q{i:02}"), *v))
        .collect()
}

/// The 20-parameter GET's URL, its query percent-encoded as a client sends it.
pub fn get20_url() -> String {
    let mut url = String::from(GET20_URI);
    for (i, (name, value)) in get20_params().iter().enumerate() {
        url.push(if i == 0 { '?' } else { '&' });
        url.push_str(name);
        url.push('=');
        url.extend(utf8_percent_encode(value, RFC3986));
    }
    url
}
