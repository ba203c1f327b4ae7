//! The verifier ([RFC 5849 §3.2]): a received request's signature
//! recomputed by the signer's own stages, its timestamp and nonce checked.
//!
//! The stages, in order: the URL is rebuilt from the configured public base
//! URL and parsed (`url.rs`); the query and a form body are collected
//! (`params.rs`); the protocol parameters are found, strictly (`parse.rs`);
//! the parameters are normalised (`normalize.rs`) and the base string
//! written (`base_string.rs`); the secrets' keyed MAC (the signer's
//! `SigningKey`, made once per [`Secrets`] and kept in it: `sign.rs`,
//! `secrets.rs`) signs it and the signature is compared on its decoded
//! bytes. Every check after the parsing runs whatever the others found (an
//! unknown consumer is verified against a dummy secret, keyed once per
//! verifier), and the first failure in a fixed order is the answer. The nonce is recorded last, only for a
//! request that passed everything else.
//!
//! [RFC 5849 §3.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.2

use std::borrow::Cow;
use std::fmt;
use std::ops::RangeInclusive;
use std::time::Duration;

use crate::base_string::{BaseString, BaseStringUri};
use crate::decode::percent_decode;
use crate::form::pairs;
use crate::header::HeaderParam;
use crate::params::Params;
use crate::protocol::{Name, Nonce, Timestamp};
use crate::request::body_hash;
use crate::sign::SignatureMethod;
use crate::url::{sent_url, RequestUrl};
use crate::verify::nonce::{Freshness, NonceKey, NonceStore};
use crate::verify::parse::{header_params, protocol, Protocol};
use crate::verify::reason::{Reason, Rejection};
use crate::verify::received::Received;
use crate::verify::secrets::{Lookup, SecretSource, Secrets};

/// Verifies received requests: one set of settings, a [`SecretSource`] and
/// a [`NonceStore`]. Build it once ([`Verifier::builder`]) and share it.
pub struct Verifier<S, N> {
    pub(super) secrets: S,
    pub(super) nonces: N,
    pub(super) config: Config,
}

/// A verifier's settings, as its builder checked them.
#[derive(Clone)]
pub(super) struct Config {
    /// `scheme://authority` of the public base URL, and its path without a
    /// trailing `/`.
    pub(super) base: Option<(String, String)>,
    pub(super) trust_forwarded: bool,
    pub(super) before: Duration,
    pub(super) after: Duration,
    pub(super) methods: Vec<SignatureMethod>,
    pub(super) nonce_len: RangeInclusive<usize>,
    pub(super) clock: fn() -> u64,
    /// Verified against when the consumer or token is unknown.
    pub(super) dummy: Secrets,
}

impl<S, N> fmt::Debug for Verifier<S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verifier")
            .field("public_base_url", &self.config.base)
            .field("trust_forwarded", &self.config.trust_forwarded)
            .field("window", &(self.config.before, self.config.after))
            .field("methods", &self.config.methods)
            .field("nonce_len", &self.config.nonce_len)
            .finish_non_exhaustive()
    }
}

/// A request that passed: what was verified.
#[derive(Clone, Debug)]
pub struct Verified {
    consumer_key: String,
    token: Option<String>,
    method: SignatureMethod,
    realm: Option<String>,
    base_string: String,
    /// Where the base string URI ends, encoded, in `base_string`.
    uri: std::ops::Range<usize>,
}

impl Verified {
    /// The consumer key.
    pub fn consumer_key(&self) -> &str {
        &self.consumer_key
    }

    /// The token, if the request named one (an empty `oauth_token` is none).
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The signature method.
    pub fn signature_method(&self) -> SignatureMethod {
        self.method
    }

    /// The HTTP method, upper-cased, as signed.
    pub fn http_method(&self) -> String {
        decoded_text(&self.base_string.as_bytes()[..self.uri.start.saturating_sub(1)])
    }

    /// The header's `realm`, if it had one (never signed).
    pub fn realm(&self) -> Option<&str> {
        self.realm.as_deref()
    }

    /// The signature base string that verified (§3.4.1.1).
    pub fn base_string(&self) -> &str {
        &self.base_string
    }

    /// The base string URI that verified (§3.4.1.2), decoded.
    pub fn base_string_uri(&self) -> String {
        decoded_text(&self.base_string.as_bytes()[self.uri.clone()])
    }

