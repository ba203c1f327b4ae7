//! `oauth1 serve` under load, beside the oauthlib provider (`tests/provider/`),
//! driven by one load generator: throughput and latency percentiles.
//!
//! A benchmark, not a test: it measures and prints, and asserts only that
//! every request got the answer it should (all are validly signed, each with
//! a fresh nonce).
//!
//! Targets, each on 127.0.0.1: the floor (a bare hyper server on serve's
//! runtime and connection settings, answering 200, in a process of its
//! own), `oauth1 serve` with the memory store, with a Redis store (a
//! `redis-server` started as the tests start theirs), and the oauthlib
//! provider; then the ratios. The floor and serve with the memory store
//! take turns for ROUNDS rounds (default 5), and the ratios are of their
//! medians:
//!
//! ```sh
//! cargo bench -p oauth1-cli --bench serve [-- REQUESTS CONCURRENCY ROUNDS [--raw|--spin] [--shared-cores]]
//! ```
//!
//! Every request is signed before the clock starts, so the figures are the
//! server's, not the signer's. On a machine of two cores or more the
//! servers run on CPU 0 and the load generator on CPU 1 (`taskset`): one
//! server core's figures. Each server's CPU a request is read from `/proc`,
//! and the load generator's own CPU is printed: near one core, it was the
//! limit, and the requests/s ratio is its ceiling, not parity. `--raw`
//! sends the requests with a lighter load generator than reqwest
//! (`common::Generator::Raw`), which one core can drive further.

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

use common::{
    busy, cpu_ns, floor_if_asked, floor_process, listening, median, pin_self, report, rss_kib,
    Generator, Killed, Run,
};

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
fn load(
    base: &str,
    n: usize,
    concurrency: usize,
    generator: Generator,
) -> (Vec<Duration>, Duration) {
    common::load(base, n, concurrency, &credentials(), generator)
}

/// `common::timed_load` with the provider's credentials, and the load
/// generator's CPU over the run as a share of one core (`common::busy`).
fn timed_load(
    base: &str,
    n: usize,
    concurrency: usize,
    generator: Generator,
    cpu: impl Fn() -> Option<u64>,
) -> (f64, Run) {
    busy(|| common::timed_load(base, n, concurrency, &credentials(), generator, cpu))
}

fn credentials() -> Credentials {
    Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET)
}

