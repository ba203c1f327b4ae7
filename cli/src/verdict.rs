//! What `verify` and `serve` share: the library's [`Verifier`] over the
//! credentials given as for `sign`, its verdict as JSON, and the
//! [`Explainer`]'s diagnosis when a signature does not match.
//!
//! Who reads the diagnosis decides what it may hold ([`Audience`]):
//! `oauth1 verify` is run by the key's owner on their own machine, and
//! shows both sides; `oauth1 serve` answers whoever can reach it, so its
//! 401 holds nothing computed with a secret and no key or token the client
//! did not send, and looks the same whichever keys exist.

use std::borrow::Cow;
use std::sync::Arc;

use oauth1_signer::verify::{
    Lookup, NonceStore, Reason, Received, Rejection, SecretFuture, SecretSource, StaticSecrets,
    Verified, Verifier,
};
use oauth1_signer::{
    explain::Finding, pipeline::ParameterStyle, BodyHash, RequestSpec, Secret, SignatureMethod,
};
use serde::Serialize;

use crate::explain::{json_causes, JsonCause};
use crate::Failure;

/// A rejected request, in the form the explainer needs: the library's
/// [`Rejected`](oauth1_signer::explain::Rejected) (explaining a rejection is
/// the library's job), named for what `verify` and `serve` saw.
pub(crate) use oauth1_signer::explain::Rejected as Seen;

/// Who reads a diagnosis: the key's owner (`oauth1 verify`: both sides) or
/// whoever sent the request (`oauth1 serve`: causes only, nothing computed
/// with a secret, the same whichever keys exist).
pub(crate) use oauth1_signer::explain::Audience;

/// A verifier over fixed credentials (and, for `serve`, the tokens its
/// flow issued), and those credentials for the explainer.
pub(crate) struct Checker {
    verifier: Verifier<Known, Arc<dyn NonceStore>>,
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

/// Where a [`Checker`] finds secrets: the credentials given and, for
/// `serve`, the access tokens its flow issued. One lookup, so that a
/// request is verified once, whichever of them signed it.
struct Known {
    given: StaticSecrets,
    issued: Option<Arc<dyn SecretSource>>,
}

impl SecretSource for Known {
    fn secrets<'a>(&'a self, consumer_key: &'a str, token: Option<&'a str>) -> SecretFuture<'a> {
        let Some(issued) = &self.issued else {
            return self.given.secrets(consumer_key, token);
        };
        Box::pin(async move {
            match self.given.secrets(consumer_key, token).await? {
                // Not the token given: perhaps one the flow issued.
                Lookup::UnknownToken => issued.secrets(consumer_key, token).await,
                found => Ok(found),
            }
        })
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
    /// the library's rule, which `sign` applies too. A token that is not
    /// the credentials' is looked up in `issued`, when given (`serve`'s
    /// access tokens).
    pub(crate) fn new(
        credentials: RequestSpec,
        nonces: Arc<dyn NonceStore>,
        public: Option<&str>,
        methods: &[SignatureMethod],
        public_key: Option<&str>,
        body_hash: BodyHash,
        issued: Option<Arc<dyn SecretSource>>,
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
        let known = Known {
            given: secrets,
            issued,
        };
        let mut builder = Verifier::builder(known, nonces)
            .clock(crate::clock::now)
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
    pub(crate) fn without_secrets<'t>(&self, text: &'t str) -> Cow<'t, str> {
        crate::output::redacted(text, &self.credentials)
    }

    /// Verifies a request from its head alone when its body is not signed
    /// ([`Verifier::verify_head`]); `None` when the body must be read.
    pub(crate) async fn verify_head(
        &self,
        head: &Received<'_>,
    ) -> Result<Option<Verified>, Rejection> {
        self.verifier.verify_head(head).await
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

    /// Whether a rejection is one the explainer can diagnose
    /// ([`Seen::diagnosable`]).
    pub(crate) fn diagnosable(rejection: &Rejection) -> bool {
        Seen::diagnosable(rejection)
    }

    /// What the explainer finds for `seen`, signed with our credentials and
    /// provider ([`Seen::diagnose`]), with `token` and its secret in place
    /// of ours when given (a token `serve` issued); a stranger's key or
    /// token we do not hold with secrets nobody knows.
    pub(crate) fn diagnose(
        &self,
        seen: &Seen,
        audience: Audience,
        token: Option<(String, Secret)>,
    ) -> Result<Vec<Finding>, &'static str> {
        let issued;
        let credentials = match token {
            Some((token, secret)) => {
                let mut spec = self.credentials.clone();
                spec.token = Some(token);
                spec.token_secret = Some(secret);
                issued = spec;
                &issued
            }
            None => &self.credentials,
        };
        seen.diagnose(credentials, audience, (&self.unknown.0, &self.unknown.1))
    }
}

