//! `oauth1 serve` as a stand-in for X's three legs (RFC 5849 §2): a client's whole flow runs
//! against it, each request signed by oauthlib (requests-oauthlib, `tests/peers/serve_flow.py`),
//! by this crate's flow functions, or by `oauth1 authorize` (the docs' example), and the access
//! token issued verifies on every other path; a wrong or reused verifier, a request-token call
//! without `oauth_callback` or with one that is no URI, an exchange before approval, an
//! unknown token to authorise are refused by name, and the log holds no secret or verifier.
//! Each server runs on 127.0.0.1 and each request has a timeout.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::process::Command;
use std::time::Duration;

use common::bin::{oauth1, run, text, TempDir};
use common::login::{authorize_command, Login};
use common::oracle::space_as_plus_header;
use common::serve::{diagnosis_codes, send, send_raw, Serve};
use oauth1_signer::flow::{
    authorize_url, request_temporary_credentials, request_token_credentials, FlowError,
    TemporaryCredentials,
};
use oauth1_signer::{Credentials, OAuthRequest, Signer};
use serde_json::Value;

/// The consumer `serve` holds (its configured token is not used here).
const CREDENTIALS: [&str; 4] = [
    "--consumer-key",
    "flow-key",
    "--consumer-secret",
    "flow-secret",
];

