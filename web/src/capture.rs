//! The Explain panel's captured request: a curl command, a raw HTTP/1.1
//! request or a HAR file, read by the library's `capture` wing, put in
//! place of the Sign panel's method, URL and body, its `Authorization`
//! header (or its `oauth_*` parameters) as their side; and the provider's
//! answer a HAR entry holds, read by [`read_answer`]. As `oauth1 explain
//! --curl/--http/--har` reads them (cli/src/capture.rs): nothing here
//! parses, it only moves what the library read into the page's fields.

use oauth1_signer::capture::{
    clock_offset, parse_har, parse_http, read_answer, AnswerKind, Captured, Curl, Shell,
};
use oauth1_signer::{Error, Name, Part, Protocol, Transmission};
use serde::Serialize;

use crate::render::Spot;
use crate::sign::{FieldError, Fields};

/// The longest capture read: a HAR file of a whole page load with its
/// response bodies runs to megabytes; the CLI's limit.
const MAX_CAPTURE: usize = 256 << 20;

/// How the capture was read, for the page.
#[derive(Clone, Debug, Default, Serialize)]
pub struct CaptureRead {
    /// The kind read: `curl`, `http` or `har`.
    pub kind: &'static str,
    /// For a curl command, the shell it was read as (`bash`, `cmd`).
    pub shell: Option<&'static str>,
    /// For a HAR file, its entries that carry OAuth 1.0a.
    pub entries: Vec<EntryShown>,
    /// For a HAR file, how many entries it has.
    pub entry_count: usize,
    /// For a HAR file, the entry read (counted from 0 in the file's order).
    pub entry: Option<usize>,
    /// The request's method, as sent.
    pub method: String,
    /// The request's URL, as sent.
    pub url: String,
    /// Where its protocol parameters were: `header`, `query`, `form-body`.
    pub transmission: Option<&'static str>,
    /// Which of its protocol parameters were taken as ours (the nonce, the
    /// timestamp, ... not pinned in the Sign panel).
    pub taken: Vec<&'static str>,
    /// What a reader should know of how it was read (`fragment-dropped`...).
    pub warnings: Vec<WarningShown>,
    /// The provider's answer, when the capture holds one (a HAR entry's).
    pub answer: Option<AnswerShown>,
}

/// One HAR entry that carries OAuth 1.0a, for the entry select.
#[derive(Clone, Debug, Serialize)]
pub struct EntryShown {
    /// Its number, from 0 in the file's order.
    pub n: usize,
    /// Its method and URL, as recorded.
    pub method: String,
    /// Its URL.
    pub url: String,
}

/// A capture warning: its stable code, the library's sentence, and what
/// the page says of it.
#[derive(Clone, Debug, Serialize)]
pub struct WarningShown {
    /// `fragment-dropped`, `scheme-assumed`, ...
    pub code: &'static str,
    /// The library's sentence (English; names quoted and escaped).
    pub message: String,
    /// The same, by the page's code and the values it quotes
    /// ([`say::capture_warning`](crate::say::capture_warning)).
    pub said: crate::render::Hint,
}

/// The provider's answer, read.
#[derive(Clone, Debug, Serialize)]
pub struct AnswerShown {
    /// The HTTP status.
    pub status: Option<u16>,
    /// Each error it names.
    pub errors: Vec<ProviderErrorShown>,
    /// Whether an error is about the timestamp (X's 135,
    /// `timestamp_refused`).
    pub about_time: bool,
    /// `oauth_timestamp` less the server's time (its `Date`), in seconds.
    pub clock_offset: Option<i64>,
    /// The request's `oauth_timestamp` the offset is of.
    pub timestamp: Option<u64>,
}

/// One error of the answer, as [`read_answer`] reads it.
#[derive(Clone, Debug, Serialize)]
pub struct ProviderErrorShown {
    /// `x-code`, `x-problem` or `oauth-problem`.
    pub kind: &'static str,
    /// X's number, the problem's type or the `oauth_problem` value.
    pub code: String,
    /// The v2 problem's type when it has one to say
    /// ([`ProviderError::problem_type`](oauth1_signer::capture::ProviderError::problem_type): `about:blank` is none), else null.
    pub problem_type: Option<String>,
    /// What the provider said.
    pub message: String,
    /// The library's stable key for the meaning and check (`x-135`,
    /// `problem-nonce_used`, `x-unknown`): the page words them by it.
    pub key: &'static str,
    /// What it means for an OAuth 1.0a request (the library's, English).
    pub meaning: &'static str,
    /// What to check (the library's, English).
    pub check: &'static str,
    /// The library's one line for it (`X error 135 "...": ...`).
    pub line: String,
}

