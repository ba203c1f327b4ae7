//! The Redis nonce stores against real `redis-server` processes on
//! 127.0.0.1, started here (`tests/redis_server/`): shared nonces, atomic
//! check-and-set, fail closed when Redis is gone or answers an error, back
//! by itself when Redis returns, a retried command that does not turn a
//! fresh nonce into a replay, and a three-node cluster answering as one
//! node does.

#![cfg(feature = "redis")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod redis_server;

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use oauth1_signer::verify::{
    Freshness, NonceKey, NonceStore, RedisClusterNonceStore, RedisNonceStore, RedisOptions,
};
use redis_server::{RedisCluster, RedisServer};

const KEEP: Duration = Duration::from_secs(600);

fn key(n: u64) -> NonceKey {
    NonceKey::new("consumer", "token", 1_318_622_958, &format!("nonce-{n}"))
}

/// Short timeouts: a dead Redis is found out quickly.
fn options() -> RedisOptions {
    RedisOptions::default()
        .with_connect_timeout(Duration::from_millis(500))
        .with_response_timeout(Duration::from_millis(500))
}

async fn store(server: &RedisServer) -> RedisNonceStore {
    RedisNonceStore::connect(&server.url(), options())
        .await
        .unwrap()
}

#[tokio::test]
async fn two_stores_on_one_redis_see_each_others_nonces() {
    let server = RedisServer::start();
    let (a, b) = (store(&server).await, store(&server).await);
    assert_eq!(a.remember(&key(1), KEEP).await.unwrap(), Freshness::Fresh);
    assert_eq!(
        b.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Replayed
    );
    assert_eq!(b.remember(&key(2), KEEP).await.unwrap(), Freshness::Fresh);
    assert_eq!(
        a.remember(&key(2), KEEP).await.unwrap(),
        Freshness::Replayed
    );
    assert_eq!(
        a.remember(&key(2), KEEP).await.unwrap(),
        Freshness::Replayed
    );
}

#[tokio::test]
async fn concurrent_checks_of_one_nonce_answer_fresh_exactly_once() {
    let server = RedisServer::start();
    let stores = [
        Arc::new(store(&server).await),
        Arc::new(store(&server).await),
    ];
    for round in 0..10 {
        let mut tasks = tokio::task::JoinSet::new();
        for i in 0..20 {
            let store = stores[i % 2].clone();
            tasks.spawn(async move { store.remember(&key(round), KEEP).await.unwrap() });
        }
        let answers = tasks.join_all().await;
        let fresh = answers.iter().filter(|a| **a == Freshness::Fresh).count();
        assert_eq!(fresh, 1, "round {round}: {answers:?}");
    }
}

#[tokio::test]
async fn the_key_is_the_prefix_and_the_nonce_key_and_lives_at_least_keep_for() {
    let server = RedisServer::start();
    let store = RedisNonceStore::connect(&server.url(), options().with_key_prefix("t:"))
        .await
        .unwrap();
    let k = key(7);
    // 1.5 ms: PX counts whole milliseconds, rounded up to 2.
    store.remember(&k, Duration::from_secs(300)).await.unwrap();
    store
        .remember(&key(8), Duration::from_micros(1500))
        .await
        .unwrap();
    let name = format!("t:{}", k.to_hex());
    let ttl: i64 = server.command(&["PTTL", &name]).parse().unwrap();
    assert!(ttl > 0 && ttl <= 300_000, "PTTL {ttl}");
    // Up to two milliseconds may have passed already (0: in its last
    // millisecond; -2: gone); never above 2, and never without a TTL (-1).
    let short = server.command(&["PTTL", &format!("t:{}", key(8).to_hex())]);
    let short: i64 = short.parse().unwrap();
    assert!(short == -2 || (0..=2).contains(&short), "PTTL {short}");
}

#[tokio::test]
async fn an_error_reply_fails_closed_with_the_reason() {
    let server = RedisServer::start();
    let store = store(&server).await;
    // SET ... GET on a key holding a list is a WRONGTYPE error.
    let name = format!("oauth1:nonce:{}", key(1).to_hex());
    assert_eq!(server.command(&["LPUSH", &name, "x"]), "1");
    let err = store.remember(&key(1), KEEP).await.unwrap_err();
    // Its own message, then Redis's own error as its source.
    let text = format!("{err} ({})", err.describe());
    assert!(
        text.starts_with("nonce store unavailable: redis 127.0.0.1:"),
        "{text}"
    );
    assert!(text.contains("WRONGTYPE"), "{text}");
}

