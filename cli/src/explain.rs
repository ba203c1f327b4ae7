//! `explain`: why the other side's signature differs. The request is given
//! exactly as to `sign`; the other side's base string, signature or header
//! is compared with ours by [`Explainer`], and each cause printed.

use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::path::PathBuf;

use anstyle::{AnsiColor, Style};
use clap::{Args, ValueEnum};
use std::path::Path;

use oauth1_signer::capture::{Answer, CapturedResponse};
use oauth1_signer::explain::{
    find_base_string_in_response, CaptureExplainer, Clock, Contradiction, Explainer, Explanation,
    Finding, ResponseBaseString, Theirs, MAX_RESPONSE_BODY_LEN,
};
use oauth1_signer::pipeline::base_string_lines;
use oauth1_signer::{ErrorKind, Name, Part, Protocol, RequestSpec, Signer};
use serde::Serialize;
use serde_json::ser::Formatter;
use similar::{ChangeTag, TextDiff};

use crate::capture::{answer_json, answer_text, saved_response, timestamp_of, CaptureFlags, Read};
use crate::caret::printable;
use crate::flags::{Credentials, Pins};
use crate::output::{sent_text, stages_text, Shown};
use crate::spec::{library_error, spec, spec_of, RequestFlags, SigningFlags};
use crate::Failure;

pub(crate) const EXPLAIN_HELP: &str = "\
Paste what the client sent: --curl (a curl command: Chrome's or Firefox's \"Copy as cURL\",
Postman's or Insomnia's snippet; bash or cmd.exe quoting), --har (a HAR file the browser or
Postman exported: the entry that carries OAuth 1.0a, or --entry N; its response is read too) or
--http (a raw HTTP/1.1 request a proxy saved; --scheme https by default), each TEXT, @FILE or -
for stdin. The captured Authorization header (or oauth_* parameters in its query or body) is
what the other side sent: its consumer key, token, signature method, realm, nonce, timestamp
and version are taken from it. Only the secrets are needed (flags, environment, --profile or the
default account); a flag that pins a value the capture contradicts is said first.

Or give the request exactly as to `oauth1 sign` (flags, environment, or --request FILE|-), and
what you have from the other side: its base string (--their-base-string, or --response-body
with a saved 401 body that echoes it as debug_sbs=... or \"signature base string: ...\"), its
signature, or its whole Authorization header. Their header's oauth_nonce and oauth_timestamp
(and a captured request's oauth_callback and oauth_verifier) are taken as ours unless pinned
with --nonce and --timestamp.

The provider's answer (a HAR entry's response, or --response-body: the body, or the whole
saved response from its status line) is read: X's error codes (32 the signature, 89 the token,
135 the timestamp, with how many seconds the client's clock is off by the answer's Date, 215
the header, 415 the callback, 416 the app), its v2 problem objects, and OAuth Problem
Reporting's oauth_problem.

Of several debug_sbs values in a response body, the first that parses as a base string is used
(a note on stderr says there were several). Their text is printed with control characters
escaped. Limits: a response body of 16 MiB (MAX_RESPONSE_BODY_LEN), a header of 1 MiB
(MAX_HEADER_LEN); the signature search leaves out each parameter in turn up to 64 parameters
(SEARCH_EACH_PARAM_MAX), only the protocol parameters above.

Exit status: 0 what they gave matches ours, 1 it does not, 2 bad input (an empty base string or
header, a parameter given twice in their header, an input over its limit).

Examples:
  oauth1 explain --consumer-secret \"$CS\" --token-secret \"$TS\" --curl @copied.txt
  oauth1 explain --consumer-secret \"$CS\" --token-secret \"$TS\" --har @x.com.har --entry 12
  oauth1 explain --consumer-secret \"$CS\" --http @request.txt --response-body @answer.txt
  oauth1 explain --example --their-base-string @theirs.txt
  oauth1 explain --request req.json --their-signature 'hCtSmYh+iHYCEqBWrE7C7hYmtUk='
  oauth1 explain --request req.json --their-header \"$(cat header.txt)\" --format json";

#[derive(Args, Debug)]
pub(crate) struct ExplainArgs {
    /// The request as the client sent it
    #[command(flatten)]
    capture: CaptureFlags,

    /// The request
    #[command(flatten)]
    request: RequestFlags,

