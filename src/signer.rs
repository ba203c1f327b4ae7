//! The façade that wires the stages together for the common case.
//!
//! A [`Signer`] holds one set of credentials and their prepared signing key;
//! [`Signer::authorization`] turns a [`Request`] into the `Authorization`
//! header value, allocating nothing but the returned string, and
//! [`Signer::trace`] runs the same stages and keeps each one's output.
//!
//! From its second request on, a signer copies its own protocol parameters,
//! rendered once (see `rendered.rs`), instead of collecting and encoding them
//! again, whenever the request brings none of its own. Every fixture and a
//! property test check that this gives the header the stages give.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use smallvec::SmallVec;

use crate::base_string::{decimal, BaseString, Method, RequestUrl};
use crate::credentials::Credentials;
use crate::encode::is_clean;
use crate::error::{Error, ErrorKind};
use crate::header::{authorization_header_sent, check_realm, write_authorization_header, Sent};
use crate::params::{cmp_encoded, Param, Params};
use crate::rendered::{Filled, Lazy, Rendered, Slot, Value};
pub use crate::request::{is_form_urlencoded, Request};
use crate::sign::{signing_key, Signature, SignatureMethod, SigningKey};
pub use crate::signed::{Signed, Trace};

/// How the signer fills `oauth_nonce` or `oauth_timestamp`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Fill {
    Fresh,
    Pinned(String),
    Omitted,
}

/// Signs requests with one set of credentials.
///
/// The keyed HMAC state is computed once, when the signer is built, and
/// reused for every request. Nonces are 32 alphanumeric characters from a
/// cryptographically secure generator; timestamps are Unix seconds; both can
/// be pinned for reproducible output.
///
/// ```
/// use oauth1_signer::{Credentials, Request, Signer};
///
/// let signer = Signer::new(Credentials::new("key", "secret").with_token("token", "token secret"));
/// let header = signer.authorization(&Request::get("https://api.x.com/2/users/me"))?;
/// assert!(header.starts_with("OAuth oauth_consumer_key=\"key\", oauth_nonce=\""));
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone)]
pub struct Signer {
    credentials: Credentials,
    key: SigningKey,
    realm: Option<String>,
    version: bool,
    nonce: Fill,
    timestamp: Fill,
    clean: Clean,
    /// The protocol parameters rendered for requests that bring none.
    rendered: Lazy,
}

/// Which of the signer's own protocol values need no escape, found once when
/// the signer is built so that signing copies them instead of encoding them.
#[derive(Clone, Copy, Debug, Default)]
struct Clean {
    consumer_key: bool,
    token: bool,
    nonce: bool,
    timestamp: bool,
}

impl fmt::Debug for Signer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Signer")
            .field("credentials", &self.credentials)
            .field("method", &self.key.method())
            .field("realm", &self.realm)
            .field("version", &self.version)
            .field("nonce", &self.nonce)
            .field("timestamp", &self.timestamp)
            .finish()
    }
}

impl Signer {
    /// An HMAC-SHA1 signer that sends `oauth_version="1.0"`, as the X API expects.
    pub fn new(credentials: Credentials) -> Signer {
        let clean = Clean {
            consumer_key: is_clean(credentials.consumer_key().as_bytes()),
            token: credentials.token().is_some_and(|t| is_clean(t.as_bytes())),
            ..Clean::default()
        };
        Signer {
            clean,
            key: SigningKey::hmac_sha1(
                credentials.consumer_secret().expose(),
                credentials.token_secret().expose(),
            ),
            credentials,
            realm: None,
            version: true,
            nonce: Fill::Fresh,
            timestamp: Fill::Fresh,
            rendered: Lazy::default(),
        }
    }

    /// Forgets the rendered protocol parameters, after a change to them.
    fn changed(mut self) -> Signer {
        self.rendered = Lazy::default();
        self
    }

