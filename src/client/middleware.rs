//! reqwest at the edge: signing a `reqwest::Request`, and a
//! `reqwest_middleware` layer that signs every request a client sends
//! ([RFC 5849 §3.5.1]).
//!
//! Each attempt is signed when it passes through the middleware, with a
//! fresh nonce and timestamp (§3.3): a retry layer placed *before* it (added
//! to the `ClientBuilder` first) sends every retry freshly signed, which a
//! provider that refuses replayed nonces requires. Redirects are followed
//! here too, each hop signed afresh for its own URL (`crate::redirect`).
//!
//! [RFC 5849 §3.5.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.5.1

use std::fmt;
use std::sync::Arc;

use http::Extensions;
use reqwest_middleware::{Middleware, Next};

use crate::client::http_request::{
    authorize, not_a_uri, set_authorization, BodyBytes, Flow, HttpError, HttpOptions,
};
use crate::client::redirect::{Redirects, DEFAULT_REDIRECT_LIMIT};
use crate::client::skew::{read_refusal, ClockSkew};
use crate::pipeline::protocol::Transmission;
use crate::pipeline::signed::Trace;
use crate::pipeline::signed::{Placed, Signed};
use crate::pipeline::signer::Signer;

impl BodyBytes for reqwest::Body {
    fn body_bytes(&self) -> Option<&[u8]> {
        self.as_bytes()
    }
}

/// Signs a `reqwest::Request` in place, for clients without middleware: adds
/// (or replaces) its `Authorization` header, marked sensitive.
///
/// The URL is signed as reqwest sends it; the query always, the body only
/// when it is `application/x-www-form-urlencoded` (a JSON body is not
/// signed, as the X API v2 expects).
///
/// ```
/// use oauth1_signer::{Credentials, Signer, client::sign_reqwest_request, client::HttpOptions};
///
/// let signer = Signer::new(Credentials::new("key", "secret").with_token("token", "token secret"));
/// let client = reqwest::Client::new();
/// let mut request = client.get("https://api.x.com/2/users/me").build()?;
/// sign_reqwest_request(&signer, &mut request, HttpOptions::new())?;
/// assert!(request.headers()["authorization"].to_str()?.starts_with("OAuth "));
/// // then: client.execute(request).await?
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`sign_http_request`](crate::client::http_request::sign_http_request): a request the pipeline
/// refuses, or a form body given as a stream.
pub fn sign_reqwest_request(
    signer: &Signer,
    request: &mut reqwest::Request,
    options: HttpOptions,
) -> Result<(), HttpError> {
    sign_flow_request(signer, request, options, Flow::default())
}

/// Signs `request` with the flow's `oauth_callback` or `oauth_verifier`.
pub(crate) fn sign_flow_request(
    signer: &Signer,
    request: &mut reqwest::Request,
    options: HttpOptions,
    flow: Flow<'_>,
) -> Result<(), HttpError> {
    sign_at_offset(signer, request, options, flow, None)
}

/// Signs `request`, a fresh timestamp made with `clock_offset` when given
/// (else the signer's own).
fn sign_at_offset(
    signer: &Signer,
    request: &mut reqwest::Request,
    options: HttpOptions,
    flow: Flow<'_>,
    clock_offset: Option<i64>,
) -> Result<(), HttpError> {
    let signed = authorize(
        signer,
        request.method(),
        request.url().as_str(),
        request.headers(),
        request.body().map_or(Some(&[][..]), BodyBytes::body_bytes),
        options,
        flow,
        |signer, request| match clock_offset {
            Some(offset) => signer.sign_with_clock_offset(request, offset),
            None => signer.sign(request),
        },
    )?;
    transmit_reqwest(request, &signed, options.transmission())
}

/// Sends `signed` in `request` where `transmission` puts it
/// ([`Signed::placed`](crate::Signed::placed)): the header, the query, or
/// the form body.
fn transmit_reqwest(
    request: &mut reqwest::Request,
    signed: &Signed,
    transmission: Transmission,
) -> Result<(), HttpError> {
    let url = request.url().as_str().to_owned();
    let body = match transmission {
        Transmission::FormBody => request
            .body()
            .map_or(Some(&[][..]), BodyBytes::body_bytes)
            .ok_or(HttpError::UnreadableBody { form: true })?,
        _ => b"",
    };
    match signed.placed(transmission, &url, body) {
        Placed::Url(url) => {
            *request.url_mut() = reqwest::Url::parse(&url).map_err(|_| not_a_uri())?;
            Ok(())
        }
        Placed::FormBody(body) => {
            if request.headers().contains_key(http::header::CONTENT_LENGTH) {
                request
                    .headers_mut()
                    .insert(http::header::CONTENT_LENGTH, body.len().into());
            }
            *request.body_mut() = Some(body.into());
            Ok(())
        }
        Placed::Header(header) => set_authorization(request.headers_mut(), header),
    }
}

