//! The Sign panel: the page's fields to a [`Signer`] and an [`OAuthRequest`],
//! and the library's [`Signer::trace`] to what the panel shows: every stage,
//! the signing key (masked unless asked), the header and a curl command that
//! sends it. The explain panel builds its request here too, so both panels
//! read the fields alike.
//!
//! All three legs of the flow (RFC 5849 §2) sign here: a callback for the
//! temporary credentials, a verifier for the token credentials. The protocol
//! parameters go where the transmission says (§3.5: the header, the query or
//! the end of the form body), so an `oauth_callback` or `oauth_verifier`
//! typed into the URL or the body is taken out of it (where the library's
//! error points) and sent with the others instead: the signature is the same
//! wherever a parameter travels (§3.4.1.3.1).

use std::str::FromStr;

use oauth1_signer::outgoing::Lifted as TakenOut;
use oauth1_signer::pipeline::{base_string_lines, is_form_urlencoded, ParameterStyle, RequestUrl};
use oauth1_signer::provider::{RealmRule, PROVIDERS};
use oauth1_signer::{
    text::percent_encode_str, Error, ErrorKind, Name, OAuthRequest, Part, Provider, RequestSpec,
    Secret, SignatureMethod, Signer, Transmission,
};
use serde::{Deserialize, Serialize};

use crate::render::{Arg, Hint, Spot};
use crate::say;

/// The library's signature methods by their RFC names, for the page's
/// select (RSA with a pasted private key).
pub fn method_names() -> Vec<&'static str> {
    SignatureMethod::ALL
        .iter()
        .map(SignatureMethod::as_str)
        .collect()
}

/// The library's providers by their names (as `oauth1 --provider` takes
/// them), for the page's select.
pub fn provider_names() -> Vec<&'static str> {
    PROVIDERS.iter().map(|p| p.as_str()).collect()
}

/// What the page shows in place of a secret it was not asked to show.
pub const MASK: &str = "••••••";

/// The Sign panel's fields, as the page sends them (every one may be
/// missing; an empty nonce or timestamp means a fresh one).
#[derive(Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct Fields {
    /// The HTTP method.
    pub method: String,
    /// The request URL, query included.
    pub url: String,
    /// The body, if any: form parameters, JSON or other bytes, as
    /// [`body_type`](Self::body_type) says.
    pub body: String,
    /// What the body is: `form` (or empty: `application/x-www-form-urlencoded`,
    /// its parameters signed), `json` (`application/json`, not signed) or
    /// `bytes` (of [`content_type`](Self::content_type), not signed).
    pub body_type: String,
    /// The media type of a `bytes` body (empty: `application/octet-stream`).
    pub content_type: String,
    /// When `oauth_body_hash` is sent, by the library's words
    /// ([`BodyHashPolicy::NAMES`](oauth1_signer::BodyHashPolicy::NAMES), as
    /// `oauth1 --body-hash` takes them), or empty: the provider's, else
    /// never, but unless-form when an algorithm is given
    /// ([`BodyHash::chosen`](oauth1_signer::BodyHash::chosen)).
    pub body_hash: String,
    /// Its hash, by the library's words
    /// ([`BodyHashAlgorithm::NAMES`](oauth1_signer::BodyHashAlgorithm::NAMES)),
    /// or empty: the provider's, else the signature method's.
    pub body_hash_algorithm: String,
    /// The consumer key.
    pub consumer_key: String,
    /// The consumer secret.
    pub consumer_secret: String,
    /// The token (empty: none).
    pub token: String,
    /// The token secret.
    pub token_secret: String,
    /// `oauth_callback`, for a request-token call (empty: none).
    pub callback: String,
    /// `oauth_verifier`, for an access-token call (empty: none).
    pub verifier: String,
    /// The signature method's RFC name.
    pub signature_method: String,
    /// A PEM private key (PKCS#1 or PKCS#8), used by an RSA method only.
    pub private_key: String,
    /// A provider by its name (`x`, `netsuite`...; empty or `none`: none):
    /// its parameter style, and its realm when none is given.
    pub provider: String,
    /// A pinned nonce (empty: fresh, from the browser's random source).
    pub nonce: String,
    /// A pinned timestamp (empty: `now`).
    pub timestamp: String,
    /// The realm (empty: none).
    pub realm: String,
    /// The browser's clock in seconds since 1970: the timestamp when none is
    /// pinned (WebAssembly has no clock of its own).
    pub now: String,
    /// Where the protocol parameters are sent (RFC 5849 §3.5): `header`,
    /// `query` or `form-body` (the library's words), or empty: the
    /// provider's, else the header.
    pub transmission: String,
    /// Whether to leave `oauth_version` out (it is optional, RFC 5849
    /// §3.1; X expects it, RFC 5849's own examples leave it out).
    pub omit_version: bool,
    /// Whether the user asked to see the secrets: the signing key, a
    /// PLAINTEXT signature (which is the key) and the private key.
    pub show_secrets: bool,
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

/// The X docs "Creating a signature" request, as published
/// (docs.x.com/fundamentals/authentication/oauth-1-0a/creating-a-signature),
/// for the page's example button: it signs to `Ls93hJiZbQ3akF3HF3x1Bz8/zU4=`.
pub fn x_docs_example() -> Fields {
    Fields {
        method: "POST".into(),
        url: "https://api.x.com/1.1/statuses/update.json?include_entities=true".into(),
        body: "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21".into(),
        body_type: "form".into(),
        body_hash: "never".into(),
        body_hash_algorithm: "follow-method".into(),
        consumer_key: "xvz1evFS4wEEPTGEFPHBog".into(),
        consumer_secret: "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw".into(),
        token: "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb".into(),
        token_secret: "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE".into(),
        signature_method: "HMAC-SHA1".into(),
        provider: "none".into(),
        nonce: "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg".into(),
        timestamp: "1318622958".into(),
        transmission: "header".into(),
        ..Fields::default()
    }
}

