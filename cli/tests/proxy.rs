//! `oauth1 proxy` against real components on 127.0.0.1: an axum upstream
//! and Python's http.server recording what reaches them, requests signed
//! by oauthlib (an independent implementation) and sent raw or by curl.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod proxy_support;

use common::bin::{threads_named, TempDir};
use proxy_support::{
    secrets_file, send, sign, AxumUpstream, Proxy, PythonUpstream, ToSign, CREDENTIALS,
};

fn signed_get(proxy: &Proxy, target: &str) -> String {
    let url = format!("http://127.0.0.1:{}{target}", proxy.port);
    sign(&[ToSign {
        method: "GET",
        url,
        consumer: ("ck", "cs"),
        token: Some(("tk", "ts")),
        form_body: None,
    }])
    .remove(0)
}

#[test]
fn a_verified_request_reaches_the_upstream_as_received_with_the_identity() {
    let up = AxumUpstream::start();
    let proxy = Proxy::start(&up.url(), &CREDENTIALS);
    let auth = signed_get(&proxy, "/photos?size=original&x=%20y");
    let a = send(
        proxy.port,
        "GET",
        "/photos?size=original&x=%20y",
        &[("Authorization", &auth), ("X-App", "kept")],
        b"",
    );
    assert_eq!((a.status, a.body.as_str()), (200, "upstream ok"));
    let seen = up.last();
    assert_eq!(seen.method, "GET");
    assert_eq!(seen.target, "/photos?size=original&x=%20y");
    assert_eq!(seen.all("x-oauth1-consumer-key"), ["ck"]);
    assert_eq!(seen.all("x-oauth1-token"), ["tk"]);
    assert_eq!(seen.all("x-app"), ["kept"]);
    // Kept by default, as received.
    assert_eq!(seen.all("authorization"), [auth.as_str()]);
    assert_eq!(
        seen.all("host"),
        [format!("127.0.0.1:{}", proxy.port).as_str()]
    );
    assert_eq!(seen.all("x-forwarded-for"), ["127.0.0.1"]);
    assert_eq!(seen.all("x-forwarded-proto"), ["http"]);
    assert_eq!(
        seen.all("x-forwarded-host"),
        [format!("127.0.0.1:{}", proxy.port).as_str()]
    );
    assert_eq!(up.count(), 1);
}

#[test]
fn a_two_legged_request_has_no_token_header_and_a_form_body_is_verified_and_sent() {
    let up = AxumUpstream::start();
    let proxy = Proxy::start(
        &up.url(),
        &["--consumer-key", "ck", "--consumer-secret", "cs"],
    );
    let url = format!("http://127.0.0.1:{}/status/update", proxy.port);
    let auth = sign(&[ToSign {
        method: "POST",
        url,
        consumer: ("ck", "cs"),
        token: None,
        form_body: Some("status=Hello%20Ladies&b=2"),
    }])
    .remove(0);
    let a = send(
        proxy.port,
        "POST",
        "/status/update",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/x-www-form-urlencoded"),
            // A client's own claim of a token: removed.
            ("X-OAuth1-Token", "forged"),
        ],
        b"status=Hello%20Ladies&b=2",
    );
    assert_eq!(a.status, 200, "{}", proxy.log());
    let seen = up.last();
    assert_eq!(seen.body, b"status=Hello%20Ladies&b=2");
    assert_eq!(seen.all("x-oauth1-consumer-key"), ["ck"]);
    assert!(seen.all("x-oauth1-token").is_empty());
    // The form's bytes are signed: one changed byte, refused.
    let auth = sign(&[ToSign {
        method: "POST",
        url: format!("http://127.0.0.1:{}/status/update", proxy.port),
        consumer: ("ck", "cs"),
        token: None,
        form_body: Some("status=Hello"),
    }])
    .remove(0);
    let a = send(
        proxy.port,
        "POST",
        "/status/update",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/x-www-form-urlencoded"),
        ],
        b"status=Hellp",
    );
    assert_eq!(a.status, 401);
    assert_eq!(up.count(), 1);
}