/// As [`sign_reqwest_request`], and returns every stage of the signature,
/// exactly as signed.
///
/// # Errors
/// As [`sign_reqwest_request`].
pub fn trace_reqwest_request(
    signer: &Signer,
    request: &mut reqwest::Request,
    options: HttpOptions,
) -> Result<Trace, HttpError> {
    let trace = authorize(
        signer,
        request.method(),
        request.url().as_str(),
        request.headers(),
        request.body().map_or(Some(&[][..]), BodyBytes::body_bytes),
        options,
        Flow::default(),
        Signer::trace,
    )?;
    transmit_reqwest(request, &trace.signed, options.transmission())?;
    Ok(trace)
}

/// A `reqwest_middleware` layer that signs every request.
///
/// A [`Signer`] in a request's extensions (`.with_extension(signer)` on the
/// request builder) signs that request instead of the middleware's own: one
/// client can act for many accounts. Errors come back as
/// `reqwest_middleware::Error::Middleware` wrapping an [`HttpError`], whose
/// message names no secret.
///
/// **Redirects.** The middleware sits above reqwest, whose own redirect
/// handling it cannot see: build the client with [`client_builder`]
/// (`redirect::Policy::none()`), and the middleware follows redirects
/// itself: one to the same origin is signed afresh for its new URL (method
/// and body as RFC 9110 §15.4 says for each code), up to
/// [`with_redirect_limit`](OAuth1Middleware::with_redirect_limit) of them;
/// one to another origin is never signed for nor followed, and comes back as
/// a [`RedirectError::CrossOrigin`](crate::client::RedirectError::CrossOrigin)
/// naming its `Location`. Given a client that follows redirects itself, the
/// middleware answers [`RedirectError::FollowedByClient`](crate::client::RedirectError::FollowedByClient)
/// rather than a response to a stale (or missing) signature. A request
/// whose body is a stream is not followed: its 3xx comes back.
///
/// **A clock that is off** is the one cause of a refusal a client can mend
/// by itself: with [`with_clock_skew_correction`](OAuth1Middleware::with_clock_skew_correction),
/// a request whose timestamp the provider refuses is signed again, once,
/// with the offset its answer's `Date` gives, and the offset is kept for
/// the requests that follow.
///
/// ```no_run
/// use oauth1_signer::{Credentials, Signer, client::{client_builder, OAuth1Middleware}};
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let signer = Signer::new(Credentials::new("key", "secret").with_token("token", "token secret"));
/// let client = reqwest_middleware::ClientBuilder::new(client_builder().build()?)
///     .with(OAuth1Middleware::new(signer))
///     .build();
/// let me = client.get("https://api.x.com/2/users/me").send().await?;
/// # let _ = me; Ok(()) }
/// ```
///
/// [`client_builder`]: crate::client::client_builder
#[derive(Clone)]
pub struct OAuth1Middleware {
    signer: Option<Signer>,
    options: HttpOptions,
    redirect_limit: usize,
    /// The clock offset learned, when correction is on; shared by clones.
    skew: Option<Arc<ClockSkew>>,
}

impl fmt::Debug for OAuth1Middleware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The signer's Debug redacts its secrets.
        f.debug_struct("OAuth1Middleware")
            .field("signer", &self.signer)
            .field("options", &self.options)
            .field("redirect_limit", &self.redirect_limit)
            .field("clock_skew_correction", &self.skew.is_some())
            .field("clock_offset", &self.clock_offset())
            .finish()
    }
}

impl OAuth1Middleware {
    /// Signs every request with `signer`, unless the request carries its own.
    pub fn new(signer: Signer) -> OAuth1Middleware {
        OAuth1Middleware {
            signer: Some(signer),
            options: HttpOptions::new(),
            redirect_limit: DEFAULT_REDIRECT_LIMIT,
            skew: None,
        }
    }

    /// Signs each request with the [`Signer`] in its extensions; a request
    /// without one is an error ([`MissingSigner`]), never sent unsigned.
    pub fn per_request() -> OAuth1Middleware {
        OAuth1Middleware {
            signer: None,
            options: HttpOptions::new(),
            redirect_limit: DEFAULT_REDIRECT_LIMIT,
            skew: None,
        }
    }

    /// Signs with these options (`oauth_body_hash`, say).
    pub fn with_options(mut self, options: HttpOptions) -> OAuth1Middleware {
        self.options = options;
        self
    }