/// The verdict as JSON: `{"valid": true, "method", "base_string_uri",
/// "params", "normalized_params", "consumer_key", "token",
/// "signature_method"}` or `{"valid": false, "reason", "problem",
/// "diagnosis"}`; for a stranger, the reason as it may be told
/// ([`Reason::public`]), each cause without either side's values, and
/// `diagnosis_skipped` (why there is no diagnosis, or null). Borrowed from
/// the verdict and serialized as it is (`crate::explain::terminal_json`),
/// with no tree of values built first.
///
/// [`Reason::public`]: oauth1_signer::verify::Reason::public
pub(crate) fn verdict_json(verdict: &Verdict, audience: Audience) -> VerdictJson<'_> {
    match verdict {
        Verdict::Valid(v) => VerdictJson::Valid(ValidJson {
            base_string_uri: v.base_string_uri(),
            consumer_key: v.consumer_key(),
            method: v.http_method(),
            normalized_params: v.normalized_params(),
            params: Params(v),
            signature_method: v.signature_method().as_str(),
            token: v.token(),
            valid: true,
        }),
        Verdict::Rejected(r, diagnosis) => match audience {
            Audience::Owner => {
                let findings: Vec<&Finding> = diagnosis.findings.iter().collect();
                VerdictJson::Owner(RejectedJson::new(
                    r,
                    r.reason(),
                    json_causes(&findings),
                    diagnosis.skipped,
                ))
            }
            Audience::Stranger => {
                let causes = diagnosis
                    .findings
                    .iter()
                    .map(|f| StrangerCause {
                        code: f.cause.as_str(),
                        component: f.component.to_string(),
                        detail: &f.detail,
                    })
                    .collect();
                VerdictJson::Stranger(RejectedJson::new(
                    r,
                    r.reason().public(),
                    causes,
                    diagnosis.skipped,
                ))
            }
        },
    }
}

/// [`verdict_json`]'s answer. Each struct's fields are in name order, the
/// order the verdict's JSON has always listed its keys in.
#[derive(Serialize)]
#[serde(untagged)]
pub(crate) enum VerdictJson<'a> {
    Valid(ValidJson<'a>),
    Owner(RejectedJson<JsonCause<'a>>),
    Stranger(RejectedJson<StrangerCause<'a>>),
}

#[derive(Serialize)]
pub(crate) struct ValidJson<'a> {
    base_string_uri: String,
    consumer_key: &'a str,
    method: String,
    normalized_params: String,
    params: Params<'a>,
    signature_method: &'static str,
    token: Option<&'a str>,
    valid: bool,
}

/// A verified request's `params`, a JSON array of `[name, value]` arrays,
/// written as [`Verified::params`] reads them (no list of them built).
pub(crate) struct Params<'a>(&'a Verified);

impl Serialize for Params<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.params())
    }
}

#[derive(Serialize)]
pub(crate) struct RejectedJson<C> {
    diagnosis: Vec<C>,
    diagnosis_skipped: Option<&'static str>,
    problem: String,
    reason: String,
    valid: bool,
}

impl<C> RejectedJson<C> {
    fn new(
        r: &Rejection,
        reason: &Reason,
        diagnosis: Vec<C>,
        skipped: Option<&'static str>,
    ) -> RejectedJson<C> {
        RejectedJson {
            diagnosis,
            diagnosis_skipped: skipped,
            problem: r.problem(),
            reason: reason.to_string(),
            valid: false,
        }
    }
}

/// A cause as a stranger may read it: no value of either side.
#[derive(Serialize)]
pub(crate) struct StrangerCause<'a> {
    code: &'static str,
    component: String,
    detail: &'a str,
}
