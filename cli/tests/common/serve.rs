//! A running `oauth1 serve` on 127.0.0.1 at a free port, and one HTTP/1.1
//! request to it per connection, with timeouts: shared by the `serve`
//! tests (`serve.rs`, `serve_hostile.rs`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::bin::{oauth1, TempDir};

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

/// A running `oauth1 serve`, killed when dropped.
pub struct Serve {
    pub child: Child,
    pub port: u16,
    log: Option<JoinHandle<String>>,
    _dir: TempDir,
}

impl Serve {
    pub fn start(extra: &[&str]) -> Serve {
        Serve::start_with(&CREDENTIALS, extra)
    }

    /// With `credentials` (flags) instead of the default ones.
    pub fn start_with(credentials: &[&str], extra: &[&str]) -> Serve {
        Serve::start_with_env(credentials, extra, &[])
    }

    /// As [`Serve::start_with`], with these variables in the server's
    /// environment.
    pub fn start_with_env(credentials: &[&str], extra: &[&str], env: &[(&str, &str)]) -> Serve {
        let dir = TempDir::new(&format!("serve-{}", rand_suffix()));
        let mut cmd: Command = oauth1(&dir.config());
        cmd.envs(env.iter().copied());
        cmd.args(["serve", "--listen", "127.0.0.1:0"])
            .args(credentials)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let mut line = String::new();
        let _ = BufReader::new(child.stdout.take().unwrap()).read_line(&mut line);
        let Some(port) = line
            .trim()
            .strip_prefix("listening on http://127.0.0.1:")
            .and_then(|p| p.parse().ok())
        else {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "oauth1 serve did not start: {line:?} {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        // Read the log as it comes, so that a long run never fills the pipe.
        let stderr = child.stderr.take().unwrap();
        let log = std::thread::spawn(move || {
            let mut log = String::new();
            let _ = BufReader::new(stderr).read_to_string(&mut log);
            log
        });
        Serve {
            child,
            port,
            log: Some(log),
            _dir: dir,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// Sends `signal` (TERM, INT) and waits, with a deadline, for the exit.
    pub fn stop(mut self, signal: &str) -> (ExitStatus, String) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &pid])
            .status()
            .unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(
                Instant::now() < deadline,
                "serve did not stop on SIG{signal}"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let log = self.log.take().unwrap().join().unwrap();
        (status, log)
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn rand_suffix() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    format!("{}", N.fetch_add(1, Ordering::Relaxed))
}

/// One answer: the status, the WWW-Authenticate header, the JSON body.
pub struct Answer {
    pub status: u16,
    pub www_authenticate: Option<String>,
    pub json: Value,
}

/// The codes of a 401's diagnosis, in order.
pub fn diagnosis_codes(a: &Answer) -> Vec<&str> {
    a.json["diagnosis"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["code"].as_str().unwrap())
        .collect()
}

/// One HTTP/1.1 request on its own connection, with timeouts; its answer
/// with the body as JSON.
pub fn send(
    port: u16,
    method: &str,
    path: &str,
    auth: Option<&str>,
    form: Option<&[u8]>,
) -> Answer {
    let (status, head, body) = send_raw(port, method, path, auth, form);
    let www_authenticate = head
        .lines()
        .find_map(|l| l.strip_prefix("www-authenticate: "))
        .map(str::to_owned);
    let json = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
    Answer {
        status,
        www_authenticate,
        json,
    }
}

/// As [`send`]: the status, the head and the body as text.
pub fn send_raw(
    port: u16,
    method: &str,
    path: &str,
    auth: Option<&str>,
    form: Option<&[u8]>,
) -> (u16, String, String) {
    let mut conn = TcpStream::connect(("127.0.0.1", port)).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    conn.set_write_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut head =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n");
    if let Some(auth) = auth {
        head.push_str(&format!("Authorization: {auth}\r\n"));
    }
    let body = form.unwrap_or_default();
    if form.is_some() {
        head.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    conn.write_all(head.as_bytes()).unwrap();
    conn.write_all(body).unwrap();
    let mut response = Vec::new();
    conn.read_to_end(&mut response).unwrap();
    let response = String::from_utf8(response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    (
        head[9..12].parse().unwrap(),
        head.to_owned(),
        body.to_owned(),
    )
}