    /// Follows up to `limit` redirects to the same origin, each signed
    /// afresh (10 by default); `0` follows none, and a redirect is then a
    /// [`RedirectError::TooMany`](crate::client::RedirectError::TooMany).
    pub fn with_redirect_limit(mut self, limit: usize) -> OAuth1Middleware {
        self.redirect_limit = limit;
        self
    }

    /// Whether to correct the local clock from the provider's answers
    /// (off by default), as the AWS SDKs correct clock skew.
    ///
    /// When on, an answer that refuses a request's timestamp (X's error
    /// code 135, "Timestamp out of bounds", or OAuth Problem Reporting's
    /// `oauth_problem=timestamp_refused`, read by
    /// [`capture::read_answer`](crate::capture::read_answer)) and carries a
    /// `Date` header (RFC 9110 §6.6.1) gives the offset between the
    /// provider's clock and the local one; the request is then signed again
    /// with that offset and sent once more, and the offset is kept for
    /// every later request of this middleware and its clones
    /// ([`clock_offset`](Self::clock_offset)). Each correction is a
    /// `tracing` event (target `oauth1_signer::client`, level `WARN`)
    /// naming the offset, the status, the error and the `Date` it was read
    /// from, and the host.
    ///
    /// A request is sent again at most once, and only for this cause: not
    /// for any other refusal (a bad signature, an unknown token), not when
    /// the answer has no `Date` or the offset it gives is the one already
    /// used, not when the request's body is a stream (it cannot be sent
    /// twice), not when the signer's timestamp is pinned or omitted, and
    /// not when the refusal's body is over 64 KiB or of unknown length (a
    /// refusal's body is read to tell its cause, and given back whole).
    pub fn with_clock_skew_correction(mut self, on: bool) -> OAuth1Middleware {
        self.skew = on.then(|| self.skew.take().unwrap_or_default());
        self
    }

    /// The clock offset learned from the provider's answers, in seconds
    /// added to the local clock (negative when it is ahead); `None` before
    /// any answer gave one, and without
    /// [`with_clock_skew_correction`](Self::with_clock_skew_correction).
    pub fn clock_offset(&self) -> Option<i64> {
        self.skew.as_ref().and_then(|s| s.offset())
    }

    /// The signer for a request: the one in `extensions`, else ours.
    fn signer<'s>(&'s self, extensions: &'s Extensions) -> reqwest_middleware::Result<&'s Signer> {
        extensions
            .get::<Signer>()
            .or(self.signer.as_ref())
            .ok_or_else(|| reqwest_middleware::Error::middleware(MissingSigner))
    }

    /// Signs `request` as this middleware would: with the [`Signer`] in
    /// `extensions` if there is one, else the middleware's own, and with
    /// the clock offset learned, if any.
    ///
    /// # Errors
    /// As [`sign_reqwest_request`], wrapped; [`MissingSigner`] when there is
    /// no signer to use.
    pub fn sign(
        &self,
        request: &mut reqwest::Request,
        extensions: &Extensions,
    ) -> Result<(), reqwest_middleware::Error> {
        let signer = self.signer(extensions)?;
        sign_at_offset(
            signer,
            request,
            self.options,
            Flow::default(),
            self.clock_offset(),
        )
        .map_err(reqwest_middleware::Error::middleware)
    }
}

#[async_trait::async_trait]
impl Middleware for OAuth1Middleware {
    async fn handle(
        &self,
        mut req: reqwest::Request,
        extensions: &mut Extensions,
        next: Next<'_>,
    ) -> reqwest_middleware::Result<reqwest::Response> {
        // Signed here, on every attempt and every hop: each gets a fresh
        // nonce, and a redirect a signature for its own URL.
        let mut redirects = Redirects::with_limit(self.redirect_limit);
        // One correction of the clock per request, redirects included.
        let mut corrected = false;
        loop {
            // The request as given, before the protocol parameters join its
            // header, query or body: a redirect is made of it, and signed
            // afresh.
            let unsigned = req.try_clone();
            let signer = self.signer(extensions)?;
            // The offset this attempt is signed with, and whether the
            // signer makes the timestamp (a pinned one no offset moves).
            let used = self.clock_offset().unwrap_or_else(|| signer.clock_offset());
            let movable = signer.makes_timestamps();
            self.sign(&mut req, extensions)?;
            // The URL as sent (with the query transmission, the protocol
            // parameters in it): a response for another came from a
            // redirect the client followed itself.
            let sent_url = req.url().clone();
            let response = next.clone().run(req, extensions).await?;
            let Some(mut sent) = unsigned else {
                return Ok(response);
            };
            let response = match &self.skew {
                Some(skew) if movable && !corrected => {
                    let (response, refused) = read_refusal(response).await?;
                    match refused.filter(|r| r.offset != used) {
                        Some(refused) => {
                            tracing::warn!(
                                target: "oauth1_signer::client",
                                offset = refused.offset,
                                previous = used,
                                status = refused.status,
                                error = refused.key,
                                date = %refused.date,
                                host = sent.url().host_str().unwrap_or(""),
                                "the provider refused the timestamp: the local clock is off by \
                                 the offset its Date gives; signing again with it, and keeping \
                                 it for the requests that follow"
                            );
                            skew.keep(refused.offset);
                            corrected = true;
                            // The same request, signed afresh: a new nonce,
                            // the corrected timestamp.
                            req = sent;
                            continue;
                        }
                        None => response,
                    }
                }
                _ => response,
            };
            *sent.url_mut() = sent_url;
            match redirects
                .follow(sent, &response)
                .map_err(reqwest_middleware::Error::middleware)?
            {
                Some(hop) => req = hop,
                None => return Ok(response),
            }
        }
    }
}

