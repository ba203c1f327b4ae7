//! The verifier (`oauth1_signer::verify`) against requests signed by others:
//! every public request vector in `fixtures/signatures.json` (their headers
//! and signatures come from the published sources, recomputed by oauthlib and
//! a standard-library reference, never by this crate) verifies at its own
//! timestamp; moved to the query or the form body (§3.5.2–3) it verifies
//! too; each kind of tampering is rejected with its own reason.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use common::{load, RequestInputs, Vector};
use oauth1_signer::verify::{
    Freshness, NonceKey, NonceStore, Reason, Received, StaticSecrets, StoreError, StoreFuture,
    Verified, Verifier,
};
use oauth1_signer::{
    append_to_query, encode_pairs, parse_authorization_header, Part, SignatureMethod,
};
use serde_json::Value;

/// A nonce store for these tests only: a set behind a lock, which records
/// the `keep_for` it was asked for.
#[derive(Default)]
struct TestStore {
    seen: Mutex<HashSet<NonceKey>>,
    kept_for: Mutex<Vec<Duration>>,
    down: std::sync::atomic::AtomicBool,
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
fn block<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

/// The public key that goes with a vector's RSA private key.
#[cfg(feature = "rsa")]
fn public_key_for(inputs: &RequestInputs) -> Option<&'static str> {
    let private = inputs.rsa_private_key.as_deref()?;
    Some(if private.contains("BEGIN RSA PRIVATE KEY") {
        include_str!("../fixtures/keys/oauthlib_tests_rsa_public.pem")
    } else {
        include_str!("../fixtures/keys/oauth_net_testcases_rsa.cert")
    })
}

fn secrets(inputs: &RequestInputs) -> StaticSecrets {
    let s = StaticSecrets::new(inputs.credentials().unwrap());
    #[cfg(feature = "rsa")]
    if let Some(pem) = public_key_for(inputs) {
        return s.with_rsa_public_key_pem(pem).unwrap();
    }
    s
}

fn verifier(inputs: &RequestInputs) -> Verifier<StaticSecrets, TestStore> {
    Verifier::builder(secrets(inputs), TestStore::default())
        .methods(&SignatureMethod::ALL)
        // oauthlib's test vectors use the nonce "abc".
        .nonce_len(1..=64)
        .build()
        .unwrap()
}

fn received<'a>(inputs: &'a RequestInputs, header: &'a str) -> Received<'a> {
    let r = Received::new(&inputs.method, &inputs.url).authorization_header(header);
    match &inputs.form_body {
        Some(body) => r.form_body(body.as_bytes()),
        None => r,
    }
}

fn timestamp(inputs: &RequestInputs) -> u64 {
    inputs.timestamp.as_deref().unwrap().parse().unwrap()
}

