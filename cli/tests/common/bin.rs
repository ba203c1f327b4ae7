//! Running the real `oauth1` binary in a test: the one hermetic command
//! (every test that runs the binary starts from [`hermetic`] or
//! [`clear_env`]), its output, a scratch directory, and a browser standing
//! in for the user.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_oauth1");

/// The variables of the test's own environment that `oauth1` reads: the
/// credentials (clap's `env` of `--consumer-key` and the others), the
/// proxy's nonce store (`OAUTH1_PROXY_NONCE_STORE`), where
/// the profiles are, and whether to colour.
pub const ENV_READ: [&str; 9] = [
    "OAUTH_CONSUMER_KEY",
    "OAUTH_CONSUMER_SECRET",
    "OAUTH_TOKEN",
    "OAUTH_TOKEN_SECRET",
    "OAUTH1_PROXY_NONCE_STORE",
    "XDG_CONFIG_HOME",
    "NO_COLOR",
    "CLICOLOR",
    "CLICOLOR_FORCE",
];

/// A profiles directory that is never created: a run that is given no
/// other reads no profile, whatever the test's home holds.
pub const NO_PROFILES: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/oauth1-no-profiles");

/// Removes from `command` every variable of [`ENV_READ`], and points the
/// profiles at [`NO_PROFILES`]: for a command that runs the binary through
/// another (a shell setting limits), as [`hermetic`] does for the binary.
pub fn clear_env(command: &mut Command) -> &mut Command {
    for var in ENV_READ {
        command.env_remove(var);
    }
    command.env("OAUTH1_CONFIG_DIR", NO_PROFILES)
}

/// The binary, with nothing of the test's own environment that it reads.
pub fn hermetic() -> Command {
    let mut c = Command::new(BIN);
    clear_env(&mut c);
    c
}

/// [`hermetic`], with profiles in `config`.
pub fn oauth1(config: &Path) -> Command {
    let mut c = hermetic();
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

/// The threads of process `pid` named `name`, from `/proc` (Linux): a
/// server's runtime names its threads. Read until there are `want` of them,
/// for at most 10 s: a thread takes its name when it first runs, so a
/// runtime just built can show one short for a while on a loaded machine
/// (seen in CI: 2 of 3). A count past `want` is returned as soon as it is
/// seen, and a count short of it after the 10 s, for the caller to assert.
pub fn threads_named(pid: u32, name: &str, want: usize) -> usize {
    let count = || {
        std::fs::read_dir(format!("/proc/{pid}/task"))
            .unwrap()
            .filter(|task| {
                let comm = task.as_ref().unwrap().path().join("comm");
                std::fs::read_to_string(comm).is_ok_and(|c| c.trim_end() == name)
            })
            .count()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let n = count();
        if n >= want || std::time::Instant::now() >= deadline {
            return n;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