/// An error and the field it is about (`url`, `body`, `realm`, `method`,
/// `nonce`, `timestamp`, `signature_method`, `callback`, `verifier`,
/// `fields`), if one.
#[derive(Clone, Debug, Serialize)]
pub struct FieldError {
    /// The field's name in [`Fields`].
    pub field: Option<&'static str>,
    /// The error, where in the field, and what the page says of it.
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
            (Some((Part::Input, _)), _) | (_, ErrorKind::AmbiguousMediaType { .. }) => {
                (Some("content_type"), fields.content_type.as_str())
            }
            (_, ErrorKind::InvalidProtocolValue { name, .. }) => {
                let field = match *name {
                    "oauth_nonce" => Some("nonce"),
                    "oauth_timestamp" => Some("timestamp"),
                    "oauth_consumer_key" => Some("consumer_key"),
                    "oauth_token" => Some("token"),
                    "oauth_callback" => Some("callback"),
                    "oauth_verifier" => Some("verifier"),
                    _ => None,
                };
                (field, "")
            }
            (_, ErrorKind::UnknownSignatureMethod { .. }) => (Some("signature_method"), ""),
            (
                _,
                ErrorKind::MissingKey { .. } | ErrorKind::InvalidKey { .. } | ErrorKind::Rsa { .. },
            ) => (Some("private_key"), ""),
            // A body given as other bytes of the form's type, else where the
            // parameters go (the form-body transmission without a form,
            // Mastercard's style off the header).
            (_, ErrorKind::Conflict { .. }) => {
                let form_type = BodyType::from_name(&fields.body_type) == Ok(BodyType::Bytes)
                    && is_form_urlencoded(&fields.content_type).unwrap_or(true);
                (
                    Some(if form_type {
                        "content_type"
                    } else {
                        "transmission"
                    }),
                    "",
                )
            }
            _ => (None, ""),
        };
        let spot = match e.offset() {
            Some((_, at)) if field.is_some() => Spot::at(message, text, at, e.span_len()),
            _ => Spot::message(message),
        };
        FieldError {
            field,
            spot: spot.said(say::error(e, text)),
        }
    }

    /// An error the page found, in `field`: `message` in English, `said`
    /// its code for the page's languages.
    pub fn page(field: &'static str, message: impl Into<String>, said: Hint) -> FieldError {
        FieldError {
            field: Some(field),
            spot: Spot::message(message).said(said),
        }
    }

    /// A select's value that names none of its options.
    pub(crate) fn unknown(field: &'static str) -> FieldError {
        FieldError::page(
            field,
            format!("the {field} select names none of its options"),
            Hint::new("err.unknown-option", [field.to_owned()]),
        )
    }

    /// Fields the page could not read (a bug of the page's own script).
    pub fn fields(e: &serde_json::Error) -> FieldError {
        FieldError::page(
            "fields",
            format!("unreadable fields: {e}"),
            Hint::new("err.fields", [e.to_string()]),
        )
    }
}

/// A protocol parameter taken out of the URL or the body, to be sent in the
/// header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lifted {
    /// `oauth_callback` or `oauth_verifier`.
    pub name: &'static str,
    /// `url` or `body`: where it was typed.
    pub from: &'static str,
}

/// The request as it is to be sent: the URL and body without the protocol
/// parameters taken out of them, and with the signed ones where the
/// transmission puts them (the query, or the end of the body).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Sent {
    /// The URL to send.
    pub url: String,
    /// The body to send, if one is sent.
    pub body: Option<String>,
    /// Its media type.
    pub content_type: Option<String>,
    /// Where the protocol parameters are: `header`, `query` or `form-body`.
    pub transmission: &'static str,
    /// What was taken out, and from where.
    pub lifted: Vec<Lifted>,
}

/// One of the library's warnings.
#[derive(Clone, Debug, Serialize)]
pub struct Warned {
    /// Its own words, in English (for scripts).
    pub message: String,
    /// What the page says of it.
    pub said: Hint,
}

/// The page's word for where a parameter was typed: `url` or `body`.
fn part_word(from: &str) -> &'static str {
    if from == "body" {
        "part.body"
    } else {
        "part.url"
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
    /// The signing key (§3.4.2): `encode(consumer secret)&encode(token
    /// secret)`, each secret [`MASK`]ed unless the user asked to see them.
    pub signing_key: String,
    /// The signature ([`MASK`]ed for PLAINTEXT, which is the key, unless asked).
    pub signature: String,
    /// The `Authorization` header value (its signature masked likewise);
    /// empty when the parameters are sent in the query or the body.
    pub header: String,
    /// A curl command that sends the request, header and body.
    pub curl: String,
    /// Whether a secret is masked in what is shown.
    pub masked: bool,
    /// Whether a private key signs (RSA): there is no signing key text.
    pub rsa: bool,
    /// The request as it is to be sent.
    pub sent: Sent,
    /// The library's warnings.
    pub warnings: Vec<Warned>,
    /// The URL with each byte the library refuses in a URL percent-encoded
    /// (a space, `ş`, `[`, `"`...), when it holds any: what the page offers
    /// in one action.
    pub url_fix: Option<String>,
    /// Whether the curl command carries a masked signature (PLAINTEXT, its
    /// secrets hidden): it cannot be sent as shown.
    pub curl_masked: bool,
    /// The page's advice: `empty-consumer-key`, `empty-consumer-secret`,
    /// `token-without-secret`, `secret-without-token`, `timestamp-ms`,
    /// `lifted`, `verifier-without-token`.
    pub hints: Vec<Hint>,
    /// Why nothing could be signed.
    pub error: Option<FieldError>,
}

