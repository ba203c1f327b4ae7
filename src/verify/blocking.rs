//! Verifying without an async runtime: [`Verifier::verify_blocking`] drives
//! the verification on the calling thread, parking it while the secret
//! source or the nonce store waits. For a script or a synchronous server
//! whose stores complete by themselves ([`StaticSecrets`],
//! [`MemoryNonceStore`], or a store over a blocking client); the Redis
//! stores run on tokio and need its runtime.
//!
//! [`StaticSecrets`]: super::StaticSecrets
//! [`MemoryNonceStore`]: super::MemoryNonceStore

use std::future::Future;
use std::pin::pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use std::thread::{self, Thread};

use super::nonce::NonceStore;
use super::reason::Rejection;
use super::received::Received;
use super::secrets::SecretSource;
use super::verified::Verified;
use super::verifier::Verifier;

/// Wakes the thread that polls.
struct Unpark(Thread);

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Runs `future` to completion on this thread, parked while it is pending
/// (a spurious wake-up only polls again).
fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let waker = Waker::from(Arc::new(Unpark(thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        match future.as_mut().poll(&mut cx) {
            Poll::Ready(out) => return out,
            Poll::Pending => thread::park(),
        }
    }
}

impl<S: SecretSource, N: NonceStore> Verifier<S, N> {
    /// As [`verify`](Self::verify), on the calling thread, with no async
    /// runtime: the thread is parked while the secret source or the nonce
    /// store waits. For those that complete by themselves
    /// ([`StaticSecrets`](super::StaticSecrets),
    /// [`MemoryNonceStore`](super::MemoryNonceStore), a store over a
    /// blocking client); the Redis stores run on tokio and need its runtime.
    ///
    /// ```
    /// use oauth1_signer::verify::{MemoryNonceStore, Reason, Received, StaticSecrets, Verifier};
    /// use oauth1_signer::{Credentials, OAuthRequest, Signer};
    ///
    /// let credentials = Credentials::new("key", "secret");
    /// let verifier = Verifier::builder(StaticSecrets::new(credentials.clone()), MemoryNonceStore::with_capacity(1000)).build()?;
    /// let header = Signer::new(credentials).authorization_header(&OAuthRequest::get("https://api.example.com/r"))?;
    /// let received = Received::new("GET", "https://api.example.com/r").authorization_header(&header);
    /// assert!(verifier.verify_blocking(&received).is_ok());
    /// // Its nonce is now used.
    /// assert_eq!(verifier.verify_blocking(&received).unwrap_err().reason(), &Reason::NonceUsed);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`verify`](Self::verify).
    pub fn verify_blocking(&self, received: &Received<'_>) -> Result<Verified, Rejection> {
        block_on(self.verify(received))
    }

    /// As [`verify_at`](Self::verify_at), on the calling thread, with no
    /// async runtime.
    ///
    /// # Errors
    /// As [`verify_at`](Self::verify_at).
    pub fn verify_blocking_at(
        &self,
        received: &Received<'_>,
        now_unix: u64,
    ) -> Result<Verified, Rejection> {
        block_on(self.verify_at(received, now_unix))
    }
}

#[cfg(test)]
mod tests {
    use super::block_on;
    use std::task::Poll;

    /// A future that is pending once, waking itself from another thread.
    #[test]
    fn a_pending_future_is_woken_and_finished() {
        let mut woken = false;
        let out = block_on(std::future::poll_fn(|cx| {
            if woken {
                return Poll::Ready(7);
            }
            woken = true;
            let waker = cx.waker().clone();
            std::thread::spawn(move || waker.wake());
            Poll::Pending
        }));
        assert_eq!(out, 7);
    }
}
