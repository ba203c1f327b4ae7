//! One request's answer: a leg of the flow (`legs`), or the verdict on
//! any other path, with the explainer's diagnosis of a bad signature, and
//! the answer written (JSON, a form, or a redirect) with one log line.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt as _, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CONNECTION, CONTENT_TYPE, DATE, LOCATION, WWW_AUTHENTICATE};
use hyper::http::request::Parts;
use hyper::{Request, Response, StatusCode};
use oauth1_signer::text::redact_url;
use oauth1_signer::verify::{Received, Rejection};
use oauth1_signer::Secret;
use serde::Serialize;
use serde_json::ser::CompactFormatter;
use tokio::sync::Semaphore;

use super::conn::Peer;
use super::legs::{Leg, LegAnswer, Legs};
use super::log::{text_line, RequestLog};
use crate::json::terminal_json;
use crate::verdict::{verdict_json, Audience, Checker, Diagnosis, Seen, Verdict};

/// The largest body read: 1 MiB.
const MAX_BODY: usize = 1 << 20;

/// How long a 401 waits for its diagnosis before it goes without.
const DIAGNOSIS_DEADLINE: Duration = Duration::from_secs(2);
/// What every connection shares.
pub(super) struct Server {
    checker: Arc<Checker>,
    /// The flow's three legs, and the tokens they issued.
    legs: Legs,
    read_timeout: Duration,
    /// One diagnosis at a time, on a thread of its own.
    diagnoses: Arc<Semaphore>,
    log: RequestLog,
}

impl Server {
    /// The server of `checker` (every path) and `legs` (the flow's), whose
    /// bodies must arrive within `read_timeout`, logging a line a request
    /// to `log`.
    pub(super) fn new(
        checker: Checker,
        legs: Legs,
        read_timeout: Duration,
        log: RequestLog,
    ) -> Server {
        Server {
            checker: Arc::new(checker),
            legs,
            read_timeout,
            diagnoses: Arc::new(Semaphore::new(1)),
            log,
        }
    }
}

/// A request's answer before it is written: status, body, and the reason
/// for the log (the truth, which the client may not see).
pub(super) struct Answer {
    status: StatusCode,
    body: AnswerBody,
    logged: Cow<'static, str>,
}

/// What an answer carries.
enum AnswerBody {
    /// The verdict, or an error, as JSON text (terminal-safe, with a final
    /// newline).
    Json(String),
    /// A form-encoded answer (the flow's legs, their refusals).
    Form(String),
    /// A redirect to this URL (the authorisation leg's, to the callback).
    Redirect(String),
}

/// The JSON of an answer with no verdict: `{"reason": ..., "valid": false}`.
#[derive(Serialize)]
struct Plain<'a> {
    reason: &'a str,
    valid: bool,
}

impl Answer {
    pub(super) fn plain(status: StatusCode, reason: &str) -> Answer {
        let plain = Plain {
            reason,
            valid: false,
        };
        Answer::json(status, &plain, Cow::Owned(reason.to_owned()))
    }

    /// `json` written as the answer's body; should it fail to serialize
    /// (ours do not), a 500 that says so.
    pub(super) fn json(
        status: StatusCode,
        json: &impl Serialize,
        logged: impl Into<Cow<'static, str>>,
    ) -> Answer {
        match terminal_json(json, CompactFormatter) {
            Ok(text) => Answer {
                status,
                body: AnswerBody::Json(text),
                logged: logged.into(),
            },
            Err(e) => Answer {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                body: AnswerBody::Json(UNWRITTEN.to_owned()),
                logged: Cow::Owned(format!("the answer could not be written: {e}")),
            },
        }
    }
}

impl From<LegAnswer> for Answer {
    fn from(leg: LegAnswer) -> Answer {
        match leg {
            LegAnswer::Form {
                status,
                body,
                logged,
            } => Answer {
                status,
                body: AnswerBody::Form(body),
                logged: Cow::Owned(logged),
            },
            LegAnswer::Plain { status, reason } => Answer::plain(status, &reason),
            LegAnswer::Redirect { location, logged } => Answer {
                status: StatusCode::FOUND,
                body: AnswerBody::Redirect(location),
                logged: Cow::Owned(logged),
            },
        }
    }
}

/// The body of an answer whose JSON could not be written.
const UNWRITTEN: &str = "{\"reason\":\"the answer could not be written\",\"valid\":false}\n";

