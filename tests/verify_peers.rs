//! Requests signed by Python `oauthlib` and npm `oauth-1.0a`
//! (tests/peers/, the differential tests' peers) verify. A peer that
//! cannot run is a failure that says how to install it, never a skip.
//! The requests are of every shape a verifier meets; the signatures and
//! base strings are the peers', never this crate's.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::peers::{peer_script, run_peer};
use common::verify::{block, received, verifier};
use common::RequestInputs;
use serde_json::{json, Value};

// What checks a peer's RSA signature against another key.
#[cfg(feature = "rsa")]
use common::verify::TestStore;
#[cfg(feature = "rsa")]
use oauth1_signer::verify::{Reason, StaticSecrets, Verifier};
#[cfg(feature = "rsa")]
use oauth1_signer::SignatureMethod;

/// Requests of every shape a verifier meets: each method, a token or
/// none, a query and a form body with characters that need escapes,
/// duplicate names, a realm, the nonces each client makes.
fn requests() -> Vec<Value> {
    let rsa = include_str!("../fixtures/keys/oauthlib_tests_rsa_pkcs1.pem");
    let mut out = Vec::new();
    let methods: &[&str] = if cfg!(feature = "rsa") {
        &[
            "HMAC-SHA1",
            "HMAC-SHA256",
            "HMAC-SHA512",
            "PLAINTEXT",
            "RSA-SHA1",
            "RSA-SHA256",
        ]
    } else {
        &["HMAC-SHA1", "HMAC-SHA256", "HMAC-SHA512", "PLAINTEXT"]
    };
    let shapes = [
        json!({"method": "GET", "url": "https://api.example.com/1.1/users/show.json?screen_name=jack&include_entities=true"}),
        json!({"method": "POST", "url": "https://api.example.com/statuses/update.json?a=1&a=%21",
               "form_body": "status=Hello+Ladies%20%2B%20Gentlemen%2C+%E2%9C%93&b=&c=x%2Fy"}),
        json!({"method": "get", "url": "http://example.com:8080/r%20v/~x?q=%7E%20*&empty="}),
        json!({"method": "PUT", "url": "https://api.example.com/", "realm": "Photos"}),
    ];
    let nonces = [
        "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
        "tKOQtKan8PHIrIoOlrl17zHkZQ2H5CsP",
        "14205877133089081931378988215",
    ];
    let mut id = 0;
    for method in methods {
        for (i, shape) in shapes.iter().enumerate() {
            let mut r = shape.clone();
            id += 1;
            r["id"] = json!(format!("r{id}"));
            r["signature_method"] = json!(method);
            r["consumer_key"] = json!("dpf43f3p2l4k3l03");
            r["consumer_secret"] = json!("kd94hf93k423kf44&é");
            if i % 2 == 0 {
                r["token"] = json!("nnch734d00sl2jdk");
                r["token_secret"] = json!("pfkkdhi9 sl3r4s00");
            }
            r["timestamp"] = json!("1700000000");
            r["nonce"] = json!(nonces[id % nonces.len()]);
            r["version"] = json!("1.0");
            if method.starts_with("RSA") {
                r["rsa_private_key"] = json!(rsa);
            }
            out.push(r);
        }
    }
    out
}

fn verify_all(peer: &str, program: &str, script: &str) {
    let batch = requests();
    let answers = run_peer(program, &peer_script(script), &batch).unwrap_or_else(|e| panic!("{e}"));
    for (request, answer) in batch.iter().zip(&answers) {
        let inputs: RequestInputs = {
            let mut r = request.clone();
            r.as_object_mut().unwrap().remove("id");
            serde_json::from_value(r).unwrap()
        };
        let header = answer["authorization_header"]
            .as_str()
            .unwrap_or_else(|| panic!("{peer}: {answer}"));
        let got = block(verifier(&inputs).verify_at(&received(&inputs, header), 1700000000));
        let ok = got.unwrap_or_else(|e| {
            panic!(
                "{peer} {}: {e}\n{header}\nbase string {:?}",
                request["id"],
                e.base_string()
            )
        });
        assert_eq!(
            ok.base_string(),
            answer["base_string"].as_str().unwrap(),
            "{peer} {}",
            request["id"]
        );
        // The same peer signature, checked with another public key:
        // refused (an RSA check that said yes to all would pass above).
        #[cfg(feature = "rsa")]
        if inputs.rsa_private_key.is_some() {
            let other = StaticSecrets::new(inputs.credentials().unwrap())
                .with_rsa_public_key_pem(include_str!(
                    "../fixtures/keys/oauth_net_testcases_rsa.cert"
                ))
                .unwrap();
            let v = Verifier::builder(other, TestStore::default())
                .methods(&SignatureMethod::ALL)
                .build()
                .unwrap();
            let e = block(v.verify_at(&received(&inputs, header), 1700000000)).unwrap_err();
            assert_eq!(
                e.reason(),
                &Reason::SignatureInvalid,
                "{peer} {}",
                request["id"]
            );
        }
    }
}

#[test]
fn requests_signed_by_oauthlib_verify() {
    verify_all("oauthlib", "python3", "oauthlib_peer.py");
}

#[test]
fn requests_signed_by_npm_oauth_1_0a_verify() {
    verify_all("oauth-1.0a", "node", "oauth_1_0a_peer.js");
}
