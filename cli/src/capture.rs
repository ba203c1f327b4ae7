//! `--curl`, `--har` (`--entry N`) and `--http` (`--scheme`): the request
//! as the client sent it, read by the library's `capture` wing, in place of
//! the URL, method, body and header flags of `explain` and `verify`; and
//! the provider's answer (a HAR entry's response, `--response-body`) read
//! beside it.

use std::io::Read as _;

use clap::{Args, ValueEnum};
use oauth1_signer::capture::{
    parse_har, parse_http, parse_http_response, Answer, Captured, CapturedResponse, Carried, Curl,
    Shell,
};
use oauth1_signer::RequestSpec;
use oauth1_signer::{Error, ErrorKind, Name, Part, Protocol};

use crate::caret::{printable, Caret};
use crate::{read_stdin, Failure};

/// The longest capture read: a HAR file with every response body of a page
/// load runs to tens of megabytes; 256 MiB is more than any export.
const MAX_CAPTURE: usize = 256 << 20;

/// The longest file a curl command reads (`-d @file`, `-T file`).
const MAX_COMMAND_FILE: usize = 16 << 20;

/// The request as the client sent it: a curl command, a HAR entry or a raw
/// HTTP request, each TEXT, @FILE or - (standard input).
#[derive(Args, Debug)]
pub(crate) struct CaptureFlags {
    /// The request as a curl command (Chrome's or Firefox's "Copy as cURL", Postman's or
    /// Insomnia's snippet, `oauth1 sign --format curl`): TEXT, @FILE or - for stdin
    #[arg(
        long,
        value_name = "TEXT|@FILE|-",
        allow_hyphen_values = true,
        conflicts_with_all = ["har", "http", "url", "method", "data", "body", "content_type", "request", "example"]
    )]
    curl: Option<String>,

    /// The shell the curl command was written for [default: cmd when it looks written for
    /// cmd.exe (^"...^", lines ending in ^), else bash]
    #[arg(long, value_enum, value_name = "SHELL", requires = "curl")]
    curl_shell: Option<ShellArg>,

    /// Read the files the --curl command names (-d @FILE, --data-binary @FILE,
    /// --data-urlencode NAME@FILE, -H @FILE, -T FILE, < FILE): regular files only, each up to
    /// 16 MiB, never waiting on a pipe. Without it such a command is refused, naming the option
    /// and the file
    #[arg(long, requires = "curl")]
    read_files: bool,

    /// The request as an entry of a HAR file (exported by Chrome, Firefox or Postman):
    /// @FILE, - for stdin, or the JSON text; the entry that carries OAuth 1.0a, or --entry N
    #[arg(
        long,
        value_name = "@FILE|-|TEXT",
        allow_hyphen_values = true,
        conflicts_with_all = ["http", "url", "method", "data", "body", "content_type", "request", "example"]
    )]
    har: Option<String>,

    /// Which entry of the HAR file, counted from 0 in the file's order
    #[arg(long, value_name = "N", requires = "har")]
    entry: Option<usize>,

    /// The request as raw HTTP/1.1, as a proxy saves it (request line, headers, body):
    /// @FILE, - for stdin, or the text
    #[arg(
        long,
        value_name = "@FILE|-|TEXT",
        allow_hyphen_values = true,
        conflicts_with_all = ["url", "method", "data", "body", "content_type", "request", "example"]
    )]
    http: Option<String>,

    /// The scheme of an --http request whose target is a path (the bytes do not hold it)
    #[arg(long, value_enum, default_value_t = SchemeArg::Https, requires = "http")]
    scheme: SchemeArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ShellArg {
    Bash,
    Cmd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SchemeArg {
    Https,
    Http,
}

/// A capture read: the request, and what to tell the user of how.
#[derive(Debug)]
pub(crate) struct Read {
    pub(crate) captured: Captured,
    /// Notes for standard error (escaped).
    pub(crate) notes: Vec<String>,
}

/// Reads TEXT, @FILE or - (standard input), up to `limit` bytes.
fn input(flag: &str, value: &str, limit: usize) -> Result<Vec<u8>, Failure> {
    let bytes = match value {
        "-" => read_stdin()?,
        v => match v.strip_prefix('@') {
            Some(path) => {
                let cannot = |e: std::io::Error| {
                    Failure::input(format!("cannot read {flag} file {path:?}: {e}"))
                };
                let file = std::fs::File::open(path).map_err(cannot)?;
                let mut bytes = Vec::new();
                file.take(limit as u64 + 1)
                    .read_to_end(&mut bytes)
                    .map_err(cannot)?;
                bytes
            }
            None => v.as_bytes().to_vec(),
        },
    };
    if bytes.len() > limit {
        return Err(Failure::input(format!(
            "{flag} is over the limit of {limit} bytes"
        )));
    }
    Ok(bytes)
}

/// A file a curl command names, read for `--read-files`: a regular file
/// only (a FIFO, a device or a directory is refused, never waited on), at
/// most `limit` bytes.
fn read_command_file(path: &str, limit: usize) -> Result<Vec<u8>, String> {
    let not_regular = |meta: &std::fs::Metadata| {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "not a regular file (a pipe, a socket or a device)"
        };
        format!("it is {kind}: only a regular file is read")
    };
    // The name's type first, so that a FIFO is not even opened...
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // ...and opened without blocking, in case the name was swapped for a
    // FIFO since; then the open file's own type is checked.
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() > limit {
        return Err(format!("over the limit of {limit} bytes"));
    }
    Ok(bytes)
}

