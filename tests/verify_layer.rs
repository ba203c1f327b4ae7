//! The verifier at the `http` edge and in the tower layer: the X docs'
//! request of `fixtures/signatures.json` (its header and signature as the
//! published source printed them, never computed by this crate) received as
//! an `http::Request` behind a proxy (`Verifier::verify_http_at`, the public
//! base URL, forwarded headers, repeated or non-ASCII headers), and through
//! `VerifyLayer` on a real axum `Router` (the handler sees the verified
//! consumer and token; a rejection is answered 401 with the realm and the
//! problem; body limits, bodies signed by their hash, `nest`). The body hash
//! is the OAuth Request Body Hash draft's example value.

#![cfg(feature = "http")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::verify::{block, expected_header, secrets, timestamp, x_docs, TestStore};
use oauth1_signer::verify::{Forwarded, Reason, Verifier};
use oauth1_signer::Part;

/// The X docs request as a server behind a proxy sees it: the path and
/// query only, the header and the form body.
fn x_docs_http(header: &str, body: &str) -> http::Request<Vec<u8>> {
    http::Request::post("/1.1/statuses/update.json?include_entities=true")
        .header("authorization", header)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body.as_bytes().to_vec())
        .unwrap()
}

#[test]
fn an_http_request_verifies_against_the_public_base_url() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let body = inputs.form_body.as_deref().unwrap();
    let t = timestamp(&inputs);
    let build = |base: &str, family: Forwarded| {
        Verifier::builder(secrets(&inputs), TestStore::default())
            .public_base_url(base)
            .forwarded(family)
            .build()
            .unwrap()
    };
    let request = x_docs_http(&header, body);
    block(build("https://api.x.com", Forwarded::Ignore).verify_http_at(&request, t)).unwrap();
    // A path prefix in the base URL is put before the received path.
    let mut stripped = x_docs_http(&header, body);
    *stripped.uri_mut() = "/statuses/update.json?include_entities=true"
        .parse()
        .unwrap();
    block(build("https://api.x.com/1.1/", Forwarded::Ignore).verify_http_at(&stripped, t)).unwrap();
    // Another public host: the signature is for api.x.com.
    let e = block(build("https://api.example.com", Forwarded::Ignore).verify_http_at(&request, t))
        .unwrap_err();
    assert_eq!(e.reason(), &Reason::SignatureInvalid);
    // Forwarded headers: read only when trusted.
    let mut forwarded = x_docs_http(&header, body);
    forwarded
        .headers_mut()
        .insert("x-forwarded-proto", "https".parse().unwrap());
    forwarded
        .headers_mut()
        // The last value is the trusted proxy's own (it appends).
        .insert("x-forwarded-host", "internal, api.x.com".parse().unwrap());
    block(build("http://internal:8080", Forwarded::XForwarded).verify_http_at(&forwarded, t))
        .unwrap();
    let e = block(build("http://internal:8080", Forwarded::Ignore).verify_http_at(&forwarded, t))
        .unwrap_err();
    assert_eq!(e.reason(), &Reason::SignatureInvalid);
}

#[test]
fn repeated_or_non_ascii_headers_are_rejected() {
    let (v, inputs) = x_docs();
    let header = expected_header(&v);
    let body = inputs.form_body.as_deref().unwrap();
    let verifier = Verifier::builder(secrets(&inputs), TestStore::default())
        .public_base_url("https://api.x.com")
        .build()
        .unwrap();
    for name in ["authorization", "content-type"] {
        let mut request = x_docs_http(&header, body);
        let value = request.headers()[name].clone();
        request.headers_mut().append(name, value);
        let e = block(verifier.verify_http_at(&request, timestamp(&inputs))).unwrap_err();
        assert!(
            matches!(e.reason(), Reason::AmbiguousHeader { name: n } if n.eq_ignore_ascii_case(name)),
            "{name}: {e}"
        );
    }
    // `OAuth realm="` is 13 bytes: the 0xC3 of 'é' is at 13.
    let mut request = x_docs_http(&header, body);
    request.headers_mut().insert(
        "authorization",
        http::HeaderValue::from_bytes("OAuth realm=\"é\"".as_bytes()).unwrap(),
    );
    let e = block(verifier.verify_http_at(&request, timestamp(&inputs))).unwrap_err();
    match e.reason() {
        Reason::Malformed(err) => assert_eq!(err.offset(), Some((Part::Header, 13))),
        other => panic!("{other:?}"),
    }
}

