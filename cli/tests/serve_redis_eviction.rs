//! `oauth1 serve --nonce-store redis://...` when Redis starts to evict after
//! `serve` started (issue 29), on the real binary and a real `redis-server`
//! at 127.0.0.1: after `CONFIG SET maxmemory-policy allkeys-lru` a replay,
//! and a fresh request alike, are answered 503 naming the policy (never
//! 200), and once the policy is `noeviction` again requests are answered as
//! before, without a restart.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
#[path = "../../tests/redis_server/mod.rs"]
mod redis_server;

use common::serve::{send, Answer, Serve};
use oauth1_signer::{Credentials, OAuthRequest, Signer};
use redis_server::RedisServer;

/// A fresh header for `POST /update` with `n=1`, signed by the library.
fn signed(serve: &Serve) -> String {
    Signer::new(Credentials::new("ck", "cs").with_token("tk", "ts"))
        .authorization_header(&OAuthRequest::post(&serve.url("/update")).form_body(b"n=1"))
        .unwrap()
}

fn post(serve: &Serve, header: &str) -> Answer {
    send(serve.port, "POST", "/update", Some(header), Some(b"n=1"))
}

fn assert_unavailable_for(answer: &Answer, policy: &str) {
    assert_eq!(answer.status, 503, "{}", answer.json);
    assert_eq!(
        answer.json["problem"], "oauth_problem=temporarily_unavailable",
        "{}",
        answer.json
    );
    let reason = answer.json["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(&format!("maxmemory-policy is {policy}"))
            && reason.contains("maxmemory-policy noeviction"),
        "{reason}"
    );
}

#[test]
fn an_evicting_policy_set_on_a_running_redis_is_answered_503_naming_it() {
    let redis = RedisServer::start();
    let serve = Serve::start(&["--nonce-store", &redis.url()]);
    let accepted = signed(&serve);
    assert_eq!(post(&serve, &accepted).status, 200);

    assert_eq!(
        redis.command(&["CONFIG", "SET", "maxmemory-policy", "allkeys-lru"]),
        "OK"
    );
    assert_unavailable_for(&post(&serve, &accepted), "allkeys-lru");
    let refused = signed(&serve);
    assert_unavailable_for(&post(&serve, &refused), "allkeys-lru");

    assert_eq!(
        redis.command(&["CONFIG", "SET", "maxmemory-policy", "noeviction"]),
        "OK"
    );
    let replay = post(&serve, &accepted);
    assert_eq!(
        (replay.status, replay.json["problem"].as_str()),
        (401, Some("oauth_problem=nonce_used")),
        "{}",
        replay.json
    );
    assert_eq!(post(&serve, &signed(&serve)).status, 200);
    let (_, log) = serve.stop("TERM");
    assert!(
        log.contains(" 503 nonce store unavailable: redis 127.0.0.1:")
            && log.contains("maxmemory-policy is allkeys-lru"),
        "{log}"
    );
}
