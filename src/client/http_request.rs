//! Signing `http::Request`s in place: the edge between the pipeline and an
//! HTTP stack ([RFC 5849 §3.4.1], §3.5.1).
//!
//! The request is signed exactly as it will be sent: its method, its URI as
//! the `http` type serialises it (see `url::sent_url` for the bytes such a URI
//! sends raw), its query always, its body only when the `Content-Type` is
//! `application/x-www-form-urlencoded` (§3.4.1.3.1). A JSON, multipart or
//! binary body is not signed, as the X API v2 expects; with
//! [`HttpOptions::with_body_hash`] ([`BodyHash`]) it is covered by `oauth_body_hash` (the
//! [OAuth Request Body Hash] extension) instead. A form body that cannot be
//! read without sending it (a stream) is an error, never a request signed
//! without it. The header is added by [`Signer`], through the one pipeline.
//!
//! What the signer and the server could read differently is refused rather
//! than guessed at: more than one `Content-Type` (two headers, or one holding
//! a list), a scheme other than http or https, a URL longer than an HTTP
//! client can send. The media type is read from the header's bytes, so a
//! parameter that is not text (`; charset=ü`) does not hide a form body.
//!
//! [RFC 5849 §3.4.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1
//! [OAuth Request Body Hash]: https://oauth.googlecode.com/svn/spec/ext/body_hash/1.0/oauth-bodyhash.html

use std::fmt;

use http::header::{AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE};
use http::{HeaderMap, HeaderValue, Method};

use crate::error::{Error, ErrorKind};
use crate::pipeline::body_hash::BodyHash;
use crate::pipeline::protocol::{Name, Transmission};
use crate::pipeline::request::{is_form_media_type, OAuthRequest};
use crate::pipeline::signed::{Placed, Signed, Trace};
use crate::pipeline::signer::Signer;
use crate::pipeline::style::{ParameterStyle, MASTERCARD_HEADER_ONLY};
use crate::pipeline::url::sent_url;
use crate::provider::Profile;

/// A request body whose bytes can be read without consuming it.
///
/// `None` means the body is a stream: it cannot be signed, and a form body
/// or a body hash that needs it is an error. Implement it for your own body
/// type if it holds its bytes.
///
/// ```
/// use oauth1_signer::client::BodyBytes;
///
/// assert_eq!(().body_bytes(), Some(&b""[..]));
/// assert_eq!("a=1".body_bytes(), Some(&b"a=1"[..]));
/// ```
pub trait BodyBytes {
    /// The body's bytes, or `None` for a body that is a stream.
    fn body_bytes(&self) -> Option<&[u8]>;

    /// Replaces the body with `bytes`, for the form-body transmission
    /// (RFC 5849 §3.5.2), which adds the protocol parameters to the body;
    /// false (the default) for a body type that cannot be replaced.
    fn set_body_bytes(&mut self, bytes: Vec<u8>) -> bool {
        let _ = bytes;
        false
    }
}

impl BodyBytes for () {
    fn body_bytes(&self) -> Option<&[u8]> {
        Some(&[])
    }
}

impl BodyBytes for Vec<u8> {
    fn body_bytes(&self) -> Option<&[u8]> {
        Some(self)
    }

    fn set_body_bytes(&mut self, bytes: Vec<u8>) -> bool {
        *self = bytes;
        true
    }
}

impl BodyBytes for String {
    fn body_bytes(&self) -> Option<&[u8]> {
        Some(self.as_bytes())
    }

    fn set_body_bytes(&mut self, bytes: Vec<u8>) -> bool {
        match String::from_utf8(bytes) {
            Ok(text) => {
                *self = text;
                true
            }
            Err(_) => false,
        }
    }
}

impl BodyBytes for &[u8] {
    fn body_bytes(&self) -> Option<&[u8]> {
        Some(self)
    }
}

impl BodyBytes for &str {
    fn body_bytes(&self) -> Option<&[u8]> {
        Some(self.as_bytes())
    }
}

