//! The reqwest middleware and the three-legged flow against a real OAuth
//! 1.0a provider on loopback: `tests/provider/server.py`, whose every
//! signature check is Python oauthlib's. A server that accepts anything
//! would not count, so each test also checks that it refuses what it must.

#![cfg(feature = "reqwest")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::Mutex;
use std::time::Duration;

use common::provider::{Provider, ACCESS_SECRET, ACCESS_TOKEN, CONSUMER_KEY, CONSUMER_SECRET};
use http::Extensions;
use oauth1_signer::{
    client::{client_builder, OAuth1Middleware, RedirectError},
    flow::{authorize_url, request_temporary_credentials, request_token_credentials, FlowError},
    pipeline::parse_authorization_header,
    text::percent_encode_str,
    Credentials, Signer,
};
use reqwest_middleware::{ClientBuilder, ClientWithMiddleware, Middleware, Next};
use serde_json::{json, Value};

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

fn consumer() -> Credentials {
    Credentials::new(CONSUMER_KEY, CONSUMER_SECRET)
}

fn signed_client(signer: Signer) -> ClientWithMiddleware {
    ClientBuilder::new(client())
        .with(OAuth1Middleware::new(signer))
        .build()
}

/// The status and the JSON body of a response.
async fn json_of(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    let value = serde_json::from_str(&text).unwrap_or_else(|_| json!({ "text": text }));
    (status, value)
}

