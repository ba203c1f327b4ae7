//! Provider profiles against the client libraries their users run
//! (`tests/peers/providers_peer.py`): Mastercard's official signer
//! (`mastercard-oauth1-signer`), whose header the Mastercard profile
//! reproduces byte for byte; WooCommerce's REST client (`woocommerce`),
//! whose query-signed URL the WooCommerce profile signs alike and our
//! verifier accepts; the LTI 1.1 library (`lti`, over requests-oauthlib and
//! oauthlib), whose launch our verifier accepts and which accepts ours.
//! Nonces and clocks are pinned in the peers, so the RSA-SHA256 and HMAC
//! signatures compare exactly.

#![cfg(feature = "rsa")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::peers::{peer_script, run_peer};
use oauth1_signer::verify::{MemoryNonceStore, Received, StaticSecrets, Verifier};
use oauth1_signer::{
    parse_authorization_header, Credentials, Name, OAuthRequest, Provider, SignatureMethod,
    SigningKey,
};
use serde_json::{json, Value};

const KEY: &str = include_str!("../fixtures/keys/oauthlib_tests_rsa_pkcs1.pem");
const TIMESTAMP: &str = "1764648000";

fn peer(batch: &[Value]) -> Vec<Value> {
    let batch: Vec<Value> = batch
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut r = r.clone();
            r["id"] = json!(i);
            r
        })
        .collect();
    run_peer("python3", &peer_script("providers_peer.py"), &batch).unwrap_or_else(|e| panic!("{e}"))
}

fn block<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

