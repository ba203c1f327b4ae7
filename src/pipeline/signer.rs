//! The façade that wires the stages together for the common case.
//!
//! A [`Signer`] holds one set of credentials and their prepared signing key.
//! Every request it signs goes through the same stages, once each: the nonce
//! and timestamp are filled; the URL is parsed and its query and the form
//! body are collected (§3.4.1.3.1); the protocol parameters are put in order
//! (see `protocol.rs`); the parameters are normalised (§3.4.1.3.2); the base
//! string is streamed into the MAC (§3.4.1.1); the header is written (§3.5.1).
//! [`Signer::authorization_header`], [`Signer::sign`] and [`Signer::trace`] differ
//! only in what they keep.

use std::fmt;

use crate::pipeline::clock::unix_now;

use crate::error::{Error, ErrorKind, Part};
use crate::pipeline::base_string::{BaseString, BaseStringUri};
use crate::pipeline::credentials::Credentials;
use crate::pipeline::header::{header_run_string, header_string};
use crate::pipeline::normalize::{protocol_run_string, Normalized};
use crate::pipeline::params::{Param, Params};
use crate::pipeline::protocol::{
    Form, Joined, Name, Own, Protocol, ProtocolParams, Value, PROTOCOL_PREFIX,
};
use crate::pipeline::request::{is_form_urlencoded, OAuthRequest};
use crate::pipeline::sign::{SignatureMethod, SigningKey};
use crate::pipeline::signed::{ParamSource, Signed, Trace, Warning};
use crate::pipeline::style::{
    check_mastercard, mastercard_base_string, mastercard_header, mastercard_parameter_string,
    ParameterStyle,
};
use crate::pipeline::url::RequestUrl;
use crate::pipeline::warnings::{not_utf8, risky};
use crate::text::sink::decimal;

/// How the signer fills `oauth_nonce` or `oauth_timestamp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Fill {
    Fresh,
    Pinned(String),
    Omitted,
}

/// Signs requests with one set of credentials.
///
/// A signer is built once and never changes: the keyed HMAC state and its
/// own protocol parameters, encoded, are computed when it is built and reused
/// for every request, so keep a signer rather than building one per request.
/// [`Signer::new`] takes the defaults; [`Signer::builder`] changes them, with
/// one `?` at [`build`](crate::SignerBuilder::build). Nonces are 32 alphanumeric
/// characters from a cryptographically secure generator; timestamps are Unix
/// seconds; both can be pinned for reproducible output.
///
/// ```
/// use oauth1_signer::{Credentials, OAuthRequest, Signer};
///
/// let signer = Signer::new(Credentials::new("key", "secret").with_token("token", "token secret"));
/// let header = signer.authorization_header(&OAuthRequest::get("https://api.x.com/2/users/me"))?;
/// assert!(header.starts_with("OAuth oauth_consumer_key=\"key\", oauth_nonce=\""));
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone)]
pub struct Signer {
    credentials: Credentials,
    /// Made from `credentials` (HMAC, PLAINTEXT) or given in their place (RSA).
    key: SigningKey,
    realm: Option<String>,
    nonce: Fill,
    timestamp: Fill,
    /// Seconds added to the local clock for a fresh timestamp.
    clock_offset: i64,
    /// The signer's own protocol parameters, encoded.
    own: Own,
    /// How the parameter string and the header are written.
    pub(crate) style: ParameterStyle,
}

impl fmt::Debug for Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signer")
            .field("credentials", &self.credentials)
            .field("method", &self.key.method())
            .field("realm", &self.realm)
            .field("version", &self.own.sends(Name::Version))
            .field("nonce", &self.nonce)
            .field("timestamp", &self.timestamp)
            .field("clock_offset", &self.clock_offset)
            .finish_non_exhaustive()
    }
}

