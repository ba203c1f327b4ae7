//! One request through the proxy: the health path; else verified (the
//! head alone when the body is not signed, which then streams through
//! unread; else the body read up to the limit and verified with it),
//! forwarded with the verified identity, or refused here, never reaching
//! the upstream. One log line, and the metrics, per request.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt as _, Either, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, CONNECTION, CONTENT_TYPE, EXPECT, WWW_AUTHENTICATE};
use hyper::http::request::Parts;
use hyper::{Request, Response, StatusCode};
use oauth1_signer::text::redact_url;
use oauth1_signer::verify::{NonceStore, Received, Rejection, Verified, Verifier};

use crate::serve::conn::Peer;
use serde::Serialize;

use super::diagnose::Diagnoses;
use super::forward::{Rewrite, UpBody, Upstream, UpstreamError};
use super::metrics::{reason_label, Metrics};
use super::secrets::ProxySecrets;
use crate::serve::log::{text_line, RequestLog};

/// The body of an answer: the proxy's own, or the upstream's streamed.
pub(crate) type ProxyBody = Either<Full<Bytes>, Incoming>;

/// How each request is logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum LogFormat {
    /// `PEER METHOD TARGET STATUS WHAT`, as `oauth1 serve` writes
    Text,
    /// One JSON object a line
    Json,
}

/// What every connection shares.
pub(crate) struct Proxy {
    pub(crate) verifier: Verifier<Arc<ProxySecrets>, Arc<dyn NonceStore>>,
    pub(crate) secrets: Arc<ProxySecrets>,
    pub(crate) upstream: Upstream,
    pub(crate) rewrite: Rewrite,
    pub(crate) realm: String,
    pub(crate) health_path: Option<String>,
    pub(crate) body_limit: usize,
    pub(crate) read_timeout: Duration,
    pub(crate) metrics: Arc<Metrics>,
    pub(crate) log_format: LogFormat,
    pub(crate) log: RequestLog,
    pub(crate) diagnoses: Option<Diagnoses>,
}

/// What happened to one request, for its log line and the metrics.
struct Outcome {
    status: StatusCode,
    /// `valid`, a rejection's reason, `health`, `upstream_timeout`, ...
    label: &'static str,
    /// The true reason, for the operator (never sent to the client).
    detail: String,
    identity: Option<(String, Option<String>)>,
}

/// One log line as JSON.
#[derive(Serialize)]
struct Line<'a> {
    peer: &'a str,
    method: &'a str,
    target: &'a str,
    status: u16,
    outcome: &'static str,
    detail: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    consumer_key: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    token: Option<&'a str>,
    duration_ms: f64,
}

impl Proxy {
    /// Answers one request, and logs and counts it.
    pub(crate) async fn answer(
        self: Arc<Self>,
        peer: Peer,
        request: Request<Incoming>,
    ) -> Response<ProxyBody> {
        let start = Instant::now();
        let (parts, body) = request.into_parts();
        let (response, outcome) = self.handle(peer.addr(), &parts, body).await;
        let took = start.elapsed();
        self.metrics.request(outcome.label, took);
        self.log(&peer, &parts, &outcome, took);
        response
    }

    async fn handle(
        &self,
        peer: SocketAddr,
        parts: &Parts,
        body: Incoming,
    ) -> (Response<ProxyBody>, Outcome) {
        if self.health_path.as_deref() == Some(parts.uri.path()) {
            return (
                own(StatusCode::OK, "text/plain; charset=utf-8", "ok\n"),
                outcome(StatusCode::OK, "health", "health".to_owned()),
            );
        }
        let (verified, body) = match self.verify(parts, body).await {
            Ok(v) => v,
            Err(refused) => return refused,
        };
        let identity = Some((
            verified.consumer_key().to_owned(),
            verified.token().map(str::to_owned),
        ));
        let mut up = parts.clone();
        self.rewrite.headers(&mut up.headers, &verified, peer);
        // The proxy answers the client's 100-continue itself (hyper does, as
        // the body is read); the upstream is sent the body at once.
        up.headers.remove(EXPECT);
        match self.upstream.send(up, body).await {
            Ok(response) => {
                let status = response.status();
                let o = Outcome {
                    status,
                    label: "valid",
                    detail: format!("valid, upstream {}", status.as_u16()),
                    identity,
                };
                (response.map(Either::Right), o)
            }
            Err(e) => {
                let (status, label, detail) = match e {
                    UpstreamError::Timeout(after) => (
                        StatusCode::GATEWAY_TIMEOUT,
                        "upstream_timeout",
                        format!("valid; the upstream did not answer within {after:?}"),
                    ),
                    UpstreamError::Failed(why) => (
                        StatusCode::BAD_GATEWAY,
                        "upstream_error",
                        format!("valid; the upstream failed: {why}"),
                    ),
                };
                self.metrics.upstream_error(match status {
                    StatusCode::GATEWAY_TIMEOUT => "timeout",
                    _ => "failed",
                });
                let text = match status {
                    StatusCode::GATEWAY_TIMEOUT => "the upstream did not answer in time\n",
                    _ => "the upstream could not be reached\n",
                };
                let o = Outcome {
                    status,
                    label,
                    detail,
                    identity,
                };
                (own(status, "text/plain; charset=utf-8", text), o)
            }
        }
    }

