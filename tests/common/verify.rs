//! The verifier's test support, shared by `tests/verify.rs`,
//! `tests/verify_layer.rs` and `tests/verify_peers.rs`: a nonce store that
//! records what it is asked; the verifier, the secrets and the received
//! request a request vector of `fixtures/signatures.json` describes (the
//! RSA public keys from `fixtures/keys/`); the X docs' request; and a
//! request signed with `oauth_body_hash`.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use super::{load, RequestInputs, Vector};
use oauth1_signer::verify::{
    Freshness, NonceKey, NonceStore, Received, StaticSecrets, StoreError, StoreFuture, Verifier,
};
use oauth1_signer::SignatureMethod;

/// A nonce store for these tests only: a set behind a lock, which records
/// the `keep_for` it was asked for.
#[derive(Default)]
pub struct TestStore {
    pub seen: Mutex<HashSet<NonceKey>>,
    pub kept_for: Mutex<Vec<Duration>>,
    pub down: std::sync::atomic::AtomicBool,
}

impl NonceStore for TestStore {
    fn remember<'a>(&'a self, key: &'a NonceKey, keep_for: Duration) -> StoreFuture<'a> {
        Box::pin(async move {
            if self.down.load(std::sync::atomic::Ordering::SeqCst) {
                return Err(StoreError::new("test store is down"));
            }
            self.kept_for.lock().unwrap().push(keep_for);
            Ok(if self.seen.lock().unwrap().insert(*key) {
                Freshness::Fresh
            } else {
                Freshness::Replayed
            })
        })
    }
}

/// Runs a future to completion on a current-thread runtime.
pub fn block<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

/// The public key that goes with a vector's RSA private key.
#[cfg(feature = "rsa")]
pub fn public_key_for(inputs: &RequestInputs) -> Option<&'static str> {
    let private = inputs.rsa_private_key.as_deref()?;
    Some(if private.contains("BEGIN RSA PRIVATE KEY") {
        include_str!("../../fixtures/keys/oauthlib_tests_rsa_public.pem")
    } else {
        include_str!("../../fixtures/keys/oauth_net_testcases_rsa.cert")
    })
}

pub fn secrets(inputs: &RequestInputs) -> StaticSecrets {
    let s = StaticSecrets::new(inputs.credentials().unwrap());
    #[cfg(feature = "rsa")]
    if let Some(pem) = public_key_for(inputs) {
        return s.with_rsa_public_key_pem(pem).unwrap();
    }
    s
}

pub fn verifier(inputs: &RequestInputs) -> Verifier<StaticSecrets, TestStore> {
    Verifier::builder(secrets(inputs), TestStore::default())
        .methods(&SignatureMethod::ALL)
        // oauthlib's test vectors use the nonce "abc".
        .nonce_len(1..=64)
        .build()
        .unwrap()
}

pub fn received<'a>(inputs: &'a RequestInputs, header: &'a str) -> Received<'a> {
    let r = Received::new(&inputs.method, &inputs.url).authorization_header(header);
    match &inputs.form_body {
        Some(body) => r.form_body(body.as_bytes()),
        None => r,
    }
}

pub fn timestamp(inputs: &RequestInputs) -> u64 {
    inputs.timestamp.as_deref().unwrap().parse().unwrap()
}

/// The request vectors, with their inputs.
pub fn request_vectors() -> Vec<(Vector, RequestInputs)> {
    load("signatures.json")
        .vectors
        .into_iter()
        .filter(|v| v.kind.as_deref() == Some("request"))
        .map(|v| {
            let inputs: RequestInputs = v.inputs().unwrap();
            (v, inputs)
        })
        .collect()
}

pub fn expected_header(v: &Vector) -> String {
    v.expected["authorization_header"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The X docs' "Creating a signature" request (fixtures/signatures.json).
pub fn x_docs() -> (Vector, RequestInputs) {
    let v: Vector = serde_json::from_value(super::x_docs::vector()).unwrap();
    let inputs = v.inputs().unwrap();
    (v, inputs)
}

/// A request signed with `oauth_body_hash` by this crate's signer; the hash
/// itself is the OAuth Request Body Hash draft's example value for the body
/// `Hello World!` (base64 of its SHA-1; Python's `hashlib` agrees).
pub fn body_hash_request(hash: &str) -> (String, oauth1_signer::Credentials) {
    let credentials = oauth1_signer::Credentials::new("consumer", "secret");
    let signer = oauth1_signer::Signer::builder(credentials.clone())
        .with_nonce("10288510250934")
        .with_timestamp("1236874155")
        .build()
        .unwrap();
    let extra = [("oauth_body_hash", hash)];
    let request = oauth1_signer::OAuthRequest::new("PUT", "http://www.example.com/resource")
        .protocol_params(&extra);
    (signer.authorization_header(&request).unwrap(), credentials)
}