fn oauthlib_flow(serve: &Serve, callback: &str) -> Value {
    let script = format!(
        "{}/../tests/peers/serve_flow.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = Command::new("python3")
        .args([&script, &serve.url(""), "flow-key", "flow-secret", callback])
        .output()
        .unwrap_or_else(|e| panic!("python3: {e}; {}", common::peers::INSTALL));
    assert!(
        out.status.success(),
        "{}; {}",
        String::from_utf8_lossy(&out.stderr),
        common::peers::INSTALL
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn check_flow(got: &Value, callback: &str) {
    assert_eq!(
        got["temporary"]["oauth_callback_confirmed"], "true",
        "{got}"
    );
    let token = got["temporary"]["oauth_token"].as_str().unwrap();
    match callback {
        "oob" => assert_eq!(got["authorize_status"], 200, "{got}"),
        url => {
            assert_eq!(got["authorize_status"], 302, "{got}");
            let location = got["location"].as_str().unwrap();
            // The callback keeps its own query; the token and the verifier are added.
            let prefix = format!("{url}&oauth_token={token}&oauth_verifier=");
            assert!(location.starts_with(&prefix), "{location}");
        }
    }
    let access = &got["access"];
    assert!(access["oauth_token"].as_str().unwrap().len() > 10, "{got}");
    assert_eq!(got["access_has_secret"], true);
    assert!(access["user_id"].as_str().is_some_and(|u| !u.is_empty()));
    assert!(access["screen_name"]
        .as_str()
        .is_some_and(|u| !u.is_empty()));
    // The access token verifies on another path, a form POST too.
    assert_eq!(got["me"]["status"], 200, "{got}");
    assert_eq!(got["me"]["json"]["token"], access["oauth_token"], "{got}");
    assert_eq!(got["tweet"]["status"], 200, "{got}");
    assert_eq!(
        got["tweet"]["json"]["token"], access["oauth_token"],
        "{got}"
    );
    let params = got["tweet"]["json"]["params"].as_array().unwrap();
    assert!(
        params.contains(&serde_json::json!(["status", "Hello Ladies + Gentlemen"])),
        "the form body is among the parameters verified: {got}"
    );
    // The legs answer forms, as oauthlib's client expects.
    for leg in ["/oauth/request_token", "/oauth/access_token"] {
        assert_eq!(
            got["media"][leg], "application/x-www-form-urlencoded",
            "{leg}: {got}"
        );
    }
    // The verifier serves once; a wrong one never.
    assert_eq!(got["reused"]["status"], 401, "{got}");
    assert_eq!(got["reused"]["body"], "oauth_problem=token_used", "{got}");
    assert_eq!(got["wrong"]["status"], 401, "{got}");
    assert_eq!(
        got["wrong"]["body"],
        "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_verifier",
        "{got}"
    );
    // A temporary token is not an access token.
    assert_eq!(got["temporary_as_access"]["status"], 401, "{got}");
}

#[test]
fn oauthlib_s_flow_runs_against_serve_with_a_callback_and_with_oob() {
    let serve = Serve::start_with(&CREDENTIALS, &[]);
    let callback = "https://client.example/back?state=xyz";
    check_flow(&oauthlib_flow(&serve, callback), callback);
    check_flow(&oauthlib_flow(&serve, "oob"), "oob");
    let (_, log) = serve.stop("TERM");
    assert!(log.contains("issued"), "{log}");
    assert!(!log.contains("flow-secret"), "{log}");
}

/// The verifier the authorisation leg gives for `temporary`, as a client
/// reads it from the oob answer: the form `oauth_token=T&oauth_verifier=V`.
async fn approve(client: &reqwest::Client, base: &str, temporary: &TemporaryCredentials) -> String {
    let url = authorize_url(&format!("{base}/oauth/authorize"), temporary.token());
    let answer = client.get(url).send().await.unwrap();
    assert_eq!(answer.status().as_u16(), 200);
    let media = answer.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(media, "application/x-www-form-urlencoded");
    let body = answer.text().await.unwrap();
    let pairs: Vec<(&str, &str)> = body.split('&').filter_map(|p| p.split_once('=')).collect();
    assert_eq!(pairs.len(), 2, "{body}");
    assert_eq!(pairs[0], ("oauth_token", temporary.token()), "{body}");
    assert_eq!(pairs[1].0, "oauth_verifier", "{body}");
    assert!(!pairs[1].1.is_empty(), "{body}");
    pairs[1].1.to_owned()
}

/// What the flow functions say of a refused step: the status and the
/// provider's body.
fn refusal<T: std::fmt::Debug>(result: Result<T, FlowError>) -> (u16, String) {
    match result {
        Err(FlowError::Provider { status, message }) => (status, message),
        other => panic!("expected the provider's refusal, got {other:?}"),
    }
}

#[test]
fn this_crate_s_flow_runs_against_serve() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let serve = Serve::start_with(&CREDENTIALS, &[]);
    let base = serve.url("");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let request_token = format!("{base}/oauth/request_token");
    let access_token = format!("{base}/oauth/access_token");
    let secrets = runtime.block_on(async {
        let client = oauth1_signer::client::client_builder()
            .timeout(Duration::from_secs(10))
            .build()
            .unwrap();
        let consumer = Credentials::new("flow-key", "flow-secret");
        // Parsed by TemporaryCredentials::parse, which insists on
        // oauth_callback_confirmed=true.
        let temporary = request_temporary_credentials(&client, &consumer, &request_token, "oob")
            .await
            .unwrap();
        let verifier = approve(&client, &base, &temporary).await;
        let tokens =
            request_token_credentials(&client, &consumer, &temporary, &access_token, &verifier)
                .await
                .unwrap();
        assert_ne!(tokens.token(), temporary.token());
        let user_id = tokens.param("user_id").unwrap();
        assert!(!user_id.is_empty() && user_id.bytes().all(|b| b.is_ascii_digit()));
        assert!(tokens.param("screen_name").is_some_and(|s| !s.is_empty()));

        // The access token verifies on another path: the echo names it.
        let signer = Signer::new(tokens.credentials(&consumer));
        let url = format!("{base}/2/users/me");
        let header = signer
            .authorization_header(&OAuthRequest::get(&url))
            .unwrap();
        let answer = client
            .get(&url)
            .header("authorization", header)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status().as_u16(), 200);
        let me: Value = serde_json::from_str(&answer.text().await.unwrap()).unwrap();
        assert_eq!(me["valid"], true, "{me}");
        assert_eq!(me["token"], tokens.token(), "{me}");
        assert_eq!(me["consumer_key"], "flow-key", "{me}");

        // The same verifier again: the temporary token served its exchange.
        let again =
            request_token_credentials(&client, &consumer, &temporary, &access_token, &verifier)
                .await;
        assert_eq!(refusal(again), (401, "oauth_problem=token_used".to_owned()));

        // A fresh temporary token, approved, with a wrong verifier: refused,
        // and its own verifier still serves.
        let fresh = request_temporary_credentials(&client, &consumer, &request_token, "oob")
            .await
            .unwrap();
        let right = approve(&client, &base, &fresh).await;
        let wrong = format!("{right}0");
        let refused =
            request_token_credentials(&client, &consumer, &fresh, &access_token, &wrong).await;
        assert_eq!(
            refusal(refused),
            (
                401,
                "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_verifier"
                    .to_owned()
            )
        );
        let second = request_token_credentials(&client, &consumer, &fresh, &access_token, &right)
            .await
            .unwrap();
        assert_ne!(second.token(), tokens.token());

        // A temporary token never exchanged is no access token.
        let header = Signer::new(fresh.credentials(&consumer))
            .authorization_header(&OAuthRequest::get(&url))
            .unwrap();
        let answer = client
            .get(&url)
            .header("authorization", header)
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status().as_u16(), 401);

        vec![
            temporary.secret().expose().to_owned(),
            tokens.secret().expose().to_owned(),
            second.secret().expose().to_owned(),
            verifier,
            right,
        ]
    });
    // The log says what was issued, and holds no secret and no verifier.
    let (_, log) = serve.stop("TERM");
    assert!(log.contains("issued"), "{log}");
    for secret in secrets.iter().map(String::as_str).chain(["flow-secret"]) {
        assert!(secret.len() >= 10, "{secret}");
        assert!(!log.contains(secret), "{secret} in {log}");
    }
}