#[cfg(feature = "tower")]
mod layer {
    //! The tower layer on a real axum `Router`, called through `oneshot`.

    use super::*;
    use crate::common::verify::body_hash_request;
    use axum::body::{to_bytes, Body};
    use axum::extract::OriginalUri;
    use axum::routing::post;
    use axum::{Extension, Router};
    use oauth1_signer::verify::{LayerBody, StaticSecrets, Verified, VerifyLayer};
    use std::sync::Arc;
    use tower::ServiceExt as _;

    /// The X docs request was signed at 1318622958.
    fn signed_at() -> u64 {
        1318622958
    }

    fn layer() -> VerifyLayer<StaticSecrets, TestStore> {
        let (_, inputs) = x_docs();
        let verifier = Verifier::builder(secrets(&inputs), TestStore::default())
            .public_base_url("https://api.x.com")
            .clock(signed_at)
            .build()
            .unwrap();
        VerifyLayer::new(Arc::new(verifier)).realm("X").unwrap()
    }

    /// Echoes the verified consumer key and token, and the body it got.
    async fn echo(Extension(v): Extension<Verified>, body: String) -> String {
        format!("{} {} {body}", v.consumer_key(), v.token().unwrap_or("-"))
    }

    fn request(path: &str, header: &str, content_type: &str, body: &str) -> http::Request<Body> {
        http::Request::post(path)
            .header("authorization", header)
            .header("content-type", content_type)
            .body(Body::from(body.to_owned()))
            .unwrap()
    }

    async fn answer(app: Router, request: http::Request<Body>) -> (u16, http::HeaderMap, String) {
        let response = app.oneshot(request).await.unwrap();
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
        (status, headers, String::from_utf8(body.to_vec()).unwrap())
    }

    const PATH: &str = "/1.1/statuses/update.json?include_entities=true";
    const FORM: &str = "application/x-www-form-urlencoded";

    /// The verification's futures stay small (issue 40): a future is
    /// copied whole when it is made, boxed or moved into its caller's, so
    /// each byte of it is copied on every request. rustc lays a future out
    /// the same way in every build of one compiler; the bounds leave room
    /// for another's, and fail on the sizes before issue 40 (the layer's
    /// future 3,336 bytes: the request held twice, every `Verifier` future
    /// with its arguments twice, a verdict kept across the diagnosis).
    #[test]
    fn the_verification_futures_stay_small() {
        use tower::Layer as _;
        use tower::Service as _;
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let verifier = common::verify::verifier(&inputs);
        let received = common::verify::received(&inputs, &header);
        let at = verifier.verify_at(&received, signed_at());
        let head = verifier.verify_head(&received);
        let route = Router::new().route("/1.1/statuses/update.json", post(echo));
        let mut service = layer().layer(route);
        let call = service.call(request(PATH, &header, FORM, ""));
        let sizes = (
            std::mem::size_of_val(&at),
            std::mem::size_of_val(&head),
            std::mem::size_of_val(&*call),
        );
        println!(
            "verify_at {}, verify_head {}, the layer's call {}",
            sizes.0, sizes.1, sizes.2
        );
        assert!(sizes.0 <= 1024, "verify_at's future: {} bytes", sizes.0);
        assert!(sizes.1 <= 1024, "verify_head's future: {} bytes", sizes.1);
        assert!(sizes.2 <= 2560, "the layer's future: {} bytes", sizes.2);
    }

