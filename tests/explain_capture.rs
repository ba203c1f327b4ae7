//! `explain::CaptureExplainer`, the one call that explains a captured request, given only
//! the secrets: the consumer key, token, signature method, realm, nonce, timestamp and
//! version are the capture's.
//!
//! - `fixtures/captures/generators.json`: requests oauthlib signed, as each generator writes
//!   them; each control (no mistake) matches, each mistake is named.
//! - `fixtures/explain.json`: the X docs' and RFC 5849's requests, each with the header of a
//!   client that made one catalogued mistake (each case cites its source); sent as raw
//!   HTTP/1.1 with that header, every mistake a signature alone can show is named first.
//! - `fixtures/signatures.json`'s `oauthlib-client-hmac-sha256`: oauthlib's HMAC-SHA256
//!   request with the header its test file publishes matches, with no cause about the method.
//!
//! A value pinned that the capture contradicts is said as a contradiction, not a cause.

#![cfg(all(feature = "capture", feature = "explain"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use oauth1_signer::capture::{parse_har, parse_http, Captured, Curl, Shell};
use oauth1_signer::explain::{CaptureExplainer, CaptureExplanation, Cause};
use oauth1_signer::{RequestSpec, Secret};
use serde_json::Value;

fn cases(name: &str) -> Vec<Value> {
    let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["cases"]
        .as_array()
        .or(doc["vectors"].as_array())
        .unwrap()
        .clone()
}

/// Only the secrets, as `oauth1 explain --consumer-secret CS --token-secret TS` gives them.
fn secrets_alone(consumer_secret: &str, token_secret: Option<&str>) -> RequestSpec {
    let mut ours = RequestSpec::default();
    ours.consumer_secret = Some(Secret::new(consumer_secret));
    ours.token_secret = token_secret.map(Secret::new);
    ours
}

fn explain(captured: &Captured, ours: &RequestSpec) -> CaptureExplanation {
    CaptureExplainer::new(captured, ours)
        .explain()
        .unwrap()
        .expect("the capture carries OAuth 1.0a")
}

fn codes(x: &CaptureExplanation) -> Vec<&'static str> {
    x.explanation
        .findings
        .iter()
        .map(|f| f.cause.as_str())
        .collect()
}

/// A generators.json case's capture, parsed as `oauth1 explain` parses it.
fn captured(case: &Value) -> Captured {
    let text = case["text"].as_str().unwrap();
    match case["format"].as_str().unwrap() {
        "curl" => {
            let shell = Shell::Auto.resolve(text);
            Curl::new().with_shell(shell).parse(text).unwrap()
        }
        "har" => {
            let har = parse_har(text).unwrap();
            let entry = case["entry"].as_u64().map(|n| n as usize);
            har.choose(entry).unwrap()
        }
        _ => parse_http(text.as_bytes(), case["scheme"].as_str().unwrap()).unwrap(),
    }
}

#[test]
fn each_generated_capture_is_explained_with_the_secrets_alone() {
    let mut controls = 0;
    for case in cases("captures/generators.json") {
        let id = case["id"].as_str().unwrap();
        if case["expect_warning"].is_string() {
            // The generator sent something else than it signed: not a capture of it.
            continue;
        }
        let c = &case["credentials"];
        let ours = secrets_alone(
            c["consumer_secret"].as_str().unwrap(),
            c["token_secret"].as_str(),
        );
        let x = explain(&captured(&case), &ours);
        assert!(x.contradictions.is_empty(), "{id}: {:?}", x.contradictions);
        // The key, the token and the method are the capture's: never a cause.
        for not in [
            "consumer-key-differs",
            "token-differs",
            "signature-method-differs",
        ] {
            assert!(!codes(&x).contains(&not), "{id}: {:?}", codes(&x));
        }
        assert_eq!(
            x.spec.consumer_key,
            c["consumer_key"].as_str().unwrap(),
            "{id}"
        );
        match case["mistake"].as_str() {
            // The clock's mistake is not the signature's: it verifies.
            None | Some("clock") => {
                assert!(x.matches(), "{id}: {:?}", codes(&x));
                controls += 1;
            }
            Some(mistake) => {
                assert!(!x.matches(), "{id}");
                assert_eq!(codes(&x).first(), Some(&mistake), "{id}: {:?}", codes(&x));
            }
        }
    }
    assert!(controls >= 10, "{controls}");
}

