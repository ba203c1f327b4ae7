//! `explain`: why the other side's signature differs. The request is given
//! exactly as to `sign`; the other side's base string, signature or header
//! is compared with ours by [`Explainer`], and each cause printed.

use std::fmt::Write as _;
use std::io::{Read as _, Write as _};
use std::path::PathBuf;

use anstyle::{AnsiColor, Style};
use clap::{Args, ValueEnum};
use oauth1_signer::explain::{
    find_base_string_in_response, Explainer, Finding, Theirs, MAX_RESPONSE_BODY_LEN,
};
use oauth1_signer::pipeline::base_string_lines;
use oauth1_signer::{ErrorKind, Part};
use serde::Serialize;
use similar::{ChangeTag, TextDiff};

use crate::caret::printable;
use crate::flags::Credentials;
use crate::output::{sent_text, stages_text, Shown};
use crate::spec::{library_error, signed, RequestFlags, SigningFlags};
use crate::Failure;

pub(crate) const EXPLAIN_HELP: &str = "\
The request is given exactly as to `oauth1 sign` (flags, environment, or --request FILE|-), with
the nonce and timestamp the other side saw. Give what you have from the other side: its base
string (--their-base-string, or --response-body with a saved 401 body that echoes it as
debug_sbs=... or \"signature base string: ...\"), its signature, or its whole Authorization header.

Of several debug_sbs values in a response body, the first that parses as a base string is used
(a note on stderr says there were several). Their text is printed with control characters
escaped. Limits: a response body of 16 MiB (MAX_RESPONSE_BODY_LEN), a header of 1 MiB
(MAX_HEADER_LEN); the signature search leaves out each parameter in turn up to 64 parameters
(SEARCH_EACH_PARAM_MAX), only the protocol parameters above.

Exit status: 0 what they gave matches ours, 1 it does not, 2 bad input (an empty base string or
header, a parameter given twice in their header, an input over its limit).

Examples:
  oauth1 explain --example --their-base-string @theirs.txt
  oauth1 explain --request req.json --their-signature 'hCtSmYh+iHYCEqBWrE7C7hYmtUk='
  oauth1 explain --request req.json --their-header \"$(cat header.txt)\" --format json";

#[derive(Args, Debug)]
pub(crate) struct ExplainArgs {
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
    #[arg(long, value_name = "HEADER")]
    their_header: Option<String>,

    /// A saved error response body that echoes their base string
    #[arg(long, value_name = "FILE")]
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

/// Explains; `Ok(true)` when what they gave matches ours.
pub(crate) fn explain(args: &ExplainArgs, given: &dyn Fn(&str) -> bool) -> Result<(), Failure> {
    let (spec, signer) = signed(&args.request, &args.credentials, &args.signing, given)?;
    let params = spec
        .protocol_params()
        .map_err(|e| library_error(&e, &spec))?;
    let explainer =
        Explainer::new(&signer, &spec.request(&params)).map_err(|e| library_error(&e, &spec))?;
    let mut base = match args.their_base_string.as_deref() {
        Some(text) => {
            let text = match text.strip_prefix('@') {
                Some(path) => read_file("--their-base-string", path.as_ref(), None)?,
                None => text.to_owned(),
            };
            // Empty is a copying mistake, not a base string that differs.
            if text.trim().is_empty() {
                return Err(Failure::input("--their-base-string is empty"));
            }
            Some(text.trim().to_owned())
        }
        None => None,
    };
    let mut notes = String::new();
    if let Some(path) = &args.response_body {
        // An error response that echoes a base string is a few kilobytes.
        let limit = (MAX_RESPONSE_BODY_LEN, "MAX_RESPONSE_BODY_LEN");
        let body = read_file("--response-body", path, Some(limit))?;
        let found = find_base_string_in_response(&body).ok_or_else(|| {
            Failure::input(format!(
                "no signature base string found in --response-body \"{}\" (looked for debug_sbs=... \
                 and text that starts like METHOD&http...)",
                path.display()
            ))
        })?;
        if found.debug_sbs_count > 1 {
            let used = match found.debug_sbs_used {
                Some(i) => format!("the one that parses as a base string is number {}", i + 1),
                None => "none parses as a base string, so the one in the text is used".to_owned(),
            };
            let _ = writeln!(
                notes,
                "note: --response-body has {} debug_sbs values; {used}",
                found.debug_sbs_count
            );
        }
        base.get_or_insert(found.base_string);
    }
    if base.is_none() && args.their_signature.is_none() && args.their_header.is_none() {
        return Err(Failure::input(
            "nothing to compare: give --their-base-string, --their-signature, --their-header \
             or --response-body",
        ));
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
    let (matches, findings) = (explanation.matches, &explanation.findings);
    let findings: Vec<&Finding> = findings.iter().collect();
    let theirs = explanation.their_base_string.as_deref();
    let out = match args.format {
        ExplainFormat::Json => json(matches, &findings)?,
        ExplainFormat::Text => {
            let mut out = text(matches, &findings);
            let ours = &explainer.trace().base_string;
            match theirs {
                Some(theirs) if theirs != ours => out.push_str(&diff(ours, theirs)),
                None if !matches => {
                    let shown = Shown::new(explainer.trace(), args.show_secrets);
                    out.push_str("\nour trace:\n");
                    out.push_str(&stages_text(&spec, explainer.trace(), &shown));
                    if let Ok(sent) = spec.sent(&explainer.trace().signed) {
                        out.push_str(&sent_text(
                            &sent.url,
                            sent.body.as_deref(),
                            &shown,
                            spec.transmission(),
                        ));
                    }
                }
                _ => {}
            }
            out
        }
    };
    // Whatever was sent in place of a signature may spell the secrets.
    let out = crate::output::without_secrets(out, &spec, args.show_secrets);
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

fn json(matches: bool, findings: &[&Finding]) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Out<'a> {
        #[serde(rename = "match")]
        matches: bool,
        causes: Vec<JsonCause<'a>>,
    }
    let causes = json_causes(findings);
    let text = serde_json::to_string_pretty(&Out { matches, causes })
        .map_err(|e| Failure::Io(e.to_string()))?;
    Ok(terminal_safe_json(&text))
}

/// JSON text with every control character escaped, and a final newline:
/// serde_json escapes U+0000..U+001F in strings, but leaves DEL and the C1
/// controls (U+0080..U+009F, which some terminals obey) raw. They can only
/// be in strings, where `\uXXXX` is the same JSON value.
pub(crate) fn terminal_safe_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1);
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
