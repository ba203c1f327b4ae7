//! The peers in `tests/peers/` (Python `oauthlib`, npm `oauth-1.0a`), run
//! over a batch of requests as JSON Lines: shared by the differential tests
//! (`tests/differential.rs`) and the verifier's (`tests/verify_peers.rs`).
//! A peer that cannot run is an error that says how to install the peers.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

pub const INSTALL: &str = "install the peers: python3 -m pip install -r tests/peers/requirements.txt / npm ci --prefix tests/peers";

/// Runs a peer over a batch (it reads all of stdin before answering). Any
/// way of failing to get one answer per request (no interpreter, no
/// library, a crash) gives a message that says how to install the peers.
pub fn run_peer(program: &str, script: &Path, batch: &[Value]) -> Result<Vec<Value>, String> {
    let command = format!("`{program} {}`", script.display());
    let mut child = Command::new(program)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {command}: {e}\n{INSTALL}"))?;
    let mut input = String::new();
    for r in batch {
        input.push_str(&r.to_string());
        input.push('\n');
    }
    // A peer that dies at start-up (a missing module) closes its stdin: the
    // write then fails with a broken pipe, and what it printed says why.
    let written = child
        .stdin
        .take()
        .ok_or("stdin was not piped")?
        .write_all(input.as_bytes());
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{command} could not be waited for: {e}\n{INSTALL}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Err(e) = written {
        return Err(format!(
            "{command} stopped before reading its input ({e}; {}); it said:\n{stderr}\n{INSTALL}",
            out.status
        ));
    }
    if !out.status.success() {
        return Err(format!(
            "{command} failed ({}); it said:\n{stderr}\n{INSTALL}",
            out.status
        ));
    }
    let answers = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<Vec<Value>, _>>()
        .map_err(|e| format!("{command} wrote a line that is not JSON: {e}\n{INSTALL}"))?;
    if answers.len() != batch.len() {
        return Err(format!(
            "{command} answered {} of {} requests; it said:\n{stderr}\n{INSTALL}",
            answers.len(),
            batch.len()
        ));
    }
    for (request, answer) in batch.iter().zip(&answers) {
        if request["id"] != answer["id"] {
            return Err(format!(
                "{command} answered {} where {} was due",
                answer["id"], request["id"]
            ));
        }
    }
    Ok(answers)
}

/// The path of the peer script `name` in `tests/peers/`.
pub fn peer_script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/peers")
        .join(name)
}
