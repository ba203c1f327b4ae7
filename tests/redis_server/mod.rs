//! Real Redis servers for the tests: `redis-server` processes started on
//! 127.0.0.1 at free ports, each in a temporary directory of its own, and
//! killed (and the directory removed) when dropped. A three-node cluster is
//! started with `redis-cli --cluster create`.
//!
//! A missing `redis-server` or `redis-cli` is a failure that says how to
//! install them, never a skip. Every wait has a deadline.
//!
//! Shared by the library's tests (`tests/redis.rs`) and the CLI's
//! (`cli/tests/serve.rs`, through `#[path]`).

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{self, ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

const INSTALL_HINT: &str =
    "install Redis 7 or later: `apt-get install -y redis-server redis-tools` \
                            (or run .ci/redis.sh as root)";

/// How long a server may take to answer PING after starting.
const START_DEADLINE: Duration = Duration::from_secs(20);

/// One `redis-server` process.
pub struct RedisServer {
    child: Option<Child>,
    /// Its port on 127.0.0.1.
    pub port: u16,
    dir: PathBuf,
    cluster: bool,
}

impl RedisServer {
    /// A standalone server on a free port.
    pub fn start() -> RedisServer {
        RedisServer::start_with(false)
    }

    fn start_with(cluster: bool) -> RedisServer {
        let dir = temp_dir();
        let mut last = String::new();
        // A port found free may be taken before redis binds it: try others.
        for _ in 0..10 {
            let port = free_port(cluster);
            match spawn(port, &dir, cluster, &[]) {
                Ok(child) => {
                    return RedisServer {
                        child: Some(child),
                        port,
                        dir,
                        cluster,
                    };
                }
                Err(e) => last = e,
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        panic!("redis-server did not start on any of 10 free ports: {last}");
    }

    /// `redis://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills the server (SIGKILL) and waits for it to exit.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            // A paused process dies of SIGKILL all the same.
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Stops the process (SIGSTOP) without closing its connections: it
    /// accepts and reads, and answers nothing, until [`resume`](Self::resume).
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// Lets a paused process go on (SIGCONT).
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    fn signal(&self, which: &str) {
        let pid = self.child.as_ref().expect("running").id().to_string();
        let status = Command::new("kill").args([which, &pid]).status().unwrap();
        assert!(status.success(), "kill {which} {pid}");
    }

    /// Starts it again on the same port, after [`kill`](Self::kill). Its
    /// data is gone (nothing is persisted).
    pub fn restart(&mut self) {
        self.restart_with(&[]);
    }

    /// [`restart`](Self::restart) with more `redis-server` arguments
    /// (`["--maxmemory-policy", "allkeys-random"]`, say).
    pub fn restart_with(&mut self, args: &[&str]) {
        self.kill();
        let deadline = Instant::now() + START_DEADLINE;
        loop {
            match spawn(self.port, &self.dir, self.cluster, args) {
                Ok(child) => {
                    self.child = Some(child);
                    return;
                }
                Err(e) if Instant::now() > deadline => {
                    panic!("redis-server did not restart on port {}: {e}", self.port)
                }
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// Sends one command and returns its reply as text: `+OK` and `:1`
    /// as `OK` and `1`, a bulk string as its text, nil as `(nil)`, and an
    /// error as `-ERR ...`.
    pub fn command(&self, args: &[&str]) -> String {
        command(self.port, args).unwrap_or_else(|e| panic!("redis {}: {args:?}: {e}", self.port))
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Three `redis-server --cluster-enabled yes`, joined by
/// `redis-cli --cluster create ... --cluster-replicas 0`, the 16384 slots
/// split between them.
pub struct RedisCluster {
    /// The nodes, each a primary.
    pub nodes: Vec<RedisServer>,
}

impl RedisCluster {
    /// Starts three nodes, creates the cluster and waits for it to be ready.
    pub fn start() -> RedisCluster {
        let nodes: Vec<RedisServer> = (0..3).map(|_| RedisServer::start_with(true)).collect();
        let addrs: Vec<String> = nodes
            .iter()
            .map(|n| format!("127.0.0.1:{}", n.port))
            .collect();
        let mut create = Command::new("redis-cli");
        create
            .arg("--cluster")
            .arg("create")
            .args(&addrs)
            .args(["--cluster-replicas", "0", "--cluster-yes"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let child = create
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run redis-cli: {e}\n{INSTALL_HINT}"));
        let output = wait_bounded(child, Duration::from_secs(60), "redis-cli --cluster create");
        assert!(
            output.status.success(),
            "redis-cli --cluster create failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let cluster = RedisCluster { nodes };
        cluster.wait_ready();
        cluster
    }

    /// Waits until every node says the cluster is up with all three nodes.
    pub fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        for node in &self.nodes {
            loop {
                let info = command(node.port, &["CLUSTER", "INFO"]).unwrap_or_default();
                if info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:3") {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "the cluster was not ready in time: node {}: {info}",
                    node.port
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }

    /// `redis://127.0.0.1:PORT` of each node.
    pub fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(RedisServer::url).collect()
    }
}

/// Starts `redis-server` on `port`, with `args` after ours, and waits
/// until it answers PING.
fn spawn(port: u16, dir: &std::path::Path, cluster: bool, args: &[&str]) -> Result<Child, String> {
    let log = dir.join(format!("redis-{port}.log"));
    let mut cmd = Command::new("redis-server");
    cmd.args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .arg("--dir")
        .arg(dir)
        .arg("--logfile")
        .arg(&log)
        .args(["--save", "", "--appendonly", "no", "--daemonize", "no"]);
    if cluster {
        cmd.args([
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            &format!("nodes-{port}.conf"),
            "--cluster-node-timeout",
            "2000",
        ]);
    }
    cmd.args(args);
    let mut child = match cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(child) => child,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            panic!("redis-server is not installed ({e}): {INSTALL_HINT}")
        }
        Err(e) => panic!("cannot run redis-server: {e}"),
    };
    let deadline = Instant::now() + START_DEADLINE;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            let log = std::fs::read_to_string(&log).unwrap_or_default();
            return Err(format!(
                "redis-server on port {port} exited ({status}): {log}"
            ));
        }
        if command(port, &["PING"]).is_ok_and(|r| r == "PONG") {
            return Ok(child);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "redis-server on port {port} did not answer PING in time"
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A port on 127.0.0.1 that nothing listens on; for a cluster node, its
/// bus port (port + 10000) is free too.
fn free_port(cluster: bool) -> u16 {
    for _ in 0..1000 {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or_else(|e| panic!("cannot bind 127.0.0.1: {e}"));
        if !cluster {
            return port;
        }
        // Below the ephemeral range, so that port + 10000 exists.
        let candidate = 20000 + port % 20000;
        if TcpListener::bind(("127.0.0.1", candidate)).is_ok()
            && TcpListener::bind(("127.0.0.1", candidate + 10000)).is_ok()
        {
            return candidate;
        }
    }
    panic!("no free port pair for a cluster node in 1000 tries");
}

fn temp_dir() -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!(
        "oauth1-redis-{}-{}-{nanos}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

fn wait_bounded(mut child: Child, limit: Duration, what: &str) -> std::process::Output {
    let deadline = Instant::now() + limit;
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            return child.wait_with_output().unwrap();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "{what} did not finish in {limit:?}: {}",
                String::from_utf8_lossy(&out.stdout)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// One RESP command on a fresh connection, with timeouts.
fn command(port: u16, args: &[&str]) -> io::Result<String> {
    let mut conn = TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        Duration::from_secs(2),
    )?;
    conn.set_read_timeout(Some(Duration::from_secs(5)))?;
    conn.set_write_timeout(Some(Duration::from_secs(5)))?;
    let mut out = format!("*{}\r\n", args.len());
    for a in args {
        out.push_str(&format!("${}\r\n{a}\r\n", a.len()));
    }
    conn.write_all(out.as_bytes())?;
    let mut reply = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        if let Some(text) = complete(&reply) {
            return Ok(text);
        }
        let n = conn.read(&mut buf)?;
        if n == 0 {
            return Err(io::Error::new(
                ErrorKind::UnexpectedEof,
                "connection closed",
            ));
        }
        reply.extend_from_slice(&buf[..n]);
    }
}

/// The reply, once all of it has arrived.
fn complete(reply: &[u8]) -> Option<String> {
    let end = reply.windows(2).position(|w| w == b"\r\n")?;
    let line = String::from_utf8_lossy(&reply[1..end]).into_owned();
    match reply.first()? {
        b'+' | b':' => Some(line),
        b'-' => Some(format!("-{line}")),
        b'$' => {
            let len: i64 = line.parse().ok()?;
            if len < 0 {
                return Some("(nil)".to_owned());
            }
            let body = reply.get(end + 2..end + 2 + len as usize)?;
            Some(String::from_utf8_lossy(body).into_owned())
        }
        _ => Some(String::from_utf8_lossy(reply).into_owned()),
    }
}
