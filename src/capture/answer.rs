//! A provider's error answer, read: X's error codes (the v1.1 body
//! `{"errors":[{"code":32,"message":"..."}]}`), X API v2's problem objects
//! (`{"title","type","status","detail"}`), and the `oauth_problem` of
//! OAuth Problem Reporting, which other providers send; each with what it
//! means for an OAuth 1.0a request and what to check.
//!
//! The codes and their wording are X's ("Response codes and errors",
//! <https://developer.x.com/en/support/x-api/error-troubleshooting>, and
//! the callback URL guide for 415); the problems are those of
//! <https://wiki.oauth.net/w/page/12238543/ProblemReporting>.

use std::fmt;

use serde_json::Value;

use crate::error::Error;
use crate::text::escape_controls;

use super::date::parse_http_date;

/// Which kind of error answer a [`ProviderError`] was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnswerKind {
    /// X's error code (`{"errors":[{"code":..}]}`).
    XCode,
    /// An X API v2 problem object (`{"type","title","detail","status"}`).
    XProblem,
    /// OAuth Problem Reporting's `oauth_problem=...`.
    OAuthProblem,
}

/// One error a provider's answer names.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProviderError {
    /// What kind of answer it was read from.
    pub kind: AnswerKind,
    /// Its code: X's number (`"32"`), a v2 problem's type
    /// (`"about:blank"`, `"https://api.twitter.com/2/problems/..."`), or
    /// the `oauth_problem` value (`"timestamp_refused"`).
    pub code: String,
    /// What the provider said (its message, title and detail, or advice),
    /// control characters escaped.
    pub message: String,
    /// A stable key for what the error means, the same for every answer of
    /// that meaning: `x-32` ... `x-416` for X's codes, `x-problem-unauthorized`,
    /// `x-problem-unsupported-authentication`, `x-problem-client-forbidden`,
    /// `x-problem-usage-capped` for X API v2's problems, `problem-` and the
    /// problem (`problem-nonce_used`) for Problem Reporting's, and
    /// `x-unknown`, `x-problem-unknown`, `problem-unknown` for one not known
    /// here. [`meaning`](Self::meaning) and [`check`](Self::check) are its
    /// English; a reader that words them in another language keys its
    /// sentences by it (the page does).
    pub key: &'static str,
    /// What it means for an OAuth 1.0a request (empty for a code not known
    /// here).
    pub meaning: &'static str,
    /// What to check (empty for a code not known here).
    pub check: &'static str,
    /// The other parameters of a Problem Reporting answer
    /// (`oauth_acceptable_timestamps`, `oauth_parameters_absent`...), as
    /// sent.
    pub details: Vec<(String, String)>,
}

/// What a provider's answer says: its status and each error it names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Answer {
    /// The HTTP status, when known.
    pub status: Option<u16>,
    /// Each error named, in the answer's order.
    pub errors: Vec<ProviderError>,
}

impl Answer {
    /// Whether the answer names no error this reader knows how to read.
    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// The timestamps a Problem Reporting answer says it accepts
    /// (`oauth_acceptable_timestamps=FIRST-LAST`).
    pub fn acceptable_timestamps(&self) -> Option<(u64, u64)> {
        self.errors
            .iter()
            .flat_map(|e| &e.details)
            .find(|(n, _)| n == "oauth_acceptable_timestamps")
            .and_then(|(_, v)| {
                let (a, b) = v.split_once('-')?;
                Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
            })
    }

    /// Whether any error is about the timestamp (X's 135, `timestamp_refused`).
    pub fn is_about_time(&self) -> bool {
        self.time_error().is_some()
    }

    /// The first error about the timestamp: X's code 135 ("Timestamp out
    /// of bounds"), or Problem Reporting's `timestamp_refused`.
    pub fn time_error(&self) -> Option<&ProviderError> {
        self.errors
            .iter()
            .find(|e| e.code == "135" || e.code == "timestamp_refused")
    }
}

impl ProviderError {
    /// An X API v2 problem's type, when it has one to say: `None` for
    /// `about:blank`, which is a problem type's absence (RFC 9457 §4.2.1:
    /// no meaning beyond the HTTP status; §3.1.1: the type of a problem
    /// that names none), so the title and detail say what it is; and
    /// `None` for an answer that is not a v2 problem.
    pub fn problem_type(&self) -> Option<&str> {
        (self.kind == AnswerKind::XProblem && self.code != "about:blank")
            .then_some(self.code.as_str())
    }
}

