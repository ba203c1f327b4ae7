//! A nonce store in this process's memory ([RFC 5849 §3.3]), for one
//! verifier or several in one process.
//!
//! Its memory is bounded by a capacity fixed at construction: it holds at
//! most that many unexpired nonces. When it is full of nonces that have not
//! expired yet it **fails closed**: [`remember`](NonceStore::remember)
//! answers a [`StoreError`] saying the store is full, and the verifier
//! rejects the request rather than accept it unchecked. Expired nonces are
//! dropped before a new one is counted, so a store sized for the traffic of
//! one acceptance window never fills.
//!
//! [RFC 5849 §3.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.3

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::nonce::{Freshness, NonceKey, NonceStore, StoreFuture};
use super::unavailable::StoreError;

/// The clock a [`MemoryNonceStore`] reads: [`Instant::now`] unless a test
/// gives its own.
type Clock = Box<dyn Fn() -> Instant + Send + Sync>;

/// How many parts the store's nonces are kept in, each behind its own
/// lock, chosen by a key's first byte (a SHA-256 digest's: uniform), so
/// that requests on many cores seldom wait for one another (issue 40).
const SHARDS: usize = 64;

/// Nonces in memory: at most `capacity` unexpired ones, each kept for the
/// `keep_for` it was remembered with.
///
/// Each entry costs at most about 200 bytes (its 32-byte key in a hash set,
/// and again with its expiry in a queue, with the spare room both keep to
/// grow), so a capacity of one million is about 200 MB at most; memory
/// grows with use up to that bound and no further.
/// Safe to share between threads and tasks (wrap it in an `Arc`): a key's
/// check-and-set is atomic, so of two concurrent calls with one key
/// exactly one answers [`Fresh`](Freshness::Fresh). The nonces are kept in
/// 64 parts, each with its own lock, so that calls with different keys
/// seldom wait for each other; the capacity bounds them all together (one
/// count, never a share per part that a client could fill alone).
///
/// ```
/// use std::time::Duration;
/// use oauth1_signer::verify::{Freshness, MemoryNonceStore, NonceKey, NonceStore};
///
/// # fn block_on<F: std::future::Future>(f: F) -> F::Output {
/// #     let mut f = std::pin::pin!(f);
/// #     match f.as_mut().poll(&mut std::task::Context::from_waker(std::task::Waker::noop())) {
/// #         std::task::Poll::Ready(v) => v,
/// #         std::task::Poll::Pending => unreachable!("the memory store answers at once"),
/// #     }
/// # }
/// let store = MemoryNonceStore::with_capacity(100_000);
/// let key = NonceKey::new("key", "token", 1318622958, "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg");
/// let keep = Duration::from_secs(600);
/// assert_eq!(block_on(store.remember(&key, keep)).unwrap(), Freshness::Fresh);
/// assert_eq!(block_on(store.remember(&key, keep)).unwrap(), Freshness::Replayed);
/// ```
pub struct MemoryNonceStore {
    capacity: usize,
    clock: Clock,
    /// The entries held in every part together, expired ones not yet
    /// dropped included: never more than `capacity`, since a place is
    /// taken here (under the part's lock) before an entry is added.
    held: AtomicUsize,
    shards: Box<[Shard]>,
}

/// One part of the store, on cache lines of its own (128 bytes: two of
/// x86-64's, which its prefetcher fetches in pairs), so that two cores
/// locking neighbouring parts do not take the line from each other.
#[repr(align(128))]
#[derive(Default)]
struct Shard(Mutex<Seen>);

/// The nonces held, and the same keys in expiry order (the earliest first)
/// so that expired ones are dropped without a scan. Each key is in the
/// queue once (it is only added when absent), except one kept for ever,
/// which is in the set alone.
#[derive(Default)]
struct Seen {
    keys: HashSet<[u8; 32]>,
    queue: BinaryHeap<Reverse<(Instant, [u8; 32])>>,
}

impl Seen {
    /// Drops every entry whose expiry is not after `now`, and says how many.
    fn expire(&mut self, now: Instant) -> usize {
        let mut dropped = 0;
        while let Some(Reverse((at, _))) = self.queue.peek() {
            if *at > now {
                break;
            }
            if let Some(Reverse((_, bytes))) = self.queue.pop() {
                dropped += usize::from(self.keys.remove(&bytes));
            }
        }
        dropped
    }
}

