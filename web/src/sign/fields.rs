//! The Sign panel's fields, as the page sends them, and the words of its
//! selects (the transmission, the provider, the body's type, the body hash).

use oauth1_signer::pipeline::ParameterStyle;
use oauth1_signer::provider::{RealmRule, PROVIDERS};
use std::str::FromStr;

use oauth1_signer::{Provider, SignatureMethod};
use serde::{Deserialize, Serialize};

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

/// A select's value that names none of its options: the field's name.
pub(crate) type Unknown = &'static str;

/// The value a select (`field`) names by the library's word for it, or
/// none when it is empty.
pub(crate) fn chosen<T: FromStr>(word: &str, field: Unknown) -> Result<Option<T>, Unknown> {
    match word {
        "" => Ok(None),
        word => word.parse().map(Some).map_err(|_| field),
    }
}

/// The provider the select names (`none`, or empty: none).
pub(crate) fn provider(name: &str) -> Result<Option<Provider>, Unknown> {
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
    pub(crate) fn from_name(name: &str) -> Result<BodyType, Unknown> {
        match name {
            "" | "form" => Ok(BodyType::Form),
            "json" => Ok(BodyType::Json),
            "bytes" => Ok(BodyType::Bytes),
            _ => Err("body_type"),
        }
    }
}

/// The media type of a JSON body.
pub(crate) const JSON: &str = "application/json";

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
