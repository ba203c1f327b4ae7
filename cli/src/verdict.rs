//! What `verify` and `serve` share: the library's [`Verifier`] over the
//! credentials given as for `sign`, and its verdict as JSON, with the
//! [`Explainer`]'s diagnosis when the signature (or a key) does not match:
//! the server knows the request it received and the secrets, so it can say
//! which catalogued mistake reproduces the client's signature.

use std::ops::RangeInclusive;
use std::sync::Arc;

use oauth1_signer::verify::{
    NonceStore, Reason, Received, Rejection, StaticSecrets, Verified, Verifier,
};
use oauth1_signer::{
    explain::{Explainer, Finding},
    json::RequestSpec,
    parse_authorization_header, Credentials, Secret, SignatureMethod,
};
use serde_json::{json, Value};

use crate::explain::json_causes;
use crate::Failure;

/// One request as received, in the form the explainer needs: the absolute
/// URL clients signed, and the form body when there is one.
pub(crate) struct Seen<'a> {
    pub(crate) method: &'a str,
    pub(crate) url: String,
    pub(crate) authorization: Option<&'a str>,
    pub(crate) form_body: Option<&'a [u8]>,
}

/// A verifier over fixed credentials, and those credentials for the
/// explainer.
pub(crate) struct Checker {
    verifier: Verifier<StaticSecrets, Arc<dyn NonceStore>>,
    credentials: RequestSpec,
}

impl std::fmt::Debug for Checker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checker").finish_non_exhaustive()
    }
}

/// The verdict: what was verified, or why not and the diagnosis.
pub(crate) enum Verdict {
    Valid(Verified),
    Rejected(Rejection, Vec<Finding>),
}

impl Checker {
    /// A verifier accepting `methods`, whose received URLs are joined to
    /// `public` when they are a path; `public_key` (PEM) for RSA; nonces of
    /// `nonce_len` characters (the verifier's default when `None`).
    pub(crate) fn new(
        credentials: RequestSpec,
        nonces: Arc<dyn NonceStore>,
        public: Option<&str>,
        methods: &[SignatureMethod],
        public_key: Option<&str>,
        nonce_len: Option<RangeInclusive<usize>>,
    ) -> Result<Checker, Failure> {
        let secret = |s: &Option<Secret>| s.clone().unwrap_or_default();
        let c = Credentials::new(
            credentials.consumer_key.as_str(),
            secret(&credentials.consumer_secret),
        );
        let c = match &credentials.token {
            Some(token) => c.with_token(token.as_str(), secret(&credentials.token_secret)),
            None => c.with_token_secret(secret(&credentials.token_secret)),
        };
        let mut secrets = StaticSecrets::new(c);
        if let Some(pem) = public_key {
            secrets = secrets
                .with_rsa_public_key_pem(pem)
                .map_err(|e| Failure::input(format!("--public-key: {e}")))?;
        }
        let mut builder = Verifier::builder(secrets, nonces).methods(methods);
        if let Some(public) = public {
            builder = builder.public_base_url(public);
        }
        if let Some(len) = nonce_len {
            builder = builder.nonce_len(len);
        }
        let verifier = builder
            .build()
            .map_err(|e| Failure::input(format!("--public-url: {e}")))?;
        Ok(Checker {
            verifier,
            credentials,
        })
    }

    /// Verifies `received` now, or as of `now` (Unix seconds).
    pub(crate) async fn check(
        &self,
        received: &Received<'_>,
        seen: &Seen<'_>,
        now: Option<u64>,
    ) -> Verdict {
        let result = match now {
            Some(now) => self.verifier.verify_at(received, now).await,
            None => self.verifier.verify(received).await,
        };
        match result {
            Ok(verified) => Verdict::Valid(verified),
            Err(rejection) => {
                let diagnosis = match rejection.reason() {
                    Reason::SignatureInvalid
                    | Reason::ConsumerKeyUnknown
                    | Reason::TokenUnknown => self.diagnose(seen),
                    _ => Vec::new(),
                };
                Verdict::Rejected(rejection, diagnosis)
            }
        }
    }

    /// What the explainer finds: the request signed with our credentials
    /// and the received header's protocol parameters, compared with that
    /// header (its signature searched for the mistake that reproduces it).
    /// Nothing when the request cannot be rebuilt (a malformed header is
    /// reported as such already).
    fn diagnose(&self, seen: &Seen<'_>) -> Vec<Finding> {
        let Some(header) = seen.authorization else {
            return Vec::new();
        };
        let Ok(params) = parse_authorization_header(header) else {
            return Vec::new();
        };
        let mut spec = self.credentials.clone();
        spec.method = seen.method.to_owned();
        spec.url.clone_from(&seen.url);
        spec.form_body = seen
            .form_body
            .map(|b| String::from_utf8_lossy(b).into_owned());
        spec.signature_method = None;
        spec.nonce = None;
        spec.timestamp = None;
        spec.version = false;
        spec.realm = None;
        spec.callback = None;
        spec.verifier = None;
        spec.extra_oauth_params.clear();
        let mut token = false;
        for (name, value) in params {
            match name.as_str() {
                "oauth_signature_method" => spec.signature_method = Some(value),
                "oauth_nonce" => spec.nonce = Some(value),
                "oauth_timestamp" => spec.timestamp = Some(value),
                "oauth_version" => spec.version = true,
                "oauth_callback" => spec.callback = Some(value),
                "oauth_verifier" => spec.verifier = Some(value),
                "realm" => spec.realm = Some(value),
                "oauth_token" => token = true,
                // Ours, or never signed.
                "oauth_consumer_key" | "oauth_signature" => {}
                n if n.starts_with("oauth_") => spec.extra_oauth_params.push((name, value)),
                _ => {}
            }
        }
        if !token {
            spec.token = None;
        }
        let Ok(signer) = spec.signer() else {
            return Vec::new();
        };
        let Ok(explainer) = Explainer::new(&signer, &spec.request()) else {
            return Vec::new();
        };
        explainer
            .header(header)
            .map(|e| e.findings)
            .unwrap_or_default()
    }
}

/// The verdict as JSON: `{"valid": true, "method", "base_string_uri",
/// "params", "normalized_params", "consumer_key", "token",
/// "signature_method"}` or `{"valid": false, "reason", "problem",
/// "diagnosis"}`.
pub(crate) fn verdict_json(verdict: &Verdict) -> Value {
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
        Verdict::Rejected(r, diagnosis) => {
            let findings: Vec<&Finding> = diagnosis.iter().collect();
            json!({
                "valid": false,
                "reason": r.reason().to_string(),
                "problem": r.problem(),
                "diagnosis": json_causes(&findings),
            })
        }
    }
}
