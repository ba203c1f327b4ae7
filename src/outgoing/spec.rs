//! The outgoing request: one request to sign, with its settings, its
//! credentials, a provider's defaults, the checks between them, the body
//! hash, and where each parameter is sent ([`RequestSpec::sent`]).

use std::fmt;

use crate::error::Error;
use crate::pipeline::body_hash::{BodyHash, BodyHashAlgorithm, BodyHashPolicy};
use crate::pipeline::credentials::{Credentials, Secret};
use crate::pipeline::protocol::{Name, Transmission};
use crate::pipeline::request::OAuthRequest;
use crate::pipeline::sign::{SignatureMethod, SigningKey};
use crate::pipeline::signed::Trace;
use crate::pipeline::signer::Signer;
use crate::provider::profile::{Profile, Provider};

/// The media type of a form body.
pub(crate) const FORM_URLENCODED: &str = "application/x-www-form-urlencoded";

/// One request to sign, with its credentials and protocol parameters, in the
/// schema of the test vectors' `inputs`.
///
/// Build it with [`from_json`] (feature `json`; or any serde
/// deserializer), then get a [`Signer`] and an [`OAuthRequest`] from it, or the
/// whole [`Trace`] at once.
///
/// ```
/// use oauth1_signer::RequestSpec;
///
/// # let json = r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true", "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21", "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE", "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "timestamp": "1318622958", "version": "1.0", "signature_method": "HMAC-SHA1"}"#;
/// // `json` holds the inputs of vector `x-docs-creating-a-signature`.
/// let spec = RequestSpec::from_json(json)?;
/// assert_eq!(spec.consumer_key, "xvz1evFS4wEEPTGEFPHBog");
/// assert!(spec.version);
///
/// let shown = format!("{spec:?}");
/// assert!(shown.contains("xvz1evFS4wEEPTGEFPHBog"));
/// assert!(!shown.contains("kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw")); // consumer secret
/// assert!(!shown.contains("LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE")); // token secret
///
/// // Serialising gives the same schema back.
/// let again = RequestSpec::from_json(&serde_json::to_string(&spec).unwrap())?;
/// assert_eq!(again.consumer_key, spec.consumer_key);
/// assert_eq!(again.consumer_secret.unwrap().expose(), "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw");
/// # Ok::<(), oauth1_signer::json::JsonError>(())
/// ```
// `from_json` is linked to with the `json` feature, else to docs.rs.
#[cfg_attr(feature = "json", doc = "[`from_json`]: RequestSpec::from_json")]
#[cfg_attr(
    not(feature = "json"),
    doc = concat!(
        "[`from_json`]: https://docs.rs/oauth1-signer/",
        env!("CARGO_PKG_VERSION"),
        "/oauth1_signer/struct.RequestSpec.html#method.from_json"
    )
)]
#[derive(Clone, Default)]
#[cfg_attr(feature = "json", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RequestSpec {
    /// The HTTP method, as sent (the base string upper-cases it).
    pub method: String,
    /// The absolute URL, exactly as sent; its query is signed.
    pub url: String,
    /// A raw `application/x-www-form-urlencoded` body, whose parameters are
    /// signed; `Some("")` is an empty form body, `None` no form body.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub form_body: Option<String>,
    /// `oauth_consumer_key`.
    pub consumer_key: String,
    /// The consumer secret; absent is empty.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "crate::outgoing::serde_fields::secret",
            serialize_with = "crate::outgoing::serde_fields::expose"
        )
    )]
    pub consumer_secret: Option<Secret>,
    /// `oauth_token`; absent means none is sent.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub token: Option<String>,
    /// The token secret; absent is empty. It goes into the signing key even
    /// without a `token`.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "crate::outgoing::serde_fields::secret",
            serialize_with = "crate::outgoing::serde_fields::expose"
        )
    )]
    pub token_secret: Option<Secret>,
    /// `oauth_signature_method` (any case); absent is `HMAC-SHA1`.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub signature_method: Option<String>,
    /// `oauth_timestamp`; absent means none is sent.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub timestamp: Option<String>,
    /// `oauth_nonce`; absent means none is sent.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub nonce: Option<String>,
    /// Whether `oauth_version="1.0"` is sent: `"version": "1.0"` in JSON, or
    /// no `version` at all. Any other version is refused when parsing.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "crate::outgoing::serde_fields::is_false",
            with = "crate::outgoing::serde_fields::version"
        )
    )]
    pub version: bool,
    /// `oauth_callback`, for a temporary-credentials request.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub callback: Option<String>,
    /// `oauth_verifier`, for a token-credentials request.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub verifier: Option<String>,
    /// `realm`, sent first in the header and never signed.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub realm: Option<String>,
    /// More `oauth_*` parameters, as `[name, value]` pairs. An
    /// `oauth_signature` among them is ignored, as a verifier would.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub extra_oauth_params: Vec<(String, String)>,
    /// A PEM private key (PKCS#1 or PKCS#8) for `RSA-SHA1` and `RSA-SHA256`.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            deserialize_with = "crate::outgoing::serde_fields::secret",
            serialize_with = "crate::outgoing::serde_fields::expose"
        )
    )]
    pub rsa_private_key: Option<Secret>,
    /// Where the protocol parameters are sent: the header, the query, or
    /// the form body (which must be given); absent is the provider's, else
    /// the header.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "crate::outgoing::serde_fields::named"
        )
    )]
    pub transmission: Option<Transmission>,
    /// A raw body that is not form parameters (JSON, XML, text), never
    /// signed itself; `oauth_body_hash` covers it when
    /// [`body_hash`](Self::body_hash) (or the provider) says so.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "crate::outgoing::serde_fields::body"
        )
    )]
    pub body: Option<Vec<u8>>,
    /// The media type of [`body`](Self::body); absent is
    /// `application/octet-stream`.
    #[cfg_attr(
        feature = "json",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub content_type: Option<String>,
    /// When `oauth_body_hash` is sent over the body (the empty body when
    /// there is none): in JSON one of [`BodyHashPolicy::NAMES`], `"never"`,
    /// `"unless-form"`, `"required"`, `"always"`; absent is the provider's,
    /// else never, but unless-form when
    /// [`body_hash_algorithm`](Self::body_hash_algorithm) is given
    /// ([`BodyHash::chosen`]).
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "crate::outgoing::serde_fields::named"
        )
    )]
    pub body_hash: Option<BodyHashPolicy>,
    /// Which hash: in JSON one of [`BodyHashAlgorithm::NAMES`],
    /// `"follow-method"` (the signature method's), `"sha1"`, `"sha256"`,
    /// `"sha512"`; absent is the provider's, else the signature method's.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "crate::outgoing::serde_fields::named"
        )
    )]
    pub body_hash_algorithm: Option<BodyHashAlgorithm>,
    /// A provider whose [`Profile`] fills the fields left out: the
    /// signature method, the transmission, the body hash, the realm, and its
    /// parameter style. `version`, `nonce` and `timestamp` stay literal.
    #[cfg_attr(
        feature = "json",
        serde(
            default,
            skip_serializing_if = "Option::is_none",
            with = "crate::outgoing::serde_fields::named"
        )
    )]
    pub provider: Option<Provider>,
}

