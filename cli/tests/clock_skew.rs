//! A client whose clock is off, against a real `oauth1 serve` whose clock
//! is shifted (`--clock-offset`): without the opt-in the request is refused
//! (`oauth_problem=timestamp_refused`); with it (the library's
//! `OAuth1Middleware::with_clock_skew_correction`, `oauth1 request
//! --fix-clock`) it succeeds with exactly one retry, the next request with
//! none, and no other refusal (a bad signature, a body that cannot be sent
//! twice) is sent again. The requests are counted in serve's own log.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::bin::{oauth1, run, text, TempDir};
use common::serve::{Serve, CREDENTIALS};
use oauth1_signer::client::{client_builder, OAuth1Middleware};
use oauth1_signer::{Credentials, Signer};
use reqwest_middleware::{ClientBuilder, ClientWithMiddleware};

/// serve's clock, an hour ahead of the system's (and of the client's):
/// far outside its 5-minute window.
const AHEAD: i64 = 3600;

fn signer(consumer_secret: &str) -> Signer {
    Signer::new(Credentials::new("ck", consumer_secret).with_token("tk", "ts"))
}

fn client(middleware: OAuth1Middleware) -> ClientWithMiddleware {
    // The provider the CLI installs (ring); already installed is fine.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let inner = client_builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    ClientBuilder::new(inner).with(middleware).build()
}

/// The lines of serve's log for `path`: one per request it answered.
fn answered<'a>(log: &'a str, path: &str) -> Vec<&'a str> {
    let target = format!(" GET {path} ");
    let post = format!(" POST {path} ");
    log.lines()
        .filter(|l| l.contains(&target) || l.contains(&post))
        .collect()
}

async fn status_and_problem(response: reqwest::Response) -> (u16, String) {
    let status = response.status().as_u16();
    let json: serde_json::Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
    (status, json["problem"].as_str().unwrap_or("").to_owned())
}

/// A subscriber of the test's own that keeps each event's fields.
mod events {
    use super::*;
    use tracing::field::{Field, Visit};
    use tracing::{span, Event, Metadata, Subscriber};

    pub type Events = Arc<Mutex<Vec<Vec<(String, String)>>>>;

    pub struct Recorder(pub Events);

    struct Fields(Vec<(String, String)>);

    impl Visit for Fields {
        fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
            self.0.push((field.name().to_owned(), format!("{value:?}")));
        }
        fn record_str(&mut self, field: &Field, value: &str) {
            self.0.push((field.name().to_owned(), value.to_owned()));
        }
    }

    impl Subscriber for Recorder {
        fn enabled(&self, m: &Metadata<'_>) -> bool {
            m.target() == "oauth1_signer::client"
        }
        fn new_span(&self, _: &span::Attributes<'_>) -> span::Id {
            span::Id::from_u64(1)
        }
        fn record(&self, _: &span::Id, _: &span::Record<'_>) {}
        fn record_follows_from(&self, _: &span::Id, _: &span::Id) {}
        fn event(&self, event: &Event<'_>) {
            let mut fields = Fields(Vec::new());
            event.record(&mut fields);
            self.0.lock().unwrap().push(fields.0);
        }
        fn enter(&self, _: &span::Id) {}
        fn exit(&self, _: &span::Id) {}
    }

    pub fn field<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }
}

