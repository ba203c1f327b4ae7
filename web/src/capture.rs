//! The Explain panel's captured request: a curl command, a raw HTTP/1.1
//! request or a HAR file, read by the library's `capture` wing, and
//! explained by its one call, [`CaptureExplainer`], as `oauth1 explain
//! --curl/--http/--har` and `oauth1 serve` explain one: the capture's
//! request, consumer key, token, signature method, realm, nonce, timestamp
//! and version, signed with the Sign panel's secrets; a value the Sign
//! panel pins that the capture contradicts said first; the provider's
//! answer a HAR entry holds read beside, with the client's clock. Nothing
//! here parses or decides: it says which of the Sign panel's fields pin
//! (its filled ones, except the signature-method select: docs/web.md), and
//! shapes what the library found for the page.

use oauth1_signer::capture::{parse_har, parse_http, AnswerKind, Captured, Curl, Shell};
use oauth1_signer::explain::{CaptureExplainer, CaptureExplanation, Contradiction};
use oauth1_signer::{Error, ErrorKind, Name, Part, RequestSpec, SignatureMethod};
use serde::Serialize;

use crate::render::Spot;
use crate::sign::{spec_of, FieldError, Fields};

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
    /// Which of its protocol parameters were taken as ours, those the Sign
    /// panel does not pin (the library's [`CaptureExplanation::taken`]:
    /// `oauth_consumer_key`, ..., `realm`, `oauth_version`, in that order).
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
    /// `oauth_timestamp` less the server's time (its `Date`), in seconds:
    /// the library's [`Clock`](oauth1_signer::explain::Clock) when it is
    /// read from the answer's `Date`.
    pub clock_offset: Option<i64>,
    /// The request's `oauth_timestamp` the offset is of.
    pub timestamp: Option<u64>,
}

/// One error of the answer, as [`read_answer`](oauth1_signer::capture::read_answer) reads it.
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

/// A value the Sign panel pins that the capture contradicts (the library's
/// [`Contradiction`]): said first, never as a cause; the capture's value is
/// the one signed.
#[derive(Clone, Debug, Serialize)]
pub struct ContradictionShown {
    /// The protocol parameter (`oauth_consumer_key`, ..., `realm`).
    pub name: &'static str,
    /// The Sign panel's field that pins it (`consumer_key`, `token`,
    /// `nonce`, `timestamp`, `callback`, `verifier`, `realm`), if one.
    pub field: Option<&'static str>,
    /// The value pinned.
    pub pinned: Option<String>,
    /// The capture's value; `None` when it sends none.
    pub captured: Option<String>,
    /// The library's sentence (English).
    pub message: String,
}

impl From<&Contradiction> for ContradictionShown {
    fn from(c: &Contradiction) -> Self {
        let field = match c.name {
            "oauth_consumer_key" => Some("consumer_key"),
            "oauth_token" => Some("token"),
            "oauth_nonce" => Some("nonce"),
            "oauth_timestamp" => Some("timestamp"),
            "oauth_callback" => Some("callback"),
            "oauth_verifier" => Some("verifier"),
            "realm" => Some("realm"),
            _ => None,
        };
        ContradictionShown {
            name: c.name,
            field,
            pinned: c.pinned.clone(),
            captured: c.captured.clone(),
            message: c.to_string(),
        }
    }
}

