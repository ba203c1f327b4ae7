//! The X docs' "Creating a signature" request: vector
//! `x-docs-creating-a-signature` of `fixtures/signatures.json`, the one
//! loader of it for the library's tests, the CLI's tests (`cli/tests/common`)
//! and the benchmarks, which include this file by its path.

#![allow(dead_code)]

use serde_json::Value;

/// The vector's id.
pub const ID: &str = "x-docs-creating-a-signature";

/// The fixture file, read where this file is (so from any crate that
/// includes it).
const SIGNATURES: &str = include_str!("../../fixtures/signatures.json");

/// The vector, as JSON: `id`, `source`, `inputs` (a request file as
/// `oauth1 sign --request` reads it), `expected` (each stage).
pub fn vector() -> Value {
    let file: Value = serde_json::from_str(SIGNATURES).expect("fixtures/signatures.json is JSON");
    file["vectors"]
        .as_array()
        .expect("fixtures/signatures.json has vectors")
        .iter()
        .find(|v| v["id"] == ID)
        .unwrap_or_else(|| panic!("fixtures/signatures.json has no vector {ID}"))
        .clone()
}

/// The vector's `inputs`.
pub fn inputs() -> Value {
    vector()["inputs"].clone()
}

/// One recorded stage of `expected` (`base_string`, `signature`,
/// `authorization_header`...).
pub fn expected(stage: &str) -> String {
    vector()["expected"][stage]
        .as_str()
        .unwrap_or_else(|| panic!("{ID} has no expected {stage}"))
        .to_owned()
}
