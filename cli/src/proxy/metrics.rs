//! `proxy --metrics-listen ADDR`: the requests by outcome, their latency,
//! the upstream's failures, in the Prometheus text format (0.0.4), served
//! on a listener of its own (never on the proxied port).

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use oauth1_signer::verify::Reason;

/// The latency histogram's upper bounds, in seconds.
const BUCKETS: [f64; 12] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

/// The counts, shared by every connection.
#[derive(Debug)]
pub(crate) struct Metrics {
    /// Requests by outcome (`valid`, each rejection's reason, `health`, ...).
    outcomes: Mutex<BTreeMap<&'static str, u64>>,
    /// Upstream failures by kind (`failed`: no connection, or it broke; `timeout`).
    upstream: Mutex<BTreeMap<&'static str, u64>>,
    /// One count per bucket, then +Inf.
    buckets: [AtomicU64; BUCKETS.len() + 1],
    /// The sum of latencies, in microseconds.
    sum_us: AtomicU64,
}

/// A rejection's reason as a label: the variant's name, never a value.
pub(crate) fn reason_label(reason: &Reason) -> &'static str {
    match reason {
        Reason::Malformed(_) => "malformed",
        Reason::AmbiguousHeader { .. } => "ambiguous_header",
        Reason::ForwardedRejected { .. } => "forwarded_rejected",
        Reason::ForwardedRepeated { .. } => "forwarded_repeated",
        Reason::Duplicated { .. } => "duplicated",
        Reason::InTwoPlaces { .. } => "in_two_places",
        Reason::ParameterAbsent(_) => "parameter_absent",
        Reason::ParameterRejected { .. } => "parameter_rejected",
        Reason::VersionRejected => "version_rejected",
        Reason::SignatureMethodRejected { .. } => "signature_method_rejected",
        Reason::ConsumerKeyUnknown => "consumer_key_unknown",
        Reason::TokenUnknown => "token_unknown",
        Reason::PublicKeyMissing { .. } => "public_key_missing",
        Reason::SignatureInvalid => "signature_invalid",
        Reason::BodyHashInvalid => "body_hash_invalid",
        Reason::TimestampRefused { .. } => "timestamp_refused",
        Reason::NonceUsed => "nonce_used",
        Reason::StoreUnavailable(_) => "store_unavailable",
        Reason::SecretsUnavailable(_) => "secrets_unavailable",
        _ => "other",
    }
}

impl Default for Metrics {
    /// Every count at zero; the upstream's failures, and the valid
    /// requests, shown at zero until the first (a rate needs its start).
    fn default() -> Metrics {
        Metrics {
            outcomes: Mutex::new(BTreeMap::from([("valid", 0)])),
            upstream: Mutex::new(BTreeMap::from([("failed", 0), ("timeout", 0)])),
            buckets: Default::default(),
            sum_us: AtomicU64::new(0),
        }
    }
}

impl Metrics {
    /// Counts one request: its outcome and how long it took.
    pub(crate) fn request(&self, outcome: &'static str, took: Duration) {
        if let Ok(mut o) = self.outcomes.lock() {
            *o.entry(outcome).or_default() += 1;
        }
        let seconds = took.as_secs_f64();
        let bucket = BUCKETS
            .iter()
            .position(|&b| seconds <= b)
            .unwrap_or(BUCKETS.len());
        self.buckets[bucket].fetch_add(1, Ordering::Relaxed);
        let us = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.sum_us.fetch_add(us, Ordering::Relaxed);
    }

    /// Counts one upstream failure.
    pub(crate) fn upstream_error(&self, kind: &'static str) {
        if let Ok(mut u) = self.upstream.lock() {
            *u.entry(kind).or_default() += 1;
        }
    }

    /// The Prometheus text.
    pub(crate) fn text(&self) -> String {
        let mut out = String::new();
        out.push_str(
            "# HELP oauth1_proxy_requests_total Requests answered, by outcome.\n\
             # TYPE oauth1_proxy_requests_total counter\n",
        );
        if let Ok(o) = self.outcomes.lock() {
            for (outcome, n) in o.iter() {
                let _ = writeln!(
                    out,
                    "oauth1_proxy_requests_total{{outcome=\"{outcome}\"}} {n}"
                );
            }
        }
        out.push_str(
            "# HELP oauth1_proxy_upstream_errors_total Requests the upstream did not answer.\n\
             # TYPE oauth1_proxy_upstream_errors_total counter\n",
        );
        if let Ok(u) = self.upstream.lock() {
            for (kind, n) in u.iter() {
                let _ = writeln!(
                    out,
                    "oauth1_proxy_upstream_errors_total{{kind=\"{kind}\"}} {n}"
                );
            }
        }
        out.push_str(
            "# HELP oauth1_proxy_request_duration_seconds Time from the request's head to the \
             answer's head.\n# TYPE oauth1_proxy_request_duration_seconds histogram\n",
        );
        let mut total = 0;
        for (i, count) in self.buckets.iter().enumerate() {
            total += count.load(Ordering::Relaxed);
            let le = BUCKETS.get(i).map_or("+Inf".to_owned(), |b| b.to_string());
            let _ = writeln!(
                out,
                "oauth1_proxy_request_duration_seconds_bucket{{le=\"{le}\"}} {total}"
            );
        }
        let sum = self.sum_us.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "oauth1_proxy_request_duration_seconds_sum {sum}");
        let _ = writeln!(out, "oauth1_proxy_request_duration_seconds_count {total}");
        out
    }
}

/// Serves `metrics` on `listener` (any path, any method) until the
/// process stops.
pub(crate) async fn serve_metrics(listener: tokio::net::TcpListener, metrics: Arc<Metrics>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let metrics = metrics.clone();
        let service = hyper::service::service_fn(move |_request| {
            let mut response = Response::new(Full::new(Bytes::from(metrics.text())));
            *response.status_mut() = StatusCode::OK;
            response.headers_mut().insert(
                CONTENT_TYPE,
                HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
            );
            async move { Ok::<_, Infallible>(response) }
        });
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(Duration::from_secs(10))
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_is_cumulative_and_the_outcomes_counted() {
        let m = Metrics::default();
        m.request("valid", Duration::from_micros(300));
        m.request("valid", Duration::from_millis(3));
        m.request("nonce_used", Duration::from_secs(10));
        m.upstream_error("timeout");
        let text = m.text();
        assert!(text.contains("oauth1_proxy_requests_total{outcome=\"valid\"} 2\n"));
        assert!(text.contains("oauth1_proxy_requests_total{outcome=\"nonce_used\"} 1\n"));
        assert!(text.contains("oauth1_proxy_upstream_errors_total{kind=\"timeout\"} 1\n"));
        assert!(text.contains("oauth1_proxy_upstream_errors_total{kind=\"failed\"} 0\n"));
        assert!(text.contains("_bucket{le=\"0.0005\"} 1\n"));
        assert!(text.contains("_bucket{le=\"0.005\"} 2\n"));
        assert!(text.contains("_bucket{le=\"5\"} 2\n"));
        assert!(text.contains("_bucket{le=\"+Inf\"} 3\n"));
        assert!(text.contains("oauth1_proxy_request_duration_seconds_count 3\n"));
    }
}
