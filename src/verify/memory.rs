//! A nonce store in this process's memory ([RFC 5849 §3.3]), for one
//! verifier or several in one process.
//!
//! Its memory is bounded by a capacity fixed at construction: it holds at
//! most that many unexpired nonces. When it is full of nonces that have not
//! expired yet it **fails closed**: [`remember`](NonceStore::remember)
//! answers a [`StoreError`] saying the store is full, and the verifier
//! rejects the request rather than accept it unchecked. An expired nonce's
//! place is free again by the end of the second its time falls in (a full
//! store drops every such nonce before it refuses), so a store sized for the
//! traffic of one acceptance window and a second never fills.
//!
//! [RFC 5849 §3.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.3

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::hash::{Hash, Hasher};
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
/// Each entry costs at most about 200 bytes (its 32-byte key with its
/// expiry in a hash map, and the key again in the bucket of the second it
/// expires in, with the spare room both keep to grow), so a capacity of
/// one million is about 200 MB at most; memory grows with use up to that
/// bound and no further.
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
    /// Where the buckets' ticks count from: the clock when it was made.
    tick: Tick,
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

/// The nonces held, each with when it may be used again, and the same keys
/// in buckets by that time (each bucket the keys expiring in one
/// second), so that expired keys are dropped a bucket at a time: the
/// buckets are few and small, where a queue ordered key by key (the
/// `BinaryHeap` this replaced) was as large as the part and touched
/// memory out of cache at every level of each pop.
///
/// A key past its time is absent, whether or not its bucket has been
/// dropped yet: the time in `keys` decides, to the nanosecond. Its place
/// (in the store's count) is freed when it is dropped: at the latest once
/// its bucket's second has ended, when a full store drops every such key.
/// A key used again after its time gets a new time, and a new bucket
/// unless the new time falls in the old one's second; the old bucket then
/// finds it with a later time and leaves it (or, if that time has passed
/// too, drops it).
#[derive(Default)]
struct Seen {
    /// Each key held, with the time from which it is fresh again (`None`:
    /// kept for ever, and in no bucket).
    keys: HashMap<Held, Option<Instant>>,
    /// The buckets in order of their number (see [`Tick`]), each with
    /// the keys whose time falls in it: a few hundred for a window of
    /// minutes, a new key's found by a binary search (most go to the last).
    due: VecDeque<(u64, Vec<Held>)>,
    /// Emptied buckets kept to hold the next ones, so that a part of a
    /// steady store allocates no bucket.
    spare: Vec<Vec<Held>>,
}

/// A key as a part holds it: its 32 bytes, compared whole and hashed by
/// eight of them. They are a SHA-256 digest's, so uniform; the map's hasher
/// is keyed at random (std's `RandomState`), so a client cannot aim keys at
/// one place of the map by trying nonces (it would need eight bytes of
/// digest alike, about 2^32 tries for each pair, not a few for each key).
/// Hashing eight bytes, not thirty-two and their length, halves the
/// hasher's work on each of a check's two or three lookups.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Held([u8; 32]);

impl Hash for Held {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Not the first byte's: it chose the part (every key in it shares
        // that byte, modulo the parts).
        let b = &self.0;
        state.write_u64(u64::from_le_bytes([
            b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15],
        ]));
    }
}

/// Where a key stands in its part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// Held now (kept for ever, or until after now): a replay.
    Held,
    /// Past its time, its entry not yet dropped: fresh, in the place it
    /// has.
    Past,
    /// Not held: fresh, if a place is free.
    Free,
}

/// The most keys a check drops: a bucket's keys are dropped a few at a
/// time, by the checks after its second ends, so that no check waits for a
/// busy second's thousands (the work is the same, spread). A key past its
/// time is absent whether or not it has been dropped.
const DROPS: usize = 16;

/// How many emptied buckets a part keeps.
const SPARE: usize = 2;

/// Bucket numbers: bucket `n` holds the times in `(n - 1, n]` seconds
/// after the store's start, so that every time in it has come by
/// the moment bucket `n`'s end does.
#[derive(Clone, Copy)]
struct Tick {
    start: Instant,
}

impl Tick {
    /// The seconds from the start to `at`: whole ones (`ceil` false) or
    /// rounded up (`ceil` true).
    fn of(self, at: Instant, ceil: bool) -> u64 {
        let since = at.saturating_duration_since(self.start);
        let part = u64::from(ceil && since.subsec_nanos() > 0);
        since.as_secs().saturating_add(part)
    }
}