#[test]
fn client_identity_headers_are_removed_in_every_spelling_and_hop_by_hop_ones_too() {
    let up = AxumUpstream::start();
    let proxy = Proxy::start(&up.url(), &CREDENTIALS);
    let auth = signed_get(&proxy, "/me");
    let a = send(
        proxy.port,
        "GET",
        "/me",
        &[
            ("Authorization", &auth),
            ("x-oauth1-consumer-key", "evil1"),
            ("X-OAUTH1-CONSUMER-KEY", "evil2"),
            ("X-OAuth1-Token", "evil3"),
            ("x-oAuth1-tOKEN", "evil4"),
            ("Connection", "keep-alive, X-Hop-Named"),
            ("X-Hop-Named", "drop me"),
            ("Keep-Alive", "timeout=5"),
            ("TE", "trailers"),
            ("Upgrade", "websocket"),
            ("Proxy-Connection", "keep-alive"),
            ("X-End-To-End", "kept"),
        ],
        b"",
    );
    assert_eq!(a.status, 200, "{}", proxy.log());
    let seen = up.last();
    assert_eq!(seen.all("x-oauth1-consumer-key"), ["ck"]);
    assert_eq!(seen.all("x-oauth1-token"), ["tk"]);
    for gone in [
        "x-hop-named",
        "keep-alive",
        "te",
        "upgrade",
        "proxy-connection",
    ] {
        assert!(
            seen.all(gone).is_empty(),
            "{gone} reached the upstream: {seen:?}"
        );
    }
    assert_eq!(seen.all("x-end-to-end"), ["kept"]);
    // Not the client's `keep-alive, X-Hop-Named`: the hop is the proxy's.
    assert!(seen.all("connection").iter().all(|v| !v.contains("X-Hop")));
}

