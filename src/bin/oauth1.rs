//! `oauth1`: sign one request, percent-encode, percent-decode.
//!
//! A thin edge over the library: every stage it prints comes from
//! [`Signer::trace`], which runs the signing stages and keeps each one. Exit codes: 0 done, 2 bad
//! input or usage, 1 an I/O failure.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use oauth1_signer::{
    form_decode, percent_decode, percent_encode, Error, Part, RequestSpec, Secret, Trace,
};
use serde::Serialize;

/// The X developer docs' "Creating a signature" request (vector
/// `x-docs-creating-a-signature`), for `sign --example`.
const EXAMPLE: &str = include_str!("../../examples/x-docs-creating-a-signature.json");

const STDIN_NOTE: &str = "When the input is read from standard input, exactly one trailing newline \
                          (\"\\n\" or \"\\r\\n\") is removed first, so `echo` and here-strings work.";

#[derive(Parser, Debug)]
#[command(
    name = "oauth1",
    version,
    about = "Strict OAuth 1.0a (RFC 5849) signing, percent-encoding and percent-decoding",
    after_help = "Exit status: 0 done, 2 bad input or usage, 1 I/O failure."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Sign one request and print its Authorization header (or every stage)
    #[command(after_long_help = SIGN_HELP)]
    Sign(Box<SignArgs>),
    /// Percent-encode text as RFC 5849 §3.6 requires (only A-Z a-z 0-9 - . _ ~ stay)
    #[command(after_long_help = STDIN_NOTE)]
    Encode(EncodeArgs),
    /// Strictly percent-decode text (a '%' must be followed by two hex digits)
    #[command(after_long_help = STDIN_NOTE)]
    Decode(DecodeArgs),
}

const SIGN_HELP: &str = "\
Without --request or --example, the request is made from the flags: the nonce and the timestamp
are fresh unless pinned, oauth_version=\"1.0\" is sent unless --no-version, and the four
credentials may come from the environment.

