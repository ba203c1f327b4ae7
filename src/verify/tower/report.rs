//! What the layer tells the server's owner: each rejection's event, and
//! the opt-in diagnosis of a signature that does not match, bounded by a
//! token bucket.

use std::sync::Mutex;
use std::time::Instant;

use http::Uri;

use super::VerifyLayer;
use crate::pipeline::style::ParameterStyle;
use crate::text::printable::escape_controls;
use crate::verify::reason::{Reason, Rejection};
use crate::verify::received::Received;
use crate::verify::secrets::{Lookup, SecretSource, Secrets};
use crate::verify::target::Forwarded;
use crate::verify::verifier::Verifier;

/// A diagnosis of a request whose signature did not verify, for the
/// owner of a [`VerifyLayer`] ([`VerifyLayer::diagnose`]). The explainer's
/// is `explain::Diagnoser` (feature `explain`); a closure of the same
/// signature is one too.
pub trait Diagnose: Send + Sync + 'static {
    /// The likely causes of `rejection` of `received`, each a line for the
    /// owner's log, found with `secrets` (those of the consumer key and
    /// token the client sent); or why there are none. A line holds no
    /// secret, nothing computed with one, and no key the client did not
    /// send.
    ///
    /// # Errors
    /// Why the request is not diagnosed (a short sentence for the log).
    fn diagnose(
        &self,
        received: &Received<'_>,
        rejection: &Rejection,
        secrets: &Secrets,
    ) -> Result<Vec<String>, &'static str>;
}

impl<F> Diagnose for F
where
    F: Fn(&Received<'_>, &Rejection, &Secrets) -> Result<Vec<String>, &'static str>
        + Send
        + Sync
        + 'static,
{
    fn diagnose(
        &self,
        received: &Received<'_>,
        rejection: &Rejection,
        secrets: &Secrets,
    ) -> Result<Vec<String>, &'static str> {
        self(received, rejection, secrets)
    }
}

/// The layer's diagnoses: the hook, and the bucket that bounds them.
pub(super) struct Diagnoses {
    pub(super) hook: Box<dyn Diagnose>,
    pub(super) per_second: u32,
    /// Milliseconds since `start`, or the clock a test gives.
    pub(super) clock: Option<fn() -> u64>,
    pub(super) start: Instant,
    /// Thousandths of a diagnosis left, and when last refilled (ms).
    pub(super) bucket: Mutex<(u64, u64)>,
}

impl Diagnoses {
    /// Takes one diagnosis from the bucket, which holds `per_second` and
    /// refills at `per_second` a second; `false` when it is empty.
    pub(super) fn take(&self) -> bool {
        let now = match self.clock {
            Some(clock) => clock(),
            None => u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX),
        };
        let full = u64::from(self.per_second) * 1000;
        let Ok(mut bucket) = self.bucket.lock() else {
            return false;
        };
        let (left, last) = *bucket;
        let refilled = now
            .saturating_sub(last)
            .saturating_mul(u64::from(self.per_second));
        let left = left.saturating_add(refilled).min(full);
        let (left, taken) = match left >= 1000 {
            true => (left - 1000, true),
            false => (left, false),
        };
        *bucket = (left, now.max(last));
        taken
    }
}

/// Whether the verifier can know a received path's origin: a public base
/// URL, or a proxy's forwarded headers it reads.
pub(super) fn knows_the_origin<S, N>(verifier: &Verifier<S, N>) -> bool {
    let policy = &verifier.config.url;
    policy.base.is_some() || policy.forwarded != Forwarded::Ignore
}

/// Tells the server's owner why a request was rejected: the true reason
/// (loggable: no secret, values quoted and escaped), the method and the
/// path without its query.
pub(super) fn log_rejection<S, N>(
    layer: &VerifyLayer<S, N>,
    parts: &http::request::Parts,
    uri: &Uri,
    r: &Rejection,
) {
    let method = escape_controls(parts.method.as_str().as_bytes(), &[]);
    let path = escape_controls(uri.path().as_bytes(), &[]);
    let reason = r.reason();
    if uri.scheme().is_none() && !knows_the_origin(&layer.verifier) {
        tracing::warn!(
            target: "oauth1_signer::verify",
            method = %method,
            path = %path,
            reason = %reason,
            problem = %r.problem(),
            "OAuth request rejected: the verifier has no public base URL, so the path received \
             is not the absolute URL the client signed (set VerifierBuilder::public_base_url)"
        );
        return;
    }
    tracing::info!(
        target: "oauth1_signer::verify",
        method = %method,
        path = %path,
        reason = %reason,
        problem = %r.problem(),
        status = r.status(),
        "OAuth request rejected"
    );
}

/// The owner's diagnosis of a signature that does not match, when the
/// layer makes them ([`VerifyLayer::diagnose`]) and its bucket allows: one
/// event with the causes, or why there are none.
pub(super) async fn diagnose<S: SecretSource, N>(
    layer: &VerifyLayer<S, N>,
    parts: &http::request::Parts,
    uri: &Uri,
    received: &Received<'_>,
    r: &Rejection,
) {
    let Some(d) = &layer.diagnoses else {
        return;
    };
    // As the client is told it (an unknown key is that too, and is said as
    // such in the rejection's event); an RSA key missing is no mistake of
    // theirs.
    if r.reason().public() != &Reason::SignatureInvalid
        || matches!(r.reason(), Reason::PublicKeyMissing { .. })
    {
        return;
    }
    let method = escape_controls(parts.method.as_str().as_bytes(), &[]);
    let path = escape_controls(uri.path().as_bytes(), &[]);
    let skipped = |why: &str| {
        tracing::info!(
            target: "oauth1_signer::verify",
            method = %method,
            path = %path,
            skipped = %why,
            "OAuth request diagnosed"
        );
    };
    if !d.take() {
        return skipped(&format!(
            "over {} diagnoses a second: not diagnosed",
            d.per_second
        ));
    }
    if layer.verifier.config.style != ParameterStyle::Rfc5849 {
        return skipped("the verifier reads another parameter style: not diagnosed");
    }
    let Some(key) = r.protocol().and_then(|p| p.consumer_key()) else {
        return skipped("no consumer key: not diagnosed");
    };
    let token = r.protocol().and_then(|p| p.token());
    let secrets = match layer.verifier.secrets.secrets(key, token).await {
        Ok(Lookup::Found(secrets)) => secrets,
        Ok(_) => return skipped("the consumer key or token is unknown: not diagnosed"),
        Err(_) => return skipped("the secrets could not be looked up: not diagnosed"),
    };
    match d.hook.diagnose(received, r, &secrets) {
        Ok(causes) => tracing::info!(
            target: "oauth1_signer::verify",
            method = %method,
            path = %path,
            cause = %causes.first().map_or("", |c| c.split(' ').next().unwrap_or_default()),
            causes = %escape_controls(causes.join("; ").as_bytes(), &[]),
            "OAuth request diagnosed"
        ),
        Err(why) => skipped(why),
    }
}