impl Seen {
    /// Where `bytes` stands at `now`.
    fn place(&self, bytes: &Held, now: Instant) -> Place {
        match self.keys.get(bytes) {
            Some(Some(until)) if *until <= now => Place::Past,
            Some(_) => Place::Held,
            None => Place::Free,
        }
    }

    /// Drops keys of the buckets whose end has come by `now`, at most
    /// [`DROPS`] of them (every one with `all`), and says how many.
    fn expire(&mut self, tick: Tick, now: Instant, all: bool) -> usize {
        let ended = tick.of(now, false);
        let mut dropped = 0;
        let mut budget = if all { usize::MAX } else { DROPS };
        while budget > 0
            && let Some((n, bucket)) = self.due.front_mut()
            && *n <= ended
        {
            // The last `budget` keys, in one run.
            let from = bucket.len().saturating_sub(budget);
            budget -= bucket.len() - from;
            for bytes in bucket.drain(from..) {
                dropped += drop_if_past(&mut self.keys, &bytes, now);
            }
            if bucket.is_empty()
                && let Some((_, bucket)) = self.due.pop_front()
            {
                self.keep_spare(bucket);
            }
        }
        dropped
    }

    /// Keeps an emptied bucket for a next one, if there is room.
    fn keep_spare(&mut self, bucket: Vec<Held>) {
        if self.spare.len() < SPARE {
            self.spare.push(bucket);
        }
    }

    /// Holds `bytes` until `until` (`None`: for ever).
    fn hold(&mut self, tick: Tick, bytes: Held, until: Option<Instant>) {
        let before = self.keys.insert(bytes, until);
        let Some(until) = until else { return };
        let n = tick.of(until, true);
        // Used again within its old bucket's second: that bucket, not yet
        // ended, holds it already (so a key's entries in the buckets stay
        // few however often a short keep-for renews it).
        if let Some(Some(before)) = before
            && tick.of(before, true) == n
        {
            return;
        }
        // Most keys go to the last bucket or a new one after it: look
        // there before searching.
        let at = match self.due.back() {
            Some((last, _)) if *last < n => self.due.len(),
            Some((last, _)) if *last == n => self.due.len() - 1,
            _ => self.due.partition_point(|(m, _)| *m < n),
        };
        if self.due.get(at).is_none_or(|(m, _)| *m != n) {
            let bucket = self.spare.pop().unwrap_or_default();
            self.due.insert(at, (n, bucket));
        }
        if let Some((_, bucket)) = self.due.get_mut(at) {
            bucket.push(bytes);
        }
    }

    /// How many keys the buckets hold, for the tests.
    #[cfg(test)]
    fn queued(&self) -> usize {
        self.due.iter().map(|(_, bucket)| bucket.len()).sum()
    }
}

