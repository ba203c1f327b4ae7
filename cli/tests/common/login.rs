//! `oauth1 authorize` run as a user runs it: the command against a
//! provider's three endpoints, then a login under way, from the URL it
//! prints to the PIN typed back. Shared by the tests that log in against
//! the loopback provider (`flow_cli.rs`, `profiles.rs`) and against
//! `oauth1 serve` (`serve_legs.rs`).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStderr, Command, Stdio};

use super::bin::{browse, oauth1};
use super::provider::{Provider, CONSUMER_KEY, CONSUMER_SECRET};

/// `oauth1 authorize` for the consumer `key` (its secret in the
/// environment) against the endpoints under `base`, profiles in `config`.
pub fn authorize_command(
    config: &Path,
    base: &str,
    (key, secret): (&str, &str),
    extra: &[&str],
) -> Command {
    let mut c = oauth1(config);
    c.args(["authorize", "--consumer-key", key])
        .env("OAUTH_CONSUMER_SECRET", secret)
        .args([
            "--request-token-url",
            &format!("{base}/oauth/request_token"),
        ])
        .args(["--authorize-url", &format!("{base}/oauth/authorize")])
        .args(["--access-token-url", &format!("{base}/oauth/access_token")])
        .args(extra);
    c
}

/// [`authorize_command`] against the loopback provider, with its consumer.
pub fn provider_login(provider: &Provider, config: &Path, extra: &[&str]) -> Command {
    authorize_command(
        config,
        &provider.base,
        (CONSUMER_KEY, CONSUMER_SECRET),
        extra,
    )
}

/// A login under way: the binary has printed the URL to open and waits
/// for the PIN.
pub struct Login {
    child: Child,
    stderr: BufReader<ChildStderr>,
    /// What it printed on stderr up to the URL.
    pub prompt: String,
    /// The URL the user is sent to.
    pub url: String,
}

impl Login {
    pub fn start(mut command: Command) -> Login {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut prompt = String::new();
        let url = loop {
            let mut line = String::new();
            assert_ne!(stderr.read_line(&mut line).unwrap(), 0, "no URL: {prompt}");
            prompt.push_str(&line);
            if let Some(url) = line.trim().strip_prefix("http://") {
                break format!("http://{url}");
            }
        };
        Login {
            child,
            stderr,
            prompt,
            url,
        }
    }

    /// Approves in the "browser" ([`browse`]: the page's body is the PIN),
    /// types the PIN, and returns what the binary printed: stdout, and all
    /// of stderr.
    pub fn finish(self) -> (Vec<u8>, String) {
        let pin = browse(&self.url);
        self.finish_with(&pin)
    }

    /// Types `pin`; the binary must succeed. Stdout, and all of stderr.
    pub fn finish_with(mut self, pin: &str) -> (Vec<u8>, String) {
        writeln!(self.child.stdin.take().unwrap(), "{pin}").unwrap();
        let out = self.child.wait_with_output().unwrap();
        let mut rest = String::new();
        self.stderr.read_to_string(&mut rest).unwrap();
        let stderr = format!("{}{rest}", self.prompt);
        assert!(out.status.success(), "{stderr}");
        (out.stdout, stderr)
    }
}
