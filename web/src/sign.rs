//! The Sign panel: the page's fields to a [`Signer`] and an [`OAuthRequest`],
//! and the library's [`Signer::trace`] to what the panel shows. The explain
//! panel builds its request here too, so both panels read the fields alike.

use oauth1_signer::{Credentials, Error, ErrorKind, OAuthRequest, Part, SignatureMethod, Signer};
use serde::{Deserialize, Serialize};

use crate::render::Spot;

/// The signature methods the page offers: those that need no private key.
pub const METHODS: [SignatureMethod; 4] = [
    SignatureMethod::HmacSha1,
    SignatureMethod::HmacSha256,
    SignatureMethod::HmacSha512,
    SignatureMethod::Plaintext,
];

/// [`METHODS`] by their RFC names, for the page's select.
pub fn method_names() -> Vec<&'static str> {
    METHODS.iter().map(SignatureMethod::as_str).collect()
}

/// The Sign panel's fields, as the page sends them (every one may be
/// missing; an empty nonce or timestamp means a fresh one).
#[derive(Clone, Default, Deserialize)]
#[serde(default)]
pub struct Fields {
    /// The HTTP method.
    pub method: String,
    /// The request URL, query included.
    pub url: String,
    /// The `application/x-www-form-urlencoded` body, if any.
    pub body: String,
    /// The consumer key.
    pub consumer_key: String,
    /// The consumer secret.
    pub consumer_secret: String,
    /// The token (empty: none).
    pub token: String,
    /// The token secret.
    pub token_secret: String,
    /// The signature method's RFC name.
    pub signature_method: String,
    /// A pinned nonce (empty: fresh, from the browser's random source).
    pub nonce: String,
    /// A pinned timestamp (empty: `now`).
    pub timestamp: String,
    /// The realm (empty: none).
    pub realm: String,
    /// The browser's clock in seconds since 1970: the timestamp when none is
    /// pinned (WebAssembly has no clock of its own).
    pub now: String,
}

impl std::fmt::Debug for Fields {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The secrets are the user's: never in a message.
        f.debug_struct("Fields")
            .field("method", &self.method)
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// An error and the field it is about (`url`, `body`, `realm`, `method`,
/// `nonce`, `timestamp`, `signature_method`, `fields`), if one.
#[derive(Clone, Debug, Serialize)]
pub struct FieldError {
    /// The field's name in [`Fields`].
    pub field: Option<&'static str>,
    /// The error, and where in the field.
    pub spot: Spot,
}

impl FieldError {
    /// The library's error `e`, placed in the field it points into.
    pub fn new(e: &Error, fields: &Fields) -> FieldError {
        let message = e.to_string();
        let (field, text) = match (e.offset(), e.kind()) {
            (Some((Part::Url, _)), _) => (Some("url"), fields.url.as_str()),
            (Some((Part::FormBody, _)), _) => (Some("body"), fields.body.as_str()),
            (Some((Part::Realm, _)), _) => (Some("realm"), fields.realm.as_str()),
            (Some((Part::Method, _)), _)
            | (
                _,
                ErrorKind::Empty {
                    part: Part::Method, ..
                },
            ) => (Some("method"), fields.method.as_str()),
            (_, ErrorKind::InvalidProtocolValue { name, .. }) if *name == "oauth_nonce" => {
                (Some("nonce"), "")
            }
            (_, ErrorKind::InvalidProtocolValue { name, .. }) if *name == "oauth_timestamp" => {
                (Some("timestamp"), "")
            }
            (_, ErrorKind::UnknownSignatureMethod { .. }) => (Some("signature_method"), ""),
            _ => (None, ""),
        };
        let spot = match e.offset() {
            Some((_, at)) if field.is_some() => Spot::at(message, text, at, e.span_len()),
            _ => Spot::message(message),
        };
        FieldError { field, spot }
    }

    fn fields(message: impl Into<String>) -> FieldError {
        FieldError {
            field: Some("fields"),
            spot: Spot::message(message),
        }
    }
}

/// Every stage of the signature, or the error.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Signed {
    /// The collected parameters, decoded, in the order collected (query,
    /// protocol, body), each `[name, value]`.
    pub params: Vec<[String; 2]>,
    /// The normalised parameter string.
    pub normalized: String,
    /// The base string.
    pub base_string: String,
    /// The base string broken before each `&` and `%26` (an encoded `&`):
    /// joined, the lines are exactly the base string.
    pub base_string_lines: Vec<String>,
    /// The signature.
    pub signature: String,
    /// The `Authorization` header value.
    pub header: String,
    /// The library's warnings, in its words.
    pub warnings: Vec<String>,
    /// Why nothing could be signed.
    pub error: Option<FieldError>,
}