impl Server {
    /// Verifies one request and answers it; logs one line.
    pub(super) async fn answer(
        self: Arc<Self>,
        peer: Peer,
        request: Request<Incoming>,
    ) -> Response<Full<Bytes>> {
        let (parts, body) = request.into_parts();
        let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        // Never a signature (replayable while its nonce is fresh; a
        // PLAINTEXT one is the secrets) nor a secret in any spelling.
        let target = redact_url(target);
        let target = self.checker.without_secrets(&target);
        let answer = match Leg::of(&parts.method, parts.uri.path()) {
            Some(Leg::Authorize) => match tokio::time::timeout(self.read_timeout, discard(body))
                .await
            {
                Ok(Ok(())) => self.legs.authorize(parts.uri.query()).into(),
                Ok(Err(())) => Answer::plain(StatusCode::BAD_REQUEST, "the body could not be read"),
                Err(_) => self.timed_out(),
            },
            leg => self.verdict(&parts, body, leg).await,
        };
        let location = match &answer.body {
            AnswerBody::Redirect(url) => Some(HeaderValue::from_str(url)),
            _ => None,
        };
        let (answer, location) = match location {
            Some(Err(_)) => (
                Answer::plain(
                    StatusCode::BAD_REQUEST,
                    "the callback URL cannot be sent in a Location header",
                ),
                None,
            ),
            Some(Ok(value)) => (answer, Some(value)),
            None => (answer, None),
        };
        // The line is formatted first and handed over whole, to be written
        // with others (`log`): `eprintln!` with the parts would write each to
        // the unbuffered stderr on its own, a system call apiece.
        let line = text_line(
            &peer,
            parts.method.as_str(),
            &target,
            answer.status,
            &answer.logged,
            &[],
        );
        self.log.line(line);
        let (text, media) = match answer.body {
            AnswerBody::Json(json) => (json, "application/json"),
            AnswerBody::Form(form) => (form, "application/x-www-form-urlencoded"),
            AnswerBody::Redirect(_) => (String::new(), "text/plain; charset=utf-8"),
        };
        let mut response = Response::new(Full::new(Bytes::from(text)));
        *response.status_mut() = answer.status;
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(media));
        // With --clock-offset, the Date of the shifted clock, in place of
        // hyper's (the system clock's).
        if let Some(date) = crate::clock::date_header() {
            headers.insert(DATE, date);
        }
        if let Some(location) = location {
            headers.insert(LOCATION, location);
        }
        if answer.status == StatusCode::UNAUTHORIZED {
            headers.insert(
                WWW_AUTHENTICATE,
                HeaderValue::from_static("OAuth realm=\"oauth1 serve\""),
            );
        }
        if answer.status == StatusCode::REQUEST_TIMEOUT {
            headers.insert(CONNECTION, HeaderValue::from_static("close"));
        }
        response
    }

    /// Reads the body if its bytes are signed (else discards it), verifies,
    /// and diagnoses a bad signature; the request-token and access-token
    /// legs (`leg`) are verified and answered by [`Legs`].
    async fn verdict(&self, parts: &Parts, body: Incoming, leg: Option<Leg>) -> Answer {
        let head = match Received::from_parts(parts, b"") {
            Ok(head) => head,
            Err(rejection) => return self.rejected(rejection, None).await,
        };
        // Off the legs, the head alone, parsed once, verifies a request
        // whose body is not signed; `None` when the body must be read.
        let from_head = match leg {
            Some(_) => None,
            None => self.checker.verify_head(&head).await.transpose(),
        };
        let needs_body = match (&from_head, leg) {
            (Some(_), _) => Ok(false),
            (None, Some(_)) => self.legs.needs_body(&head),
            (None, None) => Ok(true),
        };
        let read = match needs_body {
            Ok(read) => read,
            Err(rejection) => return self.rejected(rejection, None).await,
        };
        let body = if read {
            let collect = Limited::new(body, MAX_BODY).collect();
            match tokio::time::timeout(self.read_timeout, collect).await {
                Err(_) => return self.timed_out(),
                Ok(Err(e)) if e.is::<LengthLimitError>() => {
                    return Answer::plain(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        &format!("the body is over {MAX_BODY} bytes"),
                    )
                }
                // The client went away or broke the framing mid-body.
                Ok(Err(_)) => {
                    return Answer::plain(StatusCode::BAD_REQUEST, "the body could not be read")
                }
                Ok(Ok(collected)) => Some(collected.to_bytes()),
            }
        } else {
            // Never signed: read and dropped frame by frame, whatever its
            // size, so that the connection stays usable.
            match tokio::time::timeout(self.read_timeout, discard(body)).await {
                Err(_) => return self.timed_out(),
                Ok(Err(())) => {
                    return Answer::plain(StatusCode::BAD_REQUEST, "the body could not be read")
                }
                Ok(Ok(())) => None,
            }
        };
        let received = match &body {
            Some(bytes) => match Received::from_parts(parts, bytes) {
                Ok(r) => r,
                Err(rejection) => return self.rejected(rejection, None).await,
            },
            None => head.body_not_read(),
        };
        let leg = match leg {
            Some(Leg::RequestToken) => Some(self.legs.request_token(&received).await),
            Some(Leg::AccessToken) => Some(self.legs.access_token(&received).await),
            Some(Leg::Authorize) | None => None,
        };
        match leg {
            Some(Ok(answer)) => return answer.into(),
            Some(Err(rejection)) => return self.rejected(rejection, None).await,
            None => {}
        }
        // One verification: the credentials given and the access tokens
        // the legs issued are one lookup (`Checker`).
        let checked = match from_head {
            Some(checked) => checked,
            None => self.checker.check(&received, None).await,
        };
        match checked {
            Ok(verified) => Answer::json(
                StatusCode::OK,
                &verdict_json(&Verdict::Valid(verified), Audience::Stranger),
                "valid",
            ),
            Err(rejection) => {
                let seen = Checker::diagnosable(&rejection)
                    .then(|| Seen::of(&received, &rejection))
                    .flatten();
                // A bad signature made with a token this server issued is
                // diagnosed with that token's secret.
                let issued = seen.as_ref().and_then(|_| {
                    let token = rejection.protocol()?.token()?;
                    Some((token.to_owned(), self.legs.issued(token)?))
                });
                self.rejected(rejection, seen.map(|seen| (seen, issued)))
                    .await
            }
        }
    }

    fn timed_out(&self) -> Answer {
        Answer::plain(
            StatusCode::REQUEST_TIMEOUT,
            &format!(
                "the body did not arrive within {:?} (--read-timeout)",
                self.read_timeout
            ),
        )
    }

    /// A rejection's answer, with the diagnosis of `seen` when it has one
    /// (made with the issued token's secret when it was signed with one).
    async fn rejected(&self, rejection: Rejection, seen: Option<(Seen, Option<Issued>)>) -> Answer {
        let diagnosis = match seen {
            Some((seen, issued)) => self.diagnose(seen, issued).await,
            None => Diagnosis::default(),
        };
        let status = StatusCode::from_u16(rejection.status()).unwrap_or(StatusCode::UNAUTHORIZED);
        let logged = rejection.reason().to_string();
        Answer::json(
            status,
            &verdict_json(&Verdict::Rejected(rejection, diagnosis), Audience::Stranger),
            logged,
        )
    }

    /// The stranger's diagnosis, off the request path: bounded in size,
    /// one at a time, within a deadline.
    async fn diagnose(&self, seen: Seen, issued: Option<Issued>) -> Diagnosis {
        let skipped = |why| Diagnosis {
            findings: Vec::new(),
            skipped: Some(why),
        };
        // The library's bound, as the tower layer's diagnosis applies it.
        if let Some(why) = seen.too_large() {
            return skipped(why);
        }
        let Ok(permit) = self.diagnoses.clone().try_acquire_owned() else {
            return skipped("another diagnosis is running: not diagnosed");
        };
        let checker = self.checker.clone();
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            checker.diagnose(&seen, Audience::Stranger, issued)
        });
        match tokio::time::timeout(DIAGNOSIS_DEADLINE, task).await {
            Ok(Ok(diagnosed)) => Diagnosis::from(diagnosed),
            Ok(Err(_)) => skipped("the diagnosis failed"),
            Err(_) => skipped("the diagnosis took too long"),
        }
    }
}

/// An access token this server issued, and its secret.
type Issued = (String, Secret);

/// Reads a body to its end, keeping nothing.
async fn discard(mut body: Incoming) -> Result<(), ()> {
    while let Some(frame) = body.frame().await {
        frame.map_err(|_| ())?;
    }
    Ok(())
}
