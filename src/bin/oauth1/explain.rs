//! `explain`: why the other side's signature differs. The request is given
//! exactly as to `sign`; the other side's base string, signature or header
//! is compared with ours by [`Explainer`], and each cause printed.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;

use anstyle::{AnsiColor, Style};
use clap::{Args, ValueEnum};
use oauth1_signer::{base_string_from_response, Explainer, Explanation, Finding};
use serde::Serialize;
use similar::{ChangeTag, TextDiff};

use crate::output::{stages_text, Shown};
use crate::sign::{build, library_error, RequestFlags};
use crate::Failure;

pub(crate) const EXPLAIN_HELP: &str = "\
The request is given exactly as to `oauth1 sign` (flags, environment, or --request FILE|-), with
the nonce and timestamp the other side saw. Give what you have from the other side: its base
string (--their-base-string, or --response-body with a saved 401 body that echoes it as
debug_sbs=... or \"signature base string: ...\"), its signature, or its whole Authorization header.

Exit status: 0 what they gave matches ours, 1 it does not, 2 bad input.

Examples:
  oauth1 explain --example --their-base-string @theirs.txt
  oauth1 explain --request req.json --their-signature 'hCtSmYh+iHYCEqBWrE7C7hYmtUk='
  oauth1 explain --request req.json --their-header \"$(cat header.txt)\" --format json";

#[derive(Args, Debug)]
pub(crate) struct ExplainArgs {
    /// The request, its credentials and its protocol parameters
    #[command(flatten)]
    request: RequestFlags,

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

fn read_file(what: &str, path: &std::path::Path) -> Result<String, Failure> {
    let bytes = std::fs::read(path).map_err(|e| {
        Failure::input(format!(
            "cannot read {what} file \"{}\": {e}",
            path.display()
        ))
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Explains; `Ok(true)` when what they gave matches ours.
pub(crate) fn explain(args: &ExplainArgs, given: &dyn Fn(&str) -> bool) -> Result<(), Failure> {
    let (spec, signer) = build(&args.request, given)?;
    let explainer =
        Explainer::new(&signer, &spec.request()).map_err(|e| library_error(&e, &spec))?;
    let mut base = match args.their_base_string.as_deref() {
        Some(text) => match text.strip_prefix('@') {
            Some(path) => Some(
                read_file("--their-base-string", path.as_ref())?
                    .trim()
                    .to_owned(),
            ),
            None => Some(text.trim().to_owned()),
        },
        None => None,
    };
    if let Some(path) = &args.response_body {
        let body = read_file("--response-body", path)?;
        let found = base_string_from_response(&body).ok_or_else(|| {
            Failure::input(format!(
                "no signature base string found in --response-body \"{}\" (looked for debug_sbs=... \
                 and text that starts like METHOD&http...)",
                path.display()
            ))
        })?;
        base.get_or_insert(found);
    }
    // An empty signature is a copying mistake, not a signature to search for.
    if args
        .their_signature
        .as_deref()
        .is_some_and(|s| s.trim().is_empty())
    {
        return Err(Failure::input("--their-signature is empty"));
    }
    if base.is_none() && args.their_signature.is_none() && args.their_header.is_none() {
        return Err(Failure::input(
            "nothing to compare: give --their-base-string, --their-signature, --their-header \
             or --response-body",
        ));
    }
    let mut parts: Vec<Explanation> = Vec::new();
    if let Some(header) = &args.their_header {
        parts.push(
            explainer
                .header(header)
                .map_err(|e| Failure::input(format!("--their-header: {e}")))?,
        );
    }
    match (&base, &args.their_signature) {
        (Some(b), Some(s)) => parts.push(explainer.base_string_and_signature(b, s)),
        (Some(b), None) => parts.push(explainer.base_string(b)),
        (None, Some(s)) => parts.push(explainer.signature(s)),
        (None, None) => {}
    }
    let matches = parts.iter().all(|p| p.matches);
    let mut findings: Vec<&Finding> = Vec::new();
    for f in parts.iter().flat_map(|p| &p.findings) {
        if !findings.contains(&f) {
            findings.push(f);
        }
    }
    let theirs = parts.iter().find_map(|p| p.their_base_string.as_deref());
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
                }
                _ => {}
            }
            out
        }
    };
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

#[derive(Serialize)]
struct JsonCause<'a> {
    code: &'static str,
    component: String,
    ours: &'a str,
    theirs: &'a str,
    detail: &'a str,
}

fn json(matches: bool, findings: &[&Finding]) -> Result<String, Failure> {
    #[derive(Serialize)]
    struct Out<'a> {
        #[serde(rename = "match")]
        matches: bool,
        causes: Vec<JsonCause<'a>>,
    }
    let causes = findings
        .iter()
        .map(|f| JsonCause {
            code: f.cause.as_str(),
            component: f.component.to_string(),
            ours: &f.ours,
            theirs: &f.theirs,
            detail: &f.detail,
        })
        .collect();
    let mut text = serde_json::to_string_pretty(&Out { matches, causes })
        .map_err(|e| Failure::Io(e.to_string()))?;
    text.push('\n');
    Ok(text)
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
    for f in findings {
        let _ = writeln!(
            out,
            "\n  {YELLOW}{:<width$}{YELLOW:#}  {BOLD}{}{BOLD:#}\n  {:<width$}  {}",
            f.cause.as_str(),
            f.component,
            "",
            f.detail
        );
        if !f.ours.is_empty() {
            let _ = writeln!(out, "  {:<width$}  ours:   {}", "", f.ours);
        }
        if !f.theirs.is_empty() {
            let _ = writeln!(out, "  {:<width$}  theirs: {}", "", f.theirs);
        }
    }
    out
}

/// A base string a line per part, as `sign --format trace` breaks it.
fn lines(base: &str) -> String {
    let mut out = String::new();
    for (i, part) in base.splitn(3, '&').enumerate() {
        let amp = if i == 0 { "" } else { "&" };
        if i < 2 {
            let _ = writeln!(out, "{amp}{part}");
            continue;
        }
        for (j, param) in part.split("%26").enumerate() {
            let sep = if j == 0 { amp } else { "%26" };
            let _ = writeln!(out, "{sep}{param}");
        }
    }
    out
}

/// The two base strings, diffed a part per line: `-` ours, `+` theirs.
fn diff(ours: &str, theirs: &str) -> String {
    let (a, b) = (lines(ours), lines(theirs));
    let mut out = String::from("\nbase strings (- ours, + theirs; a line per '&' and '%26'):\n");
    for change in TextDiff::from_lines(&a, &b).iter_all_changes() {
        let line = change.value().trim_end_matches('\n');
        let _ = match change.tag() {
            ChangeTag::Delete => writeln!(out, "{RED}- {line}{RED:#}"),
            ChangeTag::Insert => writeln!(out, "{GREEN}+ {line}{GREEN:#}"),
            ChangeTag::Equal => writeln!(out, "  {line}"),
        };
    }
    out
}
