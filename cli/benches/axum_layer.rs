//! The library's verifying layer inside a real axum 0.8 service (issue 40
//! item 1): one route behind `VerifyLayer` (memory nonce store; Redis on
//! loopback) against the same route without it, taking turns round after
//! round; requests/s, p50/p99, and each server's CPU time a request read
//! from `/proc/PID/task/*/schedstat`, hence the layer's added CPU a request.
//!
//! Each service is this bench started again as a process of its own
//! (`--server bare|memory|redis REDIS_URL`): `axum::serve` on a tokio
//! multi-thread runtime of the default size (one worker a core it may run
//! on), the route answering 200 `ok`. With two cores or more, the services
//! and the `redis-server` run on CPU 0 and the load generator on CPU 1
//! (`taskset`): one core's figures. The load generator is `serve.rs`'s
//! (reqwest), or with `--raw` a lighter one (`common::Generator::Raw`),
//! for a one-core load generator not to be the limit.
//!
//! ```sh
//! cargo bench -p oauth1-cli --bench axum_layer [-- REQUESTS CONCURRENCY ROUNDS [--raw|--spin] [--shared-cores]]
//! ```
//!
//! `--spin`: a load generator that never sleeps (`common::Generator::Spin`).
//! `--steady`: the memory store as a busy server's is after its first
//! window, not new: filled with a million nonces before the rounds, which
//! expire one after another over the next minute (17,000 a second), so
//! that its checks look up keys in a large store and drop expired ones as
//! they go (the service `--server steady`).
//! `--shared-cores`: nothing pinned, the services and the load generator on
//! every core (`common::shared_cores`). `--server KIND URL PORT` starts one
//! service on a given port, as `cli/benches/many_core.sh` does.

// A harness: a panic is how it says a request got the wrong answer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;
use std::sync::Arc;

use axum::routing::get;
use axum::Router;
use oauth1_signer::verify::{
    MemoryNonceStore, NonceKey, NonceStore, RedisNonceStore, RedisOptions, StaticSecrets, Verifier,
    VerifyLayer,
};
use oauth1_signer::Credentials;

mod common;
#[path = "../../tests/redis_server/mod.rs"]
mod redis_server;

use common::{
    busy, cpu_ns, listening, median, pin_self, report, timed_load, Figures, Generator, Killed,
};

// The credentials `../shared/bench/gen.py` signs with, so that the many-core
// runs (`cli/benches/many_core.sh`) can start these services too.
const CONSUMER_KEY: &str = "ck-bench";
const CONSUMER_SECRET: &str = "cs-bench";
const TOKEN: &str = "tk-bench";
const TOKEN_SECRET: &str = "ts-bench";

fn credentials() -> Credentials {
    Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET)
}

/// The route, the same in every service.
async fn show() -> &'static str {
    "ok"
}

/// The service's routes: this bench's, and the one `../shared/bench/gen.py`
/// signs for.
fn routes() -> Router {
    Router::new()
        .route("/1.1/statuses/show.json", get(show))
        .route("/1.1/account/verify_credentials.json", get(show))
}

/// The route behind a `VerifyLayer` over `store`, for clients that sign
/// against `base`.
fn verified<N: NonceStore + Send + Sync + 'static>(base: &str, store: N) -> Router {
    let verifier = Verifier::builder(StaticSecrets::new(credentials()), store)
        .public_base_url(base)
        .build()
        .expect("a verifier");
    routes().layer(VerifyLayer::new(Arc::new(verifier)))
}

/// How many nonces `--steady` fills the store with, and over how long
/// they expire.
const STEADY_HELD: u32 = 1_000_000;
const STEADY_OVER: std::time::Duration = std::time::Duration::from_secs(60);

/// The memory store's capacity: 8,000,000 nonces, for the many-core runs'
/// millions of requests; it takes memory only as it fills.
const CAPACITY: usize = 8_000_000;

/// A memory store filled with [`STEADY_HELD`] nonces expiring evenly over
/// [`STEADY_OVER`] (keys no client sends).
async fn steady_store() -> MemoryNonceStore {
    let store = MemoryNonceStore::with_capacity(CAPACITY);
    for n in 0..STEADY_HELD {
        let key = NonceKey::new("steady", "", 1, &n.to_string());
        let keep = STEADY_OVER * (n + 1) / STEADY_HELD;
        store
            .remember(&key, keep)
            .await
            .expect("the store takes it");
    }
    store
}

/// The service process: `--server bare|memory|steady|redis URL [PORT]` (the URL
/// is read for `redis` only; `PORT` on 127.0.0.1, else a free one). Prints
/// `listening on BASE` when ready, then serves until killed. The memory
/// store holds [`CAPACITY`] nonces.
fn server(kind: &str, redis_url: Option<&str>, port: u16) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("the port is free");
        let base = format!("http://{}", listener.local_addr().expect("an address"));
        let app = match kind {
            "bare" => routes(),
            "memory" => verified(&base, MemoryNonceStore::with_capacity(CAPACITY)),
            "steady" => verified(&base, steady_store().await),
            "redis" => {
                let url = redis_url.expect("--server redis URL");
                let store = RedisNonceStore::connect(url, RedisOptions::default())
                    .await
                    .expect("Redis answers");
                verified(&base, store)
            }
            other => panic!("no such server: {other}"),
        };
        println!("listening on {base}");
        axum::serve(listener, app).await.expect("serves");
    });
}

