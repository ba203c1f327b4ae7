//! Signing allocates nothing but the header it returns, and nothing grows with
//! the number of requests signed.
//!
//! A counting global allocator (`stats_alloc`, since writing one takes
//! `unsafe`, which this crate forbids) in its own test binary. Counts are
//! deterministic, so they are asserted exactly; times never are. The
//! counter counts every thread, so this binary has no libtest harness
//! (`harness = false` in Cargo.toml): the harness's own thread allocates
//! while a test runs, at moments that depend on timing (seen: 4 extra
//! allocations in about half the runs on a loaded machine), which made the
//! exact counts fail by chance. Nothing else runs while it counts.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../benches/common/mod.rs"]
mod common;
#[path = "common/x_docs.rs"]
mod x_docs;

use std::alloc::System;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use hmac::{Hmac, KeyInit, Mac};
use oauth1_signer::{OAuthRequest, Signer};
use percent_encoding::utf8_percent_encode;
use sha1::Sha1;
use stats_alloc::{Region, Stats, StatsAlloc, INSTRUMENTED_SYSTEM};

use common::*;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Runs `f` and counts what it allocated (its result is not dropped yet).
fn counted<R>(f: impl FnOnce() -> R) -> (R, Stats) {
    let region = Region::new(GLOBAL);
    let r = f();
    let stats = region.change();
    (r, stats)
}

/// `x-docs-creating-a-signature` from fixtures/signatures.json: its expected header.
fn x_docs_fixture_header() -> String {
    // The bench's copy of the request is the fixture's.
    let inputs = x_docs::inputs();
    assert_eq!(inputs["url"], X_DOCS_URL);
    assert_eq!(
        inputs["form_body"].as_str().unwrap().as_bytes(),
        X_DOCS_BODY
    );
    assert_eq!(inputs["nonce"], NONCE);
    assert_eq!(inputs["timestamp"], TIMESTAMP);
    assert_eq!(inputs["consumer_secret"], CONSUMER_SECRET);
    assert_eq!(inputs["token_secret"], TOKEN_SECRET);
    x_docs::expected("authorization_header")
}

/// The 20-parameter GET's signature, by the book (RFC 5849 §3.4, with the
/// `percent-encoding` crate as the encoder), from the decoded parameters.
fn get20_reference_signature() -> String {
    let enc = |s: &str| utf8_percent_encode(s, RFC3986).to_string();
    let mut pairs: Vec<(String, String)> = get20_params()
        .iter()
        .map(|(n, v)| (enc(n), enc(v)))
        .collect();
    for (n, v) in PROTOCOL_PARAMS {
        pairs.push((enc(n), enc(v)));
    }
    pairs.sort();
    let joined: Vec<String> = pairs.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let base = format!("GET&{}&{}", enc(GET20_URI), enc(&joined.join("&")));
    let key = format!("{}&{}", enc(CONSUMER_SECRET), enc(TOKEN_SECRET));
    let mut mac = <Hmac<Sha1> as KeyInit>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(base.as_bytes());
    STANDARD.encode(mac.finalize().into_bytes())
}

/// Exactly one allocation, of exactly the header's length, and nothing else.
fn assert_only_the_header(what: &str, header: &str, capacity: usize, stats: Stats) {
    assert_eq!(stats.allocations, 1, "{what}: {stats:?}");
    assert_eq!(stats.reallocations, 0, "{what}: {stats:?}");
    assert_eq!(stats.deallocations, 0, "{what}: {stats:?}");
    assert_eq!(
        stats.bytes_allocated,
        header.len(),
        "{what}: the header is allocated at its exact length"
    );
    assert_eq!(capacity, header.len(), "{what}");
}

fn main() {
    signing_allocates_only_the_header_and_nothing_grows();
    println!("1 passed, 0 failed");
}

fn signing_allocates_only_the_header_and_nothing_grows() {
    let want_x_docs = x_docs_fixture_header();
    let want_get20 = get20_reference_signature();
    let get20 = get20_url();
    let x_docs = OAuthRequest::post(X_DOCS_URL).form_body(X_DOCS_BODY);
    let get20 = OAuthRequest::get(&get20);
    let signer = Signer::builder(credentials())
        .with_nonce(NONCE)
        .with_timestamp(TIMESTAMP)
        .build()
        .unwrap();
    // A signer encodes its own protocol parameters when it is built: its
    // very first request allocates only the header, as every later one.
    for what in ["X docs, first request", "X docs, reused signer"] {
        // X docs "Creating a signature", pinned nonce and timestamp.
        let (header, stats) = counted(|| signer.authorization_header(&x_docs).unwrap());
        assert_eq!(header, want_x_docs);
        assert_only_the_header(what, &header, header.capacity(), stats);
    }

    // 20 non-ASCII query parameters: 26 parameters in all, still no spill.
    let (header, stats) = counted(|| signer.authorization_header(&get20).unwrap());
    let sent = utf8_percent_encode(&want_get20, RFC3986).to_string();
    assert!(
        header.contains(&format!("oauth_signature=\"{sent}\"")),
        "{header}"
    );
    assert_only_the_header("20-parameter GET", &header, header.capacity(), stats);

    // A fresh nonce and timestamp add nothing. The first call sets up the
    // thread's random number generator, once per thread, not per request.
    let fresh = Signer::new(credentials());
    drop(fresh.authorization_header(&x_docs).unwrap());
    for (what, request) in [
        ("fresh, X docs", &x_docs),
        ("fresh, 20-parameter GET", &get20),
    ] {
        let (header, stats) = counted(|| fresh.authorization_header(request).unwrap());
        assert!(header
            .starts_with("OAuth oauth_consumer_key=\"xvz1evFS4wEEPTGEFPHBog\", oauth_nonce=\""));
        assert_only_the_header(what, &header, header.capacity(), stats);
    }

    // Ten thousand requests: one allocation each, every one freed again.
    let ((), stats) = counted(|| {
        for i in 0..10_000 {
            let request = if i % 2 == 0 { &x_docs } else { &get20 };
            let header = fresh.authorization_header(request).unwrap();
            assert!(header.starts_with("OAuth "));
        }
    });
    assert_eq!(stats.allocations, 10_000, "{stats:?}");
    assert_eq!(stats.reallocations, 0, "{stats:?}");
    assert_eq!(stats.deallocations, 10_000, "{stats:?}");
    assert_eq!(
        stats.bytes_allocated, stats.bytes_deallocated,
        "live memory grew: {stats:?}"
    );
}
