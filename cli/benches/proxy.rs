//! `oauth1 proxy`'s cost (issue 41 item 8): the same pre-signed GET
//! requests sent straight to an upstream and through `oauth1 proxy` in
//! front of it, taking turns round after round; the proxy's added latency
//! (p50 through it − p50 direct) and its own CPU time a request.
//!
//! The upstream is the floor of `serve.rs` (a bare hyper server on serve's
//! runtime settings, answering 200), run as a process of its own: this
//! bench started again with `--floor`. The proxy keeps its nonces in memory
//! and writes its log line per request (to /dev/null here), as it does by
//! default. Each server's CPU is read from `/proc/PID/task/*/schedstat`.
//!
//! With two cores or more, the servers (the floor and the proxy) run on
//! CPU 0 and the load generator on CPU 1 (`taskset`): one core's figures.
//! The load generator is `serve.rs`'s (reqwest), or with `--raw` a lighter
//! one (`common::Generator::Raw`).
//!
//! ```sh
//! cargo bench -p oauth1-cli --bench proxy [-- REQUESTS CONCURRENCY ROUNDS [--raw|--spin] [--shared-cores]]
//! ```

// A harness: a panic is how it says a request got the wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use oauth1_signer::Credentials;

mod common;

use common::{
    busy, cpu_ns, floor_process, listening, median, pin_self, report, timed_load, Figures,
    Generator, Killed,
};

const CONSUMER_KEY: &str = "bench-consumer";
const CONSUMER_SECRET: &str = "bench-consumer-secret";
const TOKEN: &str = "bench-token";
const TOKEN_SECRET: &str = "bench-token-secret";

/// `oauth1 proxy` in front of `upstream`, memory nonce store.
fn proxy(upstream: &str) -> (Killed, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_oauth1"));
    command
        .args(["proxy", "--listen", "127.0.0.1:0", "--upstream", upstream])
        .args(["--nonce-store", "memory"])
        .args(["--consumer-key", CONSUMER_KEY, "--token", TOKEN])
        .env("OAUTH_CONSUMER_SECRET", CONSUMER_SECRET)
        .env("OAUTH_TOKEN_SECRET", TOKEN_SECRET);
    listening(command)
}

fn main() {
    common::floor_if_asked();
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
    let credentials =
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET);

    // The servers inherit CPU 0; then this process moves to CPU 1.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pinned = cores >= 2 && !common::shared_cores() && pin_self("0");
    let (floor, floor_base) = floor_process();
    let (proxy, proxy_base) = proxy(&floor_base);
    let pinned = pinned && pin_self("1");
    println!(
        "{n} GET requests, {concurrency} at a time, each signed with a fresh nonce; \
         direct to the floor and through oauth1 proxy take turns for {rounds} rounds; load generator {}; {}; {}",
        generator.name(),
        common::placement(pinned, "servers on CPU 0, load generator on CPU 1"),
        common::machine(),
    );
    common::load(&floor_base, 200, concurrency, &credentials, generator); // warm-up
    common::load(&proxy_base, 200, concurrency, &credentials, generator);
    let (floor_pid, proxy_pid) = (floor.pid(), proxy.pid());
    let (mut direct, mut through) = (Vec::<Figures>::new(), Vec::<Figures>::new());
    let mut upstream_us = Vec::new();
    let (mut direct_busy, mut through_busy) = (Vec::new(), Vec::new());
    let (mut direct_empty, mut through_empty) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        let (b, run) = busy(|| {
            timed_load(&floor_base, n, concurrency, &credentials, generator, || {
                cpu_ns(floor_pid, None)
            })
        });
        direct_busy.push(b);
        direct_empty.push(common::spin_idle());
        direct.push(report(&format!("direct to the floor, {round}"), run));
        let floor_before = cpu_ns(floor_pid, None);
        let (b, run) = busy(|| {
            timed_load(&proxy_base, n, concurrency, &credentials, generator, || {
                cpu_ns(proxy_pid, None)
            })
        });
        if let (Some(a), Some(z)) = (floor_before, cpu_ns(floor_pid, None)) {
            upstream_us.push(z.saturating_sub(a) as f64 / 1e3 / n as f64);
        }
        through_busy.push(b);
        through_empty.push(common::spin_idle());
        through.push(report(&format!("through oauth1 proxy, {round}"), run));
    }
    let med = |v: &[Figures], f: fn(&Figures) -> f64| median(v.iter().map(f).collect());
    let (d_rate, p_rate) = (med(&direct, |f| f.rate), med(&through, |f| f.rate));
    let (d_p50, p_p50) = (med(&direct, |f| f.p50_ms), med(&through, |f| f.p50_ms));
    let (d_p99, p_p99) = (med(&direct, |f| f.p99_ms), med(&through, |f| f.p99_ms));
    let nan = |f: &Figures| f.cpu_us.unwrap_or(f64::NAN);
    let (d_cpu, p_cpu) = (med(&direct, nan), med(&through, nan));
    println!(
        "medians of the rounds: direct {d_rate:.0} req/s, p50 {d_p50:.2} ms, p99 {d_p99:.2} ms, \
         the floor's CPU {d_cpu:.1} µs a request"
    );
    println!(
        "through the proxy {p_rate:.0} req/s, p50 {p_p50:.2} ms, p99 {p_p99:.2} ms, \
         the proxy's CPU {p_cpu:.1} µs a request (the floor behind it {:.1} µs)",
        median(upstream_us.clone())
    );
    println!(
        "proxy / direct {:.2} in requests/s; added latency (p50 through − p50 direct) {:.3} ms, \
         p99 {:+.3} ms",
        p_rate / d_rate,
        p_p50 - d_p50,
        p_p99 - d_p99,
    );
    if generator == Generator::Spin {
        // It spins: its CPU is a core whatever the servers do.
        println!(
            "the spinning load generator's reads that found nothing, median of the rounds: \
             {:.2} direct, {:.2} through the proxy (near 0: it was the limit)",
            median(direct_empty),
            median(through_empty),
        );
    } else {
        // Near 1.0 (one core): the load generator was the limit, not the server.
        println!(
            "the load generator's CPU, median of the rounds: {:.2} of a core direct, {:.2} \
             through the proxy (near 1.0: it was the limit)",
            median(direct_busy),
            median(through_busy),
        );
    }
    // What one core could serve if the servers were the only limit: 1 s of
    // CPU over the CPU a request (through the proxy: the proxy's and the
    // floor's behind it, which share the core). Derived, not measured.
    let behind = median(upstream_us.clone());
    println!(
        "one core's capacity (10^6 / server CPU µs a request): direct {:.0} req/s, through the \
         proxy {:.0} req/s ({:.2}×)",
        1e6 / d_cpu,
        1e6 / (p_cpu + behind),
        d_cpu / (p_cpu + behind),
    );
    println!("after the run: {}", common::machine());
}
