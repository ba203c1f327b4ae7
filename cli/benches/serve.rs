//! `oauth1 serve` under load, beside the oauthlib provider (`tests/provider/`),
//! driven by one load generator: throughput and latency percentiles.
//!
//! A benchmark, not a test: it measures and prints, and asserts only that
//! every request got the answer it should (all are validly signed, each with
//! a fresh nonce).
//!
//! Targets, each on 127.0.0.1: the floor (a bare hyper server on serve's
//! runtime and connection settings, answering 200), `oauth1 serve` with the
//! memory store, with a Redis store (a `redis-server` started as the tests
//! start theirs), and the oauthlib provider; then the ratios. The floor and
//! serve with the memory store take turns for ROUNDS rounds (default 5),
//! and the ratios are of their medians:
//!
//! ```sh
//! cargo bench -p oauth1-cli --bench serve [-- REQUESTS CONCURRENCY ROUNDS]
//! ```
//!
//! Every request is signed before the clock starts, so the figures are the
//! server's (and the load generator's: they share the machine), not the
//! signer's.

// A harness: a panic is how it says a request got the wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;
use std::time::Duration;

use oauth1_signer::Credentials;

mod common;
#[path = "../../tests/common/provider.rs"]
#[allow(dead_code)]
mod provider;
#[path = "../../tests/redis_server/mod.rs"]
mod redis_server;

use common::{cpu_ns, floor, listening, median, report, rss_kib, Generator, Killed, FLOOR_THREAD};

const CONSUMER_KEY: &str = provider::CONSUMER_KEY;
const CONSUMER_SECRET: &str = provider::CONSUMER_SECRET;
const TOKEN: &str = provider::ACCESS_TOKEN;
const TOKEN_SECRET: &str = provider::ACCESS_SECRET;

/// `oauth1 serve` on a free port, and its base URL from the line it prints
/// when ready (`listening on http://ADDR`).
fn serve(store: &str) -> (Killed, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_oauth1"));
    command
        .args(["serve", "--listen", "127.0.0.1:0", "--nonce-store", store])
        .args(["--consumer-key", CONSUMER_KEY, "--token", TOKEN])
        .env("OAUTH_CONSUMER_SECRET", CONSUMER_SECRET)
        .env("OAUTH_TOKEN_SECRET", TOKEN_SECRET);
    listening(command)
}

/// `common::load` with the provider's credentials.
fn load(base: &str, n: usize, concurrency: usize) -> (Vec<Duration>, Duration) {
    common::load(base, n, concurrency, &credentials(), Generator::Reqwest)
}

/// `common::timed_load` with the provider's credentials.
fn timed_load(
    base: &str,
    n: usize,
    concurrency: usize,
    cpu: impl Fn() -> Option<u64>,
) -> ((Vec<Duration>, Duration), Option<f64>) {
    common::timed_load(
        base,
        n,
        concurrency,
        &credentials(),
        Generator::Reqwest,
        cpu,
    )
}

fn credentials() -> Credentials {
    Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET)
}

fn main() {
    // The load generator's reqwest has no cryptography of its own (the CLI
    // takes `rustls-no-provider` and installs ring at start, as here).
    let _ = rustls::crypto::ring::default_provider().install_default();
    // `cargo bench` passes `--bench`; the numbers, if given, come after `--`.
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(5000);
    let concurrency = args.get(1).copied().unwrap_or(32);
    let rounds = args.get(2).copied().unwrap_or(5).max(1);
    println!(
        "{n} GET requests, {concurrency} at a time, each signed with a fresh nonce; \
         the floor and serve with the memory store take turns for {rounds} rounds"
    );
    // The floor and serve with the memory store take turns, round after
    // round, so that what else the machine runs weighs on both alike.
    let floor = floor();
    let (memory, memory_base) = serve("memory");
    load(&floor, 200, concurrency); // warm-up
    load(&memory_base, 200, concurrency);
    let before = rss_kib(&memory);
    let (mut floor_rates, mut memory_rates) = (Vec::new(), Vec::new());
    let (mut floor_cpu, mut memory_cpu) = (Vec::new(), Vec::new());
    let me = std::process::id();
    let child = memory.0.id();
    for round in 1..=rounds {
        let run = timed_load(&floor, n, concurrency, || cpu_ns(me, Some(FLOOR_THREAD)));
        floor_cpu.extend(run.1);
        floor_rates.push(report(&format!("floor (bare hyper), {round}"), run).rate);
        let run = timed_load(&memory_base, n, concurrency, || cpu_ns(child, None));
        memory_cpu.extend(run.1);
        memory_rates.push(report(&format!("oauth1 serve, memory, {round}"), run).rate);
    }
    // Twice as many again: what is kept per request shows as growth.
    load(&memory_base, 2 * n, concurrency);
    if let (Some(a), Some(b)) = (before, rss_kib(&memory)) {
        println!(
            "{:<28} resident memory {a} KiB after warm-up, {b} KiB after {} more requests",
            "",
            (rounds + 2) * n
        );
    }
    drop(memory);
    let redis_rate = {
        let redis = redis_server::RedisServer::start();
        let (serve, base) = serve(&redis.url());
        load(&base, 200, concurrency); // warm-up
        let child = serve.0.id();
        report(
            "oauth1 serve, Redis",
            timed_load(&base, n, concurrency, || cpu_ns(child, None)),
        )
        .rate
    };
    let p = provider::Provider::start(&[]);
    load(&p.base, 200, concurrency);
    let oauthlib = report(
        "oauthlib provider",
        timed_load(&p.base, n, concurrency, || None),
    )
    .rate;
    let (floor, memory) = (median(floor_rates), median(memory_rates));
    let (floor_us, memory_us) = (median(floor_cpu), median(memory_cpu));
    println!(
        "medians of the rounds: floor {floor:.0} req/s, {floor_us:.1} µs CPU a request; \
         serve with the memory store {memory:.0} req/s, {memory_us:.1} µs CPU a request"
    );
    println!(
        "serve (memory) / floor {:.2} in requests/s, {:.2} in CPU a request; \
         serve (memory) / oauthlib {:.1}x; serve (Redis) / oauthlib {:.1}x",
        memory / floor,
        memory_us / floor_us,
        memory / oauthlib,
        redis_rate / oauthlib
    );
}
