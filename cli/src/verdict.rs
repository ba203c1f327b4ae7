//! What `verify` and `serve` share: the library's [`Verifier`] over the
//! credentials given as for `sign`, its verdict as JSON, and the
//! [`Explainer`]'s diagnosis when a signature does not match.
//!
//! Who reads the diagnosis decides what it may hold ([`Audience`]):
//! `oauth1 verify` is run by the key's owner on their own machine, and
//! shows both sides; `oauth1 serve` answers whoever can reach it, so its
//! 401 holds nothing computed with a secret and no key or token the client
//! did not send, and looks the same whichever keys exist.

use std::sync::Arc;

use oauth1_signer::verify::{
    NonceStore, Reason, Received, Rejection, StaticSecrets, Verified, Verifier,
};
use oauth1_signer::{
    explain::{Explainer, Finding},
    pipeline::ParameterStyle,
    BodyHash, Protocol, RequestSpec, Secret, SignatureMethod,
};
use serde_json::{json, Value};

use crate::explain::json_causes;
use crate::Failure;

/// A rejected request, in the form the explainer needs: what the verifier
/// found ([`Rejection::protocol`], [`Rejection::request_url`]) and the form
/// body. Owned, so that a diagnosis can run on a thread of its own.
#[derive(Clone, Debug)]
pub(crate) struct Seen {
    pub(crate) method: String,
    pub(crate) url: String,
    pub(crate) protocol: Protocol<'static>,
    pub(crate) form_body: Option<Vec<u8>>,
}

impl Seen {
    /// What the verifier found of `received`, if it got as far as its
    /// protocol parameters.
    pub(crate) fn of(received: &Received<'_>, rejection: &Rejection) -> Option<Seen> {
        Some(Seen {
            method: received.method().to_owned(),
            url: rejection.request_url()?.to_owned(),
            protocol: rejection.protocol()?.clone(),
            form_body: received.is_form().then(|| received.body_bytes().to_vec()),
        })
    }

    /// The bytes a diagnosis reads: URL, protocol parameters and body.
    pub(crate) fn len(&self) -> usize {
        self.url.len()
            + self
                .protocol
                .iter()
                .map(|(n, v)| n.len() + v.len())
                .sum::<usize>()
            + self.form_body.as_ref().map_or(0, Vec::len)
    }

    /// At least the number of parameters in the query and the form body
    /// (each `&` starts one more).
    pub(crate) fn params(&self) -> usize {
        let query = self.url.split_once('?').map_or("", |(_, q)| q);
        let body = self.form_body.as_deref().unwrap_or_default();
        let amps = |b: &[u8]| b.iter().filter(|&&c| c == b'&').count();
        amps(query.as_bytes()) + amps(body) + 2
    }
}

/// Who reads a diagnosis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Audience {
    /// The key's owner (`oauth1 verify`): both sides, our key and token.
    Owner,
    /// Whoever sent the request (`oauth1 serve`): the causes and where they
    /// are, never a value; our secrets only for the key and token we hold.
    Stranger,
}

/// A verifier over fixed credentials, and those credentials for the
/// explainer.
pub(crate) struct Checker {
    verifier: Verifier<StaticSecrets, Arc<dyn NonceStore>>,
    credentials: RequestSpec,
    /// Secrets nobody knows (random, made at start): a stranger's key or
    /// token we do not hold is diagnosed with them, at the same cost, and
    /// nothing reproduces its signature.
    unknown: (Secret, Secret),
}

impl std::fmt::Debug for Checker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checker").finish_non_exhaustive()
    }
}

/// The diagnosis of a rejected request: the explainer's findings, or why
/// there are none.
#[derive(Debug, Default)]
pub(crate) struct Diagnosis {
    pub(crate) findings: Vec<Finding>,
    /// Why no diagnosis was made, when one would have been.
    pub(crate) skipped: Option<&'static str>,
}

impl From<Result<Vec<Finding>, &'static str>> for Diagnosis {
    /// [`Checker::diagnose`]'s answer: the findings, or why there are none.
    fn from(diagnosed: Result<Vec<Finding>, &'static str>) -> Diagnosis {
        match diagnosed {
            Ok(findings) => Diagnosis {
                findings,
                skipped: None,
            },
            Err(why) => Diagnosis {
                findings: Vec::new(),
                skipped: Some(why),
            },
        }
    }
}

/// The verdict: what was verified, or why not and the diagnosis.
pub(crate) enum Verdict {
    Valid(Verified),
    Rejected(Rejection, Diagnosis),
}

impl Checker {
    /// A verifier accepting `methods`, whose received URLs are joined to
    /// `public` when they are a path; `public_key` (PEM) for RSA; body hashes
    /// required and checked as `body_hash` says. Nonces and timestamps by
    /// the library's rule, which `sign` applies too.
    pub(crate) fn new(
        credentials: RequestSpec,
        nonces: Arc<dyn NonceStore>,
        public: Option<&str>,
        methods: &[SignatureMethod],
        public_key: Option<&str>,
        body_hash: BodyHash,
    ) -> Result<Checker, Failure> {
        let mut secrets = StaticSecrets::new(credentials.credentials());
        if let Some(pem) = public_key {
            secrets = secrets
                .with_rsa_public_key_pem(pem)
                .map_err(|e| Failure::input(format!("--public-key: {e}")))?;
        }
        // A provider's clients may sign another parameter string
        // (Mastercard's): the stand-in verifies what they send.
        let style = credentials
            .profile()
            .map_or(ParameterStyle::Rfc5849, |p| p.style);
        let mut builder = Verifier::builder(secrets, nonces)
            .methods(methods)
            .body_hash(body_hash)
            .parameter_style(style);
        if let Some(public) = public {
            builder = builder.public_base_url(public);
        }
        let verifier = builder
            .build()
            .map_err(|e| Failure::input(format!("--public-url: {e}")))?;
        let random = || Secret::new(format!("{:032x}", rand::random::<u128>()));
        Ok(Checker {
            verifier,
            credentials,
            unknown: (random(), random()),
        })
    }