    /// Its credentials
    #[command(flatten)]
    credentials: Credentials,

    /// Its protocol parameters, as we meant them
    #[command(flatten)]
    signing: SigningFlags,

    /// Their signature base string, or @FILE to read it from a file
    #[arg(long, value_name = "TEXT|@FILE")]
    their_base_string: Option<String>,

    /// Their signature (base64, or percent-encoded as in a header)
    #[arg(long, value_name = "SIG")]
    their_signature: Option<String>,

    /// Their whole Authorization header (OAuth ...)
    #[arg(long, value_name = "HEADER", conflicts_with_all = ["curl", "har", "http"])]
    their_header: Option<String>,

    /// A saved error response (FILE or @FILE): its body, or the whole response from its status
    /// line (for its Date); read for X's error codes, oauth_problem, and a base string it echoes
    #[arg(long, value_name = "FILE|@FILE")]
    response_body: Option<PathBuf>,

    /// What to print
    #[arg(long, value_enum, default_value_t = ExplainFormat::Text)]
    format: ExplainFormat,

    /// Also print the signing key when our trace is shown
    #[arg(long)]
    show_secrets: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ExplainFormat {
    /// For people: each cause, then the base strings diffed
    Text,
    /// {"match": bool, "causes": [{"code","component","ours","theirs","detail"}]}
    Json,
}

/// Reads a file of theirs; `limit` in bytes, over which it is refused by name.
fn read_file(
    what: &str,
    path: &std::path::Path,
    limit: Option<(usize, &str)>,
) -> Result<String, Failure> {
    let cannot = |e: std::io::Error| {
        Failure::input(format!(
            "cannot read {what} file \"{}\": {e}",
            path.display()
        ))
    };
    let file = std::fs::File::open(path).map_err(cannot)?;
    let mut bytes = Vec::new();
    match limit {
        Some((max, name)) => {
            // One byte over the limit is enough to know the file is over it.
            file.take(max as u64 + 1)
                .read_to_end(&mut bytes)
                .map_err(cannot)?;
            if bytes.len() > max {
                return Err(Failure::input(format!(
                    "{what} file \"{}\" is over the limit of {max} bytes ({name})",
                    path.display()
                )));
            }
        }
        None => {
            let mut file = file;
            file.read_to_end(&mut bytes).map_err(cannot)?;
        }
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// The signer of `spec`, as `sign` makes it: pinned as given from a file,
/// with a fresh nonce and timestamp from the flags unless pinned.
fn signer_of(spec: &RequestSpec, literal: bool) -> Result<Signer, Failure> {
    let signer = if literal {
        spec.signer()
    } else {
        spec.fresh_signer()
    };
    let signer = signer.map_err(|e| library_error(&e, spec))?;
    if let Some(bits) = signer.signing_key().rsa_bits().filter(|&bits| bits < 2048) {
        eprintln!(
            "warning: the RSA key has {bits} bits; keys under 2048 bits are too weak to rely on"
        );
    }
    Ok(signer)
}

/// Their header's values that are ours unless pinned: the nonce and the
/// timestamp (a signer's own). Says which were taken.
fn take_theirs(spec: &mut RequestSpec, theirs: &Protocol<'_>) -> Vec<&'static str> {
    let mut taken = Vec::new();
    let mut take = |field: &mut Option<String>, name: Name| {
        if field.is_none() {
            if let Some(value) = theirs.get(name) {
                *field = Some(value.to_owned());
                taken.push(name.as_str());
            }
        }
    };
    take(&mut spec.nonce, Name::Nonce);
    take(&mut spec.timestamp, Name::Timestamp);
    taken
}

/// The saved response of --response-body, if given.
fn saved(args: &ExplainArgs) -> Result<Option<CapturedResponse>, Failure> {
    let Some(path) = &args.response_body else {
        return Ok(None);
    };
    // FILE or @FILE, as the other flags that read a file write it.
    let path = path
        .to_str()
        .and_then(|p| p.strip_prefix('@'))
        .map_or(path.as_path(), Path::new);
    // An error response that echoes a base string is a few kilobytes.
    let limit = (MAX_RESPONSE_BODY_LEN, "MAX_RESPONSE_BODY_LEN");
    let bytes = read_file("--response-body", path, Some(limit))?;
    saved_response(bytes.as_bytes()).map(Some)
}

/// --their-base-string, read (an empty one is a copying mistake).
fn their_base_string(args: &ExplainArgs) -> Result<Option<String>, Failure> {
    let Some(text) = args.their_base_string.as_deref() else {
        return Ok(None);
    };
    let text = match text.strip_prefix('@') {
        Some(path) => read_file("--their-base-string", path.as_ref(), None)?,
        None => text.to_owned(),
    };
    if text.trim().is_empty() {
        return Err(Failure::input("--their-base-string is empty"));
    }
    Ok(Some(text.trim().to_owned()))
}

/// The note on a response body holding several debug_sbs values.
fn several_noted(found: &ResponseBaseString, from: &str, notes: &mut String) {
    if found.debug_sbs_count > 1 {
        let used = match found.debug_sbs_used {
            Some(i) => format!("the one that parses as a base string is number {}", i + 1),
            None => "none parses as a base string, so the one in the text is used".to_owned(),
        };
        let _ = writeln!(
            notes,
            "note: {from} has {} debug_sbs values; {used}",
            found.debug_sbs_count
        );
    }
}

/// The refusal of --response-body that holds nothing to read.
fn nothing_in_response(path: &std::path::Path) -> Failure {
    Failure::input(format!(
        "no signature base string nor provider error found in --response-body \"{}\" \
         (looked for debug_sbs=..., text that starts like METHOD&http..., X's error \
         codes and oauth_problem=...)",
        path.display()
    ))
}

/// Explains; `Ok(true)` when what they gave matches ours.
pub(crate) fn explain(args: &ExplainArgs, given: &dyn Fn(&str) -> bool) -> Result<(), Failure> {
    let read = args.capture.read()?;
    // How the capture was read, said first: an error further on may come of it.
    if let Some(r) = &read {
        let mut said = String::new();
        for note in &r.notes {
            let _ = writeln!(said, "note: {note}");
        }
        let _ = std::io::stderr().write_all(said.as_bytes());
        return explain_capture(args, given, r);
    }
    let mut notes = String::new();
    let literal = args.request.literal();
    let mut spec = spec(&args.request, &args.credentials, Some(&args.signing), given)?;
    let their_protocol = args
        .their_header
        .as_deref()
        // Refused with its offset by the explainer, further on.
        .and_then(|h| Protocol::from_header(h).ok().map(Protocol::into_owned));
    if let Some(theirs) = &their_protocol {
        let taken = take_theirs(&mut spec, theirs);
        if !taken.is_empty() {
            let _ = writeln!(
                notes,
                "note: {} as in their request (pin ours with --nonce, --timestamp)",
                taken.join(", ")
            );
        }
    }
    let signer = signer_of(&spec, literal)?;
    let params = spec
        .protocol_params()
        .map_err(|e| library_error(&e, &spec))?;
    let mut explainer =
        Explainer::new(&signer, &spec.request(&params)).map_err(|e| library_error(&e, &spec))?;
    if let (Some(body), None) = (&spec.body, &spec.form_body) {
        explainer = explainer.with_unsigned_body(body);
    }
    let mut base = their_base_string(args)?;
    let mut answer: Option<(Answer, Option<Clock>)> = None;
    if let Some(response) = saved(args)? {
        let body =
            String::from_utf8_lossy(response.body.as_deref().unwrap_or_default()).into_owned();
        let status = (response.status != 0).then_some(response.status);
        let read_answer = oauth1_signer::capture::read_answer(status, body.as_bytes());
        let clock = Clock::of(
            &read_answer,
            timestamp_of(their_protocol.as_ref())
                .or_else(|| spec.timestamp.as_deref()?.parse().ok()),
            response.header("date"),
        );
        match find_base_string_in_response(&body) {
            None if read_answer.is_empty() => {
                let path = args.response_body.as_deref().unwrap_or(Path::new(""));
                return Err(nothing_in_response(path));
            }
            None => {}
            Some(found) => {
                several_noted(&found, "--response-body", &mut notes);
                base.get_or_insert(found.base_string);
            }
        }
        if !read_answer.is_empty() {
            answer = Some((read_answer, clock));
        }
    }
    if base.is_none() && args.their_signature.is_none() && args.their_header.is_none() {
        let said = match &answer {
            Some((a, c)) => format!(
                " (the response holds no base string; it says:{})",
                answer_text(a, *c)
                    .lines()
                    .skip(2)
                    .map(|l| format!(" {}", l.trim()))
                    .collect::<String>()
            ),
            None => String::new(),
        };
        return Err(Failure::input(format!(
            "nothing to compare: give --curl, --har or --http (what the client sent), or \
             --their-base-string, --their-signature, --their-header or --response-body{said}"
        )));
    }
    let explanation = explainer
        .explain(Theirs {
            header: args.their_header.as_deref(),
            base_string: base.as_deref(),
            signature: args.their_signature.as_deref(),
        })
        .map_err(|e| match e.kind() {
            // An empty signature is a copying mistake, not a signature to search for.
            ErrorKind::Empty {
                part: Part::Signature,
                ..
            } => Failure::input("--their-signature is empty"),
            _ => Failure::input(format!("--their-header: {e}")),
        })?;
    let shown = Shown::new(explainer.trace(), args.show_secrets);
    let out = render(
        args,
        &[],
        &explanation,
        answer.as_ref(),
        &spec,
        &explainer,
        &shown,
    )?;
    finish(args, &spec, out, notes, explanation.matches)
}

/// Explains a captured request with the library's one call
/// ([`CaptureExplainer`]): its own consumer key, token, method, realm,
/// nonce, timestamp and version, with the secrets given; a flag that
/// contradicts the capture is said first.
fn explain_capture(
    args: &ExplainArgs,
    given: &dyn Fn(&str) -> bool,
    read: &Read,
) -> Result<(), Failure> {
    let mut spec = spec_of(&args.request, None, Some(&args.signing), given)?;
    let rsa = args.signing.method.rsa(&spec);
    let pins = args.credentials.fill_for_capture(&mut spec, rsa, given)?;
    let base = their_base_string(args)?;
    let saved = saved(args)?;
    if args
        .their_signature
        .as_deref()
        .is_some_and(|s| s.trim().is_empty())
    {
        return Err(Failure::input("--their-signature is empty"));
    }
    let mut call = CaptureExplainer::new(&read.captured, &spec).version_pinned(given("no_version"));
    if let Some(base) = &base {
        call = call.their_base_string(base);
    }
    if let Some(signature) = &args.their_signature {
        call = call.their_signature(signature);
    }
    if let Some(saved) = &saved {
        call = call.response(saved);
    }
    let explained = call
        .explain()
        .map_err(|e| match e.offset() {
            Some((Part::Header, _)) => {
                Failure::input(format!("the captured Authorization header: {e}"))
            }
            _ => Failure::input(format!("the captured request: {e}")),
        })?
        .ok_or_else(|| {
            Failure::input(
                "the captured request carries no OAuth 1.0a: no Authorization: OAuth header and \
                 no oauth_* parameter in its query or form body",
            )
        })?;
    let weak = match &explained.spec.rsa_private_key {
        Some(_) => explained
            .spec
            .signer()
            .ok()
            .and_then(|s| s.signing_key().rsa_bits()),
        None => None,
    };
    if let Some(bits) = weak.filter(|&bits| bits < 2048) {
        eprintln!(
            "warning: the RSA key has {bits} bits; keys under 2048 bits are too weak to rely on"
        );
    }
    let mut notes = String::new();
    if !explained.taken.is_empty() {
        let _ = writeln!(
            notes,
            "note: {} as in the capture (pin ours with {})",
            explained.taken.join(", "),
            explained
                .taken
                .iter()
                .map(|name| flag_of(name, None))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if let Some(found) = &explained.found {
        let from = match args.response_body {
            Some(_) => "--response-body",
            None => "the HAR entry's response",
        };
        several_noted(found, from, &mut notes);
    }
    if let (Some(path), None, None) = (&args.response_body, &explained.found, &explained.answer) {
        return Err(nothing_in_response(path));
    }
    let said: Vec<String> = explained
        .contradictions
        .iter()
        .map(|c| contradiction_text(c, &pins))
        .collect();
    let answer = explained.answer.clone().map(|a| (a, explained.clock));
    let shown = Shown::new(explained.explainer.trace(), args.show_secrets);
    let out = render(
        args,
        &said,
        &explained.explanation,
        answer.as_ref(),
        &explained.spec,
        &explained.explainer,
        &shown,
    )?;
    finish(args, &explained.spec, out, notes, explained.matches())
}

/// Where a protocol value is pinned: the flag, or for a contradiction the
/// source of its consumer key and token (`pins`).
fn flag_of(name: &str, pins: Option<&Pins>) -> String {
    match (name, pins) {
        ("oauth_consumer_key", Some(pins)) => pins.consumer_key.clone(),
        ("oauth_token", Some(pins)) => pins.token.clone(),
        ("oauth_consumer_key", None) => "--consumer-key".to_owned(),
        ("oauth_token", None) => "--token".to_owned(),
        ("oauth_signature_method", _) => "--signature-method".to_owned(),
        ("oauth_nonce", _) => "--nonce".to_owned(),
        ("oauth_timestamp", _) => "--timestamp".to_owned(),
        ("oauth_callback", _) => "--callback".to_owned(),
        ("oauth_verifier", _) => "--oauth-verifier".to_owned(),
        ("oauth_version", _) => "--no-version".to_owned(),
        _ => "--realm".to_owned(),
    }
}

/// A contradiction as the user pinned it: `--consumer-key says "a" but the
/// capture was signed with oauth_consumer_key "b"`.
fn contradiction_text(c: &Contradiction, pins: &Pins) -> String {
    let shown = |v: &Option<String>| match v {
        Some(v) => format!("\"{}\"", printable(v.as_bytes())),
        None => "none".to_owned(),
    };
    let what = c.name;
    match (c.name, &c.pinned) {
        ("oauth_version", None) => format!(
            "--no-version says no oauth_version but the capture was signed with oauth_version {}",
            shown(&c.captured)
        ),
        _ => format!(
            "{} says {what} {} but the capture was signed with {}",
            flag_of(c.name, Some(pins)),
            shown(&c.pinned),
            match &c.captured {
                Some(_) => format!("{what} {}", shown(&c.captured)),
                None => format!("no {what}"),
            }
        ),
    }
}

/// What `explain` prints: the contradictions first, then each cause (or
/// JSON of them), the answer, and the base strings diffed or our trace.
fn render(
    args: &ExplainArgs,
    contradictions: &[String],
    explanation: &Explanation,
    answer: Option<&(Answer, Option<Clock>)>,
    spec: &RequestSpec,
    explainer: &Explainer,
    shown: &Shown,
) -> Result<String, Failure> {
    let matches = explanation.matches && contradictions.is_empty();
    let findings: Vec<&Finding> = explanation.findings.iter().collect();
    let theirs = explanation.their_base_string.as_deref();
    Ok(match args.format {
        ExplainFormat::Json => json(matches, contradictions, &findings, answer)?,
        ExplainFormat::Text => {
            let mut out = String::new();
            for c in contradictions {
                let _ = writeln!(out, "{RED}contradiction{RED:#}: {c}");
            }
            if contradictions.is_empty() || !explanation.matches {
                out.push_str(&text(explanation.matches, &findings));
            } else {
                let _ = writeln!(
                    out,
                    "{GREEN}match{GREEN:#}: the capture's signature is what we compute with its \
                     own values"
                );
            }
            if let Some((answer, clock)) = answer {
                out.push_str(&answer_text(answer, *clock));
            }
            let ours = &explainer.trace().base_string;
            match theirs {
                Some(theirs) if theirs != ours => out.push_str(&diff(ours, theirs)),
                None if !explanation.matches => {
                    out.push_str("\nour trace:\n");
                    out.push_str(&stages_text(spec, explainer.trace(), shown));
                    if let Ok(sent) = spec.sent_shown(&explainer.trace().signed, shown.mask()) {
                        out.push_str(&sent_text(&sent, spec.transmission()));
                    }
                }
                _ => {}
            }
            out
        }
    })
}

/// Writes the notes and the output (neither holding a secret unless
/// asked) and says how it went.
fn finish(
    args: &ExplainArgs,
    spec: &RequestSpec,
    out: String,
    notes: String,
    matches: bool,
) -> Result<(), Failure> {
    // Whatever was sent in place of a signature may spell the secrets.
    let out = crate::output::without_secrets(out, spec, args.show_secrets);
    let notes = crate::output::without_secrets(notes, spec, args.show_secrets);
    let _ = std::io::stderr().write_all(notes.as_bytes());
    let mut stdout = anstream::stdout();
    match stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        Err(e) => return Err(Failure::Io(format!("cannot write the output: {e}"))),
    }
    if matches {
        Ok(())
    } else {
        Err(Failure::Status)
    }
}

/// One finding as `explain --format json` and `serve`'s diagnosis show it.
#[derive(Serialize)]
pub(crate) struct JsonCause<'a> {
    code: &'static str,
    component: String,
    ours: &'a str,
    theirs: &'a str,
    detail: &'a str,
}

/// The findings as JSON causes (`ours` and `theirs` never hold a secret).
pub(crate) fn json_causes<'a>(findings: &[&'a Finding]) -> Vec<JsonCause<'a>> {
    findings
        .iter()
        .map(|f| JsonCause {
            code: f.cause.as_str(),
            component: f.component.to_string(),
            ours: &f.ours,
            theirs: &f.theirs,
            detail: &f.detail,
        })
        .collect()
}

fn json(
    matches: bool,
    contradictions: &[String],
    findings: &[&Finding],
    answer: Option<&(Answer, Option<Clock>)>,
) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Out<'a> {
        #[serde(rename = "match")]
        matches: bool,
        #[serde(skip_serializing_if = "<[String]>::is_empty")]
        contradictions: &'a [String],
        causes: Vec<JsonCause<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        answer: Option<serde_json::Value>,
    }
    let causes = json_causes(findings);
    let answer = answer.map(|(a, c)| answer_json(a, *c));
    let out = Out {
        matches,
        contradictions,
        causes,
        answer,
    };
    terminal_json(&out, serde_json::ser::PrettyFormatter::new())
        .map_err(|e| Failure::Io(e.to_string()))
}