/// The request vectors, with their inputs.
fn request_vectors() -> Vec<(Vector, RequestInputs)> {
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

/// oauthlib's two unicode-body vectors sign the timestamp "abc", which is
/// not a timestamp (RFC 5849 §3.3: a positive integer): a verifier refuses it.
fn has_a_timestamp(inputs: &RequestInputs) -> bool {
    inputs
        .timestamp
        .as_deref()
        .is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
}

fn expected_header(v: &Vector) -> String {
    v.expected["authorization_header"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn rsa_needs_feature(inputs: &RequestInputs) -> bool {
    cfg!(not(feature = "rsa")) && inputs.rsa_private_key.is_some()
}

#[test]
fn every_request_vector_verifies_at_its_own_timestamp() {
    let mut checked = 0;
    for (v, inputs) in request_vectors() {
        if rsa_needs_feature(&inputs) {
            continue;
        }
        let mut headers = vec![expected_header(&v)];
        // The header as the source printed it (another order), too.
        if let Some(Value::String(h)) = v.published.as_ref().and_then(|p| p.get("header")) {
            if v.published_header_params_match == Some(true) {
                headers.push(h.clone());
            }
        }
        for header in &headers {
            let got = block(verifier(&inputs).verify_at(&received(&inputs, header), {
                if has_a_timestamp(&inputs) {
                    timestamp(&inputs)
                } else {
                    1
                }
            }));
            if !has_a_timestamp(&inputs) {
                let e = got.unwrap_err();
                assert!(
                    matches!(e.reason(), Reason::ParameterRejected { name, .. } if name == "oauth_timestamp"),
                    "{}: {e}",
                    v.id
                );
                continue;
            }
            let ok: Verified = got.unwrap_or_else(|e| panic!("{}: {e}\n{header}", v.id));
            assert_eq!(
                ok.base_string(),
                v.expected["base_string"].as_str().unwrap(),
                "{}",
                v.id
            );
            assert_eq!(
                ok.base_string_uri(),
                v.expected["base_string_uri"].as_str().unwrap(),
                "{}",
                v.id
            );
            assert_eq!(
                ok.normalized_params(),
                v.expected["normalized_params"].as_str().unwrap(),
                "{}",
                v.id
            );
            assert_eq!(ok.consumer_key(), inputs.consumer_key.as_deref().unwrap());
            assert_eq!(ok.token(), inputs.token.as_deref());
            assert_eq!(ok.realm(), inputs.realm.as_deref());
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} checked");
}

/// The vector's protocol parameters, signature included, decoded.
fn header_params(header: &str) -> Vec<(String, String)> {
    parse_authorization_header(header)
        .unwrap()
        .into_iter()
        .filter(|(n, _)| n != "realm")
        .collect()
}

#[test]
fn protocol_parameters_in_the_query_or_the_form_body_verify_too() {
    // §3.5.2 and §3.5.3: the same parameters, sent in another place, sign
    // the same base string (every parameter is collected from wherever it
    // is, §3.4.1.3.1).
    let mut checked = 0;
    for (v, inputs) in request_vectors() {
        if rsa_needs_feature(&inputs) || !has_a_timestamp(&inputs) {
            continue;
        }
        let params = header_params(&expected_header(&v));
        let pairs = params.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        let in_query = append_to_query(&inputs.url, pairs.clone());
        let mut r = Received::new(&inputs.method, &in_query);
        if let Some(body) = &inputs.form_body {
            r = r.form_body(body.as_bytes());
        }
        block(verifier(&inputs).verify_at(&r, timestamp(&inputs)))
            .unwrap_or_else(|e| panic!("{} in the query: {e}", v.id));
        // In the body: only where the request has a form body, or none at all.
        if inputs.method == "POST" || inputs.form_body.is_some() {
            let body = match inputs.form_body.as_deref() {
                Some("") | None => encode_pairs(pairs),
                Some(b) => format!("{b}&{}", encode_pairs(pairs)),
            };
            let r = Received::new(&inputs.method, &inputs.url).form_body(body.as_bytes());
            block(verifier(&inputs).verify_at(&r, timestamp(&inputs)))
                .unwrap_or_else(|e| panic!("{} in the body: {e}", v.id));
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} checked");
}

/// The X docs' "Creating a signature" request (fixtures/signatures.json).
fn x_docs() -> (Vector, RequestInputs) {
    request_vectors()
        .into_iter()
        .find(|(v, _)| v.id == "x-docs-creating-a-signature")
        .unwrap()
}

fn reason_of(inputs: &RequestInputs, r: &Received<'_>, now: u64) -> Reason {
    block(verifier(inputs).verify_at(r, now))
        .map(|_| ())
        .unwrap_err()
        .reason()
        .clone()
}

#[test]
fn each_tampering_is_rejected_with_its_reason() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let t = timestamp(&inputs);
    let body = inputs.form_body.as_deref().unwrap();
    let bad = |r: Received<'_>| reason_of(&inputs, &r, t);
    // A parameter of the query, the method, the host, the path, the body.
    for (method, url, body) in [
        (
            "POST",
            "https://api.x.com/1.1/statuses/update.json?include_entities=false",
            body,
        ),
        ("PUT", inputs.url.as_str(), body),
        (
            "POST",
            "https://api.example.com/1.1/statuses/update.json?include_entities=true",
            body,
        ),
        (
            "POST",
            "https://api.x.com/1.1/statuses/destroy.json?include_entities=true",
            body,
        ),
        ("POST", inputs.url.as_str(), "status=Hello%20Ladies"),
        ("POST", inputs.url.as_str(), ""),
    ] {
        let r = Received::new(method, url)
            .authorization_header(&header)
            .form_body(body.as_bytes());
        assert_eq!(bad(r), Reason::SignatureInvalid, "{method} {url} {body}");
    }
    // A protocol parameter in the header: the nonce, the timestamp (inside
    // the window), the token (unknown now), the consumer key (unknown).
    for (from, to, want) in [
        ("kYjzVBB8Y0ZF", "kYjzVBB8Y0ZG", Reason::SignatureInvalid),
        ("1318622958", "1318622959", Reason::SignatureInvalid),
        ("370773112-", "370773113-", Reason::TokenUnknown),
        (
            "xvz1evFS4wEEPTGEFPHBog",
            "xvz1evFS4wEEPTGEFPHBoh",
            Reason::ConsumerKeyUnknown,
        ),
    ] {
        let tampered = header.replacen(from, to, 1);
        assert_ne!(tampered, header);
        let r = Received::new("POST", &inputs.url)
            .authorization_header(&tampered)
            .form_body(body.as_bytes());
        assert_eq!(bad(r), want, "{from} -> {to}");
    }
    // A secret: the verifier knows another consumer secret, or token secret.
    for credentials in [
        inputs
            .credentials()
            .unwrap()
            .with_token(inputs.token.as_deref().unwrap(), "other"),
        oauth1_signer::Credentials::new(inputs.consumer_key.as_deref().unwrap(), "other")
            .with_token(inputs.token.as_deref().unwrap(), inputs.token_secret()),
    ] {
        let verifier = Verifier::builder(StaticSecrets::new(credentials), TestStore::default())
            .build()
            .unwrap();
        let e = block(verifier.verify_at(&received(&inputs, &header), t)).unwrap_err();
        assert_eq!(e.reason(), &Reason::SignatureInvalid);
    }
}

#[test]
fn an_unknown_key_is_answered_as_a_bad_signature() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let t = timestamp(&inputs);
    let unknown = header.replacen("xvz1evFS4wEEPTGEFPHBog", "someone-else", 1);
    let bad_signature = header.replacen("Ls93hJiZbQ3akF3HF3x1Bz8", "Ms93hJiZbQ3akF3HF3x1Bz8", 1);
    let answer = |h: &str| {
        block(verifier(&inputs).verify_at(&received(&inputs, h), t))
            .unwrap_err()
            .problem()
    };
    assert_eq!(answer(&unknown), "oauth_problem=signature_invalid");
    assert_eq!(answer(&bad_signature), "oauth_problem=signature_invalid");
}

#[test]
fn a_replay_is_rejected_and_the_nonce_kept_while_its_timestamp_is_acceptable() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let t = timestamp(&inputs);
    let verifier = verifier(&inputs);
    let r = received(&inputs, &header);
    block(verifier.verify_at(&r, t)).unwrap();
    let e = block(verifier.verify_at(&r, t + 10)).unwrap_err();
    assert_eq!(e.reason(), &Reason::NonceUsed);
    assert_eq!(e.problem(), "oauth_problem=nonce_used");
}

#[test]
fn the_nonce_is_recorded_only_after_the_signature_verifies() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let t = timestamp(&inputs);
    let store = TestStore::default();
    let verifier = Verifier::builder(
        StaticSecrets::new(
            inputs
                .credentials()
                .unwrap()
                .with_token(inputs.token.as_deref().unwrap(), "wrong"),
        ),
        store,
    )
    .build()
    .unwrap();
    let e = block(verifier.verify_at(&received(&inputs, &header), t)).unwrap_err();
    assert_eq!(e.reason(), &Reason::SignatureInvalid);
    // Nothing was asked of the store. (The store is moved into the
    // verifier; a second verifier sharing an Arc checks the same below.)
    let shared = std::sync::Arc::new(TestStore::default());
    let verifier = Verifier::builder(
        StaticSecrets::new(
            inputs
                .credentials()
                .unwrap()
                .with_token(inputs.token.as_deref().unwrap(), "wrong"),
        ),
        shared.clone(),
    )
    .build()
    .unwrap();
    let _ = block(verifier.verify_at(&received(&inputs, &header), t));
    assert!(shared.seen.lock().unwrap().is_empty());
    assert!(shared.kept_for.lock().unwrap().is_empty());
}

#[test]
fn the_nonce_is_kept_as_long_as_its_timestamp_stays_acceptable() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let t = timestamp(&inputs);
    let store = std::sync::Arc::new(TestStore::default());
    let verifier = Verifier::builder(secrets(&inputs), store.clone())
        .window(Duration::from_secs(600), Duration::from_secs(60))
        .build()
        .unwrap();
    // Received 100 s after it was signed: acceptable for 500 s more.
    block(verifier.verify_at(&received(&inputs, &header), t + 100)).unwrap();
    let kept = store.kept_for.lock().unwrap()[0];
    assert!(kept >= Duration::from_secs(500), "{kept:?}");
}

