//! Provider profiles against the client libraries their users run
//! (`tests/peers/providers_peer.py`): Mastercard's official signer
//! (`mastercard-oauth1-signer`), whose header the Mastercard profile
//! reproduces byte for byte; WooCommerce's REST client (`woocommerce`),
//! whose query-signed URL the WooCommerce profile signs alike and our
//! verifier accepts; the LTI 1.1 library (`lti`, over requests-oauthlib and
//! oauthlib), whose launch our verifier accepts and which accepts ours.
//! Nonces and clocks are pinned in the peers, so the RSA-SHA256 and HMAC
//! signatures compare exactly. On the receiving side, the verifier (in
//! Mastercard's style, for a stand-in of its gateway) and `VerifyLayer` on
//! an axum `Router` accept what those clients send, and refuse it tampered.

#![cfg(feature = "rsa")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::peers::{peer_script, run_peer};
use oauth1_signer::verify::{MemoryNonceStore, Received, StaticSecrets, Verifier};
use oauth1_signer::{
    pipeline::parse_authorization_header, pipeline::SigningKey, Credentials, Name, OAuthRequest,
    Provider, SignatureMethod,
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
    let form = oauth1_signer::pipeline::encode_pairs(
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

const PUBLIC_KEY: &str = include_str!("../fixtures/keys/oauthlib_tests_rsa_public.pem");

/// The instant the peers signed at (their clocks pinned), as a verifier's clock.
fn signed_at() -> u64 {
    TIMESTAMP.parse().unwrap()
}

/// A stand-in for Mastercard's gateway: RSA-SHA256 with the consumer's
/// public key, the body hash required, in `style`.
fn mastercard_gateway(
    style: oauth1_signer::pipeline::ParameterStyle,
) -> Verifier<StaticSecrets, MemoryNonceStore> {
    let secrets = StaticSecrets::new(Credentials::new("ck0001", ""))
        .with_rsa_public_key_pem(PUBLIC_KEY)
        .unwrap();
    Verifier::builder(secrets, MemoryNonceStore::with_capacity(10))
        .methods(&[SignatureMethod::RsaSha256])
        .body_hash(Provider::Mastercard.profile().body_hash)
        .parameter_style(style)
        .clock(signed_at)
        .build()
        .unwrap()
}

/// What Mastercard's own signer sends: (method, URL, body, header).
fn mastercard_requests() -> Vec<(&'static str, &'static str, &'static str, String)> {
    let cases = [
        (
            "POST",
            "https://sandbox.api.mastercard.com/loyalty/v1/points?Format=JSON&PageOffset=0",
            r#"{"cardNumber":"5555555555554444","amount":"10.00"}"#,
        ),
        (
            "GET",
            "https://sandbox.api.mastercard.com/atms/v1/atm?Format=XML&AddressLine1=70%20Main%20St",
            "",
        ),
    ];
    let batch: Vec<Value> = cases
        .iter()
        .map(|(method, url, payload)| {
            json!({"client": "mastercard", "url": url, "method": method,
                   "payload": (!payload.is_empty()).then_some(payload),
                   "consumer_key": "ck0001", "key_pem": KEY, "nonce": "vErIfYn0nce12345",
                   "timestamp": TIMESTAMP})
        })
        .collect();
    cases
        .iter()
        .zip(peer(&batch))
        .map(|((m, u, b), a)| {
            (
                *m,
                *u,
                *b,
                a["authorization_header"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn mastercard_s_requests_verify_in_its_style_and_tampered_ones_do_not() {
    use oauth1_signer::pipeline::ParameterStyle;
    use oauth1_signer::verify::Reason;
    for (method, url, body, header) in mastercard_requests() {
        let received = |body: &'static str| {
            Received::new(method, url)
                .authorization_header(&header)
                .body(Some("application/json"), body.as_bytes())
        };
        let gateway = mastercard_gateway(ParameterStyle::Mastercard);
        block(gateway.verify(&received(body))).unwrap_or_else(|e| panic!("{method} {url}: {e}"));
        // Another body: its hash no longer matches.
        let e = block(mastercard_gateway(ParameterStyle::Mastercard).verify(&received("{}")))
            .unwrap_err();
        assert_eq!(e.reason(), &Reason::BodyHashInvalid, "{method} {url}");
        // RFC 5849's parameter string encodes the hash's `+`, `/` and `=`;
        // Mastercard's signer does not, so only its style verifies.
        let e =
            block(mastercard_gateway(ParameterStyle::Rfc5849).verify(&received(body))).unwrap_err();
        assert_eq!(e.reason(), &Reason::SignatureInvalid, "{method} {url}");
    }
}

#[cfg(feature = "tower")]
mod layer {
    //! The peers' requests through `VerifyLayer` on an axum `Router`, as a
    //! service behind a proxy receives them (origin-form targets).

    use super::*;
    use axum::body::{to_bytes, Body};
    use axum::routing::any;
    use axum::{Extension, Router};
    use oauth1_signer::pipeline::ParameterStyle;
    use oauth1_signer::verify::Forwarded;
    use oauth1_signer::verify::{Verified, VerifyLayer};
    use std::sync::Arc;
    use tower::ServiceExt as _;

    async fn who(Extension(v): Extension<Verified>) -> String {
        v.consumer_key().to_owned()
    }

    /// The status of `request` through a layer over `verifier`.
    fn status<S, N>(verifier: Verifier<S, N>, request: http::Request<Body>) -> (u16, String)
    where
        S: oauth1_signer::verify::SecretSource + 'static,
        N: oauth1_signer::verify::NonceStore + 'static,
    {
        let app = Router::new()
            .route("/{*path}", any(who))
            .layer(VerifyLayer::new(Arc::new(verifier)));
        block(async {
            let response = app.oneshot(request).await.unwrap();
            let status = response.status().as_u16();
            let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
            (status, String::from_utf8_lossy(&body).into_owned())
        })
    }

    fn origin_form(url: &str) -> &str {
        let rest = url.split_once("://").unwrap().1;
        &rest[rest.find('/').unwrap()..]
    }

    #[test]
    fn woocommerce_s_url_lti_s_launch_and_mastercard_s_request_pass_and_tampered_ones_do_not() {
        // WooCommerce: the parameters in the query.
        let url = "http://shop.example.com/wp-json/wc/v3/products?per_page=5&search=mug";
        let theirs = peer(
            &[json!({"client": "woocommerce", "url": url, "method": "GET",
            "consumer_key": "ck_1234", "consumer_secret": "cs_5678", "nonce": "c0ffee1234",
            "timestamp": TIMESTAMP})],
        )[0]["url"]
            .as_str()
            .unwrap()
            .to_owned();
        let store = || {
            Verifier::builder(
                StaticSecrets::new(Credentials::new("ck_1234", "cs_5678")),
                MemoryNonceStore::with_capacity(10),
            )
            .public_base_url("http://shop.example.com")
            .clock(signed_at)
            .build()
            .unwrap()
        };
        let get = |u: &str| {
            http::Request::get(origin_form(u))
                .body(Body::empty())
                .unwrap()
        };
        assert_eq!(status(store(), get(&theirs)), (200, "ck_1234".to_owned()));
        assert_eq!(status(store(), get(&theirs.replace("mug", "cup"))).0, 401);

        // LTI: the launch in a form body, behind a proxy that says https.
        let launch = "https://tool.example.com/lti/launch";
        let params = json!({"lti_message_type": "basic-lti-launch-request",
            "lti_version": "LTI-1p0", "resource_link_id": "course-42-link", "roles": "Learner"});
        let body = peer(&[json!({"client": "lti-launch", "launch_url": launch,
            "consumer_key": "lms-key", "consumer_secret": "lms-secret", "params": params,
            "nonce": "lti0nonce0003", "timestamp": TIMESTAMP})])[0]["body"]
            .as_str()
            .unwrap()
            .to_owned();
        let tool = || {
            Verifier::builder(
                StaticSecrets::new(Credentials::new("lms-key", "lms-secret")),
                MemoryNonceStore::with_capacity(10),
            )
            .public_base_url("http://10.0.0.7:8080")
            .forwarded(Forwarded::XForwarded)
            .clock(signed_at)
            .build()
            .unwrap()
        };
        let post = |body: String| {
            http::Request::post("/lti/launch")
                .header("content-type", "application/x-www-form-urlencoded")
                .header("x-forwarded-proto", "https")
                .header("x-forwarded-host", "tool.example.com")
                .body(Body::from(body))
                .unwrap()
        };
        assert_eq!(
            status(tool(), post(body.clone())),
            (200, "lms-key".to_owned())
        );
        assert_eq!(
            status(tool(), post(body.replace("Learner", "Instructor"))).0,
            401
        );

        // Mastercard: a JSON body covered by its hash, which the layer reads.
        for (method, url, payload, header) in mastercard_requests() {
            let request = |payload: &'static str| {
                http::Request::builder()
                    .method(method)
                    .uri(origin_form(url))
                    .header("authorization", &header)
                    .header("content-type", "application/json")
                    .body(Body::from(payload))
                    .unwrap()
            };
            let gateway = || {
                let secrets = StaticSecrets::new(Credentials::new("ck0001", ""))
                    .with_rsa_public_key_pem(PUBLIC_KEY)
                    .unwrap();
                Verifier::builder(secrets, MemoryNonceStore::with_capacity(10))
                    .methods(&[SignatureMethod::RsaSha256])
                    .body_hash(Provider::Mastercard.profile().body_hash)
                    .parameter_style(ParameterStyle::Mastercard)
                    .public_base_url("https://sandbox.api.mastercard.com")
                    .clock(signed_at)
                    .build()
                    .unwrap()
            };
            assert_eq!(
                status(gateway(), request(payload)),
                (200, "ck0001".to_owned()),
                "{method} {url}"
            );
            assert_eq!(
                status(gateway(), request("{\"amount\":\"1000.00\"}")).0,
                401,
                "{method} {url}"
            );
        }
    }
}