impl fmt::Display for ProviderError {
    /// `X error 32 "Could not authenticate you.": meaning; check`; a v2
    /// problem without a type, `X problem "Unauthorized": ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.kind, self.problem_type()) {
            (AnswerKind::XCode, _) => write!(f, "X error {}", self.code)?,
            (AnswerKind::XProblem, Some(kind)) => write!(f, "X problem {kind}")?,
            (AnswerKind::XProblem, None) => f.write_str("X problem")?,
            (_, _) => write!(f, "oauth_problem={}", self.code)?,
        }
        if !self.message.is_empty() {
            write!(f, " \"{}\"", self.message)?;
        }
        if !self.meaning.is_empty() {
            write!(f, ": {}", self.meaning)?;
        }
        if !self.check.is_empty() {
            write!(f, " Check: {}", self.check)?;
        }
        Ok(())
    }
}

/// X's error codes that concern OAuth 1.0a: the code, its key, what it
/// means, what to check.
const X_CODES: [(u64, &str, &str, &str); 6] = [
    (
        32,
        "x-32",
        "X could not authenticate the request: with OAuth 1.0a, the signature it computed \
         differs from the one sent (or a key, token or secret is not the one X holds).",
        "the signature: compare the request as signed with the request as sent (oauth1 explain \
         names the mistake), and both secrets.",
    ),
    (
        89,
        "x-89",
        "The token (oauth_token) is invalid or expired: X does not hold it for this consumer key \
         (revoked, regenerated, or another app's).",
        "use the access token and its secret as generated now for this app and user; \
         regenerating them voids the old pair.",
    ),
    (
        135,
        "x-135",
        "The timestamp is out of bounds: oauth_timestamp is too far from X's clock.",
        "the client's clock (set it by NTP); oauth_timestamp is seconds since 1970 UTC, not \
         milliseconds nor local time.",
    ),
    (
        215,
        "x-215",
        "Bad authentication data: X found no authentication it could read (no Authorization \
         header, not OAuth, or a protocol parameter missing or not parsed).",
        "that the request sends Authorization: OAuth with oauth_consumer_key, oauth_nonce, \
         oauth_signature, oauth_signature_method, oauth_timestamp and oauth_token, each \
         name=\"value\", separated by commas.",
    ),
    (
        415,
        "x-415",
        "The callback URL is not approved for this app: oauth_callback on the request-token \
         call is not one of the app's callback URLs.",
        "the app's callback URLs in the developer portal (the exact URL), or send \
         oauth_callback=oob for a PIN.",
    ),
    (
        416,
        "x-416",
        "The app is invalid or suspended: its consumer key cannot authenticate.",
        "the app's state in the developer portal.",
    ),
];

/// OAuth Problem Reporting's problems: the value, its key, what it means,
/// what to check.
const PROBLEMS: [(&str, &str, &str, &str); 18] = [
    ("version_rejected", "problem-version_rejected", "The oauth_version is not one the provider accepts.", "send oauth_version=\"1.0\" or none (oauth_acceptable_versions says which)."),
    ("parameter_absent", "problem-parameter_absent", "A required parameter was not sent.", "the parameters oauth_parameters_absent names."),
    ("parameter_rejected", "problem-parameter_rejected", "A parameter was refused (unexpected, or sent twice).", "the parameters oauth_parameters_rejected names."),
    ("timestamp_refused", "problem-timestamp_refused", "oauth_timestamp is outside the window the provider accepts.", "the client's clock; oauth_acceptable_timestamps says the window."),
    ("nonce_used", "problem-nonce_used", "oauth_nonce was used before with this consumer, token and timestamp (a replay).", "that every request makes a fresh nonce, a retry too."),
    ("signature_method_rejected", "problem-signature_method_rejected", "oauth_signature_method is not one the provider accepts.", "the method (oauth_acceptable_signature_methods, if sent, says which)."),
    ("signature_invalid", "problem-signature_invalid", "The signature does not match the request as the provider received it.", "the signature: compare the request as signed with the request as sent (oauth1 explain names the mistake), and both secrets."),
    ("consumer_key_unknown", "problem-consumer_key_unknown", "The provider does not know the consumer key.", "the consumer (API) key."),
    ("consumer_key_rejected", "problem-consumer_key_rejected", "The consumer key is known and permanently refused.", "the app's state with the provider."),
    ("consumer_key_refused", "problem-consumer_key_refused", "The consumer key is temporarily refused (throttled).", "the rate at which the app sends."),
    ("token_used", "problem-token_used", "The token was already used (a one-time token).", "the flow: a request token serves one access-token call."),
    ("token_expired", "problem-token_expired", "The token has expired.", "renew or obtain the token again."),
    ("token_revoked", "problem-token_revoked", "The token was revoked.", "obtain a new token (authorise again)."),
    ("token_rejected", "problem-token_rejected", "The token is not valid (unknown, or not this consumer's).", "the token and that it belongs to this consumer key."),
    ("additional_authorization_required", "problem-additional_authorization_required", "The token lacks an authorisation the request needs.", "the scope the user granted."),
    ("permission_unknown", "problem-permission_unknown", "The user has not yet decided whether to grant access.", "that the user completes the authorisation step."),
    ("permission_denied", "problem-permission_denied", "The user refused access.", "nothing on the client's side: ask the user again."),
    ("user_refused", "problem-user_refused", "The user refused access.", "nothing on the client's side: ask the user again."),
];