impl RequestSpec {
    /// The signer for this request, taken literally: an absent nonce or
    /// timestamp is not sent.
    ///
    /// ```
    /// use oauth1_signer::RequestSpec;
    ///
    /// # let json = r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true", "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21", "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE", "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "timestamp": "1318622958", "version": "1.0", "signature_method": "HMAC-SHA1"}"#;
    /// // `json` holds the inputs of vector `x-docs-creating-a-signature`.
    /// let spec = RequestSpec::from_json(json)?;
    /// let signer = spec.signer()?;
    /// let header = signer.authorization_header(&spec.request(&spec.protocol_params()?))?;
    /// assert!(header.contains(r#"oauth_signature="Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D""#));
    /// # Ok::<(), oauth1_signer::json::JsonError>(())
    /// ```
    ///
    /// # Errors
    /// An unknown `signature_method`; an RSA method without
    /// `rsa_private_key`, or a key that cannot be read (or, without the `rsa`
    /// feature, any key); a `rsa_private_key` for a method that is not RSA; a
    /// `realm` that cannot be written in a header.
    pub fn signer(&self) -> Result<Signer, Error> {
        self.build_signer(false)
    }

    /// As [`signer`](Self::signer), except that an absent nonce or timestamp
    /// is made afresh for every request, as a live client does.
    ///
    /// ```
    /// use oauth1_signer::RequestSpec;
    ///
    /// # let json = r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true", "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21", "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE", "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "timestamp": "1318622958", "version": "1.0", "signature_method": "HMAC-SHA1"}"#;
    /// // `json` holds the inputs of vector `x-docs-creating-a-signature`.
    /// let mut spec = RequestSpec::from_json(json)?;
    /// spec.nonce = None;
    ///
    /// let params = spec.protocol_params()?;
    /// let literal = spec.signer()?.authorization_header(&spec.request(&params))?;
    /// assert!(!literal.contains("oauth_nonce"));
    /// let live = spec.fresh_signer()?.authorization_header(&spec.request(&params))?;
    /// assert!(live.contains("oauth_nonce=\""));
    /// assert!(live.contains("oauth_timestamp=\"1318622958\""));
    /// # Ok::<(), oauth1_signer::json::JsonError>(())
    /// ```
    ///
    /// # Errors
    /// As [`signer`](Self::signer).
    pub fn fresh_signer(&self) -> Result<Signer, Error> {
        self.build_signer(true)
    }