impl BodyBytes for bytes::Bytes {
    fn body_bytes(&self) -> Option<&[u8]> {
        Some(self)
    }

    fn set_body_bytes(&mut self, bytes: Vec<u8>) -> bool {
        *self = bytes::Bytes::from(bytes);
        true
    }
}

/// How requests are signed at the HTTP edge. The default is what the X API
/// expects: the Authorization header, no `oauth_body_hash`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HttpOptions {
    body_hash: BodyHash,
    transmission: Transmission,
}

impl HttpOptions {
    /// The default options.
    pub fn new() -> HttpOptions {
        HttpOptions::default()
    }

    /// A provider profile's options: its transmission and body hash.
    ///
    /// ```
    /// use oauth1_signer::client::HttpOptions;
    /// use oauth1_signer::{Provider, Transmission};
    ///
    /// let options = HttpOptions::for_profile(&Provider::WooCommerce.profile());
    /// assert_eq!(options.transmission(), Transmission::Query);
    /// ```
    pub fn for_profile(profile: &Profile) -> HttpOptions {
        HttpOptions::new()
            .with_transmission(profile.transmission)
            .with_body_hash(profile.body_hash)
    }

    /// When to send `oauth_body_hash` and which hash (the [OAuth Request
    /// Body Hash] extension; never on a form-encoded body, whose parameters
    /// are signed already): [`BodyHash`]. Never by default: X does not use
    /// it.
    ///
    /// [OAuth Request Body Hash]: https://oauth.googlecode.com/svn/spec/ext/body_hash/1.0/oauth-bodyhash.html
    pub fn with_body_hash(mut self, body_hash: BodyHash) -> HttpOptions {
        self.body_hash = body_hash;
        self
    }

    /// When and how `oauth_body_hash` is sent.
    pub fn body_hash(&self) -> BodyHash {
        self.body_hash
    }

    /// Where the protocol parameters are sent (RFC 5849 §3.5): the
    /// `Authorization` header (the default), the query (§3.5.3: the URL
    /// gains them, as WooCommerce over plain HTTP wants), or the form body
    /// (§3.5.2: only a request whose body is
    /// `application/x-www-form-urlencoded`, as an LTI 1.1 launch is; the
    /// body type must be one whose bytes can be replaced,
    /// [`BodyBytes::set_body_bytes`]). Signed the same in all three.
    pub fn with_transmission(mut self, transmission: Transmission) -> HttpOptions {
        self.transmission = transmission;
        self
    }

    /// Where the protocol parameters are sent.
    pub fn transmission(&self) -> Transmission {
        self.transmission
    }
}

/// Why an HTTP request could not be signed. No variant carries a secret.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HttpError {
    /// The pipeline refused the request: its URI (a relative one too), its
    /// method or its form body; the [`Error`] says what and where.
    Sign(Error),
    /// The body is a stream, so it cannot be read to be signed: a form body
    /// (`form: true`), or any body when `oauth_body_hash` is on.
    UnreadableBody {
        /// Whether the body is form-encoded (its parameters must be signed).
        form: bool,
    },
    /// The URL is longer than an HTTP request URI can be: `http::Uri`, and
    /// so hyper and reqwest, hold at most `max` bytes, so no client could
    /// send it. (Only a `reqwest::Request`'s URL can be this long.)
    UriTooLong {
        /// The URL's length in bytes.
        len: usize,
        /// The most an HTTP request URI holds ([`HttpError::URI_MAX_LEN`]).
        max: usize,
    },
    /// A header that decides what is signed is there more than once (two
    /// `Content-Type` headers, or one whose value is a list): a server may
    /// read another value than the signer did.
    AmbiguousHeader {
        /// The header's name.
        name: &'static str,
    },
    /// The form-body transmission (§3.5.2) for a request whose body is not
    /// `application/x-www-form-urlencoded`: there is no form to add the
    /// protocol parameters to.
    NotAForm,
    /// The form-body transmission for a body type whose bytes cannot be
    /// replaced ([`BodyBytes::set_body_bytes`]).
    UnwritableBody,
}