With --request FILE (or --example), the JSON is taken literally, as in the test vectors: a field
that is absent is not sent (no \"nonce\": no oauth_nonce; no \"version\": no oauth_version), and
the environment is not read. Flags typed on the command line override the file's fields.

Secrets: the signing key is printed only with --show-secrets. A PLAINTEXT signature is the
signing key, so --format json and trace hide it too; header and curl print it, since it is
what is sent.

Examples:
  oauth1 sign --example --format trace
  OAUTH_CONSUMER_KEY=... OAUTH_CONSUMER_SECRET=... oauth1 sign -d 'status=hi' https://api.x.com/1.1/statuses/update.json
  oauth1 sign --request vector.json --format json";

#[derive(Args, Debug)]
struct SignArgs {
    /// The request URL, exactly as it will be sent (its query is signed)
    #[arg(required_unless_present_any = ["request", "example"])]
    url: Option<String>,

    /// HTTP method [default: GET, or POST with --data]
    #[arg(short = 'X', long)]
    method: Option<String>,

    /// Raw application/x-www-form-urlencoded body; its parameters are signed
    #[arg(short = 'd', long, value_name = "BODY")]
    data: Option<String>,

    /// Consumer (API) key
    #[arg(long, env = "OAUTH_CONSUMER_KEY", hide_env_values = true)]
    consumer_key: Option<String>,

    /// Consumer (API) secret
    #[arg(long, env = "OAUTH_CONSUMER_SECRET", hide_env_values = true)]
    consumer_secret: Option<String>,

    /// Token (access token)
    #[arg(long, env = "OAUTH_TOKEN", hide_env_values = true)]
    token: Option<String>,

    /// Token secret (access token secret)
    #[arg(long, env = "OAUTH_TOKEN_SECRET", hide_env_values = true)]
    token_secret: Option<String>,

    /// HMAC-SHA1 (default), HMAC-SHA256, HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256
    #[arg(long, value_name = "METHOD")]
    signature_method: Option<String>,

    /// PEM RSA private key (PKCS#1 or PKCS#8), for RSA-SHA1 and RSA-SHA256
    #[arg(long, value_name = "FILE")]
    private_key: Option<PathBuf>,

    /// Pin oauth_nonce (for reproducible output)
    #[arg(long)]
    nonce: Option<String>,

    /// Pin oauth_timestamp (for reproducible output)
    #[arg(long)]
    timestamp: Option<String>,

    /// realm, sent first in the header and never signed
    #[arg(long)]
    realm: Option<String>,

    /// oauth_callback (request-token call)
    #[arg(long)]
    callback: Option<String>,

    /// oauth_verifier (access-token call)
    #[arg(long)]
    verifier: Option<String>,

    /// Do not send oauth_version="1.0"
    #[arg(long)]
    no_version: bool,

    /// Read the request as JSON (the test vectors' "inputs"), taken literally; '-' is stdin
    #[arg(long, value_name = "FILE", conflicts_with = "example")]
    request: Option<String>,

    /// Sign the X docs "Creating a signature" example (no credentials needed)
    #[arg(long)]
    example: bool,

    /// What to print
    #[arg(long, value_enum, default_value_t = SignFormat::Header)]
    format: SignFormat,

    /// Also print the signing key (and a PLAINTEXT signature) in json and trace output
    #[arg(long)]
    show_secrets: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SignFormat {
    /// The Authorization header value only (OAuth ...)
    Header,
    /// Every stage as one JSON object, with the test vectors' field names
    Json,
    /// A ready-to-run curl command line
    Curl,
    /// Every stage, for people: the base string broken at each '&'
    Trace,
}

#[derive(Args, Debug)]
struct EncodeArgs {
    /// The text to encode (its UTF-8 bytes); when absent, stdin less one trailing newline
    text: Option<String>,

    /// The input is hex digits of the raw bytes to encode (e.g. --hex e29883)
    #[arg(long)]
    hex: bool,
}

#[derive(Args, Debug)]
struct DecodeArgs {
    /// The percent-encoded text; when absent, stdin less one trailing newline
    input: Option<String>,

    /// Form decoding: a '+' is a space (as in a query or a form body)
    #[arg(long)]
    form: bool,

    /// Output format
    #[arg(long, value_enum, default_value_t = DecodeFormat::Text)]
    format: DecodeFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DecodeFormat {
    /// The decoded text, or a lower-case hex dump when it is not UTF-8
    Text,
    /// {"text": ..., "hex": ..., "binary": false} or {"hex": ..., "binary": true}
    Json,
}

/// Why the command stopped.
#[derive(Debug)]
enum Failure {
    /// Bad input or usage (exit 2): the message, and the text an offset points into.
    Input(String, Option<Caret>),
    /// Could not read or write where no input was at fault (exit 1).
    Io(String),
}

/// Where in which text an error points.
#[derive(Debug)]
struct Caret {
    text: Vec<u8>,
    offset: usize,
    len: usize,
}

impl Failure {
    fn input(message: impl Into<String>) -> Failure {
        Failure::Input(message.into(), None)
    }
}

fn main() -> ExitCode {
    let matches = match Cli::command().try_get_matches() {
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
            sign(args, &given)
        }
        Command::Encode(args) => encode(args),
        Command::Decode(args) => decode(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input(message, caret)) => {
            let mut text = format!("error: {message}\n");
            if let Some(c) = caret {
                text.push_str(&caret_lines(&c.text, c.offset, c.len));
            }
            let _ = io::stderr().write_all(text.as_bytes());
            ExitCode::from(2)
        }
        Err(Failure::Io(message)) => {
            let _ = writeln!(io::stderr(), "error: {message}");
            ExitCode::from(1)
        }
    }
}

fn clap_exit(e: &clap::Error) -> ExitCode {
    let _ = e.print();
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

fn on_command_line(m: &ArgMatches, id: &str) -> bool {
    matches!(m.try_get_raw(id), Ok(Some(_))) && m.value_source(id) == Some(ValueSource::CommandLine)
}

// ---------------------------------------------------------------- sign

fn sign(args: &SignArgs, given: &dyn Fn(&str) -> bool) -> Result<(), Failure> {
    let literal = args.request.is_some() || args.example;
    let spec = if literal {
        let json = match &args.request {
            Some(path) => read_request(path)?,
            None => EXAMPLE.to_owned(),
        };
        let mut spec = RequestSpec::from_json(&json).map_err(|e| Failure::input(e.to_string()))?;
        override_from_flags(&mut spec, args, given)?;
        spec
    } else {
        spec_from_flags(args)?
    };

    let signer = if literal {
        spec.signer()
    } else {
        spec.fresh_signer()
    };
    let signer = signer.map_err(|e| library_error(&e, &spec))?;
    let request = spec.request();

    let out = match args.format {
        SignFormat::Header => {
            let header = signer
                .authorization(&request)
                .map_err(|e| library_error(&e, &spec))?;
            header + "\n"
        }
        SignFormat::Curl => {
            let header = signer
                .authorization(&request)
                .map_err(|e| library_error(&e, &spec))?;
            curl_line(&spec, &header)
        }
        SignFormat::Json | SignFormat::Trace => {
            let trace = signer
                .trace(&request)
                .map_err(|e| library_error(&e, &spec))?;
            let shown = Shown::new(&trace, args.show_secrets);
            if args.format == SignFormat::Json {
                stages_json(&trace, &shown)?
            } else {
                stages_text(&spec, &trace, &shown)
            }
        }
    };
    emit(out.as_bytes())
}

/// The request made from the flags alone (and the environment).
fn spec_from_flags(args: &SignArgs) -> Result<RequestSpec, Failure> {
    let consumer_key = args
        .consumer_key
        .clone()
        .filter(|k| !k.is_empty())
        .ok_or_else(|| {
            Failure::input("no consumer key: pass --consumer-key KEY or set OAUTH_CONSUMER_KEY")
        })?;
    let mut spec = RequestSpec::default();
    spec.method = match (&args.method, &args.data) {
        (Some(m), _) => m.clone(),
        (None, Some(_)) => "POST".into(),
        (None, None) => "GET".into(),
    };
    spec.url = args.url.clone().unwrap_or_default();
    spec.form_body = args.data.clone();
    spec.consumer_key = consumer_key;
    spec.consumer_secret = args.consumer_secret.clone().map(Secret::new);
    spec.token = args.token.clone();
    spec.token_secret = args.token_secret.clone().map(Secret::new);
    spec.signature_method = args.signature_method.clone();
    spec.nonce = args.nonce.clone();
    spec.timestamp = args.timestamp.clone();
    spec.version = !args.no_version;
    spec.realm = args.realm.clone();
    spec.callback = args.callback.clone();
    spec.verifier = args.verifier.clone();
    if let Some(path) = &args.private_key {
        spec.rsa_private_key = Some(Secret::new(read_key(path)?));
    }
    Ok(spec)
}

/// Flags typed on the command line replace the request file's fields; the
/// environment does not (the file is taken literally).
fn override_from_flags(
    spec: &mut RequestSpec,
    args: &SignArgs,
    given: &dyn Fn(&str) -> bool,
) -> Result<(), Failure> {
    fn set(field: &mut Option<String>, value: &Option<String>, given: bool) {
        if given {
            field.clone_from(value);
        }
    }
    if let (Some(url), true) = (&args.url, given("url")) {
        spec.url.clone_from(url);
    }
    if let (Some(method), true) = (&args.method, given("method")) {
        spec.method.clone_from(method);
    }
    if let (Some(key), true) = (&args.consumer_key, given("consumer_key")) {
        spec.consumer_key.clone_from(key);
    }
    set(&mut spec.form_body, &args.data, given("data"));
    if given("consumer_secret") {
        spec.consumer_secret = args.consumer_secret.clone().map(Secret::new);
    }
    set(&mut spec.token, &args.token, given("token"));
    if given("token_secret") {
        spec.token_secret = args.token_secret.clone().map(Secret::new);
    }
    set(
        &mut spec.signature_method,
        &args.signature_method,
        given("signature_method"),
    );
    set(&mut spec.nonce, &args.nonce, given("nonce"));
    set(&mut spec.timestamp, &args.timestamp, given("timestamp"));
    set(&mut spec.realm, &args.realm, given("realm"));
    set(&mut spec.callback, &args.callback, given("callback"));
    set(&mut spec.verifier, &args.verifier, given("verifier"));
    if args.no_version {
        spec.version = false;
    }
    if let Some(path) = &args.private_key {
        spec.rsa_private_key = Some(Secret::new(read_key(path)?));
    }
    Ok(())
}

fn read_request(path: &str) -> Result<String, Failure> {
    let bytes = if path == "-" {
        read_stdin()?
    } else {
        std::fs::read(path)
            .map_err(|e| Failure::input(format!("cannot read --request file {path:?}: {e}")))?
    };
    String::from_utf8(bytes).map_err(|e| {
        Failure::input(format!(
            "the --request JSON is not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn read_key(path: &Path) -> Result<String, Failure> {
    let shown = path.display();
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::input(format!("cannot read --private-key file \"{shown}\": {e}")))?;
    String::from_utf8(bytes).map_err(|_| {
        Failure::input(format!(
            "--private-key file \"{shown}\" is not text (expected a PEM RSA private key)"
        ))
    })
}

/// A library error, with a caret under the spot when it points into text
/// the user gave (never into a secret: no error points there).
fn library_error(e: &Error, spec: &RequestSpec) -> Failure {
    let caret = e.offset().and_then(|(part, offset)| {
        let text = match part {
            Part::Url => Some(spec.url.as_str()),
            Part::FormBody => spec.form_body.as_deref(),
            Part::Method => Some(spec.method.as_str()),
            Part::Realm => spec.realm.as_deref(),
            _ => None,
        }
        .filter(|t| !t.is_empty())?;
        Some(Caret {
            text: text.as_bytes().to_vec(),
            offset,
            len: e.span_len(),
        })
    });
    Failure::Input(e.to_string(), caret)
}

/// What may be shown of the secret-bearing stages.
struct Shown {
    signing_key: Option<String>,
    /// `None` when the signature is a PLAINTEXT one being hidden.
    signature: Option<String>,
    header: String,
}

const HIDDEN: &str =
    "<hidden: the PLAINTEXT signature is the signing key; --show-secrets shows it>";

impl Shown {
    fn new(trace: &Trace, show_secrets: bool) -> Shown {
        let plaintext = trace.signature.is_secret();
        let signature = trace.signature.as_str();
        if show_secrets || !plaintext {
            return Shown {
                signing_key: if show_secrets {
                    trace.signing_key.as_ref().map(|k| k.expose().to_owned())
                } else {
                    None
                },
                signature: Some(signature.to_owned()),
                header: trace.authorization_header.clone(),
            };
        }
        let sent = format!(
            "oauth_signature=\"{}\"",
            percent_encode(signature.as_bytes())
        );
        Shown {
            signing_key: None,
            signature: None,
            header: trace
                .authorization_header
                .replace(&sent, "oauth_signature=\"<hidden>\""),
        }
    }
}

/// A decoded name or value: a JSON string when it is UTF-8, `{"hex": ...}` when not.
#[derive(Serialize)]
#[serde(untagged)]
enum Bytes<'a> {
    Text(&'a str),
    Binary { hex: String },
}

impl<'a> Bytes<'a> {
    fn new(bytes: &'a [u8]) -> Bytes<'a> {
        match std::str::from_utf8(bytes) {
            Ok(s) => Bytes::Text(s),
            Err(_) => Bytes::Binary { hex: hex(bytes) },
        }
    }
}

/// Every stage as one JSON object, with the test vectors' field names, one
/// collected pair per line.
fn stages_json(trace: &Trace, shown: &Shown) -> Result<String, Failure> {
    let json = |value: &dyn erased::Json| value.to_json().map_err(|e| Failure::Io(e.to_string()));
    let mut out = String::from("{\n  \"collected_params\": [");
    for (i, (name, value)) in trace.collected_params.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let (name, value) = (json(&Bytes::new(name))?, json(&Bytes::new(value))?);
        let _ = write!(out, "{sep}\n    [{name}, {value}]");
    }
    out.push_str("\n  ]");
    let mut field = |name: &str, value: &str| -> Result<(), Failure> {
        let _ = write!(out, ",\n  {}: {}", json(&name)?, json(&value)?);
        Ok(())
    };
    field("normalized_params", &trace.normalized_params)?;
    field("base_string_uri", &trace.base_string_uri)?;
    field("base_string", &trace.base_string)?;
    if let Some(key) = &shown.signing_key {
        field("signing_key", key)?;
    }
    field("signature", shown.signature.as_deref().unwrap_or(HIDDEN))?;
    field("authorization_header", &shown.header)?;
    out.push_str("\n}\n");
    Ok(out)
}

mod erased {
    /// A value serde can write as compact JSON.
    pub(super) trait Json {
        fn to_json(&self) -> serde_json::Result<String>;
    }

    impl<T: serde::Serialize + ?Sized> Json for T {
        fn to_json(&self) -> serde_json::Result<String> {
            serde_json::to_string(self)
        }
    }
}

fn stages_text(spec: &RequestSpec, trace: &Trace, shown: &Shown) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "request:\n  {} {}", spec.method, spec.url);
    if let Some(body) = &spec.form_body {
        let _ = writeln!(out, "  (form body) {}", printable(body.as_bytes()));
    }
    out.push_str("\ncollected parameters (decoded; query, then oauth_*, then body):\n");
    let width = trace
        .collected_params
        .iter()
        .map(|(n, _)| printable(n).chars().count())
        .max()
        .unwrap_or(0);
    for (name, value) in &trace.collected_params {
        let _ = writeln!(out, "  {:<width$}  {}", printable(name), printable(value));
    }
    out.push_str("\nnormalized parameters (encoded, sorted; one per line, joined by '&'):\n");
    for param in trace.normalized_params.split('&') {
        let _ = writeln!(out, "  {param}");
    }
    let _ = writeln!(out, "\nbase string URI:\n  {}", trace.base_string_uri);
    out.push_str(
        "\nbase string (a line per '&' and per '%26'; joined, they are the signed bytes):\n",
    );
    for (i, part) in trace.base_string.splitn(3, '&').enumerate() {
        let amp = if i == 0 { "" } else { "&" };
        if i < 2 {
            let _ = writeln!(out, "  {amp}{part}");
            continue;
        }
        for (j, param) in part.split("%26").enumerate() {
            let sep = if j == 0 { amp } else { "%26" };
            let _ = writeln!(out, "  {sep}{param}");
        }
    }
    out.push_str("\nsigning key:\n");
    match (&shown.signing_key, &trace.signing_key) {
        (Some(key), _) => {
            let _ = writeln!(out, "  {key}");
        }
        (None, Some(_)) => out.push_str("  <hidden; --show-secrets shows it>\n"),
        (None, None) => out.push_str("  (none: RSA signs with the private key)\n"),
    }
    let _ = writeln!(
        out,
        "\nsignature:\n  {}\n\nAuthorization header:\n  {}",
        shown.signature.as_deref().unwrap_or(HIDDEN),
        shown.header
    );
    out
}

/// Text for a human: control characters escaped, non-UTF-8 bytes as `\xNN`.
fn printable(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

fn curl_line(spec: &RequestSpec, header: &str) -> String {
    let mut line = format!(
        "curl -X {} -H {}",
        shell_quote(&spec.method),
        shell_quote(&format!("Authorization: {header}"))
    );
    if let Some(body) = &spec.form_body {
        let _ = write!(
            line,
            " -H {} --data-raw {}",
            shell_quote("Content-Type: application/x-www-form-urlencoded"),
            shell_quote(body)
        );
    }
    let _ = writeln!(line, " {}", shell_quote(&spec.url));
    line
}

/// One POSIX shell word: single-quoted, each `'` written as `'\''`.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

// ---------------------------------------------------------------- encode, decode

fn encode(args: &EncodeArgs) -> Result<(), Failure> {
    let input = input_bytes(args.text.as_deref())?;
    let bytes = if args.hex { parse_hex(&input)? } else { input };
    let mut out = percent_encode(&bytes).to_string();
    out.push('\n');
    emit(out.as_bytes())
}

fn decode(args: &DecodeArgs) -> Result<(), Failure> {
    let input = input_bytes(args.input.as_deref())?;
    let decoded = if args.form {
        form_decode(&input)
    } else {
        percent_decode(&input)
    };
    let decoded = decoded.map_err(|e| {
        let caret = e.offset().map(|(_, offset)| Caret {
            text: input.clone(),
            offset,
            len: e.span_len(),
        });
        Failure::Input(e.to_string(), caret)
    })?;
    let bytes = decoded.as_bytes();
    let out = match (args.format, decoded.to_str()) {
        (DecodeFormat::Text, Some(text)) => format!("{text}\n"),
        (DecodeFormat::Text, None) => {
            let n = bytes.len();
            let _ = writeln!(
                io::stderr(),
                "binary (not UTF-8): {n} byte{}",
                if n == 1 { "" } else { "s" }
            );
            format!("{}\n", hex(bytes))
        }
        (DecodeFormat::Json, text) => {
            #[derive(Serialize)]
            struct Out<'a> {
                #[serde(skip_serializing_if = "Option::is_none")]
                text: Option<&'a str>,
                hex: String,
                binary: bool,
            }
            let out = Out {
                text,
                hex: hex(bytes),
                binary: text.is_none(),
            };
            serde_json::to_string(&out).map_err(|e| Failure::Io(e.to_string()))? + "\n"
        }
    };
    emit(out.as_bytes())
}

/// The argument, or standard input less exactly one trailing newline.
fn input_bytes(arg: Option<&str>) -> Result<Vec<u8>, Failure> {
    if let Some(text) = arg {
        return Ok(text.as_bytes().to_vec());
    }
    let mut bytes = read_stdin()?;
    if bytes.ends_with(b"\r\n") {
        bytes.truncate(bytes.len() - 2);
    } else if bytes.ends_with(b"\n") {
        bytes.truncate(bytes.len() - 1);
    }
    Ok(bytes)
}

fn read_stdin() -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::Io(format!("cannot read standard input: {e}")))?;
    Ok(bytes)
}

fn parse_hex(digits: &[u8]) -> Result<Vec<u8>, Failure> {
    let value = |at: usize| -> Result<u8, Failure> {
        let d = digits.get(at).copied().unwrap_or(b'0');
        match (d as char).to_digit(16) {
            Some(v) => Ok(v as u8),
            None => Err(Failure::Input(
                format!(
                    "invalid hex digit {} at byte {at} of the input (expected 0-9, a-f or A-F)",
                    shown_byte(d)
                ),
                Some(Caret {
                    text: digits.to_vec(),
                    offset: at,
                    len: 1,
                }),
            )),
        }
    };
    let mut out = Vec::with_capacity(digits.len() / 2);
    for at in (0..digits.len()).step_by(2) {
        let high = value(at)?;
        if at + 1 == digits.len() {
            return Err(Failure::Input(
                format!(
                    "odd number of hex digits ({}): the digit at byte {at} of the input has no partner (a byte takes two)",
                    digits.len()
                ),
                Some(Caret {
                    text: digits.to_vec(),
                    offset: at,
                    len: 1,
                }),
            ));
        }
        out.push(high << 4 | value(at + 1)?);
    }
    Ok(out)
}

fn shown_byte(b: u8) -> String {
    if b.is_ascii_graphic() {
        format!("'{}'", b as char)
    } else {
        format!("0x{b:02X}")
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

fn emit(bytes: &[u8]) -> Result<(), Failure> {
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::Io(format!("cannot write the output: {e}")))
}

// ---------------------------------------------------------------- carets

/// How much of a long input to show on each side of the caret.
const CONTEXT: usize = 40;

/// The input on one line (control characters and non-UTF-8 bytes escaped, a
/// long input cut around the spot) and a line of carets under
/// `offset..offset + len`.
fn caret_lines(text: &[u8], offset: usize, len: usize) -> String {
    // Each piece is the rendering of the bytes from `start` on.
    let mut pieces: Vec<(usize, String)> = Vec::new();
    let mut at = 0;
    for chunk in text.utf8_chunks() {
        for c in chunk.valid().chars() {
            let shown = if c.is_control() {
                c.escape_default().collect()
            } else {
                c.to_string()
            };
            pieces.push((at, shown));
            at += c.len_utf8();
        }
        for b in chunk.invalid() {
            pieces.push((at, format!("\\x{b:02x}")));
            at += 1;
        }
    }
    // Columns counted in characters: right for ASCII, which URLs and bodies are.
    let column_of = |byte: usize| -> usize {
        pieces
            .iter()
            .take_while(|(start, _)| *start < byte)
            .map(|(_, s)| s.chars().count())
            .sum::<usize>()
    };
    let total: usize = pieces.iter().map(|(_, s)| s.chars().count()).sum();
    let from = column_of(offset.min(text.len()));
    let to = if offset + len > text.len() {
        total + (offset + len - text.len())
    } else {
        column_of(offset + len)
    };
    let carets = to.saturating_sub(from).max(1);

    let line: String = pieces.iter().map(|(_, s)| s.as_str()).collect();
    let chars: Vec<char> = line.chars().collect();
    let (lo, prefix) = if from > CONTEXT {
        (from - CONTEXT, "...")
    } else {
        (0, "")
    };
    let hi = (from + carets + CONTEXT).min(chars.len());
    let suffix = if hi < chars.len() { "..." } else { "" };
    let shown: String = chars.get(lo..hi).unwrap_or_default().iter().collect();
    let pad = prefix.len() + from - lo;
    format!(
        "  {prefix}{shown}{suffix}\n  {}{}\n",
        " ".repeat(pad),
        "^".repeat(carets)
    )
}
