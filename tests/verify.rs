//! The verifier (`oauth1_signer::verify`) against requests signed by others:
//! every public request vector in `fixtures/signatures.json` (their headers
//! and signatures come from the published sources, recomputed by oauthlib and
//! a standard-library reference, never by this crate) verifies at its own
//! timestamp; moved to the query or the form body (§3.5.2–3) it verifies
//! too; each kind of tampering is rejected with its own reason. So are
//! replays, timestamps outside the window, malformed, duplicated or missing
//! parameters, a wrong body hash and every case of `fixtures/verify.json`
//! (with its reason and its `oauth_problem` answer); whatever arrives gets
//! an answer, never a panic. The `http` edge and the tower layer are in
//! `tests/verify_layer.rs`, requests signed by the peers in
//! `tests/verify_peers.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::Duration;

use common::verify::{
    block, body_hash_request, expected_header, received, request_vectors, secrets, timestamp,
    verifier, x_docs, TestStore,
};
use common::{load, RequestInputs};
use oauth1_signer::verify::{Reason, Received, StaticSecrets, Verified, Verifier};
use oauth1_signer::{
    pipeline::append_to_query, pipeline::encode_pairs, pipeline::parse_authorization_header, Part,
    SignatureMethod,
};
use serde_json::Value;

/// oauthlib's two unicode-body vectors sign the timestamp "abc", which is
/// not a timestamp (RFC 5849 §3.3: a positive integer): a verifier refuses it.
fn has_a_timestamp(inputs: &RequestInputs) -> bool {
    inputs
        .timestamp
        .as_deref()
        .is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
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
        if let Some(Value::String(h)) = v.published.as_ref().and_then(|p| p.get("header"))
            && v.published_header_params_match == Some(true)
        {
            headers.push(h.clone());
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
fn without_an_async_runtime_the_x_docs_request_verifies_and_its_replay_does_not() {
    let (v, inputs) = x_docs();
    let (header, t) = (expected_header(&v), timestamp(&inputs));
    let store = oauth1_signer::verify::MemoryNonceStore::with_capacity(8);
    let verifier = Verifier::builder(secrets(&inputs), store).build().unwrap();
    let r = received(&inputs, &header);
    let verified = verifier.verify_blocking_at(&r, t).unwrap();
    assert_eq!(verified.consumer_key(), "xvz1evFS4wEEPTGEFPHBog");
    let replay = verifier.verify_blocking_at(&r, t + 1).unwrap_err();
    assert_eq!(replay.reason(), &Reason::NonceUsed);
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
            oauth1_signer::text::percent_encode_str(nonce)
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
    assert_eq!(ok.params().len(), 8);
    assert_eq!(
        ok.params().last().unwrap(),
        (
            "status".into(),
            "Hello Ladies + Gentlemen, a signed OAuth request!".into()
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
        behind
            .request_url(&Received::new("GET", "http://10.0.0.1:8080/a?b=1"))
            .unwrap(),
        "https://api.x.com/v/a?b=1"
    );
    // An origin-form target whose query holds a URL is a path, not a scheme.
    assert_eq!(
        behind
            .request_url(&Received::new("GET", "/cb?next=https://x.test/y"))
            .unwrap(),
        "https://api.x.com/v/cb?next=https://x.test/y"
    );
    // A target that is neither a path nor absolute is refused before it is
    // joined: `x` after `https://api.x.com/v` would be `https://api.x.com/vx`,
    // and after a base URL without a path, another host (`api.x.comx`).
    let hostname_only = Verifier::builder(secrets(&inputs), TestStore::default())
        .public_base_url("https://api.x.com")
        .build()
        .unwrap();
    for v in [&behind, &hostname_only] {
        for target in [
            "x",
            ".evil.example/a",
            ":8443/a",
            "*",
            "api.x.com:443",
            "://x/",
        ] {
            match v.request_url(&Received::new("GET", target)) {
                Err(Reason::Malformed(e)) => {
                    assert!(e.to_string().contains("neither a path"), "{target}: {e}")
                }
                other => panic!("{target}: {other:?}"),
            }
        }
    }
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

#[test]
fn a_head_is_verified_once_when_its_body_is_not_signed() {
    // The X docs request's header, for a GET that carries no body: the
    // head alone verifies. A form body or a body hash needs the body.
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let verifier = verifier(&inputs);
    let form = Received::new("POST", &inputs.url)
        .authorization_header(&header)
        .body(Some("application/x-www-form-urlencoded"), b"");
    assert!(block(verifier.verify_head(&form)).unwrap().is_none());
    let hashed = Received::new("PUT", &inputs.url).authorization_header(
        "OAuth oauth_consumer_key=\"k\", oauth_body_hash=\"x\", oauth_signature=\"s\"",
    );
    assert!(block(verifier.verify_head(&hashed)).unwrap().is_none());
    // Without a form body the X docs signature no longer matches: refused
    // from the head, as verify would refuse it.
    let head = Received::new("POST", &inputs.url).authorization_header(&header);
    let e = block(verifier.verify_head(&head)).unwrap_err();
    assert_eq!(
        e.reason(),
        block(verifier.verify(&head.clone().body_not_read()))
            .unwrap_err()
            .reason()
    );
}
