//! One request to sign, as it will be sent ([RFC 5849 §3.4.1]): method, URL,
//! form body, and the protocol parameters that belong to the request rather
//! than to the signer (a callback, a verifier, extensions such as
//! `oauth_body_hash`).
//!
//! [RFC 5849 §3.4.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1

use crate::error::{Error, ErrorKind};

/// Whether a `Content-Type` is `application/x-www-form-urlencoded`, the only
/// body whose parameters are signed (§3.4.1.3.1). Parameters such as
/// `; charset=UTF-8` do not matter; case does not matter.
///
/// A value that only *looks* like the form type is refused rather than
/// read either way: `application/x-www-form-urlencodedX`,
/// `application/x-www-form-urlencoded+json`, `...urlencoded/x`, anything
/// holding `x-www-form-urlencoded` that is not exactly that media type.
/// Frameworks test for a form with a prefix or a substring (axum's `Form`
/// does `starts_with`), so a handler would parse as a form the body that a
/// verifier, reading it as "not a form", left unsigned.
///
/// ```
/// use oauth1_signer::pipeline::is_form_urlencoded;
///
/// assert_eq!(is_form_urlencoded("application/x-www-form-urlencoded; charset=UTF-8"), Ok(true));
/// assert_eq!(is_form_urlencoded("application/json"), Ok(false));
/// assert!(is_form_urlencoded("application/x-www-form-urlencodedX").is_err());
/// ```
///
/// # Errors
/// [`ErrorKind::AmbiguousMediaType`] for a value that holds
/// `x-www-form-urlencoded` (in any case) and is not the form media type.
pub fn is_form_urlencoded(content_type: &str) -> Result<bool, Error> {
    is_form_media_type(content_type.as_bytes())
}

/// [`is_form_urlencoded`] on a header value's bytes, which need not be text:
/// a parameter such as `; charset=ü` (obs-text, RFC 9110 §5.5) does not make
/// a form body anything else to a server, so it must not to the signer.
///
/// RFC 9110 §8.3.1: `media-type = type "/" subtype *( OWS ";" OWS [ parameter ] )`,
/// the type and subtype case-insensitive, `OWS` spaces and tabs, and a field
/// value's leading and trailing `OWS` not part of it (§5.5). The parameters
/// are not read: none changes what the body is. The one rule for the signer,
/// the `http` edge, the verifier, the tower layer and `oauth1 serve`.
pub(crate) fn is_form_media_type(value: &[u8]) -> Result<bool, Error> {
    const FORM: &[u8] = b"application/x-www-form-urlencoded";
    const SUBTYPE: &[u8] = b"x-www-form-urlencoded";
    let ows = |b: &u8| matches!(b, b' ' | b'\t');
    let start = value.iter().position(|b| !ows(b)).unwrap_or(value.len());
    let exact = value[start..]
        .split_at_checked(FORM.len())
        .is_some_and(|(media, rest)| {
            media.eq_ignore_ascii_case(FORM)
                && matches!(rest.iter().find(|b| !ows(b)), None | Some(b';'))
        });
    if exact {
        return Ok(true);
    }
    let looks_like_form = value
        .windows(SUBTYPE.len())
        .any(|w| w.eq_ignore_ascii_case(SUBTYPE));
    if looks_like_form {
        return Err(Error::new(ErrorKind::AmbiguousMediaType {
            media_type: String::from_utf8_lossy(&value[..value.len().min(MEDIA_TYPE_SHOWN)])
                .into_owned(),
        }));
    }
    Ok(false)
}

/// How much of a refused media type an error quotes.
const MEDIA_TYPE_SHOWN: usize = 100;

/// One HTTP request to sign, as the string API takes it: its method, URL and
/// (form) body, plus the protocol parameters that belong to this request
/// rather than to the signer. It borrows everything and copies nothing.
///
/// ```
/// use oauth1_signer::OAuthRequest;
///
/// // v1.1: the form body is signed.
/// let tweet = OAuthRequest::post("https://api.x.com/1.1/statuses/update.json")
///     .form_body(b"status=Hello%20Ladies");
/// // v2: a JSON body is not signed.
/// let v2 = OAuthRequest::post("https://api.x.com/2/tweets")
///     .body(Some("application/json"), br#"{"text":"hi"}"#);
/// # let _ = (tweet, v2);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct OAuthRequest<'a> {
    pub(crate) method: &'a str,
    pub(crate) url: &'a str,
    pub(crate) form_body: Option<&'a [u8]>,
    pub(crate) callback: Option<&'a str>,
    pub(crate) verifier: Option<&'a str>,
    pub(crate) extra: Extra<'a>,
    /// Whether the URL is as an HTTP client serialised it (see
    /// `RequestUrl::parse_sent`), rather than strict RFC 3986.
    pub(crate) url_as_sent: bool,
    /// A `Content-Type` given to [`body`](OAuthRequest::body) that
    /// [`is_form_urlencoded`] refuses: signing it is refused.
    pub(crate) refused_media_type: Option<&'a str>,
}

