//! Verifying an `http::Request` (feature `http`): the one function the
//! tower layer and a server's own handlers call.
//!
//! The URI is the request's (an origin-form `/path?query` is joined to the
//! verifier's public base URL); the `Authorization` and `Content-Type`
//! headers must each be there at most once (RFC 9110 §5.3: a proxy may
//! join or split repeated fields, and a verifier must read what the client
//! signed); `Forwarded`, or `X-Forwarded-Proto` and `X-Forwarded-Host`,
//! are read only by a verifier told its proxy writes that family, at their
//! last value.

use http::header::{HeaderName, AUTHORIZATION, FORWARDED};
use http::request::Parts;
use http::{HeaderMap, Method, Uri};

use crate::client::http_request::{is_form, HttpError};
use crate::error::{Error, Part};
use crate::text::scan::find_non_field_byte;
use crate::verify::nonce::NonceStore;
use crate::verify::reason::{Reason, Rejection};
use crate::verify::received::Received;
use crate::verify::secrets::SecretSource;
use crate::verify::verified::Verified;
use crate::verify::verifier::Verifier;

const X_FORWARDED_PROTO: HeaderName = HeaderName::from_static("x-forwarded-proto");
const X_FORWARDED_HOST: HeaderName = HeaderName::from_static("x-forwarded-host");

impl<'a> Received<'a> {
    /// The request `method uri` with `headers` and `body`, as an HTTP
    /// server received it.
    ///
    /// # Errors
    /// [`Reason::AmbiguousHeader`] for a repeated `Authorization` or
    /// `Content-Type`; [`Reason::Malformed`] for an `Authorization` header
    /// that is not visible ASCII, at its first other byte, and for a
    /// `Content-Type` that only looks like the form's
    /// ([`ErrorKind::AmbiguousMediaType`](crate::ErrorKind::AmbiguousMediaType),
    /// answered 415).
    pub fn from_http(
        method: &'a Method,
        uri: &'a Uri,
        headers: &'a HeaderMap,
        body: &'a [u8],
    ) -> Result<Received<'a>, Rejection> {
        let url: std::borrow::Cow<'a, str> = match (uri.scheme(), uri.path_and_query()) {
            (Some(_), _) => uri.to_string().into(),
            (None, Some(pq)) => pq.as_str().into(),
            (None, None) => "/".into(),
        };
        let form = is_form(headers).map_err(|e| match e {
            HttpError::AmbiguousHeader { name } => Reason::AmbiguousHeader { name },
            // A media type that only looks like the form's.
            HttpError::Sign(e) => Reason::Malformed(e),
            _ => Reason::AmbiguousHeader {
                name: "Content-Type",
            },
        })?;
        let mut received = Received::new(method.as_str(), url).body_as(form, body);
        let mut authorization = headers.get_all(AUTHORIZATION).iter();
        if let Some(value) = authorization.next() {
            if authorization.next().is_some() {
                return Err(Reason::AmbiguousHeader {
                    name: "Authorization",
                }
                .into());
            }
            // `to_str` accepts what `is_field_byte` does (RFC 9110 §5.5:
            // visible ASCII, spaces and tabs), which finds where it failed.
            let text = value.to_str().map_err(|_| {
                let bytes = value.as_bytes();
                let at = find_non_field_byte(bytes).unwrap_or(0);
                Reason::Malformed(Error::invalid_byte(
                    Part::Header,
                    at,
                    bytes.get(at).copied().unwrap_or(0),
                    "visible ASCII (an Authorization header's parameters are percent-encoded)",
                ))
            })?;
            received = received.authorization_header(text);
        }
        // The last line of each: a proxy that adds a line rather than
        // appending to the one it received puts its own value last.
        let text = |name: &HeaderName| {
            headers
                .get_all(name)
                .iter()
                .next_back()
                .and_then(|v| v.to_str().ok())
        };
        Ok(received
            .forwarded(text(&X_FORWARDED_PROTO), text(&X_FORWARDED_HOST))
            .forwarded_header(text(&FORWARDED)))
    }

    /// [`from_http`](Self::from_http) of a request's head and its body.
    ///
    /// # Errors
    /// As [`from_http`](Self::from_http).
    pub fn from_parts(parts: &'a Parts, body: &'a [u8]) -> Result<Received<'a>, Rejection> {
        Received::from_http(&parts.method, &parts.uri, &parts.headers, body)
    }
}

impl<S: SecretSource, N: NonceStore> Verifier<S, N> {
    /// Verifies an `http::Request` whose body is in memory, now.
    ///
    /// ```
    /// use oauth1_signer::verify::{MemoryNonceStore, StaticSecrets, Verifier};
    /// use oauth1_signer::{Credentials, OAuthRequest, Signer};
    ///
    /// let credentials = Credentials::new("key", "secret");
    /// let header = Signer::new(credentials.clone())
    ///     .authorization_header(&OAuthRequest::get("https://api.example.com/photos?size=original"))?;
    /// // What the server receives: the path and query, and the header.
    /// let request = http::Request::get("/photos?size=original")
    ///     .header("authorization", header)
    ///     .body(Vec::<u8>::new())?;
    /// let verifier = Verifier::builder(StaticSecrets::new(credentials), MemoryNonceStore::with_capacity(100_000))
    ///     .public_base_url("https://api.example.com")
    ///     .build()?;
    /// let runtime = tokio::runtime::Builder::new_current_thread().build()?;
    /// let verified = runtime.block_on(verifier.verify_http(&request))?;
    /// assert_eq!(verified.consumer_key(), "key");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Received::from_http`] and [`Verifier::verify`].
    pub async fn verify_http<B: AsRef<[u8]>>(
        &self,
        request: &http::Request<B>,
    ) -> Result<Verified, Rejection> {
        self.verify_http_at(request, self.now()).await
    }

    /// [`verify_http`](Self::verify_http) as of `now_unix`.
    ///
    /// # Errors
    /// As [`verify_http`](Self::verify_http).
    pub async fn verify_http_at<B: AsRef<[u8]>>(
        &self,
        request: &http::Request<B>,
        now_unix: u64,
    ) -> Result<Verified, Rejection> {
        let received = Received::from_http(
            request.method(),
            request.uri(),
            request.headers(),
            request.body().as_ref(),
        )?;
        self.verify_at(&received, now_unix).await
    }
}
