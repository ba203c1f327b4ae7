//! Redirects at the reqwest edge: a signature is made for one URL, with a
//! nonce used once (RFC 5849 §3.3, §3.4.1.2), so a redirect is either
//! re-signed for its new URL or not followed.
//!
//! [`Redirects::follow`] decides, response by response, as [RFC 9110 §15.4]
//! says for each code: `301` and `302` turn a `POST` into a `GET` without a
//! body (as browsers and reqwest do), `303` turns anything but `HEAD` into a
//! `GET` without a body, `307` and `308` keep the method and the body. A
//! redirect to another origin (scheme, host or port) is never followed: the
//! caller is told its `Location` ([`RedirectError::CrossOrigin`]), since the
//! credentials were not meant for that origin, and a request sent there
//! unsigned (what reqwest does when it drops `Authorization` across hosts)
//! is not the request the user asked for.
//!
//! reqwest's own redirect handling would resend the first signature, so a
//! client that signs must leave redirects to this module:
//! [`client_builder`] gives a `reqwest::ClientBuilder` with
//! `redirect::Policy::none()`.
//!
//! [RFC 9110 §15.4]: https://www.rfc-editor.org/rfc/rfc9110#section-15.4

use std::fmt;

use reqwest::header::{
    HeaderMap, AUTHORIZATION, CONTENT_ENCODING, CONTENT_LENGTH, CONTENT_TYPE, LOCATION,
    TRANSFER_ENCODING,
};
use reqwest::{Method, StatusCode};

use crate::text::printable::escape_controls;

/// How many redirects are followed by default: reqwest's own limit.
pub const DEFAULT_REDIRECT_LIMIT: usize = 10;

/// A `reqwest::ClientBuilder` that leaves redirects to this crate
/// (`redirect::Policy::none()`): the client to give [`OAuth1Middleware`]
/// or the three-legged flow, which re-sign a redirect to the same origin
/// and refuse one to another.
///
/// ```
/// let client = oauth1_signer::client::client_builder()
///     .timeout(std::time::Duration::from_secs(30))
///     .build()?;
/// # let _ = client;
/// # Ok::<(), reqwest::Error>(())
/// ```
///
/// [`OAuth1Middleware`]: crate::client::middleware::OAuth1Middleware
pub fn client_builder() -> reqwest::ClientBuilder {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none())
}

/// Counts the redirects of one request and builds the next hop of each.
///
/// ```
/// use oauth1_signer::client::Redirects;
///
/// # async fn run(client: reqwest::Client, signer: oauth1_signer::Signer) -> Result<(), Box<dyn std::error::Error>> {
/// let mut redirects = Redirects::new();
/// let mut request = client.get("https://api.x.com/2/users/me").build()?;
/// let response = loop {
///     oauth1_signer::client::sign_reqwest_request(&signer, &mut request, Default::default())?;
///     let sent = request.try_clone();
///     let response = client.execute(request).await?;
///     match sent.map(|sent| redirects.follow(sent, &response)).transpose()?.flatten() {
///         Some(next) => request = next,
///         None => break response,
///     }
/// };
/// # let _ = response; Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Redirects {
    limit: usize,
    followed: usize,
}

impl Default for Redirects {
    fn default() -> Redirects {
        Redirects::new()
    }
}

impl Redirects {
    /// Follows up to [`DEFAULT_REDIRECT_LIMIT`] redirects.
    pub fn new() -> Redirects {
        Redirects::with_limit(DEFAULT_REDIRECT_LIMIT)
    }

    /// Follows up to `limit` redirects; `0` follows none (a redirect to
    /// the same origin is an error then too, naming its `Location`).
    pub fn with_limit(limit: usize) -> Redirects {
        Redirects { limit, followed: 0 }
    }

    /// How many redirects have been followed.
    pub fn followed(&self) -> usize {
        self.followed
    }

    /// The next request after `response`, or `None` when `response` is the
    /// answer (not a `301`, `302`, `303`, `307` or `308`, or one with no
    /// `Location`). `sent` is a copy of the request as it was sent
    /// (`request.try_clone()` before sending it; a request whose body is a
    /// stream cannot be copied, and so cannot be followed); it becomes the
    /// next request, which has no `Authorization` header: sign it before
    /// sending it.
    ///
    /// # Errors
    /// [`RedirectError::CrossOrigin`] for a `Location` on another origin;
    /// [`RedirectError::TooMany`] past the limit;
    /// [`RedirectError::BadLocation`] for a `Location` that is not a URL;
    /// [`RedirectError::FollowedByClient`] when the response is not for the
    /// URL sent: the HTTP client followed a redirect itself, with the first
    /// signature.
    pub fn follow(
        &mut self,
        sent: reqwest::Request,
        response: &reqwest::Response,
    ) -> Result<Option<reqwest::Request>, RedirectError> {
        // A response made by a middleware from an `http::Response` has
        // reqwest's placeholder URL: only a real one can show a redirect.
        // A fragment is never sent, and not part of the response's URL.
        let placeholder = response.url().host_str() == Some("no.url.provided.local");
        let unfragmented = |url: &reqwest::Url| {
            let mut url = url.clone();
            url.set_fragment(None);
            url
        };
        if unfragmented(response.url()) != unfragmented(sent.url()) && !placeholder {
            return Err(RedirectError::FollowedByClient {
                url: response.url().to_string(),
            });
        }
        self.next(sent, response.status(), response.headers())
    }