#[test]
fn the_timestamp_window_is_checked_both_ways() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let t = timestamp(&inputs);
    // Default window: five minutes each way. Signed at t; now is t + 301:
    // the window is [t + 1, t + 601], one second too old. At t + 1000 it is
    // [t + 700, t + 1300], 700 seconds too old.
    for (now, by, from) in [
        (t + 301, -1i64, t + 1),
        (t - 301, 1, t - 601),
        (t + 1000, -700, t + 700),
        (t - 1000, 700, t - 1300),
    ] {
        let e = block(verifier(&inputs).verify_at(&received(&inputs, &header), now)).unwrap_err();
        assert_eq!(
            e.reason(),
            &Reason::TimestampRefused {
                by_seconds: by,
                acceptable: (from, from + 600)
            }
        );
        assert_eq!(
            e.problem(),
            format!(
                "oauth_problem=timestamp_refused&oauth_acceptable_timestamps={from}-{}",
                from + 600
            )
        );
    }
    // The edges are inside.
    for now in [t + 300, t - 300] {
        block(verifier(&inputs).verify_at(&received(&inputs, &header), now)).unwrap();
    }
}

#[test]
fn a_store_that_cannot_answer_fails_closed() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let store = TestStore::default();
    store.down.store(true, std::sync::atomic::Ordering::SeqCst);
    let verifier = Verifier::builder(secrets(&inputs), store).build().unwrap();
    let e = block(verifier.verify_at(&received(&inputs, &header), timestamp(&inputs))).unwrap_err();
    assert!(matches!(e.reason(), Reason::StoreUnavailable(_)), "{e}");
    assert_eq!(e.status(), 503);
}

#[test]
fn malformed_headers_are_rejected_with_their_offsets() {
    let (_, inputs) = x_docs();
    // Offsets counted by hand: `OAuth oauth_a=` is 14 bytes, `OAuth a` 7.
    for (header, at) in [
        ("OAuth oauth_a=b", 14),
        ("OAuth oauth_a=\"b", 16),
        ("Basic abc", 0),
        ("OAuth oauth_a=\"%zz\"", 15),
        ("OAuth oauth_a=\"1\"oauth_b=\"2\"", 17),
    ] {
        let r = Received::new("GET", "https://h/").authorization_header(header);
        match reason_of(&inputs, &r, 1) {
            Reason::Malformed(e) => assert_eq!(e.offset(), Some((Part::Header, at)), "{header}"),
            other => panic!("{header}: {other:?}"),
        }
    }
}

#[test]
fn duplicates_and_parameters_in_two_places_are_rejected() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let t = timestamp(&inputs);
    // A name twice in the header: where the second starts.
    let twice = format!("{header}, oauth_nonce=\"x\"");
    let r = received(&inputs, &twice);
    assert_eq!(
        reason_of(&inputs, &r, t),
        Reason::Duplicated {
            name: "oauth_nonce".into(),
            part: Part::Header,
            offset: header.len() + 2
        }
    );
    // The header and the query both.
    let url = format!("{}&oauth_nonce=x", inputs.url);
    let r = Received::new("POST", &url).authorization_header(&header);
    assert_eq!(
        reason_of(&inputs, &r, t),
        Reason::InTwoPlaces {
            name: "oauth_nonce".into(),
            first: Part::Header,
            second: Part::Url
        }
    );
    // The query and the body both; twice in the query.
    let r = Received::new("POST", "https://h/?oauth_nonce=a").form_body(b"oauth_token=b");
    assert!(matches!(
        reason_of(&inputs, &r, t),
        Reason::InTwoPlaces {
            first: Part::Url,
            second: Part::FormBody,
            ..
        }
    ));
    // `https://h/?oauth_nonce=a&` is 25 bytes: the second name is there.
    let r = Received::new("GET", "https://h/?oauth_nonce=a&oauth_nonce=b");
    assert_eq!(
        reason_of(&inputs, &r, t),
        Reason::Duplicated {
            name: "oauth_nonce".into(),
            part: Part::Url,
            offset: 25
        }
    );
}

