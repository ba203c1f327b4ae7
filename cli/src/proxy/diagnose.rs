//! `proxy --diagnose N`: the likely cause of a bad signature, for the
//! operator's log only (the client is told `signature_invalid`, nothing
//! more). The library's explainer, told as a stranger would be told it
//! (causes and where, no value of either side), with the secrets of the
//! key and token the client sent; at most N a second (a token bucket),
//! and only for a request within the explainer's bounds
//! (`Rejected::too_large`): the rest say why they were skipped.

use std::sync::Mutex;
use std::time::Instant;

use oauth1_signer::explain::{Audience, Rejected};
use oauth1_signer::verify::{Reason, Received, Rejection};
use oauth1_signer::RequestSpec;

use super::secrets::ProxySecrets;

/// The bucket of diagnoses.
#[derive(Debug)]
pub(crate) struct Diagnoses {
    per_second: u32,
    /// Diagnoses left (fractional), and when last refilled.
    bucket: Mutex<(f64, Instant)>,
}

impl Diagnoses {
    pub(crate) fn new(per_second: u32) -> Diagnoses {
        Diagnoses {
            per_second,
            bucket: Mutex::new((f64::from(per_second), Instant::now())),
        }
    }

    /// One diagnosis from the bucket at `now`, or `false` when it is empty.
    fn take(&self, now: Instant) -> bool {
        let Ok(mut bucket) = self.bucket.lock() else {
            return false;
        };
        let (left, last) = *bucket;
        let full = f64::from(self.per_second);
        let left = (left + now.saturating_duration_since(last).as_secs_f64() * full).min(full);
        let (left, taken) = if left >= 1.0 {
            (left - 1.0, true)
        } else {
            (left, false)
        };
        *bucket = (left, now.max(last));
        taken
    }

    /// The likely cause of `rejection` of `received`, for the log: `None`
    /// for a refusal that is not a bad signature of a key and token held.
    pub(crate) fn diagnose(
        &self,
        secrets: &ProxySecrets,
        received: &Received<'_>,
        rejection: &Rejection,
    ) -> Option<String> {
        // A key or token we do not hold is said as such by the reason.
        if rejection.reason() != &Reason::SignatureInvalid {
            return None;
        }
        let protocol = rejection.protocol()?;
        let key = protocol.consumer_key()?;
        let token = protocol.token();
        let (consumer_secret, token_secret) = secrets.pair(key, token)?;
        let Some(seen) = Rejected::of(received, rejection) else {
            return Some("not diagnosed: the request was not read".to_owned());
        };
        if let Some(why) = seen.too_large() {
            return Some(why.to_owned());
        }
        if !self.take(Instant::now()) {
            return Some(format!(
                "over {} diagnoses a second: not diagnosed",
                self.per_second
            ));
        }
        let mut ours = RequestSpec::default();
        ours.consumer_key = key.to_owned();
        ours.token = token.map(str::to_owned);
        ours.consumer_secret = Some(consumer_secret.clone());
        ours.token_secret = Some(token_secret.clone());
        match seen.diagnose(&ours, Audience::Stranger, (&consumer_secret, &token_secret)) {
            Ok(findings) if findings.is_empty() => {
                Some("likely cause: none found (the secrets differ?)".to_owned())
            }
            Ok(findings) => Some(format!(
                "likely cause: {}",
                findings
                    .iter()
                    .map(|f| format!("{} ({}): {}", f.cause.as_str(), f.component, f.detail))
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
            Err(why) => Some(why.to_owned()),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_bucket_holds_n_and_refills_n_a_second() {
        let d = Diagnoses::new(2);
        let t0 = d.bucket.lock().unwrap().1;
        assert!(d.take(t0));
        assert!(d.take(t0));
        assert!(!d.take(t0));
        // Half a second refills one.
        let t1 = t0 + Duration::from_millis(500);
        assert!(d.take(t1));
        assert!(!d.take(t1));
        // Never more than it holds, however long it waited.
        let t2 = t1 + Duration::from_secs(60);
        assert!(d.take(t2) && d.take(t2));
        assert!(!d.take(t2));
    }
}
