//! A `tower::Layer` that verifies every request (feature `tower`).
//!
//! A request that verifies reaches the service with its [`Verified`] in
//! its extensions (the consumer key and token the handler acts for). One
//! that does not is answered here: its [`Rejection::status`] (401, or 503
//! when a store could not answer), `WWW-Authenticate: OAuth realm="..."`,
//! and the OAuth Problem Reporting body.
//!
//! Each rejection is also told to the server's owner: a `tracing` event
//! (target `oauth1_signer::verify`, level INFO) with the method, the path
//! (never the query, which may hold a signature), the true [`Reason`] (an
//! unknown key is named as such there, where the client hears "the
//! signature does not match") and the problem answered; no secret is in it.
//! A layer over a verifier that can only read absolute URLs (no public base
//! URL, forwarded headers not read) is warned of when it is made, and
//! each request it rejects for that is a WARN event that says so.
//!
//! [`Reason`]: crate::verify::Reason
//!
//! A signature that does not match can also be diagnosed for the owner
//! ([`VerifyLayer::diagnose`], opt-in): a [`Diagnose`] hook (the
//! explainer's is `explain::Diagnoser`, feature `explain`) names the likely
//! cause in a second event, `OAuth request diagnosed`, with its `causes`
//! (each `code (where): what`) or why there are none (`skipped`). At most
//! so many a second are made (a token bucket, shared by every clone of the
//! layer); the rest are logged as skipped, so that a flood of bad
//! signatures costs no more than that. The hook is given the secrets of
//! the key and token the client sent, and says nothing computed with them
//! and no key the client did not send; a key or token the verifier does
//! not hold is not diagnosed (the first event already says so).
//!
//! Only a body whose parameters are signed is read before the service sees
//! it: an `application/x-www-form-urlencoded` body (RFC 5849 §3.4.1.3.1),
//! up to a limit (413 beyond it), or any body of a request that sends
//! `oauth_body_hash` (the hash covers its bytes). Every other body is
//! passed on as a stream, unread.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::{Bytes, BytesMut};
use http::header::{CONTENT_LENGTH, CONTENT_TYPE, WWW_AUTHENTICATE};
use http::{Extensions, HeaderValue, Request, Response, StatusCode, Uri};
use http_body::{Body, Frame, SizeHint};
use http_body_util::BodyExt as _;

mod report;

pub use report::Diagnose;
use report::{diagnose, knows_the_origin, log_rejection, Diagnoses};

use crate::error::Error;
use crate::pipeline::header::check_realm;
use crate::verify::nonce::NonceStore;
use crate::verify::reason::Rejection;
use crate::verify::received::Received;
use crate::verify::secrets::SecretSource;
use crate::verify::verified::Verified;
use crate::verify::verifier::Verifier;

/// The largest body read by default: 1 MiB.
pub const DEFAULT_BODY_LIMIT: usize = 1 << 20;

/// Where a router keeps the URI as the client sent it, when it rewrites
/// the request's own (axum's `nest` strips its prefix and keeps the
/// original in its `OriginalUri` extension).
pub type OriginalUri = for<'e> fn(&'e Extensions) -> Option<&'e Uri>;