#[tokio::test]
async fn the_middleware_corrects_the_clock_once_keeps_the_offset_and_retries_nothing_else() {
    let events: events::Events = Arc::default();
    let _guard = tracing::subscriber::set_default(events::Recorder(events.clone()));
    let serve = Serve::start(&["--clock-offset", &AHEAD.to_string()]);

    // Without the opt-in: refused, once.
    let plain = client(OAuth1Middleware::new(signer("cs")));
    let (status, problem) =
        status_and_problem(plain.get(serve.url("/plain")).send().await.unwrap()).await;
    assert_eq!(status, 401);
    assert!(
        problem.starts_with("oauth_problem=timestamp_refused&"),
        "{problem}"
    );

    // With it: the first request succeeds after one retry, and the offset
    // is kept (the server's Date, to the second, less the local clock).
    let middleware = OAuth1Middleware::new(signer("cs")).with_clock_skew_correction(true);
    assert_eq!(middleware.clock_offset(), None);
    let corrected = client(middleware.clone());
    let (status, problem) =
        status_and_problem(corrected.get(serve.url("/first")).send().await.unwrap()).await;
    assert_eq!((status, problem.as_str()), (200, ""));
    // The clone in the client shares what it learned.
    let offset = middleware.clock_offset().unwrap();
    assert!((AHEAD - 10..=AHEAD).contains(&offset), "{offset}");
    // The next request is signed with it at once.
    let (status, _) =
        status_and_problem(corrected.get(serve.url("/next")).send().await.unwrap()).await;
    assert_eq!(status, 200);

    // A bad signature is not sent again: the clock is right now, the
    // secret is not.
    let (status, problem) = status_and_problem(
        corrected
            .get(serve.url("/bad-signature"))
            .with_extension(signer("wrong"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 401);
    assert!(
        problem.starts_with("oauth_problem=signature_invalid"),
        "{problem}"
    );

    // A fresh middleware with a bad secret: one retry for the clock, and
    // none for the signature that is then refused.
    let fresh = client(OAuth1Middleware::new(signer("wrong")).with_clock_skew_correction(true));
    let (status, problem) =
        status_and_problem(fresh.get(serve.url("/both")).send().await.unwrap()).await;
    assert_eq!(status, 401);
    assert!(
        problem.starts_with("oauth_problem=signature_invalid"),
        "{problem}"
    );

    // A body that cannot be sent twice (a stream) is not sent again.
    let streamed = client(OAuth1Middleware::new(signer("cs")).with_clock_skew_correction(true));
    let body = reqwest::Body::wrap(http_body_util::Full::new(hyper::body::Bytes::from_static(
        b"not a form",
    )));
    let (status, problem) = status_and_problem(
        streamed
            .post(serve.url("/stream"))
            .header("content-type", "application/octet-stream")
            .body(body)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, 401);
    assert!(
        problem.starts_with("oauth_problem=timestamp_refused&"),
        "{problem}"
    );

    let (_, log) = serve.stop("TERM");
    // Counted in serve's own log: one answer for each request, two for a
    // corrected one.
    let counts: Vec<(&str, usize)> = [
        "/plain",
        "/first",
        "/next",
        "/bad-signature",
        "/both",
        "/stream",
    ]
    .into_iter()
    .map(|p| (p, answered(&log, p).len()))
    .collect();
    assert_eq!(
        counts,
        [
            ("/plain", 1),
            ("/first", 2),
            ("/next", 1),
            ("/bad-signature", 1),
            ("/both", 2),
            ("/stream", 1)
        ],
        "{log}"
    );
    let first = answered(&log, "/first");
    assert!(first[0].contains(" 401 timestamp refused"), "{log}");
    assert!(first[1].ends_with(" 200 valid"), "{log}");
    let both = answered(&log, "/both");
    assert!(both[0].contains(" 401 timestamp refused"), "{log}");
    assert!(
        both[1].contains(" 401 the signature does not match"),
        "{log}"
    );

    // One event per correction, naming the offset and the answer.
    let events = events.lock().unwrap();
    assert_eq!(events.len(), 2, "{events:?}");
    let e = &events[0];
    assert_eq!(events::field(e, "offset"), offset.to_string());
    assert_eq!(events::field(e, "previous"), "0");
    assert_eq!(events::field(e, "status"), "401");
    assert_eq!(events::field(e, "error"), "problem-timestamp_refused");
    assert_eq!(events::field(e, "host"), "127.0.0.1");
    assert!(events::field(e, "date").ends_with(" GMT"), "{e:?}");
}

/// `oauth1 request` against `serve` with `extra` flags; its status, stdout
/// and stderr.
fn request(
    serve: &Serve,
    path: &str,
    credentials: &[&str],
    extra: &[&str],
) -> (i32, String, String) {
    let dir = TempDir::new(&format!("clock-{}", common::serve::rand_suffix()));
    let mut cmd = oauth1(&dir.config());
    cmd.arg("request")
        .args(credentials)
        .args(extra)
        .arg(serve.url(path));
    let out = run(cmd);
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

#[test]
fn request_fix_clock_signs_again_once_and_for_the_clock_alone() {
    let serve = Serve::start(&["--clock-offset", &(-AHEAD).to_string()]);
    // Without --fix-clock: refused.
    let (code, out, _) = request(&serve, "/plain", &CREDENTIALS, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("oauth_problem=timestamp_refused&"), "{out}");
    // With it: one retry, the clock moved back by the hour.
    let (code, out, err) = request(&serve, "/fixed", &CREDENTIALS, &["--fix-clock"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("\"valid\":true"), "{out}");
    assert!(
        err.contains("refused the timestamp (problem-timestamp_refused, HTTP 401)"),
        "{err}"
    );
    let moved = err
        .split("moved by ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse::<i64>().ok())
        .unwrap();
    assert!((-AHEAD - 10..=-AHEAD + 10).contains(&moved), "{err}");
    // A bad signature: not sent again.
    let mut wrong = CREDENTIALS;
    wrong[3] = "wrong";
    let (code, out, err) = request(&serve, "/bad", &wrong, &["--fix-clock"]);
    assert_eq!(code, 1, "{out}");
    // Refused for the clock first, so one retry; then for the signature,
    // and not sent again.
    assert!(out.contains("oauth_problem=signature_invalid"), "{out}");
    assert_eq!(err.matches("signing again").count(), 1, "{err}");
    let (_, log) = serve.stop("TERM");
    assert_eq!(answered(&log, "/plain").len(), 1, "{log}");
    let fixed = answered(&log, "/fixed");
    assert_eq!(fixed.len(), 2, "{log}");
    assert!(fixed[0].contains(" 401 timestamp refused"), "{log}");
    assert!(fixed[1].ends_with(" 200 valid"), "{log}");
    assert_eq!(answered(&log, "/bad").len(), 2, "{log}");
}

#[test]
fn request_fix_clock_with_a_right_clock_sends_once_and_a_bad_signature_is_not_sent_again() {
    let serve = Serve::start(&[]);
    let (code, out, err) = request(&serve, "/ok", &CREDENTIALS, &["--fix-clock"]);
    assert_eq!(code, 0, "{out}{err}");
    let mut wrong = CREDENTIALS;
    wrong[3] = "wrong";
    let (code, out, err) = request(&serve, "/bad", &wrong, &["--fix-clock"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("oauth_problem=signature_invalid"), "{out}");
    assert!(!err.contains("signing again"), "{err}");
    let (_, log) = serve.stop("TERM");
    assert_eq!(answered(&log, "/ok").len(), 1, "{log}");
    assert_eq!(answered(&log, "/bad").len(), 1, "{log}");
}
