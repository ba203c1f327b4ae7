//! One request to sign, as it will be sent ([RFC 5849 §3.4.1]): method, URL,
//! form body, and the protocol parameters that belong to the request rather
//! than to the signer.
//!
//! [RFC 5849 §3.4.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1

/// Whether a `Content-Type` is `application/x-www-form-urlencoded`, the only
/// body whose parameters are signed (§3.4.1.3.1). Parameters such as
/// `; charset=UTF-8` do not matter; case does not matter.
///
/// ```
/// use oauth1_signer::is_form_urlencoded;
///
/// assert!(is_form_urlencoded("application/x-www-form-urlencoded; charset=UTF-8"));
/// assert!(!is_form_urlencoded("application/json"));
/// ```
pub fn is_form_urlencoded(content_type: &str) -> bool {
    let media = content_type.split(';').next().unwrap_or_default();
    media
        .trim()
        .eq_ignore_ascii_case("application/x-www-form-urlencoded")
}

/// One HTTP request to sign: its method, URL and (form) body, plus the
/// protocol parameters that belong to this request rather than to the signer.
///
/// ```
/// use oauth1_signer::Request;
///
/// // v1.1: the form body is signed.
/// let tweet = Request::post("https://api.x.com/1.1/statuses/update.json")
///     .form_body(b"status=Hello%20Ladies");
/// // v2: a JSON body is not signed.
/// let v2 = Request::post("https://api.x.com/2/tweets")
///     .body(Some("application/json"), br#"{"text":"hi"}"#);
/// # let _ = (tweet, v2);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    pub(crate) method: &'a str,
    pub(crate) url: &'a str,
    pub(crate) form_body: Option<&'a [u8]>,
    pub(crate) callback: Option<&'a str>,
    pub(crate) verifier: Option<&'a str>,
    pub(crate) protocol_params: Extra<'a>,
}

/// A request's extra protocol parameters, borrowed as `&str` or `String` pairs.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Extra<'a> {
    Strs(&'a [(&'a str, &'a str)]),
    Strings(&'a [(String, String)]),
}

impl<'a> Extra<'a> {
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

impl<'a> Request<'a> {
    /// A request with any method (`GET`, `post`, `PATCH`...) and an absolute URL.
    pub fn new(method: &'a str, url: &'a str) -> Self {
        Request {
            method,
            url,
            form_body: None,
            callback: None,
            verifier: None,
            protocol_params: Extra::Strs(&[]),
        }
    }

    /// A `GET` request.
    pub fn get(url: &'a str) -> Self {
        Request::new("GET", url)
    }

    /// A `POST` request.
    pub fn post(url: &'a str) -> Self {
        Request::new("POST", url)
    }

    /// An `application/x-www-form-urlencoded` body, whose parameters are signed.
    pub fn form_body(mut self, body: &'a [u8]) -> Self {
        self.form_body = Some(body);
        self
    }

    /// A body with its `Content-Type`: signed if it is form-urlencoded, left
    /// out otherwise (a JSON body, as for the X API v2, is never signed).
    pub fn body(mut self, content_type: Option<&str>, body: &'a [u8]) -> Self {
        self.form_body = content_type
            .filter(|ct| is_form_urlencoded(ct))
            .map(|_| body);
        self
    }

    /// `oauth_callback`, for a temporary-credentials (request-token) request.
    pub fn callback(mut self, callback: &'a str) -> Self {
        self.callback = Some(callback);
        self
    }

    /// `oauth_verifier`, for a token-credentials (access-token) request.
    pub fn verifier(mut self, verifier: &'a str) -> Self {
        self.verifier = Some(verifier);
        self
    }

    /// More `oauth_*` parameters to sign and send (an `oauth_body_hash`, say).
    /// An `oauth_signature` among them is ignored.
    pub fn protocol_params(mut self, params: &'a [(&'a str, &'a str)]) -> Self {
        self.protocol_params = Extra::Strs(params);
        self
    }

    /// [`protocol_params`](Self::protocol_params) held as owned strings.
    pub fn owned_protocol_params(mut self, params: &'a [(String, String)]) -> Self {
        self.protocol_params = Extra::Strings(params);
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
