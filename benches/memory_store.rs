//! Whether the memory nonce store makes requests on several cores wait for
//! one another (issue 40 item 1): the store as it is (its nonces in 64
//! parts, each behind its own lock) against the same store behind one
//! `Mutex` (every check waiting for every other, as the store was before it
//! was split), on one thread and on one per core.
//!
//! A benchmark, not a test: it prints figures. Each thread checks its own
//! fresh keys (made before the clock starts: the key's SHA-256 is the
//! verifier's cost, not the store's) as fast as it can; the two stores take
//! turns, round after round, a new store each round, so that what else runs
//! on the machine weighs on both alike. Figures are the median of the
//! rounds. Run it with
//!
//! ```sh
//! cargo bench --bench memory_store [-- ROUNDS CHECKS_PER_THREAD]
//! ```

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::future::Future;
use std::sync::{Barrier, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use oauth1_signer::verify::{Freshness, MemoryNonceStore, NonceKey, NonceStore};

const KEEP: Duration = Duration::from_secs(600);

/// The memory store's futures are ready at once: one poll answers.
fn remember(store: &MemoryNonceStore, key: &NonceKey) -> Freshness {
    let mut f = std::pin::pin!(store.remember(key, KEEP));
    match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(answer) => answer.unwrap(),
        Poll::Pending => panic!("the memory store answered Pending"),
    }
}

/// A store as it is, or behind one lock.
enum Store {
    Parts(MemoryNonceStore),
    OneLock(Mutex<MemoryNonceStore>),
}

impl Store {
    fn check(&self, key: &NonceKey) -> Freshness {
        match self {
            Store::Parts(store) => remember(store, key),
            Store::OneLock(store) => remember(&store.lock().unwrap(), key),
        }
    }
}

/// Millions of checks a second, `keys.len()` threads each checking its keys.
fn run(store: &Store, keys: &[Vec<NonceKey>]) -> f64 {
    let barrier = Barrier::new(keys.len() + 1);
    let checks: usize = keys.iter().map(Vec::len).sum();
    std::thread::scope(|s| {
        for mine in keys {
            let barrier = &barrier;
            s.spawn(move || {
                barrier.wait();
                for key in mine {
                    assert_eq!(store.check(key), Freshness::Fresh);
                }
                barrier.wait();
            });
        }
        barrier.wait();
        let start = Instant::now();
        barrier.wait();
        checks as f64 / start.elapsed().as_secs_f64() / 1e6
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let rounds: usize = args.next().map_or(5, |a| a.parse().unwrap());
    let each: usize = args.next().map_or(200_000, |a| a.parse().unwrap());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "memory nonce store: {rounds} rounds, {each} fresh keys a thread, {cores} cores (median of the rounds)"
    );
    let mut threads = vec![1];
    if cores > 1 {
        threads.push(cores);
    }
    for &t in &threads {
        let keys: Vec<Vec<NonceKey>> = (0..t)
            .map(|thread| {
                (0..each)
                    .map(|n| {
                        NonceKey::new("bench", "token", 1_318_622_958, &format!("{thread}-{n}"))
                    })
                    .collect()
            })
            .collect();
        let (mut parts, mut one_lock) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            let capacity = t * each;
            parts.push(run(
                &Store::Parts(MemoryNonceStore::with_capacity(capacity)),
                &keys,
            ));
            one_lock.push(run(
                &Store::OneLock(Mutex::new(MemoryNonceStore::with_capacity(capacity))),
                &keys,
            ));
        }
        let (parts, one_lock) = (median(parts), median(one_lock));
        println!(
            "{t} thread(s): in parts {parts:.2} M checks/s, behind one lock {one_lock:.2} M checks/s: {:.2}×",
            parts / one_lock
        );
    }
}
