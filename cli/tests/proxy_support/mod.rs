//! Support for the `oauth1 proxy` tests (`cli/tests/proxy*.rs`): the proxy
//! run as a process on 127.0.0.1, a real upstream that records what
//! reaches it (an axum app in the test's process, and Python's
//! http.server: `upstream.py`), requests signed by oauthlib
//! (`tests/peers/oauthlib_peer.py`), and one HTTP/1.1 request per
//! connection. Every wait has a deadline.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use crate::common::bin::{oauth1, TempDir};
use crate::common::peers::run_peer;

/// What the upstream received.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub method: String,
    pub target: String,
    /// Name (lower case) and value, in order.
    pub headers: Vec<(String, String)>,
    /// The body, when under 64 KiB; its length always.
    pub body: Vec<u8>,
    pub body_len: usize,
}

impl Recorded {
    /// Every value of `name`.
    pub fn all(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

/// An axum app on 127.0.0.1 that records every request and answers 200
/// `upstream ok`; `/slow` waits 30 seconds first, and `/gate` until the
/// test [opens](AxumUpstream::open) the gate.
pub struct AxumUpstream {
    pub port: u16,
    pub seen: Arc<Mutex<Vec<Recorded>>>,
    gate: Arc<tokio::sync::Semaphore>,
}

impl AxumUpstream {
    pub fn start() -> AxumUpstream {
        use axum::extract::{Request, State};
        let seen: Arc<Mutex<Vec<Recorded>>> = Arc::default();
        let gate = Arc::new(tokio::sync::Semaphore::new(0));
        let (tx, rx) = std::sync::mpsc::channel();
        let state = (seen.clone(), gate.clone());
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                type Shared = (Arc<Mutex<Vec<Recorded>>>, Arc<tokio::sync::Semaphore>);
                async fn record(
                    State((seen, gate)): State<Shared>,
                    request: Request,
                ) -> &'static str {
                    use http_body_util::BodyExt as _;
                    let (parts, mut body) = request.into_parts();
                    let mut kept = Vec::new();
                    let mut len = 0;
                    // Read frame by frame, keeping only a small body.
                    while let Some(Ok(frame)) = body.frame().await {
                        if let Ok(data) = frame.into_data() {
                            len += data.len();
                            if kept.len() + data.len() <= 64 * 1024 {
                                kept.extend_from_slice(&data);
                            }
                        }
                    }
                    let path = parts.uri.path().to_owned();
                    seen.lock().unwrap().push(Recorded {
                        method: parts.method.to_string(),
                        target: parts.uri.to_string(),
                        headers: parts
                            .headers
                            .iter()
                            .map(|(n, v)| {
                                (
                                    n.as_str().to_owned(),
                                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                                )
                            })
                            .collect(),
                        body: kept,
                        body_len: len,
                    });
                    if path == "/slow" {
                        tokio::time::sleep(Duration::from_secs(30)).await;
                    }
                    if path == "/gate" {
                        let _ = gate.acquire().await;
                        return "through the gate";
                    }
                    "upstream ok"
                }
                let app = axum::Router::new().fallback(record).with_state(state);
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                tx.send(listener.local_addr().unwrap().port()).unwrap();
                axum::serve(listener, app).await.unwrap();
            });
        });
        let port = rx.recv_timeout(Duration::from_secs(20)).unwrap();
        AxumUpstream { port, seen, gate }
    }

    /// Lets the requests waiting at `/gate` be answered.
    pub fn open(&self) {
        self.gate.add_permits(1000);
    }

    /// Waits (20 s at most) until the upstream has seen `n` requests.
    pub fn wait_for(&self, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.count() < n {
            assert!(
                Instant::now() < deadline,
                "the upstream saw {} requests",
                self.count()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn count(&self) -> usize {
        self.seen.lock().unwrap().len()
    }

    pub fn last(&self) -> Recorded {
        self.seen
            .lock()
            .unwrap()
            .last()
            .cloned()
            .expect("the upstream saw a request")
    }
}

/// Python's http.server (`upstream.py`), recording as JSON lines.
pub struct PythonUpstream {
    child: Child,
    pub port: u16,
    lines: std::sync::mpsc::Receiver<Value>,
}

impl PythonUpstream {
    pub fn start() -> PythonUpstream {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/proxy_support/upstream.py");
        let mut child = Command::new("python3")
            .arg(script)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3 runs (CI installs it)");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        let port = first.trim().strip_prefix("port ").unwrap().parse().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in out.lines() {
                let Ok(line) = line else { break };
                if tx.send(serde_json::from_str(&line).unwrap()).is_err() {
                    break;
                }
            }
        });
        PythonUpstream { child, port, lines }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The next request it received.
    pub fn next(&self) -> Value {
        self.lines
            .recv_timeout(Duration::from_secs(20))
            .expect("the upstream saw a request")
    }

    /// Whether it received anything more within a short wait.
    pub fn got_more(&self) -> bool {
        self.lines.recv_timeout(Duration::from_millis(300)).is_ok()
    }
}