fn escaped(text: &str) -> String {
    let text = escape_controls(text.as_bytes(), &[]);
    match text.char_indices().nth(500) {
        None => text,
        Some((end, _)) => format!("{}...", &text[..end]),
    }
}

/// Reads a provider's error answer: X's v1.1 error codes, its v2 problem
/// object, or OAuth Problem Reporting's `oauth_problem` (form-encoded, or
/// anywhere in the text).
///
/// ```
/// use oauth1_signer::capture::{read_answer, AnswerKind};
///
/// let a = read_answer(Some(401), br#"{"errors":[{"code":135,"message":"Timestamp out of bounds."}]}"#);
/// assert_eq!(a.errors[0].kind, AnswerKind::XCode);
/// assert_eq!(a.errors[0].code, "135");
/// assert!(a.errors[0].meaning.contains("oauth_timestamp"));
/// assert!(a.is_about_time());
///
/// let a = read_answer(Some(401), b"oauth_problem=timestamp_refused&oauth_acceptable_timestamps=1318622658-1318623258");
/// assert_eq!(a.errors[0].code, "timestamp_refused");
/// assert_eq!(a.acceptable_timestamps(), Some((1318622658, 1318623258)));
/// ```
pub fn read_answer(status: Option<u16>, body: &[u8]) -> Answer {
    let mut answer = Answer {
        status,
        errors: Vec::new(),
    };
    let text = String::from_utf8_lossy(body);
    if let Ok(json) = serde_json::from_str::<Value>(text.trim()) {
        x_errors(&json, &mut answer.errors);
    }
    if answer.errors.is_empty()
        && let Some(problem) = oauth_problem(&text)
    {
        answer.errors.push(problem);
    }
    answer
}

/// X's errors in a JSON answer: each `errors[]` entry with a numeric
/// `code`, and a v2 problem object (`type` with `title` or `detail`).
fn x_errors(json: &Value, out: &mut Vec<ProviderError>) {
    let str_of = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
    if let Some(errors) = json.get("errors").and_then(Value::as_array) {
        for e in errors {
            let Some(code) = e.get("code").and_then(Value::as_u64) else {
                continue;
            };
            let known = X_CODES.iter().find(|(c, ..)| *c == code);
            out.push(ProviderError {
                kind: AnswerKind::XCode,
                code: code.to_string(),
                message: escaped(&str_of(e, "message").unwrap_or_default()),
                key: known.map_or("x-unknown", |k| k.1),
                meaning: known.map_or("an X error code not read here.", |k| k.2),
                check: known.map_or("", |k| k.3),
                details: Vec::new(),
            });
        }
    }
    let (Some(kind), true) = (
        str_of(json, "type"),
        json.get("title").is_some() || json.get("detail").is_some(),
    ) else {
        return;
    };
    let title = str_of(json, "title").unwrap_or_default();
    let detail = str_of(json, "detail").unwrap_or_default();
    let status = json.get("status").and_then(Value::as_u64);
    let message = match (title.is_empty(), detail.is_empty() || detail == title) {
        (false, false) => format!("{title}: {detail}"),
        (false, true) => title,
        (true, _) => detail,
    };
    let (key, meaning, check) = match (kind.rsplit('/').next().unwrap_or(&kind), status) {
        ("about:blank", Some(401)) | ("about:blank", None) => (
            "x-problem-unauthorized",
            "X did not authenticate the request; a v2 answer does not say why (as X's code 32 \
             for a signature that does not match, or 89 for a token).",
            "the signature (oauth1 explain), then the token and both secrets.",
        ),
        ("unsupported-authentication", _) => (
            "x-problem-unsupported-authentication",
            "The endpoint does not accept OAuth 1.0a user context.",
            "the authentication the endpoint's reference names (OAuth 2.0, say).",
        ),
        ("client-forbidden", _) => (
            "x-problem-client-forbidden",
            "The app may not use this endpoint (not attached to a project, or its access level).",
            "the app's project and access level in the developer portal; not the signature.",
        ),
        ("usage-capped", _) => (
            "x-problem-usage-capped",
            "The app's usage cap is reached.",
            "the project's usage; not the signature.",
        ),
        _ => ("x-problem-unknown", "an X problem type not read here.", ""),
    };
    out.push(ProviderError {
        kind: AnswerKind::XProblem,
        code: kind,
        message: escaped(&message),
        key,
        meaning,
        check,
        details: Vec::new(),
    });
}

