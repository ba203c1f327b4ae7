//! `http::Request` signing against a real OAuth 1.0a provider on loopback
//! (`tests/provider/server.py`; its signature checks are Python oauthlib's).
//!
//! The three-legged flow here goes through the transport-independent API
//! (`Signer::authorization` with `OAuthRequest::callback` / `verifier`, and
//! the response parsers) over a plain client; the resource calls are
//! `http::Request`s signed in place, then sent as they are.

#![cfg(feature = "reqwest")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::Duration;

use common::provider::{Provider, ACCESS_SECRET, ACCESS_TOKEN, CONSUMER_KEY, CONSUMER_SECRET};
use oauth1_signer::{
    client::sign_reqwest_request,
    client::{sign_http_request, trace_http_request, HttpError, HttpOptions},
    flow::{authorize_url, TemporaryCredentials, TokenCredentials},
    pipeline::parse_authorization_header,
    Credentials, OAuthRequest, Signer,
};
use serde_json::{json, Value};

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

/// Sends an `http::Request` as it is; the status and the body as JSON.
async fn send<B: Into<reqwest::Body>>(request: http::Request<B>) -> (u16, Value) {
    let request = reqwest::Request::try_from(request).unwrap();
    let response = client().execute(request).await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|_| json!({ "text": text })),
    )
}

/// A `POST` with no body, its header from the string API.
async fn post_signed(url: &str, header: String) -> (u16, Vec<u8>) {
    let response = client()
        .post(url)
        .header("authorization", header)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.bytes().await.unwrap().to_vec())
}

#[tokio::test]
async fn the_flow_with_any_client_then_signed_http_requests() {
    let provider = Provider::start(&[]);
    let base = &provider.base;
    let consumer = Credentials::new(CONSUMER_KEY, CONSUMER_SECRET);

    // §2.1, signed with the client credentials and oauth_callback=oob.
    let url = format!("{base}/oauth/request_token");
    let header = Signer::new(consumer.clone())
        .authorization_header(&OAuthRequest::post(&url).callback("oob"))
        .unwrap();
    let (status, body) = post_signed(&url, header).await;
    assert_eq!(status, 200);
    let temporary = TemporaryCredentials::parse(&body).unwrap();
    // §2.2: the provider's stand-in for the user shows the PIN.
    let page = authorize_url(&format!("{base}/oauth/authorize"), temporary.token());
    let pin = client()
        .get(page)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    // §2.3, signed with the temporary credentials and oauth_verifier.
    let url = format!("{base}/oauth/access_token");
    let header = Signer::new(temporary.credentials(&consumer))
        .authorization_header(&OAuthRequest::post(&url).oauth_verifier(pin.trim()))
        .unwrap();
    let (status, body) = post_signed(&url, header).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let tokens = TokenCredentials::parse(&body).unwrap();
    assert_eq!(tokens.param("screen_name"), Some("oauth1_signer_test"));
    let signer = Signer::new(tokens.credentials(&consumer));

    // GET with a query.
    let mut get = http::Request::get(format!("{base}/2/tweets?ids=1%7C2&tweet.fields=created_at"))
        .body(Vec::new())
        .unwrap();
    sign_http_request(&signer, &mut get, HttpOptions::new()).unwrap();
    let (status, body) = send(get).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["oauth_token"], tokens.token());
    assert_eq!(
        body["query"],
        json!([["ids", "1|2"], ["tweet.fields", "created_at"]])
    );

    // POST with a form body, signed; the trace shows the body's parameter.
    let mut form = http::Request::post(format!("{base}/1.1/statuses/update.json"))
        .header(
            "content-type",
            "application/x-www-form-urlencoded; charset=utf-8",
        )
        .body(b"status=caf%C3%A9+%26+cr%C3%AApes".to_vec())
        .unwrap();
    let trace = trace_http_request(&signer, &mut form, HttpOptions::new()).unwrap();
    assert!(
        trace
            .normalized_params
            .ends_with("&status=caf%C3%A9%20%26%20cr%C3%AApes"),
        "{}",
        trace.normalized_params
    );
    assert_eq!(
        form.headers()["authorization"].to_str().unwrap(),
        trace.authorization_header
    );
    let (status, body) = send(form).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["form"], json!([["status", "café & crêpes"]]));

    // POST with a JSON body: not signed; with and without oauth_body_hash.
    let hashed = HttpOptions::new().with_body_hash(oauth1_signer::BodyHash::new(
        oauth1_signer::BodyHashPolicy::UnlessForm,
        oauth1_signer::BodyHashAlgorithm::FollowMethod,
    ));
    for options in [HttpOptions::new(), hashed] {
        let mut tweet = http::Request::post(format!("{base}/2/tweets"))
            .header("content-type", "application/json")
            .body(r#"{"text":"hello"}"#.to_string())
            .unwrap();
        sign_http_request(&signer, &mut tweet, options).unwrap();
        let sent =
            parse_authorization_header(tweet.headers()["authorization"].to_str().unwrap()).unwrap();
        let hash = sent.iter().find(|(n, _)| n == "oauth_body_hash");
        if options.body_hash().applies(false) {
            // base64(SHA-1({"text":"hello"})).
            assert_eq!(hash.unwrap().1, "fMRfBMPm9YgfwyOi2N6rEyw4SSI=");
        } else {
            assert!(hash.is_none());
        }
        let (status, body) = send(tweet).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["json"], json!({"text": "hello"}));
    }

    // Sent twice, each time signed again: a fresh nonce, both accepted. The
    // same header twice is a replay.
    let make = || {
        http::Request::delete(format!("{base}/2/tweets/1"))
            .body(Vec::new())
            .unwrap()
    };
    let mut first = make();
    sign_http_request(&signer, &mut first, HttpOptions::new()).unwrap();
    let header = first.headers()["authorization"].clone();
    let mut again = make();
    sign_http_request(&signer, &mut again, HttpOptions::new()).unwrap();
    assert_ne!(again.headers()["authorization"], header);
    assert_eq!(send(first).await.0, 200);
    assert_eq!(send(again).await.0, 200);
    let mut replay = make();
    replay.headers_mut().insert("authorization", header);
    let (status, body) = send(replay).await;
    assert_eq!(status, 401);
    assert_eq!(
        body["oauthlib_error"],
        "nonce+timestamp already used (replay)"
    );

    // A wrong token secret: refused.
    let wrong = Signer::new(
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(ACCESS_TOKEN, "not-the-secret"),
    );
    let mut get = http::Request::get(format!("{base}/2/users/me"))
        .body(Vec::new())
        .unwrap();
    sign_http_request(&wrong, &mut get, HttpOptions::new()).unwrap();
    let (status, body) = send(get).await;
    assert_eq!(status, 401);
    assert_eq!(body["oauthlib_error"], "signature mismatch");
    // The right one: accepted.
    let right = Signer::new(
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(ACCESS_TOKEN, ACCESS_SECRET),
    );
    let mut get = http::Request::get(format!("{base}/2/users/me"))
        .body(Vec::new())
        .unwrap();
    sign_http_request(&right, &mut get, HttpOptions::new()).unwrap();
    assert_eq!(send(get).await.0, 200);
}