impl MemoryNonceStore {
    /// A store holding at most `capacity` unexpired nonces (at least one).
    pub fn with_capacity(capacity: usize) -> MemoryNonceStore {
        MemoryNonceStore::with_clock(capacity, Instant::now)
    }

    /// A store reading the time from `clock` instead of [`Instant::now`]:
    /// for tests that move time forward without waiting.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use std::time::{Duration, Instant};
    /// use oauth1_signer::verify::MemoryNonceStore;
    ///
    /// let now = Arc::new(Mutex::new(Instant::now()));
    /// let clock = now.clone();
    /// let store = MemoryNonceStore::with_clock(10, move || *clock.lock().unwrap());
    /// *now.lock().unwrap() += Duration::from_secs(3600); // an hour later, at once
    /// # drop(store);
    /// ```
    pub fn with_clock(
        capacity: usize,
        clock: impl Fn() -> Instant + Send + Sync + 'static,
    ) -> MemoryNonceStore {
        MemoryNonceStore {
            capacity: capacity.max(1),
            clock: Box::new(clock),
            held: AtomicUsize::new(0),
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
        }
    }

    /// The most unexpired nonces it holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// How many nonces it holds now, expired ones not counted.
    pub fn len(&self) -> usize {
        let now = (self.clock)();
        self.shards
            .iter()
            .filter_map(|shard| self.lock(shard, now).ok())
            .map(|seen| seen.keys.len())
            .sum()
    }

    /// Whether it holds no unexpired nonce.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A part's entries, locked, its expired ones dropped.
    fn lock<'s>(&self, shard: &'s Shard, now: Instant) -> Result<MutexGuard<'s, Seen>, StoreError> {
        // A poisoned lock means a thread panicked mid-update: the entries
        // may be inconsistent, so answer nothing rather than guess.
        let mut seen = shard
            .0
            .lock()
            .map_err(|_| StoreError::new("memory nonce store lock poisoned"))?;
        let dropped = seen.expire(now);
        if dropped > 0 {
            self.held.fetch_sub(dropped, Ordering::Relaxed);
        }
        Ok(seen)
    }

    /// Takes a place for one more entry, if the capacity leaves one.
    fn reserve(&self) -> bool {
        let capacity = self.capacity;
        self.held
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
                (held < capacity).then_some(held + 1)
            })
            .is_ok()
    }

    fn check(&self, key: &NonceKey, keep_for: Duration) -> Result<Freshness, StoreError> {
        let now = (self.clock)();
        // A keep_for too large for the clock is kept for ever (as long as
        // the process lives), which is at least keep_for.
        let until = now.checked_add(keep_for);
        let bytes = *key.as_bytes();
        let shard = &self.shards[usize::from(bytes[0]) % SHARDS];
        let mut seen = self.lock(shard, now)?;
        if seen.keys.contains(&bytes) {
            return Ok(Freshness::Replayed);
        }
        if !self.reserve() {
            // Full, perhaps of entries expired in other parts and not yet
            // dropped: drop them, each part locked alone (never two at
            // once), then look again.
            drop(seen);
            for other in self.shards.iter() {
                drop(self.lock(other, now)?);
            }
            seen = self.lock(shard, now)?;
            if seen.keys.contains(&bytes) {
                return Ok(Freshness::Replayed);
            }
            if !self.reserve() {
                return Err(StoreError::new(format!(
                    "memory nonce store is full: {} unexpired nonces (its capacity)",
                    self.capacity
                )));
            }
        }
        seen.keys.insert(bytes);
        if let Some(until) = until {
            seen.queue.push(Reverse((until, bytes)));
        }
        Ok(Freshness::Fresh)
    }
}

impl NonceStore for MemoryNonceStore {
    fn remember<'a>(&'a self, key: &'a NonceKey, keep_for: Duration) -> StoreFuture<'a> {
        let answer = self.check(key, keep_for);
        Box::pin(std::future::ready(answer))
    }
}

