//! Several `oauth1 proxy` instances sharing a real Redis (started on
//! 127.0.0.1 by the test): a request accepted by one is refused by the
//! other; a store that cannot answer is 503, fail closed, never forwarded.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod proxy_support;
#[path = "../../tests/redis_server/mod.rs"]
mod redis_server;

use proxy_support::{send, sign, AxumUpstream, Proxy, ToSign, CREDENTIALS};
use redis_server::RedisServer;

/// Both proxies are reached at the same public URL, as behind one load
/// balancer: the URL clients sign.
const PUBLIC: &str = "https://api.example.com";

fn args(redis: &str) -> Vec<&str> {
    let mut args = CREDENTIALS.to_vec();
    args.extend(["--public-url", PUBLIC, "--nonce-store", redis]);
    args
}

fn signed(path: &str) -> String {
    sign(&[ToSign {
        method: "GET",
        url: format!("{PUBLIC}{path}"),
        consumer: ("ck", "cs"),
        token: Some(("tk", "ts")),
        form_body: None,
    }])
    .remove(0)
}

#[test]
fn a_request_accepted_by_one_proxy_is_refused_by_the_other() {
    let redis = RedisServer::start();
    let url = redis.url();
    let up = AxumUpstream::start();
    let one = Proxy::start(&up.url(), &args(&url));
    let two = Proxy::start(&up.url(), &args(&url));
    let auth = signed("/shared");
    let first = send(one.port, "GET", "/shared", &[("Authorization", &auth)], b"");
    assert_eq!(first.status, 200, "{}", one.log());
    let replay = send(two.port, "GET", "/shared", &[("Authorization", &auth)], b"");
    assert_eq!(
        (replay.status, replay.body.as_str()),
        (401, "oauth_problem=nonce_used")
    );
    // And the other way round.
    let auth = signed("/other");
    assert_eq!(
        send(two.port, "GET", "/other", &[("Authorization", &auth)], b"").status,
        200
    );
    assert_eq!(
        send(one.port, "GET", "/other", &[("Authorization", &auth)], b"").status,
        401
    );
    assert_eq!(up.count(), 2);
}

#[test]
fn a_store_that_cannot_answer_is_503_and_nothing_is_forwarded() {
    let mut redis = RedisServer::start();
    let up = AxumUpstream::start();
    let proxy = Proxy::start(&up.url(), &args(&redis.url()));
    let auth = signed("/before");
    assert_eq!(
        send(
            proxy.port,
            "GET",
            "/before",
            &[("Authorization", &auth)],
            b""
        )
        .status,
        200
    );
    redis.kill();
    let auth = signed("/after");
    let a = send(
        proxy.port,
        "GET",
        "/after",
        &[("Authorization", &auth)],
        b"",
    );
    assert_eq!(
        (a.status, a.body.as_str()),
        (503, "oauth_problem=temporarily_unavailable")
    );
    assert_eq!(up.count(), 1);
    proxy.wait_for_log(" 503 ");
}