/// This bench started again as the service `kind`.
fn service(kind: &str, redis_url: &str) -> (Killed, String) {
    let mut command = Command::new(std::env::current_exe().expect("the bench's path"));
    command.args(["--server", kind, redis_url]);
    listening(command)
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if argv.get(1).map(String::as_str) == Some("--server") {
        let kind = argv.get(2).expect("--server KIND");
        let port = argv
            .get(4)
            .map_or(0, |p| p.parse().expect("--server KIND URL PORT"));
        return server(kind, argv.get(3).map(String::as_str), port);
    }
    let _ = rustls::crypto::ring::default_provider().install_default();
    // `cargo bench` passes `--bench`; the numbers, if given, come after `--`.
    let args: Vec<usize> = argv.iter().skip(1).filter_map(|a| a.parse().ok()).collect();
    let n = args.first().copied().unwrap_or(5000);
    let concurrency = args.get(1).copied().unwrap_or(32);
    let rounds = args.get(2).copied().unwrap_or(5).max(1);
    let generator = Generator::from_args();
    let credentials = credentials();

    // The services and redis-server inherit CPU 0; then this process moves to CPU 1.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pinned = cores >= 2 && !common::shared_cores() && pin_self("0");
    let redis = redis_server::RedisServer::start();
    let steady = argv.iter().any(|a| a == "--steady");
    let names = [
        "bare route",
        if steady {
            "VerifyLayer, memory (steady)"
        } else {
            "VerifyLayer, memory"
        },
        "VerifyLayer, Redis",
    ];
    let memory = if steady { "steady" } else { "memory" };
    let services: Vec<(Killed, String)> = ["bare", memory, "redis"]
        .iter()
        .map(|kind| service(kind, &redis.url()))
        .collect();
    let pinned = pinned && pin_self("1");
    println!(
        "{n} GET requests, {concurrency} at a time, each signed with a fresh nonce; \
         the bare route, the layer with the memory store and with Redis take turns \
         for {rounds} rounds; load generator {}; {}; {}",
        generator.name(),
        common::placement(
            pinned,
            "services and redis-server on CPU 0, load generator on CPU 1"
        ),
        common::machine(),
    );
    for (_, base) in &services {
        common::load(base, 200, concurrency, &credentials, generator); // warm-up
    }
    let mut figures: Vec<Vec<Figures>> = vec![Vec::new(); services.len()];
    let mut client_busy: Vec<Vec<f64>> = vec![Vec::new(); services.len()];
    let mut spin_idle: Vec<Vec<f64>> = vec![Vec::new(); services.len()];
    for round in 1..=rounds {
        for (i, (process, base)) in services.iter().enumerate() {
            let pid = process.pid();
            let (b, run) = busy(|| {
                timed_load(base, n, concurrency, &credentials, generator, || {
                    cpu_ns(pid, None)
                })
            });
            client_busy[i].push(b);
            spin_idle[i].push(common::spin_idle());
            figures[i].push(report(&format!("{}, {round}", names[i]), run));
        }
    }
    let med = |v: &[Figures], f: fn(&Figures) -> f64| median(v.iter().map(f).collect());
    let rate: Vec<f64> = figures.iter().map(|v| med(v, |f| f.rate)).collect();
    let cpu: Vec<f64> = figures
        .iter()
        .map(|v| med(v, |f| f.cpu_us.unwrap_or(f64::NAN)))
        .collect();
    for (i, v) in figures.iter().enumerate() {
        println!(
            "median {:<22} {:>8.0} req/s   server CPU {:>6.1} µs/req   p50 {:.2} ms   p99 {:.2} ms",
            names[i],
            rate[i],
            cpu[i],
            med(v, |f| f.p50_ms),
            med(v, |f| f.p99_ms),
        );
    }
    for i in 1..services.len() {
        println!(
            "{}: adds {:.1} µs of CPU a request (goal, memory store: ≤ 4); {:.2}× the bare route's \
             requests/s (goal, memory store: ≥ 0.6)",
            names[i],
            cpu[i] - cpu[0],
            rate[i] / rate[0],
        );
    }
    // What one core could serve if the service were the only limit: 1 s
    // of CPU over the CPU a request. Derived, not measured; it is the
    // requests/s ratio to read when the load generator was the limit.
    println!(
        "one core's capacity (10^6 / CPU µs a request): bare {:.0}, memory {:.0}, Redis {:.0} \
         req/s; layer ÷ bare {:.2} (memory), {:.2} (Redis)",
        1e6 / cpu[0],
        1e6 / cpu[1],
        1e6 / cpu[2],
        cpu[0] / cpu[1],
        cpu[0] / cpu[2],
    );
    // Near 1.0 (one core): the load generator was the limit, not the service.
    let busy: Vec<String> = client_busy
        .into_iter()
        .map(|b| format!("{:.2}", median(b)))
        .collect();
    if generator == Generator::Spin {
        let idle: Vec<String> = spin_idle
            .into_iter()
            .map(|b| format!("{:.2}", median(b)))
            .collect();
        println!(
            "the spinning load generator's reads that found nothing, median of the rounds: {} \
             (bare, memory, Redis; near 0: it was the limit; its CPU is a core throughout)",
            idle.join(", ")
        );
    } else {
        println!(
            "the load generator's CPU, median of the rounds: {} of a core (bare, memory, Redis; \
             near 1.0: it was the limit)",
            busy.join(", ")
        );
    }
    println!("after the run: {}", common::machine());
}