impl Signer {
    /// The signer of settings already checked: its own protocol parameters
    /// are encoded here, once.
    pub(crate) fn assemble(
        credentials: Credentials,
        key: SigningKey,
        realm: Option<String>,
        version: bool,
        nonce: Fill,
        timestamp: Fill,
    ) -> Signer {
        fn fill(fill: &Fill) -> Option<Value<'_>> {
            match fill {
                Fill::Fresh => Some(Value::Fresh),
                Fill::Pinned(v) => Some(Value::Fixed(v)),
                Fill::Omitted => None,
            }
        }
        let own = Own::new(
            [
                (
                    Name::ConsumerKey,
                    Some(Value::Fixed(credentials.consumer_key())),
                ),
                (Name::Nonce, fill(&nonce)),
                (
                    Name::SignatureMethod,
                    Some(Value::Fixed(key.method().as_str())),
                ),
                (Name::Timestamp, fill(&timestamp)),
                (Name::Token, credentials.token().map(Value::Fixed)),
                (Name::Version, version.then_some(Value::Fixed("1.0"))),
            ]
            .into_iter()
            .filter_map(|(name, value)| Some((name, value?))),
        )
        // Each run of fixed clean parameters written out once, by the
        // parameter string's writer and the header's.
        .join(|run| Joined {
            len: run.len(),
            once: protocol_run_string(run, false).into(),
            twice: protocol_run_string(run, true).into(),
            header: header_run_string(run).into(),
        });
        Signer {
            credentials,
            key,
            realm,
            nonce,
            timestamp,
            clock_offset: 0,
            own,
            style: ParameterStyle::Rfc5849,
        }
    }

    /// This signer, its fresh timestamps taken from the local clock plus
    /// `seconds` (negative when the local clock is ahead): for a client that
    /// knows by how much its clock is off from the provider's, as a
    /// provider's `Date` header tells it (RFC 9110 §6.6.1; the reqwest
    /// middleware learns it so with
    /// `OAuth1Middleware::with_clock_skew_correction`). It replaces any
    /// offset given before; a pinned or omitted timestamp is sent as it was.
    ///
    /// Nothing the signer computed when it was built depends on the clock,
    /// so this costs nothing but the move.
    ///
    /// ```
    /// use oauth1_signer::{Credentials, OAuthRequest, Signer};
    ///
    /// use std::time::{SystemTime, UNIX_EPOCH};
    ///
    /// let now = || SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs());
    /// // The provider's clock is ten minutes ahead of ours.
    /// let signer = Signer::new(Credentials::new("key", "secret")).with_clock_offset(600);
    /// let before = now()?;
    /// let signed = signer.sign(&OAuthRequest::get("https://api.x.com/2/users/me"))?;
    /// let after = now()?;
    /// let sent: u64 = signed.protocol().get(oauth1_signer::Name::Timestamp).unwrap_or("").parse()?;
    /// assert!(before + 600 <= sent && sent <= after + 600);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_clock_offset(mut self, seconds: i64) -> Signer {
        self.clock_offset = seconds;
        self
    }

    /// The seconds added to the local clock for a fresh timestamp
    /// ([`with_clock_offset`](Self::with_clock_offset); 0 by default).
    pub fn clock_offset(&self) -> i64 {
        self.clock_offset
    }

    /// Whether the signer makes a fresh timestamp for each request (one
    /// that a clock offset moves).
    // The reqwest middleware's (feature `reqwest`).
    #[cfg_attr(not(feature = "reqwest"), allow(dead_code))]
    pub(crate) fn makes_timestamps(&self) -> bool {
        self.timestamp == Fill::Fresh
    }

    /// The credentials this signer uses.
    pub fn credentials(&self) -> &Credentials {
        &self.credentials
    }

    /// The signature method.
    pub fn method(&self) -> SignatureMethod {
        self.key.method()
    }

    /// The key this signer signs with (to check an RSA key's size with
    /// [`SigningKey::rsa_bits`], say): made from the credentials' secrets for
    /// HMAC and PLAINTEXT, the RSA private key given for RSA.
    pub fn signing_key(&self) -> &SigningKey {
        &self.key
    }

    /// The `Authorization` header value for `request`.
    ///
    /// It allocates nothing but the string it returns.
    ///
    /// # Errors
    /// A request that cannot be signed as given: a bad method, URL or form
    /// body; a protocol parameter in the query or the body (the signer sends
    /// them in the header) or given twice; for RSA, a failed signature.
    pub fn authorization_header(&self, request: &OAuthRequest<'_>) -> Result<String, Error> {
        self.run(request, |run| {
            let signature = self.signature(run)?;
            Ok(match self.style {
                ParameterStyle::Rfc5849 => {
                    header_string(self.realm.as_deref(), &run.protocol, signature.as_str())
                }
                ParameterStyle::Mastercard => mastercard_header(
                    run.protocol.valued().map(|p| (p.name, p.value)),
                    signature.as_str(),
                    None,
                ),
            })
        })
    }

    /// The signature of `run`: the base string streamed into the MAC (RFC
    /// 5849), or written first in another style.
    fn signature(&self, run: &mut Run<'_>) -> Result<crate::pipeline::sign::Signature, Error> {
        match self.style {
            ParameterStyle::Rfc5849 => self.key.sign(&run.base_string()?),
            ParameterStyle::Mastercard => self.key.sign_bytes(run.styled_base_string()?.as_bytes()),
        }
    }

    /// The signed protocol parameters, for sending them in the header, the
    /// form body (§3.5.2) or the query (§3.5.3).
    ///
    /// # Errors
    /// As [`authorization_header`](Self::authorization_header).
    pub fn sign(&self, request: &OAuthRequest<'_>) -> Result<Signed, Error> {
        self.run(request, |run| {
            let signature = self.signature(run)?;
            Ok(self.signed(&run.protocol, signature))
        })
    }

    /// What a signer sends: its run of protocol parameters, the signature
    /// in its place, and the realm.
    fn signed(
        &self,
        run: &ProtocolParams<'_>,
        signature: crate::pipeline::sign::Signature,
    ) -> Signed {
        let params = run.as_slice().iter().map(|p| match p.form {
            Form::Signature => (p.name.to_owned(), signature.as_str().to_owned()),
            _ => (p.name.to_owned(), p.value.to_owned()),
        });
        Signed {
            protocol: Protocol::signed(self.realm.clone(), params),
            signature,
            style: self.style,
        }
    }

    /// Signs `request` and keeps every stage: the collected parameters, the
    /// normalised parameters, the base string URI, the base string (written by
    /// the same code that streams it into the MAC), the signing key, the
    /// signature and the header.
    ///
    /// # Errors
    /// As [`authorization_header`](Self::authorization_header).
    pub fn trace(&self, request: &OAuthRequest<'_>) -> Result<Trace, Error> {
        self.run(request, |run| {
            // In the order collected: the query's, the protocol parameters
            // (sorted, as sent), the body's.
            let decoded = |source: ParamSource| {
                move |p: &Param<'_>| (source, p.name().into_owned(), p.value().into_owned())
            };
            let (query, body) = run.params.iter().as_slice().split_at(run.query_len);
            let mut warnings: Vec<Warning> = not_utf8(query, Part::Url)
                .chain(not_utf8(body, Part::FormBody))
                .collect();
            warnings.extend(risky(
                query,
                body,
                run.url.query(),
                run.request.form_body,
                match &self.timestamp {
                    Fill::Pinned(t) => Some(t.as_str()),
                    _ => None,
                },
            ));
            let collected_params = query
                .iter()
                .map(decoded(ParamSource::Query))
                .chain(run.protocol.valued().map(|p| {
                    let (name, value) = (p.name.as_bytes(), p.value.as_bytes());
                    (ParamSource::Protocol, name.to_vec(), value.to_vec())
                }))
                .chain(body.iter().map(decoded(ParamSource::Body)))
                .collect();
            let base_string_uri = BaseStringUri::new(&run.url).to_string();
            let (normalized_params, base_string) = match self.style {
                ParameterStyle::Rfc5849 => {
                    let base = run.base_string()?;
                    (base.params().to_string(), base.to_string())
                }
                ParameterStyle::Mastercard => (
                    mastercard_parameter_string(run.url.query(), run.protocol_pairs())?,
                    run.styled_base_string()?,
                ),
            };
            // The bytes shown are the bytes signed: one pass, not two.
            let signature = self.key.sign_bytes(base_string.as_bytes())?;
            let signed = self.signed(&run.protocol, signature.clone());
            let authorization_header = signed.authorization_header();
            // The key that signed, not one rebuilt from the credentials.
            let signing_key = self.key.key_string().cloned();
            Ok(Trace {
                collected_params,
                normalized_params,
                base_string_uri,
                base_string,
                signing_key,
                signature,
                authorization_header,
                signed,
                warnings,
            })
        })
    }

    /// As [`sign`](Self::sign), the timestamp made with `clock_offset`
    /// in place of the signer's own (a clock offset the reqwest middleware
    /// learned from the provider's answers).
    // The reqwest middleware's (feature `reqwest`).
    #[cfg_attr(not(feature = "reqwest"), allow(dead_code))]
    pub(crate) fn sign_with_clock_offset(
        &self,
        request: &OAuthRequest<'_>,
        clock_offset: i64,
    ) -> Result<Signed, Error> {
        self.run_at(request, clock_offset, |run| {
            let signature = self.signature(run)?;
            Ok(self.signed(&run.protocol, signature))
        })
    }

    /// Runs the stages every request goes through, then `f` on the result.
    fn run<R>(
        &self,
        request: &OAuthRequest<'_>,
        f: impl FnOnce(&mut Run<'_>) -> Result<R, Error>,
    ) -> Result<R, Error> {
        self.run_at(request, self.clock_offset, f)
    }

    /// As [`run`](Self::run), a fresh timestamp made with `clock_offset`.
    fn run_at<R>(
        &self,
        request: &OAuthRequest<'_>,
        clock_offset: i64,
        f: impl FnOnce(&mut Run<'_>) -> Result<R, Error>,
    ) -> Result<R, Error> {
        let (mut nonce_buf, mut timestamp_buf) = ([0u8; 32], [0u8; 20]);
        let nonce = match self.nonce {
            Fill::Fresh => fresh_nonce(&mut nonce_buf),
            _ => "",
        };
        let timestamp = match self.timestamp {
            Fill::Fresh => now(&mut timestamp_buf, clock_offset)?,
            _ => "",
        };
        if let Some(content_type) = request.refused_media_type {
            // The rule's own error, naming the type.
            is_form_urlencoded(content_type)?;
        }
        // Built in place: `Params` holds its parameters inline, and moving it
        // would copy them all.
        let mut run = Run {
            request: *request,
            url: if request.url_as_sent {
                RequestUrl::parse_sent(request.url)?
            } else {
                RequestUrl::parse(request.url)?
            },
            params: Params::new(),
            query_len: 0,
            protocol: ProtocolParams::default(),
        };
        run.params.extend_checked_query(&run.url);
        run.query_len = run.params.len();
        if let Some(body) = request.form_body {
            run.params.extend_form(body)?;
        }
        let fresh = |name| {
            if name == Name::Nonce {
                nonce
            } else {
                timestamp
            }
        };
        self.own.params(request, fresh, &mut run.protocol)?;
        f(&mut run)
    }
}

/// The stages of one request, while it is being signed.
struct Run<'a> {
    request: OAuthRequest<'a>,
    url: RequestUrl<'a>,
    /// The query's parameters, then the body's.
    params: Params<'a>,
    /// How many of `params` came from the query.
    query_len: usize,
    /// The protocol parameters, in order, the signature's place among them.
    protocol: ProtocolParams<'a>,
}