    #[test]
    fn a_signed_request_reaches_the_handler_with_its_consumer_and_token() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let body = inputs.form_body.clone().unwrap();
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(echo))
            .layer(layer());
        let (status, _, text) = block(answer(app, request(PATH, &header, FORM, &body)));
        assert_eq!(status, 200, "{text}");
        assert_eq!(
            text,
            format!(
                "xvz1evFS4wEEPTGEFPHBog 370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb {body}"
            )
        );
    }

    #[test]
    fn a_rejected_request_is_answered_401_with_the_realm_and_the_problem() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(echo))
            .layer(layer());
        let tampered = format!("{}x", inputs.form_body.as_deref().unwrap());
        let (status, headers, text) = block(answer(app, request(PATH, &header, FORM, &tampered)));
        assert_eq!(status, 401);
        assert_eq!(headers["www-authenticate"], "OAuth realm=\"X\"");
        assert_eq!(text, "oauth_problem=signature_invalid");
    }

    #[test]
    fn a_form_body_over_the_limit_is_answered_413() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let body = inputs.form_body.clone().unwrap();
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(echo))
            .layer(layer().body_limit(body.len() - 1));
        let (status, _, _) = block(answer(app, request(PATH, &header, FORM, &body)));
        assert_eq!(status, 413);
        // At the limit, it is read and verifies.
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(echo))
            .layer(layer().body_limit(body.len()));
        let (status, _, _) = block(answer(app, request(PATH, &header, FORM, &body)));
        assert_eq!(status, 200);
    }

    #[test]
    fn other_bodies_reach_the_handler_unread_and_unsigned() {
        // The X docs request with its parameters signed in the query (the
        // form body's parameters moved there), and a JSON body, which is
        // not signed (§3.4.1.3.1) and so never read by the layer: with a
        // limit of 0, any read would answer 413.
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let url = format!("{PATH}&{}", inputs.form_body.as_deref().unwrap());
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(echo))
            .layer(layer().body_limit(0));
        let json = r#"{"a": 1}"#;
        let (status, _, text) = block(answer(
            app,
            request(&url, &header, "application/json", json),
        ));
        assert_eq!(status, 200, "{text}");
        assert!(text.ends_with(json), "{text}");
    }

    #[test]
    fn a_declared_length_over_the_limit_is_answered_413_before_reading() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let body = inputs.form_body.clone().unwrap();
        let with_length = |length: usize| {
            let mut r = request(PATH, &header, FORM, &body);
            r.headers_mut()
                .insert("content-length", length.to_string().parse().unwrap());
            r
        };
        let app = || {
            Router::new()
                .route("/1.1/statuses/update.json", post(echo))
                .layer(layer().body_limit(body.len()))
        };
        // Declared at the limit: read, and it verifies.
        let (status, _, text) = block(answer(app(), with_length(body.len())));
        assert_eq!(status, 200, "{text}");
        // Declared over it: refused on the header alone, though the bytes
        // sent would fit.
        let (status, _, text) = block(answer(app(), with_length(body.len() + 1)));
        assert_eq!((status, text.as_str()), (413, "body too large\n"));
    }

    #[test]
    fn a_body_signed_by_its_hash_is_read_and_checked() {
        const HELLO_HASH: &str = "Lve95gjOVATpfV8EL5X4nxwjKHE=";
        let (header, credentials) = body_hash_request(HELLO_HASH);
        let verifier = Arc::new(
            Verifier::builder(StaticSecrets::new(credentials), TestStore::default())
                .public_base_url("http://www.example.com")
                .nonce_len(1..=64)
                .clock(|| 1236874155)
                .build()
                .unwrap(),
        );
        let app = || {
            Router::new()
                .route("/resource", axum::routing::put(echo))
                .layer(VerifyLayer::new(verifier.clone()))
        };
        let put = |body: &str| {
            http::Request::put("/resource")
                .header("authorization", &header)
                .header("content-type", "text/plain")
                .body(Body::from(body.to_owned()))
                .unwrap()
        };
        let (status, _, text) = block(answer(app(), put("Hello World!")));
        assert_eq!((status, text.as_str()), (200, "consumer - Hello World!"));
        let (status, _, text) = block(answer(app(), put("Hello World?")));
        assert_eq!(status, 401);
        assert_eq!(
            text,
            "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_body_hash"
        );
    }

    /// A service that is never ready.
    #[derive(Clone)]
    struct Down;

    impl tower::Service<http::Request<LayerBody<Body>>> for Down {
        type Response = http::Response<Body>;
        type Error = &'static str;
        type Future = std::future::Ready<Result<http::Response<Body>, &'static str>>;

        fn poll_ready(
            &mut self,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Result<(), &'static str>> {
            std::task::Poll::Ready(Err("down"))
        }

        fn call(&mut self, _: http::Request<LayerBody<Body>>) -> Self::Future {
            std::future::ready(Err("called while down"))
        }
    }

    #[test]
    fn the_service_s_readiness_and_a_debug_view_without_secrets_pass_through() {
        use tower::Layer as _;
        let mut service = layer().layer(Down);
        assert_eq!(block(service.ready()).err(), Some("down"));
        let shown = format!("{:?} {service:?}", layer());
        assert!(
            shown.starts_with("VerifyLayer { verifier: Verifier")
                && shown.contains(r#"realm: "X""#)
                && shown.contains("VerifyService { layer: VerifyLayer"),
            "{shown}"
        );
        assert!(!shown.contains("kAcSOqF21") && !shown.contains("LswwdoUa"));
    }

    #[test]
    fn a_layer_body_says_its_size_and_its_end() {
        use http_body::Body as _;
        let held = LayerBody::<Body>::Full(Some(axum::body::Bytes::from_static(b"a=1")));
        assert!(!held.is_end_stream());
        assert_eq!(held.size_hint().exact(), Some(3));
        let taken = LayerBody::<Body>::Full(None);
        assert!(taken.is_end_stream());
        assert_eq!(taken.size_hint().exact(), Some(0));
        let passed = LayerBody::Passed(Body::from("abcd"));
        assert!(!passed.is_end_stream());
        assert_eq!(passed.size_hint().exact(), Some(4));
        assert!(LayerBody::Passed(Body::empty()).is_end_stream());
    }

    #[test]
    fn inside_nest_the_original_uri_is_verified() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let body = inputs.form_body.clone().unwrap();
        let nested = |layer: VerifyLayer<StaticSecrets, TestStore>| {
            Router::new().nest(
                "/1.1",
                Router::new()
                    .route("/statuses/update.json", post(echo))
                    .layer(layer),
            )
        };
        let found = layer().original_uri(|e| e.get::<OriginalUri>().map(|u| &u.0));
        let (status, _, text) = block(answer(nested(found), request(PATH, &header, FORM, &body)));
        assert_eq!(status, 200, "{text}");
        // Without it the layer sees `/statuses/update.json`: not what was signed.
        let (status, _, _) = block(answer(nested(layer()), request(PATH, &header, FORM, &body)));
        assert_eq!(status, 401);
    }
}