    /// Renders the protocol parameters for requests that bring none.
    fn render(&self) -> Rendered {
        fn value_of(fill: &Fill, slot: Slot) -> Option<Value<'_>> {
            match fill {
                Fill::Fresh => Some(Value::Slot(slot)),
                Fill::Pinned(v) => Some(Value::Fixed(v.as_str())),
                Fill::Omitted => None,
            }
        }
        // In order of their names, as in `run`.
        let params = [
            Some((
                "oauth_consumer_key",
                Value::Fixed(self.credentials.consumer_key()),
            )),
            value_of(&self.nonce, Slot::Nonce).map(|v| ("oauth_nonce", v)),
            Some(("oauth_signature", Value::Slot(Slot::Signature))),
            Some((
                "oauth_signature_method",
                Value::Fixed(self.key.method().as_str()),
            )),
            value_of(&self.timestamp, Slot::Timestamp).map(|v| ("oauth_timestamp", v)),
            self.credentials
                .token()
                .map(|t| ("oauth_token", Value::Fixed(t))),
            self.version
                .then_some(("oauth_version", Value::Fixed("1.0"))),
        ];
        Rendered::new(self.realm.as_deref(), params.into_iter().flatten())
    }

    /// Uses another HMAC method or PLAINTEXT.
    ///
    /// # Errors
    /// [`ErrorKind::MissingKey`] for an RSA method: use `with_rsa_key`.
    pub fn with_method(mut self, method: SignatureMethod) -> Result<Signer, Error> {
        self.key = SigningKey::new(
            method,
            self.credentials.consumer_secret().expose(),
            self.credentials.token_secret().expose(),
        )?;
        Ok(self.changed())
    }

    /// Uses a prepared key (for instance an RSA key from [`SigningKey::rsa_pem`]).
    pub fn with_key(mut self, key: SigningKey) -> Signer {
        self.key = key;
        self.changed()
    }

    /// Sends `realm="..."` first in the header (never signed).
    ///
    /// # Errors
    /// A realm holding `"`, `\`, CR, LF or another control character.
    pub fn with_realm(mut self, realm: impl Into<String>) -> Result<Signer, Error> {
        let realm = realm.into();
        check_realm(&realm)?;
        self.realm = Some(realm);
        Ok(self.changed())
    }

    /// Whether to send `oauth_version="1.0"` (default: yes; it is optional).
    pub fn with_version(mut self, send: bool) -> Signer {
        self.version = send;
        self.changed()
    }

    /// Pins the nonce, for reproducible output (tests, bug reports).
    pub fn with_nonce(mut self, nonce: impl Into<String>) -> Signer {
        let nonce = nonce.into();
        self.clean.nonce = is_clean(nonce.as_bytes());
        self.nonce = Fill::Pinned(nonce);
        self.changed()
    }

    /// Sends no `oauth_nonce` at all (PLAINTEXT over TLS may omit it).
    pub fn without_nonce(mut self) -> Signer {
        self.nonce = Fill::Omitted;
        self.changed()
    }

    /// Pins the timestamp, for reproducible output.
    pub fn with_timestamp(mut self, timestamp: impl Into<String>) -> Signer {
        let timestamp = timestamp.into();
        self.clean.timestamp = is_clean(timestamp.as_bytes());
        self.timestamp = Fill::Pinned(timestamp);
        self.changed()
    }

    /// Sends no `oauth_timestamp` at all.
    pub fn without_timestamp(mut self) -> Signer {
        self.timestamp = Fill::Omitted;
        self.changed()
    }

    /// The credentials this signer uses.
    pub fn credentials(&self) -> &Credentials {
        &self.credentials
    }

    /// The signature method.
    pub fn method(&self) -> SignatureMethod {
        self.key.method()
    }

    /// The `Authorization` header value for `request`.
    ///
    /// Reuse a signer: from its second request on, it copies its own protocol
    /// parameters, rendered once, into every request that brings none of its
    /// own (no callback, verifier, extra `oauth_*` parameters, or query or
    /// body names starting with `oauth_`).
    ///
    /// # Errors
    /// A request that cannot be signed as given: a bad method, URL or form
    /// body, or protocol parameters given twice; for RSA, a failed signature.
    pub fn authorization(&self, request: &Request<'_>) -> Result<String, Error> {
        if let Some(header) = self.authorization_rendered(request)? {
            return Ok(header);
        }
        self.run(request, |run| {
            let signature = run.sign(&self.key)?;
            let header = authorization_header_sent(self.realm.as_deref(), run.sent(&signature));
            Ok(header)
        })
    }

    /// The signed protocol parameters, for sending them in the header, the
    /// form body (§3.5.2) or the query (§3.5.3).
    ///
    /// # Errors
    /// As [`authorization`](Self::authorization).
    pub fn sign(&self, request: &Request<'_>) -> Result<Signed, Error> {
        self.run(request, |run| {
            let signature = run.sign(&self.key)?;
            let params = run
                .sent(&signature)
                .map(|(n, v, _)| (n.to_owned(), v.to_owned()))
                .collect();
            Ok(Signed {
                params,
                realm: self.realm.clone(),
                secret: self.key.method() == SignatureMethod::Plaintext,
            })
        })
    }

    /// Signs `request` and keeps every stage: the collected parameters, the
    /// normalised parameters, the base string URI, the base string (written by
    /// the same code that streams it into the MAC), the signing key, the
    /// signature and the header.
    ///
    /// # Errors
    /// As [`authorization`](Self::authorization).
    pub fn trace(&self, request: &Request<'_>) -> Result<Trace, Error> {
        self.run(request, |run| {
            // The protocol parameters sit in `params` sorted; show them in the
            // order collected, between the query's and the body's.
            let decoded = |p: &Param<'_>| (p.name().into_owned(), p.value().into_owned());
            let (query, rest) = run.params.as_slice().split_at(run.own);
            let body = rest.get(run.sorted.len()..).unwrap_or_default();
            let collected_params = query
                .iter()
                .map(decoded)
                .chain(run.collected(request))
                .chain(body.iter().map(decoded))
                .collect();
            let base_string_uri = run.url.base_string_uri().to_string();
            let normalized = run.params.normalize();
            let normalized_params = normalized.to_string();
            let base = BaseString::new(run.method, run.url.base_string_uri(), normalized);
            let mut base_string = String::new();
            base.write_to(&mut base_string);
            let signature = self.key.sign(&base)?;
            let mut authorization_header = String::new();
            write_authorization_header(
                &mut authorization_header,
                self.realm.as_deref(),
                run.sent(&signature).map(|(n, v, _)| (n, v)),
            );
            let signing_key = (!self.key.method().is_rsa()).then(|| {
                signing_key(
                    self.credentials.consumer_secret().expose(),
                    self.credentials.token_secret().expose(),
                )
            });
            Ok(Trace {
                collected_params,
                normalized_params,
                base_string_uri,
                base_string,
                signing_key,
                signature,
                authorization_header,
            })
        })
    }

    /// The nonce and timestamp to send, if any: fresh ones written into the
    /// buffers, or the pinned ones.
    fn fill<'s>(
        &'s self,
        nonce_buf: &'s mut [u8; 32],
        timestamp_buf: &'s mut [u8; 20],
    ) -> Result<(Option<&'s str>, Option<&'s str>), Error> {
        let nonce = match &self.nonce {
            Fill::Fresh => Some(fresh_nonce(nonce_buf)),
            Fill::Pinned(n) => Some(n.as_str()),
            Fill::Omitted => None,
        };
        let timestamp = match &self.timestamp {
            Fill::Fresh => Some(now(timestamp_buf)?),
            Fill::Pinned(t) => Some(t.as_str()),
            Fill::Omitted => None,
        };
        Ok((nonce, timestamp))
    }

    /// [`authorization`](Self::authorization) for a request that brings no
    /// protocol parameter of its own, with the rendered ones (see
    /// `rendered.rs`); `None` sends the request down the general path, which
    /// also names any protocol parameter sent twice.
    fn authorization_rendered(&self, request: &Request<'_>) -> Result<Option<String>, Error> {
        if request.callback.is_some()
            || request.verifier.is_some()
            || !request.protocol_params.is_empty()
        {
            return Ok(None);
        }
        let Some(rendered) = self.rendered.get(|| self.render()) else {
            return Ok(None);
        };
        let (mut nonce_buf, mut timestamp_buf) = ([0u8; 32], [0u8; 20]);
        let (nonce, timestamp) = self.fill(&mut nonce_buf, &mut timestamp_buf)?;
        let method = Method::parse(request.method)?;
        let url = RequestUrl::parse(request.url)?;
        let mut params = Params::new();
        params.extend_checked_query(&url);
        if let Some(body) = request.form_body {
            params.extend_form(body)?;
        }
        // Every name that sorts among the protocol parameters' starts so.
        if params.iter().any(|p| p.name_starts_with(b"oauth_")) {
            return Ok(None);
        }
        let normalized = params.normalize();
        let at = normalized
            .iter()
            .take_while(|p| p.cmp_name(b"oauth_").is_lt())
            .count();
        let base = BaseString::new(method, url.base_string_uri(), normalized);
        let mut values = Filled {
            nonce: nonce.unwrap_or_default(),
            timestamp: timestamp.unwrap_or_default(),
            signature: "",
        };
        let mut signing = self.key.begin();
        base.write_spliced_to(
            &mut signing,
            Some((at, &mut |w| rendered.write_base(w, &values))),
        );
        let signature = signing.finish()?;
        values.signature = signature.as_str();
        Ok(Some(rendered.header(&values)))
    }

    fn run<R>(
        &self,
        request: &Request<'_>,
        f: impl FnOnce(&mut Run<'_>) -> Result<R, Error>,
    ) -> Result<R, Error> {
        let (mut nonce_buf, mut timestamp_buf) = ([0u8; 32], [0u8; 20]);
        let (nonce, timestamp) = self.fill(&mut nonce_buf, &mut timestamp_buf)?;
        let method = Method::parse(request.method)?;
        let url = RequestUrl::parse(request.url)?;

        let nonce_clean = matches!(self.nonce, Fill::Fresh) || self.clean.nonce;
        let timestamp_clean = matches!(self.timestamp, Fill::Fresh) || self.clean.timestamp;
        // Built in place: `Params` holds its parameters inline, and moving it
        // would copy them all.
        let mut run = Run {
            method,
            url,
            params: Params::new(),
            own: 0,
            sorted: SmallVec::new(),
            signature_at: 0,
        };
        // The protocol parameters as sent, sorted by name: the known names in
        // their order (`oauth_callback` < `oauth_consumer_key` < ... <
        // `oauth_version`, `oauth_signature` after `oauth_nonce`), extras
        // sorted in after.
        let sorted = &mut run.sorted;
        if let Some(c) = request.callback {
            sorted.push(("oauth_callback", c, false));
        }
        sorted.push((
            "oauth_consumer_key",
            self.credentials.consumer_key(),
            self.clean.consumer_key,
        ));
        if let Some(n) = nonce {
            sorted.push(("oauth_nonce", n, nonce_clean));
        }
        run.signature_at = sorted.len();
        sorted.push(("oauth_signature_method", self.key.method().as_str(), true));
        if let Some(t) = timestamp {
            sorted.push(("oauth_timestamp", t, timestamp_clean));
        }
        if let Some(token) = self.credentials.token() {
            sorted.push(("oauth_token", token, self.clean.token));
        }
        if let Some(v) = request.verifier {
            sorted.push(("oauth_verifier", v, false));
        }
        if self.version {
            sorted.push(("oauth_version", "1.0", true));
        }
        let known = sorted.len();
        for (name, value) in request.protocol_params.iter() {
            if name == "oauth_signature" {
                continue;
            }
            if !name.starts_with("oauth_") {
                return Err(ErrorKind::NotAProtocolParameter { name: name.into() }.into());
            }
            if sorted.iter().any(|&(n, _, _)| n == name) {
                return Err(ErrorKind::DuplicateProtocolParameter { name: name.into() }.into());
            }
            sorted.push((name, value, false));
        }
        if sorted.len() > known {
            sorted.sort_by(|a, b| cmp_encoded(a.0.as_bytes(), b.0.as_bytes()));
            run.signature_at =
                sorted.partition_point(|p| cmp_encoded(p.0.as_bytes(), b"oauth_signature").is_lt());
        }

        let params = &mut run.params;
        params.extend_checked_query(&url);
        run.own = params.len();
        // Pushed in sorted order, so that normalising them is nearly free.
        for &(name, value, clean) in &run.sorted {
            if clean {
                params.push_clean(name, value);
            } else {
                params.push(name, value);
            }
        }
        if let Some(body) = request.form_body {
            params.extend_form(body)?;
        }
        // A protocol parameter that also arrives in the query or the body would
        // be sent twice, which RFC 5849 §3.5 forbids and providers reject.
        let protocol = run.own..run.own + run.sorted.len();
        for (i, p) in params.iter().enumerate() {
            if protocol.contains(&i) || !p.name_starts_with(b"oauth_") {
                continue;
            }
            if let Some(&(name, _, _)) = run
                .sorted
                .iter()
                .find(|&&(n, _, _)| p.name_is(n.as_bytes()))
            {
                return Err(ErrorKind::DuplicateProtocolParameter { name: name.into() }.into());
            }
        }
        f(&mut run)
    }
}

