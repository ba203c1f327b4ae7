//! Without an async runtime: the three-legged flow (RFC 5849 §2) and an
//! OAuth Echo, over a blocking HTTP/1.1 client written on `std::net` (no
//! tokio, no reqwest), against the loopback provider, whose checks are
//! Python oauthlib's (`tests/provider/`); and requests verified with
//! `Verifier::verify_blocking`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use common::provider::{Provider, CONSUMER_KEY, CONSUMER_SECRET};
use oauth1_signer::flow::{authorize_url, TemporaryCredentials, TokenCredentials};
use oauth1_signer::provider::echo::EchoHeaders;
use oauth1_signer::verify::{MemoryNonceStore, Reason, Received, StaticSecrets, Verifier};
use oauth1_signer::{Credentials, OAuthRequest, Signer};

/// Sends one request on its own connection and reads the answer to the
/// end: its status and body. The loopback provider answers with a
/// `Content-Length` and closes the connection.
fn send(url: &str, method: &str, authorization: Option<&str>) -> (u16, Vec<u8>) {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut stream = TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if let Some(a) = authorization {
        head.push_str(&format!("Authorization: {a}\r\n"));
    }
    if method == "POST" {
        head.push_str("Content-Length: 0\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).unwrap();
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let status = std::str::from_utf8(&answer[9..12])
        .unwrap()
        .parse()
        .unwrap();
    (status, answer[end + 4..].to_vec())
}

#[test]
fn the_flow_then_an_echo_with_a_blocking_client() {
    let provider = Provider::start(&[]);
    let base = &provider.base;
    let consumer = Credentials::new(CONSUMER_KEY, CONSUMER_SECRET);

    // §2.1: temporary credentials, signed with oauth_callback=oob.
    let url = format!("{base}/oauth/request_token");
    let header = Signer::new(consumer.clone())
        .authorization_header(&OAuthRequest::post(&url).callback("oob"))
        .unwrap();
    let (status, body) = send(&url, "POST", Some(&header));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let temporary = TemporaryCredentials::parse(&body).unwrap();
    // §2.2: the provider's stand-in for the user answers the PIN.
    let page = authorize_url(&format!("{base}/oauth/authorize"), temporary.token());
    let (status, pin) = send(&page, "GET", None);
    assert_eq!(status, 200);
    let pin = String::from_utf8(pin).unwrap();
    // §2.3: token credentials, signed with the temporary ones and the PIN.
    let url = format!("{base}/oauth/access_token");
    let header = Signer::new(temporary.credentials(&consumer))
        .authorization_header(&OAuthRequest::post(&url).oauth_verifier(pin.trim()))
        .unwrap();
    let (status, body) = send(&url, "POST", Some(&header));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let tokens = TokenCredentials::parse(&body).unwrap();
    assert_eq!(tokens.param("screen_name"), Some("oauth1_signer_test"));

    // An Echo of the user's identity call: the delegator checks the URL
    // against its own list and sends the request as given; oauthlib's 200
    // is the proof.
    let identity = format!("{base}/1.1/account/verify_credentials.json");
    let echo = EchoHeaders::sign(&Signer::new(tokens.credentials(&consumer)), &identity).unwrap();
    let (url, authorization) =
        EchoHeaders::trusted(echo.provider(), echo.authorization(), &[identity.as_str()]).unwrap();
    let (status, body) = send(url, "GET", Some(authorization));
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let answer: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(answer["oauth_token"], tokens.token());
    // The same header sent elsewhere (another path) is refused by oauthlib:
    // it was signed for the identity URL alone.
    let (status, _) = send(
        &format!("{base}/1.1/statuses/home_timeline.json"),
        "GET",
        Some(authorization),
    );
    assert_eq!(status, 401);
}

#[test]
fn a_request_is_verified_on_the_calling_thread() {
    let credentials = Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token("tk", "ts");
    let verifier = Verifier::builder(
        StaticSecrets::new(credentials.clone()),
        MemoryNonceStore::with_capacity(4),
    )
    .build()
    .unwrap();
    let url = "https://api.example.com/1.1/statuses/update.json?include_entities=true";
    let request = OAuthRequest::post(url).form_body(b"status=hi");
    let header = Signer::new(credentials)
        .authorization_header(&request)
        .unwrap();
    let r = Received::new("POST", url)
        .authorization_header(&header)
        .form_body(b"status=hi");
    assert_eq!(verifier.verify_blocking(&r).unwrap().token(), Some("tk"));
    let replay = verifier.verify_blocking(&r).unwrap_err();
    assert_eq!(replay.reason(), &Reason::NonceUsed);
    let tampered = Received::new("POST", url)
        .authorization_header(&header)
        .form_body(b"status=ho");
    assert_eq!(
        verifier.verify_blocking(&tampered).unwrap_err().reason(),
        &Reason::SignatureInvalid
    );
}
