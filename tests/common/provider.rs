//! The loopback OAuth 1.0a provider (`tests/provider/server.py`, whose
//! signature checks are Python oauthlib's), started for a test and stopped
//! when it is dropped: its stdin is a pipe, and the server exits when the
//! pipe closes, so it never outlives the test.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The provider's default credentials (`tests/provider/README.md`).
pub const CONSUMER_KEY: &str = "test-consumer-key-0001";
pub const CONSUMER_SECRET: &str = "test-consumer-secret-0001";
pub const ACCESS_TOKEN: &str = "test-access-token-0001";
pub const ACCESS_SECRET: &str = "test-access-secret-0001";

/// A running provider on 127.0.0.1.
pub struct Provider {
    child: Child,
    /// The thread reading the server's log (stderr).
    log: Option<std::thread::JoinHandle<String>>,
    /// `http://127.0.0.1:PORT`, no trailing slash.
    pub base: String,
}

impl Provider {
    /// Starts the provider with extra `args`, and waits for its one line.
    pub fn start(args: &[&str]) -> Provider {
        let script = server_script();
        let mut child = Command::new("python3")
            .arg(&script)
            .args(["--port", "0", "--max-seconds", "120"])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start python3 {}: {e}\n\
                     install the peers: python3 -m pip install -r tests/peers/requirements.txt",
                    script.display()
                )
            });
        let stdout = child.stdout.take().expect("piped stdout");
        let mut line = String::new();
        let read = BufReader::new(stdout).read_line(&mut line);
        let Some(base) = line.trim().strip_prefix("listening on ") else {
            let _ = child.kill();
            let out = child.wait_with_output().ok();
            let stderr = out
                .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
                .unwrap_or_default();
            panic!(
                "the loopback provider did not start ({read:?}, {line:?}): {stderr}\n\
                 install the peers: python3 -m pip install -r tests/peers/requirements.txt"
            );
        };
        // The log is read as it comes, so that a long test never fills the
        // pipe and stalls the server.
        let log = child.stderr.take().map(|stderr| {
            std::thread::spawn(move || {
                let mut log = String::new();
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    log.push_str(&line);
                    log.push('\n');
                }
                log
            })
        });
        Provider {
            base: base.to_owned(),
            child,
            log,
        }
    }

    /// What the provider logged so far (one line per request, no secrets),
    /// once it has been stopped.
    pub fn stop(mut self) -> String {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
        self.log
            .take()
            .and_then(|log| log.join().ok())
            .unwrap_or_default()
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        // Closing stdin ends the server; kill it if it lingers.
        drop(self.child.stdin.take());
        std::thread::sleep(Duration::from_millis(10));
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// `tests/provider/server.py`, found from the package whose tests include
/// this file: the library (the repository's root) or the CLI crate (`cli/`).
fn server_script() -> PathBuf {
    let script = Path::new("tests/provider/server.py");
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join(script))
        .find(|path| path.is_file())
        .unwrap_or_else(|| {
            panic!(
                "no {} above {}",
                script.display(),
                env!("CARGO_MANIFEST_DIR")
            )
        })
}