#[test]
fn mastercard_s_own_signer_is_reproduced_byte_for_byte() {
    let profile = Provider::Mastercard.profile();
    let cases = [
        ("GET", "https://sandbox.api.mastercard.com/fraud/merchant/v3/termination-inquiry?Format=XML&PageOffset=0", None),
        ("GET", "https://sandbox.api.mastercard.com/atms/v1/atm?Format=XML&PageLength=10&AddressLine1=70%20Main%20St", None),
        ("POST", "https://sandbox.api.mastercard.com/loyalty/v1/points", Some(r#"{"cardNumber":"5555555555554444","amount":"10.00"}"#)),
        ("PUT", "https://api.mastercard.com/x:y/v1/z?a=b,c&d=e!", Some("<xml a='1'/>")),
    ];
    let batch: Vec<Value> = cases
        .iter()
        .map(|(method, url, payload)| {
            json!({"client": "mastercard", "url": url, "method": method, "payload": payload,
                   "consumer_key": "ck-0001!abc", "key_pem": KEY,
                   "nonce": "n0nce1234abcdefg", "timestamp": TIMESTAMP})
        })
        .collect();
    let answers = peer(&batch);
    for ((method, url, payload), answer) in cases.iter().zip(&answers) {
        let signer = profile
            .signer(Credentials::new("ck-0001!abc", ""))
            .with_key(SigningKey::rsa_pem(SignatureMethod::RsaSha256, KEY).unwrap())
            .with_nonce("n0nce1234abcdefg")
            .with_timestamp(TIMESTAMP)
            .build()
            .unwrap();
        let body = payload.unwrap_or("").as_bytes();
        let hash = profile
            .body_hash
            .value(signer.method(), false, body)
            .unwrap();
        let extra = [(Name::BodyHash.as_str(), hash.as_str())];
        let header = signer
            .authorization_header(&OAuthRequest::new(method, url).protocol_params(&extra))
            .unwrap();
        assert_eq!(
            header,
            answer["authorization_header"].as_str().unwrap(),
            "{method} {url}"
        );
    }
}

#[test]
fn woocommerce_s_query_signed_url_is_signed_alike_and_verified() {
    let profile = Provider::WooCommerce.profile();
    let url = "http://shop.example.com/wp-json/wc/v3/products?per_page=5&search=mug";
    let answer = &peer(
        &[json!({"client": "woocommerce", "url": url, "method": "GET",
        "consumer_key": "ck_1234", "consumer_secret": "cs_5678",
        "nonce": "c0ffee1234", "timestamp": TIMESTAMP})],
    )[0];
    let theirs = answer["url"].as_str().unwrap();
    let signer = profile
        .signer(Credentials::new("ck_1234", "cs_5678"))
        .with_nonce("c0ffee1234")
        .with_timestamp(TIMESTAMP)
        .build()
        .unwrap();
    let ours = signer.sign(&OAuthRequest::get(url)).unwrap();
    let signature = |u: &str| {
        u.split('&')
            .find_map(|p| p.strip_prefix("oauth_signature="))
            .map(str::to_owned)
    };
    assert_eq!(
        signature(&ours.url_with_query(url)),
        signature(theirs),
        "{theirs}"
    );
    // Their URL, as a WooCommerce store receives it, verifies.
    let verifier = Verifier::builder(
        StaticSecrets::new(Credentials::new("ck_1234", "cs_5678")),
        MemoryNonceStore::with_capacity(10),
    )
    .build()
    .unwrap();
    let r = Received::new("GET", theirs);
    block(verifier.verify_at(&r, TIMESTAMP.parse().unwrap())).unwrap();
}

#[test]
fn an_lti_launch_verifies_both_ways() {
    let profile = Provider::Lti.profile();
    let launch = "http://tool.example.com/lti/launch";
    let params = json!({"lti_message_type": "basic-lti-launch-request", "lti_version": "LTI-1p0",
        "resource_link_id": "course-42-link", "user_id": "u 29", "roles": "Instructor",
        "lis_person_name_full": "Ayşe Yılmaz"});
    // The LMS's launch (lti's ToolConsumer), checked by our verifier.
    let theirs = &peer(&[json!({"client": "lti-launch", "launch_url": launch,
        "consumer_key": "lms-key", "consumer_secret": "lms-secret", "params": params,
        "nonce": "lti0nonce0001", "timestamp": TIMESTAMP})])[0];
    let body = theirs["body"].as_str().unwrap();
    let verifier = Verifier::builder(
        StaticSecrets::new(Credentials::new("lms-key", "lms-secret")),
        MemoryNonceStore::with_capacity(10),
    )
    .build()
    .unwrap();
    let r = Received::new("POST", launch).form_body(body.as_bytes());
    let verified = block(verifier.verify_at(&r, TIMESTAMP.parse().unwrap())).unwrap();
    assert_eq!(
        verified.protocol().transmission(),
        oauth1_signer::Transmission::FormBody
    );
    // Ours (the LTI profile: the parameters in the form body), checked by
    // lti's ToolProvider, as a tool checks a launch.
    let signer = profile
        .signer(Credentials::new("lms-key", "lms-secret"))
        .build()
        .unwrap();
    let form = oauth1_signer::encode_pairs(
        params
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str().unwrap())),
    );
    let signed = signer
        .sign(&OAuthRequest::post(launch).form_body(form.as_bytes()))
        .unwrap();
    let ours = format!("{form}&{}", signed.form_params());
    let checked = &peer(&[json!({"client": "lti-verify", "launch_url": launch,
        "consumer_key": "lms-key", "consumer_secret": "lms-secret", "body": ours,
        "now": signed.protocol().get(Name::Timestamp).unwrap()})])[0];
    assert_eq!(checked["valid"], true, "{ours}");
    // And a tampered one is not valid.
    let tampered = ours.replace("Instructor", "Administrator");
    let checked = &peer(&[json!({"client": "lti-verify", "launch_url": launch,
        "consumer_key": "lms-key", "consumer_secret": "lms-secret", "body": tampered,
        "now": signed.protocol().get(Name::Timestamp).unwrap()})])[0];
    assert_eq!(checked["valid"], false);
    let _ = parse_authorization_header;
}