impl Drop for PythonUpstream {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running `oauth1 proxy`, killed when dropped.
pub struct Proxy {
    pub child: Child,
    pub port: u16,
    pub metrics_port: Option<u16>,
    log: Arc<Mutex<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
    _dir: TempDir,
}

pub const CREDENTIALS: [&str; 8] = [
    "--consumer-key",
    "ck",
    "--consumer-secret",
    "cs",
    "--token",
    "tk",
    "--token-secret",
    "ts",
];

impl Proxy {
    /// `oauth1 proxy --listen 127.0.0.1:0 --upstream UPSTREAM ARGS...`.
    pub fn start(upstream: &str, args: &[&str]) -> Proxy {
        Proxy::try_start(upstream, args).unwrap_or_else(|e| panic!("{e}"))
    }

    /// As [`start`](Self::start); what it said when it did not start.
    pub fn try_start(upstream: &str, args: &[&str]) -> Result<Proxy, String> {
        let dir = TempDir::new(&format!("proxy-{}", unique()));
        let mut cmd: Command = oauth1(&dir.config());
        cmd.args(["proxy", "--listen", "127.0.0.1:0", "--upstream", upstream])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut metrics_port = None;
        let port = loop {
            let mut line = String::new();
            let _ = out.read_line(&mut line);
            if let Some(p) = line.trim().strip_prefix("metrics on http://127.0.0.1:") {
                metrics_port = p.parse().ok();
                continue;
            }
            match line
                .trim()
                .strip_prefix("listening on http://127.0.0.1:")
                .and_then(|p| p.parse().ok())
            {
                Some(port) => break port,
                None => {
                    let _ = child.kill();
                    let out = child.wait_with_output().unwrap();
                    return Err(format!(
                        "oauth1 proxy did not start: {line:?} {}",
                        String::from_utf8_lossy(&out.stderr)
                    ));
                }
            }
        };
        let log: Arc<Mutex<String>> = Arc::default();
        let stderr = child.stderr.take().unwrap();
        let kept = log.clone();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut log = kept.lock().unwrap();
                log.push_str(&line);
                log.push('\n');
            }
        });
        Ok(Proxy {
            child,
            port,
            metrics_port,
            log,
            reader: Some(reader),
            _dir: dir,
        })
    }

    /// The log so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// Waits (20 s at most) for a log line holding `text`; the log.
    pub fn wait_for_log(&self, text: &str) -> String {
        self.wait_for_log_times(text, 1)
    }

    /// Waits (20 s at most) until `text` is in the log `times` times: the
    /// log is written by a thread of its own, a line at a time after the
    /// answer, so one line there does not mean the next is.
    pub fn wait_for_log_times(&self, text: &str, times: usize) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let log = self.log();
            if log.matches(text).count() >= times {
                return log;
            }
            assert!(
                Instant::now() < deadline,
                "not {times} of {text:?} in the log:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn signal(&self, signal: &str) {
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// Sends `signal` and waits (20 s at most) for the exit; the log.
    pub fn stop(self, signal: &str) -> (ExitStatus, String) {
        self.signal(signal);
        self.stop_waiting()
    }

    /// Waits (20 s at most) for the exit of a proxy already signalled; the log.
    pub fn stop_waiting(mut self) -> (ExitStatus, String) {
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "the proxy did not stop");
            std::thread::sleep(Duration::from_millis(20));
        };
        if let Some(reader) = self.reader.take() {
            reader.join().unwrap();
        }
        (status, self.log())
    }

    /// `VmHWM` of the proxy's process, in KiB (its peak resident memory).
    pub fn peak_rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn unique() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    format!(
        "{}x{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// One request to sign.
pub struct ToSign<'a> {
    pub method: &'a str,
    pub url: String,
    pub consumer: (&'a str, &'a str),
    pub token: Option<(&'a str, &'a str)>,
    pub form_body: Option<&'a str>,
}