fn utf8(flag: &str, bytes: Vec<u8>) -> Result<String, Failure> {
    String::from_utf8(bytes).map_err(|e| {
        Failure::input(format!(
            "{flag} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// A capture error, with the line it is on and a caret under the spot.
fn capture_error(flag: &str, e: &Error, text: &[u8]) -> Failure {
    let Some((part, offset)) = e.offset() else {
        return Failure::input(format!("{flag}: {e}"));
    };
    if !matches!(part, Part::CurlCommand | Part::Har | Part::HttpMessage) {
        return Failure::input(format!("{flag}: {e}"));
    }
    let offset = offset.min(text.len());
    let line_start = text[..offset]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |k| k + 1);
    let line_end = text[offset..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |k| offset + k);
    let line_no = text[..line_start].iter().filter(|&&b| b == b'\n').count() + 1;
    let line = &text[line_start..line_end];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    Failure::Input(
        format!("{flag}: {e} (line {line_no})"),
        Some(Caret::new(line, offset - line_start, e.span_len())),
    )
}

impl CaptureFlags {
    /// The request the capture holds, if one is given.
    pub(crate) fn read(&self) -> Result<Option<Read>, Failure> {
        let mut notes = Vec::new();
        let captured = if let Some(value) = &self.curl {
            let text = utf8("--curl", input("--curl", value, MAX_CAPTURE)?)?;
            let shell = match self.curl_shell {
                Some(ShellArg::Bash) => Shell::Posix,
                Some(ShellArg::Cmd) => Shell::Cmd,
                None => Shell::Auto,
            };
            let shell = shell.resolve(&text);
            notes.push(format!("--curl read as a {} command", shell.as_str()));
            let mut files = |path: &str| read_command_file(path, MAX_COMMAND_FILE);
            let read = if self.read_files {
                Curl::new()
                    .with_shell(shell)
                    .with_files(&mut files)
                    .parse(&text)
            } else {
                Curl::new().with_shell(shell).parse(&text)
            };
            read.map_err(|e| {
                let failure = capture_error("--curl", &e, text.as_bytes());
                match (e.kind(), failure) {
                    (ErrorKind::NotInCapture { path, .. }, Failure::Input(message, caret))
                        if path != "-" =>
                    {
                        // Said before the "(line N)" the caret's line ends with.
                        let hint = "; --read-files lets oauth1 read it";
                        let cut = message.rfind(" (line ").unwrap_or(message.len());
                        let (said, line) = message.split_at(cut);
                        Failure::Input(format!("{said}{hint}{line}"), caret)
                    }
                    (_, failure) => failure,
                }
            })?
        } else if let Some(value) = &self.har {
            let text = utf8("--har", input("--har", value, MAX_CAPTURE)?)?;
            let har = parse_har(&text).map_err(|e| capture_error("--har", &e, text.as_bytes()))?;
            let chosen = har.choose(self.entry).map_err(|e| {
                let mut message = format!("--har: {e}");
                if let oauth1_signer::ErrorKind::EntryNotChosen { candidates, .. } = e.kind() {
                    message.push_str(" with --entry N:");
                    for &n in candidates {
                        let entry = &har.entries()[n];
                        message.push_str(&format!(
                            "\n  {n}  {} {}",
                            printable(entry.method().as_bytes()),
                            printable(entry.url().as_bytes())
                        ));
                    }
                }
                Failure::input(message)
            })?;
            let n = self
                .entry
                .unwrap_or_else(|| har.oauth_entries().first().copied().unwrap_or_default());
            notes.push(format!(
                "--har: entry {n} of {}: {} {}",
                har.entries().len(),
                printable(chosen.method().as_bytes()),
                printable(chosen.url().as_bytes())
            ));
            chosen
        } else if let Some(value) = &self.http {
            let bytes = input("--http", value, MAX_CAPTURE)?;
            let scheme = match self.scheme {
                SchemeArg::Https => "https",
                SchemeArg::Http => "http",
            };
            parse_http(&bytes, scheme).map_err(|e| capture_error("--http", &e, &bytes))?
        } else {
            return Ok(None);
        };
        for w in captured.warnings() {
            notes.push(format!(
                "{}: {}",
                w.code(),
                printable(w.to_string().as_bytes())
            ));
        }
        Ok(Some(Read { captured, notes }))
    }
}

/// Puts the captured request into `spec` (method, URL, body and its media
/// type), and gives what it carries of OAuth 1.0a, read by the library as a
/// verifier reads a received request ([`Captured::oauth`]). With `strip`,
/// protocol parameters in the query or the form body are taken out of it
/// (the explainer signs the request without them, as the client did), and
/// one that cannot be read is refused; without, the request is left as it
/// was sent (a verifier reads them where they are, and refuses what it
/// cannot read at its offset).
pub(crate) fn fill_spec(
    spec: &mut RequestSpec,
    captured: &Captured,
) -> Result<Option<Carried>, Failure> {
    spec.set_captured(captured, captured.url(), captured.body())
        .map_err(|e| Failure::input(format!("the captured request: {e}")))?;
    Ok(captured.oauth().ok().flatten())
}

/// The request's `oauth_timestamp`, when its protocol parameters say one.
pub(crate) fn timestamp_of(protocol: Option<&Protocol<'_>>) -> Option<u64> {
    protocol?.get(Name::Timestamp)?.parse().ok()
}

/// The answer's lines for people: each error with its meaning and what to
/// check, and by how many seconds the client's clock is off when the
/// answer is about the timestamp.
pub(crate) fn answer_text(answer: &Answer, clock: Option<Clock>) -> String {
    let mut out = String::new();
    if answer.is_empty() {
        return out;
    }
    let status = answer
        .status
        .map_or(String::new(), |s| format!(" (HTTP {s})"));
    out.push_str(&format!("\nthe provider's answer{status}:\n"));
    for e in &answer.errors {
        out.push_str(&format!("  {}\n", printable(e.to_string().as_bytes())));
        for (name, value) in &e.details {
            out.push_str(&format!(
                "    {}={}\n",
                printable(name.as_bytes()),
                printable(value.as_bytes())
            ));
        }
    }
    if answer.is_about_time() {
        match clock {
            Some(c) => out.push_str(&format!("  {c}\n")),
            None => out.push_str(
                "  (give the answer's Date, or a HAR entry that has it, to say how far the \
                 client's clock is off)\n",
            ),
        }
    }
    out
}

/// How far a client's clock is off, and from what: the library's.
pub(crate) use oauth1_signer::explain::Clock;

/// How far the client's clock is off ([`Clock::of`]).
pub(crate) fn clock(answer: &Answer, timestamp: Option<u64>, date: Option<&str>) -> Option<Clock> {
    Clock::of(answer, timestamp, date)
}

/// The answer as JSON: each error, and the clock.
pub(crate) fn answer_json(answer: &Answer, clock: Option<Clock>) -> serde_json::Value {
    let errors: Vec<serde_json::Value> = answer
        .errors
        .iter()
        .map(|e| {
            serde_json::json!({
                "code": e.code,
                "message": e.message,
                "meaning": e.meaning,
                "check": e.check,
                "details": e.details,
            })
        })
        .collect();
    serde_json::json!({
        "status": answer.status,
        "errors": errors,
        "clock_offset_seconds": clock.map(|c| c.offset),
    })
}

/// A saved response: a raw HTTP response (status line, headers, body, as a
/// proxy saves it), or its body alone.
pub(crate) fn saved_response(bytes: &[u8]) -> Result<CapturedResponse, Failure> {
    if bytes.starts_with(b"HTTP/") {
        return parse_http_response(bytes)
            .map_err(|e| Failure::input(format!("--response-body: {e}")));
    }
    Ok(CapturedResponse {
        status: 0,
        headers: Vec::new(),
        body: Some(bytes.to_vec()),
    })
}
