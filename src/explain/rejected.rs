//! Explaining a request a verifier rejected: the library's job, for every
//! server (`oauth1 verify`, `oauth1 serve`, a service's own logs).
//!
//! [`Rejected`] keeps what the verifier found ([`Rejection::protocol`],
//! [`Rejection::request_url`]) and the form body, owned, so that a diagnosis
//! can run on a thread of its own; [`Rejected::diagnose`] rebuilds the
//! request the client meant (our model with their protocol parameters,
//! [`RequestSpec::with_protocol`]) and names the catalogued mistake that
//! reproduces their signature, for the reader it is told to ([`Audience`]).
//! A server bounds what it diagnoses by size first
//! ([`Rejected::too_large`]). Under the `tower` feature, [`Diagnoser`] is
//! the same diagnosis for a [`VerifyLayer`](crate::verify::VerifyLayer)'s
//! owner, told as a stranger would be told it (the causes and where they
//! are, no value), so that `oauth1 serve`, the layer and `oauth1 verify`
//! give the same answer.

use crate::explain::explainer::Explainer;
use crate::explain::finding::Finding;
use crate::outgoing::spec::RequestSpec;
use crate::pipeline::credentials::Secret;
use crate::pipeline::protocol::Protocol;
use crate::pipeline::style::ParameterStyle;
use crate::verify::{Reason, Received, Rejection};

/// The largest request a server diagnoses ([`Rejected::too_large`]):
/// 16 KiB of URL, protocol parameters and form body. The explainer's search
/// costs about 25 µs a parameter (release build), so a request within this
/// and [`DIAGNOSE_MAX_PARAMS`] costs a few milliseconds, where the 1 MiB a
/// body may hold would cost seconds.
pub const DIAGNOSE_MAX_BYTES: usize = 16 * 1024;

/// The most parameters of a request a server diagnoses
/// ([`Rejected::too_large`]).
pub const DIAGNOSE_MAX_PARAMS: usize = 256;

/// Who reads a diagnosis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The key's owner (`oauth1 verify`): both sides, our key and token.
    Owner,
    /// Whoever sent the request (a server's 401): the causes and where they
    /// are, never a value ([`Explainer::for_untrusted_client`]); our
    /// secrets only for the key and token we hold, and keys made of both.
    Stranger,
}

/// A rejected request, as the explainer needs it: the method, the URL the
/// verifier checked against, the protocol parameters it read, and the form
/// body. Owned. `Debug` shows no parameter value (a PLAINTEXT signature is
/// the client's guess at the secrets).
#[derive(Clone)]
pub struct Rejected {
    method: String,
    url: String,
    protocol: Protocol<'static>,
    form_body: Option<Vec<u8>>,
}

impl std::fmt::Debug for Rejected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rejected")
            .field("method", &self.method)
            .field("url", &self.url)
            .field("form_body_len", &self.form_body.as_ref().map(Vec::len))
            .finish_non_exhaustive()
    }
}

impl Rejected {
    /// What the verifier found of `received` when it refused it, if it got
    /// as far as the protocol parameters.
    pub fn of(received: &Received<'_>, rejection: &Rejection) -> Option<Rejected> {
        Some(Rejected {
            method: received.method().to_owned(),
            url: rejection.request_url()?.to_owned(),
            protocol: rejection.protocol()?.clone(),
            form_body: received.is_form().then(|| received.body_bytes().to_vec()),
        })
    }

    /// Whether `rejection` is one a diagnosis explains: the signature does
    /// not match (as the client is told it: an unknown key or token is that
    /// too), and not for want of an RSA public key.
    pub fn diagnosable(rejection: &Rejection) -> bool {
        let reason = rejection.reason();
        reason.public() == &Reason::SignatureInvalid
            && !matches!(reason, Reason::PublicKeyMissing { .. })
    }

    /// The bytes a diagnosis reads: the URL, the protocol parameters and the
    /// body (to bound its cost before running it).
    pub fn len(&self) -> usize {
        self.url.len()
            + self
                .protocol
                .iter()
                .map(|(n, v)| n.len() + v.len())
                .sum::<usize>()
            + self.form_body.as_ref().map_or(0, Vec::len)
    }

    /// Whether there is nothing to read (never: a URL is there).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// At least the number of parameters in the query and the form body
    /// (each `&` starts one more).
    pub fn params(&self) -> usize {
        let query = self.url.split_once('?').map_or("", |(_, q)| q);
        let body = self.form_body.as_deref().unwrap_or_default();
        let amps = |b: &[u8]| b.iter().filter(|&&c| c == b'&').count();
        amps(query.as_bytes()) + amps(body) + 2
    }