impl fmt::Debug for MemoryNonceStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryNonceStore")
            .field("capacity", &self.capacity)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;
    use std::sync::{Arc, Barrier};
    use std::task::{Context, Poll, Waker};

    /// The memory store's futures are ready at once: one poll answers.
    fn answer(
        f: impl Future<Output = Result<Freshness, StoreError>>,
    ) -> Result<Freshness, StoreError> {
        let mut f = std::pin::pin!(f);
        match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(v) => v,
            Poll::Pending => panic!("the memory store answered Pending"),
        }
    }

    /// A clock the test moves by hand.
    fn manual_clock() -> (
        Arc<Mutex<Instant>>,
        impl Fn() -> Instant + Send + Sync + 'static,
    ) {
        let now = Arc::new(Mutex::new(Instant::now()));
        let read = now.clone();
        (now, move || *read.lock().unwrap())
    }

    #[test]
    fn the_store_says_its_capacity_and_whether_it_holds_anything() {
        let store = MemoryNonceStore::with_capacity(3);
        assert_eq!(store.capacity(), 3);
        assert!(store.is_empty());
        answer(store.remember(&key(1), Duration::from_secs(60))).unwrap();
        assert!(!store.is_empty());
        assert_eq!(store.len(), 1);
    }

    fn key(n: u64) -> NonceKey {
        NonceKey::new("consumer", "token", 1_318_622_958, &format!("nonce{n}"))
    }

    const MIN: Duration = Duration::from_secs(60);

    #[test]
    fn a_nonce_is_fresh_once_then_replayed() {
        let store = MemoryNonceStore::with_capacity(10);
        assert_eq!(
            answer(store.remember(&key(1), MIN)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(
            answer(store.remember(&key(1), MIN)).unwrap(),
            Freshness::Replayed
        );
        assert_eq!(
            answer(store.remember(&key(2), MIN)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(store.len(), 2);
    }

    #[test]
    fn an_entry_expires_after_keep_for_and_not_before() {
        let (now, clock) = manual_clock();
        let store = MemoryNonceStore::with_clock(10, clock);
        assert_eq!(
            answer(store.remember(&key(1), MIN)).unwrap(),
            Freshness::Fresh
        );
        *now.lock().unwrap() += MIN - Duration::from_millis(1);
        assert_eq!(
            answer(store.remember(&key(1), MIN)).unwrap(),
            Freshness::Replayed
        );
        *now.lock().unwrap() += Duration::from_millis(1);
        // Kept for exactly keep_for: now it may be used again.
        assert_eq!(
            answer(store.remember(&key(1), MIN)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn each_entry_keeps_its_own_keep_for() {
        let (now, clock) = manual_clock();
        let store = MemoryNonceStore::with_clock(10, clock);
        answer(store.remember(&key(1), 10 * MIN)).unwrap();
        answer(store.remember(&key(2), MIN)).unwrap();
        *now.lock().unwrap() += 2 * MIN;
        assert_eq!(
            answer(store.remember(&key(2), MIN)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(
            answer(store.remember(&key(1), MIN)).unwrap(),
            Freshness::Replayed
        );
    }

    #[test]
    fn full_of_unexpired_nonces_it_fails_closed() {
        let (now, clock) = manual_clock();
        let store = MemoryNonceStore::with_clock(3, clock);
        for n in 0..3 {
            assert_eq!(
                answer(store.remember(&key(n), MIN)).unwrap(),
                Freshness::Fresh
            );
        }
        let err = answer(store.remember(&key(3), MIN)).unwrap_err();
        assert!(err.reason().contains("full"), "{err}");
        assert!(
            err.to_string().starts_with("nonce store unavailable: "),
            "{err}"
        );
        // A replay is still recognised when full: it needs no room.
        assert_eq!(
            answer(store.remember(&key(0), MIN)).unwrap(),
            Freshness::Replayed
        );
        // Once the entries expire there is room again.
        *now.lock().unwrap() += MIN;
        assert_eq!(
            answer(store.remember(&key(3), MIN)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn memory_stays_bounded_under_a_stream_of_nonces() {
        let (now, clock) = manual_clock();
        let store = MemoryNonceStore::with_clock(100, clock);
        for n in 0..10_000 {
            // 50 per second kept for one second: never more than 100 held.
            if n % 50 == 0 {
                *now.lock().unwrap() += Duration::from_secs(1);
            }
            assert_eq!(
                answer(store.remember(&key(n), Duration::from_secs(1))).unwrap(),
                Freshness::Fresh
            );
            let (keys, queued) = store.shards.iter().fold((0, 0), |(k, q), shard| {
                let seen = shard.0.lock().unwrap();
                (k + seen.keys.len(), q + seen.queue.len())
            });
            assert!(keys <= 100 && queued <= 100, "{keys} keys, {queued} queued");
            assert!(store.held.load(Ordering::Relaxed) <= 100);
        }
    }

    #[test]
    fn concurrent_calls_with_one_key_answer_fresh_exactly_once() {
        const THREADS: usize = 16;
        let store = MemoryNonceStore::with_capacity(1000);
        for round in 0..20 {
            let barrier = Barrier::new(THREADS);
            let answers: Vec<Freshness> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..THREADS)
                    .map(|_| {
                        s.spawn(|| {
                            barrier.wait();
                            answer(store.remember(&key(round), MIN)).unwrap()
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            });
            let fresh = answers.iter().filter(|a| **a == Freshness::Fresh).count();
            assert_eq!(fresh, 1, "round {round}: {answers:?}");
        }
    }

    /// The part a key is kept in.
    fn shard_of(key: &NonceKey) -> usize {
        usize::from(key.as_bytes()[0]) % SHARDS
    }

    #[test]
    fn entries_expired_in_other_parts_make_room() {
        // Three keys in three different parts.
        let mut keys: Vec<NonceKey> = Vec::new();
        for n in 0.. {
            let k = key(n);
            if keys.iter().all(|held| shard_of(held) != shard_of(&k)) {
                keys.push(k);
            }
            if keys.len() == 3 {
                break;
            }
        }
        let (now, clock) = manual_clock();
        let store = MemoryNonceStore::with_clock(2, clock);
        assert_eq!(
            answer(store.remember(&keys[0], MIN)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(
            answer(store.remember(&keys[1], MIN)).unwrap(),
            Freshness::Fresh
        );
        let err = answer(store.remember(&keys[2], MIN)).unwrap_err();
        assert!(err.reason().contains("full"), "{err}");
        // The two held expire; neither is in the third key's part, and no
        // call has looked at their parts since: the full store drops them.
        *now.lock().unwrap() += MIN;
        assert_eq!(
            answer(store.remember(&keys[2], MIN)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn the_capacity_bounds_every_part_together_under_concurrent_calls() {
        const THREADS: u64 = 8;
        const EACH: u64 = 50;
        let store = MemoryNonceStore::with_capacity(100);
        let barrier = Barrier::new(THREADS as usize);
        let answers: Vec<Result<Freshness, StoreError>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..THREADS)
                .map(|t| {
                    let (store, barrier) = (&store, &barrier);
                    s.spawn(move || {
                        barrier.wait();
                        (0..EACH)
                            .map(|n| answer(store.remember(&key(t * EACH + n), MIN)))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap())
                .collect()
        });
        let fresh = answers
            .iter()
            .filter(|a| matches!(a, Ok(Freshness::Fresh)))
            .count();
        let full = answers
            .iter()
            .filter(|a| a.as_ref().is_err_and(|e| e.reason().contains("full")))
            .count();
        assert_eq!((fresh, full), (100, 300));
        assert_eq!(store.len(), 100);
    }

    #[test]
    fn a_keep_for_past_the_clocks_range_is_kept() {
        let store = MemoryNonceStore::with_capacity(2);
        assert_eq!(
            answer(store.remember(&key(1), Duration::MAX)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(
            answer(store.remember(&key(1), MIN)).unwrap(),
            Freshness::Replayed
        );
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn debug_shows_the_capacity_only() {
        let store = MemoryNonceStore::with_capacity(7);
        answer(store.remember(&key(1), MIN)).unwrap();
        assert_eq!(format!("{store:?}"), "MemoryNonceStore { capacity: 7, .. }");
    }
}