/// The status of a GET of `url` signed with `credentials`.
async fn status_with(client: &reqwest::Client, url: &str, credentials: Credentials) -> u16 {
    let header = Signer::new(credentials)
        .authorization_header(&OAuthRequest::get(url))
        .unwrap();
    let answer = client
        .get(url)
        .header("authorization", header)
        .send()
        .await
        .unwrap();
    answer.status().as_u16()
}

/// A server started with a token of its own (`--token tk`) keeps
/// verifying it, and verifies the access tokens it issues beside it.
#[test]
fn issued_tokens_verify_beside_the_configured_one() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    issued_tokens_verify_with(&Serve::start(&[]));
}

/// Runs the flow against `serve`, checks that the issued access token and
/// the configured one verify and a mixed one does not, and gives the issued
/// token and its secret.
fn issued_tokens_verify_with(serve: &Serve) -> (String, String) {
    let base = serve.url("");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = oauth1_signer::client::client_builder()
            .timeout(Duration::from_secs(10))
            .build()
            .unwrap();
        let consumer = Credentials::new("ck", "cs");
        let request_token = format!("{base}/oauth/request_token");
        let temporary = request_temporary_credentials(&client, &consumer, &request_token, "oob")
            .await
            .unwrap();
        let verifier = approve(&client, &base, &temporary).await;
        let access_token = format!("{base}/oauth/access_token");
        let tokens =
            request_token_credentials(&client, &consumer, &temporary, &access_token, &verifier)
                .await
                .unwrap();
        let url = format!("{base}/2/users/me");
        let configured = Credentials::new("ck", "cs").with_token("tk", "ts");
        assert_eq!(status_with(&client, &url, configured).await, 200);
        assert_eq!(
            status_with(&client, &url, tokens.credentials(&consumer)).await,
            200
        );
        // The issued token with another token's secret: a bad signature.
        let mixed = Credentials::new("ck", "cs").with_token(tokens.token(), "ts");
        assert_eq!(status_with(&client, &url, mixed).await, 401);
        (
            tokens.token().to_owned(),
            tokens.secret().expose().to_owned(),
        )
    })
}

#[test]
fn a_bad_signature_with_an_issued_token_is_diagnosed_with_its_secret() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let serve = Serve::start(&[]);
    let (token, secret) = issued_tokens_verify_with(&serve);
    // A client that writes a space as '+' in its parameter string, signing
    // with the issued token: written by hand (common::oracle).
    let ts = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let nonce = "c4d2a9e1f7b3405f8e6a2c0d9b1e3f57";
    let header = space_as_plus_header(serve.port, &token, &format!("cs&{secret}"), nonce, ts);
    let a = send(
        serve.port,
        "POST",
        "/update",
        Some(&header),
        Some(b"status=hello%20world"),
    );
    assert_eq!(a.status, 401, "{}", a.json);
    assert_eq!(diagnosis_codes(&a), ["space-as-plus"], "{}", a.json);
}