    /// The credentials: the consumer key and secret, and the token and its
    /// secret (a token secret without a token still goes into the signing
    /// key, as RFC 5849 §3.4.2 writes it; an absent secret is empty).
    pub fn credentials(&self) -> Credentials {
        let consumer_secret = self.consumer_secret.as_ref().map_or("", Secret::expose);
        let token_secret = self.token_secret.as_ref().map_or("", Secret::expose);
        let credentials = Credentials::new(self.consumer_key.as_str(), consumer_secret);
        match &self.token {
            Some(token) => credentials.with_token(token.as_str(), token_secret),
            None => credentials.with_token_secret(token_secret),
        }
    }

    fn build_signer(&self, fresh: bool) -> Result<Signer, Error> {
        let credentials = self.credentials();
        let method = self.method()?;
        let mut signer = match self.profile() {
            Some(profile) => profile.signer(credentials),
            None => Signer::builder(credentials),
        }
        .with_version(self.version)
        .with_method(method);
        if let Some(pem) = &self.rsa_private_key {
            signer = signer.with_key(rsa_key(method, pem.expose())?);
        }
        if let Some(realm) = self.realm() {
            signer = signer.with_realm(realm);
        }
        signer = match (&self.nonce, fresh) {
            (Some(nonce), _) => signer.with_nonce(nonce.as_str()),
            (None, false) => signer.without_nonce(),
            (None, true) => signer,
        };
        signer = match (&self.timestamp, fresh) {
            (Some(timestamp), _) => signer.with_timestamp(timestamp.as_str()),
            (None, false) => signer.without_timestamp(),
            (None, true) => signer,
        };
        signer.build()
    }

    /// The [`provider`](Self::provider)'s profile, if one is named.
    pub fn profile(&self) -> Option<Profile> {
        self.provider.map(Provider::profile)
    }

    /// The signature method: `signature_method`, else the provider's, else
    /// `HMAC-SHA1`.
    ///
    /// # Errors
    /// An unknown `signature_method`.
    pub fn method(&self) -> Result<SignatureMethod, Error> {
        match (&self.signature_method, self.profile()) {
            (Some(name), _) => name.parse(),
            (None, Some(profile)) => Ok(profile.method),
            (None, None) => Ok(SignatureMethod::default()),
        }
    }

    /// The realm: `realm`, else the provider's for the URL (NetSuite's
    /// account id), else none.
    pub fn realm(&self) -> Option<String> {
        self.realm
            .clone()
            .or_else(|| self.profile()?.realm_for(&self.url))
    }

    /// Where the protocol parameters are sent: `transmission`, else the
    /// provider's, else the header.
    pub fn transmission(&self) -> Transmission {
        self.transmission
            .or_else(|| Some(self.profile()?.transmission))
            .unwrap_or_default()
    }

