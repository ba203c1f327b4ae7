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
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::nonce::{Freshness, NonceKey, NonceStore, StoreFuture};
use super::unavailable::StoreError;

/// The clock a [`MemoryNonceStore`] reads: [`Instant::now`] unless a test
/// gives its own.
type Clock = Box<dyn Fn() -> Instant + Send + Sync>;

/// Nonces in memory: at most `capacity` unexpired ones, each kept for the
/// `keep_for` it was remembered with.
///
/// Each entry costs at most about 200 bytes (its 32-byte key in a hash set,
/// and again with its expiry in a queue, with the spare room both keep to
/// grow), so a capacity of one million is about 200 MB at most; memory
/// grows with use up to that bound and no further.
/// Safe to share between threads and tasks (wrap it in an `Arc`): one lock
/// makes each check-and-set atomic, so of two concurrent calls with one key
/// exactly one answers [`Fresh`](Freshness::Fresh).
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
    seen: Mutex<Seen>,
}

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
    /// Drops every entry whose expiry is not after `now`.
    fn expire(&mut self, now: Instant) {
        while let Some(Reverse((at, _))) = self.queue.peek() {
            if *at > now {
                break;
            }
            if let Some(Reverse((_, bytes))) = self.queue.pop() {
                self.keys.remove(&bytes);
            }
        }
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
            seen: Mutex::new(Seen::default()),
        }
    }

    /// The most unexpired nonces it holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// How many nonces it holds now, expired ones not counted.
    pub fn len(&self) -> usize {
        let now = (self.clock)();
        match self.seen.lock() {
            Ok(mut seen) => {
                seen.expire(now);
                seen.keys.len()
            }
            Err(_) => 0,
        }
    }

    /// Whether it holds no unexpired nonce.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn check(&self, key: &NonceKey, keep_for: Duration) -> Result<Freshness, StoreError> {
        let now = (self.clock)();
        // A keep_for too large for the clock is kept for ever (as long as
        // the process lives), which is at least keep_for.
        let until = now.checked_add(keep_for);
        // A poisoned lock means a thread panicked mid-update: the entries
        // may be inconsistent, so answer nothing rather than guess.
        let mut seen = self
            .seen
            .lock()
            .map_err(|_| StoreError::new("memory nonce store lock poisoned"))?;
        seen.expire(now);
        let full = seen.keys.len() >= self.capacity;
        let bytes = *key.as_bytes();
        if seen.keys.contains(&bytes) {
            return Ok(Freshness::Replayed);
        }
        if full {
            return Err(StoreError::new(format!(
                "memory nonce store is full: {} unexpired nonces (its capacity)",
                self.capacity
            )));
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
            let seen = store.seen.lock().unwrap();
            assert!(seen.keys.len() <= 100 && seen.queue.len() <= 100);
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