    /// As [`follow`](Redirects::follow), from a response's status and headers.
    ///
    /// # Errors
    /// As [`follow`](Redirects::follow), but for `FollowedByClient`.
    pub fn next(
        &mut self,
        sent: reqwest::Request,
        status: StatusCode,
        headers: &HeaderMap,
    ) -> Result<Option<reqwest::Request>, RedirectError> {
        let keeps_body = match status {
            StatusCode::MOVED_PERMANENTLY | StatusCode::FOUND => sent.method() != Method::POST,
            StatusCode::SEE_OTHER => false,
            StatusCode::TEMPORARY_REDIRECT | StatusCode::PERMANENT_REDIRECT => true,
            _ => return Ok(None),
        };
        let Some(location) = headers.get(LOCATION) else {
            return Ok(None);
        };
        let bad = || RedirectError::BadLocation {
            // It comes from the server.
            location: escape_controls(location.as_bytes(), &[]),
        };
        let url = std::str::from_utf8(location.as_bytes())
            .ok()
            .and_then(|text| sent.url().join(text).ok())
            .ok_or_else(bad)?;
        if url.origin() != sent.url().origin() {
            return Err(RedirectError::CrossOrigin {
                status: status.as_u16(),
                location: url.to_string(),
            });
        }
        if self.followed >= self.limit {
            return Err(RedirectError::TooMany {
                limit: self.limit,
                location: url.to_string(),
            });
        }
        self.followed += 1;
        let method = match (status, sent.method()) {
            (_, m) if keeps_body => m.clone(),
            (StatusCode::SEE_OTHER, &Method::HEAD) => Method::HEAD,
            _ => Method::GET,
        };
        let mut next = sent;
        *next.method_mut() = method;
        *next.url_mut() = url;
        let headers = next.headers_mut();
        headers.remove(AUTHORIZATION);
        if !keeps_body {
            for name in [
                CONTENT_TYPE,
                CONTENT_LENGTH,
                CONTENT_ENCODING,
                TRANSFER_ENCODING,
            ] {
                headers.remove(name);
            }
            *next.body_mut() = None;
        }
        Ok(Some(next))
    }
}

/// Why a redirect was not followed. The `Location` is shown resolved
/// against the request's URL.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RedirectError {
    /// The server redirected to another origin (scheme, host or port); the
    /// request was not signed for it, nor sent there.
    CrossOrigin {
        /// The redirect's status code.
        status: u16,
        /// Where it pointed.
        location: String,
    },
    /// More redirects than the limit.
    TooMany {
        /// The limit.
        limit: usize,
        /// Where the one past the limit pointed.
        location: String,
    },
    /// The `Location` header is not a URL (escaped as it came).
    BadLocation {
        /// What it said.
        location: String,
    },
    /// The HTTP client followed a redirect itself (to `url`), resending the
    /// first signature or none at all; build it with [`client_builder`].
    FollowedByClient {
        /// Where the client ended up.
        url: String,
    },
}

impl RedirectError {
    /// The `Location` (or URL) the error names.
    pub fn location(&self) -> &str {
        match self {
            RedirectError::CrossOrigin { location, .. }
            | RedirectError::TooMany { location, .. }
            | RedirectError::BadLocation { location } => location,
            RedirectError::FollowedByClient { url } => url,
        }
    }
}

impl fmt::Display for RedirectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RedirectError::CrossOrigin { status, location } => write!(
                f,
                "redirect ({status}) to another origin not followed: Location: {location} \
                 (the request is not signed for it; send it there yourself if you trust it)"
            ),
            RedirectError::TooMany { limit, location } => write!(
                f,
                "too many redirects (more than {limit}); the next was Location: {location}"
            ),
            RedirectError::BadLocation { location } => {
                write!(
                    f,
                    "redirect to a Location that is not a URL: \"{location}\""
                )
            }
            RedirectError::FollowedByClient { url } => write!(
                f,
                "the reqwest client followed a redirect itself, to {url}, with a stale \
                 signature or none; build it with oauth1_signer::client::client_builder() \
                 (redirect::Policy::none()) and let the signer follow redirects"
            ),
        }
    }
}

