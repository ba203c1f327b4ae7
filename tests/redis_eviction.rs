//! A Redis that starts to evict after the store connected (issue 29): a
//! `CONFIG SET maxmemory-policy` on the live server, a server restarted on
//! the same address with an evicting policy (the connection reconnects
//! silently), a cluster node switched to one. Each check reads the policy
//! of the server that took its `SET`, so the store fails closed from the
//! next check on, naming the policy, never answers a replay as fresh, and
//! works again once the policy is `noeviction`. Against real
//! `redis-server` processes on 127.0.0.1 (`tests/redis_server/`).

#![cfg(feature = "redis")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod redis_server;

use std::time::{Duration, Instant};

use oauth1_signer::verify::{
    Freshness, NonceKey, NonceStore, RedisClusterNonceStore, RedisNonceStore, RedisOptions,
    StoreError,
};
use redis_server::{RedisCluster, RedisServer};

const KEEP: Duration = Duration::from_secs(600);

fn key(n: u64) -> NonceKey {
    NonceKey::new("consumer", "token", 1_318_622_958, &format!("nonce-{n}"))
}

fn name(n: u64) -> String {
    format!("oauth1:nonce:{}", key(n).to_hex())
}

fn options() -> RedisOptions {
    RedisOptions::default()
        .with_connect_timeout(Duration::from_millis(500))
        .with_response_timeout(Duration::from_millis(500))
}

fn set_policy(server: &RedisServer, policy: &str) {
    assert_eq!(
        server.command(&["CONFIG", "SET", "maxmemory-policy", policy]),
        "OK"
    );
}

/// The refusal of an evicting server: the policy, and what to set instead.
fn assert_refused_for(err: &StoreError, policy: &str) {
    let text = err.to_string();
    assert!(
        text.starts_with("nonce store unavailable: redis ")
            && text.contains(&format!("maxmemory-policy is {policy}"))
            && text.contains("CONFIG SET maxmemory-policy noeviction"),
        "{text}"
    );
}