#[test]
fn what_the_legs_refuse_is_named() {
    let serve = Serve::start_with(&CREDENTIALS, &[]);
    let port = serve.port;
    // No oauth_callback on the request-token call.
    let url = serve.url("/oauth/request_token");
    let header = Signer::new(Credentials::new("flow-key", "flow-secret"))
        .authorization_header(&OAuthRequest::post(&url))
        .unwrap();
    let (status, _, body) = send_raw(port, "POST", "/oauth/request_token", Some(&header), None);
    assert_eq!(status, 401);
    assert_eq!(
        body,
        "oauth_problem=parameter_absent&oauth_parameters_absent=oauth_callback"
    );
    // A callback that is neither oob nor an absolute URI.
    let header = Signer::new(Credentials::new("flow-key", "flow-secret"))
        .authorization_header(&OAuthRequest::post(&url).callback("/back"))
        .unwrap();
    let (status, _, body) = send_raw(port, "POST", "/oauth/request_token", Some(&header), None);
    assert_eq!(status, 401);
    assert_eq!(
        body,
        "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_callback"
    );
    // A temporary token exchanged before anyone approved it.
    let header = Signer::new(Credentials::new("flow-key", "flow-secret"))
        .authorization_header(&OAuthRequest::post(&url).callback("oob"))
        .unwrap();
    let (status, _, body) = send_raw(port, "POST", "/oauth/request_token", Some(&header), None);
    assert_eq!(status, 200, "{body}");
    let temporary = TemporaryCredentials::parse(body.as_bytes()).unwrap();
    let exchange = serve.url("/oauth/access_token");
    let header = Signer::new(temporary.credentials(&Credentials::new("flow-key", "flow-secret")))
        .authorization_header(&OAuthRequest::post(&exchange).oauth_verifier("guess"))
        .unwrap();
    let (status, _, body) = send_raw(port, "POST", "/oauth/access_token", Some(&header), None);
    assert_eq!(status, 401);
    assert_eq!(body, "oauth_problem=permission_unknown");
    // Another consumer key: refused as any bad signature is.
    let header = Signer::new(Credentials::new("another", "flow-secret"))
        .authorization_header(&OAuthRequest::post(&url).callback("oob"))
        .unwrap();
    let answer = send(port, "POST", "/oauth/request_token", Some(&header), None);
    assert_eq!(answer.status, 401);
    assert_eq!(answer.json["problem"], "oauth_problem=signature_invalid");
    // A token to authorise that was never issued.
    let (status, _, body) = send_raw(port, "GET", "/oauth/authorize?oauth_token=nope", None, None);
    assert_eq!(status, 400);
    assert!(
        body.contains("not a temporary token this server issued"),
        "{body}"
    );
    let (status, _, _) = send_raw(port, "GET", "/oauth/authorize", None, None);
    assert_eq!(status, 400);
    // The other paths are as before: a request with no header is refused.
    let answer = send(port, "GET", "/2/users/me", None, None);
    assert_eq!(answer.status, 401);
}

/// The docs' example (docs/cli.md, `oauth1 serve`): `oauth1 authorize`
/// logs in against `oauth1 serve`, the user's PIN being the verifier of
/// the oob answer, and `oauth1 request` signs with the profile it saved.
#[test]
fn oauth1_authorize_logs_in_against_serve() {
    let serve = Serve::start_with(&CREDENTIALS, &[]);
    let dir = TempDir::new("serve-legs-authorize");
    let config = dir.config();
    let login = Login::start(authorize_command(
        &config,
        &serve.url(""),
        ("flow-key", "flow-secret"),
        &[],
    ));
    let url = login.url.clone();
    // The user's browser: the approval is a form, as X's page shows a PIN.
    let path = url.strip_prefix(&serve.url("")).unwrap();
    let (status, _, answer) = send_raw(serve.port, "GET", path, None, None);
    assert_eq!(status, 200, "{answer}");
    let pin = answer
        .split('&')
        .find_map(|p| p.strip_prefix("oauth_verifier="))
        .unwrap_or_else(|| panic!("{answer}"))
        .to_owned();
    let (stdout, _) = login.finish_with(&pin);
    let said = text(&stdout);
    let name = said
        .split("saved as profile \"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or_else(|| panic!("{said}"))
        .to_owned();
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(config.join("profiles.json")).unwrap())
            .unwrap();
    let token = saved["profiles"][&name]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        said.starts_with(&format!("authorized as @{name}")),
        "{said}"
    );

    let mut request = oauth1(&config);
    request.args(["request", "--profile", &name, &serve.url("/2/users/me")]);
    let got = run(request);
    assert!(got.status.success(), "{}", text(&got.stderr));
    let echo: Value = serde_json::from_slice(&got.stdout).unwrap();
    assert_eq!(echo["valid"], true, "{echo}");
    assert_eq!(echo["token"], token.as_str(), "{echo}");
}

/// A signed POST to `path` with its protocol parameters in the query
/// (RFC 5849 §3.5.3), as `request` and `credentials` sign it: the status
/// and the body.
fn post_in_query(
    serve: &Serve,
    request: &OAuthRequest<'_>,
    credentials: Credentials,
) -> (u16, String) {
    let signed = Signer::new(credentials).sign(request).unwrap();
    let url = signed.url_with_query(request.url());
    let target = url.strip_prefix(&serve.url("")).unwrap();
    let (status, _, body) = send_raw(serve.port, "POST", target, None, None);
    (status, body)
}