#[tokio::test]
async fn connect_fails_with_the_address_when_nothing_listens() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("redis://user:hunter2@127.0.0.1:{port}");
    let err = RedisNonceStore::connect(&url, options()).await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains(&format!("127.0.0.1:{port}")), "{text}");
    assert!(!text.contains("hunter2"), "{text}");
    let err = RedisNonceStore::connect("http://127.0.0.1/", options())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("not a redis URL"), "{err}");
}

#[tokio::test]
async fn killing_redis_fails_closed_and_restarting_it_brings_the_store_back() {
    let mut server = RedisServer::start();
    let store = store(&server).await;
    assert_eq!(
        store.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Fresh
    );
    server.kill();
    for n in 2..5 {
        let err = store.remember(&key(n), KEEP).await.unwrap_err();
        assert!(err.reason().contains("127.0.0.1"), "{err}");
    }
    server.restart();
    // Back without rebuilding the store; how many checks the reconnection
    // takes is the client's business, so wait for it (with a deadline).
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut n = 100;
    let last = loop {
        n += 1;
        match store.remember(&key(n), KEEP).await {
            Ok(answer) => break answer,
            Err(e) if Instant::now() > deadline => panic!("not back after restart: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    };
    assert_eq!(last, Freshness::Fresh);
    assert_eq!(
        store.remember(&key(n), KEEP).await.unwrap(),
        Freshness::Replayed
    );
}

/// A loopback proxy to Redis that, once, forwards a `SET` and then breaks
/// the connection instead of passing on the reply: Redis has applied the
/// command, the client has not heard, and sends it again.
struct LoseFirstSetReply {
    port: u16,
    stop: Arc<AtomicBool>,
}

impl LoseFirstSetReply {
    fn start(upstream: u16) -> LoseFirstSetReply {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = Arc::new(AtomicBool::new(false));
        let lost = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            while !stopping.load(Ordering::Relaxed) && Instant::now() < deadline {
                match listener.accept() {
                    Ok((client, _)) => {
                        client.set_nonblocking(false).unwrap();
                        let server = TcpStream::connect(("127.0.0.1", upstream)).unwrap();
                        pump(client, server, lost.clone());
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        });
        LoseFirstSetReply { port, stop }
    }
}

impl Drop for LoseFirstSetReply {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Copies both ways; the first reply after the first `SET` is dropped and
/// both sockets are shut down instead.
fn pump(client: TcpStream, server: TcpStream, lost: Arc<AtomicBool>) {
    let armed = Arc::new(AtomicBool::new(false));
    let (mut c_in, mut s_out) = (client.try_clone().unwrap(), server.try_clone().unwrap());
    let arm = armed.clone();
    let lost_up = lost.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n @ 1..) = c_in.read(&mut buf) {
            let chunk = &buf[..n];
            if !lost_up.load(Ordering::SeqCst) && chunk.windows(7).any(|w| w == b"\r\nSET\r\n") {
                arm.store(true, Ordering::SeqCst);
            }
            if s_out.write_all(chunk).is_err() {
                break;
            }
        }
    });
    let (mut s_in, mut c_out) = (server, client);
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n @ 1..) = s_in.read(&mut buf) {
            if armed.load(Ordering::SeqCst) && !lost.swap(true, Ordering::SeqCst) {
                let _ = c_out.shutdown(Shutdown::Both);
                let _ = s_in.shutdown(Shutdown::Both);
                break;
            }
            if c_out.write_all(&buf[..n]).is_err() {
                break;
            }
        }
    });
}

#[tokio::test]
async fn a_command_sent_again_after_a_lost_reply_still_answers_fresh() {
    let server = RedisServer::start();
    let proxy = LoseFirstSetReply::start(server.port);
    let store = RedisNonceStore::connect(&format!("redis://127.0.0.1:{}", proxy.port), options())
        .await
        .unwrap();
    // The first SET reached Redis and its reply was lost; the second finds
    // the value the first wrote, which is its own.
    assert_eq!(
        store.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Fresh
    );
    let name = format!("oauth1:nonce:{}", key(1).to_hex());
    assert_ne!(server.command(&["GET", &name]), "(nil)");
    // And another caller's nonce is still a replay.
    let direct = RedisNonceStore::connect(&server.url(), options())
        .await
        .unwrap();
    assert_eq!(
        direct.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Replayed
    );
    drop(proxy);
}