impl HttpError {
    /// The longest URI an `http::Uri` holds (its own limit, `u16::MAX - 1`
    /// bytes); a longer URL is refused as [`HttpError::UriTooLong`].
    pub const URI_MAX_LEN: usize = u16::MAX as usize - 1;
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The cause is the source: a reporter prints each once.
            HttpError::Sign(_) => f.write_str("cannot sign the request"),
            HttpError::UnreadableBody { form: true } => f.write_str(
                "cannot sign the request: its application/x-www-form-urlencoded body is a \
                 stream, and its parameters must be signed; give the body as bytes",
            ),
            HttpError::UnreadableBody { form: false } => f.write_str(
                "cannot sign the request: its body is a stream, and oauth_body_hash needs \
                 its bytes; give the body as bytes",
            ),
            // The length, never the URL: it is tens of kilobytes.
            HttpError::UriTooLong { len, max } => write!(
                f,
                "cannot sign the request: its URL is {len} bytes, longer than the {max} \
                 bytes an HTTP request URI can hold, so it could not be sent"
            ),
            HttpError::AmbiguousHeader { name } => write!(
                f,
                "cannot sign the request: it has more than one {name}, and a server may read \
                 another than the signer did; send exactly one"
            ),
            HttpError::NotAForm => f.write_str(
                "cannot send the protocol parameters in the body: it is not \
                 application/x-www-form-urlencoded (RFC 5849 §3.5.2); send them in the header \
                 or the query",
            ),
            HttpError::UnwritableBody => f.write_str(
                "cannot send the protocol parameters in the body: its type cannot be rewritten; \
                 give the body as bytes (Vec<u8>, String, Bytes)",
            ),
        }
    }
}

impl std::error::Error for HttpError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HttpError::Sign(e) => Some(e),
            HttpError::UnreadableBody { .. }
            | HttpError::UriTooLong { .. }
            | HttpError::AmbiguousHeader { .. }
            | HttpError::NotAForm
            | HttpError::UnwritableBody => None,
        }
    }
}

impl From<Error> for HttpError {
    fn from(e: Error) -> HttpError {
        HttpError::Sign(e)
    }
}

/// Signs `request` in place: adds (or replaces) its `Authorization` header,
/// marked sensitive so that `Debug` of the headers hides it.
///
/// The URI must be absolute (`https://api.x.com/2/tweets`). The query is
/// always signed; the body only when `Content-Type` is
/// `application/x-www-form-urlencoded`.
///
/// ```
/// use oauth1_signer::{Credentials, Signer, client::{sign_http_request, HttpOptions}};
///
/// let signer = Signer::new(Credentials::new("key", "secret").with_token("token", "token secret"));
/// let mut request = http::Request::post("https://api.x.com/2/tweets")
///     .header("content-type", "application/json")
///     .body(r#"{"text":"hello"}"#.to_string())?;
/// sign_http_request(&signer, &mut request, HttpOptions::new())?;
/// let header = request.headers()["authorization"].to_str()?;
/// assert!(header.starts_with("OAuth oauth_consumer_key=\"key\", oauth_nonce=\""));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`HttpError::Sign`] for a request the pipeline refuses (a relative URI,
/// a scheme other than http or https, a bad form body, an `oauth_*`
/// parameter in the query or body); [`HttpError::UnreadableBody`] for a body
/// that is a stream but must be read; [`HttpError::AmbiguousHeader`] for more
/// than one `Content-Type`; [`HttpError::UriTooLong`] for a URL longer than
/// [`HttpError::URI_MAX_LEN`], which no client can send.
pub fn sign_http_request<B: BodyBytes>(
    signer: &Signer,
    request: &mut http::Request<B>,
    options: HttpOptions,
) -> Result<(), HttpError> {
    let signed = authorize_http(signer, request, options, Signer::sign)?;
    transmit_http(request, &signed, options.transmission)
}

