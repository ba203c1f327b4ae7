//! `explain` of a captured request (`--curl`, `--http`, `--har`): the
//! library's one call ([`CaptureExplainer`]), the flags that contradict the
//! capture said first, and what was taken from it noted.

use std::fmt::Write as _;

use oauth1_signer::explain::{CaptureExplainer, Contradiction};
use oauth1_signer::Part;

use crate::capture::Read;
use crate::caret::printable;
use crate::flags::Pins;
use crate::output::Shown;
use crate::Failure;

use super::render::{finish, render};
use super::{nothing_in_response, saved, several_noted, spec_of, their_base_string, ExplainArgs};

/// Explains a captured request with the library's one call
/// ([`CaptureExplainer`]): its own consumer key, token, method, realm,
/// nonce, timestamp and version, with the secrets given; a flag that
/// contradicts the capture is said first.
pub(super) fn explain_capture(
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