impl<'a> Run<'a> {
    /// The base string: the request's parameters sorted, the protocol
    /// parameters written in among them.
    ///
    /// # Errors
    /// A bad method; a query or body parameter named `oauth_*`.
    fn base_string(&mut self) -> Result<BaseString<'_, 'a>, Error> {
        let items = self.params.sort();
        let params = Normalized::with_protocol(items, &self.protocol);
        // Sorted, any `oauth_*` name sits where the protocol run goes.
        if let Some(err) = protocol_parameter_in_request(&items[params.protocol_at()..]) {
            return Err(err);
        }
        BaseString::new(self.request.method, BaseStringUri::new(&self.url), params)
    }

    /// The base string in the Mastercard style (`quirks.rs`): its own
    /// parameter string, the method and the base string URI as RFC 5849
    /// writes them, each part percent-encoded once.
    ///
    /// # Errors
    /// As [`base_string`](Self::base_string); a protocol parameter that
    /// style does not send, or a value it cannot write unambiguously.
    fn styled_base_string(&mut self) -> Result<String, Error> {
        // The request's own checks (no `oauth_*` in the query or body).
        self.base_string()?;
        check_mastercard(self.protocol_pairs())?;
        mastercard_base_string(
            self.request.method,
            &BaseStringUri::new(&self.url),
            self.url.query(),
            self.protocol_pairs(),
        )
    }