/// Steps 1-3 of RFC 5849 §2 through the library's reqwest functions, the
/// user's approval stood in for by fetching the PIN the authorize page shows.
async fn login(provider: &Provider) -> Credentials {
    let base = &provider.base;
    let temporary = request_temporary_credentials(
        &client(),
        &consumer(),
        &format!("{base}/oauth/request_token"),
        "oob",
    )
    .await
    .unwrap();
    assert_eq!(temporary.token().len(), 30);
    let page = authorize_url(&format!("{base}/oauth/authorize"), temporary.token());
    let pin = client()
        .get(&page)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let pin = pin.trim();
    assert_eq!(pin.len(), 7, "{pin}");
    // A wrong PIN is refused, with the provider's reason.
    let wrong = request_token_credentials(
        &client(),
        &consumer(),
        &temporary,
        &format!("{base}/oauth/access_token"),
        "0000000",
    )
    .await
    .unwrap_err();
    match &wrong {
        FlowError::Provider {
            status: 401,
            message,
        } => {
            assert!(message.contains("wrong oauth_verifier"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    let tokens = request_token_credentials(
        &client(),
        &consumer(),
        &temporary,
        &format!("{base}/oauth/access_token"),
        pin,
    )
    .await
    .unwrap();
    assert_eq!(tokens.param("user_id"), Some("1000000001"));
    assert_eq!(tokens.param("screen_name"), Some("oauth1_signer_test"));
    assert_ne!(tokens.token(), temporary.token());
    tokens.credentials(&consumer())
}

#[tokio::test]
async fn the_flow_then_get_post_form_json_and_a_retry_through_the_middleware() {
    let provider = Provider::start(&[]);
    let base = provider.base.clone();
    let credentials = login(&provider).await;
    let token = credentials.token().unwrap().to_owned();
    let client = signed_client(Signer::new(credentials.clone()));

    // GET with a query: every parameter signed, `+` and %20 both spaces.
    let (status, body) = json_of(
        client
            .get(format!(
                "{base}/2/users/me?user.fields=created_at,description&q=a+b%20c!"
            ))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["oauth_token"], token.as_str());
    assert_eq!(
        body["query"],
        json!([["user.fields", "created_at,description"], ["q", "a b c!"]])
    );

    // POST with a form body: its parameters are signed.
    let (status, body) = json_of(
        client
            .post(format!(
                "{base}/1.1/statuses/update.json?include_entities=true"
            ))
            .header("content-type", "application/x-www-form-urlencoded")
            .body("status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21")
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["form"],
        json!([[
            "status",
            "Hello Ladies + Gentlemen, a signed OAuth request!"
        ]])
    );

    // POST with a JSON body (X API v2): not signed, and accepted.
    let (status, body) = json_of(
        client
            .post(format!("{base}/2/tweets"))
            .header("content-type", "application/json")
            .body(r#"{"text":"hello a=1&b=2"}"#)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["json"], json!({"text": "hello a=1&b=2"}));
    assert_eq!(body["form"], Value::Null);

    // A retry placed before the signer: the first attempt reaches the
    // provider (its nonce is spent) but is reported lost; the retry is
    // signed afresh and accepted. Re-sending the first header would be a
    // replay, and refused.
    let flaky = std::sync::Arc::new(FlakyOnce::default());
    let retrying = ClientBuilder::new(self::client())
        .with(RetryOnce)
        .with(OAuth1Middleware::new(Signer::new(credentials)))
        .with_arc(flaky.clone())
        .build();
    let (status, body) = json_of(
        retrying
            .post(format!("{base}/2/tweets"))
            .header("content-type", "application/json")
            .body(r#"{"text":"retried"}"#)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let seen = flaky.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 2, "two attempts");
    assert_eq!(seen[0].0, 200, "the first attempt was accepted, then lost");
    assert_ne!(nonce(&seen[0].1), nonce(&seen[1].1));

    // Sending the first attempt's header again is a replay: 401.
    let (status, body) = json_of(
        self::client()
            .post(format!("{base}/2/tweets"))
            .header("content-type", "application/json")
            .header("authorization", &seen[0].1)
            .body(r#"{"text":"retried"}"#)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 401);
    assert_eq!(
        body["oauthlib_error"],
        "nonce+timestamp already used (replay)"
    );
    let log = provider.stop();
    assert!(!log.contains(CONSUMER_SECRET), "{log}");
}

fn nonce(header: &str) -> String {
    parse_authorization_header(header)
        .unwrap()
        .into_iter()
        .find(|(n, _)| n == "oauth_nonce")
        .unwrap()
        .1
}

/// Sends each request twice at most, again when the first answer is 503.
struct RetryOnce;

#[async_trait::async_trait]
impl Middleware for RetryOnce {
    async fn handle(
        &self,
        req: reqwest::Request,
        extensions: &mut Extensions,
        next: Next<'_>,
    ) -> reqwest_middleware::Result<reqwest::Response> {
        let again = req.try_clone().unwrap();
        let first = next.clone().run(req, extensions).await?;
        if first.status() != 503 {
            return Ok(first);
        }
        next.run(again, extensions).await
    }
}

/// Sends every attempt, recording its status and Authorization header, and
/// reports the first as `503` although the provider answered it.
#[derive(Default)]
struct FlakyOnce {
    seen: Mutex<Vec<(u16, String)>>,
}

#[async_trait::async_trait]
impl Middleware for FlakyOnce {
    async fn handle(
        &self,
        req: reqwest::Request,
        extensions: &mut Extensions,
        next: Next<'_>,
    ) -> reqwest_middleware::Result<reqwest::Response> {
        let header = req.headers()["authorization"].to_str().unwrap().to_owned();
        let response = next.run(req, extensions).await?;
        let status = response.status().as_u16();
        let first = {
            let mut seen = self.seen.lock().unwrap();
            seen.push((status, header));
            seen.len() == 1
        };
        if first {
            let lost = http::Response::builder().status(503).body("lost").unwrap();
            return Ok(reqwest::Response::from(lost));
        }
        Ok(response)
    }
}

#[tokio::test]
async fn the_provider_refuses_a_wrong_secret_and_a_replayed_nonce() {
    let provider = Provider::start(&[]);
    let url = format!("{}/2/users/me", provider.base);
    let good =
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(ACCESS_TOKEN, ACCESS_SECRET);
    let (status, _) = json_of(
        signed_client(Signer::new(good.clone()))
            .get(&url)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);

    for wrong in [
        Credentials::new(CONSUMER_KEY, "wrong-consumer-secret")
            .with_token(ACCESS_TOKEN, ACCESS_SECRET),
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET)
            .with_token(ACCESS_TOKEN, "wrong-token-secret"),
    ] {
        let (status, body) = json_of(
            signed_client(Signer::new(wrong))
                .get(&url)
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, 401, "{body}");
        assert_eq!(body["oauthlib_error"], "signature mismatch");
        assert_eq!(body["errors"][0]["code"], 32);
    }

    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let pinned = Signer::builder(good)
        .with_nonce("pinnedNonce0001")
        .with_timestamp(now.to_string())
        .build()
        .unwrap();
    let client = signed_client(pinned);
    let (first, _) = json_of(client.get(&url).send().await.unwrap()).await;
    let (second, body) = json_of(client.get(&url).send().await.unwrap()).await;
    assert_eq!((first, second), (200, 401), "{body}");
    assert_eq!(
        body["oauthlib_error"],
        "nonce+timestamp already used (replay)"
    );
}

#[tokio::test]
async fn per_request_signers_act_for_several_accounts() {
    let provider = Provider::start(&[]);
    let url = format!("{}/2/users/me", provider.base);
    let account = Signer::new(
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(ACCESS_TOKEN, ACCESS_SECRET),
    );
    let client = ClientBuilder::new(client())
        .with(OAuth1Middleware::per_request())
        .build();
    let (status, body) = json_of(
        client
            .get(&url)
            .with_extension(account.clone())
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["oauth_token"], ACCESS_TOKEN);
    // A second account, logged in through the flow, on the same client.
    let other = Signer::new(login(&provider).await);
    let (status, body) = json_of(
        client
            .get(&url)
            .with_extension(other.clone())
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["oauth_token"], other.credentials().token().unwrap());
    // No signer: an error, and nothing is sent.
    let e = client.get(&url).send().await.unwrap_err();
    assert!(e.is_middleware(), "{e}");
    assert!(e.to_string().contains("no oauth1_signer::Signer"), "{e}");
    // The middleware's own signer is the default, an extension overrides it.
    let wrong =
        Signer::new(Credentials::new(CONSUMER_KEY, "wrong").with_token(ACCESS_TOKEN, "wrong"));
    let (status, _) = json_of(
        signed_client(wrong)
            .get(&url)
            .with_extension(account)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200);
}

/// Every printable ASCII byte, a raw space and non-ASCII text, in a query and
/// in a path, as `reqwest::Url::parse` reads and serialises them: each URL is
/// signed as it is sent, and the provider verifies it.
///
/// oauthlib 4.0.1 refuses some raw query bytes outright (`[ ] { } | ^` and
/// `` ` ``, which `url` sends raw; see tests/provider/README.md), so this
/// provider runs with `--encode-raw-query`; the signature is the same either
/// way, as the second half shows for `|`.
#[tokio::test]
async fn every_url_reqwest_sends_is_signed_as_sent() {
    let provider = Provider::start(&["--encode-raw-query"]);
    let base = &provider.base;
    let signer = Signer::new(
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(ACCESS_TOKEN, ACCESS_SECRET),
    );
    let client = signed_client(signer.clone());
    let mut texts: Vec<String> = (0x20..=0x7Eu8).map(|b| char::from(b).to_string()).collect();
    texts.extend(["é".into(), "日本".into(), "%zz".into(), "a b".into()]);

    let mut refused_in_path = Vec::new();
    for text in &texts {
        let query = format!("{base}/2/q?k=a{text}b&z=1");
        let url = reqwest::Url::parse(&query).unwrap();
        if text.starts_with('%') {
            // A '%' that starts no escape is read two ways by servers (the
            // URL Standard's decoding keeps it, oauthlib refuses the query
            // with "Invalid hex encoding"): it is not signed, and the error
            // names the escape and its offset.
            let e = client.get(url.clone()).send().await.unwrap_err();
            assert!(e.is_middleware(), "{e}");
            // The wrappers name their steps; the cause is down the chain.
            let chain = oauth1_signer::text::error_chain(&e);
            assert!(
                chain.contains("malformed percent-escape at byte "),
                "{chain}"
            );
        } else {
            let response = client.get(url.clone()).send().await.unwrap();
            let (status, body) = json_of(response).await;
            assert_eq!(
                status,
                200,
                "query {text:?} sent as {}: {body}",
                url.as_str()
            );
        }

        if matches!(text.as_str(), "?" | "#" | "/" | "\\" | ".") {
            continue; // not path data: they end or split the path
        }
        let path = format!("{base}/2/p{text}p");
        let url = reqwest::Url::parse(&path).unwrap();
        match client.get(url.clone()).send().await {
            Ok(response) => {
                let (status, body) = json_of(response).await;
                assert_eq!(
                    status,
                    200,
                    "path {text:?} sent as {}: {body}",
                    url.as_str()
                );
            }
            Err(e) => {
                assert!(e.is_middleware(), "{e}");
                refused_in_path.push(text.clone());
            }
        }
    }
    // Bytes that `url` sends raw in a path although RFC 3986 does not allow
    // them there (`% [ ] ^ |`) are path data, signed byte for byte as sent
    // (a raw '|' as %7C in the base string, while %7C sent is %257C), and
    // oauthlib, which reads the path as sent, verifies every one.
    assert!(refused_in_path.is_empty(), "{refused_in_path:?}");

    // Without --encode-raw-query, oauthlib refuses a raw '|' in the query
    // whatever its signature; sent escaped, the same parameter verifies.
    let strict = Provider::start(&[]);
    let (status, body) = json_of(
        client
            .get(format!("{}/2/tweets?ids=1|2", strict.base))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 401);
    assert!(
        body["oauthlib_error"]
            .as_str()
            .unwrap()
            .contains("Found invalid characters"),
        "{body}"
    );
    let (status, body) = json_of(
        client
            .get(format!("{}/2/tweets?ids=1%7C2", strict.base))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["query"], json!([["ids", "1|2"]]));
}

/// A client that leaves redirects to the signer.
fn unredirected() -> reqwest::Client {
    client_builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap()
}

fn access_signer() -> Signer {
    Signer::new(
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(ACCESS_TOKEN, ACCESS_SECRET),
    )
}

/// `{base}/2/redirect`, which the provider verifies (spending its nonce)
/// before it answers `status` with `Location: to`.
fn redirect_url(base: &str, status: u16, to: &str) -> String {
    format!(
        "{base}/2/redirect?status={status}&to={}",
        percent_encode_str(to)
    )
}

/// The error inside a middleware error.
fn redirect_error(e: &reqwest_middleware::Error) -> RedirectError {
    match e {
        reqwest_middleware::Error::Middleware(inner) => inner
            .downcast_ref::<RedirectError>()
            .unwrap_or_else(|| panic!("not a RedirectError: {inner}"))
            .clone(),
        other => panic!("not a middleware error: {other}"),
    }
}

#[tokio::test]
async fn a_redirect_to_the_same_origin_is_signed_afresh_for_its_url() {
    let provider = Provider::start(&[]);
    let base = provider.base.clone();
    let client = ClientBuilder::new(unredirected())
        .with(OAuth1Middleware::new(access_signer()))
        .build();
    // (status, method sent, method that arrives, form kept): RFC 9110 §15.4.
    for (status, method, arrives, form) in [
        (301, "POST", "GET", false),
        (302, "POST", "GET", false),
        (303, "POST", "GET", false),
        (307, "POST", "POST", true),
        (308, "POST", "POST", true),
        (302, "GET", "GET", false),
        (307, "DELETE", "DELETE", false),
    ] {
        // A relative Location, and an absolute one.
        for to in ["/2/users/me?hop=2", &format!("{base}/1.1/moved.json?hop=2")] {
            let mut request = client.request(
                reqwest::Method::from_bytes(method.as_bytes()).unwrap(),
                redirect_url(&base, status, to),
            );
            if method == "POST" {
                request = request
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body("status=moved%20along");
            }
            let response = request.send().await.unwrap();
            assert_eq!(response.url().query(), Some("hop=2"));
            let (got, body) = json_of(response).await;
            // oauthlib verified both hops: each a fresh nonce (a reused one
            // is a replay) and a signature for its own URL.
            assert_eq!(got, 200, "{status} {method} -> {to}: {body}");
            assert_eq!(body["method"], arrives, "{status} {method}");
            assert_eq!(body["query"], json!([["hop", "2"]]));
            let want_form = if form {
                json!([["status", "moved along"]])
            } else {
                Value::Null
            };
            assert_eq!(body["form"], want_form, "{status} {method}");
        }
    }
    let log = provider.stop();
    assert_eq!(log.matches("/2/redirect?").count(), 14, "{log}");
    assert_eq!(log.matches(" 401").count(), 0, "{log}");
}

#[tokio::test]
async fn a_redirect_to_another_origin_is_an_error_naming_its_location() {
    let provider = Provider::start(&[]);
    let base = provider.base.clone();
    let port = base.rsplit(':').next().unwrap();
    let client = ClientBuilder::new(unredirected())
        .with(OAuth1Middleware::new(access_signer()))
        .build();
    for (status, to) in [
        // The same server under another name: another origin.
        (307, format!("http://localhost:{port}/2/users/me")),
        (301, format!("https://127.0.0.1:{port}/2/users/me")),
        (308, "http://127.0.0.1:1/2/users/me".to_owned()),
    ] {
        let e = client
            .get(redirect_url(&base, status, &to))
            .send()
            .await
            .unwrap_err();
        assert_eq!(
            redirect_error(&e),
            RedirectError::CrossOrigin {
                status,
                location: to.clone()
            }
        );
        assert!(e.to_string().contains(&to), "{e}");
    }
    let log = provider.stop();
    assert!(
        !log.contains("GET /2/users/me"),
        "sent to the other origin: {log}"
    );
}

#[tokio::test]
async fn redirects_are_bounded_and_a_client_that_follows_them_is_caught() {
    let provider = Provider::start(&[]);
    let base = provider.base.clone();
    // A redirect to itself, forever: each hop signed afresh and accepted,
    // until the limit.
    let looping = redirect_url(&base, 307, "self");
    let client = ClientBuilder::new(unredirected())
        .with(OAuth1Middleware::new(access_signer()).with_redirect_limit(3))
        .build();
    let e = client.get(&looping).send().await.unwrap_err();
    match redirect_error(&e) {
        RedirectError::TooMany { limit: 3, location } => {
            assert_eq!(location, looping)
        }
        other => panic!("{other:?}"),
    }
    // A reqwest client with its default policy follows the redirect itself,
    // resending the first signature: an error, not a 401 passed off as the
    // answer.
    let following = ClientBuilder::new(self::client())
        .with(OAuth1Middleware::new(access_signer()))
        .build();
    let e = following
        .get(redirect_url(&base, 307, "/2/users/me"))
        .send()
        .await
        .unwrap_err();
    assert_eq!(
        redirect_error(&e),
        RedirectError::FollowedByClient {
            url: format!("{base}/2/users/me")
        }
    );
    let log = provider.stop();
    // The stale signature reached the provider, which refused it.
    assert!(log.contains("GET /2/users/me 401"), "{log}");
}

#[tokio::test]
async fn the_flow_follows_a_same_origin_redirect_signed_afresh_and_no_other() {
    let provider = Provider::start(&[]);
    let base = provider.base.clone();
    let port = base.rsplit(':').next().unwrap();
    let moved = |to: &str| {
        format!(
            "{base}/oauth/redirect?status=307&to={}",
            percent_encode_str(to)
        )
    };
    let temporary = request_temporary_credentials(
        &unredirected(),
        &consumer(),
        &moved(&format!("{base}/oauth/request_token")),
        "oob",
    )
    .await
    .unwrap();
    assert_eq!(temporary.token().len(), 30);
    let elsewhere = format!("http://localhost:{port}/oauth/request_token");
    let e = request_temporary_credentials(&unredirected(), &consumer(), &moved(&elsewhere), "oob")
        .await
        .unwrap_err();
    assert_eq!(
        e,
        FlowError::Redirect(RedirectError::CrossOrigin {
            status: 307,
            location: elsewhere.clone()
        })
    );
    assert!(e.to_string().contains(&elsewhere), "{e}");
    let log = provider.stop();
    assert_eq!(
        log.matches("POST /oauth/request_token 200").count(),
        1,
        "{log}"
    );
}

#[allow(dead_code)]
#[path = "../examples/x_media_upload.rs"]
mod x_media_upload;

/// X's chunked media upload (v2), as examples/x_media_upload.rs does it,
/// against the provider: the JSON and multipart bodies left out of the
/// signature (oauthlib refuses them in), the query and oauth_* signed.
#[tokio::test]
async fn chunked_media_upload_signs_appends_without_their_multipart_fields() {
    let provider = Provider::start(&[]);
    let client = ClientBuilder::new(unredirected())
        .with(OAuth1Middleware::new(access_signer()))
        .build();
    let media: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 256) as u8).collect();
    let v2 = format!("{}/2/media/upload", provider.base);
    let answer = x_media_upload::upload(&client, &v2, &media, "video/mp4", 300)
        .await
        .unwrap();
    assert_eq!(answer["processing_info"]["state"], "succeeded");
    {
        use sha1::Digest as _;
        let want: String = sha1::Sha1::digest(&media)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(answer["sha1"], want);
    }
    let url = format!("{}/1.1/media/upload.json", provider.base);

    // Signing APPEND's fields as if they were a form body is refused.
    let init = client
        .post(&url)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("command=INIT&total_bytes=1&media_type=image%2Fpng")
        .send()
        .await
        .unwrap();
    let (_, init) = json_of(init).await;
    let id = init["media_id_string"].as_str().unwrap();
    let fields = format!("command=APPEND&media_id={id}&segment_index=0");
    let header = access_signer()
        .authorization_header(&oauth1_signer::OAuthRequest::post(&url).form_body(fields.as_bytes()))
        .unwrap();
    let b = "b0undary";
    let body = format!(
        "--{b}\r\nContent-Disposition: form-data; name=\"command\"\r\n\r\nAPPEND\r\n\
         --{b}\r\nContent-Disposition: form-data; name=\"media_id\"\r\n\r\n{id}\r\n\
         --{b}\r\nContent-Disposition: form-data; name=\"segment_index\"\r\n\r\n0\r\n\
         --{b}\r\nContent-Disposition: form-data; name=\"media\"; filename=\"x\"\r\n\r\nX\r\n--{b}--\r\n"
    );
    let (status, body) = json_of(
        self::client()
            .post(&url)
            .header("authorization", header)
            .header("content-type", format!("multipart/form-data; boundary={b}"))
            .body(body)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(
        body["oauthlib_error"],
        "signature mismatch; the multipart fields were signed (only the query and the oauth_ parameters are)"
    );
}

/// Magento's flow, against a stand-in that behaves as its integration
/// endpoints do: HMAC-SHA256 alone, and a temporary-credentials answer
/// without `oauth_callback_confirmed`. RFC 5849's flow refuses that answer
/// (and the provider refuses HMAC-SHA1); the Magento profile's signer and
/// flow quirks complete it.
#[tokio::test]
async fn magento_s_flow_with_its_profile_against_a_stand_in_that_answers_as_magento_does() {
    use oauth1_signer::flow::{request_temporary_credentials_with, request_token_credentials_with};
    use oauth1_signer::Provider as Profiles;

    let provider = Provider::start(&["--only-method", "HMAC-SHA256", "--no-callback-confirmed"]);
    let base = &provider.base;
    let (initiate, token) = (
        format!("{base}/oauth/request_token"),
        format!("{base}/oauth/access_token"),
    );
    // The RFC's flow: HMAC-SHA1, which this provider refuses.
    let e = request_temporary_credentials(&client(), &consumer(), &initiate, "oob")
        .await
        .unwrap_err();
    assert!(
        matches!(
            e,
            FlowError::Provider {
                status: 400 | 401,
                ..
            }
        ),
        "{e:?}"
    );
    let profile = Profiles::Magento.profile();
    let signer = profile.signer(consumer()).build().unwrap();
    // HMAC-SHA256, but RFC 5849's reading of the answer: not confirmed.
    let e = request_temporary_credentials_with(
        &client(),
        &signer,
        &initiate,
        "oob",
        &Profiles::Rfc5849.profile().flow,
    )
    .await
    .unwrap_err();
    assert!(matches!(e, FlowError::CallbackNotConfirmed), "{e:?}");
    // The profile's quirks: the answer is read, and the flow completes.
    let temporary =
        request_temporary_credentials_with(&client(), &signer, &initiate, "oob", &profile.flow)
            .await
            .unwrap();
    let page = authorize_url(&format!("{base}/oauth/authorize"), temporary.token());
    let pin = client()
        .get(&page)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let signer = profile
        .signer(temporary.credentials(&consumer()))
        .build()
        .unwrap();
    let tokens = request_token_credentials_with(&client(), &signer, &token, pin.trim())
        .await
        .unwrap();
    assert_eq!(tokens.param("screen_name"), Some("oauth1_signer_test"));
}

/// E\*TRADE's renewal, against the stand-in, which answers its
/// `GET /oauth/renew_access_token` as E\*TRADE documents (a GET signed with
/// the access token, a plain-text answer): the access token renews; signed
/// with the wrong token secret, the provider refuses it.
#[tokio::test]
async fn e_trade_s_access_token_renews_with_its_profile() {
    use oauth1_signer::flow::renew_access_token;
    use oauth1_signer::Provider as Profiles;

    let provider = Provider::start(&[]);
    let url = format!("{}/oauth/renew_access_token", provider.base);
    let profile = Profiles::ETrade.profile();
    assert!(profile.flow.renews);
    let user =
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(ACCESS_TOKEN, ACCESS_SECRET);
    let signer = profile.signer(user).build().unwrap();
    let answer = renew_access_token(&client(), &signer, &url).await.unwrap();
    assert_eq!(answer, b"Access Token has been renewed");
    let wrong = Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(ACCESS_TOKEN, "not-it");
    let e = renew_access_token(&client(), &profile.signer(wrong).build().unwrap(), &url)
        .await
        .unwrap_err();
    assert!(
        matches!(e, FlowError::Provider { status: 401, .. }),
        "{e:?}"
    );
}