#[test]
fn required_parameters_version_and_methods_are_checked() {
    let (_, inputs) = x_docs();
    let r = Received::new("GET", "https://h/").authorization_header("OAuth realm=\"x\"");
    let reason = reason_of(&inputs, &r, 1);
    assert_eq!(
        reason,
        Reason::ParameterAbsent(vec![
            "oauth_consumer_key",
            "oauth_nonce",
            "oauth_signature",
            "oauth_signature_method",
            "oauth_timestamp"
        ])
    );
    // PLAINTEXT may omit the nonce and the timestamp (RFC 5849 §3.1).
    let h =
        r#"OAuth oauth_consumer_key="k", oauth_signature_method="PLAINTEXT", oauth_signature="s""#;
    let r = Received::new("GET", "https://h/").authorization_header(h);
    assert_eq!(reason_of(&inputs, &r, 1), Reason::ConsumerKeyUnknown);
    let h =
        r#"OAuth oauth_consumer_key="k", oauth_signature_method="HMAC-SHA1", oauth_signature="s""#;
    let r = Received::new("GET", "https://h/").authorization_header(h);
    assert_eq!(
        reason_of(&inputs, &r, 1),
        Reason::ParameterAbsent(vec!["oauth_nonce", "oauth_timestamp"])
    );
    let base = r#"OAuth oauth_consumer_key="k", oauth_signature="s", oauth_nonce="abcdefgh", oauth_timestamp="1""#;
    for (extra, want) in [
        (
            r#", oauth_signature_method="HMAC-SHA1", oauth_version="1.1""#,
            Reason::VersionRejected,
        ),
        (
            r#", oauth_signature_method="hmac-sha1""#,
            Reason::SignatureMethodRejected {
                method: "hmac-sha1".into(),
            },
        ),
        (
            r#", oauth_signature_method="HMAC-MD5""#,
            Reason::SignatureMethodRejected {
                method: "HMAC-MD5".into(),
            },
        ),
    ] {
        let h = format!("{base}{extra}");
        let r = Received::new("GET", "https://h/").authorization_header(&h);
        assert_eq!(reason_of(&inputs, &r, 1), want, "{h}");
    }
    // PLAINTEXT is refused unless enabled.
    let h = format!("{base}, oauth_signature_method=\"PLAINTEXT\"");
    let r = Received::new("GET", "https://h/").authorization_header(&h);
    let default = Verifier::builder(secrets(&inputs), TestStore::default())
        .build()
        .unwrap();
    let e = block(default.verify_at(&r, 1)).unwrap_err();
    assert_eq!(e.problem(), "oauth_problem=signature_method_rejected");
}

#[test]
fn the_default_nonce_limits_accept_real_clients_nonces() {
    // X's (42 base64 characters, from its docs), npm oauth-1.0a's (32
    // alphanumerics), oauthlib's (digits; its test vectors' "abc"), RFC 5849
    // §1.2's (6), dghubble/oauth1's (44 characters of Base64), a UUID.
    let ok = [
        "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
        "tKOQtKan8PHIrIoOlrl17zHkZQ2H5CsP",
        "14205877133089081931378988215",
        "abc",
        "wIjqoS",
        "ab+/cd==",
        "u+K8pyH0Ckp8dRlsnwQwKeRi/2pVf2ZDjb0v2SfYTjA=",
        "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
    ];
    let refused = ["", "a b c d e", "nonce\"x", "été-2024", &"n".repeat(65)];
    let (_, inputs) = x_docs();
    let default = || {
        Verifier::builder(secrets(&inputs), TestStore::default())
            .build()
            .unwrap()
    };
    for (nonce, accepted) in ok
        .iter()
        .map(|n| (*n, true))
        .chain(refused.iter().map(|n| (*n, false)))
    {
        let h = format!(
            "OAuth oauth_consumer_key=\"k\", oauth_signature=\"s\", oauth_signature_method=\"HMAC-SHA1\", \
             oauth_timestamp=\"1\", oauth_nonce=\"{}\"",
            oauth1_signer::percent_encode_str(nonce)
        );
        let r = Received::new("GET", "https://h/").authorization_header(&h);
        let reason = block(default().verify_at(&r, 1))
            .unwrap_err()
            .reason()
            .clone();
        let nonce_refused =
            matches!(&reason, Reason::ParameterRejected { name, .. } if name == "oauth_nonce");
        assert_eq!(!nonce_refused, accepted, "{nonce}: {reason:?}");
    }
}

/// The X docs request as a server behind a proxy sees it: the path and
/// query only, the header and the form body.
#[cfg(feature = "http")]
fn x_docs_http(header: &str, body: &str) -> http::Request<Vec<u8>> {
    http::Request::post("/1.1/statuses/update.json?include_entities=true")
        .header("authorization", header)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body.as_bytes().to_vec())
        .unwrap()
}