/// `fields` (JSON of [`Fields`]) signed, every stage kept.
pub fn sign_json(fields: &str) -> Signed {
    let fields: Fields = match serde_json::from_str(fields) {
        Ok(f) => f,
        Err(e) => {
            return Signed {
                error: Some(FieldError::fields(&e)),
                ..Signed::default()
            }
        }
    };
    let hints = advice(&fields);
    let url_fix = url_encoded(&fields.url);
    let mut signed = signed(&fields, hints);
    signed.url_fix = url_fix;
    signed
}

/// [`sign_json`] once the fields are read.
fn signed(fields: &Fields, hints: Vec<Hint>) -> Signed {
    match with_request(fields, false, |signer, request| signer.trace(request)) {
        Ok((t, spec, taken)) => {
            let secret = t.signature.is_secret();
            let shown = fields.show_secrets;
            let signing_key = match (&t.signing_key, shown) {
                (Some(k), true) => k.expose().to_owned(),
                (Some(_), false) => masked_key(fields),
                (None, _) => String::new(),
            };
            // A PLAINTEXT signature is the key: masked wherever it is sent,
            // unless asked.
            let encoded = percent_encode_str(t.signature.as_str()).to_string();
            let masked = |text: String, quote: &str| {
                if secret && !shown {
                    text.replace(
                        &format!("oauth_signature={quote}{encoded}{quote}"),
                        &format!("oauth_signature={quote}{MASK}{quote}"),
                    )
                } else {
                    text
                }
            };
            let signature = if secret && !shown {
                MASK.to_owned()
            } else {
                t.signature.as_str().to_owned()
            };
            let lifted: Vec<Lifted> = taken
                .iter()
                .map(|l| Lifted {
                    name: l.name.as_str(),
                    from: if l.from == Part::FormBody {
                        "body"
                    } else {
                        "url"
                    },
                })
                .collect();
            let mut hints = hints;
            // Taken out of the URL or the body, a parameter is sent with
            // the others, wherever the transmission puts them.
            hints.extend(
                lifted.iter().map(|l| {
                    Hint::with("lifted", [Arg::data(l.name), Arg::word(part_word(l.from))])
                }),
            );
            // What goes on the wire: the library's one rule of where each
            // parameter is sent.
            let on_wire = match spec.sent(&t.signed) {
                Ok(sent) => sent,
                Err(e) => {
                    return Signed {
                        error: Some(FieldError::new(&e, fields)),
                        hints,
                        ..Signed::default()
                    }
                }
            };
            let header = masked(on_wire.authorization.clone().unwrap_or_default(), "\"");
            let body = on_wire
                .body
                .as_deref()
                .map(|b| masked(String::from_utf8_lossy(b).into_owned(), ""));
            let sent = Sent {
                url: masked(on_wire.url.clone(), ""),
                body,
                content_type: on_wire.content_type.clone(),
                transmission: spec.transmission().as_str(),
                lifted,
            };
            Signed {
                params: t
                    .collected_params
                    .iter()
                    .map(|(_, n, v)| {
                        [
                            String::from_utf8_lossy(n).into_owned(),
                            String::from_utf8_lossy(v).into_owned(),
                        ]
                    })
                    .collect(),
                normalized: t.normalized_params.clone(),
                base_string_lines: lines(&t.base_string),
                base_string: t.base_string,
                masked: !shown && (secret || t.signing_key.is_some()),
                rsa: t.signing_key.is_none(),
                signing_key,
                signature,
                curl: curl(
                    &fields.method,
                    &sent.url,
                    &header,
                    sent.body.as_deref().zip(sent.content_type.as_deref()),
                ),
                header,
                sent,
                curl_masked: secret && !shown,
                url_fix: None,
                warnings: t
                    .warnings
                    .iter()
                    .map(|w| Warned {
                        message: w.to_string(),
                        said: say::warning(w),
                    })
                    .collect(),
                hints,
                error: None,
            }
        }
        Err(e) => Signed {
            error: Some(*e),
            hints,
            ..Signed::default()
        },
    }
}

/// A select's value that names none of its options: the field's name.
type Unknown = &'static str;

/// The value a select (`field`) names by the library's word for it, or
/// none when it is empty.
fn chosen<T: FromStr>(word: &str, field: Unknown) -> Result<Option<T>, Unknown> {
    match word {
        "" => Ok(None),
        word => word.parse().map(Some).map_err(|_| field),
    }
}

/// The provider the select names (`none`, or empty: none).
fn provider(name: &str) -> Result<Option<Provider>, Unknown> {
    match name {
        "none" => Ok(None),
        name => chosen(name, "provider"),
    }
}

/// What a body is, by the page's select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyType {
    /// Form parameters, signed.
    Form,
    /// JSON, sent as `application/json`, not signed.
    Json,
    /// Other bytes, sent with their media type, not signed.
    Bytes,
}

impl BodyType {
    /// The type the select names: `form` (or none), `json`, `bytes`.
    fn from_name(name: &str) -> Result<BodyType, Unknown> {
        match name {
            "" | "form" => Ok(BodyType::Form),
            "json" => Ok(BodyType::Json),
            "bytes" => Ok(BodyType::Bytes),
            _ => Err("body_type"),
        }
    }
}

/// The media type of a JSON body.
const JSON: &str = "application/json";