/// `http::Uri` holds more bytes raw than `url` does (`{`, `}`, `\`, `` ` ``
/// and non-ASCII text in a query; hyper sends them so): each is
/// signed as its escape, and verified. (reqwest re-serialises the URI
/// through `url`, which escapes some of them: the same parameters.)
#[tokio::test]
async fn raw_query_bytes_of_an_http_uri_are_signed_as_sent() {
    let provider = Provider::start(&["--encode-raw-query"]);
    let signer = Signer::new(
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(ACCESS_TOKEN, ACCESS_SECRET),
    );
    for (raw, value) in [
        ("{x}", "{x}"),
        ("a\\b", "a\\b"),
        ("`|^[]", "`|^[]"),
        ("café", "café"),
    ] {
        let uri: http::Uri = format!("{}/2/q?k={raw}", provider.base).parse().unwrap();
        assert!(uri.query().unwrap().contains(raw), "{uri}");
        let mut request = http::Request::get(uri).body(Vec::new()).unwrap();
        sign_http_request(&signer, &mut request, HttpOptions::new()).unwrap();
        let (status, body) = send(request).await;
        assert_eq!(status, 200, "{raw}: {body}");
        assert_eq!(body["query"], json!([["k", value]]), "{raw}");
    }
}

/// A `reqwest::Url` has no length limit, but `http::Uri` (and so the
/// client that sends it) has: such a request is refused when it is signed,
/// by its length and the limit, never by quoting its 70 KB URL back.
#[test]
fn a_url_too_long_to_send_is_refused_by_its_length() {
    let url = format!("https://api.x.com/2/tweets?q={}", "a".repeat(70_000));
    let mut request =
        reqwest::Request::new(reqwest::Method::GET, reqwest::Url::parse(&url).unwrap());
    let signer = Signer::new(Credentials::new(CONSUMER_KEY, CONSUMER_SECRET));
    let e = sign_reqwest_request(&signer, &mut request, HttpOptions::new()).unwrap_err();
    assert_eq!(
        e,
        HttpError::UriTooLong {
            len: url.len(),
            max: 65534
        }
    );
    let text = e.to_string();
    assert!(text.len() < 200 && text.contains("70029"), "{text}");
    assert!(request.headers().get("authorization").is_none());
}