#[cfg(feature = "http")]
#[test]
fn an_http_request_verifies_against_the_public_base_url() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let body = inputs.form_body.as_deref().unwrap();
    let t = timestamp(&inputs);
    let build = |base: &str, trust: bool| {
        Verifier::builder(secrets(&inputs), TestStore::default())
            .public_base_url(base)
            .trust_forwarded(trust)
            .build()
            .unwrap()
    };
    let request = x_docs_http(&header, body);
    block(build("https://api.x.com", false).verify_http_at(&request, t)).unwrap();
    // A path prefix in the base URL is put before the received path.
    let mut stripped = x_docs_http(&header, body);
    *stripped.uri_mut() = "/statuses/update.json?include_entities=true"
        .parse()
        .unwrap();
    block(build("https://api.x.com/1.1/", false).verify_http_at(&stripped, t)).unwrap();
    // Another public host: the signature is for api.x.com.
    let e = block(build("https://api.example.com", false).verify_http_at(&request, t)).unwrap_err();
    assert_eq!(e.reason(), &Reason::SignatureInvalid);
    // Forwarded headers: read only when trusted.
    let mut forwarded = x_docs_http(&header, body);
    forwarded
        .headers_mut()
        .insert("x-forwarded-proto", "https".parse().unwrap());
    forwarded
        .headers_mut()
        // The last value is the trusted proxy's own (it appends).
        .insert("x-forwarded-host", "internal, api.x.com".parse().unwrap());
    block(build("http://internal:8080", true).verify_http_at(&forwarded, t)).unwrap();
    let e = block(build("http://internal:8080", false).verify_http_at(&forwarded, t)).unwrap_err();
    assert_eq!(e.reason(), &Reason::SignatureInvalid);
}

#[cfg(feature = "http")]
#[test]
fn repeated_or_non_ascii_headers_are_rejected() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let body = inputs.form_body.as_deref().unwrap();
    let verifier = Verifier::builder(secrets(&inputs), TestStore::default())
        .public_base_url("https://api.x.com")
        .build()
        .unwrap();
    for name in ["authorization", "content-type"] {
        let mut request = x_docs_http(&header, body);
        let value = request.headers()[name].clone();
        request.headers_mut().append(name, value);
        let e = block(verifier.verify_http_at(&request, timestamp(&inputs))).unwrap_err();
        assert!(
            matches!(e.reason(), Reason::AmbiguousHeader { name: n } if n.eq_ignore_ascii_case(name)),
            "{name}: {e}"
        );
    }
    // `OAuth realm="` is 13 bytes: the 0xC3 of 'é' is at 13.
    let mut request = x_docs_http(&header, body);
    request.headers_mut().insert(
        "authorization",
        http::HeaderValue::from_bytes("OAuth realm=\"é\"".as_bytes()).unwrap(),
    );
    let e = block(verifier.verify_http_at(&request, timestamp(&inputs))).unwrap_err();
    match e.reason() {
        Reason::Malformed(err) => assert_eq!(err.offset(), Some((Part::Header, 13))),
        other => panic!("{other:?}"),
    }
}

#[cfg(feature = "tower")]
mod layer {
    //! The tower layer on a real axum `Router`, called through `oneshot`.

    use super::*;
    use axum::body::{to_bytes, Body};
    use axum::extract::OriginalUri;
    use axum::routing::post;
    use axum::{Extension, Router};
    use oauth1_signer::verify::{LayerBody, VerifyLayer};
    use std::sync::Arc;
    use tower::ServiceExt as _;

    /// The X docs request was signed at 1318622958.
    fn signed_at() -> u64 {
        1318622958
    }

    fn layer() -> VerifyLayer<StaticSecrets, TestStore> {
        let (_, inputs) = x_docs();
        let verifier = Verifier::builder(secrets(&inputs), TestStore::default())
            .public_base_url("https://api.x.com")
            .clock(signed_at)
            .build()
            .unwrap();
        VerifyLayer::new(Arc::new(verifier)).realm("X").unwrap()
    }

    /// Echoes the verified consumer key and token, and the body it got.
    async fn echo(Extension(v): Extension<Verified>, body: String) -> String {
        format!("{} {} {body}", v.consumer_key(), v.token().unwrap_or("-"))
    }

    fn request(path: &str, header: &str, content_type: &str, body: &str) -> http::Request<Body> {
        http::Request::post(path)
            .header("authorization", header)
            .header("content-type", content_type)
            .body(Body::from(body.to_owned()))
            .unwrap()
    }

    async fn answer(app: Router, request: http::Request<Body>) -> (u16, http::HeaderMap, String) {
        let response = app.oneshot(request).await.unwrap();
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
        (status, headers, String::from_utf8(body.to_vec()).unwrap())
    }

    const PATH: &str = "/1.1/statuses/update.json?include_entities=true";
    const FORM: &str = "application/x-www-form-urlencoded";