/// The layer's events for the server's owner: each rejection's true reason, and a warning
/// for a verifier that cannot know a received path's URL (the README's example once built
/// one), each without a secret.
#[cfg(feature = "tower")]
mod owner_events {
    use super::*;
    use axum::body::Body;
    use axum::routing::post;
    use axum::Router;
    use oauth1_signer::verify::VerifyLayer;
    use std::sync::{Arc, Mutex};
    use tower::ServiceExt as _;
    use tracing::field::{Field, Visit};
    use tracing::{span, Event, Level, Metadata, Subscriber};

    /// Every event's level and fields, as text.
    type Events = Arc<Mutex<Vec<(Level, Vec<(String, String)>)>>>;

    /// A subscriber that keeps every event (this test's own, not tracing-subscriber's).
    struct Recorder(Events);

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
        fn enabled(&self, _: &Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, _: &span::Attributes<'_>) -> span::Id {
            span::Id::from_u64(1)
        }
        fn record(&self, _: &span::Id, _: &span::Record<'_>) {}
        fn record_follows_from(&self, _: &span::Id, _: &span::Id) {}
        fn event(&self, event: &Event<'_>) {
            let mut fields = Fields(Vec::new());
            event.record(&mut fields);
            self.0
                .lock()
                .unwrap()
                .push((*event.metadata().level(), fields.0));
        }
        fn enter(&self, _: &span::Id) {}
        fn exit(&self, _: &span::Id) {}
    }