/// What a provider's profile sets, by the page's words, for its selects:
/// the library's [`Provider::profile`], and the realm its rule gives
/// `url`.
#[derive(Clone, Debug, Serialize)]
pub struct ProfileShown {
    /// The signature method's RFC name.
    pub method: &'static str,
    /// `header`, `query` or `form-body`.
    pub transmission: &'static str,
    /// When the body is hashed (the body-hash select's word).
    pub body_hash: &'static str,
    /// Which hash.
    pub body_hash_algorithm: &'static str,
    /// Whether `oauth_version` is sent.
    pub version: bool,
    /// `none`, or `netsuite-account`: the realm from the URL's host.
    pub realm_rule: &'static str,
    /// The realm that rule gives the URL, if any.
    pub realm: Option<String>,
    /// `rfc5849`, or `mastercard`: its signers' parameter string.
    pub style: &'static str,
}

/// The profile of the provider named `name` (`None` for none or an unknown
/// name), for a request to `url`.
pub fn profile_shown(name: &str, url: &str) -> Option<ProfileShown> {
    let profile = provider(name).ok()??.profile();
    Some(ProfileShown {
        method: profile.method.as_str(),
        transmission: profile.transmission.as_str(),
        body_hash: profile.body_hash.policy().as_str(),
        body_hash_algorithm: profile.body_hash.algorithm().as_str(),
        version: profile.version,
        realm_rule: match profile.realm {
            RealmRule::NetSuiteAccount => "netsuite-account",
            _ => "none",
        },
        realm: profile.realm_for(url),
        style: match profile.style {
            ParameterStyle::Mastercard => "mastercard",
            _ => "rfc5849",
        },
    })
}

/// The signing key's shape with each secret masked: `••••••&••••••`, or
/// `••••••&` when there is no token secret (the `&` is always there).
fn masked_key(fields: &Fields) -> String {
    let mask = |s: &str| if s.is_empty() { "" } else { MASK };
    format!(
        "{}&{}",
        mask(&fields.consumer_secret),
        mask(&fields.token_secret)
    )
}

/// What is likely a slip, though it signs: a blank credential, a token
/// without its secret, a timestamp in milliseconds, a verifier without the
/// temporary token it belongs to.
fn advice(fields: &Fields) -> Vec<Hint> {
    let mut out = Vec::new();
    let mut hint = |on: bool, code: &'static str, args: Vec<String>| {
        if on {
            out.push(Hint::new(code, args));
        }
    };
    hint(fields.consumer_key.is_empty(), "empty-consumer-key", vec![]);
    hint(
        fields.consumer_secret.is_empty(),
        "empty-consumer-secret",
        vec![],
    );
    hint(
        !fields.token.is_empty() && fields.token_secret.is_empty(),
        "token-without-secret",
        vec![],
    );
    hint(
        fields.token.is_empty() && !fields.token_secret.is_empty(),
        "secret-without-token",
        vec![],
    );
    hint(
        !fields.verifier.is_empty() && fields.token.is_empty(),
        "verifier-without-token",
        vec![],
    );
    // JSON that does not parse is sent all the same (it is not signed), but
    // the server will refuse it.
    if BodyType::from_name(&fields.body_type) == Ok(BodyType::Json) && !fields.body.is_empty() {
        if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&fields.body) {
            out.push(Hint::new(
                "json-invalid",
                [e.line().to_string(), e.column().to_string()],
            ));
        }
    }
    // A form body typed as text (`status=ağaç ığdır`): signed as those
    // bytes, which a form-encoded body never holds raw, so the other side
    // (oauthlib) will not read it.
    if BodyType::from_name(&fields.body_type) == Ok(BodyType::Form) && !fields.body.is_empty() {
        out.extend(raw_form_body(&fields.body));
    }
    // Seconds since 1970 have ten digits until the year 2286; thirteen are
    // milliseconds (JavaScript's Date.now()).
    let ts = fields.timestamp.trim();
    if ts.len() >= 13 && ts.bytes().all(|b| b.is_ascii_digit()) {
        let seconds = ts.get(..ts.len() - 3).unwrap_or_default();
        out.push(Hint::new(
            "timestamp-ms",
            [ts.to_owned(), seconds.to_owned()],
        ));
    }
    out
}

/// `url` with each byte the library refuses in a URL percent-encoded, as
/// the signer encodes (each refused character's UTF-8 bytes as `%XX`):
/// none if the library refuses none. The library says which byte, one at a
/// time; a URL that fails otherwise (no scheme, a malformed escape) is
/// left as it is, from that point.
pub fn url_encoded(url: &str) -> Option<String> {
    let mut out = url.to_owned();
    // Each pass encodes one character and parses again: a URL is short,
    // and the bound stops any loop.
    for _ in 0..=url.len() {
        match RequestUrl::parse(&out) {
            Err(e) => match e.kind() {
                ErrorKind::InvalidByte {
                    part: Part::Url,
                    offset,
                    ..
                } => {
                    let mut start = (*offset).min(out.len());
                    while !out.is_char_boundary(start) {
                        start -= 1;
                    }
                    let len = out[start..].chars().next().map_or(0, char::len_utf8);
                    if len == 0 {
                        break;
                    }
                    let encoded = percent_encode_str(&out[start..start + len]).to_string();
                    out.replace_range(start..start + len, &encoded);
                }
                _ => break,
            },
            Ok(_) => break,
        }
    }
    (out != url).then_some(out)
}

