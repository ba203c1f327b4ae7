//! Running the real `oauth1` binary in a test: a hermetic command, its
//! output, a scratch directory, and a browser standing in for the user.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_oauth1");

/// The binary, with no credentials or configuration from the test's own
/// environment, and profiles in `config`.
pub fn oauth1(config: &Path) -> Command {
    let mut c = Command::new(BIN);
    for var in [
        "OAUTH_CONSUMER_KEY",
        "OAUTH_CONSUMER_SECRET",
        "OAUTH_TOKEN",
        "OAUTH_TOKEN_SECRET",
        "XDG_CONFIG_HOME",
    ] {
        c.env_remove(var);
    }
    c.env("OAUTH1_CONFIG_DIR", config);
    c
}

/// Runs `command` with no standard input.
pub fn run(mut command: Command) -> Output {
    command.stdin(Stdio::null()).output().unwrap()
}

/// Output bytes as text, lossily.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A scratch directory, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("oauth1-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// A configuration directory inside it, not created: `oauth1` creates it.
    pub fn config(&self) -> PathBuf {
        self.0.join("config")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A plain GET over HTTP/1.0: the browser standing in for the user.
pub fn browse(url: &str) -> String {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut stream = TcpStream::connect(host).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    write!(stream, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200 "), "{response}");
    response.split("\r\n\r\n").nth(1).unwrap().trim().to_owned()
}
