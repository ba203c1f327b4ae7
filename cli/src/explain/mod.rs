//! `explain`: why the other side's signature differs. The request is given
//! exactly as to `sign`; the other side's base string, signature or header
//! is compared with ours by [`Explainer`], and each cause printed.

use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use std::path::Path;

use oauth1_signer::capture::{Answer, CapturedResponse};
use oauth1_signer::explain::{
    find_base_string_in_response, Clock, Explainer, ResponseBaseString, Theirs,
    MAX_RESPONSE_BODY_LEN,
};
use oauth1_signer::{ErrorKind, Name, Part, Protocol, RequestSpec, Signer};

use crate::capture::{answer_text, saved_response, timestamp_of, CaptureFlags};
use crate::flags::Credentials;
use crate::output::Shown;
use crate::spec::{library_error, spec, spec_of, RequestFlags, SigningFlags};
use crate::Failure;

mod capture;
mod render;

use capture::explain_capture;
use render::{finish, render};
pub(crate) use render::{json_causes, JsonCause};

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