    #[test]
    fn a_signed_request_reaches_the_handler_with_its_consumer_and_token() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let body = inputs.form_body.clone().unwrap();
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(echo))
            .layer(layer());
        let (status, _, text) = block(answer(app, request(PATH, &header, FORM, &body)));
        assert_eq!(status, 200, "{text}");
        assert_eq!(
            text,
            format!(
                "xvz1evFS4wEEPTGEFPHBog 370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb {body}"
            )
        );
    }

    #[test]
    fn a_rejected_request_is_answered_401_with_the_realm_and_the_problem() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(echo))
            .layer(layer());
        let tampered = format!("{}x", inputs.form_body.as_deref().unwrap());
        let (status, headers, text) = block(answer(app, request(PATH, &header, FORM, &tampered)));
        assert_eq!(status, 401);
        assert_eq!(headers["www-authenticate"], "OAuth realm=\"X\"");
        assert_eq!(text, "oauth_problem=signature_invalid");
    }

    #[test]
    fn a_form_body_over_the_limit_is_answered_413() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let body = inputs.form_body.clone().unwrap();
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(echo))
            .layer(layer().body_limit(body.len() - 1));
        let (status, _, _) = block(answer(app, request(PATH, &header, FORM, &body)));
        assert_eq!(status, 413);
        // At the limit, it is read and verifies.
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(echo))
            .layer(layer().body_limit(body.len()));
        let (status, _, _) = block(answer(app, request(PATH, &header, FORM, &body)));
        assert_eq!(status, 200);
    }

    #[test]
    fn other_bodies_reach_the_handler_unread_and_unsigned() {
        // The X docs request with its parameters signed in the query (the
        // form body's parameters moved there), and a JSON body, which is
        // not signed (§3.4.1.3.1) and so never read by the layer: with a
        // limit of 0, any read would answer 413.
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let url = format!("{PATH}&{}", inputs.form_body.as_deref().unwrap());
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(echo))
            .layer(layer().body_limit(0));
        let json = r#"{"a": 1}"#;
        let (status, _, text) = block(answer(
            app,
            request(&url, &header, "application/json", json),
        ));
        assert_eq!(status, 200, "{text}");
        assert!(text.ends_with(json), "{text}");
    }

    #[test]
    fn a_declared_length_over_the_limit_is_answered_413_before_reading() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let body = inputs.form_body.clone().unwrap();
        let with_length = |length: usize| {
            let mut r = request(PATH, &header, FORM, &body);
            r.headers_mut()
                .insert("content-length", length.to_string().parse().unwrap());
            r
        };
        let app = || {
            Router::new()
                .route("/1.1/statuses/update.json", post(echo))
                .layer(layer().body_limit(body.len()))
        };
        // Declared at the limit: read, and it verifies.
        let (status, _, text) = block(answer(app(), with_length(body.len())));
        assert_eq!(status, 200, "{text}");
        // Declared over it: refused on the header alone, though the bytes
        // sent would fit.
        let (status, _, text) = block(answer(app(), with_length(body.len() + 1)));
        assert_eq!((status, text.as_str()), (413, "body too large\n"));
    }

    #[test]
    fn a_body_signed_by_its_hash_is_read_and_checked() {
        const HELLO_HASH: &str = "Lve95gjOVATpfV8EL5X4nxwjKHE=";
        let (header, credentials) = body_hash_request(HELLO_HASH);
        let verifier = Arc::new(
            Verifier::builder(StaticSecrets::new(credentials), TestStore::default())
                .public_base_url("http://www.example.com")
                .nonce_len(1..=64)
                .clock(|| 1236874155)
                .build()
                .unwrap(),
        );
        let app = || {
            Router::new()
                .route("/resource", axum::routing::put(echo))
                .layer(VerifyLayer::new(verifier.clone()))
        };
        let put = |body: &str| {
            http::Request::put("/resource")
                .header("authorization", &header)
                .header("content-type", "text/plain")
                .body(Body::from(body.to_owned()))
                .unwrap()
        };
        let (status, _, text) = block(answer(app(), put("Hello World!")));
        assert_eq!((status, text.as_str()), (200, "consumer - Hello World!"));
        let (status, _, text) = block(answer(app(), put("Hello World?")));
        assert_eq!(status, 401);
        assert_eq!(
            text,
            "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_body_hash"
        );
    }

    /// A service that is never ready.
    #[derive(Clone)]
    struct Down;

    impl tower::Service<http::Request<LayerBody<Body>>> for Down {
        type Response = http::Response<Body>;
        type Error = &'static str;
        type Future = std::future::Ready<Result<http::Response<Body>, &'static str>>;

        fn poll_ready(
            &mut self,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Result<(), &'static str>> {
            std::task::Poll::Ready(Err("down"))
        }

        fn call(&mut self, _: http::Request<LayerBody<Body>>) -> Self::Future {
            std::future::ready(Err("called while down"))
        }
    }

    #[test]
    fn the_service_s_readiness_and_a_debug_view_without_secrets_pass_through() {
        use tower::Layer as _;
        let mut service = layer().layer(Down);
        assert_eq!(block(service.ready()).err(), Some("down"));
        let shown = format!("{:?} {service:?}", layer());
        assert!(
            shown.starts_with("VerifyLayer { verifier: Verifier")
                && shown.contains(r#"realm: "X""#)
                && shown.contains("VerifyService { layer: VerifyLayer"),
            "{shown}"
        );
        assert!(!shown.contains("kAcSOqF21") && !shown.contains("LswwdoUa"));
    }

    #[test]
    fn a_layer_body_says_its_size_and_its_end() {
        use http_body::Body as _;
        let held = LayerBody::<Body>::Full(Some(axum::body::Bytes::from_static(b"a=1")));
        assert!(!held.is_end_stream());
        assert_eq!(held.size_hint().exact(), Some(3));
        let taken = LayerBody::<Body>::Full(None);
        assert!(taken.is_end_stream());
        assert_eq!(taken.size_hint().exact(), Some(0));
        let passed = LayerBody::Passed(Body::from("abcd"));
        assert!(!passed.is_end_stream());
        assert_eq!(passed.size_hint().exact(), Some(4));
        assert!(LayerBody::Passed(Body::empty()).is_end_stream());
    }

    #[test]
    fn inside_nest_the_original_uri_is_verified() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let body = inputs.form_body.clone().unwrap();
        let nested = |layer: VerifyLayer<StaticSecrets, TestStore>| {
            Router::new().nest(
                "/1.1",
                Router::new()
                    .route("/statuses/update.json", post(echo))
                    .layer(layer),
            )
        };
        let found = layer().original_uri(|e| e.get::<OriginalUri>().map(|u| &u.0));
        let (status, _, text) = block(answer(nested(found), request(PATH, &header, FORM, &body)));
        assert_eq!(status, 200, "{text}");
        // Without it the layer sees `/statuses/update.json`: not what was signed.
        let (status, _, _) = block(answer(nested(layer()), request(PATH, &header, FORM, &body)));
        assert_eq!(status, 401);
    }
}

mod peers {
    //! Requests signed by Python `oauthlib` and npm `oauth-1.0a`
    //! (tests/peers/, the differential tests' peers) verify. A peer that
    //! cannot run is a failure that says how to install it, never a skip.