/// Waits until the server no longer holds `key` (the release a refused
/// check sends after its `SET`, on the same connection).
async fn wait_gone(server: &RedisServer, key: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.command(&["EXISTS", key]) != "0" {
        assert!(
            Instant::now() < deadline,
            "{key} still held: the refused check's nonce was not released"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_policy_changed_on_a_live_server_fails_closed_until_it_is_noeviction_again() {
    let server = RedisServer::start();
    let store = RedisNonceStore::connect(&server.url(), options())
        .await
        .unwrap();
    assert_eq!(
        store.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Fresh
    );
    for policy in ["allkeys-lru", "volatile-lru", "allkeys-random"] {
        set_policy(&server, policy);
        // A new nonce and a replay alike: refused, naming the policy.
        let err = store.remember(&key(2), KEEP).await.unwrap_err();
        assert_refused_for(&err, policy);
        assert!(
            err.reason()
                .contains(&format!("redis 127.0.0.1:{}:", server.port)),
            "{err}"
        );
        let err = store.remember(&key(1), KEEP).await.unwrap_err();
        assert_refused_for(&err, policy);
        // What the refused check wrote is taken back: its retry is not a
        // replay once the policy is fixed.
        wait_gone(&server, &name(2)).await;
    }
    set_policy(&server, "noeviction");
    assert_eq!(
        store.remember(&key(2), KEEP).await.unwrap(),
        Freshness::Fresh
    );
    assert_eq!(
        store.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Replayed
    );
    // The opt-out for a server whose policy is known: no policy read.
    let unchecked = RedisNonceStore::connect(&server.url(), options().with_eviction_check(false))
        .await
        .unwrap();
    set_policy(&server, "allkeys-lru");
    assert_eq!(
        unchecked.remember(&key(3), KEEP).await.unwrap(),
        Freshness::Fresh
    );
}

#[tokio::test]
async fn a_full_evicting_redis_never_answers_a_replay_as_fresh() {
    // The case: nonces accepted, then the policy set to evict and
    // memory filled, then the replays; 16 to 19 of 20 used to be fresh.
    let server = RedisServer::start();
    let store = RedisNonceStore::connect(&server.url(), options())
        .await
        .unwrap();
    for n in 0..20 {
        assert_eq!(
            store.remember(&key(n), KEEP).await.unwrap(),
            Freshness::Fresh
        );
    }
    let used: u64 = server
        .command(&["INFO", "memory"])
        .lines()
        .find_map(|l| l.strip_prefix("used_memory:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap();
    let limit = (used + 512 * 1024).to_string();
    assert_eq!(
        server.command(&["CONFIG", "SET", "maxmemory", &limit]),
        "OK"
    );
    set_policy(&server, "allkeys-lru");
    // 2 MiB of other keys through a 512 KiB margin: older keys are evicted.
    let filler = "x".repeat(16 * 1024);
    for i in 0..128 {
        assert_eq!(
            server.command(&["SET", &format!("filler:{i}"), &filler]),
            "OK"
        );
    }
    let evicted: u64 = server
        .command(&["INFO", "stats"])
        .lines()
        .find_map(|l| l.strip_prefix("evicted_keys:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap();
    assert!(
        evicted > 0,
        "nothing was evicted: the test did not fill Redis"
    );
    for n in 0..20 {
        match store.remember(&key(n), KEEP).await {
            Ok(answer) => panic!("replay {n} of 20 answered {answer:?} by an evicting Redis"),
            Err(err) => assert_refused_for(&err, "allkeys-lru"),
        }
    }
}

#[tokio::test]
async fn a_server_restarted_with_an_evicting_policy_is_refused_after_the_reconnection() {
    let mut server = RedisServer::start();
    let store = RedisNonceStore::connect(&server.url(), options())
        .await
        .unwrap();
    assert_eq!(
        store.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Fresh
    );
    server.restart_with(&["--maxmemory-policy", "allkeys-random"]);
    // The connection finds the new server by itself; until it has, checks
    // fail as connection errors. Never fresh, and refused by name once
    // connected.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut n = 100;
    loop {
        n += 1;
        match store.remember(&key(n), KEEP).await {
            Ok(answer) => panic!("nonce {n} answered {answer:?} by an evicting Redis"),
            Err(e) if e.reason().contains("maxmemory-policy is allkeys-random") => {
                assert_refused_for(&e, "allkeys-random");
                break;
            }
            Err(e) if Instant::now() > deadline => panic!("not reconnected: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    let err = store.remember(&key(1), KEEP).await.unwrap_err();
    assert_refused_for(&err, "allkeys-random");
    // Restarted again with noeviction: back without rebuilding the store.
    server.restart();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        n += 1;
        match store.remember(&key(n), KEEP).await {
            Ok(answer) => {
                assert_eq!(answer, Freshness::Fresh);
                break;
            }
            Err(e) if Instant::now() > deadline => panic!("not back after restart: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
}

#[tokio::test]
async fn a_cluster_node_switched_to_evict_refuses_the_nonces_of_its_slots() {
    let cluster = RedisCluster::start();
    let urls = cluster.urls();
    let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
    let store = RedisClusterNonceStore::connect(&urls, options())
        .await
        .unwrap();
    let bad = &cluster.nodes[1];
    set_policy(bad, "allkeys-lfu");
    let (mut refused, mut fresh) = (0, 0);
    for n in 0..30 {
        match store.remember(&key(n), KEEP).await {
            Ok(answer) => {
                assert_eq!(answer, Freshness::Fresh, "{n}");
                // Only the other nodes take nonces: the evicting one
                // sends the key elsewhere.
                let there = bad.command(&["EXISTS", &name(n)]);
                assert!(there.starts_with("-MOVED "), "{n}: {there}");
                fresh += 1;
            }
            Err(err) => {
                assert_refused_for(&err, "allkeys-lfu");
                assert!(err.reason().contains("the node of the key's slot"), "{err}");
                refused += 1;
            }
        }
    }
    assert!(refused > 0 && fresh > 0, "{refused} refused, {fresh} fresh");
    set_policy(bad, "noeviction");
    for n in 100..130 {
        assert_eq!(
            store.remember(&key(n), KEEP).await.unwrap(),
            Freshness::Fresh,
            "{n}"
        );
    }
}
