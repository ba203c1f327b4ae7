//! Verifying a request against signing the same request, in one run so the
//! ratio holds (the goal: verify within 1.5× of sign). The nonce
//! store is excluded: it answers at once, as a store that is not measured.
//!
//! Run with `cargo bench --bench verify`.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use oauth1_signer::verify::{Received, StaticSecrets, Verifier};
use oauth1_signer::{Credentials, OAuthRequest, Signer};

use common::*;

fn verify_vs_sign(c: &mut Criterion) {
    let credentials =
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET);
    let signer = Signer::builder(credentials.clone())
        .with_nonce(NONCE)
        .with_timestamp(TIMESTAMP)
        .build()
        .unwrap();
    let request = OAuthRequest::post(X_DOCS_URL).form_body(X_DOCS_BODY);
    let header = signer.authorization_header(&request).unwrap();
    let verifier = Verifier::builder(StaticSecrets::new(credentials), Unmeasured)
        .build()
        .unwrap();
    let at: u64 = TIMESTAMP.parse().unwrap();
    let received = Received::new("POST", X_DOCS_URL)
        .authorization_header(&header)
        .form_body(X_DOCS_BODY);
    now(verifier.verify_at(&received, at)).unwrap();

    let mut g = c.benchmark_group("x_docs");
    g.bench_function("sign", |b| {
        b.iter(|| signer.authorization_header(black_box(&request)).unwrap())
    });
    g.bench_function("verify", |b| {
        b.iter(|| now(verifier.verify_at(black_box(&received), at)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, verify_vs_sign);
criterion_main!(benches);
