//! Whether the memory nonce store makes requests on several cores wait for
//! one another (issue 40 item 1): the store as it is (its nonces in 64
//! parts, each behind its own lock) against the same store behind one
//! `Mutex` (every check waiting for every other, as the store was before it
//! was split), on one thread and on one per core.
//!
//! Then what a check costs a store in its steady state, as a busy server's
//! is: holding N nonces (10,000, 100,000 and 1,000,000: a window of five
//! minutes at 33, 333 and 3,333 requests a second), each check adding one
//! and dropping about one that expired (the store's clock moved on by
//! `KEEP / N` a check). Set against the store as it was before its keys
//! were kept in buckets by second (`Heaps` below: in each part a
//! `HashSet` and a `BinaryHeap` of expiry times), whose pop walks the
//! heap's height, out of cache in a large one.
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

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier, Mutex};
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

/// The store as it was until its keys were kept in buckets by second, for
/// the steady rounds: in 64 parts as it is, each part's keys in a set and
/// again with their expiry in a heap that pops the earliest, one count of
/// places for all, and its answer boxed as the trait's. (It never fills
/// here, so its path for a full store is left out.)
struct Heaps {
    clock: Box<dyn Fn() -> Instant + Send + Sync>,
    held: std::sync::atomic::AtomicUsize,
    capacity: usize,
    parts: Vec<Mutex<Heap>>,
}

#[derive(Default)]
struct Heap {
    keys: HashSet<[u8; 32]>,
    queue: BinaryHeap<Reverse<(Instant, [u8; 32])>>,
}

impl NonceStore for Heaps {
    fn remember<'a>(
        &'a self,
        key: &'a NonceKey,
        keep_for: Duration,
    ) -> oauth1_signer::verify::StoreFuture<'a> {
        let now = (self.clock)();
        let bytes = *key.as_bytes();
        let mut part = self.parts[usize::from(bytes[0]) % 64].lock().unwrap();
        let mut dropped = 0;
        while let Some(Reverse((at, _))) = part.queue.peek() {
            if *at > now {
                break;
            }
            if let Some(Reverse((_, bytes))) = part.queue.pop() {
                dropped += usize::from(part.keys.remove(&bytes));
            }
        }
        self.held.fetch_sub(dropped, Ordering::Relaxed);
        let answer = if part.keys.contains(&bytes) {
            Freshness::Replayed
        } else {
            let capacity = self.capacity;
            assert!(self
                .held
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
                    (held < capacity).then_some(held + 1)
                })
                .is_ok());
            part.keys.insert(bytes);
            part.queue.push(Reverse((now + keep_for, bytes)));
            Freshness::Fresh
        };
        Box::pin(std::future::ready(Ok(answer)))
    }
}

/// Nanoseconds a check in a steady store of `held` nonces (this crate's,
/// or `heaps` for the one it replaced), the store filled first; the clock
/// moves `KEEP / held` a check.
fn steady(held: usize, keys: &[NonceKey], heaps: bool) -> f64 {
    let step = u64::try_from(KEEP.as_nanos()).unwrap() / held as u64;
    let start = Instant::now();
    let ticks = Arc::new(AtomicU64::new(0));
    let clock = move || start + Duration::from_nanos(ticks.fetch_add(step, Ordering::Relaxed));
    let store: Box<dyn NonceStore> = if heaps {
        Box::new(Heaps {
            clock: Box::new(clock),
            held: Default::default(),
            capacity: 2 * held,
            parts: (0..64).map(|_| Mutex::default()).collect(),
        })
    } else {
        Box::new(MemoryNonceStore::with_clock(2 * held, clock))
    };
    let check = |key: &NonceKey| {
        let mut f = std::pin::pin!(store.remember(key, KEEP));
        match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(answer) => assert_eq!(answer.unwrap(), Freshness::Fresh),
            Poll::Pending => panic!("a memory store answered Pending"),
        }
    };
    let (fill, measured) = keys.split_at(held);
    fill.iter().for_each(check);
    let clock_start = Instant::now();
    measured.iter().for_each(check);
    clock_start.elapsed().as_nanos() as f64 / measured.len() as f64
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
    let measured = 500_000;
    println!(
        "a steady store, one thread: {measured} checks after filling it, each adding one nonce and dropping about one"
    );
    for held in [10_000, 100_000, 1_000_000] {
        let keys: Vec<NonceKey> = (0..held + measured)
            .map(|n| NonceKey::new("bench", "token", 1_318_622_958, &format!("steady-{n}")))
            .collect();
        let (mut buckets, mut heaps) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            buckets.push(steady(held, &keys, false));
            heaps.push(steady(held, &keys, true));
        }
        let (buckets, heaps) = (median(buckets), median(heaps));
        println!(
            "{held:>9} held: in buckets {buckets:.0} ns a check, in heaps {heaps:.0} ns: heaps ÷ buckets {:.2}",
            heaps / buckets
        );
    }
}