/// The Authorization headers oauthlib writes for `requests`, timestamped
/// now, each with a nonce of its own.
pub fn sign(requests: &[ToSign<'_>]) -> Vec<String> {
    let plain: Vec<(&ToSign<'_>, &[(&str, &str)])> =
        requests.iter().map(|r| (r, &[][..])).collect();
    sign_with(&plain)
}

/// As [`sign`], each request with protocol parameters of its own added
/// (`oauth_body_hash`), signed by oauthlib with the others.
pub fn sign_with(requests: &[(&ToSign<'_>, &[(&str, &str)])]) -> Vec<String> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let batch: Vec<Value> = requests
        .iter()
        .enumerate()
        .map(|(i, (r, extra))| {
            let mut v = json!({
                "id": i,
                "method": r.method,
                "url": r.url,
                "consumer_key": r.consumer.0,
                "consumer_secret": r.consumer.1,
                "signature_method": "HMAC-SHA1",
                "nonce": format!("n{}", unique()),
                "timestamp": now.to_string(),
                "version": "1.0",
            });
            if let Some((t, s)) = r.token {
                v["token"] = json!(t);
                v["token_secret"] = json!(s);
            }
            if let Some(body) = r.form_body {
                v["form_body"] = json!(body);
            }
            if !extra.is_empty() {
                v["extra_oauth_params"] = json!(extra);
            }
            v
        })
        .collect();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/peers/oauthlib_peer.py");
    let answers = run_peer("python3", &script, &batch).unwrap_or_else(|e| panic!("{e}"));
    answers
        .iter()
        .map(|a| {
            a["authorization_header"]
                .as_str()
                .unwrap_or_else(|| panic!("oauthlib did not sign: {a}"))
                .to_owned()
        })
        .collect()
}

/// One answer: the status, the head's lines (lower-case names), the body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// One HTTP/1.1 request on a connection of its own, with `headers` as
/// written (any spelling, any repetition) and `body` (Content-Length).
pub fn send(
    port: u16,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    let mut conn = TcpStream::connect(("127.0.0.1", port)).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    conn.set_write_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut head = format!("{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n");
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if !headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("connection"))
    {
        head.push_str("Connection: close\r\n");
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    conn.write_all(head.as_bytes()).unwrap();
    conn.write_all(body).unwrap();
    read_answer(&mut conn)
}

pub fn read_answer(conn: &mut TcpStream) -> Answer {
    let mut response = Vec::new();
    conn.read_to_end(&mut response).unwrap();
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let mut lines = head.lines();
    let status = lines.next().unwrap()[9..12].parse().unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(": "))
        .map(|(n, v)| (n.to_ascii_lowercase(), v.to_owned()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_owned(),
    }
}

/// A secrets file in `dir`.
pub fn secrets_file(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("secrets.toml");
    std::fs::write(&path, text).unwrap();
    path
}