    /// When and how the body is hashed: [`body_hash`](Self::body_hash) and
    /// [`body_hash_algorithm`](Self::body_hash_algorithm) over the
    /// provider's rule, else never ([`BodyHash::chosen`]: a hash named alone
    /// is sent unless-form); in Mastercard's style on every body
    /// ([`ParameterStyle::body_hash`](crate::pipeline::ParameterStyle::body_hash)).
    pub fn body_hash_rule(&self) -> BodyHash {
        let provider = self.profile().map(|p| p.body_hash).unwrap_or_default();
        let rule = BodyHash::chosen(self.body_hash, self.body_hash_algorithm, provider);
        // The style's own rule: Mastercard's hashes every body, a form's too.
        self.profile()
            .map(|p| p.style)
            .unwrap_or_default()
            .body_hash(rule)
    }

    /// The protocol parameters the request adds to the signer's own:
    /// `extra_oauth_params` and, when [`body_hash_rule`](Self::body_hash_rule)
    /// says, `oauth_body_hash` over the body. Give them to
    /// [`request`](Self::request).
    ///
    /// ```
    /// use oauth1_signer::RequestSpec;
    ///
    /// // The oauth_body_hash extension's example (draft-eaton-oauth-bodyhash-00, Appendix A).
    /// let spec = RequestSpec::from_json(r#"{"method": "PUT", "url": "https://h/r", "consumer_key": "k",
    ///     "body": "Hello World!", "content_type": "text/plain", "body_hash_algorithm": "sha1"}"#)?;
    /// assert_eq!(
    ///     spec.protocol_params()?,
    ///     [("oauth_body_hash".to_owned(), "Lve95gjOVATpfV8EL5X4nxwjKHE=".to_owned())]
    /// );
    /// # Ok::<(), oauth1_signer::json::JsonError>(())
    /// ```
    ///
    /// # Errors
    /// A request that cannot be sent ([`ErrorKind::Conflict`](crate::ErrorKind::Conflict): two bodies,
    /// the form-body transmission without a form body...); an unknown
    /// `signature_method`.
    pub fn protocol_params(&self) -> Result<Vec<(String, String)>, Error> {
        self.check()?;
        let mut params = self.extra_oauth_params.clone();
        let body = self.own_body().map_or(&b""[..], |(bytes, _)| bytes);
        let hash = self
            .body_hash_rule()
            .value(self.method()?, self.form_body.is_some(), body);
        if let Some(hash) = hash {
            params.push((Name::BodyHash.as_str().to_owned(), hash));
        }
        Ok(params)
    }

    /// The request: method, URL, form body, callback, verifier, and
    /// `protocol_params`, which are [`protocol_params`](Self::protocol_params)
    /// (the extra ones and the body hash).
    ///
    /// ```
    /// use oauth1_signer::RequestSpec;
    ///
    /// # let json = r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true", "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21", "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE", "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "timestamp": "1318622958", "version": "1.0", "signature_method": "HMAC-SHA1"}"#;
    /// // `json` holds the inputs of vector `x-docs-creating-a-signature`.
    /// let spec = RequestSpec::from_json(json)?;
    /// let params = spec.protocol_params()?;
    /// let request = spec.request(&params);
    /// assert_eq!(request.method(), "POST");
    /// assert_eq!(request.url(), "https://api.x.com/1.1/statuses/update.json?include_entities=true");
    /// # Ok::<(), oauth1_signer::json::JsonError>(())
    /// ```
    pub fn request<'a>(&'a self, protocol_params: &'a [(String, String)]) -> OAuthRequest<'a> {
        let mut request =
            OAuthRequest::new(&self.method, &self.url).protocol_params(protocol_params);
        if let Some(body) = &self.form_body {
            request = request.form_body(body.as_bytes());
        }
        if let Some(callback) = &self.callback {
            request = request.callback(callback);
        }
        if let Some(verifier) = &self.verifier {
            request = request.oauth_verifier(verifier);
        }
        request
    }