/// The stages of one request, while it is being signed.
struct Run<'a> {
    method: Method<'a>,
    url: RequestUrl<'a>,
    /// The query's parameters, the protocol parameters (sorted), the body's.
    params: Params<'a>,
    /// How many of `params` came from the query.
    own: usize,
    /// The protocol parameters, sorted by name, each flagged if it needs no
    /// escape.
    sorted: SmallVec<[Sent<'a>; 12]>,
    /// Where `oauth_signature` goes among them.
    signature_at: usize,
}

impl<'a> Run<'a> {
    fn sign(&mut self, key: &SigningKey) -> Result<Signature, Error> {
        let base = BaseString::new(
            self.method,
            self.url.base_string_uri(),
            self.params.normalize(),
        );
        key.sign(&base)
    }

    /// The protocol parameters as sent: with the signature, sorted by name.
    fn sent<'s>(&'s self, signature: &'s Signature) -> impl Iterator<Item = Sent<'s>> + Clone {
        let (before, after) = self.sorted.split_at(self.signature_at);
        let signature = ("oauth_signature", signature.as_str(), false);
        before
            .iter()
            .copied()
            .chain(std::iter::once(signature))
            .chain(after.iter().copied())
    }

    /// The protocol parameters in the order they are collected (a trace shows
    /// them so): the signer's, the request's, then the extras as given.
    fn collected(&self, request: &Request<'_>) -> Vec<(Vec<u8>, Vec<u8>)> {
        const OWN: [&str; 8] = [
            "oauth_consumer_key",
            "oauth_token",
            "oauth_signature_method",
            "oauth_timestamp",
            "oauth_nonce",
            "oauth_version",
            "oauth_callback",
            "oauth_verifier",
        ];
        let extras: Vec<&str> = request.protocol_params.iter().map(|(n, _)| n).collect();
        // An extra may take a known name the signer does not send itself.
        let known = OWN.into_iter().filter(|n| !extras.contains(n));
        known
            .chain(extras.iter().copied())
            .filter_map(|name| self.sorted.iter().find(|p| p.0 == name))
            .map(|&(n, v, _)| (n.as_bytes().to_vec(), v.as_bytes().to_vec()))
            .collect()
    }
}