    /// Why a server does not diagnose this request: over
    /// [`DIAGNOSE_MAX_BYTES`] or [`DIAGNOSE_MAX_PARAMS`]; `None` within both.
    pub fn too_large(&self) -> Option<&'static str> {
        if self.len() > DIAGNOSE_MAX_BYTES {
            return Some("the request is over 16 KiB: not diagnosed");
        }
        if self.params() > DIAGNOSE_MAX_PARAMS {
            return Some("the request has over 256 parameters: not diagnosed");
        }
        None
    }

    /// What the explainer finds: the request signed with the protocol
    /// parameters the verifier read, their signature searched for the
    /// mistake that reproduces it. `ours` is the server's side: its
    /// credentials and provider. For the [`Owner`](Audience::Owner) it is
    /// signed with our key and token; for a [`Stranger`](Audience::Stranger)
    /// with the key and token it sent, and our secrets only when we hold
    /// that key and token (else `unknown`, secrets nobody knows, so that the
    /// answer is the same whichever keys exist).
    ///
    /// # Errors
    /// Why there is no diagnosis: the request cannot be rebuilt, an RSA
    /// signature (checked with a public key, it cannot be remade), or a
    /// provider whose clients sign another parameter string (the catalogue
    /// is of mistakes against RFC 5849's).
    pub fn diagnose(
        &self,
        ours: &RequestSpec,
        audience: Audience,
        unknown: (&Secret, &Secret),
    ) -> Result<Vec<Finding>, &'static str> {
        if ours
            .profile()
            .is_some_and(|p| p.style != ParameterStyle::Rfc5849)
        {
            return Err("the provider's clients sign in their own parameter style: not diagnosed");
        }
        let theirs = &self.protocol;
        let mut spec = ours.clone();
        spec.method.clone_from(&self.method);
        spec.url.clone_from(&self.url);
        spec.form_body = self
            .form_body
            .as_deref()
            .map(|b| String::from_utf8_lossy(b).into_owned());
        // Their protocol parameters: the request they meant, signed our way.
        spec.with_protocol(theirs);
        match audience {
            Audience::Owner => {
                if theirs.token().is_none() {
                    spec.token = None;
                }
            }
            Audience::Stranger => {
                let held = theirs.consumer_key() == Some(spec.consumer_key.as_str())
                    && theirs.token() == spec.token.as_deref();
                if !held {
                    spec.consumer_secret = Some(unknown.0.clone());
                    spec.token_secret = Some(unknown.1.clone());
                }
                spec.consumer_key = theirs.consumer_key().unwrap_or_default().to_owned();
                spec.token = theirs.token().map(str::to_owned);
            }
        }
        if spec.method().is_ok_and(|m| m.is_rsa()) {
            return Err(
                "an RSA signature is checked with the public key and cannot be remade: not diagnosed",
            );
        }
        let unbuilt = "the request cannot be rebuilt: not diagnosed";
        let signer = spec.signer().map_err(|_| unbuilt)?;
        let params = spec.protocol_params().map_err(|_| unbuilt)?;
        let explainer = Explainer::new(&signer, &spec.request(&params)).map_err(|_| unbuilt)?;
        let explainer = match audience {
            Audience::Owner => explainer,
            Audience::Stranger => explainer.for_untrusted_client(),
        };
        Ok(explainer.protocol(theirs).findings)
    }
}

/// The explainer's diagnosis for a [`VerifyLayer`](crate::verify::VerifyLayer)'s
/// owner ([`VerifyLayer::diagnose`](crate::verify::VerifyLayer::diagnose)):
/// [`Rejected::diagnose`] as a [`Stranger`](Audience::Stranger) is told it,
/// with the secrets of the key and token the client sent, bounded as
/// [`Rejected::too_large`] says. Each cause is a line `code (where): what`;
/// no line holds a value of either side, so none holds a secret, anything
/// computed with one, or a key the client did not send.
///
/// ```
/// use std::sync::Arc;
/// use oauth1_signer::explain::Diagnoser;
/// use oauth1_signer::verify::{MemoryNonceStore, StaticSecrets, Verifier, VerifyLayer};
/// use oauth1_signer::Credentials;
///
/// let secrets = StaticSecrets::new(Credentials::new("key", "secret"));
/// let verifier = Verifier::builder(secrets, MemoryNonceStore::with_capacity(100_000))
///     .public_base_url("https://api.example.com")
///     .build()?;
/// // At most 5 diagnoses a second; the rest are logged as skipped.
/// let layer = VerifyLayer::new(Arc::new(verifier)).diagnose(Diagnoser, 5);
/// # let _ = layer;
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[cfg(feature = "tower")]
#[derive(Clone, Copy, Debug, Default)]
pub struct Diagnoser;

#[cfg(feature = "tower")]
impl crate::verify::Diagnose for Diagnoser {
    fn diagnose(
        &self,
        received: &Received<'_>,
        rejection: &Rejection,
        secrets: &crate::verify::Secrets,
    ) -> Result<Vec<String>, &'static str> {
        let seen =
            Rejected::of(received, rejection).ok_or("the request was not read: not diagnosed")?;
        if let Some(why) = seen.too_large() {
            return Err(why);
        }
        let (consumer_secret, token_secret) = secrets.pair();
        let ours = RequestSpec {
            consumer_key: seen.protocol.consumer_key().unwrap_or_default().to_owned(),
            token: seen.protocol.token().map(str::to_owned),
            consumer_secret: Some(consumer_secret.clone()),
            token_secret: Some(token_secret.clone()),
            ..RequestSpec::default()
        };
        // The key and token are the client's, held: `unknown` is not used.
        let findings = seen.diagnose(&ours, Audience::Stranger, (consumer_secret, token_secret))?;
        Ok(findings
            .iter()
            .map(|f| format!("{} ({}): {}", f.cause.as_str(), f.component, f.detail))
            .collect())
    }
}
