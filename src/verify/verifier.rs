//! The verifier ([RFC 5849 §3.2]): a received request's signature
//! recomputed by the signer's own stages, its timestamp and nonce checked.
//!
//! The stages, in order: the URL is rebuilt from the configured public base
//! URL (`target.rs`) and parsed (`url.rs`); the query and a form body are
//! collected (`params.rs`); the protocol parameters are found, strictly,
//! into the one model ([`Protocol`], `parse.rs`); they are checked
//! (`checks.rs`); the parameters are normalised (`normalize.rs`) and the
//! base string written (`base_string.rs`); the secrets' keyed MAC (the
//! signer's `SigningKey`, made once per [`Secrets`] and kept in it:
//! `sign.rs`, `secrets.rs`) signs it and the signature is compared on its
//! decoded bytes. Every check after the parsing runs whatever the others
//! found (an unknown consumer is verified against a dummy secret, keyed
//! once per verifier), and the first failure in a fixed order is the
//! answer. The nonce is recorded last, only for a request that passed
//! everything else.
//!
//! [RFC 5849 §3.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.2

use std::fmt;
use std::ops::RangeInclusive;
use std::time::Duration;

use crate::pipeline::base_string::{BaseString, BaseStringUri};
use crate::pipeline::body_hash::BodyHash;
use crate::pipeline::normalize::Normalized;
use crate::pipeline::params::Params;
use crate::pipeline::protocol::{Name, Protocol, ProtocolParams, Transmission};
use crate::pipeline::sign::SignatureMethod;
use crate::pipeline::style::{mastercard_base_string, ParameterStyle};
use crate::pipeline::url::{sent_url, RequestUrl};
use crate::text::scan::find_byte;
use crate::verify::checks::{
    check_body_hash, check_protocol, check_timestamp, has_rsa_public_key, signature_matches,
};
use crate::verify::nonce::{Freshness, NonceKey, NonceStore};
use crate::verify::parse::protocol;
use crate::verify::reason::{Reason, Rejection};
use crate::verify::received::Received;
use crate::verify::secrets::{Lookup, SecretSource, Secrets};
use crate::verify::target::{check_target, UrlPolicy};
use crate::verify::verified::{Verified, VerifiedParams};

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
    /// The public base URL and which forwarded headers are read.
    pub(super) url: UrlPolicy,
    pub(super) before: Duration,
    pub(super) after: Duration,
    pub(super) methods: Vec<SignatureMethod>,
    pub(super) nonce_len: RangeInclusive<usize>,
    pub(super) body_hash: BodyHash,
    pub(super) style: ParameterStyle,
    pub(super) clock: fn() -> u64,
    /// Verified against when the consumer or token is unknown.
    pub(super) dummy: Secrets,
}

impl<S, N> fmt::Debug for Verifier<S, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verifier")
            .field("public_base_url", &self.config.url.base)
            .field("forwarded", &self.config.url.forwarded)
            .field("window", &(self.config.before, self.config.after))
            .field("methods", &self.config.methods)
            .field("nonce_len", &self.config.nonce_len)
            .finish_non_exhaustive()
    }
}

/// What [`Verifier::read`] found. Returned and matched at once, never
/// kept: the small variant costs no more than the large one's stack slot,
/// and a box would cost every verification an allocation.
#[allow(clippy::large_enum_variant)]
enum Read<'a> {
    /// The protocol parameters, and what the checks that need no secret
    /// found.
    Whole(Protocol<'a>, Result<Prepared, Reason>),
    /// A head read alone whose body is signed (`oauth_body_hash`).
    NeedsBody,
}

/// `read`'s protocol parameters and what its checks found, or the
/// rejection of the first that failed (it needed no secret).
fn passed<'a>(
    protocol: Protocol<'a>,
    prepared: Result<Prepared, Reason>,
    url: &str,
) -> Result<(Protocol<'a>, Prepared), Rejection> {
    match prepared {
        Ok(prepared) => Ok((protocol, prepared)),
        Err(reason) => Err(Rejection::new(reason).with_protocol(&protocol, url)),
    }
}