/// The verifier and the callback a client sends in the query never reach
/// the log (docs/cli.md: the log names tokens, never a verifier): the
/// logged target shows `<redacted>` in their place, as for the signature.
#[test]
fn the_log_holds_no_verifier_or_callback_sent_in_the_query() {
    let serve = Serve::start_with(&CREDENTIALS, &[]);
    let consumer = || Credentials::new("flow-key", "flow-secret");
    let state = "st4te-the-client-keeps";
    let callback = format!("https://client.example/back?state={state}");
    let url = serve.url("/oauth/request_token");
    let (status, body) = post_in_query(
        &serve,
        &OAuthRequest::post(&url).callback(&callback),
        consumer(),
    );
    assert_eq!(status, 200, "{body}");
    let temporary = TemporaryCredentials::parse(body.as_bytes()).unwrap();
    let path = format!("/oauth/authorize?oauth_token={}", temporary.token());
    let (status, head, _) = send_raw(serve.port, "GET", &path, None, None);
    assert_eq!(status, 302, "{head}");
    let verifier = head
        .lines()
        .find_map(|l| l.strip_prefix("location: "))
        .and_then(|l| l.split("oauth_verifier=").nth(1))
        .unwrap_or_else(|| panic!("{head}"))
        .to_owned();
    assert_eq!(verifier.len(), 32, "{head}");
    let exchange = serve.url("/oauth/access_token");
    let (status, body) = post_in_query(
        &serve,
        &OAuthRequest::post(&exchange).oauth_verifier(&verifier),
        temporary.credentials(&consumer()),
    );
    assert_eq!(status, 200, "{body}");
    let (_, log) = serve.stop("TERM");
    assert!(!log.contains(&verifier), "the verifier in {log}");
    assert!(!log.contains(state), "the callback in {log}");
    assert!(log.contains("oauth_verifier=<redacted>"), "{log}");
    assert!(log.contains("oauth_callback=<redacted>"), "{log}");
    assert!(log.contains("oauth_signature=<redacted>"), "{log}");
}

/// A request-token call for `callback`, signed with the consumer alone
/// in the header: the status and the body.
fn request_token_for(serve: &Serve, callback: &str) -> (u16, String) {
    let url = serve.url("/oauth/request_token");
    let header = Signer::new(Credentials::new("flow-key", "flow-secret"))
        .authorization_header(&OAuthRequest::post(&url).callback(callback))
        .unwrap();
    let (status, _, body) = send_raw(
        serve.port,
        "POST",
        "/oauth/request_token",
        Some(&header),
        None,
    );
    (status, body)
}

const CALLBACK_REJECTED: &str =
    "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_callback";

/// Only `oob`, absolute http(s) URLs and the schemes the operator names
/// are recorded (and later redirected to): a browser is never sent to
/// script, to data the requester chose, or to a local file.
#[test]
fn a_callback_is_oob_http_https_or_a_scheme_the_operator_names() {
    let serve = Serve::start_with(&CREDENTIALS, &["--callback-scheme", "myapp"]);
    for bad in [
        "javascript:alert(document.cookie)",
        "JavaScript://client.example/%0Aalert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "otherapp://done",
        "https://client.example@evil.example/",
        "/back",
    ] {
        assert_eq!(
            request_token_for(&serve, bad),
            (401, CALLBACK_REJECTED.to_owned()),
            "{bad}"
        );
    }
    // The operator's scheme: recorded, and the approval redirects to it
    // with the token and the verifier added.
    let (status, body) = request_token_for(&serve, "myapp://done");
    assert_eq!(status, 200, "{body}");
    let temporary = TemporaryCredentials::parse(body.as_bytes()).unwrap();
    let path = format!("/oauth/authorize?oauth_token={}", temporary.token());
    let (status, head, _) = send_raw(serve.port, "GET", &path, None, None);
    assert_eq!(status, 302, "{head}");
    let prefix = format!(
        "location: myapp://done?oauth_token={}&oauth_verifier=",
        temporary.token()
    );
    assert!(head.lines().any(|l| l.starts_with(&prefix)), "{head}");
    let (_, log) = serve.stop("TERM");
    assert!(
        log.contains("oauth_callback: the callback's scheme \"javascript\" is not accepted"),
        "{log}"
    );
    assert!(
        log.contains("oauth_callback: the callback's scheme \"file\" is not accepted"),
        "{log}"
    );

    // Without the flag, the same scheme is refused.
    let serve = Serve::start_with(&CREDENTIALS, &[]);
    assert_eq!(
        request_token_for(&serve, "myapp://done"),
        (401, CALLBACK_REJECTED.to_owned())
    );
}

