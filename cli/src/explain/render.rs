//! What `explain` prints: each cause aligned (or JSON of them), the
//! provider's answer, and the two base strings diffed a part per line.

use std::fmt::Write as _;
use std::io::Write as _;

use anstyle::{AnsiColor, Style};
use oauth1_signer::capture::Answer;
use oauth1_signer::explain::{Clock, Explainer, Explanation, Finding};
use oauth1_signer::pipeline::base_string_lines;
use oauth1_signer::RequestSpec;
use serde::Serialize;
use similar::{ChangeTag, TextDiff};

use crate::capture::{answer_json, answer_text};
use crate::caret::printable;
use crate::json::terminal_json;
use crate::output::{sent_text, stages_text, Shown};
use crate::Failure;

use super::{ExplainArgs, ExplainFormat};

/// What `explain` prints: the contradictions first, then each cause (or
/// JSON of them), the answer, and the base strings diffed or our trace.
pub(super) fn render(
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
pub(super) fn finish(
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