/// A form body with a byte the library refuses in a query (a form body is
/// encoded as a query is): the character, where, and its encoding.
fn raw_form_body(body: &str) -> Option<Hint> {
    const HOST: &str = "http://h/?";
    let e = RequestUrl::parse(&format!("{HOST}{body}")).err()?;
    match e.kind() {
        ErrorKind::InvalidByte {
            part: Part::Url,
            offset,
            ..
        } if *offset >= HOST.len() => {
            let at = offset - HOST.len();
            Some(Hint::with(
                "form-raw",
                [
                    say::char_at(body, at),
                    Arg::data(at.to_string()),
                    say::encoded_at(body, at),
                ],
            ))
        }
        _ => None,
    }
}

/// `value` quoted for a POSIX shell: in single quotes, each `'` written `'\''`.
fn shell_quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}

/// A curl command that sends the request as signed: the method (when curl
/// would not choose it), the URL exactly as signed, the header (if one is
/// sent) and the body (if one is sent) with its media type.
fn curl(method: &str, url: &str, header: &str, body: Option<(&str, &str)>) -> String {
    let upper = method.to_ascii_uppercase();
    let mut out = String::from("curl");
    if upper == "HEAD" {
        // With -X HEAD curl waits for a body that never comes; -I sends a HEAD.
        out.push_str(" -I");
    } else if !(upper == "GET" && body.is_none() || upper == "POST" && body.is_some()) {
        // curl sends GET, or POST with a body, by itself.
        out.push_str(" -X ");
        out.push_str(&shell_quote(method));
    }
    // curl would otherwise resolve `/a/../b/./c` to `/b/c`, a path that
    // was not signed (the base string URI keeps the path as sent, §3.4.1.2).
    out.push_str(" --path-as-is ");
    out.push_str(&shell_quote(url));
    // No header when the parameters are in the query or the body.
    if !header.is_empty() {
        out.push_str(" \\\n  -H ");
        out.push_str(&shell_quote(&format!("Authorization: {header}")));
    }
    if let Some((body, media)) = body {
        out.push_str(" \\\n  -H ");
        out.push_str(&shell_quote(&format!("Content-Type: {media}")));
        out.push_str(" \\\n  --data-raw ");
        out.push_str(&shell_quote(body));
    }
    out
}

/// The page's fields as the library's outgoing request: an empty field is
/// an absent one; an empty nonce is made afresh, an empty timestamp is the
/// browser's clock (`now`: WebAssembly has no clock of its own).
///
/// # Errors
/// A select's value that names none of its options, by the field's name.
pub fn spec_of(fields: &Fields) -> Result<RequestSpec, Unknown> {
    let some = |v: &str| Some(v.to_owned()).filter(|v| !v.is_empty());
    let body_type = BodyType::from_name(&fields.body_type)?;
    let mut spec = RequestSpec::default();
    spec.provider = provider(&fields.provider)?;
    spec.transmission = chosen(&fields.transmission, "transmission")?;
    spec.method = fields.method.clone();
    spec.url = fields.url.clone();
    // With the form-body transmission the parameters need a form body to
    // join, even an empty one; a POST, PUT or PATCH is sent with a body (a
    // server may refuse one without a length).
    let carries_body = matches!(
        fields.method.to_ascii_uppercase().as_str(),
        "POST" | "PUT" | "PATCH"
    );
    let has_body = !fields.body.is_empty()
        || carries_body
        || (spec.transmission() == Transmission::FormBody && body_type == BodyType::Form);
    if has_body {
        match body_type {
            BodyType::Form => spec.form_body = Some(fields.body.clone()),
            BodyType::Json => {
                spec.body = Some(fields.body.clone().into_bytes());
                spec.content_type = Some(JSON.to_owned());
            }
            BodyType::Bytes => {
                spec.body = Some(fields.body.clone().into_bytes());
                spec.content_type = some(&fields.content_type);
            }
        }
    }
    spec.body_hash = chosen(&fields.body_hash, "body_hash")?;
    spec.body_hash_algorithm = chosen(&fields.body_hash_algorithm, "body_hash_algorithm")?;
    spec.consumer_key = fields.consumer_key.clone();
    spec.consumer_secret = Some(Secret::new(fields.consumer_secret.as_str()));
    spec.token = some(&fields.token);
    spec.token_secret = Some(Secret::new(fields.token_secret.as_str()));
    spec.signature_method = Some(fields.signature_method.clone());
    // The key field keeps its text whatever the method; an RSA method
    // signs with it.
    let rsa = fields
        .signature_method
        .parse::<SignatureMethod>()
        .is_ok_and(|m| m.is_rsa());
    spec.rsa_private_key =
        (rsa && !fields.private_key.is_empty()).then(|| Secret::new(fields.private_key.as_str()));
    spec.nonce = some(&fields.nonce);
    spec.timestamp = some(&fields.timestamp).or_else(|| some(&fields.now));
    spec.version = !fields.omit_version;
    spec.realm = some(&fields.realm);
    spec.callback = some(&fields.callback);
    spec.verifier = some(&fields.verifier);
    Ok(spec)
}