    /// The normalised parameters that verified (§3.4.1.3.2), as the
    /// parameter string (`a=1&oauth_consumer_key=...`).
    pub fn normalized_params(&self) -> String {
        decoded_text(&self.base_string.as_bytes()[self.uri.end + 1..])
    }

    /// The normalised parameters as decoded `(name, value)` pairs, in order
    /// (bytes that are not UTF-8 replaced).
    pub fn params(&self) -> Vec<(String, String)> {
        let text = self.normalized_params();
        pairs(text.as_bytes())
            .map(|p| (decoded_text(p.name), decoded_text(p.value_or_empty())))
            .collect()
    }
}

/// Percent-decoded text (what this crate wrote, so well-formed).
fn decoded_text(encoded: &[u8]) -> String {
    match percent_decode(encoded) {
        Ok(d) => String::from_utf8_lossy(d.as_bytes()).into_owned(),
        Err(_) => String::from_utf8_lossy(encoded).into_owned(),
    }
}

/// What the checks before the secrets are looked up found.
struct Prepared<'a> {
    protocol: Protocol<'a>,
    method: SignatureMethod,
    base_string: String,
    uri: std::ops::Range<usize>,
    /// The timestamp, when sent (PLAINTEXT may omit it and the nonce).
    timestamp: Option<u64>,
    /// A failure found that does not depend on the secrets.
    failed: Option<Reason>,
}

impl Prepared<'_> {
    fn get(&self, name: Name) -> Option<&str> {
        self.protocol.get(name.as_str())
    }

    fn consumer_key(&self) -> &str {
        self.get(Name::ConsumerKey).unwrap_or_default()
    }

    /// The token; an empty `oauth_token` is none.
    fn token(&self) -> Option<&str> {
        self.get(Name::Token).filter(|t| !t.is_empty())
    }
}

impl<S: SecretSource, N: NonceStore> Verifier<S, N> {
    /// Verifies `received` now (by the [clock](crate::verify::VerifierBuilder::clock)).
    ///
    /// # Errors
    /// A [`Rejection`] saying why.
    pub async fn verify(&self, received: &Received<'_>) -> Result<Verified, Rejection> {
        self.verify_at(received, self.now()).await
    }

    /// The verifier's clock: seconds since 1970.
    pub(crate) fn now(&self) -> u64 {
        (self.config.clock)()
    }

    /// Verifies `received` as of `now_unix` (seconds since 1970), the
    /// instant its timestamp window is measured from: to verify a recorded
    /// request at its own time, say.
    ///
    /// # Errors
    /// A [`Rejection`] saying why: the first failure in this order —
    /// malformed input, protocol parameters misplaced, absent or rejected,
    /// the signature method, the timestamp, the body hash, the signature
    /// (an unknown consumer or token is this one), the nonce, the store.
    pub async fn verify_at(
        &self,
        received: &Received<'_>,
        now_unix: u64,
    ) -> Result<Verified, Rejection> {
        check_target(received)?;
        let url = self.url_of(received);
        let url = sent_url(&url);
        let header = match received.authorization {
            Some(h) => header_params(h)?,
            None => Vec::new(),
        };
        let mut prepared = self.prepare(received, &url, &header, now_unix)?;
        let lookup = self
            .secrets
            .secrets(prepared.consumer_key(), prepared.token())
            .await
            .map_err(|e| Reason::SecretsUnavailable(e.reason().to_owned()))?;
        let (secrets, unknown) = match &lookup {
            Lookup::Found(s) => (s, None),
            Lookup::UnknownConsumer => (&self.config.dummy, Some(Reason::ConsumerKeyUnknown)),
            Lookup::UnknownToken => (&self.config.dummy, Some(Reason::TokenUnknown)),
        };
        // Run whatever the other checks found, and whatever the key.
        let matches = signature_matches(&prepared, secrets);
        let no_public_key = (prepared.method.is_rsa() && !has_rsa_public_key(secrets)).then_some(
            Reason::PublicKeyMissing {
                method: prepared.method,
            },
        );
        let failed = prepared
            .failed
            .take()
            .or(unknown)
            .or(no_public_key)
            .or((!matches).then_some(Reason::SignatureInvalid));
        if let Some(reason) = failed {
            return Err(Rejection::new(reason).with_base_string(prepared.base_string));
        }
        if let (Some(timestamp), Some(nonce)) = (prepared.timestamp, prepared.get(Name::Nonce)) {
            let key = NonceKey::new(
                prepared.consumer_key(),
                prepared.token().unwrap_or(""),
                timestamp,
                nonce,
            );
            // Acceptable until `timestamp + before`; kept a second past it.
            let until = timestamp.saturating_add(self.config.before.as_secs());
            let keep_for = Duration::from_secs(until.saturating_sub(now_unix).saturating_add(1));
            match self.nonces.remember(&key, keep_for).await {
                Ok(Freshness::Fresh) => {}
                Ok(Freshness::Replayed) => {
                    return Err(
                        Rejection::new(Reason::NonceUsed).with_base_string(prepared.base_string)
                    )
                }
                Err(e) => {
                    return Err(
                        Rejection::new(Reason::StoreUnavailable(e.reason().to_owned()))
                            .with_base_string(prepared.base_string),
                    )
                }
            }
        }
        Ok(Verified {
            consumer_key: prepared.consumer_key().to_owned(),
            token: prepared.token().map(str::to_owned),
            method: prepared.method,
            realm: prepared.protocol.realm.map(str::to_owned),
            base_string: prepared.base_string,
            uri: prepared.uri,
        })
    }