    /// `text` with our secrets, in any spelling, redacted: for what is
    /// logged of a request.
    pub(crate) fn without_secrets(&self, text: String) -> String {
        crate::output::without_secrets(text, &self.credentials, false)
    }

    /// Whether verifying a request with this head needs its body
    /// ([`Verifier::needs_body`]).
    pub(crate) fn needs_body(&self, head: &Received<'_>) -> Result<bool, Rejection> {
        self.verifier.needs_body(head)
    }

    /// Verifies `received` now, or as of `now` (Unix seconds).
    pub(crate) async fn check(
        &self,
        received: &Received<'_>,
        now: Option<u64>,
    ) -> Result<Verified, Rejection> {
        match now {
            Some(now) => self.verifier.verify_at(received, now).await,
            None => self.verifier.verify(received).await,
        }
    }

    /// Whether a rejection is one the explainer can diagnose: the
    /// signature does not match (as the client is told it: an unknown key
    /// or token is that too).
    pub(crate) fn diagnosable(rejection: &Rejection) -> bool {
        let reason = rejection.reason();
        reason.public() == &Reason::SignatureInvalid
            // An RSA key we lack: the signature cannot be searched.
            && !matches!(reason, Reason::PublicKeyMissing { .. })
    }

    /// What the explainer finds: the request signed with the protocol
    /// parameters the verifier read, compared with them (their signature
    /// searched for the mistake that reproduces it). For the owner it is
    /// signed with our credentials, so a key that differs is named with
    /// ours; for a stranger with the key and token it sent, and our secrets
    /// only when we hold that key and token. Why there is none, when the
    /// request cannot be rebuilt (an RSA signature, which is checked with
    /// a public key and cannot be remade), or its provider's clients sign
    /// another parameter string (the explainer's catalogue is of mistakes
    /// against RFC 5849's).
    pub(crate) fn diagnose(
        &self,
        seen: &Seen,
        audience: Audience,
    ) -> Result<Vec<Finding>, &'static str> {
        if self
            .credentials
            .profile()
            .is_some_and(|p| p.style != ParameterStyle::Rfc5849)
        {
            return Err("the provider's clients sign in their own parameter style: not diagnosed");
        }
        let theirs = &seen.protocol;
        let mut spec = self.credentials.clone();
        spec.method.clone_from(&seen.method);
        spec.url.clone_from(&seen.url);
        spec.form_body = seen
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
                    spec.consumer_secret = Some(self.unknown.0.clone());
                    spec.token_secret = Some(self.unknown.1.clone());
                }
                spec.consumer_key = theirs.consumer_key().unwrap_or_default().to_owned();
                spec.token = theirs.token().map(str::to_owned);
            }
        }
        let method = spec.method().ok();
        if method.is_some_and(|m| m.is_rsa()) {
            return Err("an RSA signature is checked with the public key and cannot be remade: not diagnosed");
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

/// The verdict as JSON: `{"valid": true, "method", "base_string_uri",
/// "params", "normalized_params", "consumer_key", "token",
/// "signature_method"}` or `{"valid": false, "reason", "problem",
/// "diagnosis"}`; for a stranger, the reason as it may be told
/// ([`Reason::public`]), each cause without either side's values, and
/// `diagnosis_skipped` (why there is no diagnosis, or null).
pub(crate) fn verdict_json(verdict: &Verdict, audience: Audience) -> Value {
    match verdict {
        Verdict::Valid(v) => json!({
            "valid": true,
            "method": v.http_method(),
            "base_string_uri": v.base_string_uri(),
            "params": v.params(),
            "normalized_params": v.normalized_params(),
            "consumer_key": v.consumer_key(),
            "token": v.token(),
            "signature_method": v.signature_method().to_string(),
        }),
        Verdict::Rejected(r, diagnosis) => match audience {
            Audience::Owner => {
                let findings: Vec<&Finding> = diagnosis.findings.iter().collect();
                json!({
                    "valid": false,
                    "reason": r.reason().to_string(),
                    "problem": r.problem(),
                    "diagnosis": json_causes(&findings),
                    "diagnosis_skipped": diagnosis.skipped,
                })
            }
            Audience::Stranger => {
                let causes: Vec<Value> = diagnosis
                    .findings
                    .iter()
                    .map(|f| {
                        json!({
                            "code": f.cause.as_str(),
                            "component": f.component.to_string(),
                            "detail": f.detail,
                        })
                    })
                    .collect();
                json!({
                    "valid": false,
                    "reason": r.reason().public().to_string(),
                    "problem": r.problem(),
                    "diagnosis": causes,
                    "diagnosis_skipped": diagnosis.skipped,
                })
            }
        },
    }
}
