//! What the eviction check costs a Redis nonce store. Each check pipelines
//! `CONFIG GET maxmemory-policy` after its `SET ... NX GET PX`, in the same
//! round trip; measured against the `SET` alone
//! (`with_eviction_check(false)`, which sends exactly what every check sent
//! before the policy was read with each).
//!
//! A benchmark, not a test: it prints figures. Two stores on one
//! `redis-server` (started on 127.0.0.1 as the tests start theirs; `bash
//! .ci/redis.sh` installs it) take turns, round after round, so that what
//! else runs on the machine weighs on both alike: checks one at a time (the
//! round trip a request waits), and `CONCURRENCY` at once on the store's one
//! connection (what Redis and the client do per check). Then Redis's own
//! time per command (`INFO commandstats`). Run it with
//!
//! ```sh
//! cargo bench --features redis --bench redis_store [-- ROUNDS CHECKS]
//! ```

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../tests/redis_server/mod.rs"]
mod redis_server;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use oauth1_signer::verify::{Freshness, NonceKey, NonceStore, RedisNonceStore, RedisOptions};

/// Short-lived keys: a long run does not fill Redis.
const KEEP: Duration = Duration::from_secs(2);

/// Checks in flight at once in the concurrent rounds (`oauth1 serve`'s
/// benchmark sends 32 requests at a time).
const CONCURRENCY: u64 = 32;

static NEXT: AtomicU64 = AtomicU64::new(0);

/// A nonce never used before in this run.
fn fresh() -> NonceKey {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    NonceKey::new("bench", "token", 1_318_622_958, &n.to_string())
}

/// `checks` checks, one at a time: microseconds per check.
async fn one_at_a_time(store: &RedisNonceStore, checks: u64) -> f64 {
    let start = Instant::now();
    for _ in 0..checks {
        assert_eq!(
            store.remember(&fresh(), KEEP).await.unwrap(),
            Freshness::Fresh
        );
    }
    start.elapsed().as_secs_f64() * 1e6 / checks as f64
}

/// `checks` checks, `CONCURRENCY` at once: checks per second.
async fn at_once(store: &Arc<RedisNonceStore>, checks: u64) -> f64 {
    let start = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for lane in 0..CONCURRENCY {
        let store = store.clone();
        let n = checks / CONCURRENCY + u64::from(lane < checks % CONCURRENCY);
        tasks.spawn(async move {
            for _ in 0..n {
                assert_eq!(
                    store.remember(&fresh(), KEEP).await.unwrap(),
                    Freshness::Fresh
                );
            }
        });
    }
    tasks.join_all().await;
    checks as f64 / start.elapsed().as_secs_f64()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// `usec_per_call` of `command` in `INFO commandstats`.
fn usec_per_call(stats: &str, command: &str) -> Option<f64> {
    let line = stats
        .lines()
        .find(|l| l.starts_with(&format!("cmdstat_{command}:")))?;
    line.split(',')
        .find_map(|field| field.strip_prefix("usec_per_call="))?
        .parse()
        .ok()
}

fn main() {
    // `cargo bench` passes `--bench`; the numbers, if given, come after `--`.
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let rounds = args.first().copied().unwrap_or(9);
    let checks = args.get(1).copied().unwrap_or(20_000);
    let server = redis_server::RedisServer::start();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let variants: Vec<(&str, Arc<RedisNonceStore>)> = [("SET", false), ("SET + CONFIG GET", true)]
        .into_iter()
        .map(|(name, check)| {
            let options = RedisOptions::default().with_eviction_check(check);
            let store = rt
                .block_on(RedisNonceStore::connect(&server.url(), options))
                .unwrap();
            (name, Arc::new(store))
        })
        .collect();
    println!(
        "{rounds} rounds of {checks} checks per store, in turn: one at a time, then {CONCURRENCY} at once"
    );
    let mut latency = vec![Vec::new(); variants.len()];
    let mut throughput = vec![Vec::new(); variants.len()];
    // A warm-up round, not counted.
    for round in 0..=rounds {
        for (i, (_, store)) in variants.iter().enumerate() {
            let us = rt.block_on(one_at_a_time(store, checks / 4));
            let per_s = rt.block_on(at_once(store, checks));
            if round > 0 {
                latency[i].push(us);
                throughput[i].push(per_s);
            }
        }
    }
    for (i, (name, _)) in variants.iter().enumerate() {
        println!(
            "{name:<18} one at a time: median {:>6.1} µs a check   {CONCURRENCY} at once: median {:>7.0} checks/s",
            median(latency[i].clone()),
            median(throughput[i].clone()),
        );
    }
    let stats = server.command(&["INFO", "commandstats"]);
    for command in ["set", "config|get"] {
        if let Some(us) = usec_per_call(&stats, command) {
            println!("redis-server's own time for {command:<10} {us:>5.2} µs a call");
        }
    }
}