    use super::*;
    use serde_json::json;
    use std::io::Write as _;
    use std::path::Path;
    use std::process::{Command, Stdio};

    const INSTALL: &str = "install the peers: python3 -m pip install -r tests/peers/requirements.txt / npm ci --prefix tests/peers";

    /// Runs a peer over `batch` (it reads all of stdin, then answers one
    /// line per request).
    fn run_peer(program: &str, script: &str, batch: &[Value]) -> Vec<Value> {
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/peers")
            .join(script);
        let mut child = Command::new(program)
            .arg(&script)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}\n{INSTALL}"));
        let input: String = batch.iter().map(|r| format!("{r}\n")).collect();
        let written = child.stdin.take().unwrap().write_all(input.as_bytes());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            written.is_ok() && out.status.success(),
            "{program} {} failed: {stderr}\n{INSTALL}",
            script.display()
        );
        let answers: Vec<Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), batch.len(), "{stderr}\n{INSTALL}");
        answers
    }

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
        let answers = run_peer(program, script, &batch);
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
}

/// A request signed with `oauth_body_hash` by this crate's signer; the hash
/// itself is the OAuth Request Body Hash draft's example value for the body
/// `Hello World!` (base64 of its SHA-1; Python's `hashlib` agrees).
fn body_hash_request(hash: &str) -> (String, oauth1_signer::Credentials) {
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

#[test]
fn the_body_hash_is_recomputed_from_the_body_received() {
    const HELLO_HASH: &str = "Lve95gjOVATpfV8EL5X4nxwjKHE=";
    let (header, credentials) = body_hash_request(HELLO_HASH);
    let verifier = || {
        Verifier::builder(
            StaticSecrets::new(credentials.clone()),
            TestStore::default(),
        )
        .nonce_len(1..=64)
        .build()
        .unwrap()
    };
    let at = |body: &'static [u8], content_type: &'static str| {
        let r = Received::new("PUT", "http://www.example.com/resource")
            .authorization_header(&header)
            .body(Some(content_type), body);
        block(verifier().verify_at(&r, 1236874155)).map(|_| ())
    };
    at(b"Hello World!", "text/plain").unwrap();
    let e = at(b"Hello World?", "text/plain").unwrap_err();
    assert_eq!(e.reason(), &Reason::BodyHashInvalid);
    assert_eq!(
        e.problem(),
        "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_body_hash"
    );
    // A form body's parameters are signed: it has no body hash (draft §3.2).
    let e = at(b"Hello=World", "application/x-www-form-urlencoded").unwrap_err();
    assert!(
        matches!(e.reason(), Reason::ParameterRejected { name, .. } if name == "oauth_body_hash"),
        "{e}"
    );
}

#[test]
fn what_was_verified_and_what_failed_can_be_read_back() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let t = timestamp(&inputs);
    let verifier = verifier(&inputs);
    let ok = block(verifier.verify_at(&received(&inputs, &header), t)).unwrap();
    assert_eq!(ok.http_method(), "POST");
    assert_eq!(ok.signature_method(), SignatureMethod::HmacSha1);
    let params = ok.params();
    assert_eq!(params.len(), 8);
    assert_eq!(
        params.last().unwrap(),
        &(
            "status".to_owned(),
            "Hello Ladies + Gentlemen, a signed OAuth request!".to_owned()
        )
    );
    // A rejection after the parameters were read keeps the base string
    // computed (a tampered body: the base string shows it).
    let r = Received::new("POST", &inputs.url)
        .authorization_header(&header)
        .form_body(b"status=Hi");
    let e = block(verifier.verify_at(&r, t)).unwrap_err();
    assert!(e.base_string().unwrap().ends_with("status%3DHi"), "{e:?}");
    // The URL signed against, behind a proxy.
    let behind = Verifier::builder(secrets(&inputs), TestStore::default())
        .public_base_url("https://api.x.com/v")
        .build()
        .unwrap();
    assert_eq!(
        behind.request_url(&Received::new("GET", "http://10.0.0.1:8080/a?b=1")),
        "https://api.x.com/v/a?b=1"
    );
    // An origin-form target whose query holds a URL is a path, not a scheme.
    assert_eq!(
        behind.request_url(&Received::new("GET", "/cb?next=https://x.test/y")),
        "https://api.x.com/v/cb?next=https://x.test/y"
    );
}

#[test]
fn debug_shows_no_secret_and_no_signature() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let r = received(&inputs, &header);
    let shown = format!("{r:?} {:?}", verifier(&inputs));
    assert!(!shown.contains("Ls93hJiZbQ3akF3HF3x1Bz8"), "{shown}");
    let static_secrets = format!("{:?}", secrets(&inputs));
    assert!(!static_secrets.contains("kAcSOqF21"), "{static_secrets}");
    let found = oauth1_signer::verify::Secrets::new("kAcSOqF21", "LswwdoUa");
    assert_eq!(format!("{found:?}"), "Secrets { .. }");
    // What is not secret is shown, and read back.
    assert!(
        static_secrets
            .starts_with(r#"StaticSecrets { consumer_key: "xvz1evFS4wEEPTGEFPHBog", token: "#),
        "{static_secrets}"
    );
    assert_eq!((r.method(), r.url()), ("POST", inputs.url.as_str()));
    assert!(
        shown.starts_with(&format!(
            r#"Received {{ method: "POST", url: "{}", authorization: Some("<redacted>")"#,
            inputs.url
        )),
        "{shown}"
    );
    let builder = Verifier::builder(secrets(&inputs), TestStore::default())
        .public_base_url("https://api.x.com");
    let builder = format!("{builder:?}");
    assert!(
        builder.starts_with("VerifierBuilder {") && builder.contains("api.x.com"),
        "{builder}"
    );
}