/// A request reached an [`OAuth1Middleware::per_request`] middleware with no
/// [`Signer`] in its extensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MissingSigner;

impl fmt::Display for MissingSigner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "cannot sign the request: no oauth1_signer::Signer in its extensions \
             (add one with .with_extension(signer))",
        )
    }
}

impl std::error::Error for MissingSigner {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::credentials::Credentials;

    fn signer(key: &str) -> Signer {
        Signer::builder(Credentials::new(key, "consumer-SECRET").with_token("tk", "token-SECRET"))
            .with_nonce("nonce")
            .with_timestamp("1")
            .build()
            .unwrap()
    }

    fn request(url: &str) -> reqwest::Request {
        reqwest::Request::new(reqwest::Method::GET, reqwest::Url::parse(url).unwrap())
    }

    #[test]
    fn a_request_is_signed_as_the_string_api_signs_what_reqwest_sends() {
        // reqwest (url) sends '|' raw in a query, and a space as %20.
        let mut req = request("https://api.x.com/2/tweets?ids=1|2&q=a b");
        assert_eq!(
            req.url().as_str(),
            "https://api.x.com/2/tweets?ids=1|2&q=a%20b"
        );
        sign_reqwest_request(&signer("ck"), &mut req, HttpOptions::new()).unwrap();
        let want = signer("ck")
            .authorization_header(&crate::OAuthRequest::get(
                "https://api.x.com/2/tweets?ids=1%7C2&q=a%20b",
            ))
            .unwrap();
        assert_eq!(req.headers()["authorization"].to_str().unwrap(), want);
        assert!(req.headers()["authorization"].is_sensitive());
    }

    #[test]
    fn debug_names_the_configuration_and_no_secret() {
        let shown = format!("{:?}", OAuth1Middleware::new(signer("ck")));
        assert!(shown.starts_with("OAuth1Middleware {"), "{shown}");
        assert!(shown.contains("redirect_limit: 10"), "{shown}");
        assert!(!shown.contains("SECRET"), "{shown}");
    }

    #[test]
    fn the_extensions_signer_wins_and_none_at_all_is_an_error() {
        let shared = OAuth1Middleware::new(signer("default"));
        let mut ext = Extensions::new();
        let mut req = request("https://h/");
        shared.sign(&mut req, &ext).unwrap();
        assert!(req.headers()["authorization"]
            .to_str()
            .unwrap()
            .contains("oauth_consumer_key=\"default\""));
        ext.insert(signer("account-2"));
        shared.sign(&mut req, &ext).unwrap();
        assert!(req.headers()["authorization"]
            .to_str()
            .unwrap()
            .contains("oauth_consumer_key=\"account-2\""));
        let e = OAuth1Middleware::per_request()
            .sign(&mut request("https://h/"), &Extensions::new())
            .unwrap_err();
        assert!(e.is_middleware());
        assert!(e.to_string().contains("no oauth1_signer::Signer"), "{e}");
    }

    #[test]
    fn a_form_stream_is_an_error_that_names_no_secret() {
        let mut req = request("https://h/");
        req.headers_mut().insert(
            "content-type",
            http::HeaderValue::from_static("application/x-www-form-urlencoded"),
        );
        *req.body_mut() = Some(reqwest::Body::wrap(StreamBody));
        let e = OAuth1Middleware::new(signer("ck"))
            .sign(&mut req, &Extensions::new())
            .unwrap_err();
        assert!(e.to_string().contains("is a stream"), "{e}");
        assert!(!format!("{e} {e:?}").contains("SECRET"));
    }

    /// A body that is a stream (reqwest cannot show its bytes).
    struct StreamBody;
    impl http_body::Body for StreamBody {
        type Data = bytes::Bytes;
        type Error = std::io::Error;
        fn poll_frame(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Result<http_body::Frame<bytes::Bytes>, std::io::Error>>>
        {
            std::task::Poll::Ready(None)
        }
    }
}