#[tokio::test]
async fn a_three_node_cluster_answers_as_one_node_does() {
    let cluster = RedisCluster::start();
    let single = RedisServer::start();
    let urls = cluster.urls();
    let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
    let a = RedisClusterNonceStore::connect(&urls, options())
        .await
        .unwrap();
    // Another client entering the cluster through one node only.
    let b = RedisClusterNonceStore::connect(&urls[2..], options())
        .await
        .unwrap();
    let one = store(&single).await;
    // Enough keys to land on every node's slots.
    for n in 0..60 {
        let k = key(n);
        let (first, other) = if n % 2 == 0 { (&a, &b) } else { (&b, &a) };
        assert_eq!(
            first.remember(&k, KEEP).await.unwrap(),
            Freshness::Fresh,
            "{n}"
        );
        assert_eq!(
            one.remember(&k, KEEP).await.unwrap(),
            Freshness::Fresh,
            "{n}"
        );
        assert_eq!(
            other.remember(&k, KEEP).await.unwrap(),
            Freshness::Replayed,
            "{n}"
        );
        assert_eq!(
            one.remember(&k, KEEP).await.unwrap(),
            Freshness::Replayed,
            "{n}"
        );
    }
    // Every node holds some of them.
    for node in &cluster.nodes {
        let held: u64 = node.command(&["DBSIZE"]).parse().unwrap();
        assert!(held > 0, "node {} holds none of 60 keys", node.port);
    }
    let empty: [&str; 0] = [];
    let err = RedisClusterNonceStore::connect(&empty, options())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("no node"), "{err}");
}

#[tokio::test]
async fn concurrent_checks_on_the_cluster_answer_fresh_exactly_once() {
    let cluster = RedisCluster::start();
    let urls = cluster.urls();
    let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
    let store = Arc::new(
        RedisClusterNonceStore::connect(&urls, options())
            .await
            .unwrap(),
    );
    for round in 0..5 {
        let mut tasks = tokio::task::JoinSet::new();
        for _ in 0..20 {
            let store = store.clone();
            tasks.spawn(async move { store.remember(&key(round), KEEP).await.unwrap() });
        }
        let answers = tasks.join_all().await;
        assert_eq!(
            answers.iter().filter(|a| **a == Freshness::Fresh).count(),
            1,
            "{answers:?}"
        );
    }
}

