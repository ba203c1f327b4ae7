//! Arbitrary method, URL, `Authorization` header and body through the
//! verifier, which must answer without panicking; and the same method, URL
//! and body signed by this crate's signer, which the verifier must accept
//! (what we sign, we verify), and then refuse as a replay.
//! Input: `method 0xFF url 0xFF header 0xFF body`.
#![no_main]
use std::future::{ready, Future};
use std::pin::pin;
use std::sync::Mutex;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use oauth1_signer::verify::{
    Freshness, NonceKey, NonceStore, Reason, Received, StaticSecrets, StoreError, StoreFuture,
    Verifier,
};
use oauth1_signer::{Credentials, OAuthRequest, Signer};

mod common;
use common::{fields, text};

const NOW: u64 = 1318622958;
const FORM: &str = "application/x-www-form-urlencoded";

/// The verifier's futures are ready at once with these secrets and this
/// store: one poll answers.
fn now<F: Future>(f: F) -> F::Output {
    match pin!(f).poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(out) => out,
        Poll::Pending => panic!("this store and static secrets never wait"),
    }
}

/// The nonces one input's verifier accepted, with no clock and no hashing:
/// `MemoryNonceStore` reads `Instant::now`, whose values reach libFuzzer's
/// compare tables, and the seeded runs kept different inputs from run to run
/// with it (`fuzz/run.sh`). The store's own behaviour is tested beside it.
#[derive(Default)]
struct Seen(Mutex<Vec<[u8; 32]>>);

impl NonceStore for Seen {
    fn remember<'a>(&'a self, key: &'a NonceKey, _keep_for: Duration) -> StoreFuture<'a> {
        let bytes = *key.as_bytes();
        let answer = match self.0.lock() {
            Ok(seen) if seen.contains(&bytes) => Ok(Freshness::Replayed),
            Ok(mut seen) => {
                seen.push(bytes);
                Ok(Freshness::Fresh)
            }
            Err(_) => Err(StoreError::new("poisoned")),
        };
        Box::pin(ready(answer))
    }
}

fuzz_target!(|data: &[u8]| {
    let [method, url, header, body] = fields(data);
    let (method, url, header) = (text(method), text(url), text(header));
    let credentials = Credentials::new("ck", "cs").with_token("tk", "ts");
    let verifier = Verifier::builder(StaticSecrets::new(credentials.clone()), Seen::default())
        .build()
        .unwrap();
    // Anything at all: an answer, never a panic.
    let received = Received::new(method, url)
        .authorization_header(header)
        .body(Some(FORM), body);
    let _ = now(verifier.verify_at(&received, NOW));

    // What the signer signs, the verifier accepts, once.
    let Ok(signer) = Signer::builder(credentials)
        .with_nonce("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")
        .with_timestamp(NOW.to_string())
        .build()
    else {
        return;
    };
    let Ok(signed) = signer.authorization_header(&OAuthRequest::new(method, url).form_body(body))
    else {
        return;
    };
    let received = Received::new(method, url)
        .authorization_header(&signed)
        .body(Some(FORM), body);
    match now(verifier.verify_at(&received, NOW)) {
        Ok(v) => assert_eq!((v.consumer_key(), v.token()), ("ck", Some("tk"))),
        Err(e) => panic!("signed by us, refused: {e} ({method} {url:?}, body {body:?})"),
    }
    let replay = now(verifier.verify_at(&received, NOW)).unwrap_err();
    assert!(matches!(replay.reason(), Reason::NonceUsed), "{replay}");
});
