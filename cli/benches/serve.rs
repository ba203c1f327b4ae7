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

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use oauth1_signer::{Credentials, OAuthRequest, Signer};

#[path = "../../tests/common/provider.rs"]
#[allow(dead_code)]
mod provider;
#[path = "../../tests/redis_server/mod.rs"]
mod redis_server;

const CONSUMER_KEY: &str = provider::CONSUMER_KEY;
const CONSUMER_SECRET: &str = provider::CONSUMER_SECRET;
const TOKEN: &str = provider::ACCESS_TOKEN;
const TOKEN_SECRET: &str = provider::ACCESS_SECRET;

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `oauth1 serve` on a free port, and its base URL from the line it prints
/// when ready (`listening on http://ADDR`).
fn serve(store: &str) -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .args(["serve", "--listen", "127.0.0.1:0", "--nonce-store", store])
        .args(["--consumer-key", CONSUMER_KEY, "--token", TOKEN])
        .env("OAUTH_CONSUMER_SECRET", CONSUMER_SECRET)
        .env("OAUTH_TOKEN_SECRET", TOKEN_SECRET)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("oauth1 serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped stdout"))
        .read_line(&mut line)
        .expect("oauth1 serve says where it listens");
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("oauth1 serve printed {line:?}"))
        .to_owned();
    (Killed(child), base)
}

/// The name of the floor's threads (see `cpu_ns`).
const FLOOR_THREAD: &str = "floor";

/// The floor: a bare hyper server answering every request 200 with a
/// two-byte body, on the runtime and connection settings of `oauth1 serve`
/// (`cli/src/serve.rs`): a multi-thread runtime of two workers, HTTP/1.1
/// with keep-alive, hyper's timer, the 10-second header read timeout and
/// the 64 KiB header and buffer bounds. No verifying, no logging, no JSON,
/// no write deadline, no connection bound: what serve could reach if
/// answering cost nothing. It runs on threads of its own in this process
/// for as long as the bench runs; its base URL is returned.
fn floor() -> String {
    use hyper::server::conn::http1;
    use hyper_util::rt::{TokioIo, TokioTimer};

    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.set_nonblocking(true).expect("non-blocking");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            // Named, for its CPU time (`cpu_ns`); nothing else differs.
            .thread_name(FLOOR_THREAD)
            .enable_all()
            .build()
            .expect("a runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let service = hyper::service::service_fn(|_request| async {
                    Ok::<_, std::convert::Infallible>(hyper::Response::new(
                        http_body_util::Full::new(hyper::body::Bytes::from_static(b"ok")),
                    ))
                });
                let conn = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(Duration::from_secs(10))
                    .max_header_size(64 * 1024)
                    .max_buf_size(64 * 1024)
                    .serve_connection(TokioIo::new(stream), service);
                tokio::spawn(conn);
            }
        });
    });
    base
}

/// Latencies of `n` requests, `concurrency` at a time, and the wall time.
fn load(base: &str, n: usize, concurrency: usize) -> (Vec<Duration>, Duration) {
    let signer = Signer::new(
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET),
    );
    let urls: Vec<String> = (0..n)
        .map(|i| format!("{base}/1.1/statuses/show.json?id={i}&include_entities=true"))
        .collect();
    let headers: Vec<String> = urls
        .iter()
        .map(|u| {
            signer
                .authorization_header(&OAuthRequest::get(u))
                .expect("signs")
        })
        .collect();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async move {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(concurrency)
            .build()
            .expect("a client");
        let work = Arc::new((urls, headers));
        let next = Arc::new(AtomicUsize::new(0));
        let start = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..concurrency {
            let (client, work, next) = (client.clone(), work.clone(), next.clone());
            tasks.push(tokio::spawn(async move {
                let mut times = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(url) = work.0.get(i) else { break };
                    let t = Instant::now();
                    let r = client
                        .get(url)
                        .header("Authorization", &work.1[i])
                        .send()
                        .await
                        .expect("an answer");
                    let status = r.status();
                    let _ = r.bytes().await;
                    assert_eq!(status.as_u16(), 200, "request {i} to {url}");
                    times.push(t.elapsed());
                }
                times
            }));
        }
        let mut all = Vec::with_capacity(n);
        for t in tasks {
            all.extend(t.await.expect("a worker"));
        }
        let wall = start.elapsed();
        all.sort();
        (all, wall)
    })
}

/// A process's resident memory in KiB (Linux), to see that it stays flat.
fn rss_kib(child: &Killed) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.0.id())).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The CPU time, in nanoseconds, that the threads of process `pid` have
/// run (Linux: `/proc/PID/task/*/schedstat`), only those named `name` if
/// given: what a server spent, whatever else shared the cores meanwhile.
fn cpu_ns(pid: u32, name: Option<&str>) -> Option<u64> {
    let mut total = 0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let dir = task.ok()?.path();
        if let Some(name) = name {
            let comm = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
            if comm.trim() != name {
                continue;
            }
        }
        let stat = std::fs::read_to_string(dir.join("schedstat")).unwrap_or_default();
        total += stat
            .split_whitespace()
            .next()
            .and_then(|ns| ns.parse::<u64>().ok())
            .unwrap_or(0);
    }
    Some(total)
}

/// `load`, and the server's CPU time a request in microseconds (read with
/// `cpu`) while it ran.
fn timed_load(
    base: &str,
    n: usize,
    concurrency: usize,
    cpu: impl Fn() -> Option<u64>,
) -> ((Vec<Duration>, Duration), Option<f64>) {
    let before = cpu();
    let run = load(base, n, concurrency);
    let per_request = match (before, cpu()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a) as f64 / 1e3 / n as f64),
        _ => None,
    };
    (run, per_request)
}

/// Requests a second, and the line printed for one server's run.
fn report(name: &str, ((times, wall), cpu): ((Vec<Duration>, Duration), Option<f64>)) -> f64 {
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let rate = times.len() as f64 / wall.as_secs_f64();
    let cpu = cpu.map_or_else(|| "     -".to_owned(), |us| format!("{us:>6.1}"));
    println!(
        "{name:<28} {rate:>8.0} req/s   server CPU {cpu} µs/req   p50 {:>6.2} ms   p90 {:>6.2} ms   p99 {:>6.2} ms   max {:>7.2} ms",
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(at(1.0)),
    );
    rate
}

/// The median of some figures (NaN for none).
fn median(mut figures: Vec<f64>) -> f64 {
    figures.sort_by(f64::total_cmp);
    figures.get(figures.len() / 2).copied().unwrap_or(f64::NAN)
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
        floor_rates.push(report(&format!("floor (bare hyper), {round}"), run));
        let run = timed_load(&memory_base, n, concurrency, || cpu_ns(child, None));
        memory_cpu.extend(run.1);
        memory_rates.push(report(&format!("oauth1 serve, memory, {round}"), run));
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
    };
    let p = provider::Provider::start(&[]);
    load(&p.base, 200, concurrency);
    let oauthlib = report(
        "oauthlib provider",
        timed_load(&p.base, n, concurrency, || None),
    );
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