    /// Signs the request with [`signer`](Self::signer) and keeps every stage.
    ///
    /// ```
    /// use oauth1_signer::RequestSpec;
    ///
    /// # let json = r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true", "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21", "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE", "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "timestamp": "1318622958", "version": "1.0", "signature_method": "HMAC-SHA1"}"#;
    /// // `json` holds the inputs of vector `x-docs-creating-a-signature`.
    /// let trace = RequestSpec::from_json(json)?.trace()?;
    /// let parts: Vec<&str> = trace.base_string.split('&').collect();
    /// assert_eq!(parts[0], "POST");
    /// assert_eq!(parts[1], "https%3A%2F%2Fapi.x.com%2F1.1%2Fstatuses%2Fupdate.json");
    /// assert!(parts[2].ends_with("%26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521"));
    /// assert_eq!(
    ///     trace.signing_key.unwrap().expose(),
    ///     "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw&LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"
    /// );
    /// assert_eq!(trace.signature.as_str(), "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=");
    /// # Ok::<(), oauth1_signer::json::JsonError>(())
    /// ```
    ///
    /// # Errors
    /// As [`signer`](Self::signer), and then as [`Signer::trace`]: a bad
    /// method, URL or form body, or a protocol parameter given twice.
    pub fn trace(&self) -> Result<Trace, Error> {
        self.signer()?
            .trace(&self.request(&self.protocol_params()?))
    }

    /// Signs the request with [`signer`](Self::signer): the `Authorization`
    /// header value.
    ///
    /// ```
    /// use oauth1_signer::RequestSpec;
    ///
    /// # let json = r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true", "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21", "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE", "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "timestamp": "1318622958", "version": "1.0", "signature_method": "HMAC-SHA1"}"#;
    /// // `json` holds the inputs of vector `x-docs-creating-a-signature`.
    /// assert_eq!(
    ///     RequestSpec::from_json(json)?.authorization_header()?,
    ///     "OAuth oauth_consumer_key=\"xvz1evFS4wEEPTGEFPHBog\", \
    ///      oauth_nonce=\"kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg\", \
    ///      oauth_signature=\"Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D\", \
    ///      oauth_signature_method=\"HMAC-SHA1\", \
    ///      oauth_timestamp=\"1318622958\", \
    ///      oauth_token=\"370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb\", \
    ///      oauth_version=\"1.0\""
    /// );
    /// # Ok::<(), oauth1_signer::json::JsonError>(())
    /// ```
    ///
    /// # Errors
    /// As [`trace`](Self::trace).
    pub fn authorization_header(&self) -> Result<String, Error> {
        self.signer()?
            .authorization_header(&self.request(&self.protocol_params()?))
    }
}

#[cfg(feature = "rsa")]
fn rsa_key(method: SignatureMethod, pem: &str) -> Result<SigningKey, Error> {
    SigningKey::rsa_pem(method, pem)
}

#[cfg(not(feature = "rsa"))]
fn rsa_key(_method: SignatureMethod, _pem: &str) -> Result<SigningKey, Error> {
    Err(Error::new(crate::error::ErrorKind::InvalidKey {
        reason: "RSA keys need the cargo feature `rsa`".into(),
    }))
}

impl fmt::Debug for RequestSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RequestSpec")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("form_body", &self.form_body)
            .field("consumer_key", &self.consumer_key)
            .field("consumer_secret", &self.consumer_secret)
            .field("token", &self.token)
            .field("token_secret", &self.token_secret)
            .field("signature_method", &self.signature_method)
            .field("timestamp", &self.timestamp)
            .field("nonce", &self.nonce)
            .field("version", &self.version)
            .field("callback", &self.callback)
            .field("verifier", &self.verifier)
            .field("realm", &self.realm)
            .field("extra_oauth_params", &self.extra_oauth_params)
            .field("rsa_private_key", &self.rsa_private_key)
            .field("transmission", &self.transmission)
            .field("body_len", &self.body.as_ref().map(Vec::len))
            .field("content_type", &self.content_type)
            .field("body_hash", &self.body_hash)
            .field("body_hash_algorithm", &self.body_hash_algorithm)
            .field("provider", &self.provider)
            .finish()
    }
}

#[cfg(all(test, feature = "json"))]
pub(crate) mod tests {
    use super::*;
    use crate::error::ErrorKind;

    pub(crate) const MINIMAL: &str =
        r#"{"method": "GET", "url": "https://h/p?q=1", "consumer_key": "ck"}"#;

    #[test]
    fn absent_fields_are_not_sent() {
        let spec = RequestSpec::from_json(MINIMAL).unwrap();
        let header = spec.authorization_header().unwrap();
        assert!(
            header.starts_with("OAuth oauth_consumer_key=\"ck\", oauth_signature=\""),
            "{header}"
        );
        for absent in [
            "oauth_nonce",
            "oauth_timestamp",
            "oauth_version",
            "oauth_token",
            "realm",
        ] {
            assert!(!header.contains(absent), "{header}");
        }
        assert_eq!(spec.trace().unwrap().signing_key.unwrap().expose(), "&");
    }

