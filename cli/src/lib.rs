//! `oauth1`: sign one request, percent-encode, percent-decode.
//!
//! A thin edge over the library: every stage it prints comes from
//! [`Signer::trace`](oauth1_signer::Signer::trace), which runs the signing
//! stages and keeps each one. Exit codes: 2 is always bad input or usage;
//! 0 and 1 are each subcommand's own (`oauth1 --help` lists them).
//!
//! The tool's interface is its command line; as a library this crate offers
//! only [`run`], the binary's `main` (and, hidden, the output code for the
//! `cli_format` fuzz target). It uses only `oauth1_signer`'s public API.

mod authorize;
mod capture;
mod caret;
mod clock;
mod codec;
mod explain;
mod failure;
mod flags;
mod json;
mod multipart;
mod output;
mod profile;
mod proxy;
mod request;
mod response;
mod serve;
mod sign;
mod spec;
mod verdict;
mod verify;

/// The output code of `oauth1 sign` (the stage JSON, the trace for people,
/// the curl line, the caret under an error), for the `cli_format` fuzz
/// target (`fuzz/fuzz_targets/cli_format.rs`). Not an API: it changes with
/// the tool, whose interface is its command line.
#[doc(hidden)]
pub mod _fuzz {
    pub use crate::caret::{caret_lines, printable, Caret};
    pub use crate::failure::Failure;
    pub use crate::output::{stages_json, stages_text, Shown};
    pub use crate::spec::pointed_text;
}

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};

use caret::caret_lines;
use codec::{DecodeArgs, EncodeArgs, STDIN_NOTE};
use explain::{ExplainArgs, EXPLAIN_HELP};
pub(crate) use failure::{hex, Failure};
use sign::{SignArgs, SIGN_HELP};

use authorize::{AccountsArgs, AuthorizeArgs, AUTHORIZE_HELP};
use proxy::{ProxyArgs, PROXY_HELP};
use request::{RequestArgs, REQUEST_HELP};
use serve::{ServeArgs, SERVE_HELP};
use verify::{VerifyArgs, VERIFY_HELP};

/// What each exit status means, by subcommand (`oauth1 --help`; docs/cli.md
/// and docs/verify.md say the same).
const EXIT_STATUS: &str = "\
Exit status (2 is always bad input or usage, named on stderr):
  sign, encode, decode, accounts  0 done, 1 an I/O failure (a full disk; a closed pipe is 0)
  explain                         0 what they gave matches ours, 1 it does not
  verify                          0 valid, 1 rejected (the reason on stdout)
  request                         0 a 2xx answer, 1 any other answer or a redirect to another
                                  origin (2 also for a network error)
  authorize                       0 logged in and saved, 1 the provider refused or an I/O failure
  serve, proxy                    0 stopped by SIGINT or SIGTERM, 1 cannot listen or reach the
                                  nonce store";

#[derive(Parser, Debug)]
#[command(
    name = "oauth1",
    version,
    about = "Strict OAuth 1.0a (RFC 5849) signing, percent-encoding and percent-decoding",
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Sign one request and print its Authorization header (or every stage), or sign a base string
    #[command(
        after_long_help = SIGN_HELP,
        mut_arg("url", |a| a.required_unless_present("base_string"))
    )]
    Sign(Box<SignArgs>),
    /// Explain a signature mismatch: compare their base string, signature or header with ours
    #[command(after_long_help = EXPLAIN_HELP)]
    Explain(Box<ExplainArgs>),
    /// Percent-encode text as RFC 5849 §3.6 requires (only A-Z a-z 0-9 - . _ ~ stay)
    #[command(after_long_help = STDIN_NOTE)]
    Encode(EncodeArgs),
    /// Strictly percent-decode text (a '%' must be followed by two hex digits)
    #[command(after_long_help = STDIN_NOTE)]
    Decode(DecodeArgs),
    /// Sign one request and send it; print the response body (like twurl)
    #[command(after_long_help = REQUEST_HELP)]
    Request(Box<RequestArgs>),
    /// Log in with a PIN (three-legged OAuth) and save the tokens as a profile
    #[command(after_long_help = AUTHORIZE_HELP)]
    Authorize(AuthorizeArgs),
    /// List the saved profiles (no secrets); the default one is marked '*'
    Accounts(AccountsArgs),
    /// Verify a received request's Authorization header (exit 0 valid, 1 rejected, 2 malformed)
    #[command(after_long_help = VERIFY_HELP)]
    Verify(Box<VerifyArgs>),
    /// Run a local verifying server: 200 with what it verified, 401 with why and the diagnosis
    #[command(after_long_help = SERVE_HELP)]
    Serve(Box<ServeArgs>),
    /// Run a verifying reverse proxy: verified requests go upstream with the caller's identity
    #[command(after_long_help = PROXY_HELP)]
    Proxy(Box<ProxyArgs>),
}

