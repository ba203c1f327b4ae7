//! The real `oauth1` binary run as the tests of `sign`, `encode`, `decode`
//! and `explain` run it: with arguments, standard input and environment
//! variables, hermetic ([`hermetic`]: nothing of the test's own
//! environment), its exit code and output as text; and the rule a
//! malformed-escape error states.

use std::io::Write;
use std::process::Stdio;

use super::bin::hermetic;

/// A finished run: its exit code and its output.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary hermetically, with the variables in `env`.
pub fn run(args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Output {
    let mut cmd = hermetic();
    cmd.args(args);
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