/// Builds the signer and the request of `fields` (through the library's
/// outgoing request, [`spec_of`]; with the parameters `in_header`
/// whatever the transmission, for a comparison) and runs `f` on them; an `oauth_callback`
/// or `oauth_verifier` typed into the URL or the body is taken out of it
/// ([`RequestSpec::lift_request_params`]) and sent with the other protocol
/// parameters.
///
/// # Errors
/// The first error of the request's settings or of `f`, placed in its
/// field; a callback or verifier given both in its field and in the URL or
/// body.
pub fn with_request<R>(
    fields: &Fields,
    in_header: bool,
    f: impl Fn(&Signer, &OAuthRequest<'_>) -> Result<R, Error>,
) -> Result<(R, RequestSpec, Vec<TakenOut>), Box<FieldError>> {
    let placed = |e: Error| Box::new(FieldError::new(&e, fields));
    let mut spec = spec_of(fields).map_err(|field| Box::new(FieldError::unknown(field)))?;
    if in_header {
        spec.transmission = Some(Transmission::Header);
    }
    let lifted = spec.lift_request_params().map_err(|e| match e.kind() {
        ErrorKind::DuplicateProtocolParameter { name, at, .. } => {
            let field = if name == Name::Callback.as_str() {
                "callback"
            } else {
                "verifier"
            };
            let from = match at {
                Some((Part::FormBody, _)) => "body",
                _ => "url",
            };
            Box::new(FieldError::page(
                field,
                format!("{name} is given twice: in its own field and in the {from}"),
                Hint::with(
                    "given-twice",
                    [Arg::data(name.clone()), Arg::word(part_word(from))],
                ),
            ))
        }
        _ => placed(e),
    })?;
    let signer = spec.fresh_signer().map_err(placed)?;
    let params = spec.protocol_params().map_err(placed)?;
    let result = f(&signer, &spec.request(&params)).map_err(placed)?;
    Ok((result, spec, lifted))
}

/// `base` broken as the library shows a base string
/// ([`base_string_lines`]): joined, the lines are the base string.
fn lines(base: &str) -> Vec<String> {
    base_string_lines(base)
        .into_iter()
        .map(str::to_owned)
        .collect()
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
        let e = with_request(&fields, true, |s, r| s.trace(r))
            .err()
            .unwrap();
        assert_eq!(e.field, Some("url"));
        // "https://h/?a=" is 13 bytes.
        assert_eq!((e.spot.offset, e.spot.at.as_str()), (Some(13), "%2G"));
    }

    // Twitter's "Sign in with Twitter" request-token call
    // (fixtures/signatures.json, twitter-sign-in-request-token): its
    // callback typed into the URL signs as the callback field does.
    #[test]
    fn a_callback_in_the_url_is_sent_in_the_header_and_signs_the_same() {
        let fields = Fields {
            method: "POST".into(),
            url: "https://api.twitter.com/oauth/request_token?oauth_callback=http%3A%2F%2Flocalhost%2Fsign-in-with-twitter%2F".into(),
            consumer_key: "cChZNFj6T5R0TigYB9yd1w".into(),
            consumer_secret: "L8qq9PZyRg6ieKGEKhZolGC0vJWLw8iEJ88DRdyOg".into(),
            signature_method: "HMAC-SHA1".into(),
            nonce: "ea9ec8429b68d6b77cd5600adbbb0456".into(),
            timestamp: "1318467427".into(),
            ..Fields::default()
        };
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert_eq!(s.signature, "F1Li3tvehgcraF8DMJ7OyxO4w9Y=");
        assert_eq!(s.sent.url, "https://api.twitter.com/oauth/request_token");
        assert_eq!(
            s.sent.lifted,
            [Lifted {
                name: "oauth_callback",
                from: "url"
            }]
        );
        assert!(s
            .header
            .contains(r#"oauth_callback="http%3A%2F%2Flocalhost%2Fsign-in-with-twitter%2F""#));
        // Given in its field too: refused, in that field.
        let twice = Fields {
            callback: "oob".into(),
            ..fields
        };
        let e = sign_json(&serde_json::to_string(&twice).unwrap())
            .error
            .unwrap();
        assert_eq!(e.field, Some("callback"));
    }

    // RFC 5849 §1.2, POST /initiate: no oauth_version, a realm.
    #[test]
    fn the_rfc_s_temporary_credentials_sign_without_oauth_version() {
        let fields = Fields {
            method: "POST".into(),
            url: "https://photos.example.net/initiate".into(),
            realm: "Photos".into(),
            signature_method: "HMAC-SHA1".into(),
            timestamp: "137131200".into(),
            nonce: "wIjqoS".into(),
            callback: "http://printer.example.com/ready".into(),
            consumer_key: "dpf43f3p2l4k3l03".into(),
            consumer_secret: "kd94hf93k423kf44".into(),
            omit_version: true,
            ..Fields::default()
        };
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert_eq!(s.signature, "74KNZJeDHnMBp0EMJ9ZHt/XKycU=");
        assert!(!s.header.contains("oauth_version"));
    }

    #[test]
    fn secrets_are_masked_unless_asked() {
        let mut fields = x_docs_example();
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert_eq!(s.signing_key, format!("{MASK}&{MASK}"));
        assert!(s.masked);
        fields.show_secrets = true;
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        // X docs "Creating a signature": the signing key as published.
        assert_eq!(
            s.signing_key,
            "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw&LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"
        );
        assert_eq!(s.signature, "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=");
        // PLAINTEXT's signature is the key: masked too.
        fields.show_secrets = false;
        fields.signature_method = "PLAINTEXT".into();
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert_eq!(s.signature, MASK);
        assert!(
            !s.header.contains("kAcSOq") && !s.curl.contains("kAcSOq"),
            "{}",
            s.header
        );
    }

    #[test]
    fn the_parameters_are_sent_where_the_transmission_says() {
        // The X docs "Creating a signature" request: its published protocol
        // parameters and signature, form-encoded in name order (§3.5.2-3).
        const PROTOCOL: &str = "oauth_consumer_key=xvz1evFS4wEEPTGEFPHBog\
            &oauth_nonce=kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg\
            &oauth_signature=Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D&oauth_signature_method=HMAC-SHA1\
            &oauth_timestamp=1318622958\
            &oauth_token=370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb&oauth_version=1.0";
        let example = x_docs_example();
        let sign = |transmission: &str| {
            let fields = Fields {
                transmission: transmission.into(),
                ..x_docs_example()
            };
            sign_json(&serde_json::to_string(&fields).unwrap())
        };
        let query = sign("query");
        assert_eq!(query.sent.transmission, "query");
        assert_eq!(query.sent.url, format!("{}&{PROTOCOL}", example.url));
        assert_eq!(query.sent.body.as_deref(), Some(example.body.as_str()));
        assert_eq!(query.header, "");
        assert!(!query.curl.contains("Authorization"), "{}", query.curl);
        assert!(query
            .curl
            .contains(&format!("'{}&{PROTOCOL}'", example.url)));
        let body = sign("form-body");
        assert_eq!(body.sent.transmission, "form-body");
        assert_eq!(body.sent.url, example.url);
        assert_eq!(body.sent.body, Some(format!("{}&{PROTOCOL}", example.body)));
        assert_eq!(body.header, "");
        assert!(body
            .curl
            .ends_with(&format!("--data-raw '{}&{PROTOCOL}'", example.body)));
        // The header, as before; the signature is the same in all three.
        let header = sign("");
        assert_eq!(header.sent.transmission, "header");
        assert!(header
            .header
            .contains("oauth_signature=\"Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D\""));
        assert_eq!(
            (query.signature, body.signature),
            (header.signature.clone(), header.signature)
        );
        // PLAINTEXT's signature, the key, is masked in the query too.
        let fields = Fields {
            transmission: "query".into(),
            signature_method: "PLAINTEXT".into(),
            ..x_docs_example()
        };
        let plain = sign_json(&serde_json::to_string(&fields).unwrap());
        assert!(
            plain
                .sent
                .url
                .contains(&format!("&oauth_signature={MASK}&"))
                && !plain.sent.url.contains("kAcSOq"),
            "{}",
            plain.sent.url
        );
        let fields = Fields {
            transmission: "smoke-signal".into(),
            ..x_docs_example()
        };
        let refused = sign_json(&serde_json::to_string(&fields).unwrap());
        assert_eq!(refused.error.unwrap().field, Some("transmission"));
    }

    #[test]
    fn curl_quotes_for_the_shell_and_sends_the_body() {
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        let form = Some(("x=1", "application/x-www-form-urlencoded"));
        let c = curl("POST", "https://h/", r#"OAuth a="b""#, form);
        assert_eq!(
            c,
            "curl --path-as-is 'https://h/' \\\n  -H 'Authorization: OAuth a=\"b\"' \\\n  \
             -H 'Content-Type: application/x-www-form-urlencoded' \\\n  --data-raw 'x=1'"
        );
        assert!(
            curl("GET", "https://h/", "h", None).starts_with("curl --path-as-is 'https://h/' \\")
        );
        assert!(curl("DELETE", "https://h/", "h", None)
            .starts_with("curl -X 'DELETE' --path-as-is 'https://h/'"));
        assert!(curl("GET", "https://h/", "h", form).starts_with("curl -X 'GET' "));
        // curl would wait for the body of a HEAD's answer.
        assert!(curl("HEAD", "https://h/", "h", None).starts_with("curl -I --path-as-is "));
        // The path as signed, dot segments and all.
        assert!(curl("GET", "http://h/a/../b/./c", "", None)
            .contains(" --path-as-is 'http://h/a/../b/./c'"));
    }

    /// X API v2's `POST /2/tweets` (docs.x.com, "Create or Edit Post"): a
    /// JSON body, sent as `application/json` and not signed.
    #[test]
    fn a_json_body_is_sent_as_json_and_not_signed() {
        let fields = Fields {
            url: "https://api.x.com/2/tweets".into(),
            body: r#"{"text":"Hello Ladies + Gentlemen"}"#.into(),
            body_type: "json".into(),
            ..x_docs_example()
        };
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert!(s.error.is_none(), "{:?}", s.error);
        assert!(!s.base_string.contains("text"), "{}", s.base_string);
        assert!(!s.params.iter().any(|[n, _]| n == "oauth_body_hash"));
        assert_eq!(s.sent.content_type.as_deref(), Some("application/json"));
        assert!(s.curl.ends_with(
            "-H 'Content-Type: application/json' \\\n  --data-raw '{\"text\":\"Hello Ladies + Gentlemen\"}'"
        ), "{}", s.curl);
        assert!(s.hints.is_empty(), "{:?}", s.hints);
        let broken = Fields {
            body: "{\"text\":".into(),
            ..fields
        };
        let s = sign_json(&serde_json::to_string(&broken).unwrap());
        assert_eq!(
            s.hints,
            [Hint::new("json-invalid", ["1".into(), "8".into()])]
        );
    }

    /// The body hash extension's example (draft-eaton-oauth-bodyhash-00,
    /// Appendix A; fixtures/body_hash.json): "Hello World!" is
    /// `Lve95gjOVATpfV8EL5X4nxwjKHE=` in SHA-1.
    #[test]
    fn other_bytes_carry_their_media_type_and_the_hash_asked_for() {
        let fields = Fields {
            method: "PUT".into(),
            url: "https://h/r".into(),
            body: "Hello World!".into(),
            body_type: "bytes".into(),
            content_type: "text/plain".into(),
            body_hash: "unless-form".into(),
            body_hash_algorithm: "sha1".into(),
            ..x_docs_example()
        };
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert!(s.error.is_none(), "{:?}", s.error);
        assert!(s.params.contains(&[
            "oauth_body_hash".into(),
            "Lve95gjOVATpfV8EL5X4nxwjKHE=".into()
        ]));
        assert_eq!(s.sent.content_type.as_deref(), Some("text/plain"));
        // Never on a form, whose parameters are signed.
        let form = Fields {
            body: "a=1".into(),
            body_type: "form".into(),
            ..fields.clone()
        };
        let s = sign_json(&serde_json::to_string(&form).unwrap());
        assert!(!s.params.iter().any(|[n, _]| n == "oauth_body_hash"));
        let unknown = Fields {
            body_hash: "sometimes".into(),
            ..fields
        };
        let s = sign_json(&serde_json::to_string(&unknown).unwrap());
        assert_eq!(s.error.unwrap().field, Some("body_hash"));
    }

    /// The body-hash selects left empty take the library's one rule
    /// (`BodyHash::chosen`), as `oauth1 --body-hash-algorithm` alone does:
    /// a hash named is sent. Base64 of SHA-256 of the empty body: NIST CAVP
    /// SHA256ShortMsg.rsp, Len = 0 (fixtures/body_hash.json); of `a=1`:
    /// Python's hashlib and base64.
    #[test]
    fn a_body_hash_word_chosen_alone_takes_the_other_as_the_cli_does() {
        let hash_of = |fields: &Fields| {
            let s = sign_json(&serde_json::to_string(fields).unwrap());
            assert!(s.error.is_none(), "{:?}", s.error);
            s.params
                .into_iter()
                .find(|[n, _]| n == "oauth_body_hash")
                .map(|[_, v]| v)
        };
        let get = Fields {
            method: "GET".into(),
            url: "https://h/r".into(),
            body: String::new(),
            body_hash: String::new(),
            body_hash_algorithm: "sha256".into(),
            ..x_docs_example()
        };
        // Before: an empty policy was the provider's rule, whatever the hash.
        assert_eq!(
            hash_of(&get).as_deref(),
            Some("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        );
        // A policy alone keeps the provider's hash (Mastercard's SHA-256),
        // where the page used the signature method's (SHA-1 here).
        let form = Fields {
            body: "a=1".into(),
            provider: "mastercard".into(),
            body_hash: "always".into(),
            body_hash_algorithm: String::new(),
            // Mastercard's APIs are one-legged.
            token: String::new(),
            token_secret: String::new(),
            ..x_docs_example()
        };
        assert_eq!(
            hash_of(&form).as_deref(),
            Some("wi/qXXQo5c9H72NUyXySI8ldbc3D4NIwD/eQVrH/PYU=")
        );
        let unknown = Fields {
            body_hash_algorithm: "SHA-256".into(),
            ..get
        };
        let s = sign_json(&serde_json::to_string(&unknown).unwrap());
        assert_eq!(s.error.unwrap().field, Some("body_hash_algorithm"));
    }

    /// An empty transmission is the provider's (WooCommerce's query), as
    /// `oauth1 --provider woocommerce` sends it; the words are the library's.
    #[test]
    fn an_empty_transmission_is_the_provider_s() {
        let sent = |provider: &str, transmission: &str| {
            let fields = Fields {
                provider: provider.into(),
                transmission: transmission.into(),
                ..x_docs_example()
            };
            let s = sign_json(&serde_json::to_string(&fields).unwrap());
            (s.sent.transmission, s.error.map(|e| e.field))
        };
        assert_eq!(sent("woocommerce", ""), ("query", None));
        assert_eq!(sent("none", ""), ("header", None));
        assert_eq!(sent("woocommerce", "header"), ("header", None));
        assert_eq!(sent("none", "form-body"), ("form-body", None));
        assert_eq!(sent("none", "body"), ("", Some(Some("transmission"))));
    }

    #[test]
    fn slips_are_hinted() {
        let fields = Fields {
            token: "t".into(),
            verifier: "v".into(),
            timestamp: "1318622958000".into(),
            ..Fields::default()
        };
        let codes: Vec<&str> = advice(&fields).iter().map(|h| h.code).collect();
        assert_eq!(
            codes,
            [
                "empty-consumer-key",
                "empty-consumer-secret",
                "token-without-secret",
                "timestamp-ms"
            ]
        );
        assert_eq!(
            advice(&fields)[3].args,
            [Arg::data("1318622958000"), Arg::data("1318622958")]
        );
        assert!(advice(&x_docs_example()).is_empty());
    }

    #[test]
    fn an_unknown_method_names_its_field() {
        let s = sign_json(r#"{"signature_method":"HMAC-MD5","url":"https://h/","method":"GET"}"#);
        assert_eq!(s.error.unwrap().field, Some("signature_method"));
    }

    // Python's urllib.parse.quote of each refused part (a space %20, ş
    // %C5%9F, [ ] %5B %5D, { " } %7B %22 %7D; `:` and `=` are allowed in a
    // query, as quote(safe=':=') keeps them).
    #[test]
    fn a_url_with_bytes_to_encode_is_offered_encoded() {
        for (url, fixed) in [
            ("https://h/?q=a b", "https://h/?q=a%20b"),
            ("https://h/?e=ş", "https://h/?e=%C5%9F"),
            ("https://h/?ids[]=1", "https://h/?ids%5B%5D=1"),
            (
                r#"https://h/?filter={"a":1}"#,
                "https://h/?filter=%7B%22a%22:1%7D",
            ),
        ] {
            assert_eq!(url_encoded(url).as_deref(), Some(fixed), "{url}");
        }
        assert_eq!(url_encoded("https://h/?q=a%20b"), None);
        assert_eq!(url_encoded("ftp://h/ x"), None);
    }

    #[test]
    fn a_form_body_typed_as_text_is_hinted() {
        let h = raw_form_body("status=ağaç ığdır").unwrap();
        assert_eq!(h.code, "form-raw");
        assert_eq!(h.args[1..], [Arg::data("8"), Arg::data("%C4%9F")]);
        assert_eq!(raw_form_body("status=a%C4%9Fa%C3%A7"), None);
    }
}