/// Their side, as the capture gives it.
#[derive(Debug)]
pub enum TheirSide {
    /// The `Authorization: OAuth` header.
    Header(String),
    /// Their protocol parameters, from the query or the form body.
    Params(Protocol<'static>),
}

/// A capture read into the page's fields: the request in `fields`, their
/// side, and what to show of how it was read.
#[derive(Debug)]
pub struct Read {
    /// Their header or parameters.
    pub theirs: TheirSide,
    /// What the page shows.
    pub shown: CaptureRead,
}

/// A capture refused: the error in the capture field, and what was read
/// before it (a HAR file's entries, for the select).
#[derive(Debug)]
pub struct Refused {
    /// The error, in the `capture` field.
    pub error: FieldError,
    /// What was read (the entries of a HAR file whose entry is not chosen).
    pub shown: Option<CaptureRead>,
}

/// Reads `text` as a capture of `kind` (`curl`, `http` with `scheme`, or
/// `har` with `entry`, empty: the only entry that carries OAuth) and puts
/// its request in `fields`: the method, URL, body and its type; the
/// nonce, timestamp, consumer key, token, callback and verifier from
/// their parameters where the Sign panel pins none.
///
/// # Errors
/// The library's refusal, said in the capture field.
pub fn read(
    kind: &str,
    text: &str,
    scheme: &str,
    entry: &str,
    fields: &mut Fields,
) -> Result<Read, Box<Refused>> {
    let refuse = |e: &Error| {
        Box::new(Refused {
            error: error_in_capture(e, text),
            shown: None,
        })
    };
    if text.len() > MAX_CAPTURE {
        return Err(Box::new(Refused {
            error: FieldError::page(
                "capture",
                format!("the capture is over the limit of {MAX_CAPTURE} bytes"),
                crate::render::Hint::new("err.capture-too-long", [MAX_CAPTURE.to_string()]),
            ),
            shown: None,
        }));
    }
    let mut shown = CaptureRead::default();
    let captured: Captured = match kind {
        "http" => {
            shown.kind = "http";
            let scheme = if scheme.is_empty() { "https" } else { scheme };
            parse_http(text.as_bytes(), scheme).map_err(|e| refuse(&e))?
        }
        "har" => {
            shown.kind = "har";
            let har = parse_har(text).map_err(|e| refuse(&e))?;
            shown.entry_count = har.entries().len();
            shown.entries = har
                .oauth_entries()
                .into_iter()
                .map(|n| EntryShown {
                    n,
                    method: har.entries()[n].method().to_owned(),
                    url: har.entries()[n].url().to_owned(),
                })
                .collect();
            let chosen = entry.trim().parse::<usize>().ok();
            match har.choose(chosen) {
                Ok(c) => {
                    shown.entry =
                        chosen.or_else(|| shown.entries.first().map(|e: &EntryShown| e.n));
                    c
                }
                Err(e) => {
                    return Err(Box::new(Refused {
                        error: error_in_capture(&e, text),
                        shown: Some(shown),
                    }))
                }
            }
        }
        _ => {
            shown.kind = "curl";
            let shell = Shell::Auto.resolve(text);
            shown.shell = Some(shell.as_str());
            Curl::new()
                .with_shell(shell)
                .parse(text)
                .map_err(|e| refuse(&e))?
        }
    };
    shown.method = captured.method().to_owned();
    shown.url = captured.url().to_owned();
    shown.warnings = captured
        .warnings()
        .iter()
        .map(|w| WarningShown {
            code: w.code(),
            message: w.to_string(),
            said: crate::say::capture_warning(w),
        })
        .collect();
    let theirs = fill(fields, &captured).map_err(|e| {
        Box::new(Refused {
            error: *e,
            shown: None,
        })
    })?;
    let protocol = match &theirs {
        TheirSide::Header(h) => Protocol::from_header(h).ok().map(Protocol::into_owned),
        TheirSide::Params(p) => Some(p.clone()),
    };
    shown.transmission = Some(match &theirs {
        TheirSide::Header(_) => "header",
        TheirSide::Params(_) => match fields.transmission.as_str() {
            "query" => "query",
            _ => "form-body",
        },
    });
    if let Some(p) = &protocol {
        shown.taken = take_theirs(fields, p);
    }
    if let Some(response) = captured.response() {
        let answer = read_answer(
            Some(response.status).filter(|&s| s != 0),
            response.body.as_deref().unwrap_or_default(),
        );
        if !answer.is_empty() {
            let timestamp = protocol
                .as_ref()
                .and_then(|p| p.get(Name::Timestamp)?.parse::<u64>().ok());
            let clock = match (timestamp, response.header("date")) {
                (Some(ts), Some(date)) if answer.is_about_time() => clock_offset(ts, date).ok(),
                _ => None,
            };
            shown.answer = Some(AnswerShown {
                status: answer.status,
                about_time: answer.is_about_time(),
                clock_offset: clock,
                timestamp,
                errors: answer
                    .errors
                    .iter()
                    .map(|e| ProviderErrorShown {
                        kind: match e.kind {
                            AnswerKind::XCode => "x-code",
                            AnswerKind::XProblem => "x-problem",
                            _ => "oauth-problem",
                        },
                        code: e.code.clone(),
                        problem_type: e.problem_type().map(str::to_owned),
                        message: e.message.clone(),
                        key: e.key,
                        meaning: e.meaning,
                        check: e.check,
                        line: e.to_string(),
                    })
                    .collect(),
            });
        }
    }
    Ok(Read { theirs, shown })
}

/// The library's error about the capture `text`, marked on its line (a
/// HAR file runs to megabytes: the page shows the line, not the file).
fn error_in_capture(e: &Error, text: &str) -> FieldError {
    let said = crate::say::error(e, text);
    let spot = match e.offset() {
        Some((_, at)) => {
            let at = at.min(text.len());
            let start = text[..at].rfind('\n').map_or(0, |k| k + 1);
            let end = text[at..].find('\n').map_or(text.len(), |k| at + k);
            let mut spot = Spot::at(e.to_string(), &text[start..end], at - start, e.span_len());
            spot.offset = Some(at);
            spot
        }
        None => Spot::message(e.to_string()),
    };
    FieldError {
        field: Some("capture"),
        spot: spot.said(said),
    }
}

/// Puts the captured request in `fields` (as the CLI's `fill_spec`), and
/// says where their protocol parameters are; with them in the query or the
/// form body, they are taken out of it (the client signed the request
/// without them).
fn fill(fields: &mut Fields, captured: &Captured) -> Result<TheirSide, Box<FieldError>> {
    fields.method = captured.method().to_owned();
    fields.url = captured.url().to_owned();
    let form = captured.is_form().map_err(|e| {
        Box::new(error_in_capture(
            &e,
            captured.content_type().unwrap_or_default(),
        ))
    })?;
    fields.body.clear();
    fields.content_type.clear();
    fields.body_type = "form".to_owned();
    // The page's body field holds text: a body that is not UTF-8 cannot be
    // carried as sent, and is refused rather than changed (its parameters,
    // or its `oauth_body_hash`, would be of other bytes).
    let text = match captured.body().map(std::str::from_utf8) {
        Some(Err(e)) => {
            let at = e.valid_up_to();
            return Err(Box::new(FieldError::page(
                "capture",
                format!(
                    "the captured body is not UTF-8 text (invalid byte at offset {at}): the \
                     page cannot carry it as sent; `oauth1 explain` reads it from a file"
                ),
                crate::render::Hint::new("err.capture-body-not-utf8", [at.to_string()]),
            )));
        }
        Some(Ok(text)) => Some(text),
        None => None,
    };
    match (text, form) {
        (Some(body), true) => {
            body.clone_into(&mut fields.body);
        }
        (Some(body), false) => {
            body.clone_into(&mut fields.body);
            let media = captured
                .content_type()
                .unwrap_or("application/octet-stream");
            fields.body_type = "bytes".to_owned();
            fields.content_type = media.to_owned();
        }
        (None, _) => {}
    }
    // Read by the library as a verifier reads a received request; an error
    // is shown on the text it is in.
    let carried = captured.oauth().map_err(|e| {
        let text = match e.offset().map(|(part, _)| part) {
            Some(Part::Header) => captured.oauth_header().unwrap_or_default(),
            Some(Part::Url) => captured.url(),
            Some(Part::FormBody) => text.unwrap_or_default(),
            _ => "",
        };
        Box::new(error_in_capture(&e, text))
    })?;
    let Some(carried) = carried else {
        return Err(Box::new(FieldError::page(
            "capture",
            "the captured request carries no OAuth 1.0a: no Authorization: OAuth header and no \
             oauth_* parameter in its query or form body",
            crate::render::Hint::new("err.capture-no-oauth", []),
        )));
    };
    let transmission = carried.protocol().transmission();
    if transmission == Transmission::Header {
        fields.transmission = "header".to_owned();
        let header = captured.oauth_header().unwrap_or_default();
        return Ok(TheirSide::Header(header.to_owned()));
    }
    fields.transmission = match transmission {
        Transmission::Query => "query",
        _ => "form-body",
    }
    .to_owned();
    carried.url().clone_into(&mut fields.url);
    if let Some(body) = carried.form_body() {
        // A part of the UTF-8 text read above, cut at `&`s.
        fields.body = String::from_utf8_lossy(body).into_owned();
    }
    Ok(TheirSide::Params(carried.into_protocol()))
}

/// Their values that are ours unless the Sign panel pins them: the nonce
/// and timestamp (a signer's own), the consumer key and token (theirs to
/// name; the secrets are typed), the callback and verifier. Says which.
fn take_theirs(fields: &mut Fields, theirs: &Protocol<'_>) -> Vec<&'static str> {
    let mut taken = Vec::new();
    let mut take = |field: &mut String, name: Name| {
        if field.trim().is_empty() {
            if let Some(value) = theirs.get(name) {
                value.clone_into(field);
                taken.push(name.as_str());
            }
        }
    };
    take(&mut fields.nonce, Name::Nonce);
    take(&mut fields.timestamp, Name::Timestamp);
    take(&mut fields.consumer_key, Name::ConsumerKey);
    take(&mut fields.token, Name::Token);
    take(&mut fields.callback, Name::Callback);
    take(&mut fields.verifier, Name::Verifier);
    taken
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cases() -> Vec<serde_json::Value> {
        let all: serde_json::Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/captures/generators.json"
        )))
        .unwrap();
        all["cases"].as_array().unwrap().clone()
    }

    /// Each fixture, explained with its credentials: the mistake it holds
    /// named, or a match for a valid one (oauthlib signed them).
    #[test]
    fn each_fixture_is_explained_as_oauthlib_signed_it() {
        for case in cases() {
            let id = case["id"].as_str().unwrap();
            if case["expect_warning"].is_string() {
                continue;
            }
            let c = &case["credentials"];
            let mut evidence = serde_json::json!({
                "consumer_secret": c["consumer_secret"],
                "token_secret": c["token_secret"],
                "signature_method": "HMAC-SHA1",
                "capture": case["text"],
                "capture_kind": case["format"],
                "capture_scheme": case["scheme"].as_str().unwrap_or("https"),
                "capture_entry": case["entry"].as_u64().map(|n| n.to_string()).unwrap_or_default(),
            });
            if let Some(now) = case["now"].as_u64() {
                evidence["now"] = now.to_string().into();
            }
            let x = crate::explain::explain_json(&evidence.to_string());
            assert!(x.error.is_none(), "{id}: {:?}", x.error);
            let codes: Vec<&str> = x.causes.iter().map(|c| c.code).collect();
            match case["mistake"].as_str() {
                // The clock's mistake is not the signature's: it verifies.
                None | Some("clock") => assert!(x.matches, "{id}: {codes:?}"),
                Some(m) => assert!(codes.contains(&m), "{id}: {m} not in {codes:?}"),
            }
        }
    }

    /// A protocol name escaped in the query (`oauth%5Fnonce`) is the name,
    /// as RFC 5849 §3.4.1.3.1 decodes it: oauthlib's signature of
    /// `http-absolute-form-query` still matches, and the URL the page signs
    /// holds only `size=original`.
    #[test]
    fn an_escaped_protocol_name_is_read_as_the_name() {
        let case = cases()
            .into_iter()
            .find(|c| c["id"] == "http-absolute-form-query")
            .unwrap();
        let text = case["text"]
            .as_str()
            .unwrap()
            .replacen("&oauth_nonce=", "&oauth%5Fnonce=", 1);
        let mut fields = Fields::default();
        let r = read("http", &text, "http", "", &mut fields).ok().unwrap();
        assert!(matches!(r.theirs, TheirSide::Params(_)));
        assert_eq!(fields.url, "http://api.example.com/photos?size=original");
        assert_eq!(fields.transmission, "query");
        assert_eq!(fields.nonce, "cXVlcnkgdHJhbnNtaXNzaW9u");
    }

    #[test]
    fn a_timestamp_answer_is_read_with_the_clock() {
        let case = cases()
            .into_iter()
            .find(|c| c["id"] == "firefox-har-timestamp-out-of-bounds")
            .unwrap();
        let mut fields = Fields::default();
        let entry = case["entry"].as_u64().unwrap().to_string();
        let r = read(
            "har",
            case["text"].as_str().unwrap(),
            "",
            &entry,
            &mut fields,
        )
        .ok()
        .unwrap();
        let answer = r.shown.answer.unwrap();
        assert!(answer.about_time);
        assert_eq!(answer.errors[0].code, "135");
        assert!(answer.clock_offset.is_some());
    }

    /// A HAR file's entry: not chosen among several (the entries listed for
    /// the select), or one it does not have; each said by the page's code.
    #[test]
    fn a_har_entry_not_chosen_or_missing_is_said() {
        let case = cases()
            .into_iter()
            .find(|c| c["id"] == "firefox-har-timestamp-out-of-bounds")
            .unwrap();
        let text = case["text"].as_str().unwrap();
        let Err(r) = read("har", text, "", "", &mut Fields::default()) else {
            panic!("two entries carry OAuth")
        };
        assert_eq!(
            r.error.spot.said.as_ref().map(|h| h.code),
            Some("err.entry-not-chosen")
        );
        let listed: Vec<usize> = r.shown.unwrap().entries.iter().map(|e| e.n).collect();
        assert!(listed.contains(&1) && listed.len() >= 2, "{listed:?}");
        let Err(r) = read("har", text, "", "99", &mut Fields::default()) else {
            panic!("no entry 99")
        };
        assert_eq!(
            r.error.spot.said.as_ref().map(|h| h.code),
            Some("err.no-such-entry")
        );
    }

    #[test]
    fn a_refusal_is_marked_in_the_capture() {
        let mut fields = Fields::default();
        let text = "POST /x HTTP/1.1\r\nHost: h\r\nAuthorization: OAuth a=\"1\"\r\nAuthorization: OAuth b=\"2\"\r\n\r\n";
        let Err(r) = read("http", text, "https", "", &mut fields) else {
            panic!("read")
        };
        let said = r.error.spot.said.clone().unwrap();
        assert_eq!(said.code, "err.capture-ambiguous");
        assert_eq!(r.error.field, Some("capture"));
        assert!(r.error.spot.at.starts_with('A'), "{:?}", r.error.spot);
    }

    #[test]
    fn a_body_that_is_not_utf8_is_refused_not_changed() {
        // bash's $'\xff' is the byte 0xFF: `a=` then one byte that is no
        // UTF-8, at offset 2 of the body curl sends.
        let mut fields = Fields::default();
        let text = "curl https://h/x -H 'Authorization: OAuth oauth_consumer_key=\"k\"' --data-binary $'a=\\xff'";
        let Err(r) = read("curl", text, "https", "", &mut fields) else {
            panic!("read")
        };
        let said = r.error.spot.said.clone().unwrap();
        assert_eq!(said.code, "err.capture-body-not-utf8");
        assert!(
            matches!(&said.args[..], [crate::render::Arg::Data(at)] if at == "2"),
            "{:?}",
            said.args
        );
        assert!(fields.body.is_empty(), "{:?}", fields.body);
    }
}