impl std::error::Error for RedirectError {}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn request(method: Method, url: &str, body: Option<&'static str>) -> reqwest::Request {
        let mut r = reqwest::Request::new(method, reqwest::Url::parse(url).unwrap());
        r.headers_mut()
            .insert(AUTHORIZATION, HeaderValue::from_static("OAuth stale"));
        if let Some(body) = body {
            r.headers_mut()
                .insert(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
            *r.body_mut() = Some(body.into());
        }
        r
    }

    fn location(to: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(LOCATION, HeaderValue::from_static(to));
        h
    }

    fn next(status: u16, sent: &reqwest::Request, to: &'static str) -> reqwest::Request {
        Redirects::new()
            .next(
                sent.try_clone().unwrap(),
                StatusCode::from_u16(status).unwrap(),
                &location(to),
            )
            .unwrap()
            .unwrap()
    }

    #[test]
    fn each_code_keeps_or_drops_the_method_and_body_as_rfc_9110_says() {
        let post = request(Method::POST, "https://h/a?x=1", Some("body"));
        let put = request(Method::PUT, "https://h/a", Some("body"));
        let head = request(Method::HEAD, "https://h/a", None);
        // (status, sent, method after, body kept)
        for (status, sent, method, kept) in [
            (301, &post, Method::GET, false),
            (302, &post, Method::GET, false),
            (303, &post, Method::GET, false),
            (307, &post, Method::POST, true),
            (308, &post, Method::POST, true),
            (301, &put, Method::PUT, true),
            (302, &put, Method::PUT, true),
            (303, &put, Method::GET, false),
            (303, &head, Method::HEAD, false),
        ] {
            let n = next(status, sent, "/b?y=2");
            assert_eq!(n.url().as_str(), "https://h/b?y=2");
            assert_eq!(n.method(), method, "{status} {}", sent.method());
            assert!(n.headers().get(AUTHORIZATION).is_none(), "{status}");
            let body = n.body().and_then(reqwest::Body::as_bytes);
            assert_eq!(body.is_some(), kept, "{status} {}", sent.method());
            assert_eq!(n.headers().get(CONTENT_TYPE).is_some(), kept, "{status}");
        }
    }

    #[test]
    fn another_origin_is_refused_and_named() {
        let sent = request(Method::GET, "http://127.0.0.1:8080/a", None);
        for (to, want) in [
            ("http://localhost:8080/a", "http://localhost:8080/a"),
            ("http://127.0.0.1:8081/a", "http://127.0.0.1:8081/a"),
            ("https://127.0.0.1:8080/a", "https://127.0.0.1:8080/a"),
            ("//api.x.com/2", "http://api.x.com/2"),
        ] {
            let e = Redirects::new()
                .next(
                    sent.try_clone().unwrap(),
                    StatusCode::TEMPORARY_REDIRECT,
                    &location(to),
                )
                .unwrap_err();
            assert_eq!(
                e,
                RedirectError::CrossOrigin {
                    status: 307,
                    location: want.into()
                }
            );
            assert!(e.to_string().contains(want), "{e}");
        }
        // The default port is the same origin.
        let sent = request(Method::GET, "https://h/a", None);
        assert_eq!(
            next(308, &sent, "https://h:443/b").url().as_str(),
            "https://h/b"
        );
    }

    #[test]
    fn the_limit_is_counted_and_other_statuses_are_answers() {
        let sent = request(Method::GET, "https://h/a", None);
        let mut r = Redirects::with_limit(2);
        for followed in 0..2 {
            assert_eq!(r.followed(), followed);
            assert!(r
                .next(
                    sent.try_clone().unwrap(),
                    StatusCode::FOUND,
                    &location("/a")
                )
                .unwrap()
                .is_some());
        }
        assert_eq!(
            r.next(
                sent.try_clone().unwrap(),
                StatusCode::FOUND,
                &location("/a")
            )
            .unwrap_err(),
            RedirectError::TooMany {
                limit: 2,
                location: "https://h/a".into()
            }
        );
        // The one refused is not counted as followed.
        assert_eq!(r.followed(), 2);
        for status in [200, 300, 304, 305, 401] {
            let status = StatusCode::from_u16(status).unwrap();
            assert!(Redirects::new()
                .next(sent.try_clone().unwrap(), status, &location("/b"))
                .unwrap()
                .is_none());
        }
        assert!(Redirects::new()
            .next(
                sent.try_clone().unwrap(),
                StatusCode::FOUND,
                &HeaderMap::new()
            )
            .unwrap()
            .is_none());
        let mut bad = HeaderMap::new();
        bad.insert(LOCATION, HeaderValue::from_bytes(b"http://[x\xff").unwrap());
        let e = Redirects::new()
            .next(sent.try_clone().unwrap(), StatusCode::FOUND, &bad)
            .unwrap_err();
        assert_eq!(e.location(), r"http://[x\xff");
    }
}