    /// The protocol parameters with values, as `(name, value)` pairs.
    fn protocol_pairs(&self) -> impl Iterator<Item = (&'a str, &'a str)> + '_ {
        self.protocol.valued().map(|p| (p.name, p.value))
    }
}

/// The error for the first query or body parameter named `oauth_*`, in
/// request order (the query before the body), with the offset it was
/// collected at; the signer sends every protocol parameter in the header, and
/// RFC 5849 §3.5 forbids sending one twice. `sorted` starts where the run of
/// `oauth_*` names would be.
fn protocol_parameter_in_request(sorted: &[Param<'_>]) -> Option<Error> {
    let ((part, offset), p) = sorted
        .iter()
        .take_while(|p| p.name_starts_with(PROTOCOL_PREFIX.as_bytes()))
        .filter_map(|p| Some((p.offset()?, p)))
        .min_by_key(|&((part, at), _)| (part != Part::Url, at))?;
    Some(Error::new(ErrorKind::ProtocolParameterInRequest {
        name: String::from_utf8_lossy(&p.name()).into_owned(),
        part,
        offset,
    }))
}

fn fresh_nonce(buf: &mut [u8; 32]) -> &str {
    use rand::RngExt as _;
    let mut rng = rand::rng();
    for b in buf.iter_mut() {
        *b = rng.sample(rand::distr::Alphanumeric);
    }
    std::str::from_utf8(buf).unwrap_or_default()
}

/// The local clock plus `offset`, in seconds since 1970.
fn now(buf: &mut [u8; 20], offset: i64) -> Result<&str, Error> {
    let secs = unix_now()?
        .checked_add_signed(offset)
        .filter(|&s| s > 0)
        // An offset that puts the clock before 1970 makes no timestamp.
        .ok_or_else(|| Error::new(ErrorKind::ClockBeforeEpoch))?;
    Ok(std::str::from_utf8(decimal(secs, buf)).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::builder::SignerBuilder;

    fn builder() -> SignerBuilder {
        Signer::builder(Credentials::new("ck", "cs").with_token("tk", "ts"))
            .with_nonce("n")
            .with_timestamp("1")
    }

    fn signer() -> Signer {
        builder().build().unwrap()
    }

    #[test]
    fn every_setting_is_in_what_is_signed() {
        let request = OAuthRequest::get("https://api.x.com/2/users/me?a=1");
        let used = builder().with_realm("R");
        let first = used
            .clone()
            .build()
            .unwrap()
            .authorization_header(&request)
            .unwrap();
        // Each setting changed from a clone of the same builder: the signer
        // built signs with it, its header the same as its trace's.
        let changed = [
            used.clone().with_nonce("other"),
            used.clone().with_timestamp("2"),
            used.clone().without_nonce(),
            used.clone().without_timestamp(),
            used.clone().with_version(false),
            used.clone().with_realm("S"),
            used.clone().with_method(SignatureMethod::HmacSha256),
            used.clone().with_method(SignatureMethod::Plaintext),
        ];
        for builder in changed {
            let signer = builder.build().unwrap();
            let want = signer.trace(&request).unwrap().authorization_header;
            assert_ne!(want, first);
            assert_eq!(signer.authorization_header(&request).unwrap(), want);
            assert_eq!(signer.authorization_header(&request).unwrap(), want);
        }
    }

    #[test]
    fn fresh_nonce_and_timestamp() {
        let s = Signer::new(Credentials::new("ck", "cs"));
        let t = s.trace(&OAuthRequest::get("https://h/")).unwrap();
        let nonce = t
            .collected_params
            .iter()
            .find(|(_, n, _)| n == b"oauth_nonce")
            .unwrap();
        assert_eq!(nonce.2.len(), 32);
        assert!(nonce.2.iter().all(u8::is_ascii_alphanumeric));
        let ts = t
            .collected_params
            .iter()
            .find(|(_, n, _)| n == b"oauth_timestamp")
            .unwrap();
        let ts: u64 = std::str::from_utf8(&ts.2).unwrap().parse().unwrap();
        assert!(ts > 1_700_000_000);
        let other = s.trace(&OAuthRequest::get("https://h/")).unwrap();
        assert_ne!(
            t.normalized_params, other.normalized_params,
            "nonces repeat"
        );
    }

    /// The timestamp of a fresh signer's header, by the clock read before
    /// and after signing.
    fn signed_timestamp(s: &Signer) -> (u64, u64, u64) {
        let before = unix_now().unwrap();
        let signed = s.sign(&OAuthRequest::get("https://h/")).unwrap();
        let after = unix_now().unwrap();
        let ts = signed.protocol().get(Name::Timestamp).unwrap();
        (before, ts.parse().unwrap(), after)
    }

    #[test]
    fn a_clock_offset_moves_a_fresh_timestamp_and_no_pinned_one() {
        let fresh = Signer::new(Credentials::new("ck", "cs"));
        assert!(fresh.makes_timestamps());
        let (before, ts, after) = signed_timestamp(&fresh.clone().with_clock_offset(-600));
        assert!(
            before - 600 <= ts && ts <= after - 600,
            "{before} {ts} {after}"
        );
        let (before, ts, after) = signed_timestamp(&fresh.clone().with_clock_offset(3600));
        assert!(
            before + 3600 <= ts && ts <= after + 3600,
            "{before} {ts} {after}"
        );
        // The middleware's offset replaces the signer's own.
        let before = unix_now().unwrap();
        let signed = fresh
            .clone()
            .with_clock_offset(3600)
            .sign_with_clock_offset(&OAuthRequest::get("https://h/"), -60)
            .unwrap();
        let ts: u64 = signed
            .protocol()
            .get(Name::Timestamp)
            .unwrap()
            .parse()
            .unwrap();
        assert!(before - 60 <= ts && ts <= unix_now().unwrap() - 60, "{ts}");
        // An offset that puts the clock before 1970 makes no timestamp.
        let e = fresh
            .clone()
            .with_clock_offset(i64::MIN)
            .sign(&OAuthRequest::get("https://h/"))
            .unwrap_err();
        assert_eq!(e.kind(), &ErrorKind::ClockBeforeEpoch);
        // A pinned timestamp is sent as pinned.
        let pinned = signer().with_clock_offset(600);
        assert!(!pinned.makes_timestamps());
        let header = pinned
            .authorization_header(&OAuthRequest::get("https://h/"))
            .unwrap();
        assert!(header.contains("oauth_timestamp=\"1\""), "{header}");
        assert!(format!("{pinned:?}").contains("clock_offset: 600"));
    }

    #[test]
    fn protocol_parameter_in_query_or_body_is_refused() {
        // Offsets counted by hand: "https://h/?" is 11 bytes; in the body,
        // "a=1&" is 4.
        for (request, name, part, offset) in [
            (
                OAuthRequest::get("https://h/?oauth_nonce=x"),
                "oauth_nonce",
                Part::Url,
                11,
            ),
            (
                OAuthRequest::get("https://h/?a&oauth_signature=x"),
                "oauth_signature",
                Part::Url,
                13,
            ),
            (
                OAuthRequest::get("https://h/?oauth_x"),
                "oauth_x",
                Part::Url,
                11,
            ),
            (
                OAuthRequest::post("https://h/").form_body(b"a=1&oauth%5Fsignature=x"),
                "oauth_signature",
                Part::FormBody,
                4,
            ),
            // The first in request order, not in sorted order: the query's
            // before the body's, and within one part the earlier; empty
            // segments counted ("https://h/?&&b=1&" is 17 bytes).
            (
                OAuthRequest::post("https://h/?&&b=1&oauth_z=1").form_body(b"oauth_a=1"),
                "oauth_z",
                Part::Url,
                17,
            ),
            (
                OAuthRequest::post("https://h/").form_body(b"&a&oauth_z=1&oauth_a=2"),
                "oauth_z",
                Part::FormBody,
                3,
            ),
            // "https://h:8080/p?a=1&" is 21 bytes: counted from the URL's start.
            (
                OAuthRequest::get("https://h:8080/p?a=1&oauth_b=1#oauth_a"),
                "oauth_b",
                Part::Url,
                21,
            ),
        ] {
            for s in [signer(), builder().without_nonce().build().unwrap()] {
                let e = s.authorization_header(&request).unwrap_err();
                assert_eq!(
                    e.kind(),
                    &ErrorKind::ProtocolParameterInRequest {
                        name: name.into(),
                        part,
                        offset
                    }
                );
                assert_eq!(s.trace(&request).unwrap_err(), e);
            }
        }
        // Names that only look alike are the request's own.
        for url in [
            "https://h/?oauth=1",
            "https://h/?oauthx=1",
            "https://h/?Oauth_x=1",
        ] {
            assert!(
                signer()
                    .authorization_header(&OAuthRequest::get(url))
                    .is_ok(),
                "{url}"
            );
        }
        let e = signer()
            .authorization_header(
                &OAuthRequest::get("https://h/").protocol_params(&[("oauth_token", "x")]),
            )
            .unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::DuplicateProtocolParameter {
                name: "oauth_token".into(),
                at: None,
            }
        );
        let e = signer()
            .authorization_header(
                &OAuthRequest::get("https://h/").protocol_params(&[("x_extra", "x")]),
            )
            .unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::NotAProtocolParameter {
                name: "x_extra".into()
            }
        );
    }

    #[test]
    fn trace_lists_parameters_in_the_order_collected() {
        let req = OAuthRequest::post("https://h/?z=1&a=2")
            .form_body(b"m=3")
            .callback("oob")
            .protocol_params(&[
                ("oauth_body_hash", "x"),
                ("oauth_signature", "ignored"),
                ("oauth_a", "y"),
            ]);
        let t = builder()
            .with_realm("r")
            .build()
            .unwrap()
            .trace(&req)
            .unwrap();
        let names: Vec<&[u8]> = t.collected_params.iter().map(|(_, n, _)| &n[..]).collect();
        // The query's, the protocol parameters sorted (as sent), the body's.
        let want: [&[u8]; 12] = [
            b"z",
            b"a",
            b"oauth_a",
            b"oauth_body_hash",
            b"oauth_callback",
            b"oauth_consumer_key",
            b"oauth_nonce",
            b"oauth_signature_method",
            b"oauth_timestamp",
            b"oauth_token",
            b"oauth_version",
            b"m",
        ];
        assert_eq!(names, want);
        // Each with where it came from: a query parameter named like a
        // protocol one would not move the boundaries.
        use crate::pipeline::ParamSource::*;
        let sources: Vec<_> = t.collected_params.iter().map(|(s, _, _)| *s).collect();
        let mut expected = vec![Query, Query];
        expected.extend([Protocol; 9]);
        expected.push(Body);
        assert_eq!(sources, expected);
        // Sent sorted by name, the signature in its place, whatever the order given.
        let sent: Vec<String> = parse_sent(&t.authorization_header);
        assert_eq!(sent[0], "realm");
        let mut sorted = sent[1..].to_vec();
        sorted.sort();
        assert_eq!(sent[1..], sorted);
        assert!(sent.contains(&"oauth_signature".to_string()));
        assert_eq!(
            t.authorization_header,
            builder()
                .with_realm("r")
                .build()
                .unwrap()
                .authorization_header(&req)
                .unwrap()
        );
        // An extra may use a name the signer leaves out.
        let s = builder().without_nonce().build().unwrap();
        let t = s
            .trace(&OAuthRequest::get("https://h/").protocol_params(&[("oauth_nonce", "n2")]))
            .unwrap();
        assert!(t
            .collected_params
            .contains(&(Protocol, b"oauth_nonce".to_vec(), b"n2".to_vec())));
    }

    fn parse_sent(header: &str) -> Vec<String> {
        crate::pipeline::parse_authorization_header(header)
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    #[test]
    fn bytes_that_are_not_utf8_are_signed_and_warned_about() {
        let request = OAuthRequest::post("https://h/?x=%E9&ok=%C3%A9").form_body(b"%FF=1&b=2");
        // A timestamp of now, so that it is not warned about too.
        let now = unix_now().unwrap();
        let signer = || builder().with_timestamp(now.to_string()).build().unwrap();
        let t = signer().trace(&request).unwrap();
        // Signed as their bytes: %E9 and %FF, each encoded once more.
        assert!(t.base_string.contains("x%3D%25E9"), "{}", t.base_string);
        assert!(t.base_string.contains("%25FF%3D1"), "{}", t.base_string);
        assert_eq!(
            t.warnings,
            [
                Warning::NotUtf8 {
                    name: "x".into(),
                    in_name: false,
                    part: Part::Url
                },
                Warning::NotUtf8 {
                    name: "\u{FFFD}".into(),
                    in_name: true,
                    part: Part::FormBody
                },
            ]
        );
        assert!(t.warnings[0].to_string().contains("in the query"));
        let clean = signer()
            .trace(&OAuthRequest::get("https://h/?ok=%C3%A9"))
            .unwrap();
        assert!(clean.warnings.is_empty());
    }

    #[test]
    fn json_body_is_not_signed_and_form_body_is() {
        let s = signer();
        let json = s
            .trace(&OAuthRequest::post("https://h/").body(Some("application/json"), b"a=1"))
            .unwrap();
        assert!(!json.normalized_params.contains("a=1"));
        let form = s
            .trace(&OAuthRequest::post("https://h/").body(
                Some("application/x-www-form-urlencoded;charset=utf-8"),
                b"a=1",
            ))
            .unwrap();
        assert!(form.normalized_params.starts_with("a=1&"));
    }

    #[test]
    fn the_three_transmissions_carry_the_same_signature() {
        let s = signer();
        let req = OAuthRequest::get("https://h/p?q=1");
        let signed = s.sign(&req).unwrap();
        assert_eq!(
            signed.authorization_header(),
            s.authorization_header(&req).unwrap()
        );
        assert!(signed.form_params().contains(&format!(
            "oauth_signature={}",
            crate::text::percent_encode_str(signed.signature().as_str())
        )));
        assert!(signed
            .url_with_query("https://h/p?q=1")
            .starts_with("https://h/p?q=1&oauth_consumer_key=ck&"));
    }

    #[test]
    fn a_signer_is_shared_across_threads() {
        fn send_sync<T: Send + Sync + 'static>() {}
        send_sync::<Signer>();
        send_sync::<SigningKey>();
        let s = std::sync::Arc::new(signer());
        let want = s
            .authorization_header(&OAuthRequest::get("https://h/"))
            .unwrap();
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let s = s.clone();
                std::thread::spawn(move || {
                    s.authorization_header(&OAuthRequest::get("https://h/"))
                        .unwrap()
                })
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), want);
        }
    }

    #[test]
    fn debug_never_shows_secrets() {
        let s = Signer::builder(
            Credentials::new("ck", "consumer-SECRET").with_token("tk", "token-SECRET"),
        )
        .with_method(SignatureMethod::Plaintext)
        .build()
        .unwrap();
        let req = OAuthRequest::get("https://h/");
        for shown in [
            format!("{s:?}"),
            format!("{:?}", s.sign(&req).unwrap()),
            format!("{:?}", s.trace(&req).unwrap()),
        ] {
            assert!(!shown.contains("SECRET"), "{shown}");
        }
    }

    #[test]
    fn values_sharing_sixteen_bytes_sign_as_oauthlib_does() {
        // The two values differ only in their 16th byte: the word-at-a-time
        // comparison must look past the first eight. Base string and signature
        // from oauthlib 3 (`signature.collect_parameters`,
        // `normalize_parameters`, `signature_base_string`, `sign_hmac_sha1`
        // with "cs" and "ts").
        let t = signer()
            .trace(&OAuthRequest::get(
                "https://api.x.com/2/tweets?ids=1234567890123459&ids=1234567890123451",
            ))
            .unwrap();
        assert_eq!(
            t.base_string,
            "GET&https%3A%2F%2Fapi.x.com%2F2%2Ftweets&ids%3D1234567890123451\
             %26ids%3D1234567890123459%26oauth_consumer_key%3Dck%26oauth_nonce%3Dn\
             %26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1\
             %26oauth_token%3Dtk%26oauth_version%3D1.0"
        );
        assert_eq!(t.signature.as_str(), "BMZuFyaWfGMHbuyscpcGKRQLGZs=");
    }

    #[test]
    fn debug_shows_the_settings_but_not_the_secrets() {
        let b = Signer::builder(
            Credentials::new("ck-PUBLIC", "cs-SECRET").with_token("tk-PUBLIC", "ts-SECRET"),
        )
        .with_method(SignatureMethod::HmacSha256)
        .with_realm("realm-PUBLIC")
        .with_nonce("nonce-PUBLIC")
        .without_timestamp();
        // The builder's too: it holds the same settings.
        let builder = format!("{b:?}");
        assert!(
            builder.contains("ck-PUBLIC") && !builder.contains("SECRET"),
            "{builder}"
        );
        let shown = format!("{:?}", b.build().unwrap());
        for want in [
            "consumer_key: \"ck-PUBLIC\"",
            "token: Some(\"tk-PUBLIC\")",
            "method: HmacSha256",
            "realm: Some(\"realm-PUBLIC\")",
            "version: true",
            "nonce: Pinned(\"nonce-PUBLIC\")",
            "timestamp: Omitted",
        ] {
            assert!(shown.contains(want), "{want}: {shown}");
        }
        assert!(!shown.contains("SECRET"), "{shown}");
    }
}
