//! `oauth_body_hash` (the OAuth Request Body Hash extension) by policy and
//! algorithm: the hashes of `fixtures/body_hash.json` (the extension's own
//! example, NIST's digests of the empty message), and a verifier that
//! requires one, or checks one by the signature method's hash.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use oauth1_signer::verify::{MemoryNonceStore, Reason, Received, StaticSecrets, Verifier};
use oauth1_signer::{
    pipeline::body_hash, BodyHash, BodyHashAlgorithm, BodyHashPolicy, Credentials, OAuthRequest,
    SignatureMethod, Signer,
};

fn block<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

#[test]
fn every_fixture_hash_is_reproduced() {
    let fixture = common::load("body_hash.json");
    assert_eq!(fixture.count, fixture.vectors.len());
    for v in &fixture.vectors {
        let body = v.inputs["body"].as_str().unwrap();
        let algorithm = match v.inputs["algorithm"].as_str().unwrap() {
            "SHA-1" => BodyHashAlgorithm::Sha1,
            "SHA-256" => BodyHashAlgorithm::Sha256,
            other => panic!("{}: {other}", v.id),
        };
        assert_eq!(
            body_hash(algorithm, body.as_bytes()),
            v.expected["hash"].as_str().unwrap(),
            "{}",
            v.id
        );
    }
}

fn expected(id: &str) -> String {
    let fixture = common::load("body_hash.json");
    let v = fixture.vectors.iter().find(|v| v.id == id).unwrap();
    v.expected["hash"].as_str().unwrap().to_owned()
}

/// A `GET https://api.example.com/r` signed with HMAC-SHA256 and, when
/// given, this `oauth_body_hash`.
fn header(hash: Option<&str>) -> String {
    let signer = Signer::builder(Credentials::new("ck", "cs"))
        .with_method(SignatureMethod::HmacSha256)
        .build()
        .unwrap();
    let extra: Vec<(&str, &str)> = hash.map(|h| ("oauth_body_hash", h)).into_iter().collect();
    signer
        .authorization_header(
            &OAuthRequest::get("https://api.example.com/r").protocol_params(&extra),
        )
        .unwrap()
}

fn reason(policy: BodyHashPolicy, header: &str) -> Option<Reason> {
    let verifier = Verifier::builder(
        StaticSecrets::new(Credentials::new("ck", "cs")),
        MemoryNonceStore::with_capacity(10),
    )
    .body_hash(BodyHash::new(policy, BodyHashAlgorithm::FollowMethod))
    .build()
    .unwrap();
    let r = Received::new("GET", "https://api.example.com/r").authorization_header(header);
    block(verifier.verify(&r)).err().map(|e| e.reason().clone())
}

#[test]
fn a_verifier_requires_one_by_policy_and_checks_it_by_the_method_s_hash() {
    // HMAC-SHA256: the method's hash is SHA-256; the empty body's.
    let sha256 = expected("empty-body-sha256");
    let sha1 = expected("empty-body-sha1");
    assert_eq!(
        reason(BodyHashPolicy::Required, &header(Some(&sha256))),
        None
    );
    assert_eq!(reason(BodyHashPolicy::Never, &header(Some(&sha256))), None);
    // The SHA-1 of the same body is not the SHA-256 method's hash.
    assert_eq!(
        reason(BodyHashPolicy::Never, &header(Some(&sha1))),
        Some(Reason::BodyHashInvalid)
    );
    // Required, and absent: named.
    assert_eq!(
        reason(BodyHashPolicy::Required, &header(None)),
        Some(Reason::ParameterAbsent(vec!["oauth_body_hash"]))
    );
    assert_eq!(reason(BodyHashPolicy::UnlessForm, &header(None)), None);
}