    /// The URL the client is taken to have signed: the received one with
    /// the public base URL's (or trusted forwarded headers') scheme and
    /// authority, and the base URL's path before the received path. The
    /// verifier signs against it; a server that explains a failure uses
    /// the same.
    pub fn request_url(&self, r: &Received<'_>) -> String {
        self.url_of(r).into_owned()
    }

    /// Whether verifying a request with this head needs its body: a form
    /// body's parameters are signed (§3.4.1.3.1), and any body's bytes are
    /// when the protocol parameters carry `oauth_body_hash` (however its
    /// name is spelt: `oauth_body%5Fhash` is that name too). Decided by the
    /// parse [`verify`](Self::verify) runs, on the head alone (give it with
    /// an empty body, or none). A server that streams a body on unread
    /// marks it [`body_not_read`](Received::body_not_read), so that a
    /// request whose hash this would have asked for is refused rather than
    /// checked against no bytes.
    ///
    /// # Errors
    /// The [`Rejection`] [`verify`](Self::verify) would answer for a head
    /// that does not parse (a malformed header, parameters in two places).
    pub fn needs_body(&self, head: &Received<'_>) -> Result<bool, Rejection> {
        if head.form {
            return Ok(true);
        }
        check_target(head)?;
        let url = self.url_of(head);
        let url = sent_url(&url);
        let header = match head.authorization {
            Some(h) => header_params(h)?,
            None => Vec::new(),
        };
        let (_, _, protocol) = collect(head, &url, &header)?;
        Ok(protocol.get(BODY_HASH).is_some())
    }

    /// [`request_url`](Self::request_url), borrowed when it is the received one.
    fn url_of<'r>(&self, r: &'r Received<'_>) -> Cow<'r, str> {
        let received: &str = &r.url;
        // The path and query of an absolute URL.
        let path = match received.find("://") {
            Some(i) if received[..i].bytes().all(|b| b.is_ascii_alphabetic()) => {
                let rest = &received[i + 3..];
                let at = rest.find(['/', '?', '#']).unwrap_or(rest.len());
                Some(&rest[at..])
            }
            _ => None,
        };
        if self.config.trust_forwarded {
            if let Some((proto, host)) = r.forwarded_origin() {
                let tail = path.unwrap_or(received);
                return format!("{proto}://{host}{tail}").into();
            }
        }
        match (&self.config.base, path) {
            (Some((origin, prefix)), Some(tail)) => format!("{origin}{prefix}{tail}").into(),
            (Some((origin, prefix)), None) => format!("{origin}{prefix}{received}").into(),
            (None, _) => received.into(),
        }
    }