fn fresh_nonce(buf: &mut [u8; 32]) -> &str {
    use rand::RngExt as _;
    let mut rng = rand::rng();
    for b in buf.iter_mut() {
        *b = rng.sample(rand::distr::Alphanumeric);
    }
    std::str::from_utf8(buf).unwrap_or_default()
}

fn now(buf: &mut [u8; 20]) -> Result<&str, Error> {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_err(|_| ErrorKind::ClockBeforeEpoch)?
        .as_secs();
    Ok(std::str::from_utf8(decimal(secs, buf)).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signer() -> Signer {
        Signer::new(Credentials::new("ck", "cs").with_token("tk", "ts"))
            .with_nonce("n")
            .with_timestamp("1")
    }

    #[test]
    fn a_changed_signer_renders_its_parameters_again() {
        let request = Request::get("https://api.x.com/2/users/me?a=1");
        let used = signer().with_realm("R").unwrap();
        let first = used.authorization(&request).unwrap();
        assert_eq!(used.authorization(&request).unwrap(), first);
        // Every builder method forgets what was rendered: a clone of a
        // signer that has rendered, changed, signs with its new settings on
        // both of its paths.
        let changed = [
            used.clone().with_nonce("other"),
            used.clone().with_timestamp("2"),
            used.clone().without_nonce(),
            used.clone().without_timestamp(),
            used.clone().with_version(false),
            used.clone().with_realm("S").unwrap(),
            used.clone()
                .with_method(SignatureMethod::HmacSha256)
                .unwrap(),
            used.clone()
                .with_key(SigningKey::new(SignatureMethod::Plaintext, "cs", "ts").unwrap()),
        ];
        for signer in changed {
            let want = signer.trace(&request).unwrap().authorization_header;
            assert_ne!(want, first);
            assert_eq!(signer.authorization(&request).unwrap(), want);
            assert_eq!(signer.authorization(&request).unwrap(), want);
        }
    }

    #[test]
    fn fresh_nonce_and_timestamp() {
        let s = Signer::new(Credentials::new("ck", "cs"));
        let t = s.trace(&Request::get("https://h/")).unwrap();
        let nonce = t
            .collected_params
            .iter()
            .find(|(n, _)| n == b"oauth_nonce")
            .unwrap();
        assert_eq!(nonce.1.len(), 32);
        assert!(nonce.1.iter().all(u8::is_ascii_alphanumeric));
        let ts = t
            .collected_params
            .iter()
            .find(|(n, _)| n == b"oauth_timestamp")
            .unwrap();
        let ts: u64 = std::str::from_utf8(&ts.1).unwrap().parse().unwrap();
        assert!(ts > 1_700_000_000);
        let other = s.trace(&Request::get("https://h/")).unwrap();
        assert_ne!(
            t.normalized_params, other.normalized_params,
            "nonces repeat"
        );
    }

    #[test]
    fn protocol_parameter_in_query_is_refused() {
        let e = signer()
            .authorization(&Request::get("https://h/?oauth_nonce=x"))
            .unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::DuplicateProtocolParameter {
                name: "oauth_nonce".into()
            }
        );
        let e = signer()
            .authorization(&Request::get("https://h/").protocol_params(&[("oauth_token", "x")]))
            .unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::DuplicateProtocolParameter {
                name: "oauth_token".into()
            }
        );
        let e = signer()
            .authorization(&Request::get("https://h/").protocol_params(&[("x_extra", "x")]))
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
        let req = Request::post("https://h/?z=1&a=2")
            .form_body(b"m=3")
            .callback("oob")
            .protocol_params(&[
                ("oauth_body_hash", "x"),
                ("oauth_signature", "ignored"),
                ("oauth_a", "y"),
            ]);
        let t = signer().with_realm("r").unwrap().trace(&req).unwrap();
        let names: Vec<&[u8]> = t.collected_params.iter().map(|(n, _)| &n[..]).collect();
        let want: [&[u8]; 12] = [
            b"z",
            b"a",
            b"oauth_consumer_key",
            b"oauth_token",
            b"oauth_signature_method",
            b"oauth_timestamp",
            b"oauth_nonce",
            b"oauth_version",
            b"oauth_callback",
            b"oauth_body_hash",
            b"oauth_a",
            b"m",
        ];
        assert_eq!(names, want);
        // Sent sorted by name, the signature in its place, whatever the order given.
        let sent: Vec<String> = parse_sent(&t.authorization_header);
        assert_eq!(sent[0], "realm");
        let mut sorted = sent[1..].to_vec();
        sorted.sort();
        assert_eq!(sent[1..], sorted);
        assert!(sent.contains(&"oauth_signature".to_string()));
        assert_eq!(
            t.authorization_header,
            signer()
                .with_realm("r")
                .unwrap()
                .authorization(&req)
                .unwrap()
        );
        // An extra may use a name the signer leaves out.
        let s = signer().without_nonce();
        let t = s
            .trace(&Request::get("https://h/").protocol_params(&[("oauth_nonce", "n2")]))
            .unwrap();
        assert_eq!(
            t.collected_params.last().unwrap(),
            &(b"oauth_nonce".to_vec(), b"n2".to_vec())
        );
    }

    fn parse_sent(header: &str) -> Vec<String> {
        crate::parse_authorization_header(header)
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    #[test]
    fn json_body_is_not_signed_and_form_body_is() {
        let s = signer();
        let json = s
            .trace(&Request::post("https://h/").body(Some("application/json"), b"a=1"))
            .unwrap();
        assert!(!json.normalized_params.contains("a=1"));
        let form = s
            .trace(&Request::post("https://h/").body(
                Some("application/x-www-form-urlencoded;charset=utf-8"),
                b"a=1",
            ))
            .unwrap();
        assert!(form.normalized_params.starts_with("a=1&"));
    }

    #[test]
    fn the_three_transmissions_carry_the_same_signature() {
        let s = signer();
        let req = Request::get("https://h/p?q=1");
        let signed = s.sign(&req).unwrap();
        assert_eq!(
            signed.authorization_header(),
            s.authorization(&req).unwrap()
        );
        assert!(signed.form_params().contains(&format!(
            "oauth_signature={}",
            crate::percent_encode_str(signed.signature())
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
        let want = s.authorization(&Request::get("https://h/")).unwrap();
        let threads: Vec<_> = (0..2)
            .map(|_| {
                let s = s.clone();
                std::thread::spawn(move || s.authorization(&Request::get("https://h/")).unwrap())
            })
            .collect();
        for t in threads {
            assert_eq!(t.join().unwrap(), want);
        }
    }

    #[test]
    fn debug_never_shows_secrets() {
        let s =
            Signer::new(Credentials::new("ck", "consumer-SECRET").with_token("tk", "token-SECRET"))
                .with_method(SignatureMethod::Plaintext)
                .unwrap();
        let req = Request::get("https://h/");
        for shown in [
            format!("{s:?}"),
            format!("{:?}", s.sign(&req).unwrap()),
            format!("{:?}", s.trace(&req).unwrap()),
        ] {
            assert!(!shown.contains("SECRET"), "{shown}");
        }
    }
}
