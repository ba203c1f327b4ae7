//! The temporary tokens the request-token leg issued (RFC 5849 §2.1),
//! until each is exchanged or expires: bounded in count and in bytes, and
//! each one expiring `--temporary-token-lifetime` after it was issued.
//!
//! Every token has the same lifetime, so tokens expire in the order they
//! were issued: a queue in that order finds the expired ones at its front,
//! and each new token first reclaims them (each token is reclaimed once,
//! so the work is constant per token issued, however full the store). A
//! store that is full of unexpired tokens refuses the next (503) until
//! the oldest expires; it is never full for good. The time is given to
//! every call (`now`), so that the tests move it by hand.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use oauth1_signer::verify::Secrets;
use oauth1_signer::Secret;

/// The most temporary tokens held: a client's tests make a few; past this
/// (or [`MAX_BYTES`]), a request for another is refused (503) until the
/// oldest expires.
pub(crate) const MAX_TOKENS: usize = 100_000;

/// The most bytes the temporary tokens held may cost, by [`cost`]: 32 MiB,
/// which is about 14,600 tokens with callbacks of the most bytes accepted
/// (`flow::MAX_CALLBACK`, 2048: 2288 bytes a token), or all [`MAX_TOKENS`]
/// with callbacks of up to 90 bytes (`oob`: 243 bytes a token). Without it,
/// 100,000 tokens with 60 KB callbacks held 6 GB.
pub(crate) const MAX_BYTES: usize = 32 << 20;

/// What a verifier costs: 128 bits as 32 hex digits (`legs::random`).
const VERIFIER_BYTES: usize = 32;

/// The bytes a temporary token holds: its entry in the map and in the
/// queue, the token twice (the map's key, the queue's), its callback, and
/// the verifier it will get. The keyed secrets (`Secrets`) are behind one
/// pointer of the entry, of a size that does not depend on the request:
/// the count bounds them.
fn cost(token: &str, callback: &str) -> usize {
    std::mem::size_of::<(String, Temporary)>()
        + std::mem::size_of::<(Instant, String)>()
        + 2 * token.len()
        + callback.len()
        + VERIFIER_BYTES
}

/// A temporary token issued (§2.1), until it is exchanged or expires.
pub(crate) struct Temporary {
    /// The consumer's and this token's, kept (keyed once).
    pub(crate) secrets: Secrets,
    pub(crate) callback: String,
    /// Set when the user (here: at once) authorises it.
    pub(crate) verifier: Option<Secret>,
    /// Exchanged for token credentials: it serves no other.
    pub(crate) used: bool,
    issued: Instant,
}

/// The store is full: count or bytes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Full;

/// What a token names, at a time.
pub(crate) enum Found<'a> {
    /// Not a token issued here (or one reclaimed since it expired).
    Unknown,
    /// Issued here, and expired (`token_expired`).
    Expired,
    /// Issued here, unexpired (exchanged or not).
    Live(&'a mut Temporary),
}

/// The temporary tokens held.
pub(crate) struct Temporaries {
    tokens: HashMap<String, Temporary>,
    /// The tokens in the order they were issued, with the time: the order
    /// they expire in.
    issued: VecDeque<(Instant, String)>,
    /// What the tokens held cost ([`cost`]).
    bytes: usize,
    lifetime: Duration,
}

impl Temporaries {
    /// An empty store whose tokens expire `lifetime` after they are issued.
    pub(crate) fn new(lifetime: Duration) -> Temporaries {
        Temporaries {
            tokens: HashMap::new(),
            issued: VecDeque::new(),
            bytes: 0,
            lifetime,
        }
    }

    /// Whether a token issued at `issued` has expired at `now`.
    fn expired(&self, issued: Instant, now: Instant) -> bool {
        now.saturating_duration_since(issued) >= self.lifetime
    }

    /// Drops the tokens expired at `now`.
    fn reclaim(&mut self, now: Instant) {
        while let Some((issued, _)) = self.issued.front() {
            if !self.expired(*issued, now) {
                break;
            }
            if let Some((_, token)) = self.issued.pop_front() {
                if let Some(t) = self.tokens.remove(&token) {
                    self.bytes = self.bytes.saturating_sub(cost(&token, &t.callback));
                }
            }
        }
    }

    /// Keeps `token` (issued at `now`), after reclaiming the expired ones;
    /// [`Full`] when the count or the bytes would pass their bound.
    pub(crate) fn issue(
        &mut self,
        token: String,
        secrets: Secrets,
        callback: String,
        now: Instant,
    ) -> Result<(), Full> {
        self.reclaim(now);
        let cost = cost(&token, &callback);
        if self.tokens.len() >= MAX_TOKENS || self.bytes.saturating_add(cost) > MAX_BYTES {
            return Err(Full);
        }
        self.bytes += cost;
        self.issued.push_back((now, token.clone()));
        self.tokens.insert(
            token,
            Temporary {
                secrets,
                callback,
                verifier: None,
                used: false,
                issued: now,
            },
        );
        Ok(())
    }