/// The layer: wraps a service in a [`VerifyService`], which verifies every
/// request before the service sees it.
///
/// A request that verifies reaches the service with its [`Verified`] in the
/// request's extensions: the consumer key and token it was signed with, for
/// the handler to act for. An axum handler takes it with the
/// `Extension<Verified>` extractor; any other service with
/// `request.extensions().get::<Verified>()`. A request that does not verify
/// never reaches the service: it is answered here, 401 (503 when a store
/// could not answer) with `WWW-Authenticate: OAuth realm="..."` and the
/// OAuth Problem Reporting body.
///
/// ```
/// use std::sync::Arc;
/// use axum::{body::Body, routing::get, Extension, Router};
/// use oauth1_signer::verify::{MemoryNonceStore, StaticSecrets, Verified, Verifier, VerifyLayer};
/// use oauth1_signer::{Credentials, OAuthRequest, Signer};
/// use tower::ServiceExt as _;
///
/// // The handler: reached only by a request that verified, with its `Verified`.
/// async fn me(Extension(verified): Extension<Verified>) -> String {
///     format!("hello, {}", verified.consumer_key())
/// }
///
/// let credentials = Credentials::new("key", "secret");
/// let secrets = StaticSecrets::new(credentials.clone());
/// let verifier = Verifier::builder(secrets, MemoryNonceStore::with_capacity(100_000))
///     .public_base_url("https://api.example.com")
///     .build()?;
/// let app = Router::new()
///     .route("/me", get(me))
///     .layer(VerifyLayer::new(Arc::new(verifier)).realm("api.example.com")?);
///
/// // A client signs for the public URL; the server receives the path.
/// let header = Signer::new(credentials)
///     .authorization_header(&OAuthRequest::get("https://api.example.com/me"))?;
/// let signed = http::Request::get("/me").header("authorization", header).body(Body::empty())?;
/// let runtime = tokio::runtime::Builder::new_current_thread().build()?;
/// let answer = runtime.block_on(app.clone().oneshot(signed))?;
/// assert_eq!(answer.status(), 200);
/// let body = runtime.block_on(axum::body::to_bytes(answer.into_body(), 1024))?;
/// assert_eq!(&body[..], b"hello, key");
///
/// // Unsigned: answered by the layer; the handler is never called.
/// let answer = runtime.block_on(app.oneshot(http::Request::get("/me").body(Body::empty())?))?;
/// assert_eq!(answer.status(), 401);
/// assert_eq!(answer.headers()["www-authenticate"], "OAuth realm=\"api.example.com\"");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct VerifyLayer<S, N> {
    verifier: Arc<Verifier<S, N>>,
    realm: Arc<str>,
    body_limit: usize,
    original_uri: Option<OriginalUri>,
    diagnoses: Option<Arc<Diagnoses>>,
}

impl<S, N> Clone for VerifyLayer<S, N> {
    fn clone(&self) -> Self {
        VerifyLayer {
            verifier: self.verifier.clone(),
            realm: self.realm.clone(),
            body_limit: self.body_limit,
            original_uri: self.original_uri,
            diagnoses: self.diagnoses.clone(),
        }
    }
}

impl<S, N> fmt::Debug for VerifyLayer<S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VerifyLayer")
            .field("verifier", &self.verifier)
            .field("realm", &self.realm)
            .field("body_limit", &self.body_limit)
            .field(
                "diagnoses_per_second",
                &self.diagnoses.as_ref().map(|d| d.per_second),
            )
            .finish_non_exhaustive()
    }
}

impl<S, N> VerifyLayer<S, N> {
    /// A layer verifying with `verifier`, answering with an empty realm,
    /// reading bodies of up to [`DEFAULT_BODY_LIMIT`] bytes.
    ///
    /// A server receives a path and a query (`/1.1/x.json?a=1`), not the URL
    /// the client signed: the verifier needs a
    /// [public base URL](crate::verify::VerifierBuilder::public_base_url)
    /// (or [forwarded headers](crate::verify::VerifierBuilder::forwarded))
    /// to know it. Without either, this
    /// warns (a `tracing` WARN event): every request that arrives as a path
    /// would be rejected.
    pub fn new(verifier: Arc<Verifier<S, N>>) -> Self {
        if !knows_the_origin(&verifier) {
            tracing::warn!(
                target: "oauth1_signer::verify",
                "VerifyLayer over a verifier without a public base URL: a request received \
                 as a path cannot be verified (set VerifierBuilder::public_base_url to the URL \
                 clients sign, https://api.example.com)"
            );
        }
        VerifyLayer {
            verifier,
            realm: "".into(),
            body_limit: DEFAULT_BODY_LIMIT,
            original_uri: None,
            diagnoses: None,
        }
    }

    /// The realm named in `WWW-Authenticate` (RFC 5849 §3.5.1).
    ///
    /// # Errors
    /// A realm that [`check_realm`](crate::pipeline::check_realm) refuses.
    pub fn realm(mut self, realm: &str) -> Result<Self, Error> {
        check_realm(realm)?;
        self.realm = realm.into();
        Ok(self)
    }