/// As [`sign_http_request`], and returns every stage of the signature (the
/// base string, the normalised parameters...), exactly as signed: for
/// debugging a `401`, or printing what is sent.
///
/// # Errors
/// As [`sign_http_request`].
pub fn trace_http_request<B: BodyBytes>(
    signer: &Signer,
    request: &mut http::Request<B>,
    options: HttpOptions,
) -> Result<Trace, HttpError> {
    let trace = authorize_http(signer, request, options, Signer::trace)?;
    transmit_http(request, &trace.signed, options.transmission)?;
    Ok(trace)
}

/// Sends `signed` in `request` where `transmission` puts it
/// ([`Signed::placed`]): the header, the query, or the form body.
fn transmit_http<B: BodyBytes>(
    request: &mut http::Request<B>,
    signed: &Signed,
    transmission: Transmission,
) -> Result<(), HttpError> {
    let uri = request.uri().to_string();
    let body = match transmission {
        Transmission::FormBody => request
            .body()
            .body_bytes()
            .ok_or(HttpError::UnreadableBody { form: true })?,
        _ => b"",
    };
    match signed.placed(transmission, &uri, body) {
        Placed::Url(url) => {
            *request.uri_mut() = url.parse().map_err(|_| not_a_uri())?;
            Ok(())
        }
        Placed::FormBody(body) => {
            let len = body.len();
            if !request.body_mut().set_body_bytes(body) {
                return Err(HttpError::UnwritableBody);
            }
            if request.headers().contains_key(CONTENT_LENGTH) {
                request
                    .headers_mut()
                    .insert(CONTENT_LENGTH, HeaderValue::from(len));
            }
            Ok(())
        }
        Placed::Header(header) => set_authorization(request.headers_mut(), header),
    }
}

/// The URL with the protocol parameters in its query no longer parses as
/// the client's URI type.
pub(crate) fn not_a_uri() -> HttpError {
    HttpError::Sign(Error::invalid_url(
        0,
        "the URL with the protocol parameters in its query is not an HTTP URI",
    ))
}

/// [`authorize`] for an `http::Request`: its method, absolute URI, headers
/// and body.
fn authorize_http<B: BodyBytes, R>(
    signer: &Signer,
    request: &http::Request<B>,
    options: HttpOptions,
    sign: fn(&Signer, &OAuthRequest<'_>) -> Result<R, Error>,
) -> Result<R, HttpError> {
    let uri = absolute_uri(request.uri())?;
    authorize(
        signer,
        request.method(),
        &uri,
        request.headers(),
        request.body().body_bytes(),
        options,
        Flow::default(),
        sign,
    )
}

/// The URI as sent, if it is absolute.
fn absolute_uri(uri: &http::Uri) -> Result<String, HttpError> {
    if uri.scheme().is_none() || uri.authority().is_none() {
        return Err(HttpError::Sign(Error::invalid_url(
            0,
            "the request's URI is not absolute (it needs a scheme and a host, as in https://api.x.com/2/tweets)",
        )));
    }
    Ok(uri.to_string())
}

/// The protocol parameters of the three-legged flow's requests (RFC 5849 §2).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Flow<'a> {
    pub(crate) callback: Option<&'a str>,
    pub(crate) verifier: Option<&'a str>,
}