/// A request's extra protocol parameters, borrowed as `&str` or `String` pairs.
///
/// Public only so that the sealed [`ParamPair`](sealed::ParamPair) can name
/// it; it is not exported.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub enum Extra<'a> {
    Strs(&'a [(&'a str, &'a str)]),
    Strings(&'a [(String, String)]),
}

impl<'a> Extra<'a> {
    #[allow(dead_code)]
    pub(crate) fn is_empty(self) -> bool {
        match self {
            Extra::Strs(p) => p.is_empty(),
            Extra::Strings(p) => p.is_empty(),
        }
    }

    pub(crate) fn iter(self) -> impl Iterator<Item = (&'a str, &'a str)> {
        let strs = match self {
            Extra::Strs(p) => p,
            Extra::Strings(_) => &[],
        };
        let strings = match self {
            Extra::Strings(p) => p,
            Extra::Strs(_) => &[],
        };
        strs.iter()
            .copied()
            .chain(strings.iter().map(|(n, v)| (n.as_str(), v.as_str())))
    }
}

mod sealed {
    /// A `(name, value)` pair type that [`OAuthRequest::protocol_params`]
    /// can borrow: `(&str, &str)` or `(String, String)`.
    ///
    /// [`OAuthRequest::protocol_params`]: super::OAuthRequest::protocol_params
    pub trait ParamPair: Sized {
        #[doc(hidden)]
        fn extra(params: &[Self]) -> super::Extra<'_>;
    }
}

use sealed::ParamPair;

impl ParamPair for (&str, &str) {
    fn extra(params: &[Self]) -> Extra<'_> {
        Extra::Strs(params)
    }
}

impl ParamPair for (String, String) {
    fn extra(params: &[Self]) -> Extra<'_> {
        Extra::Strings(params)
    }
}

impl<'a> OAuthRequest<'a> {
    /// A request with any method (`GET`, `post`, `PATCH`...) and an absolute URL.
    pub fn new(method: &'a str, url: &'a str) -> Self {
        OAuthRequest {
            method,
            url,
            form_body: None,
            callback: None,
            verifier: None,
            extra: Extra::Strs(&[]),
            url_as_sent: false,
            refused_media_type: None,
        }
    }

    /// A `GET` request.
    pub fn get(url: &'a str) -> Self {
        OAuthRequest::new("GET", url)
    }

    /// A `POST` request.
    pub fn post(url: &'a str) -> Self {
        OAuthRequest::new("POST", url)
    }

    /// An `application/x-www-form-urlencoded` body, whose parameters are signed.
    pub fn form_body(mut self, body: &'a [u8]) -> Self {
        self.form_body = Some(body);
        self
    }

    /// A body with its `Content-Type`: signed if it is form-urlencoded, left
    /// out otherwise (a JSON body, as for the X API v2, is never signed). A
    /// type that only looks like the form's ([`is_form_urlencoded`] refuses
    /// it) makes signing fail with [`ErrorKind::AmbiguousMediaType`].
    pub fn body(mut self, content_type: Option<&'a str>, body: &'a [u8]) -> Self {
        let form = content_type.map(is_form_urlencoded);
        self.refused_media_type = None;
        self.form_body = match form {
            Some(Ok(true)) => Some(body),
            Some(Err(_)) => {
                self.refused_media_type = content_type;
                None
            }
            _ => None,
        };
        self
    }

    /// `oauth_callback`, for a temporary-credentials (request-token) request.
    pub fn callback(mut self, callback: &'a str) -> Self {
        self.callback = Some(callback);
        self
    }

    /// `oauth_verifier`, the verification code (§2.3), for a
    /// token-credentials (access-token) request. (Named for the parameter,
    /// so that it is not taken for [`verify::Verifier`](crate::verify::Verifier).)
    pub fn oauth_verifier(mut self, code: &'a str) -> Self {
        self.verifier = Some(code);
        self
    }