/// What the checks before the secrets are looked up found.
struct Prepared {
    method: SignatureMethod,
    base_string: String,
    uri: std::ops::Range<usize>,
    /// The parameters verified ([`Verified::params`]).
    params: VerifiedParams,
    /// The timestamp, when sent (PLAINTEXT may omit it and the nonce).
    timestamp: Option<u64>,
    /// A failure found that does not depend on the secrets.
    failed: Option<Reason>,
}

impl<S: SecretSource, N: NonceStore> Verifier<S, N> {
    /// Verifies `received` now (by the [clock](crate::verify::VerifierBuilder::clock)).
    ///
    /// # Errors
    /// A [`Rejection`] saying why.
    pub async fn verify(&self, received: &Received<'_>) -> Result<Verified, Rejection> {
        self.verify_at(received, self.now()).await
    }

    /// The URL the client is taken to have signed: the received one with
    /// the public base URL's (or the [named forwarded headers'](crate::verify::Forwarded))
    /// scheme and authority, and the base URL's path before the received
    /// path. The verifier signs against it; a server that explains a
    /// failure uses the same.
    ///
    /// # Errors
    /// [`Reason::Malformed`] for a received target that is neither a path
    /// (`/...`) nor an absolute URL (`x` would otherwise be joined into
    /// another host); [`Reason::ForwardedRejected`] when the forwarded
    /// headers read name a scheme other than `http` or `https` or a host
    /// that is not `host[:port]`, or when both families came and none was
    /// named ([`Forwarded::Either`](crate::verify::Forwarded::Either));
    /// [`Reason::ForwardedRepeated`] for a parameter given twice in the
    /// `Forwarded` element read.
    pub fn request_url(&self, r: &Received<'_>) -> Result<String, Reason> {
        self.config.url.url_of(r).map(std::borrow::Cow::into_owned)
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
    /// Once the protocol parameters were read, the rejection holds them and
    /// the request URL ([`Rejection::protocol`]).
    pub async fn verify_at(
        &self,
        received: &Received<'_>,
        now_unix: u64,
    ) -> Result<Verified, Rejection> {
        check_target(received)?;
        let url = self.config.url.url_of(received)?;
        let sent = sent_url(&url);
        // Read, and matched, in statements of their own: nothing of the
        // read but what `finish` takes is kept in the future across its
        // awaits (a match around the await keeps its scrutinee there).
        let Read::Whole(protocol, prepared) = self.read(received, &sent, now_unix, false)? else {
            unreachable!("read stops for the body only when asked to")
        };
        let (protocol, prepared) = passed(protocol, prepared, &url)?;
        self.finish(&url, protocol, prepared, now_unix).await
    }

    /// Verifies a request from its head alone, parsed once, when its body
    /// is not signed: `Some` with what [`verify`](Self::verify) of the
    /// request with its body [not read](Received::body_not_read) answers;
    /// `None` when its body must be read first (a form body, whose
    /// parameters are signed, or any body under `oauth_body_hash`, however
    /// its name is spelt), to be verified with it. What a server that
    /// streams bodies (the tower layer) calls first.
    ///
    /// # Errors
    /// As [`verify`](Self::verify), for a request whose body is not signed.
    pub async fn verify_head(&self, head: &Received<'_>) -> Result<Option<Verified>, Rejection> {
        if head.form {
            return Ok(None);
        }
        check_target(head)?;
        let url = self.config.url.url_of(head)?;
        let sent = sent_url(&url);
        let now = self.now();
        // In a block of its own, as `verify_at`'s read: neither the head's
        // copy nor the read is kept across `finish`'s awaits.
        let (protocol, prepared) = {
            // No hash, no form: the body is read by no check, so the head
            // is the request as verified.
            let head = head.clone().body_not_read();
            match self.read(&head, &sent, now, true)? {
                Read::Whole(protocol, prepared) => (protocol, prepared),
                Read::NeedsBody => return Ok(None),
            }
        };
        let (protocol, prepared) = passed(protocol, prepared, &url)?;
        self.finish(&url, protocol, prepared, now).await.map(Some)
    }

    /// Every check after the read, in order, and the nonce recorded last.
    ///
    /// A plain function returning an `async move` block, not an `async fn`:
    /// an `async fn` copies each argument into a local of its future, so
    /// that `prepared` and `protocol` were held twice there (and `prepared`
    /// a third time, unwrapped); the block holds each once, in place
    /// (rust-lang/rust#62958). The future went from 960 bytes to 448.
    #[allow(clippy::manual_async_fn)]
    fn finish<'v>(
        &'v self,
        url: &'v str,
        protocol: Protocol<'v>,
        mut prepared: Prepared,
        now_unix: u64,
    ) -> impl Future<Output = Result<Verified, Rejection>> + Send + 'v {
        async move {
            let found = |reason: Reason, base_string: String| {
                Rejection::new(reason).with_found(base_string, &protocol, url)
            };
            let lookup = match self
                .secrets
                .secrets(
                    protocol.consumer_key().unwrap_or_default(),
                    protocol.token(),
                )
                .await
            {
                Ok(lookup) => lookup,
                Err(e) => {
                    let reason = Reason::SecretsUnavailable(e.describe());
                    return Err(found(reason, prepared.base_string));
                }
            };
            let (secrets, unknown) = match &lookup {
                Lookup::Found(s) => (s, None),
                Lookup::UnknownConsumer => (&self.config.dummy, Some(Reason::ConsumerKeyUnknown)),
                Lookup::UnknownToken => (&self.config.dummy, Some(Reason::TokenUnknown)),
            };
            // Run whatever the other checks found, and whatever the key.
            let signature = protocol.signature().unwrap_or_default();
            let matches = signature_matches(
                prepared.method,
                prepared.base_string.as_bytes(),
                signature,
                secrets,
            );
            let no_public_key = (prepared.method.is_rsa() && !has_rsa_public_key(secrets))
                .then_some(Reason::PublicKeyMissing {
                    method: prepared.method,
                });
            let failed = prepared
                .failed
                .take()
                .or(unknown)
                .or(no_public_key)
                .or((!matches).then_some(Reason::SignatureInvalid));
            if let Some(reason) = failed {
                return Err(found(reason, prepared.base_string));
            }
            if let (Some(timestamp), Some(nonce)) = (prepared.timestamp, protocol.get(Name::Nonce))
            {
                let key = NonceKey::new(
                    protocol.consumer_key().unwrap_or_default(),
                    protocol.token().unwrap_or(""),
                    timestamp,
                    nonce,
                );
                // Acceptable until `timestamp + before`; kept a second past it.
                let until = timestamp.saturating_add(self.config.before.as_secs());
                let keep_for =
                    Duration::from_secs(until.saturating_sub(now_unix).saturating_add(1));
                match self.nonces.remember(&key, keep_for).await {
                    Ok(Freshness::Fresh) => {}
                    Ok(Freshness::Replayed) => {
                        return Err(found(Reason::NonceUsed, prepared.base_string))
                    }
                    Err(e) => {
                        let reason = Reason::StoreUnavailable(e.describe());
                        return Err(found(reason, prepared.base_string));
                    }
                }
            }
            Ok(Verified::new(
                prepared.base_string,
                prepared.uri,
                url,
                &protocol,
                prepared.method,
                prepared.params,
            ))
        }
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
        let url = self.config.url.url_of(head)?;
        let url = sent_url(&url);
        // Built in place: `Params` holds its parameters inline.
        let mut params = Params::new();
        let (_, protocol) = collect(head, &url, self.config.style, &mut params)?;
        Ok(protocol.get(Name::BodyHash).is_some())
    }

    /// The received request read ([`collect`]) and every check that needs no
    /// secret made ([`prepare`](Self::prepare)): the protocol parameters,
    /// and what the checks found; or, for a head read alone
    /// (`head_only`), that the body is needed (its `oauth_body_hash`).
    /// Not `async`, so that the request's parameters, held inline, stay on
    /// this stack frame and out of the verification's future (which
    /// callers move and box).
    fn read<'a>(
        &self,
        received: &Received<'a>,
        sent: &'a str,
        now: u64,
        head_only: bool,
    ) -> Result<Read<'a>, Reason> {
        let mut params = Params::new();
        let (parsed, protocol) = collect(received, sent, self.config.style, &mut params)?;
        if head_only && protocol.get(Name::BodyHash).is_some() {
            return Ok(Read::NeedsBody);
        }
        let prepared = self.prepare(received, &parsed, &mut params, &protocol, now);
        Ok(Read::Whole(protocol, prepared))
    }

    /// Every check that needs no secret, and the base string.
    fn prepare<'a, 'r: 'a>(
        &self,
        r: &Received<'r>,
        url: &RequestUrl<'a>,
        params: &mut Params<'a>,
        protocol: &Protocol<'_>,
        now: u64,
    ) -> Result<Prepared, Reason> {
        let (method, timestamp) =
            check_protocol(protocol, &self.config.methods, &self.config.nonce_len)?;
        let mut failed = None;
        if let Some(t) = timestamp {
            failed = check_timestamp(t, now, self.config.before, self.config.after);
        }
        if failed.is_none() {
            failed = check_body_hash(protocol, r, method, &self.config.body_hash);
        }
        let uri = BaseStringUri::new(url);
        // From the header, the protocol parameters are one run, as a signer
        // writes them (`collect` refused a request that also sends one in
        // its query or body); from the query or the body, they are among
        // the request's.
        let header_run;
        let (base_string, verified_params) = if protocol.transmission() == Transmission::Header {
            header_run = ProtocolParams::received(protocol);
            let normalized = Normalized::with_protocol(params.sort(), &header_run);
            self.written(r, url, uri, protocol, normalized)
        } else {
            self.written(r, url, uri, protocol, params.normalize())
        }
        .map_err(Reason::Malformed)?;
        let amp = |from: usize| find_byte(&base_string.as_bytes()[from..], b'&').unwrap_or(0);
        let uri_start = amp(0) + 1;
        let uri_end = uri_start + amp(uri_start);
        Ok(Prepared {
            method,
            base_string,
            uri: uri_start..uri_end,
            params: verified_params,
            timestamp,
            failed,
        })
    }
}

