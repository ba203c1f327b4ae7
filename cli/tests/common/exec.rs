//! The real `oauth1` binary run as the tests of `sign`, `encode`, `decode`
//! and `explain` run it: with arguments, standard input and environment
//! variables, none of the `OAUTH_*` credentials of the test's own
//! environment, its exit code and output as text; and the rule a
//! malformed-escape error states.

use std::io::Write;
use std::process::{Command, Stdio};

pub const CREDENTIAL_VARS: [&str; 4] = [
    "OAUTH_CONSUMER_KEY",
    "OAUTH_CONSUMER_SECRET",
    "OAUTH_TOKEN",
    "OAUTH_TOKEN_SECRET",
];

/// A finished run: its exit code and its output.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary with no OAUTH_* variables but those in `env`.
pub fn run(args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oauth1"));
    cmd.args(args);
    for var in CREDENTIAL_VARS {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the oauth1 binary runs");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    Output {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

pub fn oauth1(args: &[&str]) -> Output {
    run(args, None, &[])
}

/// What an error about a malformed percent-escape says the rule is.
pub const ESCAPE_RULE: &str = "(a '%' must be followed by two hex digits)";