/// `value` as JSON text with every control character escaped, and a final
/// newline, written by `format` (compact or pretty): serde_json escapes
/// U+0000..U+001F in strings, but leaves DEL and the C1 controls
/// (U+0080..U+009F, which some terminals obey) raw. They can only be in
/// strings, where `\uXXXX` is the same JSON value ([`TerminalSafe`]). The
/// one way `explain`, `verify` and `serve` write JSON.
///
/// # Errors
/// A `Serialize` impl's own failure (ours do not fail).
pub(crate) fn terminal_json<T: Serialize + ?Sized, F: Formatter>(
    value: &T,
    format: F,
) -> Result<String, serde_json::Error> {
    // A verdict's is about 700 bytes: written without growing.
    let mut out = Vec::with_capacity(1024);
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut out,
        TerminalSafe(format),
    ))?;
    out.push(b'\n');
    // serde_json writes UTF-8, and the escapes added are ASCII.
    String::from_utf8(out).map_err(|e| serde_json::Error::io(std::io::Error::other(e)))
}

/// A formatter that writes a string's DEL and C1 controls as `\u007f` ..
/// `\u009f` and is `F` in all else.
struct TerminalSafe<F>(F);

impl<F: Formatter> Formatter for TerminalSafe<F> {
    /// What serde_json did not escape: a run of a string's characters. In
    /// UTF-8 a DEL is 0x7f and a C1 control 0xc2 then 0x80..=0x9f, so the
    /// runs between those two lead bytes are copied as they are.
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let bytes = fragment.as_bytes();
        // Most fragments are ASCII below DEL: one pass without branches
        // (vectorised) says so, and they are copied whole.
        if bytes.iter().fold(0, |seen, &b| seen | u8::from(b >= 0x7f)) == 0 {
            return writer.write_all(bytes);
        }
        let (mut start, mut i) = (0, 0);
        while let Some(at) = bytes[i..].iter().position(|&b| b == 0x7f || b == 0xc2) {
            let at = i + at;
            let control = match (bytes[at], bytes.get(at + 1)) {
                (0x7f, _) => Some((0x7f, 1)),
                (_, Some(&next @ 0x80..=0x9f)) => Some((next, 2)),
                _ => None,
            };
            match control {
                Some((code, len)) => {
                    writer.write_all(&bytes[start..at])?;
                    write!(writer, "\\u{code:04x}")?;
                    start = at + len;
                    i = start;
                }
                // Another character after 0xc2 (U+00A0..U+00BF): kept.
                None => i = at + 1,
            }
        }
        writer.write_all(&bytes[start..])
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

const BOLD: Style = Style::new().bold();
const RED: Style = AnsiColor::Red.on_default();
const GREEN: Style = AnsiColor::Green.on_default();
const YELLOW: Style = AnsiColor::Yellow.on_default().bold();

/// Each cause: code and component aligned, then the detail and both sides.
fn text(matches: bool, findings: &[&Finding]) -> String {
    let mut out = String::new();
    if matches {
        let _ = writeln!(
            out,
            "{GREEN}match{GREEN:#}: what they gave is what we compute"
        );
        return out;
    }
    let _ = writeln!(out, "{RED}mismatch{RED:#}: {} cause(s)", findings.len());
    let width = findings
        .iter()
        .map(|f| f.cause.as_str().len())
        .max()
        .unwrap_or(0);
    // Their text (names, values, base string) is escaped before our
    // styles are added: no escape sequence of theirs reaches the terminal.
    let shown = |s: &str| printable(s.as_bytes());
    for f in findings {
        let _ = writeln!(
            out,
            "\n  {YELLOW}{:<width$}{YELLOW:#}  {BOLD}{}{BOLD:#}\n  {:<width$}  {}",
            f.cause.as_str(),
            shown(&f.component.to_string()),
            "",
            shown(&f.detail)
        );
        if !f.ours.is_empty() {
            let _ = writeln!(out, "  {:<width$}  ours:   {}", "", shown(&f.ours));
        }
        if !f.theirs.is_empty() {
            let _ = writeln!(out, "  {:<width$}  theirs: {}", "", shown(&f.theirs));
        }
    }
    out
}

/// A base string a line per part, as `sign --format trace` breaks it.
fn lines(base: &str) -> String {
    base_string_lines(base)
        .into_iter()
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The two base strings, diffed a part per line: `-` ours, `+` theirs.
fn diff(ours: &str, theirs: &str) -> String {
    let (a, b) = (lines(ours), lines(theirs));
    let mut out = String::from("\nbase strings (- ours, + theirs; a line per '&' and '%26'):\n");
    for change in TextDiff::from_lines(&a, &b).iter_all_changes() {
        let line = printable(change.value().trim_end_matches('\n').as_bytes());
        let _ = match change.tag() {
            ChangeTag::Delete => writeln!(out, "{RED}- {line}{RED:#}"),
            ChangeTag::Insert => writeln!(out, "{GREEN}+ {line}{GREEN:#}"),
            ChangeTag::Equal => writeln!(out, "  {line}"),
        };
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::ser::{CompactFormatter, PrettyFormatter};

    /// The naive reference: serde_json's text, then every control
    /// character but a newline escaped, a `char` at a time.
    fn naive(text: &str) -> String {
        let mut out = String::new();
        for c in text.chars() {
            if c.is_control() && c != '\n' {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            } else {
                out.push(c);
            }
        }
        out.push('\n');
        out
    }

    #[test]
    fn every_control_character_is_escaped_and_nothing_else_changes() {
        let mut texts: Vec<String> = (0..=0x10ffu32)
            .filter_map(char::from_u32)
            .map(|c| format!("a{c}b{c}{c}"))
            .collect();
        texts.push("\u{7f}\u{80}\u{9f}\u{a0}\u{c2}\u{bf}é\u{1b}[31m\u{85}".to_owned());
        texts.push(String::new());
        for text in &texts {
            let value = serde_json::json!({"k\u{85}": [text, 1, null], "v": {"x": text}});
            assert_eq!(
                terminal_json(&value, CompactFormatter).unwrap(),
                naive(&serde_json::to_string(&value).unwrap()),
                "{text:?}"
            );
            assert_eq!(
                terminal_json(&value, PrettyFormatter::new()).unwrap(),
                naive(&serde_json::to_string_pretty(&value).unwrap()),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_del_and_a_c1_control_are_written_as_escapes() {
        let text = terminal_json(&["\u{7f}x\u{9b}2J\u{a0}"], CompactFormatter).unwrap();
        assert_eq!(text, "[\"\\u007fx\\u009b2J\u{a0}\"]\n");
    }
}