    #[test]
    fn token_secret_alone_is_in_the_key_but_no_token_is_sent() {
        let spec = RequestSpec::from_json(
            r#"{"method": "GET", "url": "https://h/", "consumer_key": "ck", "consumer_secret": "cs", "token_secret": "ts"}"#,
        )
        .unwrap();
        let trace = spec.trace().unwrap();
        assert_eq!(trace.signing_key.unwrap().expose(), "cs&ts");
        assert!(!trace.authorization_header.contains("oauth_token"));
    }

    #[test]
    fn unknown_fields_are_ignored_and_null_is_absent() {
        let spec = RequestSpec::from_json(
            r#"{"id": "x", "rsa_certificate": "-----BEGIN CERTIFICATE-----", "method": "GET",
                "url": "https://h/", "consumer_key": "ck", "consumer_secret": null, "version": null}"#,
        )
        .unwrap();
        assert!(spec.consumer_secret.is_none());
        assert!(!spec.version);
    }

    #[test]
    fn rsa_needs_a_key_and_a_key_needs_rsa() {
        let mut spec = RequestSpec::from_json(MINIMAL).unwrap();
        spec.signature_method = Some("RSA-SHA1".into());
        assert!(matches!(
            spec.signer().unwrap_err().kind(),
            ErrorKind::MissingKey { .. }
        ));
        spec.signature_method = None;
        spec.rsa_private_key = Some("not a key".into());
        assert!(matches!(
            spec.signer().unwrap_err().kind(),
            ErrorKind::InvalidKey { .. }
        ));
    }

    #[test]
    fn no_version_is_written_as_no_field() {
        let spec = RequestSpec::from_json(MINIMAL).unwrap();
        assert!(!spec.version);
        let json = serde_json::to_value(&spec).unwrap();
        assert!(json.get("version").is_none(), "{json}");
    }

    /// A secret of the wrong type is named by its type, never by its value.
    #[test]
    fn a_secret_that_is_not_a_string_is_refused_without_its_value() {
        for (json, shown) in [
            (
                r#""consumer_secret": 31415926"#,
                "invalid type: number, expected a string",
            ),
            (
                r#""token_secret": true"#,
                "invalid type: boolean, expected a string",
            ),
        ] {
            let text = format!(
                r#"{{"method": "GET", "url": "https://h/", "consumer_key": "ck", {json}}}"#
            );
            let e = crate::outgoing::serde_fields::tests::chain(
                &RequestSpec::from_json(&text).unwrap_err(),
            );
            assert!(e.contains(shown), "{e}");
            assert!(!e.contains("31415926") && !e.contains("true"), "{e}");
        }
    }

    /// The private key of a request file is the key that signs: the oauth.net
    /// TestCases RSA-SHA1 vector, from fixtures/signatures.json.
    #[cfg(feature = "rsa")]
    #[test]
    fn a_private_key_in_the_request_signs_the_published_rsa_vector() {
        let all: serde_json::Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/signatures.json"
        )))
        .unwrap();
        let vector = all["vectors"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["id"] == "oauth-net-testcases-rsa-sha1")
            .unwrap();
        let spec = RequestSpec::from_json(&vector["inputs"].to_string()).unwrap();
        assert_eq!(
            spec.trace().unwrap().signature.as_str(),
            vector["expected"]["signature"].as_str().unwrap()
        );
    }

    #[test]
    fn serialising_round_trips_in_the_same_schema() {
        let mut spec = RequestSpec::from_json(MINIMAL).unwrap();
        spec.version = true;
        spec.extra_oauth_params = vec![("oauth_body_hash".into(), "x".into())];
        let json = serde_json::to_value(&spec).unwrap();
        assert_eq!(json["version"], "1.0");
        assert_eq!(
            json["extra_oauth_params"],
            serde_json::json!([["oauth_body_hash", "x"]])
        );
        assert!(json.get("nonce").is_none());
        let again = RequestSpec::from_json(&json.to_string()).unwrap();
        assert_eq!(serde_json::to_value(&again).unwrap(), json);
    }

    /// The request file's body-hash words are the flags' and the page's, and
    /// a policy the old single field could not say (required, always) reads
    /// back as written.
    #[test]
    fn the_body_hash_words_read_back_and_name_only_one_rule() {
        use crate::{BodyHashAlgorithm as A, BodyHashPolicy as P};
        let with = |fields: &str| {
            RequestSpec::from_json(&MINIMAL.replace('}', &format!(", {fields}}}"))).unwrap()
        };
        let spec = with(r#""body_hash": "always", "body_hash_algorithm": "sha256""#);
        assert_eq!(spec.body_hash_rule(), BodyHash::new(P::Always, A::Sha256));
        let json = serde_json::to_value(&spec).unwrap();
        assert_eq!(
            (&json["body_hash"], &json["body_hash_algorithm"]),
            (&"always".into(), &"sha256".into())
        );
        assert_eq!(
            RequestSpec::from_json(&json.to_string()).unwrap().body_hash,
            Some(P::Always)
        );
        // One given: the other is the provider's (the rule of BodyHash::chosen).
        let alone = with(r#""body_hash_algorithm": "sha512""#);
        assert_eq!(
            alone.body_hash_rule(),
            BodyHash::new(P::UnlessForm, A::Sha512)
        );
        let mastercard = with(r#""provider": "mastercard", "body_hash": "required""#);
        assert_eq!(
            mastercard.body_hash_rule(),
            BodyHash::new(P::Always, A::Sha256)
        );
        let lti = with(r#""provider": "lti", "body_hash_algorithm": "sha256""#);
        assert_eq!(
            lti.body_hash_rule(),
            BodyHash::new(P::UnlessForm, A::Sha256)
        );
        // The single word of earlier releases is named, with the words accepted.
        let e = RequestSpec::from_json(&MINIMAL.replace('}', r#", "body_hash": "sha1"}"#));
        let shown = crate::outgoing::serde_fields::tests::chain(&e.unwrap_err());
        assert!(
            shown.contains(
                r#"unknown body-hash policy "sha1" (expected never, unless-form, required, always)"#
            ),
            "{shown}"
        );
    }

    #[test]
    fn debug_redacts_secrets_and_keys() {
        let mut spec = RequestSpec::from_json(MINIMAL).unwrap();
        spec.consumer_secret = Some("CS-SECRET".into());
        spec.token_secret = Some("TS-SECRET".into());
        spec.rsa_private_key = Some("-----BEGIN PRIVATE KEY-----KEY-SECRET".into());
        let shown = format!("{spec:?}");
        assert!(!shown.contains("SECRET"), "{shown}");
        assert!(
            shown.contains("consumer_secret: Some(Secret(<redacted>))"),
            "{shown}"
        );
    }

    #[test]
    fn debug_shows_every_field_that_is_not_secret() {
        let spec = RequestSpec::from_json(
            r#"{"method": "POST", "url": "https://h/p?q=1", "form_body": "b=2",
                "consumer_key": "ck-PUBLIC", "consumer_secret": "cs-SECRET",
                "token": "tk-PUBLIC", "token_secret": "ts-SECRET",
                "signature_method": "HMAC-SHA256", "timestamp": "17", "nonce": "n0",
                "version": "1.0", "callback": "oob", "verifier": "v9", "realm": "R",
                "extra_oauth_params": [["oauth_body_hash", "bh"]]}"#,
        )
        .unwrap();
        let shown = format!("{spec:?}");
        for want in [
            "method: \"POST\"",
            "url: \"https://h/p?q=1\"",
            "form_body: Some(\"b=2\")",
            "consumer_key: \"ck-PUBLIC\"",
            "token: Some(\"tk-PUBLIC\")",
            "signature_method: Some(\"HMAC-SHA256\")",
            "timestamp: Some(\"17\")",
            "nonce: Some(\"n0\")",
            "version: true",
            "callback: Some(\"oob\")",
            "verifier: Some(\"v9\")",
            "realm: Some(\"R\")",
            "extra_oauth_params: [(\"oauth_body_hash\", \"bh\")]",
            "rsa_private_key: None",
        ] {
            assert!(shown.contains(want), "{want}: {shown}");
        }
        assert!(!shown.contains("SECRET"), "{shown}");
    }
}
