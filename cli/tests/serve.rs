//! `oauth1 serve` on the real binary, on 127.0.0.1 at a free port: requests
//! signed by the library and by Python oauthlib are echoed (200); a
//! tampered one, a replay and a client that wrote spaces as '+' get 401
//! with the reason and the explainer's diagnosis; two instances on one real
//! Redis reject a replay across them, fail closed (503) when Redis is
//! killed and answer 200 again when it is back, without a restart; a
//! bounded load run of valid, tampered and replayed requests against both
//! gets every answer right, in memory that stays flat; SIGTERM and SIGINT
//! stop it cleanly.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
#[path = "../../tests/redis_server/mod.rs"]
mod redis_server;

use std::process::Command;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::bin::{oauth1, threads_named, TempDir};
use common::oracle::space_as_plus_header;
use common::serve::{diagnosis_codes, send, Answer, Serve, CREDENTIALS};
use oauth1_signer::{Credentials, OAuthRequest, Signer};
use redis_server::RedisServer;

fn signer() -> Signer {
    Signer::new(Credentials::new("ck", "cs").with_token("tk", "ts"))
}

/// A fresh header for `POST path` with `body`, signed by the library.
fn signed_post(serve_port: u16, path: &str, body: &[u8]) -> String {
    let url = format!("http://127.0.0.1:{serve_port}{path}");
    signer()
        .authorization_header(&OAuthRequest::post(&url).form_body(body))
        .unwrap()
}

/// The header Python oauthlib's `Client.sign` makes for `method url`.
fn oauthlib_header(method: &str, url: &str, body: Option<&str>) -> String {
    let script = "import sys, oauthlib.oauth1 as o\n\
        c = o.Client('ck', client_secret='cs', resource_owner_key='tk', resource_owner_secret='ts')\n\
        body = sys.argv[3] if len(sys.argv) > 3 else None\n\
        h = {'Content-Type': 'application/x-www-form-urlencoded'} if body is not None else {}\n\
        _, headers, _ = c.sign(sys.argv[2], http_method=sys.argv[1], body=body, headers=h)\n\
        print(headers['Authorization'])";
    let mut cmd = Command::new("python3");
    cmd.args(["-c", script, method, url]);
    if let Some(body) = body {
        cmd.arg(body);
    }
    let out = cmd.output().unwrap_or_else(|e| {
        panic!("python3: {e}; install the peers: python3 -m pip install -r tests/peers/requirements.txt")
    });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn problem(a: &Answer) -> &str {
    a.json["problem"].as_str().unwrap_or_default()
}

#[test]
fn a_request_signed_by_the_library_is_echoed() {
    let serve = Serve::start(&[]);
    let body = b"status=hello%20world&a=1";
    let header = signed_post(serve.port, "/1.1/statuses/update.json?x=%7E", body);
    let a = send(
        serve.port,
        "POST",
        "/1.1/statuses/update.json?x=%7E",
        Some(&header),
        Some(body),
    );
    assert_eq!(a.status, 200, "{}", a.json);
    let j = &a.json;
    assert_eq!(j["valid"], true);
    assert_eq!(j["method"], "POST");
    assert_eq!(
        j["base_string_uri"],
        format!("http://127.0.0.1:{}/1.1/statuses/update.json", serve.port)
    );
    assert_eq!(
        (&j["consumer_key"], &j["token"]),
        (&"ck".into(), &"tk".into())
    );
    let params: Vec<(String, String)> = serde_json::from_value(j["params"].clone()).unwrap();
    // Normalised: sorted by name, decoded.
    let names: Vec<&str> = params.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "a",
            "oauth_consumer_key",
            "oauth_nonce",
            "oauth_signature_method",
            "oauth_timestamp",
            "oauth_token",
            "oauth_version",
            "status",
            "x"
        ]
    );
    assert!(params.contains(&("status".into(), "hello world".into())));
    assert!(params.contains(&("x".into(), "~".into())));
    assert_eq!(serve.url("/"), format!("http://127.0.0.1:{}/", serve.port));
}