/// `fields` (JSON of [`Fields`]) signed, every stage kept.
pub fn sign_json(fields: &str) -> Signed {
    let fields: Fields = match serde_json::from_str(fields) {
        Ok(f) => f,
        Err(e) => {
            return Signed {
                error: Some(FieldError::fields(format!("unreadable fields: {e}"))),
                ..Signed::default()
            }
        }
    };
    let traced = with_request(&fields, |signer, request| signer.trace(request));
    match traced {
        Ok(t) => Signed {
            params: t
                .collected_params
                .iter()
                .map(|(n, v)| {
                    [
                        String::from_utf8_lossy(n).into_owned(),
                        String::from_utf8_lossy(v).into_owned(),
                    ]
                })
                .collect(),
            normalized: t.normalized_params.clone(),
            base_string_lines: lines(&t.base_string),
            base_string: t.base_string,
            signature: t.signature.as_str().to_owned(),
            header: t.authorization_header,
            warnings: t.warnings.iter().map(ToString::to_string).collect(),
            error: None,
        },
        Err(e) => Signed {
            error: Some(*e),
            ..Signed::default()
        },
    }
}

/// Builds the signer and the request of `fields` and runs `f` on them.
///
/// # Errors
/// The first error of the signer's settings or of `f`, placed in its field.
pub fn with_request<R>(
    fields: &Fields,
    f: impl FnOnce(&Signer, &OAuthRequest<'_>) -> Result<R, Error>,
) -> Result<R, Box<FieldError>> {
    let placed = |e: Error| Box::new(FieldError::new(&e, fields));
    let method: SignatureMethod = fields.signature_method.parse().map_err(placed)?;
    let mut credentials = Credentials::new(
        fields.consumer_key.as_str(),
        fields.consumer_secret.as_str(),
    );
    if !fields.token.is_empty() || !fields.token_secret.is_empty() {
        credentials = credentials.with_token(fields.token.as_str(), fields.token_secret.as_str());
    }
    let mut builder = Signer::builder(credentials).with_method(method);
    if !fields.realm.is_empty() {
        builder = builder.with_realm(fields.realm.as_str());
    }
    if !fields.nonce.is_empty() {
        builder = builder.with_nonce(fields.nonce.as_str());
    }
    let timestamp = if fields.timestamp.is_empty() {
        &fields.now
    } else {
        &fields.timestamp
    };
    if !timestamp.is_empty() {
        builder = builder.with_timestamp(timestamp.as_str());
    }
    let signer = builder.build().map_err(placed)?;
    let mut request = OAuthRequest::new(&fields.method, &fields.url);
    if !fields.body.is_empty() {
        request = request.form_body(fields.body.as_bytes());
    }
    f(&signer, &request).map_err(placed)
}

/// `base` broken before each `&` and each `%26`, the breaks' text kept.
fn lines(base: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    let bytes = base.as_bytes();
    while i < bytes.len() {
        let at_amp = bytes[i] == b'&';
        let at_encoded = bytes[i..].starts_with(b"%26");
        if i > start && (at_amp || at_encoded) {
            out.push(base[start..i].to_owned());
            start = i;
        }
        i += if at_encoded { 3 } else { 1 };
    }
    out.push(base[start..].to_owned());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_join_back_to_the_base_string() {
        let base = "POST&https%3A%2F%2Fh%2F&a%3D1%26b%3D2";
        let l = lines(base);
        assert_eq!(l, ["POST", "&https%3A%2F%2Fh%2F", "&a%3D1", "%26b%3D2"]);
        assert_eq!(l.concat(), base);
    }

    #[test]
    fn an_error_is_placed_in_its_field_at_its_offset() {
        let fields = Fields {
            method: "GET".into(),
            url: "https://h/?a=%2G".into(),
            signature_method: "HMAC-SHA1".into(),
            nonce: "n".into(),
            timestamp: "1".into(),
            ..Fields::default()
        };
        let e = with_request(&fields, |s, r| s.trace(r)).err().unwrap();
        assert_eq!(e.field, Some("url"));
        // "https://h/?a=" is 13 bytes.
        assert_eq!((e.spot.offset, e.spot.at.as_str()), (Some(13), "%2G"));
    }

    #[test]
    fn an_unknown_method_names_its_field() {
        let s = sign_json(r#"{"signature_method":"HMAC-MD5","url":"https://h/","method":"GET"}"#);
        assert_eq!(s.error.unwrap().field, Some("signature_method"));
    }
}