#[tokio::test]
async fn a_cluster_node_killed_fails_closed_and_its_return_brings_the_store_back() {
    let mut cluster = RedisCluster::start();
    let urls = cluster.urls();
    let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
    let store = RedisClusterNonceStore::connect(&urls, options())
        .await
        .unwrap();
    for n in 0..30 {
        assert_eq!(
            store.remember(&key(n), KEEP).await.unwrap(),
            Freshness::Fresh
        );
    }
    // A nonce held by the first node: only that node can say it was seen.
    let held = (0..30)
        .find(|&n| {
            let name = format!("oauth1:nonce:{}", key(n).to_hex());
            cluster.nodes[0].command(&["EXISTS", &name]) == "1"
        })
        .expect("the first node holds some of 30 keys");
    cluster.nodes[0].kill();
    let err = store.remember(&key(held), KEEP).await.unwrap_err();
    assert!(
        err.to_string()
            .starts_with("nonce store unavailable: redis cluster "),
        "{err}"
    );

    cluster.nodes[0].restart();
    cluster.wait_ready();
    // The restarted node kept its slots (nodes.conf) but no data; new
    // nonces reach it again through the same store.
    let deadline = Instant::now() + Duration::from_secs(30);
    for n in 100..130 {
        loop {
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
    let held: u64 = cluster.nodes[0].command(&["DBSIZE"]).parse().unwrap();
    assert!(held > 0, "the restarted node got none of 30 new keys");
}

#[tokio::test]
async fn a_redis_that_does_not_answer_fails_closed_within_the_timeouts_and_recovers() {
    let server = RedisServer::start();
    let store = store(&server).await;
    assert_eq!(
        store.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Fresh
    );
    server.pause();
    // The connection stays open and nothing answers: only the response
    // timeout ends the check (the test's own deadline is far beyond it).
    let answer = tokio::time::timeout(Duration::from_secs(30), store.remember(&key(2), KEEP)).await;
    server.resume();
    let err = answer
        .expect("the store's own timeouts end the check")
        .unwrap_err();
    assert!(err.reason().contains("127.0.0.1"), "{err}");
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut n = 100;
    loop {
        n += 1;
        match store.remember(&key(n), KEEP).await {
            Ok(answer) => {
                assert_eq!(answer, Freshness::Fresh);
                break;
            }
            Err(e) if Instant::now() > deadline => panic!("not back after SIGCONT: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    }
    assert_eq!(
        store.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Replayed
    );
}

/// Waits until the server has run `EVAL` at least once (the release a
/// failed check sends after its `SET`, on the same connection, so that
/// the `SET` was applied first).
async fn wait_for_a_release(server: &RedisServer) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let stats = server.command(&["INFO", "commandstats"]);
        if stats.contains("cmdstat_eval:") {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no release (EVAL) reached Redis after the failed check: {stats}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_check_answered_503_does_not_count_against_its_retry() {
    let server = RedisServer::start();
    let store = store(&server).await;
    server.pause();
    // Redis reads the SET and answers nothing: the check fails (503).
    let answer = tokio::time::timeout(Duration::from_secs(30), store.remember(&key(1), KEEP)).await;
    server.resume();
    answer
        .expect("bounded by the store's timeouts")
        .unwrap_err();
    // Redis then applies the queued SET, and the release after it.
    wait_for_a_release(&server).await;
    let name = format!("oauth1:nonce:{}", key(1).to_hex());
    assert_eq!(server.command(&["EXISTS", &name]), "0");
    // The identical retry is fresh, once; a replay of it is not.
    assert_eq!(
        store.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Fresh
    );
    assert_eq!(
        store.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Replayed
    );
}

#[tokio::test]
async fn a_release_never_deletes_another_check_s_nonce() {
    // The release compares values: a key written by another check (an
    // accepted request, on another instance) is left alone.
    let server = RedisServer::start();
    let (one, other) = (store(&server).await, store(&server).await);
    assert_eq!(
        other.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Fresh
    );
    server.pause();
    let answer = tokio::time::timeout(Duration::from_secs(30), one.remember(&key(1), KEEP)).await;
    server.resume();
    answer.unwrap().unwrap_err();
    wait_for_a_release(&server).await;
    assert_eq!(
        one.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Replayed
    );
}

#[tokio::test]
async fn a_redis_that_may_evict_keys_is_refused_by_name() {
    let server = RedisServer::start();
    for policy in [
        "allkeys-lru",
        "volatile-lru",
        "volatile-ttl",
        "allkeys-random",
    ] {
        assert_eq!(
            server.command(&["CONFIG", "SET", "maxmemory-policy", policy]),
            "OK"
        );
        let err = RedisNonceStore::connect(&server.url(), options())
            .await
            .unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains(&format!("maxmemory-policy is {policy}"))
                && text.contains("noeviction")
                && text.contains(&format!("127.0.0.1:{}", server.port)),
            "{text}"
        );
    }
    // Checked off by the operator, it connects.
    RedisNonceStore::connect(&server.url(), options().with_eviction_check(false))
        .await
        .unwrap();
    assert_eq!(
        server.command(&["CONFIG", "SET", "maxmemory-policy", "noeviction"]),
        "OK"
    );
    RedisNonceStore::connect(&server.url(), options())
        .await
        .unwrap();
}

#[tokio::test]
async fn a_redis_that_will_not_say_its_policy_is_refused_unless_told() {
    // A user without CONFIG, as some managed services give.
    let server = RedisServer::start();
    assert_eq!(
        server.command(&["ACL", "SETUSER", "app", "on", ">pw", "~*", "+@all", "-config"]),
        "OK"
    );
    let url = format!("redis://app:pw@127.0.0.1:{}", server.port);
    let err = RedisNonceStore::connect(&url, options()).await.unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("CONFIG GET maxmemory-policy failed")
            && text.contains("with_eviction_check(false)")
            && !text.contains(":pw@"),
        "{text}"
    );
    let store = RedisNonceStore::connect(&url, options().with_eviction_check(false))
        .await
        .unwrap();
    assert_eq!(
        store.remember(&key(1), KEEP).await.unwrap(),
        Freshness::Fresh
    );
}

#[tokio::test]
async fn a_cluster_with_one_evicting_primary_is_refused_naming_it() {
    let cluster = RedisCluster::start();
    let urls = cluster.urls();
    let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
    RedisClusterNonceStore::connect(&urls, options())
        .await
        .unwrap();
    let bad = &cluster.nodes[1];
    assert_eq!(
        bad.command(&["CONFIG", "SET", "maxmemory-policy", "allkeys-lfu"]),
        "OK"
    );
    let err = RedisClusterNonceStore::connect(&urls, options())
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("maxmemory-policy is allkeys-lfu")
            && text.contains(&format!("node 127.0.0.1:{}", bad.port)),
        "{text}"
    );
}