    /// Every check that needs no secret, and the base string.
    fn prepare<'a>(
        &self,
        r: &Received<'a>,
        url: &'a str,
        header: &'a [HeaderParam<'_>],
        now: u64,
    ) -> Result<Prepared<'a>, Reason> {
        let url_len = url.len();
        let (url, mut params, protocol) = collect(r, url, header)?;
        if protocol.place == crate::error::Part::Header {
            for p in header.iter().filter(|p| p.name != "realm") {
                params.push(&p.name, &p.value);
            }
        }
        let (method, timestamp) = self.check_protocol(&protocol)?;
        let mut failed = None;
        if let Some(t) = timestamp {
            failed = self.check_timestamp(t, now);
        }
        if failed.is_none() {
            failed = check_body_hash(&protocol, r);
        }
        let base = BaseString::new(r.method, BaseStringUri::new(&url), params.normalize())
            .map_err(Reason::Malformed)?;
        // Encoded once in the base string, and twice where already encoded:
        // room for a little over twice the text it is made of.
        let text = url_len + r.body.len() + r.authorization.map_or(0, str::len);
        let mut base_string = String::with_capacity(2 * text + 32);
        base.write_to(&mut base_string);
        let uri_start = base_string.find('&').unwrap_or(0) + 1;
        let uri_end = uri_start + base_string[uri_start..].find('&').unwrap_or(0);
        Ok(Prepared {
            method,
            base_string,
            uri: uri_start..uri_end,
            timestamp,
            failed,
            protocol,
        })
    }

    /// Which parameters are present and well-formed (§3.1): the method
    /// accepted, and the timestamp and nonce when sent.
    fn check_protocol(
        &self,
        protocol: &Protocol<'_>,
    ) -> Result<(SignatureMethod, Option<u64>), Reason> {
        let method = protocol.get(Name::SignatureMethod.as_str());
        // §3.1: the timestamp and nonce "MAY be omitted" with PLAINTEXT.
        let optional = method == Some(SignatureMethod::Plaintext.as_str());
        let plaintext_pair = optional
            && protocol.get(Name::Timestamp.as_str()).is_none()
            && protocol.get(Name::Nonce.as_str()).is_none();
        let absent: Vec<&'static str> = [
            Name::ConsumerKey,
            Name::Nonce,
            Name::Signature,
            Name::SignatureMethod,
            Name::Timestamp,
        ]
        .into_iter()
        .filter(|n| protocol.get(n.as_str()).is_none())
        .filter(|n| !(plaintext_pair && matches!(n, Name::Nonce | Name::Timestamp)))
        .map(Name::as_str)
        .collect();
        if !absent.is_empty() {
            return Err(Reason::ParameterAbsent(absent));
        }
        if protocol
            .get(Name::Version.as_str())
            .is_some_and(|v| v != "1.0")
        {
            return Err(Reason::VersionRejected);
        }
        let method_text = method.unwrap_or_default();
        // The name exactly as registered: no second spelling.
        let method = self
            .config
            .methods
            .iter()
            .copied()
            .find(|m| m.as_str() == method_text)
            .ok_or_else(|| Reason::SignatureMethodRejected {
                method: method_text.to_owned(),
            })?;
        // The signer's own rules (`protocol.rs`): what it sends, this accepts.
        let rejected = |e: crate::error::Error| match e.kind() {
            crate::error::ErrorKind::InvalidProtocolValue { name, reason } => {
                Reason::ParameterRejected {
                    name: (*name).into(),
                    why: reason,
                }
            }
            _ => Reason::Malformed(e),
        };
        let timestamp = match protocol.get(Name::Timestamp.as_str()) {
            None => None,
            Some(t) => Some(Timestamp::parse(t).map_err(rejected)?.secs()),
        };
        if let Some(n) = protocol.get(Name::Nonce.as_str()) {
            Nonce::parse_within(n, &self.config.nonce_len).map_err(rejected)?;
        }
        Ok((method, timestamp))
    }

    /// The timestamp inside `[now - before, now + after]`, or how far out.
    fn check_timestamp(&self, t: u64, now: u64) -> Option<Reason> {
        let from = now.saturating_sub(self.config.before.as_secs());
        let to = now.saturating_add(self.config.after.as_secs());
        let by_seconds = if t < from {
            -i64::try_from(from - t).unwrap_or(i64::MAX)
        } else if t > to {
            i64::try_from(t - to).unwrap_or(i64::MAX)
        } else {
            return None;
        };
        Some(Reason::TimestampRefused {
            by_seconds,
            acceptable: (from, to),
        })
    }
}

/// The received URL parsed, its query and form body collected, and the
/// protocol parameters found among them and the header's: the one parse
/// that both [`Verifier::needs_body`] and the verification run.
fn collect<'a>(
    r: &Received<'a>,
    url: &'a str,
    header: &'a [HeaderParam<'_>],
) -> Result<(RequestUrl<'a>, Params<'a>, Protocol<'a>), Reason> {
    let url = RequestUrl::parse_sent(url).map_err(Reason::Malformed)?;
    let mut params = Params::new();
    params.extend_checked_query(&url);
    if r.form {
        params.extend_form(r.body).map_err(Reason::Malformed)?;
    }
    let protocol = protocol(header, &params)?;
    Ok((url, params, protocol))
}