    /// Verifies the request: from its head when its body is not signed
    /// (the body then streams on unread), else with the body read up to
    /// the limit. The refusal's answer otherwise.
    async fn verify(
        &self,
        parts: &Parts,
        body: Incoming,
    ) -> Result<(Verified, UpBody), (Response<ProxyBody>, Outcome)> {
        let head = Received::from_parts(parts, b"").map_err(|r| self.refused(&r, None))?;
        match self.verifier.verify_head(&head).await {
            Ok(Some(verified)) => return Ok((verified, Either::Right(body))),
            Ok(None) => {}
            Err(r) => return Err(self.refused(&r, Some(&head))),
        }
        let collect = Limited::new(body, self.body_limit).collect();
        let bytes = match tokio::time::timeout(self.read_timeout, collect).await {
            Err(_) => {
                let why = format!(
                    "the body did not arrive within {:?} (--read-timeout)",
                    self.read_timeout
                );
                let mut r = own(
                    StatusCode::REQUEST_TIMEOUT,
                    TEXT,
                    "the body did not arrive in time\n",
                );
                r.headers_mut()
                    .insert(CONNECTION, HeaderValue::from_static("close"));
                return Err((r, outcome(StatusCode::REQUEST_TIMEOUT, "body_timeout", why)));
            }
            Ok(Err(e)) if e.is::<LengthLimitError>() => {
                let why = format!(
                    "the signed body is over {} bytes (--body-limit)",
                    self.body_limit
                );
                return Err((
                    own(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        TEXT,
                        "the body is too large\n",
                    ),
                    outcome(StatusCode::PAYLOAD_TOO_LARGE, "body_too_large", why),
                ));
            }
            Ok(Err(_)) => {
                let why = "the body could not be read".to_owned();
                return Err((
                    own(
                        StatusCode::BAD_REQUEST,
                        TEXT,
                        "the body could not be read\n",
                    ),
                    outcome(StatusCode::BAD_REQUEST, "body_unreadable", why),
                ));
            }
            Ok(Ok(collected)) => collected.to_bytes(),
        };
        let received = Received::from_parts(parts, &bytes).map_err(|r| self.refused(&r, None))?;
        match self.verifier.verify(&received).await {
            Ok(verified) => Ok((verified, Either::Left(Full::new(bytes.clone())))),
            Err(r) => Err(self.refused(&r, Some(&received))),
        }
    }

    /// The answer to a refused request: its status, `WWW-Authenticate` and
    /// the OAuth Problem Reporting body (the reason as the client may be
    /// told it); the true reason, and the likely cause when `--diagnose`
    /// finds one, for the log.
    fn refused(
        &self,
        r: &Rejection,
        received: Option<&Received<'_>>,
    ) -> (Response<ProxyBody>, Outcome) {
        let status = StatusCode::from_u16(r.status()).unwrap_or(StatusCode::UNAUTHORIZED);
        let mut response = own(status, "application/x-www-form-urlencoded", r.problem());
        // The realm passed `check_realm`: printable ASCII, no quote or backslash.
        if let Ok(v) = HeaderValue::from_str(&format!("OAuth realm=\"{}\"", self.realm)) {
            response.headers_mut().insert(WWW_AUTHENTICATE, v);
        }
        let mut detail = r.reason().to_string();
        if let (Some(d), Some(received)) = (&self.diagnoses, received) {
            if let Some(cause) = d.diagnose(&self.secrets, received, r) {
                detail.push_str("; ");
                detail.push_str(&cause);
            }
        }
        (response, outcome(status, reason_label(r.reason()), detail))
    }

    fn log(&self, peer: &Peer, parts: &Parts, o: &Outcome, took: Duration) {
        let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        // Never a signature (replayable while its nonce is fresh; a
        // PLAINTEXT one is the secrets) nor a verifier.
        let target = redact_url(target);
        let (key, token) = match &o.identity {
            Some((k, t)) => (Some(k.as_str()), t.as_deref()),
            None => (None, None),
        };
        let line = match self.log_format {
            // Formatted first and handed over whole, as `serve`'s.
            LogFormat::Text => {
                let who = match (key, token) {
                    (Some(k), Some(t)) => &[("consumer_key", k), ("token", t)][..],
                    (Some(k), None) => &[("consumer_key", k)][..],
                    _ => &[],
                };
                text_line(
                    peer,
                    parts.method.as_str(),
                    &target,
                    o.status,
                    &o.detail,
                    who,
                )
            }
            LogFormat::Json => {
                let line = Line {
                    peer: peer.as_str(),
                    method: parts.method.as_str(),
                    target: &target,
                    status: o.status.as_u16(),
                    outcome: o.label,
                    detail: &o.detail,
                    consumer_key: key,
                    token,
                    duration_ms: took.as_secs_f64() * 1000.0,
                };
                match crate::json::terminal_json(&line, serde_json::ser::CompactFormatter) {
                    Ok(text) => text,
                    Err(_) => return,
                }
            }
        };
        self.log.line(line);
    }
}

const TEXT: &str = "text/plain; charset=utf-8";

fn outcome(status: StatusCode, label: &'static str, detail: String) -> Outcome {
    Outcome {
        status,
        label,
        detail,
        identity: None,
    }
}

/// An answer of the proxy's own.
fn own(status: StatusCode, media: &'static str, body: impl Into<Bytes>) -> Response<ProxyBody> {
    let mut response = Response::new(Either::Left(Full::new(body.into())));
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(media));
    response
}