#[test]
fn verify_reads_the_system_clock() {
    // Signed now (the signer's clock) and verified now (the verifier's):
    // inside the five-minute window unless one of the clocks is wrong.
    let credentials = oauth1_signer::Credentials::new("ck", "cs").with_token("tk", "ts");
    let signer = oauth1_signer::Signer::new(credentials.clone());
    let url = "https://api.x.com/2/users/me";
    let header = signer
        .authorization_header(&oauth1_signer::OAuthRequest::get(url))
        .unwrap();
    let verifier = Verifier::builder(StaticSecrets::new(credentials), TestStore::default())
        .build()
        .unwrap();
    let r = Received::new("GET", url).authorization_header(&header);
    block(verifier.verify(&r)).unwrap();
}

/// What a case of `fixtures/verify.json` changes in its request vector.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    vector: String,
    #[serde(default)]
    header: Option<String>,
    #[serde(default)]
    header_append: Option<String>,
    #[serde(default)]
    header_replace: Option<(String, String)>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    url_append: Option<String>,
    #[serde(default)]
    form_body: Option<String>,
    #[serde(default)]
    consumer_secret: Option<String>,
    #[serde(default)]
    token_secret: Option<String>,
    #[serde(default)]
    now: Option<u64>,
    #[serde(default)]
    twice: bool,
}

#[test]
fn every_rejection_case_is_rejected_with_its_reason_and_answer() {
    let fixture = load("verify.json");
    assert_eq!(fixture.count, fixture.vectors.len());
    let vectors = request_vectors();
    for v in &fixture.vectors {
        let case: Case = v.inputs().unwrap();
        let (base, inputs) = vectors
            .iter()
            .find(|(b, _)| b.id == case.vector)
            .unwrap_or_else(|| panic!("{}: no vector {}", v.id, case.vector));
        let mut inputs = inputs.clone();
        let mut header = case.header.clone().unwrap_or_else(|| expected_header(base));
        if let Some(tail) = &case.header_append {
            header.push_str(tail);
        }
        if let Some((from, to)) = &case.header_replace {
            assert!(header.contains(from.as_str()), "{}: {from}", v.id);
            header = header.replacen(from.as_str(), to, 1);
        }
        if let Some(m) = &case.method {
            inputs.method = m.clone();
        }
        if let Some(u) = &case.url {
            inputs.url = u.clone();
        }
        if let Some(tail) = &case.url_append {
            inputs.url.push_str(tail);
        }
        if let Some(b) = &case.form_body {
            inputs.form_body = Some(b.clone());
        }
        let signed_with = inputs.clone();
        if let Some(s) = &case.consumer_secret {
            inputs.consumer_secret = Some(s.clone());
        }
        if let Some(s) = &case.token_secret {
            inputs.token_secret = Some(s.clone());
        }
        let now = case.now.unwrap_or_else(|| {
            signed_with
                .timestamp
                .as_deref()
                .and_then(|t| t.parse().ok())
                .unwrap_or(1)
        });
        let verifier = verifier(&inputs);
        let r = received(&inputs, &header);
        if case.twice {
            block(verifier.verify_at(&r, now)).unwrap_or_else(|e| panic!("{}: {e}", v.id));
        }
        let e = block(verifier.verify_at(&r, now))
            .map(|_| ())
            .expect_err(&v.id);
        let kind = format!("{:?}", e.reason());
        let want = v.expected["reason"].as_str().unwrap();
        assert!(
            kind.starts_with(want) && !kind[want.len()..].starts_with(char::is_alphanumeric),
            "{}: {kind}, expected {want}",
            v.id
        );
        assert_eq!(
            e.problem(),
            v.expected["problem"].as_str().unwrap(),
            "{}",
            v.id
        );
        if let Some(offset) = v.expected.get("offset") {
            let Reason::Malformed(err) = e.reason() else {
                panic!("{}", v.id)
            };
            assert_eq!(
                err.offset(),
                Some((Part::Header, offset.as_u64().unwrap() as usize)),
                "{}",
                v.id
            );
        }
    }
}

mod never_panics {
    //! Whatever a client sends, the verifier answers (never panics).

    use super::*;
    use proptest::prelude::*;

    fn header_text() -> impl Strategy<Value = String> {
        // Pieces of real headers, shuffled and cut, with stray bytes.
        let piece = prop_oneof![
            Just("OAuth ".to_owned()),
            Just("oauth_consumer_key=\"k\"".to_owned()),
            Just("oauth_signature=\"a%2Bb%3D\"".to_owned()),
            Just("oauth_signature_method=\"HMAC-SHA1\"".to_owned()),
            Just("oauth_nonce=\"abcdefgh\"".to_owned()),
            Just("oauth_timestamp=\"1\"".to_owned()),
            Just("realm=\"r\"".to_owned()),
            Just(", ".to_owned()),
            "[\\x00-\\x7f]{0,4}",
            "\\PC{0,3}",
        ];
        proptest::collection::vec(piece, 0..12).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

        #[test]
        fn any_header_url_and_body_get_an_answer(
            header in header_text(),
            url in prop_oneof![Just("https://h/p?a=1".to_owned()), "\\PC{0,12}", "https://h/[ -~]{0,10}"],
            body in proptest::collection::vec(any::<u8>(), 0..16),
            form in any::<bool>(),
            now in any::<u64>(),
        ) {
            let (_, inputs) = x_docs();
            let verifier = verifier(&inputs);
            let mut r = Received::new("POST", url.as_str()).authorization_header(&header);
            if form {
                r = r.form_body(&body);
            } else {
                r = r.body(Some("text/plain"), &body);
            }
            let _ = block(verifier.verify_at(&r, now));
        }
    }
}
