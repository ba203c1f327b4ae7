//! The public vectors in `fixtures/` as JSON, and the credentials and
//! request of vector `x-docs-creating-a-signature` (the X docs' "Creating a
//! signature", which `--example` is).

use serde_json::Value;

/// The X docs "Creating a signature" credentials (vector `x-docs-creating-a-signature`).
pub const X_CONSUMER_KEY: &str = "xvz1evFS4wEEPTGEFPHBog";
pub const X_CONSUMER_SECRET: &str = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw";
pub const X_TOKEN: &str = "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb";
pub const X_TOKEN_SECRET: &str = "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE";
pub const X_URL: &str = "https://api.x.com/1.1/statuses/update.json?include_entities=true";
pub const X_BODY: &str =
    "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21";
pub const X_NONCE: &str = "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg";
pub const X_TIMESTAMP: &str = "1318622958";

/// The vectors of `fixtures/<name>`.
pub fn fixture(name: &str) -> Vec<Value> {
    let path = format!("{}/../fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file: Value = serde_json::from_str(&text).unwrap();
    file["vectors"].as_array().unwrap().clone()
}

/// Vector `id` of `fixtures/<name>`.
pub fn vector(name: &str, id: &str) -> Value {
    fixture(name).into_iter().find(|v| v["id"] == id).unwrap()
}