/// An explain.json case as a proxy saw it: its request (with the JSON body it sent
/// unsigned, if any), with their header.
fn raw_http(inputs: &Value, unsigned_body: Option<&str>, header: &str) -> String {
    let method = inputs["method"].as_str().unwrap();
    let url = inputs["url"].as_str().unwrap();
    let rest = url.split_once("://").unwrap().1;
    let host = rest.split(['/', '?']).next().unwrap();
    let mut text =
        format!("{method} {url} HTTP/1.1\r\nHost: {host}\r\nAuthorization: {header}\r\n");
    let body = match unsigned_body {
        Some(json) => Some(("application/json", json)),
        None => inputs["form_body"]
            .as_str()
            .map(|form| ("application/x-www-form-urlencoded", form)),
    };
    if let Some((media, body)) = body {
        text.push_str(&format!(
            "Content-Type: {media}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ));
    } else {
        text.push_str("\r\n");
    }
    text
}

#[test]
fn each_mistake_a_signature_shows_is_named_from_a_raw_request_with_the_secrets_alone() {
    let mut named = 0;
    for case in cases("explain.json") {
        let id = case["id"].as_str().unwrap();
        let cause = case["cause"].as_str().unwrap();
        // What only their base string shows (a parameter the signature search cannot
        // guess), and the nonce and timestamp, which a capture's own are.
        if case["named_from"]["s"] != true
            || ["nonce-differs", "timestamp-differs"].contains(&cause)
        {
            continue;
        }
        let inputs = &case["inputs"];
        let header = case["theirs"]["authorization_header"].as_str().unwrap();
        let text = raw_http(inputs, case["unsigned_body"].as_str(), header);
        let scheme = inputs["url"].as_str().unwrap().split(':').next().unwrap();
        let captured = parse_http(text.as_bytes(), &scheme.to_ascii_lowercase()).unwrap();
        // A case without a consumer secret signs with an empty one.
        let ours = secrets_alone(
            inputs["consumer_secret"].as_str().unwrap_or_default(),
            inputs["token_secret"].as_str(),
        );
        let x = explain(&captured, &ours);
        if cause == "oauth-version-mismatch" {
            // Their header sends no oauth_version and their signature leaves it out: as
            // sent, the request is right (RFC 5849 §3.1: oauth_version is OPTIONAL).
            assert!(x.matches(), "{id}: {:?}", codes(&x));
            continue;
        }
        assert!(!x.matches(), "{id}");
        assert_eq!(codes(&x).first(), Some(&cause), "{id}: {:?}", codes(&x));
        named += 1;
    }
    assert!(named >= 20, "{named}");
}

/// oauthlib's HMAC-SHA256 request, its header as oauthlib's test publishes it, and an
/// empty consumer secret (its signing key is "&").
fn hmac_sha256() -> (Captured, RequestSpec) {
    let v = cases("signatures.json")
        .into_iter()
        .find(|v| v["id"] == "oauthlib-client-hmac-sha256")
        .unwrap();
    let header = v["published"]["header"].as_str().unwrap();
    let text = format!("GET / HTTP/1.1\r\nHost: example.com\r\nAuthorization: {header}\r\n\r\n");
    (
        parse_http(text.as_bytes(), "http").unwrap(),
        secrets_alone("", None),
    )
}

#[test]
fn an_hmac_sha256_capture_matches_with_no_cause_about_its_method() {
    let (captured, ours) = hmac_sha256();
    let x = explain(&captured, &ours);
    assert!(x.matches(), "{:?}", codes(&x));
    assert!(x.explanation.findings.is_empty());
    assert_eq!(x.spec.signature_method.as_deref(), Some("HMAC-SHA256"));
    assert!(x.taken.contains(&"oauth_signature_method"), "{:?}", x.taken);
    // Pinned in another case, the same method: no contradiction.
    let mut pinned = ours.clone();
    pinned.signature_method = Some("hmac-sha256".to_owned());
    assert!(explain(&captured, &pinned).matches());
}

#[test]
fn a_pinned_value_the_capture_contradicts_is_said_as_such_not_as_a_cause() {
    let (captured, ours) = hmac_sha256();
    let mut pinned = ours.clone();
    pinned.consumer_key = "another_key".to_owned();
    pinned.signature_method = Some("HMAC-SHA1".to_owned());
    pinned.token = Some("a-token".to_owned());
    let x = explain(&captured, &pinned);
    assert!(!x.matches());
    let said: Vec<(&str, Option<&str>, Option<&str>)> = x
        .contradictions
        .iter()
        .map(|c| (c.name, c.pinned.as_deref(), c.captured.as_deref()))
        .collect();
    assert_eq!(
        said,
        [
            (
                "oauth_consumer_key",
                Some("another_key"),
                Some("client_key")
            ),
            ("oauth_token", Some("a-token"), None),
            (
                "oauth_signature_method",
                Some("HMAC-SHA1"),
                Some("HMAC-SHA256")
            ),
        ]
    );
    assert_eq!(
        x.contradictions[0].to_string(),
        "oauth_consumer_key is pinned to \"another_key\" but the capture was signed with \
         \"client_key\""
    );
    // The capture's values are signed: its signature still matches, and no cause
    // repeats what the contradictions say.
    assert!(x.explanation.matches, "{:?}", codes(&x));
    assert!(!x.explanation.names(Cause::SignatureMethodDiffers));
    // A version pinned absent, where the capture sends one.
    let mut no_version = ours;
    no_version.version = false;
    let x = CaptureExplainer::new(&captured, &no_version)
        .version_pinned(true)
        .explain()
        .unwrap()
        .unwrap();
    assert_eq!(x.contradictions.len(), 1);
    assert_eq!(x.contradictions[0].captured.as_deref(), Some("1.0"));
}

#[test]
fn a_capture_without_oauth_is_none_and_a_har_answer_gives_the_clock() {
    let plain = parse_http(b"GET /x HTTP/1.1\r\nHost: h\r\n\r\n", "https").unwrap();
    let ours = secrets_alone("cs", None);
    assert!(CaptureExplainer::new(&plain, &ours)
        .explain()
        .unwrap()
        .is_none());
    // Firefox's HAR of X's 135 answer: the clock is off by the offset the fixture says.
    let case = cases("captures/generators.json")
        .into_iter()
        .find(|c| c["id"] == "firefox-har-timestamp-out-of-bounds")
        .unwrap();
    let c = &case["credentials"];
    let ours = secrets_alone(
        c["consumer_secret"].as_str().unwrap(),
        c["token_secret"].as_str(),
    );
    let x = explain(&captured(&case), &ours);
    let answer = x.answer.as_ref().unwrap();
    assert_eq!(
        answer.errors[0].code,
        case["answer"]["code"].as_str().unwrap()
    );
    assert_eq!(
        x.clock.map(|c| c.offset),
        case["answer"]["clock_offset_seconds"].as_i64()
    );
}
