//! Nonces already seen ([RFC 5849 §3.3]): the contract a nonce store keeps.
//!
//! A verifier records a request's nonce only after its signature verifies,
//! so that unauthenticated requests cannot fill the store. The record is
//! keyed by the consumer key, the token, the timestamp and the nonce: all
//! four are chosen by whoever sends the request, so [`NonceKey`] hashes them
//! (each part length-prefixed, so no two different requests share a key)
//! into 32 bytes of fixed size.
//!
//! [RFC 5849 §3.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.3

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use sha2::{Digest as _, Sha256};

use super::unavailable::StoreError;

/// The future a [`NonceStore`] returns.
pub type StoreFuture<'a> = Pin<Box<dyn Future<Output = Result<Freshness, StoreError>> + Send + 'a>>;

/// What identifies one use of a nonce: SHA-256 of the consumer key, the
/// token, the timestamp and the nonce, each prefixed by its length.
///
/// ```
/// use oauth1_signer::verify::NonceKey;
///
/// let a = NonceKey::new("key", "token", 1318622958, "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg");
/// // Moving a byte from one part to the next makes another key.
/// let b = NonceKey::new("ke", "ytoken", 1318622958, "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg");
/// assert_ne!(a, b);
/// assert_eq!(a.to_hex().len(), 64);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct NonceKey([u8; 32]);

impl NonceKey {
    /// The key for one request's nonce. An absent token is the empty string.
    pub fn new(consumer_key: &str, token: &str, timestamp: u64, nonce: &str) -> NonceKey {
        let mut h = Sha256::new();
        for part in [consumer_key.as_bytes(), token.as_bytes(), nonce.as_bytes()] {
            h.update((part.len() as u64).to_be_bytes());
            h.update(part);
        }
        h.update(timestamp.to_be_bytes());
        NonceKey(h.finalize().into())
    }

    /// The 32 bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The 32 bytes as 64 lowercase hexadecimal digits (a Redis key, say).
    pub fn to_hex(&self) -> String {
        let mut s = String::with_capacity(64);
        for b in self.0 {
            s.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
            s.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
        }
        s
    }
}

impl fmt::Debug for NonceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NonceKey({})", self.to_hex())
    }
}

/// Whether a nonce was new when a store recorded it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freshness {
    /// Not seen before: now recorded.
    Fresh,
    /// Already recorded: the request is a replay.
    Replayed,
}

/// Where a verifier records the nonces it has accepted.
///
/// [`remember`](Self::remember) is one atomic check-and-set: it records
/// `key` for at least `keep_for` and says whether it was already there. Two
/// concurrent calls with one key must not both answer
/// [`Fresh`](Freshness::Fresh).
pub trait NonceStore: Send + Sync {
    /// Records `key` for at least `keep_for`, answering whether it was new.
    fn remember<'a>(&'a self, key: &'a NonceKey, keep_for: Duration) -> StoreFuture<'a>;
}

impl<S: NonceStore + ?Sized> NonceStore for std::sync::Arc<S> {
    fn remember<'a>(&'a self, key: &'a NonceKey, keep_for: Duration) -> StoreFuture<'a> {
        (**self).remember(key, keep_for)
    }
}