#[test]
fn a_request_signed_by_oauthlib_is_echoed() {
    let serve = Serve::start(&[]);
    let url = serve.url("/photos?size=original&file=vacation.jpg");
    let header = oauthlib_header("GET", &url, None);
    let a = send(
        serve.port,
        "GET",
        "/photos?size=original&file=vacation.jpg",
        Some(&header),
        None,
    );
    assert_eq!(a.status, 200, "{}", a.json);
    let header = oauthlib_header("POST", &serve.url("/update"), Some("status=hello%20there"));
    let a = send(
        serve.port,
        "POST",
        "/update",
        Some(&header),
        Some(b"status=hello%20there"),
    );
    assert_eq!(a.status, 200, "{}", a.json);
}

#[test]
fn tampering_a_replay_and_no_header_get_401_with_the_reason() {
    let serve = Serve::start(&[]);
    let header = signed_post(serve.port, "/update", b"status=hi");
    let tampered = send(
        serve.port,
        "POST",
        "/update",
        Some(&header),
        Some(b"status=ho"),
    );
    assert_eq!(tampered.status, 401);
    assert_eq!(problem(&tampered), "oauth_problem=signature_invalid");
    assert_eq!(
        tampered.www_authenticate.as_deref(),
        Some("OAuth realm=\"oauth1 serve\"")
    );
    // Tampering checked first, before the nonce is recorded: the genuine
    // request still passes once, then is a replay.
    assert_eq!(
        send(
            serve.port,
            "POST",
            "/update",
            Some(&header),
            Some(b"status=hi")
        )
        .status,
        200
    );
    let replay = send(
        serve.port,
        "POST",
        "/update",
        Some(&header),
        Some(b"status=hi"),
    );
    assert_eq!(replay.status, 401);
    assert_eq!(problem(&replay), "oauth_problem=nonce_used");
    let none = send(serve.port, "GET", "/", None, None);
    assert_eq!(none.status, 401);
    assert!(
        problem(&none).starts_with("oauth_problem=parameter_absent"),
        "{}",
        none.json
    );
}

#[test]
fn a_client_that_wrote_spaces_as_plus_is_told_so() {
    let serve = Serve::start(&[]);
    let ts = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    // That client's parameter string, written by hand (common::oracle).
    let header = space_as_plus_header(
        serve.port,
        "tk",
        "cs&ts",
        "b6a1f3c9e2d84f0a9c7e5b3d1f2a4c6e",
        ts,
    );
    let a = send(
        serve.port,
        "POST",
        "/update",
        Some(&header),
        Some(b"status=hello%20world"),
    );
    assert_eq!(a.status, 401, "{}", a.json);
    assert_eq!(problem(&a), "oauth_problem=signature_invalid");
    assert_eq!(diagnosis_codes(&a), ["space-as-plus"], "{}", a.json);
}

#[test]
fn sigterm_and_sigint_stop_it_cleanly_after_one_log_line_per_request() {
    for signal in ["TERM", "INT"] {
        let serve = Serve::start(&[]);
        for _ in 0..3 {
            let header = signed_post(serve.port, "/x", b"a=1");
            assert_eq!(
                send(serve.port, "POST", "/x", Some(&header), Some(b"a=1")).status,
                200
            );
        }
        assert_eq!(send(serve.port, "GET", "/y", None, None).status, 401);
        let (status, log) = serve.stop(signal);
        assert!(status.success(), "SIG{signal}: {status:?}\n{log}");
        let requests: Vec<&str> = log
            .lines()
            .filter(|l| l.starts_with("127.0.0.1:"))
            .collect();
        assert_eq!(requests.len(), 4, "{log}");
        assert!(requests[0].contains(" POST /x 200 "), "{log}");
        assert!(requests[3].contains(" GET /y 401 "), "{log}");
        assert!(log.contains(&format!("SIG{signal}: stopping")), "{log}");
        // Stopped as soon as it says it listens: the handler is already there.
        let (status, log) = Serve::start(&[]).stop(signal);
        assert!(status.success(), "SIG{signal} at once: {status:?}\n{log}");
        for secret in ["cs", "ts"] {
            assert!(!log.contains(&format!("\"{secret}\"")), "{log}");
        }
    }
}