/// Runs `oauth1` on the process's arguments and says how it went: the
/// binary's `main`. Errors are written to standard error here; the exit code
/// is as `oauth1 --help` says (`EXIT_STATUS`).
pub fn run() -> ExitCode {
    // TLS with ring's cryptography (Cargo.toml says why). Installed once;
    // a provider already installed (none is, in this binary) is kept.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let matches = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => return clap_exit(&e),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => return clap_exit(&e),
    };
    let result = match &cli.command {
        Command::Sign(args) => {
            let given = |id: &str| {
                matches
                    .subcommand_matches("sign")
                    .is_some_and(|m| on_command_line(m, id))
            };
            sign::sign(args, &given)
        }
        Command::Explain(args) => {
            let given = |id: &str| {
                matches
                    .subcommand_matches("explain")
                    .is_some_and(|m| on_command_line(m, id))
            };
            explain::explain(args, &given)
        }
        Command::Encode(args) => codec::encode(args),
        Command::Decode(args) => codec::decode(args),
        Command::Request(args) => {
            let given = |id: &str| {
                matches
                    .subcommand_matches("request")
                    .is_some_and(|m| on_command_line(m, id))
            };
            request::request(args, &given)
        }
        Command::Authorize(args) => authorize::authorize(args),
        Command::Accounts(args) => authorize::accounts(args),
        Command::Verify(args) => {
            let given = |id: &str| {
                matches
                    .subcommand_matches("verify")
                    .is_some_and(|m| on_command_line(m, id))
            };
            verify::verify(args, &given)
        }
        Command::Serve(args) => serve::serve(args),
        Command::Proxy(args) => {
            let given = |id: &str| {
                matches
                    .subcommand_matches("proxy")
                    .is_some_and(|m| on_command_line(m, id))
            };
            proxy::proxy(args, &given)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(message, caret)) => {
            let mut text = format!("error: {message}\n");
            if let Some(c) = caret {
                text.push_str(&caret_lines(&c));
            }
            let _ = io::stderr().write_all(text.as_bytes());
            ExitCode::from(2)
        }
        Err(Failure::Io(message)) => {
            let _ = writeln!(io::stderr(), "error: {message}");
            ExitCode::from(1)
        }
        Err(Failure::Status) => ExitCode::from(1),
    }
}

/// The command line: the derived one, with the URL of `explain` and
/// `verify` not required when the request is a capture (`--curl`, `--har`,
/// `--http`). The URL's flags are shared with `sign` and `request`, which
/// have no capture flags, so the requirement is widened here.
fn command() -> clap::Command {
    let widen = |c: clap::Command| {
        c.mut_arg("url", |a| {
            a.required_unless_present_any(["curl", "har", "http"])
        })
    };
    Cli::command()
        .mut_subcommand("explain", widen)
        .mut_subcommand("verify", widen)
}

/// Prints a usage error (or --help, --version) and exits as clap says, with
/// any secret the user typed or exported replaced by `<redacted>`: clap
/// quotes arguments back ("unexpected argument '...'").
fn clap_exit(e: &clap::Error) -> ExitCode {
    let code = ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    let secrets = secret_values(std::env::args_os(), |var| std::env::var_os(var));
    let text = e.to_string();
    if !secrets.iter().any(|s| text.contains(s.as_str())) {
        let _ = e.print();
        return code;
    }
    let mut text = text;
    for secret in &secrets {
        text = text.replace(secret.as_str(), "<redacted>");
    }
    let _ = if e.use_stderr() {
        io::stderr().write_all(text.as_bytes())
    } else {
        io::stdout().write_all(text.as_bytes())
    };
    code
}

/// Every secret given on the command line or in the environment, non-empty,
/// longest first (so that a secret inside another is not left half shown).
fn secret_values(
    args: impl Iterator<Item = OsString>,
    env: impl Fn(&str) -> Option<OsString>,
) -> Vec<String> {
    const FLAGS: [&str; 2] = ["--consumer-secret", "--token-secret"];
    const VARS: [&str; 2] = ["OAUTH_CONSUMER_SECRET", "OAUTH_TOKEN_SECRET"];
    let mut found: Vec<OsString> = VARS.iter().filter_map(|v| env(v)).collect();
    let mut args = args.peekable();
    while let Some(arg) = args.next() {
        let arg = arg.to_string_lossy().into_owned();
        for flag in FLAGS {
            if arg == flag {
                found.extend(args.peek().cloned());
            } else if let Some(value) = arg.strip_prefix(flag).and_then(|r| r.strip_prefix('=')) {
                found.push(value.into());
            }
        }
    }
    let mut secrets: Vec<String> = found
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .collect();
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    secrets
}

fn on_command_line(m: &ArgMatches, id: &str) -> bool {
    matches!(m.try_get_raw(id), Ok(Some(_))) && m.value_source(id) == Some(ValueSource::CommandLine)
}

fn read_stdin() -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Io(format!("cannot read standard input: {e}")))?;
    Ok(bytes)
}

/// Writes the output. A reader that went away (`| head`) is not a failure:
/// Rust ignores SIGPIPE, so the write returns `BrokenPipe`, and we stop
/// quietly as a filter should. Any other write error (a full disk) is one.
fn emit(bytes: &[u8]) -> Result<(), Failure> {
    let mut stdout = io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Io(format!("cannot write the output: {e}"))),
    }
}