impl<S, N> Verifier<S, N> {
    /// The base string, in the verifier's style, and the parameters it
    /// covers: what was verified, read from the request as parsed (never
    /// back from a parameter string, which a provider's style may write
    /// ambiguously), in normalised order, no signature, decoded when a
    /// caller asks.
    fn written<'r: 'n, 'u: 'n, 'n>(
        &self,
        r: &Received<'r>,
        url: &RequestUrl<'_>,
        uri: BaseStringUri<'u>,
        protocol: &Protocol<'_>,
        normalized: Normalized<'_, 'n>,
    ) -> Result<(String, VerifiedParams), crate::Error> {
        // What the request's texts add up to: every name and value collected
        // is among them as received.
        let (url_len, header) = (r.url.len(), r.authorization.map_or(0, str::len));
        let text = url_len + r.body.len() + header;
        let base_string = match self.config.style {
            ParameterStyle::Mastercard => {
                mastercard_base_string(r.method, &uri, url.query(), protocol.iter())?
            }
            _ => {
                let base = BaseString::new(r.method, uri, normalized)?;
                // Encoded once in the base string, and twice where already
                // encoded: room for a little over twice the text it is made
                // of; then the URL and the header's texts, which a
                // `Verified` keeps after it.
                let mut out = String::with_capacity(2 * text + url_len + header + 64);
                base.write_to(&mut out);
                out
            }
        };
        Ok((base_string, VerifiedParams::new(text, normalized.pairs())))
    }
}

/// The received URL parsed, its query and form body collected, and the
/// protocol parameters found among them and the header's: the one parse
/// that both [`Verifier::needs_body`] and the verification run.
fn collect<'a>(
    r: &Received<'a>,
    url: &'a str,
    style: ParameterStyle,
    params: &mut Params<'a>,
) -> Result<(RequestUrl<'a>, Protocol<'a>), Reason> {
    let url = RequestUrl::parse_sent(url).map_err(Reason::Malformed)?;
    params.extend_checked_query(&url);
    if r.form {
        params.extend_form(r.body).map_err(Reason::Malformed)?;
    }
    let protocol = protocol(r.authorization, params, style)?;
    Ok((url, protocol))
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