    /// The largest body read, in bytes; a longer one is answered 413.
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.body_limit = bytes;
        self
    }

    /// Where to find the URI the client sent when a router has rewritten
    /// the request's: under axum,
    /// `|e| e.get::<axum::extract::OriginalUri>().map(|u| &u.0)`, so that a
    /// layer inside a `nest`ed router verifies the full path.
    pub fn original_uri(mut self, find: OriginalUri) -> Self {
        self.original_uri = Some(find);
        self
    }

    /// Diagnoses a request whose signature does not match, for the
    /// server's owner: `hook` (the explainer's `explain::Diagnoser`, feature
    /// `explain`) names the likely cause in a `tracing` event (target
    /// `oauth1_signer::verify`, INFO, `OAuth request diagnosed`), at most
    /// `per_second` a second (a token bucket that holds as many, shared by
    /// the layer's clones); each one over is an event that says it was
    /// skipped. Run on the request's task before its 401 is answered: a
    /// diagnosis costs a few milliseconds, so keep `per_second` small.
    pub fn diagnose(mut self, hook: impl Diagnose, per_second: u32) -> Self {
        self.diagnoses = Some(Arc::new(Diagnoses {
            hook: Box::new(hook),
            per_second,
            clock: None,
            start: Instant::now(),
            bucket: Mutex::new((u64::from(per_second) * 1000, 0)),
        }));
        self
    }

    /// The bucket's clock, in milliseconds (for tests: diagnoses counted
    /// without waiting). Call after [`diagnose`](Self::diagnose).
    #[doc(hidden)]
    pub fn _diagnosis_clock(mut self, now: fn() -> u64) -> Self {
        if let Some(d) = self.diagnoses.as_mut().and_then(Arc::get_mut) {
            d.clock = Some(now);
            d.bucket = Mutex::new((u64::from(d.per_second) * 1000, now()));
        }
        self
    }
}

impl<Inner, S, N> tower_layer::Layer<Inner> for VerifyLayer<S, N> {
    type Service = VerifyService<Inner, S, N>;

    fn layer(&self, inner: Inner) -> Self::Service {
        VerifyService {
            inner,
            layer: self.clone(),
        }
    }
}

/// The service [`VerifyLayer`] makes: it verifies each request, then calls
/// the inner service with the request and its [`Verified`] in the
/// request's extensions (an axum handler's `Extension<Verified>`;
/// [`VerifyLayer`] shows one). A request that does not verify is answered
/// here, with its [`Rejection::status`], `WWW-Authenticate` and the
/// problem, and never reaches the inner service.
pub struct VerifyService<Inner, S, N> {
    inner: Inner,
    layer: VerifyLayer<S, N>,
}

impl<Inner: Clone, S, N> Clone for VerifyService<Inner, S, N> {
    fn clone(&self) -> Self {
        VerifyService {
            inner: self.inner.clone(),
            layer: self.layer.clone(),
        }
    }
}

impl<Inner, S, N> fmt::Debug for VerifyService<Inner, S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VerifyService")
            .field("layer", &self.layer)
            .finish_non_exhaustive()
    }
}

/// A body on either side of the layer: bytes the layer holds, or a body
/// passed through as it came. The service receives a form body the layer
/// read and verified as `Full`, any other body as `Passed`, unread; the
/// client receives the layer's own answer to a rejected request as `Full`,
/// the service's answer as `Passed`.
#[derive(Debug)]
pub enum LayerBody<B> {
    /// Bytes the layer holds (taken by the first poll).
    Full(Option<Bytes>),
    /// A body passed through untouched.
    Passed(B),
}

impl<B: Body<Data = Bytes> + Unpin> Body for LayerBody<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        match self.get_mut() {
            LayerBody::Full(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            LayerBody::Passed(body) => Pin::new(body).poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            LayerBody::Full(bytes) => bytes.is_none(),
            LayerBody::Passed(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            LayerBody::Full(bytes) => {
                SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64))
            }
            LayerBody::Passed(body) => body.size_hint(),
        }
    }
}

/// The future of a [`VerifyService`] call.
pub type VerifyFuture<R, E> = Pin<Box<dyn Future<Output = Result<R, E>> + Send + 'static>>;

impl<Inner, S, N, B, RB> tower_service::Service<Request<B>> for VerifyService<Inner, S, N>
where
    Inner: tower_service::Service<Request<LayerBody<B>>, Response = Response<RB>>
        + Clone
        + Send
        + 'static,
    Inner::Future: Send + 'static,
    S: SecretSource + 'static,
    N: NonceStore + 'static,
    B: Body<Data = Bytes> + Unpin + Send + 'static,
    B::Error: fmt::Display,
{
    type Response = Response<LayerBody<RB>>;
    type Error = Inner::Error;
    type Future = VerifyFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        // The clone that was made ready is the one called.
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let layer = self.layer.clone();
        // Split before the future is made: it holds the parts, not the
        // request as well (a future is copied whole when boxed, and moved).
        let (mut parts, body) = request.into_parts();
        Box::pin(async move {
            let (verified, body) = match verify(&layer, &parts, body).await {
                Ok(v) => v,
                Err(answer) => return Ok(answer),
            };
            parts.extensions.insert(verified);
            let response = inner.call(Request::from_parts(parts, body)).await?;
            Ok(response.map(LayerBody::Passed))
        })
    }
}