/// Drops `bytes` from `keys` if its time has come by `now` (1 if it did).
fn drop_if_past(keys: &mut HashMap<Held, Option<Instant>>, bytes: &Held, now: Instant) -> usize {
    match keys.entry(*bytes) {
        Entry::Occupied(held) if held.get().is_some_and(|until| until <= now) => {
            held.remove();
            1
        }
        _ => 0,
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
        let start = clock();
        MemoryNonceStore {
            capacity: capacity.max(1),
            clock: Box::new(clock),
            tick: Tick { start },
            held: AtomicUsize::new(0),
            shards: (0..SHARDS).map(|_| Shard::default()).collect(),
        }
    }

    /// The most unexpired nonces it holds.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// How many nonces it holds now, expired ones not counted: a count of
    /// every one (each part locked in turn), for diagnostics and tests,
    /// not for every request.
    pub fn len(&self) -> usize {
        let now = (self.clock)();
        self.shards
            .iter()
            .filter_map(|shard| self.lock(shard, now).ok())
            .map(|seen| {
                let held = |k: &&Held| seen.place(k, now) == Place::Held;
                seen.keys.keys().filter(held).count()
            })
            .sum()
    }

    /// Whether it holds no unexpired nonce.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A part's entries, locked, keys of the buckets that have ended
    /// dropped (at most [`DROPS`]; with `all`, every one).
    fn lock<'s>(&self, shard: &'s Shard, now: Instant) -> Result<MutexGuard<'s, Seen>, StoreError> {
        self.lock_expired(shard, now, false)
    }

    fn lock_expired<'s>(
        &self,
        shard: &'s Shard,
        now: Instant,
        all: bool,
    ) -> Result<MutexGuard<'s, Seen>, StoreError> {
        // A poisoned lock means a thread panicked mid-update: the entries
        // may be inconsistent, so answer nothing rather than guess.
        let mut seen = shard
            .0
            .lock()
            .map_err(|_| StoreError::new("memory nonce store lock poisoned"))?;
        let dropped = seen.expire(self.tick, now, all);
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
        let bytes = Held(*key.as_bytes());
        let shard = &self.shards[usize::from(bytes.0[0]) % SHARDS];
        let mut seen = self.lock(shard, now)?;
        let mut swept = false;
        loop {
            match seen.place(&bytes, now) {
                Place::Held => return Ok(Freshness::Replayed),
                Place::Past => break,
                Place::Free if self.reserve() => break,
                Place::Free if !swept => {
                    // Full, perhaps of entries whose second has ended, in
                    // this part or others, not yet dropped: drop every one,
                    // each part locked alone (never two at once), then look
                    // again, once. (The bucket of the second now in
                    // progress is not scanned: a refused request costs the
                    // 64 locks and what it drops, never a search of that
                    // second's keys.)
                    drop(seen);
                    for other in self.shards.iter() {
                        drop(self.lock_expired(other, now, true)?);
                    }
                    seen = self.lock(shard, now)?;
                    swept = true;
                }
                Place::Free => {
                    return Err(StoreError::new(format!(
                        "memory nonce store is full: {} unexpired nonces (its capacity)",
                        self.capacity
                    )));
                }
            }
        }
        seen.hold(self.tick, bytes, until);
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
    fn a_full_store_frees_a_place_when_its_keys_second_has_ended() {
        // Kept for 1.5 s: past its time from 1.5 s, its place taken until
        // its bucket's second ends at 2 s.
        let (now, clock) = manual_clock();
        let store = MemoryNonceStore::with_clock(1, clock);
        let keep = Duration::from_millis(1500);
        assert_eq!(
            answer(store.remember(&key(1), keep)).unwrap(),
            Freshness::Fresh
        );
        *now.lock().unwrap() += Duration::from_millis(1500);
        assert_eq!(store.len(), 0);
        let err = answer(store.remember(&key(2), keep)).unwrap_err();
        assert!(err.reason().contains("full"), "{err}");
        *now.lock().unwrap() += Duration::from_millis(500);
        assert_eq!(
            answer(store.remember(&key(2), keep)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(store.len(), 1);
        assert_eq!(store.held.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_key_used_again_past_its_time_keeps_its_new_time() {
        let (now, clock) = manual_clock();
        let store = MemoryNonceStore::with_clock(1, clock);
        let keep = Duration::from_millis(1500);
        assert_eq!(
            answer(store.remember(&key(1), keep)).unwrap(),
            Freshness::Fresh
        );
        // Past its time, its bucket not yet ended: fresh in the place it
        // has (the store of one place is not full for it).
        *now.lock().unwrap() += Duration::from_millis(1600);
        assert_eq!(
            answer(store.remember(&key(1), keep)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(store.held.load(Ordering::Relaxed), 1);
        // Its first bucket ends (at 2 s) and leaves it: it is held to 3.1 s.
        *now.lock().unwrap() += Duration::from_millis(1400);
        assert_eq!(
            answer(store.remember(&key(1), keep)).unwrap(),
            Freshness::Replayed
        );
        assert_eq!(store.len(), 1);
        *now.lock().unwrap() += Duration::from_millis(100);
        assert_eq!(
            answer(store.remember(&key(1), keep)).unwrap(),
            Freshness::Fresh
        );
        assert_eq!(store.held.load(Ordering::Relaxed), 1);
    }

    /// The store answers as its rule says, whatever the order of checks,
    /// times and keep-fors: a key is a replay while it is held (for ever,
    /// or until its time); a key takes a place until the second its time
    /// falls in has ended (seconds counted from the store's start), and a
    /// new one is refused only when as many places as the capacity are
    /// taken by others. Checked against a map of every key's time, over
    /// proptest's fixed-seed generator (300 runs of 60 checks, times across
    /// several seconds).
    #[test]
    fn the_store_answers_as_its_rule_of_held_keys_and_places() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
        use std::collections::BTreeMap;

        let config = Config {
            cases: 300,
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner =
            TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
        // (ms to move the clock on, key, ms to keep it; 0 for ever)
        let checks = proptest::collection::vec((0u64..1500, 0u64..10, 0u64..4000), 1..60);
        runner
            .run(&(1usize..6, checks), |(capacity, checks)| {
                let (now, clock) = manual_clock();
                let start = *now.lock().unwrap();
                let store = MemoryNonceStore::with_clock(capacity, clock);
                // Each key with a place, and its time (ms from the start).
                let mut model: BTreeMap<u64, Option<u64>> = BTreeMap::new();
                let mut ms = 0;
                for (step, (advance, k, keep)) in checks.into_iter().enumerate() {
                    ms += advance;
                    *now.lock().unwrap() = start + Duration::from_millis(ms);
                    // A place is free once its time's second has ended.
                    model.retain(|_, until| until.is_none_or(|u| u.div_ceil(1000) > ms / 1000));
                    let held = |until: &Option<u64>| until.is_none_or(|u| u > ms);
                    let keep_for = if keep == 0 {
                        Duration::MAX
                    } else {
                        Duration::from_millis(keep)
                    };
                    let got = answer(store.remember(&key(k), keep_for));
                    // Other keys held now (a floor on the places taken), and
                    // other keys whose second has not ended (a ceiling: a
                    // key past its time may have been dropped already).
                    let others = model.iter().filter(|(other, _)| **other != k);
                    let (floor, ceiling) = (
                        others.clone().filter(|(_, u)| held(u)).count(),
                        others.count(),
                    );
                    let answered = got.as_ref().ok().copied();
                    let full = got.as_ref().is_err_and(|e| e.reason().contains("full"));
                    if model.get(&k).is_some_and(held) {
                        prop_assert_eq!(answered, Some(Freshness::Replayed), "check {}", step);
                    } else if floor >= capacity {
                        prop_assert!(full, "check {}: {:?}", step, got);
                    } else if ceiling < capacity {
                        prop_assert_eq!(answered, Some(Freshness::Fresh), "check {}", step);
                    } else {
                        let fresh = answered == Some(Freshness::Fresh);
                        prop_assert!(fresh || full, "check {}: {:?}", step, got);
                    }
                    if answered == Some(Freshness::Fresh) {
                        model.insert(k, (keep != 0).then_some(ms + keep));
                    }
                    let held_now = model.values().filter(|u| held(u)).count();
                    prop_assert_eq!(store.len(), held_now, "check {}", step);
                    prop_assert!(store.held.load(Ordering::Relaxed) <= capacity);
                }
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn keys_alike_in_the_bytes_hashed_are_still_two_keys() {
        // A part hashes eight bytes of a key; it compares all 32. Two keys
        // alike in those eight (and so in their hash) are two nonces.
        let tick = Tick {
            start: Instant::now(),
        };
        let mut seen = Seen::default();
        let mut other = [7; 32];
        seen.hold(tick, Held(other), None);
        for at in [0, 7, 16, 31] {
            other[at] ^= 1;
            assert_eq!(seen.place(&Held(other), tick.start), Place::Free, "{at}");
            other[at] ^= 1;
        }
        assert_eq!(seen.place(&Held(other), tick.start), Place::Held);
    }

    #[test]
    fn a_check_drops_a_few_keys_of_an_ended_second_not_all() {
        let start = Instant::now();
        let tick = Tick { start };
        let mut seen = Seen::default();
        let until = start + Duration::from_millis(500);
        for n in 0..100u8 {
            seen.hold(tick, Held([n; 32]), Some(until));
        }
        let later = start + Duration::from_secs(2);
        // Every key is past its time at once; a check drops DROPS of them.
        assert_eq!(seen.place(&Held([7; 32]), later), Place::Past);
        assert_eq!(seen.expire(tick, later, false), DROPS);
        assert_eq!(seen.keys.len(), 100 - DROPS);
        let mut checks = 1;
        while !seen.keys.is_empty() {
            assert!(seen.expire(tick, later, false) <= DROPS);
            checks += 1;
        }
        assert_eq!(checks, 100usize.div_ceil(DROPS));
        // The emptied bucket is kept for a next one.
        seen.expire(tick, later, false);
        assert!(seen.due.is_empty());
        assert_eq!(seen.spare.len(), 1);
        // With `all` (a full store, `len`), every one at once.
        for n in 0..100u8 {
            seen.hold(tick, Held([n; 32]), Some(later));
        }
        assert_eq!(seen.expire(tick, start + Duration::from_secs(3), true), 100);
    }

    #[test]
    fn a_key_renewed_within_one_second_is_in_its_bucket_once() {
        let (now, clock) = manual_clock();
        let store = MemoryNonceStore::with_clock(1, clock);
        let keep = Duration::from_millis(1);
        for _ in 0..500 {
            assert_eq!(
                answer(store.remember(&key(1), keep)).unwrap(),
                Freshness::Fresh
            );
            *now.lock().unwrap() += Duration::from_micros(1500);
        }
        let queued: usize = store
            .shards
            .iter()
            .map(|shard| shard.0.lock().unwrap().queued())
            .sum();
        assert!(queued <= 2, "{queued} entries for one key");
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
                (k + seen.keys.len(), q + seen.queued())
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