/// OAuth Problem Reporting's `oauth_problem`, with the other `oauth_*`
/// parameters of its answer: form-encoded (`oauth_problem=nonce_used&...`),
/// or as a `WWW-Authenticate` header writes them (`oauth_problem="nonce_used", ...`).
fn oauth_problem(text: &str) -> Option<ProviderError> {
    let start = text.find("oauth_problem=")?;
    let rest = &text[start..];
    let quoted = rest["oauth_problem=".len()..].starts_with('"');
    let mut pairs: Vec<(String, String)> = Vec::new();
    if quoted {
        // name="value" pairs separated by commas, as a header writes them.
        let mut r = rest;
        while let Some((name, after)) = r.split_once("=\"") {
            let Some((value, after)) = after.split_once('"') else {
                break;
            };
            pairs.push((name.trim().to_owned(), value.to_owned()));
            match after.trim_start().strip_prefix(',') {
                Some(next) => r = next.trim_start(),
                None => break,
            }
        }
    } else {
        let end = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | ',' | '<'))
            .unwrap_or(rest.len());
        for pair in rest[..end].split('&') {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let value = crate::text::form_decode(value.as_bytes())
                .map(|d| String::from_utf8_lossy(d.as_bytes()).into_owned())
                .unwrap_or_else(|_| value.to_owned());
            pairs.push((name.to_owned(), value));
        }
    }
    let problem = pairs
        .first()
        .map(|(_, v)| v.clone())
        .filter(|p| !p.is_empty())?;
    let known = PROBLEMS.iter().find(|(p, ..)| *p == problem);
    let advice = pairs
        .iter()
        .find(|(n, _)| n == "oauth_problem_advice")
        .map(|(_, v)| escaped(v))
        .unwrap_or_default();
    Some(ProviderError {
        kind: AnswerKind::OAuthProblem,
        code: escaped(&problem),
        message: advice,
        key: known.map_or("problem-unknown", |k| k.1),
        meaning: known.map_or("a problem not read here.", |k| k.2),
        check: known.map_or("", |k| k.3),
        details: pairs
            .into_iter()
            .skip(1)
            .filter(|(n, _)| n != "oauth_problem_advice")
            .map(|(n, v)| (escaped(&n), escaped(&v)))
            .collect(),
    })
}