    /// More `oauth_*` parameters to sign and send (an `oauth_body_hash`,
    /// say), as `(&str, &str)` or `(String, String)` pairs. An
    /// `oauth_signature` among them is ignored.
    ///
    /// ```
    /// use oauth1_signer::OAuthRequest;
    ///
    /// let borrowed = [("oauth_body_hash", "2jmj7l5rSw0yVb/vlWAYkK/YBwk=")];
    /// let owned = vec![("oauth_body_hash".to_string(), "2jmj7l5rSw0yVb/vlWAYkK/YBwk=".to_string())];
    /// let a = OAuthRequest::get("https://h/").protocol_params(&borrowed);
    /// let b = OAuthRequest::get("https://h/").protocol_params(&owned);
    /// # let _ = (a, b);
    /// ```
    pub fn protocol_params<P: ParamPair>(mut self, params: &'a [P]) -> Self {
        self.extra = P::extra(params);
        self
    }

    /// The URL as an HTTP client sends it, for the HTTP edge: raw bytes a
    /// client leaves in a path (`| [ ] ^`) are path data, signed as sent.
    #[cfg(feature = "http")]
    pub(crate) fn url_as_sent(mut self) -> Self {
        self.url_as_sent = true;
        self
    }

    /// The method.
    pub fn method(&self) -> &'a str {
        self.method
    }

    /// The URL.
    pub fn url(&self) -> &'a str {
        self.url
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_media_type_is_read_from_bytes_as_rfc_9110_writes_it() {
        for value in [
            &b"application/x-www-form-urlencoded"[..],
            b"Application/X-WWW-Form-URLEncoded",
            b"application/x-www-form-urlencoded;charset=UTF-8",
            b" \tapplication/x-www-form-urlencoded \t; charset=utf-8 \t",
            // A parameter that is not text does not change the media type.
            b"application/x-www-form-urlencoded; charset=\xC3\xBC",
            b"application/x-www-form-urlencoded; charset=\xFF",
            b"application/x-www-form-urlencoded;",
        ] {
            assert_eq!(is_form_media_type(value), Ok(true), "{value:?}");
        }
        for value in [
            &b""[..],
            b"application/json",
            b"text/plain; charset=utf-8",
            b"multipart/form-data; boundary=x",
            b"application/x-www-form-urlencode",
        ] {
            assert_eq!(is_form_media_type(value), Ok(false), "{value:?}");
        }
        // Whatever begins like the form type, or names it, and is not
        // exactly it: a framework testing a prefix or a substring (axum's
        // `Form` tests `starts_with`) reads it as a form, so it is refused.
        for value in [
            &b"application/x-www-form-urlencodedx"[..],
            b"application/x-www-form-urlencodedX; charset=utf-8",
            b"application/x-www-form-urlencoded+json",
            b"application/x-www-form-urlencoded/x",
            b"application/x-www-form-urlencoded x",
            b"application/x-www-form-urlencoded, text/plain",
            b"x application/x-www-form-urlencoded",
            b"application /x-www-form-urlencoded",
            b"text/x-www-form-urlencoded",
            // Only spaces and tabs are whitespace in a field value.
            b"\napplication/x-www-form-urlencoded",
            b"application/x-www-form-urlencoded\x0b",
            b"multipart/form-data; x=application/x-www-form-urlencoded",
            b"APPLICATION/X-WWW-FORM-URLENCODED+JSON",
        ] {
            let e = is_form_media_type(value).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::AmbiguousMediaType { .. }),
                "{value:?}: {e:?}"
            );
        }
        assert_eq!(
            is_form_urlencoded("application/x-www-form-urlencoded; charset=ü"),
            Ok(true)
        );
    }

    #[test]
    fn a_body_of_a_type_that_only_looks_like_a_form_is_not_signed() {
        let signer = crate::Signer::new(crate::Credentials::new("k", "s"));
        let request = OAuthRequest::post("https://h/")
            .body(Some("application/x-www-form-urlencoded+json"), b"a=1");
        let e = signer.sign(&request).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("Content-Type \"application/x-www-form-urlencoded+json\" looks like"),
            "{e}"
        );
        // The same request as a form, or as JSON, signs.
        let form = OAuthRequest::post("https://h/")
            .body(Some("application/x-www-form-urlencoded+json"), b"a=1")
            .body(Some("Application/X-WWW-Form-URLEncoded"), b"a=1");
        assert!(signer.sign(&form).is_ok());
        let json = OAuthRequest::post("https://h/").body(Some("application/json"), b"{}");
        assert!(signer.sign(&json).is_ok());
    }
}