    /// What `token` names at `now`.
    pub(crate) fn find(&mut self, token: &str, now: Instant) -> Found<'_> {
        let lifetime = self.lifetime;
        match self.tokens.get_mut(token) {
            None => Found::Unknown,
            Some(t) if now.saturating_duration_since(t.issued) >= lifetime => Found::Expired,
            Some(t) => Found::Live(t),
        }
    }

    /// The secrets of `token`, expired or not while it is held: its owner
    /// is told it expired (or was used), which only the holder of its
    /// secret can learn (the signature verifies first).
    pub(crate) fn secrets(&self, token: &str) -> Option<Secrets> {
        self.tokens.get(token).map(|t| t.secrets.clone())
    }

    /// How many tokens are held, and what they cost.
    pub(crate) fn held(&self) -> (usize, usize) {
        (self.tokens.len(), self.bytes)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {

    use super::*;

    const LIFETIME: Duration = Duration::from_secs(600);

    fn secrets() -> Secrets {
        Secrets::new(Secret::new("cs"), Secret::new("ts"))
    }

    /// A token as `legs::random` makes them: 32 hex digits.
    fn token(n: usize) -> String {
        format!("{n:032x}")
    }

    /// A callback of the most bytes accepted.
    fn longest_callback() -> String {
        let base = "https://client.example/back?state=";
        format!(
            "{base}{}",
            "s".repeat(oauth1_signer::flow::MAX_CALLBACK - base.len())
        )
    }

    #[test]
    fn a_token_expires_after_its_lifetime() {
        let start = Instant::now();
        let mut store = Temporaries::new(LIFETIME);
        store
            .issue(token(1), secrets(), "oob".into(), start)
            .unwrap();
        assert!(matches!(store.find(&token(1), start), Found::Live(_)));
        let almost = start + LIFETIME - Duration::from_millis(1);
        assert!(matches!(store.find(&token(1), almost), Found::Live(_)));
        assert!(matches!(
            store.find(&token(1), start + LIFETIME),
            Found::Expired
        ));
        // Held (its owner is told it expired) until a new token reclaims it.
        assert!(store.secrets(&token(1)).is_some());
        store
            .issue(token(2), secrets(), "oob".into(), start + LIFETIME)
            .unwrap();
        assert!(matches!(
            store.find(&token(1), start + LIFETIME),
            Found::Unknown
        ));
        assert!(store.secrets(&token(1)).is_none());
        assert_eq!(store.held().0, 1);
        assert!(matches!(store.find("nope", start), Found::Unknown));
    }

    #[test]
    fn a_flood_of_the_longest_callbacks_is_bounded_in_bytes_and_reclaimed() {
        let start = Instant::now();
        let mut store = Temporaries::new(LIFETIME);
        let callback = longest_callback();
        let each = cost(&token(0), &callback);
        // 2048-byte callbacks, all within one lifetime: the bytes bound
        // stops them long before the count does.
        let mut issued = 0;
        let refused = loop {
            let now = start + Duration::from_millis(issued as u64);
            match store.issue(token(issued), secrets(), callback.clone(), now) {
                Ok(()) => issued += 1,
                Err(Full) => break now,
            }
            assert!(issued <= MAX_TOKENS, "no bound held");
        };
        assert_eq!(issued, MAX_BYTES / each);
        let (count, bytes) = store.held();
        assert_eq!(count, issued);
        assert_eq!(bytes, issued * each);
        assert!(bytes <= MAX_BYTES);
        // Still full a moment later: nothing has expired.
        assert_eq!(
            store.issue(token(issued), secrets(), callback.clone(), refused),
            Err(Full)
        );
        // Once the first expires, it is reclaimed and a new one fits: the
        // store is never full for good.
        let later = start + LIFETIME;
        store
            .issue(token(issued), secrets(), callback.clone(), later)
            .unwrap();
        assert_eq!(store.held().0, issued);
        // After a whole lifetime, all of them.
        let much_later = refused + LIFETIME + LIFETIME;
        store
            .issue(token(issued + 1), secrets(), "oob".into(), much_later)
            .unwrap();
        assert_eq!(store.held(), (1, cost(&token(issued + 1), "oob")));
    }

    #[test]
    fn the_count_is_bounded_too() {
        let start = Instant::now();
        let mut store = Temporaries::new(LIFETIME);
        for n in 0..MAX_TOKENS {
            store
                .issue(token(n), secrets(), "oob".into(), start)
                .unwrap();
        }
        assert!(store.held().1 <= MAX_BYTES);
        assert_eq!(
            store.issue(token(MAX_TOKENS), secrets(), "oob".into(), start),
            Err(Full)
        );
        let expired = start + LIFETIME;
        store
            .issue(token(MAX_TOKENS), secrets(), "oob".into(), expired)
            .unwrap();
        assert_eq!(store.held().0, 1);
    }

    #[test]
    fn a_lifetime_of_zero_expires_at_once() {
        let now = Instant::now();
        let mut store = Temporaries::new(Duration::ZERO);
        store.issue(token(1), secrets(), "oob".into(), now).unwrap();
        assert!(matches!(store.find(&token(1), now), Found::Expired));
    }
}