/// By how many seconds a client's clock is off: its request's
/// `oauth_timestamp` less the time of the answer's `Date` header. Positive
/// when the client's clock is ahead, negative when it is behind.
///
/// ```
/// use oauth1_signer::capture::clock_offset;
///
/// // Signed at 1318622958 (20:09:18 UTC); the server answered at 20:19:18.
/// assert_eq!(clock_offset(1318622958, "Fri, 14 Oct 2011 20:19:18 GMT")?, -600);
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
///
/// # Errors
/// A `Date` that is not an HTTP date ([`parse_http_date`]).
pub fn clock_offset(oauth_timestamp: u64, date: &str) -> Result<i64, Error> {
    let now = parse_http_date(date)?;
    let ts = i128::from(oauth_timestamp);
    let diff = ts - i128::from(now);
    Ok(i64::try_from(diff).unwrap_or(if diff < 0 { i64::MIN } else { i64::MAX }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn x_v1_codes_and_v2_problems() {
        // X's documented answers: "Could not authenticate you" (32) and
        // the callback guide's 415.
        let a = read_answer(
            Some(401),
            br#"{"errors":[{"message":"Could not authenticate you","code":32}]}"#,
        );
        assert_eq!(a.errors.len(), 1);
        assert_eq!(
            (a.errors[0].code.as_str(), a.errors[0].message.as_str()),
            ("32", "Could not authenticate you")
        );
        assert_eq!(a.errors[0].key, "x-32");
        let a = read_answer(
            Some(403),
            br#"{"errors":[{"code":415,"message":"Callback URL not approved for this client application. Approved callback URLs can be adjusted in your application settings."}]}"#,
        );
        assert!(a.errors[0].meaning.contains("callback"));
        let a = read_answer(
            Some(401),
            br#"{"title":"Unauthorized","type":"about:blank","status":401,"detail":"Unauthorized"}"#,
        );
        assert_eq!(a.errors[0].kind, AnswerKind::XProblem);
        assert_eq!(a.errors[0].message, "Unauthorized");
        assert!(a.errors[0].meaning.contains("did not authenticate"));
        assert_eq!(a.errors[0].key, "x-problem-unauthorized");
        // RFC 9457 §4.2.1: about:blank is no type; the title says what it is.
        assert_eq!(a.errors[0].problem_type(), None);
        let line = a.errors[0].to_string();
        assert!(line.starts_with("X problem \"Unauthorized\": "), "{line}");
        // What X API v2 answers an app-only token on a user-context endpoint.
        let typed = read_answer(
            Some(403),
            br#"{"title":"Unsupported Authentication","detail":"Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.","type":"https://api.twitter.com/2/problems/unsupported-authentication","status":403}"#,
        );
        assert_eq!(
            typed.errors[0].problem_type(),
            Some("https://api.twitter.com/2/problems/unsupported-authentication")
        );
        assert!(typed.errors[0]
            .to_string()
            .starts_with("X problem https://api.twitter.com/2/problems/unsupported-authentication \"Unsupported Authentication: "));
        let a = read_answer(Some(400), br#"{"errors":[{"code":9999,"message":"x"}]}"#);
        assert_eq!(a.errors[0].check, "");
        assert_eq!(a.errors[0].key, "x-unknown");
        assert!(read_answer(Some(500), b"<html>oops</html>").is_empty());
    }

    #[test]
    fn problem_reporting_anywhere_in_the_text() {
        let a = read_answer(
            None,
            b"oauth_problem=parameter_absent&oauth_parameters_absent=oauth_nonce%26oauth_timestamp",
        );
        assert_eq!(a.errors[0].code, "parameter_absent");
        assert_eq!(
            a.errors[0].details,
            [(
                "oauth_parameters_absent".to_owned(),
                "oauth_nonce&oauth_timestamp".to_owned()
            )]
        );
        let a = read_answer(
            None,
            b"OAuth realm=\"x\", oauth_problem=\"timestamp_refused\", oauth_acceptable_timestamps=\"1-2\"",
        );
        assert_eq!(a.errors[0].code, "timestamp_refused");
        assert_eq!(a.acceptable_timestamps(), Some((1, 2)));
        let a = read_answer(
            None,
            b"{\"error\": \"oauth_problem=signature_invalid&debug_sbs=GET\"}",
        );
        assert_eq!(a.errors[0].code, "signature_invalid");
        let a = read_answer(None, b"oauth_problem=\x1b[2Jx");
        assert_eq!(a.errors[0].code, "\\u{1b}[2Jx");
    }

    /// Each meaning has its own key, and one meaning one key: a reader that
    /// words the meanings by key says each as the library does.
    #[test]
    fn each_meaning_has_one_key() {
        let mut keys: Vec<(&str, &str)> = X_CODES.iter().map(|c| (c.1, c.2)).collect();
        keys.extend(PROBLEMS.iter().map(|p| (p.1, p.2)));
        for (key, meaning) in &keys {
            let same_key = keys.iter().filter(|(k, _)| k == key).count();
            assert_eq!(same_key, 1, "{key}");
            assert!(!meaning.is_empty(), "{key}");
        }
        assert_eq!(
            read_answer(None, b"oauth_problem=nonce_used").errors[0].key,
            "problem-nonce_used"
        );
        assert_eq!(
            read_answer(None, b"oauth_problem=no_such_problem").errors[0].key,
            "problem-unknown"
        );
    }

    #[test]
    fn the_clock_is_off_by_the_difference() {
        assert_eq!(
            clock_offset(1_318_622_958, "Fri, 14 Oct 2011 20:09:18 GMT").unwrap(),
            0
        );
        assert_eq!(
            clock_offset(1_318_623_958, "Fri, 14 Oct 2011 20:09:18 GMT").unwrap(),
            1000
        );
        assert!(clock_offset(1, "soon").is_err());
    }
}
