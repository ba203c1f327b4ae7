//! The three transmissions of RFC 5849 §3.5 at the HTTP edges (`http` and
//! the reqwest middleware), against a real provider on loopback
//! (`tests/provider/server.py`, whose checks are Python oauthlib's: it reads
//! the protocol parameters wherever they are): the header (§3.5.1), the
//! form body (§3.5.2) and the query (§3.5.3) each verify, the same request
//! signed the same way in each.

#![cfg(feature = "reqwest")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::time::Duration;

use common::provider::{Provider, ACCESS_SECRET, ACCESS_TOKEN, CONSUMER_KEY, CONSUMER_SECRET};
use oauth1_signer::client::{client_builder, OAuth1Middleware};
use oauth1_signer::client::{sign_http_request, HttpError, HttpOptions};
use oauth1_signer::{Credentials, Signer, Transmission};
use serde_json::Value;

fn signer() -> Signer {
    Signer::new(
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(ACCESS_TOKEN, ACCESS_SECRET),
    )
}

fn client() -> reqwest::Client {
    client_builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

async fn send(request: http::Request<Vec<u8>>) -> (u16, Value) {
    let request = reqwest::Request::try_from(request).unwrap();
    let response = client().execute(request).await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

const FORM: &str = "application/x-www-form-urlencoded";

#[tokio::test]
async fn an_http_request_verifies_in_each_transmission() {
    let provider = Provider::start(&[]);
    let base = &provider.base;
    for transmission in [
        Transmission::Header,
        Transmission::FormBody,
        Transmission::Query,
    ] {
        let mut post = http::Request::post(format!("{base}/1.1/statuses/update.json?x=%7E1"))
            .header("content-type", FORM)
            .body(b"status=caf%C3%A9+%26+cr%C3%AApes".to_vec())
            .unwrap();
        let options = HttpOptions::new().with_transmission(transmission);
        sign_http_request(&signer(), &mut post, options).unwrap();
        // Where the parameters went, and nowhere else.
        let in_header = post.headers().contains_key("authorization");
        let in_query = post
            .uri()
            .query()
            .unwrap_or_default()
            .contains("oauth_signature=");
        let in_body = String::from_utf8_lossy(post.body()).contains("oauth_signature=");
        assert_eq!(
            (in_header, in_body, in_query),
            (
                transmission == Transmission::Header,
                transmission == Transmission::FormBody,
                transmission == Transmission::Query
            ),
            "{transmission}"
        );
        let (status, body) = send(post).await;
        assert_eq!(status, 200, "{transmission}: {body}");
        assert_eq!(body["oauth_token"], ACCESS_TOKEN, "{transmission}");
    }
    // A GET has no form to carry them.
    let mut get = http::Request::get(format!("{base}/2/users/me"))
        .body(Vec::new())
        .unwrap();
    let options = HttpOptions::new().with_transmission(Transmission::FormBody);
    assert_eq!(
        sign_http_request(&signer(), &mut get, options).unwrap_err(),
        HttpError::NotAForm
    );
    // A body type that cannot be rewritten says so.
    let mut fixed = http::Request::post(format!("{base}/1.1/statuses/update.json"))
        .header("content-type", FORM)
        .body(&b"status=hi"[..])
        .unwrap();
    assert_eq!(
        sign_http_request(&signer(), &mut fixed, options).unwrap_err(),
        HttpError::UnwritableBody
    );
}

#[tokio::test]
async fn the_middleware_sends_them_where_it_is_told_and_re_signs_a_redirect() {
    let provider = Provider::start(&[]);
    let base = &provider.base;
    for transmission in [Transmission::Query, Transmission::FormBody] {
        let client = reqwest_middleware::ClientBuilder::new(client())
            .with(
                OAuth1Middleware::new(signer())
                    .with_options(HttpOptions::new().with_transmission(transmission)),
            )
            .build();
        let response = client
            .post(format!("{base}/1.1/statuses/update.json"))
            .header("content-type", FORM)
            .body("status=hello")
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        let body: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
        assert_eq!(status, 200, "{transmission}: {body}");
        assert_eq!(body["oauth_token"], ACCESS_TOKEN);
    }
    // In the query, a same-origin redirect is signed afresh for its own URL
    // (the first URL's parameters are not carried over to be signed twice).
    let client = reqwest_middleware::ClientBuilder::new(client())
        .with(
            OAuth1Middleware::new(signer())
                .with_options(HttpOptions::new().with_transmission(Transmission::Query)),
        )
        .build();
    let response = client
        .get(format!("{base}/oauth/redirect?to=/2/users/me"))
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    assert_eq!(status, 200, "{text}");
}