    fn field<'a>(fields: &'a [(String, String)], name: &str) -> &'a str {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }

    const PATH: &str = "/1.1/statuses/update.json?include_entities=true";

    /// Runs `request` through a layer over `verifier`, with `events` recording.
    fn answer(
        verifier: Verifier<oauth1_signer::verify::StaticSecrets, TestStore>,
        request: http::Request<Body>,
        events: &Events,
    ) -> u16 {
        let _guard = tracing::subscriber::set_default(Recorder(events.clone()));
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(|| async { "ok" }))
            .layer(VerifyLayer::new(Arc::new(verifier)));
        block(app.oneshot(request)).unwrap().status().as_u16()
    }

    fn x_docs_request(header: &str, body: &str) -> http::Request<Body> {
        http::Request::post(PATH)
            .header("authorization", header)
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body.to_owned()))
            .unwrap()
    }

    /// No event holds either secret of the X docs credentials.
    fn no_secret(events: &Events) {
        let (_, inputs) = x_docs();
        let secrets = [
            inputs.consumer_secret.clone().unwrap(),
            inputs.token_secret.clone().unwrap(),
        ];
        for (_, fields) in events.lock().unwrap().iter() {
            for (_, value) in fields {
                for s in &secrets {
                    assert!(!value.contains(s.as_str()), "{value}");
                }
            }
        }
    }

    #[test]
    fn a_layer_without_a_public_base_url_is_warned_of_and_says_why_it_rejects() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let body = inputs.form_body.clone().unwrap();
        let events = Events::default();
        // As the README's layer example once built it: no public base URL.
        let verifier = Verifier::builder(secrets(&inputs), TestStore::default())
            .clock(|| 1318622958)
            .build()
            .unwrap();
        let status = answer(verifier, x_docs_request(&header, &body), &events);
        assert_eq!(status, 401);
        let events_seen = events.lock().unwrap().clone();
        assert_eq!(events_seen.len(), 2, "{events_seen:?}");
        let (level, made) = &events_seen[0];
        assert_eq!(*level, Level::WARN);
        assert!(
            field(made, "message").contains("without a public base URL"),
            "{made:?}"
        );
        let (level, rejected) = &events_seen[1];
        assert_eq!(*level, Level::WARN);
        assert!(field(rejected, "message").contains("set VerifierBuilder::public_base_url"));
        assert!(
            field(rejected, "reason").contains("not an absolute URL"),
            "{rejected:?}"
        );
        assert_eq!(field(rejected, "path"), "/1.1/statuses/update.json");
        no_secret(&events);
    }

    #[test]
    fn each_rejection_s_true_reason_is_told_the_owner_never_a_query_or_a_secret() {
        let (v, inputs) = x_docs();
        let header = expected_header(&v);
        let body = inputs.form_body.clone().unwrap();
        let build = |secrets| {
            Verifier::builder(secrets, TestStore::default())
                .public_base_url("https://api.x.com")
                .clock(|| 1318622958)
                .build()
                .unwrap()
        };
        // A tampered body: the signature does not match.
        let events = Events::default();
        let status = answer(
            build(secrets(&inputs)),
            x_docs_request(&header, &format!("{body}x")),
            &events,
        );
        assert_eq!(status, 401);
        let seen = events.lock().unwrap().clone();
        assert_eq!(seen.len(), 1, "{seen:?}");
        let (level, fields) = &seen[0];
        assert_eq!(*level, Level::INFO);
        assert_eq!(
            field(fields, "reason"),
            "the signature does not match the request"
        );
        assert_eq!(field(fields, "problem"), "oauth_problem=signature_invalid");
        assert_eq!(field(fields, "method"), "POST");
        assert_eq!(field(fields, "path"), "/1.1/statuses/update.json");
        // An unknown consumer key: the client is told "signature_invalid", the owner the truth.
        let events = Events::default();
        let other = oauth1_signer::verify::StaticSecrets::new(oauth1_signer::Credentials::new(
            "another-key",
            "s",
        ));
        let status = answer(build(other), x_docs_request(&header, &body), &events);
        assert_eq!(status, 401);
        let seen = events.lock().unwrap().clone();
        assert_eq!(field(&seen[0].1, "reason"), "unknown consumer key");
        assert_eq!(
            field(&seen[0].1, "problem"),
            "oauth_problem=signature_invalid"
        );
        no_secret(&events);
        // A valid request: no event.
        let events = Events::default();
        let status = answer(
            build(secrets(&inputs)),
            x_docs_request(&header, &body),
            &events,
        );
        assert_eq!(status, 200);
        assert!(events.lock().unwrap().is_empty());
    }

    /// The explainer's diagnosis for the owner (`VerifyLayer::diagnose`): a client that
    /// encoded spaces as `+` (`fixtures/explain.json`'s `explain-space-as-plus`, the X docs
    /// request with that client's header) is named in an event with no secret and no value;
    /// at most so many a second, counted on an injected clock, the rest said skipped.
    #[cfg(feature = "explain")]
    #[test]
    fn a_bad_signature_s_likely_cause_is_told_the_owner_a_bounded_number_of_times() {
        use oauth1_signer::explain::Diagnoser;
        use std::sync::atomic::{AtomicU64, Ordering};

        static NOW_MS: AtomicU64 = AtomicU64::new(0);
        let path = format!("{}/fixtures/explain.json", env!("CARGO_MANIFEST_DIR"));
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let case = doc["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "explain-space-as-plus")
            .unwrap()
            .clone();
        let header = case["theirs"]["authorization_header"].as_str().unwrap();
        let body = case["inputs"]["form_body"].as_str().unwrap();
        let (_, inputs) = x_docs();
        let verifier = Verifier::builder(secrets(&inputs), TestStore::default())
            .public_base_url("https://api.x.com")
            .clock(|| 1318622958)
            .build()
            .unwrap();
        let layer = VerifyLayer::new(Arc::new(verifier))
            .diagnose(Diagnoser, 2)
            ._diagnosis_clock(|| NOW_MS.load(Ordering::SeqCst));
        let app = Router::new()
            .route("/1.1/statuses/update.json", post(|| async { "ok" }))
            .layer(layer);
        let events = Events::default();
        let _guard = tracing::subscriber::set_default(Recorder(events.clone()));
        let send = || {
            let status = block(app.clone().oneshot(x_docs_request(header, body)))
                .unwrap()
                .status()
                .as_u16();
            assert_eq!(status, 401);
            let seen = events.lock().unwrap().clone();
            let (level, last) = seen.last().unwrap().clone();
            assert_eq!(level, Level::INFO);
            assert_eq!(field(&last, "message"), "OAuth request diagnosed");
            assert_eq!(field(&last, "path"), "/1.1/statuses/update.json");
            last
        };
        // The bucket holds two: two diagnoses, then one skipped, at the same instant.
        for _ in 0..2 {
            let diagnosed = send();
            assert_eq!(field(&diagnosed, "cause"), "space-as-plus", "{diagnosed:?}");
            assert!(
                field(&diagnosed, "causes").starts_with("space-as-plus (parameters): "),
                "{diagnosed:?}"
            );
            assert_eq!(field(&diagnosed, "skipped"), "");
        }
        let skipped = send();
        assert_eq!(
            field(&skipped, "skipped"),
            "over 2 diagnoses a second: not diagnosed"
        );
        assert_eq!(field(&skipped, "causes"), "");
        // Half a second later, one more has come in: one diagnosis, then skipped again.
        NOW_MS.store(500, Ordering::SeqCst);
        assert_eq!(field(&send(), "cause"), "space-as-plus");
        assert_ne!(field(&send(), "skipped"), "");
        // Each request: its rejection, then its diagnosis.
        let seen = events.lock().unwrap().clone();
        assert_eq!(seen.len(), 10, "{seen:?}");
        for pair in seen.chunks(2) {
            assert_eq!(field(&pair[0].1, "message"), "OAuth request rejected");
        }
        no_secret(&events);
        // Nothing of either side: no signature, no base string.
        for (_, fields) in seen.iter() {
            for (_, value) in fields {
                assert!(!value.contains("POST&"), "{value}");
                assert!(!value.contains("tXpPpWFTUAqx4z"), "{value}");
            }
        }
    }
}