/// The received target is an absolute URL or a path (origin-form, RFC 9112
/// §3.2.1): `OPTIONS *` and a `CONNECT` authority name no resource to sign.
fn check_target(r: &Received<'_>) -> Result<(), Reason> {
    let url: &str = &r.url;
    let absolute = url
        .find("://")
        .is_some_and(|i| i > 0 && url[..i].bytes().all(|b| b.is_ascii_alphabetic()));
    if absolute || url.starts_with('/') {
        return Ok(());
    }
    Err(Reason::Malformed(crate::error::Error::invalid_url(
        0,
        "the request target is neither a path (starting with '/') nor an absolute URL: \
         an asterisk-form (OPTIONS *) or authority-form target names no resource to sign",
    )))
}

/// `oauth_body_hash`, when sent, against the body received: refused on a
/// form-encoded body, whose parameters are signed already (OAuth Request
/// Body Hash §3.2), compared on the decoded digest otherwise.
fn check_body_hash(protocol: &Protocol<'_>, r: &Received<'_>) -> Option<Reason> {
    let theirs = protocol.get(BODY_HASH)?;
    if !r.body_read {
        return Some(Reason::ParameterRejected {
            name: BODY_HASH.into(),
            why: "the body was passed on unread, so its hash cannot be checked",
        });
    }
    if r.form {
        return Some(Reason::ParameterRejected {
            name: BODY_HASH.into(),
            why: "a form-encoded body's parameters are signed; it has no body hash",
        });
    }
    let ours = body_hash(r.body);
    let decode = |s: &str| {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.decode(s).ok()
    };
    match (decode(theirs), decode(&ours)) {
        (Some(a), Some(b)) if a == b => None,
        _ => Some(Reason::BodyHashInvalid),
    }
}

/// The body hash extension's parameter.
const BODY_HASH: &str = Name::BodyHash.as_str();

/// Whether `secrets` hold an RSA public key to verify with.
fn has_rsa_public_key(secrets: &Secrets) -> bool {
    #[cfg(feature = "rsa")]
    return secrets.rsa_public_key().is_some();
    #[cfg(not(feature = "rsa"))]
    {
        let _ = secrets;
        false
    }
}

/// Whether the signature verifies with `secrets`.
fn signature_matches(p: &Prepared<'_>, secrets: &Secrets) -> bool {
    let base = p.base_string.as_bytes();
    let signature = p.get(Name::Signature).unwrap_or_default();
    if p.method.is_rsa() {
        #[cfg(feature = "rsa")]
        if let Some(key) = secrets.rsa_public_key() {
            return crate::sign::rsa_verify(p.method, key, base, signature);
        }
        return false;
    }
    secrets
        .signing_key(p.method)
        .is_some_and(|key| key.matches(base, signature))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store for the tests below, never called.
    struct NoStore;

    impl NonceStore for NoStore {
        fn remember<'a>(
            &'a self,
            _: &'a NonceKey,
            _: Duration,
        ) -> crate::verify::nonce::StoreFuture<'a> {
            Box::pin(std::future::ready(Ok(Freshness::Fresh)))
        }
    }

    #[test]
    fn unknown_and_kept_keys_are_verified_with_a_mac_keyed_once() {
        use SignatureMethod::*;
        // The dummy is keyed for every accepted method when the verifier is
        // built, and for no other.
        let secrets = crate::verify::StaticSecrets::new(crate::Credentials::new("k", "s"));
        let v = Verifier::builder(secrets, NoStore)
            .methods(&[HmacSha256, Plaintext])
            .build()
            .unwrap();
        assert!(v.config.dummy.is_keyed(HmacSha256));
        assert!(v.config.dummy.is_keyed(Plaintext));
        assert!(!v.config.dummy.is_keyed(HmacSha1));
        // Known secrets: keyed at their first request, the keyed state then
        // shared by every clone (as `StaticSecrets` hands them out).
        let known = Secrets::new("cs", "ts");
        let handed_out = known.clone();
        assert!(!handed_out.is_keyed(HmacSha1));
        let first = known.signing_key(HmacSha1).unwrap();
        assert!(handed_out.is_keyed(HmacSha1));
        assert!(std::ptr::eq(
            first,
            handed_out.signing_key(HmacSha1).unwrap()
        ));
        assert!(!handed_out.is_keyed(HmacSha512));
        assert!(known.signing_key(RsaSha1).is_none());
    }
}
