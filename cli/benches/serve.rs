//! `oauth1 serve` under load, beside the oauthlib provider (`tests/provider/`),
//! driven by one load generator: throughput and latency percentiles.
//!
//! A benchmark, not a test: it measures and prints, and asserts only that
//! every request got the answer it should (all are validly signed, each with
//! a fresh nonce). Run it with
//!
//! ```sh
//! cargo bench -p oauth1-cli --bench serve [-- REQUESTS CONCURRENCY]
//! ```
//!
//! Targets, each on 127.0.0.1: `oauth1 serve` with the memory store, with a
//! Redis store (a `redis-server` started as the tests start theirs), and the
//! oauthlib provider. Every request is signed before the clock starts,
//! so the figures are the server's, not the signer's.

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

fn report(name: &str, (times, wall): (Vec<Duration>, Duration)) {
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{name:<28} {:>8.0} req/s   p50 {:>6.2} ms   p90 {:>6.2} ms   p99 {:>6.2} ms   max {:>7.2} ms",
        times.len() as f64 / wall.as_secs_f64(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(at(1.0)),
    );
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
    println!("{n} GET requests, {concurrency} at a time, each signed with a fresh nonce");
    let measured = |name: &str, serve: &Killed, base: &str| {
        load(base, 200, concurrency); // warm-up
        let before = rss_kib(serve);
        report(name, load(base, n, concurrency));
        // Twice as many again: what is kept per request shows as growth.
        load(base, 2 * n, concurrency);
        if let (Some(a), Some(b)) = (before, rss_kib(serve)) {
            println!(
                "{:<28} resident memory {a} KiB after warm-up, {b} KiB after {} more requests",
                "",
                3 * n
            );
        }
    };
    {
        let (serve, base) = serve("memory");
        measured("oauth1 serve, memory", &serve, &base);
    }
    {
        let redis = redis_server::RedisServer::start();
        let (serve, base) = serve(&redis.url());
        measured("oauth1 serve, Redis", &serve, &base);
    }
    let p = provider::Provider::start(&[]);
    load(&p.base, 200, concurrency);
    report("oauthlib provider", load(&p.base, n, concurrency));
}