fn main() {
    floor_if_asked();
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
    let generator = Generator::from_args();
    // The servers (the floor, serve, redis-server) inherit CPU 0; then this
    // process, the load generator, moves to CPU 1: one core's figures, and
    // the generator's own CPU says whether it was the limit.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pinned = cores >= 2 && !common::shared_cores() && pin_self("0");
    let (floor, floor_base) = floor_process();
    let (memory, memory_base) = serve("memory");
    let redis = redis_server::RedisServer::start();
    let (redis_serve, redis_base) = serve(&redis.url());
    let pinned = pinned && pin_self("1");
    println!(
        "{n} GET requests, {concurrency} at a time, each signed with a fresh nonce; \
         the floor and serve with the memory store take turns for {rounds} rounds; \
         load generator {}; {}; {}",
        generator.name(),
        common::placement(pinned, "servers on CPU 0, load generator on CPU 1"),
        common::machine(),
    );
    // The floor and serve with the memory store take turns, round after
    // round, so that what else the machine runs weighs on both alike.
    load(&floor_base, 200, concurrency, generator); // warm-up
    load(&memory_base, 200, concurrency, generator);
    let before = rss_kib(&memory);
    let (mut floor_rates, mut memory_rates) = (Vec::new(), Vec::new());
    let (mut floor_cpu, mut memory_cpu) = (Vec::new(), Vec::new());
    let (mut floor_busy, mut memory_busy) = (Vec::new(), Vec::new());
    let (mut floor_empty, mut memory_empty) = (Vec::new(), Vec::new());
    let (floor_pid, memory_pid) = (floor.pid(), memory.pid());
    for round in 1..=rounds {
        let (b, run) = timed_load(&floor_base, n, concurrency, generator, || {
            cpu_ns(floor_pid, None)
        });
        floor_busy.push(b);
        floor_empty.push(common::spin_idle());
        floor_cpu.extend(run.1);
        floor_rates.push(report(&format!("floor (bare hyper), {round}"), run).rate);
        let (b, run) = timed_load(&memory_base, n, concurrency, generator, || {
            cpu_ns(memory_pid, None)
        });
        memory_busy.push(b);
        memory_empty.push(common::spin_idle());
        memory_cpu.extend(run.1);
        memory_rates.push(report(&format!("oauth1 serve, memory, {round}"), run).rate);
    }
    // Twice as many again: what is kept per request shows as growth.
    load(&memory_base, 2 * n, concurrency, generator);
    if let (Some(a), Some(b)) = (before, rss_kib(&memory)) {
        println!(
            "{:<28} resident memory {a} KiB after warm-up, {b} KiB after {} more requests",
            "",
            (rounds + 2) * n
        );
    }
    drop(memory);
    drop(floor);
    let redis_rate = {
        load(&redis_base, 200, concurrency, generator); // warm-up
        let pid = redis_serve.pid();
        let (_, run) = timed_load(&redis_base, n, concurrency, generator, || cpu_ns(pid, None));
        report("oauth1 serve, Redis", run).rate
    };
    drop(redis_serve);
    // The oauthlib provider answers a few thousand a second: reqwest is
    // never its limit (and its answers are not read by the raw generator).
    let p = provider::Provider::start(&[]);
    load(&p.base, 200, concurrency, Generator::Reqwest);
    let (_, run) = timed_load(&p.base, n, concurrency, Generator::Reqwest, || None);
    let oauthlib = report("oauthlib provider", run).rate;
    let (floor, memory) = (median(floor_rates), median(memory_rates));
    let (floor_us, memory_us) = (median(floor_cpu), median(memory_cpu));
    println!(
        "medians of the rounds: floor {floor:.0} req/s, {floor_us:.1} µs CPU a request; \
         serve with the memory store {memory:.0} req/s, {memory_us:.1} µs CPU a request"
    );
    println!(
        "serve (memory) / floor {:.2} in requests/s (goal ≥ 0.6 with a load generator that is \
         not the limit), {:.2} in CPU a request; serve (memory) / oauthlib {:.1}x; \
         serve (Redis) / oauthlib {:.1}x",
        memory / floor,
        memory_us / floor_us,
        memory / oauthlib,
        redis_rate / oauthlib
    );
    // Near 1.0 (one core): the load generator was the limit, and the
    // requests/s ratio is its ceiling, not the servers' (a quiet round never
    // reads as parity). Then read the capacity from CPU a request.
    let (floor_busy, memory_busy) = (median(floor_busy), median(memory_busy));
    if generator == Generator::Spin {
        // It spins: its CPU is a core whatever the server does.
        println!(
            "the spinning load generator's reads that found nothing, median of the rounds: \
             {:.2} against the floor, {:.2} against serve (near 0: it was the limit)",
            median(floor_empty),
            median(memory_empty)
        );
    } else {
        println!(
            "the load generator's CPU, median of the rounds: {floor_busy:.2} of a core against \
             the floor, {memory_busy:.2} against serve{}",
            if floor_busy.max(memory_busy) >= 0.9 {
                " (0.9 or more: it was the limit, not the server)"
            } else {
                ""
            }
        );
    }
    println!(
        "one core's capacity (10^6 / CPU µs a request): floor {:.0}, serve {:.0} req/s; \
         serve ÷ floor {:.2}",
        1e6 / floor_us,
        1e6 / memory_us,
        floor_us / memory_us,
    );
    println!("after the run: {}", common::machine());
}
