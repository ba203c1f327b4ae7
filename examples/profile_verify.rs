//! A driver for instruction counts of verifying, as `profile_signing` is
//! for signing: runs one verification N times, so that
//! `valgrind --tool=callgrind` can compare changes deterministically.
//!
//! ```text
//! cargo build --profile bench --example profile_verify --example profile_signing
//! valgrind --tool=callgrind --toggle-collect='*run_case*' \
//!     target/release/examples/profile_verify verify_x_docs 1000
//! ```
//! Cases: `verify_x_docs` (the bench's verify: `StaticSecrets`, a store
//! that is not measured), `unknown_x_docs` (the same request under a
//! consumer key nobody knows: the dummy secret), `fresh_x_docs` (a source
//! that builds new `Secrets` for every lookup, as one without a cache does),
//! `nonce_key_x_docs` (the store's key alone). `TIME=1` adds the best of
//! thirty timed repeats, for quick A/B checks on a noisy machine.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../benches/common/mod.rs"]
mod common;

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use oauth1_signer::verify::{
    Freshness, Lookup, NonceKey, NonceStore, Received, SecretFuture, SecretSource, Secrets,
    StaticSecrets, StoreFuture, Verifier,
};
use oauth1_signer::{Credentials, OAuthRequest, Signer};

use common::*;

/// A store that is not measured: every nonce is fresh, at once.
struct Unmeasured;

impl NonceStore for Unmeasured {
    fn remember<'a>(&'a self, _: &'a NonceKey, _: Duration) -> StoreFuture<'a> {
        Box::pin(std::future::ready(Ok(Freshness::Fresh)))
    }
}

/// A source without a cache: new `Secrets` for every lookup.
struct Fresh;

impl SecretSource for Fresh {
    fn secrets<'a>(&'a self, _: &'a str, _: Option<&'a str>) -> SecretFuture<'a> {
        Box::pin(std::future::ready(Ok(Lookup::Found(Secrets::new(
            CONSUMER_SECRET,
            TOKEN_SECRET,
        )))))
    }
}

/// Polls a future that is ready at once (no I/O anywhere in it).
fn now<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("the verifier waited on something"),
    }
}

#[inline(never)]
fn run_case(n: usize, f: &mut dyn FnMut() -> usize) -> usize {
    let mut acc = 0;
    for _ in 0..n {
        acc += f();
    }
    acc
}

fn main() {
    let mut args = std::env::args().skip(1);
    let case = args.next().unwrap_or_else(|| "verify_x_docs".into());
    let n: usize = args.next().map_or(1000, |s| s.parse().unwrap());

    let credentials =
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET);
    let signer = Signer::builder(credentials.clone())
        .with_nonce(NONCE)
        .with_timestamp(TIMESTAMP)
        .build()
        .unwrap();
    let request = OAuthRequest::post(X_DOCS_URL).form_body(X_DOCS_BODY);
    let header = signer.authorization_header(&request).unwrap();
    let unknown_header = header.replacen(CONSUMER_KEY, "someone-else", 1);
    let at: u64 = TIMESTAMP.parse().unwrap();
    let received = Received::new("POST", X_DOCS_URL)
        .authorization_header(&header)
        .form_body(X_DOCS_BODY);
    let unknown = Received::new("POST", X_DOCS_URL)
        .authorization_header(&unknown_header)
        .form_body(X_DOCS_BODY);
    let verifier = Verifier::builder(StaticSecrets::new(credentials), Unmeasured)
        .build()
        .unwrap();
    let fresh = Verifier::builder(Fresh, Unmeasured).build().unwrap();
    now(verifier.verify_at(&received, at)).unwrap();
    now(verifier.verify_at(&unknown, at)).unwrap_err();
    now(fresh.verify_at(&received, at)).unwrap();

    let mut f: Box<dyn FnMut() -> usize> = match case.as_str() {
        "verify_x_docs" => Box::new(|| {
            now(verifier.verify_at(black_box(&received), at))
                .unwrap()
                .base_string()
                .len()
        }),
        "unknown_x_docs" => Box::new(|| {
            now(verifier.verify_at(black_box(&unknown), at))
                .unwrap_err()
                .base_string()
                .map_or(0, str::len)
        }),
        "fresh_x_docs" => Box::new(|| {
            now(fresh.verify_at(black_box(&received), at))
                .unwrap()
                .base_string()
                .len()
        }),
        "nonce_key_x_docs" => Box::new(|| {
            NonceKey::new(black_box(CONSUMER_KEY), TOKEN, at, NONCE).as_bytes()[0].into()
        }),
        other => panic!("unknown case {other}"),
    };
    let total = run_case(n, &mut f);
    // Best of thirty timed repeats, as in `profile_signing` (TIME=1).
    let mut best = f64::NAN;
    if std::env::var_os("TIME").is_some() {
        best = f64::INFINITY;
        for _ in 0..30 {
            let start = std::time::Instant::now();
            black_box(run_case(n, &mut f));
            best = best.min(start.elapsed().as_nanos() as f64 / n as f64);
        }
    }
    println!("{case} x{n}: {total} {best:.1} ns/iter");
}