#[test]
fn two_instances_on_one_redis_share_nonces_fail_closed_and_recover() {
    let mut redis = RedisServer::start();
    let store = redis.url();
    // One URL signed for both: the public URL is what clients sign.
    let public = "http://api.test";
    let a = Serve::start(&["--nonce-store", &store, "--public-url", public]);
    let b = Serve::start(&["--nonce-store", &store, "--public-url", public]);
    let sign = || {
        signer()
            .authorization_header(&OAuthRequest::post("http://api.test/update").form_body(b"n=1"))
            .unwrap()
    };
    let header = sign();
    assert_eq!(
        send(a.port, "POST", "/update", Some(&header), Some(b"n=1")).status,
        200
    );
    let replay = send(b.port, "POST", "/update", Some(&header), Some(b"n=1"));
    assert_eq!(
        (replay.status, problem(&replay)),
        (401, "oauth_problem=nonce_used")
    );

    redis.kill();
    let down = send(a.port, "POST", "/update", Some(&sign()), Some(b"n=1"));
    assert_eq!(down.status, 503, "{}", down.json);
    assert_eq!(problem(&down), "oauth_problem=temporarily_unavailable");
    assert!(
        down.json["reason"].as_str().unwrap().contains("127.0.0.1"),
        "{}",
        down.json
    );

    redis.restart();
    for serve in [&a, &b] {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let answer = send(serve.port, "POST", "/update", Some(&sign()), Some(b"n=1"));
            if answer.status == 200 {
                break;
            }
            assert_eq!(answer.status, 503, "{}", answer.json);
            assert!(
                Instant::now() < deadline,
                "not back after Redis restarted: {}",
                answer.json
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// A process's resident memory in KiB, from `/proc` (Linux).
fn rss_kib(serve: &Serve) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", serve.child.id())).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Rounds `rounds` of the load run from `THREADS` threads: in each, a
/// request accepted by one instance, replayed to the other, then sent
/// tampered; every answer that is not the expected one, described.
fn load_rounds(ports: [u16; 2], public: &str, rounds: std::ops::Range<usize>) -> Vec<String> {
    const THREADS: usize = 24;
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                let rounds = rounds.clone();
                s.spawn(move || {
                    let signer = signer();
                    let mut wrong = Vec::new();
                    for r in rounds {
                        let (first, second) = (ports[(t + r) % 2], ports[(t + r + 1) % 2]);
                        let body = format!("thread={t}&round={r}");
                        let url = format!("{public}/load?t={t}");
                        let header = signer
                            .authorization_header(
                                &OAuthRequest::post(&url).form_body(body.as_bytes()),
                            )
                            .unwrap();
                        let path = format!("/load?t={t}");
                        let tampered = format!("thread={t}&round={}", r + 1000);
                        let expect = [
                            (first, body.as_bytes(), 200, ""),
                            (second, body.as_bytes(), 401, "oauth_problem=nonce_used"),
                            (
                                first,
                                tampered.as_bytes(),
                                401,
                                "oauth_problem=signature_invalid",
                            ),
                        ];
                        for (port, body, status, code) in expect {
                            let a = send(port, "POST", &path, Some(&header), Some(body));
                            if a.status != status || (status != 200 && problem(&a) != code) {
                                wrong
                                    .push(format!("thread {t} round {r}: {} {}", a.status, a.json));
                            }
                        }
                    }
                    wrong
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    })
}

#[test]
fn a_bounded_load_run_on_two_instances_and_one_redis_gets_every_answer_right() {
    // 24 threads, 3 requests a round: 432 to warm up, then 2592 measured.
    const WARM_UP: usize = 6;
    const ROUNDS: usize = 42;
    let redis = RedisServer::start();
    let store = redis.url();
    let public = "http://api.test";
    let servers = [
        Serve::start(&["--nonce-store", &store, "--public-url", public]),
        Serve::start(&["--nonce-store", &store, "--public-url", public]),
    ];
    let ports = [servers[0].port, servers[1].port];
    let mut wrong = load_rounds(ports, public, 0..WARM_UP);
    let before = servers.each_ref().map(rss_kib);
    wrong.extend(load_rounds(ports, public, WARM_UP..ROUNDS));
    let after = servers.each_ref().map(rss_kib);
    assert!(
        wrong.is_empty(),
        "{} wrong answers, first: {:?}",
        wrong.len(),
        wrong.first()
    );
    // Memory stays flat: the nonces live in Redis, so nothing an instance
    // keeps grows with the requests it answers. Each instance answers 1,296
    // of the measured requests; the bound (4 MiB) is well above the
    // allocator's noise (the serve bench saw 0.9 MiB over 15,000 requests)
    // and below what keeping 4 KiB per request would add (about 5 MiB).
    for (i, (b, a)) in before.iter().zip(&after).enumerate() {
        assert!(
            a.saturating_sub(*b) < 4 * 1024,
            "instance {i}: resident memory grew from {b} KiB to {a} KiB over the measured rounds"
        );
    }
    drop(redis);
}

#[test]
fn a_body_over_the_limit_is_refused_with_413() {
    let serve = Serve::start(&[]);
    let body = vec![b'a'; (1 << 20) + 1];
    let a = send(serve.port, "POST", "/big", None, Some(&body));
    assert_eq!(a.status, 413, "{}", a.json);
    let body = vec![b'a'; 1 << 20];
    let a = send(serve.port, "POST", "/big", None, Some(&body));
    assert_eq!(
        a.status, 401,
        "at the limit it is read and verified: {}",
        a.json
    );
}

#[test]
fn a_redis_cluster_store_rejects_a_replay_too() {
    let cluster = redis_server::RedisCluster::start();
    let nodes: Vec<String> = cluster
        .nodes
        .iter()
        .map(|n| format!("127.0.0.1:{}", n.port))
        .collect();
    let store = format!("redis+cluster://{}", nodes.join(","));
    let serve = Serve::start(&["--nonce-store", &store]);
    for n in 0..20 {
        let body = format!("n={n}");
        let header = signed_post(serve.port, "/c", body.as_bytes());
        let first = send(
            serve.port,
            "POST",
            "/c",
            Some(&header),
            Some(body.as_bytes()),
        );
        assert_eq!(first.status, 200, "{}", first.json);
        let again = send(
            serve.port,
            "POST",
            "/c",
            Some(&header),
            Some(body.as_bytes()),
        );
        assert_eq!(
            (again.status, problem(&again)),
            (401, "oauth_problem=nonce_used")
        );
    }
}

#[test]
fn an_unknown_nonce_store_is_a_usage_error() {
    let dir = TempDir::new("serve-bad-store");
    let mut cmd = oauth1(&dir.config());
    cmd.args([
        "serve",
        "--listen",
        "127.0.0.1:0",
        "--nonce-store",
        "memcached://x",
    ])
    .args(CREDENTIALS);
    let out = common::bin::run(cmd);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--nonce-store memcached://x: expected memory, redis://"),
        "{err}"
    );
}

/// `serve` answers on one thread for each core it may run on, as std
/// counts them for this test (whose CPU affinity it inherits), not on a
/// fixed number whatever the machine; `--workers` sets the number. Issue
/// 40 measured `serve` on 4 and 8 cores while it ran two threads.
#[test]
fn it_answers_on_a_thread_a_core_or_on_workers_threads() {
    // This thread alone is pinned to one core, and a process it starts
    // inherits that (`fork` copies the calling thread's CPU affinity): a
    // fixed number of threads would show where the machine has 2 cores.
    let thread = std::fs::read_link("/proc/thread-self").unwrap();
    let tid = thread.file_name().unwrap().to_str().unwrap().to_owned();
    let pinned = Command::new("taskset")
        .args(["-p", "-c", "0", &tid])
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(pinned.success(), "taskset -p -c 0 {tid}");
    let cores = std::thread::available_parallelism().unwrap().get();
    assert_eq!(cores, 1, "pinned to CPU 0");
    for (extra, expected) in [(&[][..], cores), (&["--workers", "3"][..], 3)] {
        let serve = Serve::start(extra);
        // The count is read after a request has gone through.
        let body = b"a=1";
        let header = signed_post(serve.port, "/w", body);
        let a = send(serve.port, "POST", "/w", Some(&header), Some(body));
        assert_eq!(a.status, 200, "{extra:?}: {}", a.json);
        assert_eq!(
            threads_named(serve.child.id(), "oauth1-worker", expected),
            expected,
            "{extra:?}"
        );
    }
    let dir = TempDir::new("serve-workers-0");
    let mut cmd = oauth1(&dir.config());
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--workers", "0"])
        .args(CREDENTIALS);
    let out = common::bin::run(cmd);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--workers"), "{err}");
}