#[test]
fn nothing_unverified_reaches_the_upstream() {
    let up = AxumUpstream::start();
    let proxy = Proxy::start(&up.url(), &CREDENTIALS);
    let auth = signed_get(&proxy, "/a?x=1");
    // Tampered: the query is not the one signed.
    let a = send(
        proxy.port,
        "GET",
        "/a?x=2",
        &[("Authorization", &auth)],
        b"",
    );
    assert_eq!(a.status, 401);
    assert_eq!(
        a.header("www-authenticate"),
        Some(format!("OAuth realm=\"http://127.0.0.1:{}\"", proxy.port).as_str())
    );
    assert_eq!(a.body, "oauth_problem=signature_invalid");
    // The original is accepted once, then replayed.
    assert_eq!(
        send(
            proxy.port,
            "GET",
            "/a?x=1",
            &[("Authorization", &auth)],
            b""
        )
        .status,
        200
    );
    let a = send(
        proxy.port,
        "GET",
        "/a?x=1",
        &[("Authorization", &auth)],
        b"",
    );
    assert_eq!(
        (a.status, a.body.as_str()),
        (401, "oauth_problem=nonce_used")
    );
    // Unsigned.
    let a = send(proxy.port, "GET", "/a", &[], b"");
    assert_eq!(a.status, 401);
    assert!(
        a.body.starts_with("oauth_problem=parameter_absent"),
        "{}",
        a.body
    );
    // An unknown key: answered as a bad signature, logged as what it is.
    let url = format!("http://127.0.0.1:{}/a", proxy.port);
    let unknown = sign(&[ToSign {
        method: "GET",
        url,
        consumer: ("nobody", "cs"),
        token: None,
        form_body: None,
    }])
    .remove(0);
    let a = send(proxy.port, "GET", "/a", &[("Authorization", &unknown)], b"");
    assert_eq!(
        (a.status, a.body.as_str()),
        (401, "oauth_problem=signature_invalid")
    );
    assert_eq!(up.count(), 1);
    let log = proxy.wait_for_log("unknown");
    // No --diagnose: no diagnosis.
    assert!(!log.contains("likely cause"), "{log}");
    // The signature is never logged, nor the secrets.
    let sig = auth
        .split("oauth_signature=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    assert!(!log.contains(sig), "{log}");
}

#[test]
fn strip_authorization_and_rfc7239_and_renamed_headers() {
    let up = AxumUpstream::start();
    let mut args = CREDENTIALS.to_vec();
    args.extend([
        "--strip-authorization",
        "--forwarded",
        "rfc7239",
        "--consumer-key-header",
        "X-Caller",
        "--token-header",
        "X-Caller-Token",
    ]);
    let proxy = Proxy::start(&up.url(), &args);
    let auth = signed_get(&proxy, "/b");
    let a = send(
        proxy.port,
        "GET",
        "/b",
        &[("Authorization", &auth), ("x-caller", "evil")],
        b"",
    );
    assert_eq!(a.status, 200, "{}", proxy.log());
    let seen = up.last();
    assert!(seen.all("authorization").is_empty());
    assert_eq!(seen.all("x-caller"), ["ck"]);
    assert_eq!(seen.all("x-caller-token"), ["tk"]);
    assert_eq!(
        seen.all("forwarded"),
        [format!("for=127.0.0.1;proto=http;host=\"127.0.0.1:{}\"", proxy.port).as_str()]
    );
    assert!(seen.all("x-forwarded-for").is_empty());
}

#[test]
fn a_python_upstream_gets_the_identity_and_curl_is_a_client() {
    let up = PythonUpstream::start();
    let proxy = Proxy::start(&up.url(), &CREDENTIALS);
    let auth = signed_get(&proxy, "/py?q=1");
    let out = std::process::Command::new("curl")
        .args(["-sS", "--max-time", "20", "-H"])
        .arg(format!("Authorization: {auth}"))
        .args(["-H", "X-OAuth1-Consumer-Key: evil"])
        .arg(format!("http://127.0.0.1:{}/py?q=1", proxy.port))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "python upstream");
    let seen = up.next();
    assert_eq!(seen["target"], "/py?q=1");
    let values = |name: &str| -> Vec<String> {
        seen["headers"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|h| h[0].as_str().unwrap().eq_ignore_ascii_case(name))
            .map(|h| h[1].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(values("x-oauth1-consumer-key"), ["ck"]);
    assert_eq!(values("x-oauth1-token"), ["tk"]);
    // Unsigned, by curl: refused, never forwarded.
    let out = std::process::Command::new("curl")
        .args([
            "-sS",
            "--max-time",
            "20",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
        ])
        .arg(format!("http://127.0.0.1:{}/py", proxy.port))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "401");
    assert!(!up.got_more());
}

#[test]
fn the_secrets_file_two_consumers_a_token_a_reload_and_a_bad_reload() {
    let up = AxumUpstream::start();
    let dir = TempDir::new(&format!("proxy-secrets-{}", proxy_support::unique()));
    let file = secrets_file(
        &dir.0,
        "[[consumer]]\nkey = \"ck1\"\nsecret = \"cs1\"\n\n[[consumer]]\nkey = \"ck2\"\nsecret = \"cs2\"\n\n\
         [[token]]\ntoken = \"t1\"\nsecret = \"ts1\"\nconsumer = \"ck1\"\n",
    );
    // Readable by its group: said at start.
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let proxy = Proxy::start(&up.url(), &["--secrets", file.to_str().unwrap()]);
    proxy.wait_for_log("can be read by others than its owner (mode 640): chmod 600 it");
    let url = |p: &str| format!("http://127.0.0.1:{}{p}", proxy.port);
    let get = |consumer, token, path: &str| {
        let auth = sign(&[ToSign {
            method: "GET",
            url: url(path),
            consumer,
            token,
            form_body: None,
        }])
        .remove(0);
        send(proxy.port, "GET", path, &[("Authorization", &auth)], b"").status
    };
    assert_eq!(get(("ck1", "cs1"), Some(("t1", "ts1")), "/1"), 200);
    assert_eq!(up.last().all("x-oauth1-token"), ["t1"]);
    assert_eq!(get(("ck2", "cs2"), None, "/2"), 200);
    assert_eq!(up.last().all("x-oauth1-consumer-key"), ["ck2"]);
    // t1 is ck1's, not ck2's.
    assert_eq!(get(("ck2", "cs2"), Some(("t1", "ts1")), "/3"), 401);
    // Reloaded: ck2 gone, ck3 new.
    std::fs::write(&file, "[[consumer]]\nkey = \"ck3\"\nsecret = \"cs3\"\n").unwrap();
    proxy.signal("HUP");
    proxy.wait_for_log("--secrets re-read: 1 consumers, 0 tokens");
    assert_eq!(get(("ck3", "cs3"), None, "/4"), 200);
    assert_eq!(get(("ck2", "cs2"), None, "/5"), 401);
    // A bad file: the last good one kept, and why (never the value).
    std::fs::write(&file, "[[consumer]]\nkey = \"ck4\"\nsecret = 987654321\n").unwrap();
    proxy.signal("HUP");
    let log = proxy.wait_for_log("not re-read, the last good one kept");
    assert!(log.contains("line 3, column 10"), "{log}");
    assert!(!log.contains("987654321"), "{log}");
    assert_eq!(get(("ck3", "cs3"), None, "/6"), 200);
    assert_eq!(get(("ck4", "987654321"), None, "/7"), 401);
}

#[test]
fn health_metrics_and_upstream_failures() {
    let up = AxumUpstream::start();
    let mut args = CREDENTIALS.to_vec();
    args.extend([
        "--health-path",
        "/healthz",
        "--metrics-listen",
        "127.0.0.1:0",
        "--upstream-timeout",
        "1",
    ]);
    let proxy = Proxy::start(&up.url(), &args);
    let a = send(proxy.port, "GET", "/healthz", &[], b"");
    assert_eq!((a.status, a.body.as_str()), (200, "ok\n"));
    assert_eq!(up.count(), 0);
    let auth = signed_get(&proxy, "/ok");
    assert_eq!(
        send(proxy.port, "GET", "/ok", &[("Authorization", &auth)], b"").status,
        200
    );
    assert_eq!(
        send(proxy.port, "GET", "/ok", &[("Authorization", &auth)], b"").status,
        401
    );
    assert_eq!(send(proxy.port, "GET", "/ok", &[], b"").status, 401);
    // The upstream holds /slow past --upstream-timeout: 504.
    let auth = signed_get(&proxy, "/slow");
    let a = send(proxy.port, "GET", "/slow", &[("Authorization", &auth)], b"");
    assert_eq!(a.status, 504);
    let metrics = send(proxy.metrics_port.unwrap(), "GET", "/metrics", &[], b"").body;
    for line in [
        "oauth1_proxy_requests_total{outcome=\"health\"} 1\n",
        "oauth1_proxy_requests_total{outcome=\"valid\"} 1\n",
        "oauth1_proxy_requests_total{outcome=\"nonce_used\"} 1\n",
        "oauth1_proxy_requests_total{outcome=\"parameter_absent\"} 1\n",
        "oauth1_proxy_requests_total{outcome=\"upstream_timeout\"} 1\n",
        "oauth1_proxy_upstream_errors_total{kind=\"timeout\"} 1\n",
        "oauth1_proxy_request_duration_seconds_count 5\n",
    ] {
        assert!(metrics.contains(line), "no {line:?} in:\n{metrics}");
    }
}

#[test]
fn an_upstream_that_refuses_connections_is_502_and_the_proxy_keeps_serving() {
    // A port that was free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let proxy = Proxy::start(&format!("http://127.0.0.1:{port}"), &CREDENTIALS);
    // Each refused connection is a 502, and the proxy answers the next.
    for path in ["/x", "/y"] {
        let auth = signed_get(&proxy, path);
        let a = send(proxy.port, "GET", path, &[("Authorization", &auth)], b"");
        assert_eq!(a.status, 502);
    }
    let log = proxy.wait_for_log_times("the upstream failed", 2);
    assert_eq!(log.matches(" 502 ").count(), 2, "{log}");
}

#[test]
fn the_log_is_json_lines_with_log_format_json() {
    let up = AxumUpstream::start();
    let mut args = CREDENTIALS.to_vec();
    args.extend(["--log-format", "json"]);
    let proxy = Proxy::start(&up.url(), &args);
    let auth = signed_get(&proxy, "/j?a=1");
    assert_eq!(
        send(
            proxy.port,
            "GET",
            "/j?a=1",
            &[("Authorization", &auth)],
            b""
        )
        .status,
        200
    );
    let log = proxy.wait_for_log("\"outcome\":\"valid\"");
    let line: serde_json::Value =
        serde_json::from_str(log.lines().find(|l| l.contains("valid")).unwrap()).unwrap();
    assert_eq!(line["status"], 200);
    assert_eq!(line["method"], "GET");
    assert_eq!(line["consumer_key"], "ck");
    assert_eq!(line["token"], "tk");
    assert_eq!(line["target"], "/j?a=1");
}

#[test]
fn sigterm_drains_a_request_in_flight() {
    let up = AxumUpstream::start();
    let proxy = Proxy::start(&up.url(), &CREDENTIALS);
    let auth = signed_get(&proxy, "/gate");
    let port = proxy.port;
    let client =
        std::thread::spawn(move || send(port, "GET", "/gate", &[("Authorization", &auth)], b""));
    // In flight: the upstream holds it at its gate.
    up.wait_for(1);
    proxy.signal("TERM");
    proxy.wait_for_log("SIGTERM: stopping");
    // Stopped accepting: new connections are refused (once the listener,
    // dropped just after the log line, is closed).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
        assert!(std::time::Instant::now() < deadline, "still accepting");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    up.open();
    // The request in flight got the upstream's answer, then the proxy exited.
    let a = client.join().unwrap();
    assert_eq!((a.status, a.body.as_str()), (200, "through the gate"));
    let (status, log) = proxy.stop_waiting();
    assert!(status.success(), "{status}: {log}");
}

#[test]
fn diagnose_names_the_likely_cause_in_the_log_only() {
    let up = AxumUpstream::start();
    let mut args = CREDENTIALS.to_vec();
    args.extend(["--diagnose", "5"]);
    let proxy = Proxy::start(&up.url(), &args);
    // Signed without the query the request is sent with.
    let auth = signed_get(&proxy, "/d");
    let a = send(
        proxy.port,
        "GET",
        "/d?a=1",
        &[("Authorization", &auth)],
        b"",
    );
    assert_eq!(
        (a.status, a.body.as_str()),
        (401, "oauth_problem=signature_invalid")
    );
    // The explainer's finding, for the operator; the client was told nothing more.
    let log = proxy.wait_for_log("likely cause");
    assert!(
        log.contains("401 the signature does not match the request; likely cause: query-param-missing (parameters)"),
        "{log}"
    );
    assert_eq!(up.count(), 0);
}

#[test]
fn a_bad_start_says_what_is_wrong() {
    let dir = TempDir::new(&format!("proxy-start-{}", proxy_support::unique()));
    let file = secrets_file(&dir.0, "[[consumer]]\nkey = \"ck\"\nsecret = \"cs\"\n");
    let file = file.to_str().unwrap();
    let e = Proxy::try_start(
        "http://127.0.0.1:9",
        &["--secrets", file, "--consumer-key", "ck"],
    )
    .err()
    .unwrap();
    assert!(
        e.contains("--secrets and --consumer-key both give credentials"),
        "{e}"
    );
    std::fs::write(dir.0.join("secrets.toml"), "[[consumer]]\nkey = \"ck\"\n").unwrap();
    let e = Proxy::try_start("http://127.0.0.1:9", &["--secrets", file])
        .err()
        .unwrap();
    assert!(e.contains("missing field `secret`"), "{e}");
    let e = Proxy::try_start("https://127.0.0.1:9", &CREDENTIALS)
        .err()
        .unwrap();
    assert!(
        e.contains("--upstream https://127.0.0.1:9: expected http://HOST:PORT"),
        "{e}"
    );
}

/// The proxy's threads are `serve`'s rule (`--workers`, else one a core):
/// `--workers 3` starts three, named `oauth1-worker` (`/proc`, Linux).
#[test]
fn workers_sets_the_threads_it_answers_on() {
    let upstream = AxumUpstream::start();
    let mut args = CREDENTIALS.to_vec();
    args.extend(["--workers", "3"]);
    let proxy = Proxy::start(&upstream.url(), &args);
    assert_eq!(threads_named(proxy.child.id(), "oauth1-worker", 3), 3);
}