#[test]
fn a_scheme_the_operator_names_is_a_scheme_and_never_javascript() {
    for (scheme, said) in [
        (
            "javascript",
            "the callback's scheme \"javascript\" is not accepted",
        ),
        ("my app", "byte 0x20 at 2 cannot be in a callback"),
    ] {
        let dir = TempDir::new("serve-legs-scheme");
        let mut cmd = oauth1(&dir.config());
        cmd.args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--callback-scheme",
            scheme,
        ])
        .args(CREDENTIALS);
        let got = run(cmd);
        assert_eq!(got.status.code(), Some(2), "{scheme}");
        let err = text(&got.stderr);
        assert!(
            err.contains(&format!("--callback-scheme {scheme}: ")),
            "{err}"
        );
        assert!(err.contains(said), "{err}");
    }
}

/// The attack: request-token calls with 60 KB callbacks, each of
/// which a temporary token kept for the server's life. Each is refused by
/// name and nothing of it is held: the log's count of the tokens held says
/// one after them all (the count, not the process's size, is asserted).
#[test]
fn a_flood_of_long_callbacks_holds_nothing() {
    let serve = Serve::start_with(&CREDENTIALS, &[]);
    let long = format!("https://client.example/back?state={}", "s".repeat(60_000));
    for _ in 0..200 {
        assert_eq!(
            request_token_for(&serve, &long),
            (401, CALLBACK_REJECTED.to_owned())
        );
    }
    // 2048 bytes is the most a callback may have; one byte more is refused.
    let base = "https://client.example/back?state=";
    let longest = format!("{base}{}", "s".repeat(2048 - base.len()));
    assert_eq!(request_token_for(&serve, &longest).0, 200);
    assert_eq!(
        request_token_for(&serve, &format!("{longest}s")),
        (401, CALLBACK_REJECTED.to_owned())
    );
    let (_, log) = serve.stop("TERM");
    let issued: Vec<&str> = log.lines().filter(|l| l.contains(" issued (")).collect();
    assert_eq!(issued.len(), 1, "{log}");
    assert!(issued[0].contains("issued (1 held, "), "{log}");
    assert_eq!(
        log.matches("oauth_callback: the callback is 60034 bytes, over the limit of 2048")
            .count(),
        200
    );
    assert!(
        log.contains("the callback is 2049 bytes, over the limit of 2048"),
        "{log}"
    );
}

/// A temporary token expires: `--temporary-token-lifetime 0` expires it at
/// once (as a client's own tests of `token_expired` want it), so no clock
/// is waited for. Its approval and its exchange are refused by name, and
/// the expired tokens are reclaimed as new ones are issued: the log says
/// one is held after each.
#[test]
fn a_temporary_token_expires() {
    let serve = Serve::start_with(&CREDENTIALS, &["--temporary-token-lifetime", "0"]);
    let mut last = None;
    for _ in 0..3 {
        let (status, body) = request_token_for(&serve, "oob");
        assert_eq!(status, 200, "{body}");
        last = Some(TemporaryCredentials::parse(body.as_bytes()).unwrap());
    }
    let temporary = last.unwrap();
    let path = format!("/oauth/authorize?oauth_token={}", temporary.token());
    let (status, _, body) = send_raw(serve.port, "GET", &path, None, None);
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("the oauth_token expired"), "{body}");
    let exchange = serve.url("/oauth/access_token");
    let header = Signer::new(temporary.credentials(&Credentials::new("flow-key", "flow-secret")))
        .authorization_header(&OAuthRequest::post(&exchange).oauth_verifier("any"))
        .unwrap();
    let (status, _, body) = send_raw(
        serve.port,
        "POST",
        "/oauth/access_token",
        Some(&header),
        None,
    );
    assert_eq!(
        (status, body.as_str()),
        (401, "oauth_problem=token_expired")
    );
    let (_, log) = serve.stop("TERM");
    let issued: Vec<&str> = log.lines().filter(|l| l.contains(" issued (")).collect();
    assert_eq!(issued.len(), 3, "{log}");
    assert!(
        issued.iter().all(|l| l.contains("issued (1 held, ")),
        "{log}"
    );
}