/// Reads the body if it must be, and verifies.
async fn verify<S, N, B, RB>(
    layer: &VerifyLayer<S, N>,
    parts: &http::request::Parts,
    body: B,
) -> Result<(Verified, LayerBody<B>), Response<LayerBody<RB>>>
where
    S: SecretSource,
    N: NonceStore,
    B: Body<Data = Bytes> + Unpin,
    B::Error: fmt::Display,
{
    let uri = layer
        .original_uri
        .and_then(|find| find(&parts.extensions))
        .unwrap_or(&parts.uri);
    let reject = |r: &Rejection| {
        log_rejection(layer, parts, uri, r);
        rejected(&layer.realm, r)
    };
    // The head alone, parsed once as the verification parses it, decides
    // whether the body's bytes are signed (never a search of the raw text),
    // and verifies the request when they are not.
    let head =
        Received::from_http(&parts.method, uri, &parts.headers, b"").map_err(|r| reject(&r))?;
    // Each verdict is taken apart in a statement of its own, before the
    // diagnosis is awaited: a `match` around that await would keep the
    // whole verdict in this future.
    let rejection = match layer.verifier.verify_head(&head).await {
        Ok(Some(verified)) => return Ok((verified, LayerBody::Passed(body))),
        Ok(None) => None,
        Err(r) => Some(r),
    };
    if let Some(r) = rejection {
        log_rejection(layer, parts, uri, &r);
        diagnose(layer, parts, uri, &head, &r).await;
        return Err(rejected(&layer.realm, &r));
    }
    let bytes = read_body(body, &parts.headers, layer.body_limit).await?;
    let received =
        Received::from_http(&parts.method, uri, &parts.headers, &bytes).map_err(|r| reject(&r))?;
    let r = match layer.verifier.verify(&received).await {
        Ok(verified) => return Ok((verified, LayerBody::Full(Some(bytes)))),
        Err(r) => r,
    };
    log_rejection(layer, parts, uri, &r);
    diagnose(layer, parts, uri, &received, &r).await;
    Err(rejected(&layer.realm, &r))
}

/// The body's bytes, up to `limit`.
async fn read_body<B, RB>(
    mut body: B,
    headers: &http::HeaderMap,
    limit: usize,
) -> Result<Bytes, Response<LayerBody<RB>>>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: fmt::Display,
{
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(plain(StatusCode::PAYLOAD_TOO_LARGE, "body too large\n"));
    }
    let mut buf = BytesMut::new();
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            return Err(plain(
                StatusCode::BAD_REQUEST,
                "the body could not be read\n",
            ));
        };
        if let Ok(data) = frame.into_data() {
            if buf.len() + data.len() > limit {
                return Err(plain(StatusCode::PAYLOAD_TOO_LARGE, "body too large\n"));
            }
            buf.extend_from_slice(&data);
        }
    }
    Ok(buf.freeze())
}

fn plain<RB>(status: StatusCode, text: &'static str) -> Response<LayerBody<RB>> {
    let mut response = Response::new(LayerBody::Full(Some(Bytes::from_static(text.as_bytes()))));
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// The answer to a rejected request.
fn rejected<RB>(realm: &str, rejection: &Rejection) -> Response<LayerBody<RB>> {
    let mut response = Response::new(LayerBody::Full(Some(Bytes::from(rejection.problem()))));
    *response.status_mut() =
        StatusCode::from_u16(rejection.status()).unwrap_or(StatusCode::UNAUTHORIZED);
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("application/x-www-form-urlencoded"),
    );
    // The realm passed `check_realm`: printable ASCII, no quote or backslash.
    if let Ok(v) = HeaderValue::from_str(&format!("OAuth realm=\"{realm}\"")) {
        headers.insert(WWW_AUTHENTICATE, v);
    }
    response
}