/// A capture read: the request, and what to show of how it was read.
#[derive(Debug)]
pub struct Read {
    /// The request as the client sent it.
    pub captured: Captured,
    /// What the page shows (completed by [`explained`]).
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
/// `har` with `entry`, empty: the only entry that carries OAuth).
///
/// # Errors
/// The library's refusal, said in the capture field.
pub fn read(kind: &str, text: &str, scheme: &str, entry: &str) -> Result<Read, Box<Refused>> {
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
    Ok(Read { captured, shown })
}

/// What the Sign panel pins for a capture: its secrets (and RSA key, for a
/// capture signed with an RSA method), provider and body-hash settings,
/// and each protocol value it fills in (the consumer key, token, nonce,
/// timestamp, realm, callback, verifier). The signature-method select
/// always names a method, so it pins nothing here (the capture says its
/// method), nor does the `oauth_version` box; an empty timestamp is the
/// capture's, never the browser's clock. The request itself is the
/// capture's ([`CaptureExplainer`] puts it in).
///
/// # Errors
/// A select's value that names none of its options.
pub fn pinned(fields: &Fields, captured: &Captured) -> Result<RequestSpec, Box<FieldError>> {
    let mut spec = spec_of(fields).map_err(|field| Box::new(FieldError::unknown(field)))?;
    spec.signature_method = None;
    spec.timestamp = Some(fields.timestamp.clone()).filter(|t| !t.is_empty());
    // The key is given to a capture signed with an RSA method only (a key
    // beside an HMAC method is refused by the library); the method is the
    // capture's, as the library reads it.
    let rsa = captured.oauth().ok().flatten().is_some_and(|c| {
        c.protocol()
            .get(Name::SignatureMethod)
            .and_then(|m| m.parse::<SignatureMethod>().ok())
            .is_some_and(|m| m.is_rsa())
    });
    spec.rsa_private_key = (rsa && !fields.private_key.is_empty())
        .then(|| oauth1_signer::Secret::new(fields.private_key.as_str()));
    Ok(spec)
}

/// Explains `read` with the Sign panel's pins ([`pinned`]) and their base
/// string or signature when given, by the library's one call.
///
/// # Errors
/// The capture's refusal, or the request's that cannot be signed as
/// captured, in its field.
pub fn explain(
    read: &Read,
    fields: &Fields,
    base_string: Option<&str>,
    signature: Option<&str>,
) -> Result<CaptureExplanation, Box<FieldError>> {
    let captured = &read.captured;
    let spec = pinned(fields, captured)?;
    let mut call = CaptureExplainer::new(captured, &spec);
    if let Some(base) = base_string {
        call = call.their_base_string(base);
    }
    if let Some(signature) = signature {
        call = call.their_signature(signature);
    }
    match call.explain() {
        Ok(Some(x)) => Ok(x),
        Ok(None) => Err(Box::new(FieldError::page(
            "capture",
            "the captured request carries no OAuth 1.0a: no Authorization: OAuth header and no \
             oauth_* parameter in its query or form body",
            crate::render::Hint::new("err.capture-no-oauth", []),
        ))),
        Err(e) => Err(Box::new(refused(&e, captured, fields))),
    }
}

/// The library's refusal of a capture, in its field: on the text it points
/// into (the captured header, URL or form body), in the RSA key's field for
/// the key, else on the capture as a whole.
fn refused(e: &Error, captured: &Captured, fields: &Fields) -> FieldError {
    if matches!(
        e.kind(),
        ErrorKind::MissingKey { .. } | ErrorKind::InvalidKey { .. } | ErrorKind::Rsa { .. }
    ) {
        return FieldError::new(e, fields);
    }
    let body = captured.body().map(String::from_utf8_lossy);
    let text = match e.offset().map(|(part, _)| part) {
        Some(Part::Header) => captured.oauth_header().unwrap_or_default(),
        Some(Part::Url) => captured.url(),
        Some(Part::FormBody) => body.as_deref().unwrap_or_default(),
        _ => "",
    };
    error_in_capture(e, text)
}

/// What the page shows of the capture read and explained: where its
/// protocol parameters were, which of them were taken, and the provider's
/// answer with the client's clock.
pub fn explained(x: &CaptureExplanation, mut shown: CaptureRead) -> CaptureRead {
    let theirs = x.carried.protocol();
    shown.transmission = Some(theirs.transmission().as_str());
    shown.taken.clone_from(&x.taken);
    shown.answer = x.answer.as_ref().map(|answer| {
        let timestamp = theirs
            .get(Name::Timestamp)
            .and_then(|t| t.parse::<u64>().ok());
        AnswerShown {
            status: answer.status,
            about_time: answer.is_about_time(),
            clock_offset: x
                .clock
                .filter(|c| c.from_date && answer.is_about_time())
                .map(|c| c.offset),
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
        }
    });
    shown
}

/// The library's error about the capture `text`, marked on its line (a
/// HAR file runs to megabytes: the page shows the line, not the file).
fn error_in_capture(e: &Error, text: &str) -> FieldError {
    let said = crate::say::error(e, text);
    let spot = match e.offset() {
        Some((_, at)) if text.is_char_boundary(at.min(text.len())) => {
            let at = at.min(text.len());
            let start = text[..at].rfind('\n').map_or(0, |k| k + 1);
            let end = text[at..].find('\n').map_or(text.len(), |k| at + k);
            let mut spot = Spot::at(e.to_string(), &text[start..end], at - start, e.span_len());
            spot.offset = Some(at);
            spot
        }
        _ => Spot::message(e.to_string()),
    };
    FieldError {
        field: Some("capture"),
        spot: spot.said(said),
    }
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

    /// Reads `case`'s capture and explains it with `fields`.
    fn explained_with(case: &serde_json::Value, fields: &Fields) -> CaptureExplanation {
        let entry = case["entry"]
            .as_u64()
            .map(|n| n.to_string())
            .unwrap_or_default();
        let r = read(
            case["format"].as_str().unwrap(),
            case["text"].as_str().unwrap(),
            case["scheme"].as_str().unwrap_or("https"),
            &entry,
        )
        .ok()
        .unwrap();
        explain(&r, fields, None, None).unwrap()
    }

    /// A protocol name escaped in the query (`oauth%5Fnonce`) is the name,
    /// as RFC 5849 §3.4.1.3.1 decodes it: oauthlib's signature of
    /// `http-absolute-form-query` still matches, and the URL signed holds
    /// only `size=original`.
    #[test]
    fn an_escaped_protocol_name_is_read_as_the_name() {
        let mut case = cases()
            .into_iter()
            .find(|c| c["id"] == "http-absolute-form-query")
            .unwrap();
        let text = case["text"]
            .as_str()
            .unwrap()
            .replacen("&oauth_nonce=", "&oauth%5Fnonce=", 1);
        case["text"] = text.into();
        let fields = Fields {
            consumer_secret: case["credentials"]["consumer_secret"]
                .as_str()
                .unwrap()
                .into(),
            token_secret: case["credentials"]["token_secret"].as_str().unwrap().into(),
            ..Fields::default()
        };
        let x = explained_with(&case, &fields);
        assert!(x.matches(), "{:?}", x.explanation.findings);
        assert_eq!(x.spec.url, "http://api.example.com/photos?size=original");
        assert_eq!(x.spec.nonce.as_deref(), Some("cXVlcnkgdHJhbnNtaXNzaW9u"));
        let shown = explained(&x, CaptureRead::default());
        assert_eq!(shown.transmission, Some("query"));
        assert!(shown.taken.contains(&"oauth_nonce"), "{:?}", shown.taken);
    }

    #[test]
    fn a_timestamp_answer_is_read_with_the_clock() {
        let case = cases()
            .into_iter()
            .find(|c| c["id"] == "firefox-har-timestamp-out-of-bounds")
            .unwrap();
        let x = explained_with(&case, &Fields::default());
        let answer = explained(&x, CaptureRead::default()).answer.unwrap();
        assert!(answer.about_time);
        assert_eq!(answer.errors[0].code, "135");
        assert_eq!(
            answer.clock_offset,
            case["answer"]["clock_offset_seconds"].as_i64()
        );
    }

    /// oauthlib's HMAC-SHA256 request (fixtures/signatures.json,
    /// `oauthlib-client-hmac-sha256`: its test_client.py's header), as a
    /// raw HTTP request, with only its secret typed (empty: the key is
    /// `&`) and the signature-method select left at HMAC-SHA1, the page's
    /// first option: it matches, as `oauth1 explain --http` says, and the
    /// method is the capture's. Before the page called the library's
    /// `CaptureExplainer`, the select pinned HMAC-SHA1 and the page said
    /// `signature-method-differs`.
    fn hmac_sha256_evidence() -> serde_json::Value {
        let all: serde_json::Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/signatures.json"
        )))
        .unwrap();
        let v = all["vectors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["id"] == "oauthlib-client-hmac-sha256")
            .unwrap();
        let header = v["published"]["header"].as_str().unwrap();
        serde_json::json!({
            "consumer_secret": "",
            "signature_method": "HMAC-SHA1",
            "capture": format!("GET / HTTP/1.1\r\nHost: example.com\r\nAuthorization: {header}\r\n\r\n"),
            "capture_kind": "http",
            "capture_scheme": "http",
        })
    }

    #[test]
    fn an_hmac_sha256_capture_matches_whatever_the_method_select_says() {
        let x = crate::explain::explain_json(&hmac_sha256_evidence().to_string());
        assert!(x.error.is_none(), "{:?}", x.error);
        let codes: Vec<&str> = x.causes.iter().map(|c| c.code).collect();
        assert!(x.matches && codes.is_empty(), "{codes:?}");
        assert!(x.contradictions.is_empty());
        let taken = x.capture.unwrap().taken;
        assert_eq!(
            taken,
            [
                "oauth_consumer_key",
                "oauth_signature_method",
                "oauth_nonce",
                "oauth_timestamp",
                "oauth_version"
            ]
        );
    }

    /// A consumer key typed in the Sign panel that the capture contradicts
    /// is said first, with both values, and is no cause: the capture's key
    /// is signed, so its signature still matches.
    #[test]
    fn a_pinned_key_the_capture_contradicts_is_said_not_a_cause() {
        let mut evidence = hmac_sha256_evidence();
        evidence["consumer_key"] = "another_key".into();
        let x = crate::explain::explain_json(&evidence.to_string());
        assert!(x.error.is_none(), "{:?}", x.error);
        let [c] = &x.contradictions[..] else {
            panic!("{:?}", x.contradictions)
        };
        assert_eq!(
            (c.name, c.field),
            ("oauth_consumer_key", Some("consumer_key"))
        );
        assert_eq!(
            (c.pinned.as_deref(), c.captured.as_deref()),
            (Some("another_key"), Some("client_key"))
        );
        assert!(x.matches && x.causes.is_empty());
        assert!(!x.capture.unwrap().taken.contains(&"oauth_consumer_key"));
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
        let Err(r) = read("har", text, "", "") else {
            panic!("two entries carry OAuth")
        };
        assert_eq!(
            r.error.spot.said.as_ref().map(|h| h.code),
            Some("err.entry-not-chosen")
        );
        let listed: Vec<usize> = r.shown.unwrap().entries.iter().map(|e| e.n).collect();
        assert!(listed.contains(&1) && listed.len() >= 2, "{listed:?}");
        let Err(r) = read("har", text, "", "99") else {
            panic!("no entry 99")
        };
        assert_eq!(
            r.error.spot.said.as_ref().map(|h| h.code),
            Some("err.no-such-entry")
        );
    }

    #[test]
    fn a_refusal_is_marked_in_the_capture() {
        let evidence = serde_json::json!({
            "capture": "POST /x HTTP/1.1\r\nHost: h\r\nAuthorization: OAuth a=\"1\"\r\nAuthorization: OAuth b=\"2\"\r\n\r\n",
            "capture_kind": "http",
        });
        let x = crate::explain::explain_json(&evidence.to_string());
        let e = x.error.unwrap();
        let said = e.spot.said.clone().unwrap();
        assert_eq!(said.code, "err.capture-ambiguous");
        assert_eq!(e.field, Some("capture"));
        assert!(e.spot.at.starts_with('A'), "{:?}", e.spot);
    }

    #[test]
    fn a_form_body_that_is_not_utf8_is_refused_at_its_byte() {
        // bash's $'\xff' is the byte 0xFF: `a=` then one byte that is no
        // UTF-8, at offset 2 of the form body curl sends (-d's type).
        let evidence = serde_json::json!({
            "capture": "curl https://h/x -H 'Authorization: OAuth oauth_consumer_key=\"k\"' --data-binary $'a=\\xff'",
            "capture_kind": "curl",
        });
        let x = crate::explain::explain_json(&evidence.to_string());
        let e = x.error.unwrap();
        assert_eq!(e.field, Some("capture"));
        assert_eq!(e.spot.offset, Some(2), "{:?}", e.spot);
        assert!(x.causes.is_empty() && !x.compared);
    }
}