/// Signs one request given by its parts, with `sign` (the signer's
/// `authorization` or `trace`): the one place the HTTP edge calls the
/// pipeline, for `http` and `reqwest` requests alike.
#[allow(clippy::too_many_arguments)]
pub(crate) fn authorize<R>(
    signer: &Signer,
    method: &Method,
    url: &str,
    headers: &HeaderMap,
    body: Option<&[u8]>,
    options: HttpOptions,
    flow: Flow<'_>,
    sign: impl FnOnce(&Signer, &OAuthRequest<'_>) -> Result<R, Error>,
) -> Result<R, HttpError> {
    if url.len() > HttpError::URI_MAX_LEN {
        return Err(HttpError::UriTooLong {
            len: url.len(),
            max: HttpError::URI_MAX_LEN,
        });
    }
    let url = sent_url(url);
    let form = is_form(headers)?;
    if options.transmission == Transmission::FormBody && !form {
        return Err(HttpError::NotAForm);
    }
    if options.transmission != Transmission::Header && signer.style != ParameterStyle::Rfc5849 {
        return Err(HttpError::Sign(Error::new(ErrorKind::Conflict {
            reason: MASTERCARD_HEADER_ONLY,
        })));
    }
    // The style's rule: Mastercard's hashes every body, a form's too.
    let body_hash = signer.style.body_hash(options.body_hash);
    let mut request = OAuthRequest::new(method.as_str(), &url).url_as_sent();
    if let Some(callback) = flow.callback {
        request = request.callback(callback);
    }
    if let Some(verifier) = flow.verifier {
        request = request.oauth_verifier(verifier);
    }
    if form {
        request = request.form_body(body.ok_or(HttpError::UnreadableBody { form: true })?);
    }
    let hash;
    let extra;
    if body_hash.applies(form) {
        let body = body.ok_or(HttpError::UnreadableBody { form: false })?;
        hash = body_hash
            .value(signer.method(), form, body)
            .unwrap_or_default();
        extra = [(Name::BodyHash.as_str(), hash.as_str())];
        request = request.protocol_params(&extra);
    }
    Ok(sign(signer, &request)?)
}

/// Whether the body is form-encoded, read from the bytes of the one
/// `Content-Type` (RFC 9110 §8.3: a singleton field).
pub(crate) fn is_form(headers: &HeaderMap) -> Result<bool, HttpError> {
    let mut values = headers.get_all(CONTENT_TYPE).iter();
    let Some(value) = values.next() else {
        return Ok(false);
    };
    if values.next().is_some() || is_list(value.as_bytes()) {
        return Err(HttpError::AmbiguousHeader {
            name: "Content-Type",
        });
    }
    is_form_media_type(value.as_bytes()).map_err(HttpError::Sign)
}

/// Whether a header value is a list: a `,` outside a quoted-string (RFC 9110
/// §5.6.1, §5.6.4), as a proxy joins two fields of one name.
fn is_list(value: &[u8]) -> bool {
    let (mut quoted, mut escaped) = (false, false);
    for &b in value {
        match (quoted, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') | (false, _, b'"') => quoted = !quoted,
            (false, _, b',') => return true,
            _ => {}
        }
    }
    false
}

/// Sets the `Authorization` header, marked sensitive.
pub(crate) fn set_authorization(headers: &mut HeaderMap, header: String) -> Result<(), HttpError> {
    // The signer writes only visible ASCII and spaces (the realm is checked),
    // so this cannot fail; it is not unwrapped all the same.
    let mut value = HeaderValue::try_from(header).map_err(|_| {
        HttpError::Sign(Error::invalid_url(
            0,
            "the Authorization header could not be made into an HTTP header value",
        ))
    })?;
    value.set_sensitive(true);
    headers.insert(AUTHORIZATION, value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::credentials::Credentials;

    fn signer() -> Signer {
        Signer::builder(Credentials::new("ck", "cs").with_token("tk", "ts"))
            .with_nonce("nonce")
            .with_timestamp("1")
            .build()
            .unwrap()
    }

    fn trace<B: BodyBytes>(mut request: http::Request<B>, options: HttpOptions) -> Trace {
        trace_http_request(&signer(), &mut request, options).unwrap()
    }

    #[test]
    fn query_always_form_body_only_when_form_encoded() {
        let form = http::Request::post("https://h/p?q=1")
            .header(
                "Content-Type",
                "application/x-www-form-urlencoded; charset=UTF-8",
            )
            .body("b=2")
            .unwrap();
        let t = trace(form, HttpOptions::new());
        assert!(t
            .normalized_params
            .starts_with("b=2&oauth_consumer_key=ck&"));
        assert!(t.normalized_params.ends_with("&q=1"));
        let json = http::Request::post("https://h/p?q=1")
            .header("content-type", "application/json")
            .body(r#"{"b":"2"}"#)
            .unwrap();
        let t = trace(json, HttpOptions::new());
        assert!(t.normalized_params.starts_with("oauth_consumer_key=ck&"));
        assert!(
            t.normalized_params.ends_with("&q=1"),
            "{}",
            t.normalized_params
        );
        // No Content-Type: not a form, whatever the body looks like.
        let t = trace(
            http::Request::post("https://h/").body("b=2").unwrap(),
            HttpOptions::new(),
        );
        assert!(!t.normalized_params.contains("b=2"));
    }

    #[test]
    fn the_header_is_set_sensitive_and_matches_the_string_api() {
        let mut request = http::Request::get("https://api.x.com/2/tweets?ids=1%7C2")
            .body(())
            .unwrap();
        sign_http_request(&signer(), &mut request, HttpOptions::new()).unwrap();
        let value = &request.headers()[AUTHORIZATION];
        assert!(value.is_sensitive());
        let want = signer()
            .authorization_header(&OAuthRequest::get("https://api.x.com/2/tweets?ids=1%7C2"))
            .unwrap();
        assert_eq!(value.to_str().unwrap(), want);
        // A raw '|' in the query, as http::Uri sends it, is signed as %7C.
        let mut raw = http::Request::get("https://api.x.com/2/tweets?ids=1|2")
            .body(())
            .unwrap();
        sign_http_request(&signer(), &mut raw, HttpOptions::new()).unwrap();
        assert_eq!(raw.headers()[AUTHORIZATION].to_str().unwrap(), want);
        assert!(!format!("{:?}", raw.headers()).contains("oauth_signature"));
    }

    #[test]
    fn signing_again_replaces_the_header() {
        let mut request = http::Request::get("https://h/").body(()).unwrap();
        sign_http_request(&signer(), &mut request, HttpOptions::new()).unwrap();
        sign_http_request(&signer(), &mut request, HttpOptions::new()).unwrap();
        assert_eq!(request.headers().get_all(AUTHORIZATION).iter().count(), 1);
    }

    #[test]
    fn body_hash_covers_a_json_body_and_never_a_form() {
        let on = HttpOptions::new().with_body_hash(BodyHash::new(
            crate::BodyHashPolicy::UnlessForm,
            crate::BodyHashAlgorithm::FollowMethod,
        ));
        let json = http::Request::post("https://h/")
            .header("content-type", "application/json")
            .body("Hello World!")
            .unwrap();
        // The extension's own example: SHA-1 of "Hello World!".
        let t = trace(json, on);
        assert!(
            t.normalized_params
                .starts_with("oauth_body_hash=Lve95gjOVATpfV8EL5X4nxwjKHE%3D&"),
            "{}",
            t.normalized_params
        );
        let empty = trace(http::Request::get("https://h/").body(()).unwrap(), on);
        assert!(empty
            .normalized_params
            .starts_with("oauth_body_hash=2jmj7l5rSw0yVb%2FvlWAYkK%2FYBwk%3D&"));
        let form = http::Request::post("https://h/")
            .header("content-type", "application/x-www-form-urlencoded")
            .body("a=1")
            .unwrap();
        assert!(!trace(form, on)
            .normalized_params
            .contains("oauth_body_hash"));
        let off = trace(
            http::Request::get("https://h/").body(()).unwrap(),
            HttpOptions::new(),
        );
        assert!(!off.normalized_params.contains("oauth_body_hash"));
    }

    struct Stream;
    impl BodyBytes for Stream {
        fn body_bytes(&self) -> Option<&[u8]> {
            None
        }
    }

    #[test]
    fn a_stream_is_signed_unless_its_bytes_are_needed() {
        let req = |ct: &str| {
            http::Request::post("https://h/")
                .header("content-type", ct)
                .body(Stream)
                .unwrap()
        };
        let s = signer();
        let form = sign_http_request(
            &s,
            &mut req("application/x-www-form-urlencoded"),
            HttpOptions::new(),
        );
        assert_eq!(form, Err(HttpError::UnreadableBody { form: true }));
        assert!(
            sign_http_request(&s, &mut req("application/octet-stream"), HttpOptions::new()).is_ok()
        );
        let hashed = sign_http_request(
            &s,
            &mut req("application/octet-stream"),
            HttpOptions::new().with_body_hash(BodyHash::new(
                crate::BodyHashPolicy::UnlessForm,
                crate::BodyHashAlgorithm::FollowMethod,
            )),
        );
        assert_eq!(hashed, Err(HttpError::UnreadableBody { form: false }));
    }

    #[test]
    fn a_raw_path_byte_before_the_query_is_signed_as_sent() {
        // http::Uri sends `|` in a path raw; the server reads it as itself,
        // and §3.4.1.2 / §3.6 sign it as `%7C` (so `%257C` in the base string).
        let t = trace(
            http::Request::get("https://h/a|?x=1").body(()).unwrap(),
            HttpOptions::new(),
        );
        assert!(
            t.base_string.starts_with("GET&https%3A%2F%2Fh%2Fa%7C&"),
            "{}",
            t.base_string
        );
        assert!(
            t.normalized_params.ends_with("&x=1"),
            "{}",
            t.normalized_params
        );
        // A sent escape is three bytes of path, each signed as itself.
        let t = trace(
            http::Request::get("https://h/a%7C?x=1").body(()).unwrap(),
            HttpOptions::new(),
        );
        assert!(t.base_string.starts_with("GET&https%3A%2F%2Fh%2Fa%257C&"));
    }

    #[test]
    fn a_scheme_other_than_http_or_https_is_refused() {
        for uri in ["ws://h/", "wss://h/p?x=1", "ftp://h/", "git+ssh://h/"] {
            let mut request = http::Request::get(uri).body(()).unwrap();
            match sign_http_request(&signer(), &mut request, HttpOptions::new()) {
                Err(HttpError::Sign(e)) => {
                    assert_eq!(e.offset(), Some((crate::Part::Url, 0)), "{uri}: {e}");
                    assert!(e.to_string().contains("scheme"), "{uri}: {e}");
                }
                other => panic!("{uri}: {other:?}"),
            }
            assert!(request.headers().get(AUTHORIZATION).is_none());
        }
    }

    #[test]
    fn only_a_pipeline_error_has_a_source() {
        let mut request = http::Request::get("/relative").body(()).unwrap();
        let e = sign_http_request(&signer(), &mut request, HttpOptions::new()).unwrap_err();
        let HttpError::Sign(inner) = &e else {
            panic!("{e:?}")
        };
        // The wrapper names its own step; the cause is the source, so a
        // reporter that walks the chain prints it once.
        let source = std::error::Error::source(&e).expect("a source");
        assert_eq!(source.to_string(), inner.to_string());
        assert_eq!(e.to_string(), "cannot sign the request");
        for e in [
            HttpError::UnreadableBody { form: true },
            HttpError::UriTooLong { len: 1, max: 0 },
            HttpError::AmbiguousHeader {
                name: "Content-Type",
            },
        ] {
            assert!(std::error::Error::source(&e).is_none(), "{e:?}");
        }
    }

    /// Signs a request given by its parts, as the reqwest edge does.
    fn authorize_url(url: &str, headers: &HeaderMap) -> Result<String, HttpError> {
        authorize(
            &signer(),
            &Method::GET,
            url,
            headers,
            Some(b"a=1"),
            HttpOptions::new(),
            Flow::default(),
            Signer::authorization_header,
        )
    }

    #[test]
    fn a_url_longer_than_an_http_uri_names_the_limit_not_the_url() {
        let at = |len: usize| format!("http://h/?q={}", "a".repeat(len - "http://h/?q=".len()));
        // The limit is http::Uri's own.
        let max = HttpError::URI_MAX_LEN;
        assert!(http::Uri::try_from(at(max)).is_ok());
        assert!(http::Uri::try_from(at(max + 1)).is_err());
        let none = HeaderMap::new();
        assert!(authorize_url(&at(max), &none).is_ok());
        for len in [max + 1, 70_000] {
            let e = authorize_url(&at(len), &none).unwrap_err();
            assert_eq!(e, HttpError::UriTooLong { len, max });
            let text = e.to_string();
            assert!(
                text.contains(&len.to_string()) && text.contains("65534"),
                "{text}"
            );
            assert!(text.len() < 200 && !text.contains("aaaa"), "{text}");
        }
    }

    #[test]
    fn no_refusal_quotes_a_long_url_back() {
        // One refusal of each kind that names input: a protocol parameter in
        // the query (its name), a bad byte, a bad port.
        let long = "a".repeat(60_000);
        for url in [
            format!("https://h/?oauth_{long}=1"),
            format!("https://h/{long} x"),
            format!("https://h:{long}/"),
            format!("https://h/{long}?x=1&oauth_{long}"),
        ] {
            let e = authorize_url(&url, &HeaderMap::new()).unwrap_err();
            let text = e.to_string();
            assert!(
                text.len() < 400,
                "{}: {}",
                text.len(),
                &text[..text.len().min(400)]
            );
        }
    }

    #[test]
    fn the_form_media_type_is_read_from_the_header_bytes() {
        // `; charset=ü` as UTF-8 bytes: not visible ASCII, so `to_str` fails,
        // but the media type is still a form and its body is signed.
        let value =
            HeaderValue::from_bytes("application/x-www-form-urlencoded; charset=ü".as_bytes())
                .unwrap();
        assert!(value.to_str().is_err());
        let request = http::Request::post("https://h/")
            .header(CONTENT_TYPE, value)
            .body("b=2")
            .unwrap();
        let t = trace(request, HttpOptions::new());
        assert!(
            t.normalized_params.starts_with("b=2&"),
            "{}",
            t.normalized_params
        );
        // Whitespace as RFC 9110 allows it, any case.
        let request = http::Request::post("https://h/")
            .header(
                CONTENT_TYPE,
                "\tApplication/X-WWW-Form-Urlencoded ;charset=utf-8",
            )
            .body("b=2")
            .unwrap();
        assert!(trace(request, HttpOptions::new())
            .normalized_params
            .starts_with("b=2&"));
    }

    #[test]
    fn more_than_one_content_type_is_refused_by_name() {
        let form = "application/x-www-form-urlencoded";
        let ambiguous = [
            vec![form, "application/json"],
            vec!["application/json", form],
            vec![form, form],
            vec!["application/json, application/x-www-form-urlencoded"],
            vec!["text/plain; a=\"x\\\"\", application/json"],
        ];
        for values in ambiguous {
            let mut headers = HeaderMap::new();
            for v in &values {
                headers.append(CONTENT_TYPE, HeaderValue::from_str(v).unwrap());
            }
            let e = authorize_url("https://h/", &headers).unwrap_err();
            assert_eq!(
                e,
                HttpError::AmbiguousHeader {
                    name: "Content-Type"
                },
                "{values:?}"
            );
            assert!(e.to_string().contains("Content-Type"), "{e}");
        }
        // A ',' inside a quoted parameter is no list.
        let mut headers = HeaderMap::new();
        headers.insert(
            CONTENT_TYPE,
            HeaderValue::from_static("multipart/form-data; boundary=\"a,b\""),
        );
        assert!(authorize_url("https://h/", &headers).is_ok());
    }

    #[test]
    fn a_relative_uri_is_refused() {
        // Origin-form (a path) and authority-form (a host and port, as for
        // CONNECT): each lacks a scheme or a host.
        for uri in ["/2/tweets", "api.x.com:443"] {
            let mut request = http::Request::get(uri).body(()).unwrap();
            let e = sign_http_request(&signer(), &mut request, HttpOptions::new()).unwrap_err();
            let HttpError::Sign(inner) = &e else {
                panic!("{uri}: {e:?}")
            };
            assert_eq!(inner.offset(), Some((crate::Part::Url, 0)));
            assert!(inner.to_string().contains("not absolute"), "{uri}: {inner}");
            assert!(request.headers().get(AUTHORIZATION).is_none());
        }
    }
}
