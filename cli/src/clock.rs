//! The clock `serve` (and `verify`) verify timestamps by: the system's,
//! shifted by `serve --clock-offset`, so that a client's clock correction
//! can be tried against a server whose clock is off. One offset for the
//! process, set once at the start of `serve` and never by anything else: a
//! verifier reads its clock through a plain `fn` (`VerifierBuilder::clock`).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Seconds added to the system clock.
static OFFSET: AtomicI64 = AtomicI64::new(0);

/// Runs this process's clock `seconds` off the system's.
pub(crate) fn set_offset(seconds: i64) {
    OFFSET.store(seconds, Ordering::Relaxed);
}

/// Seconds since 1970 by this process's clock: the system's plus the
/// offset; 0 (every timestamp refused: fail closed) for a clock before 1970.
pub(crate) fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .ok()
        .and_then(|d| {
            d.as_secs()
                .checked_add_signed(OFFSET.load(Ordering::Relaxed))
        })
        .unwrap_or(0)
}

/// The `Date` header of this process's clock (RFC 9110 §6.6.1,
/// IMF-fixdate) when it is off the system's; `None` when it is not, and
/// hyper's own (the system clock's) is right.
pub(crate) fn date_header() -> Option<hyper::header::HeaderValue> {
    if OFFSET.load(Ordering::Relaxed) == 0 {
        return None;
    }
    let date = httpdate::fmt_http_date(UNIX_EPOCH + Duration::from_secs(now()));
    hyper::header::HeaderValue::from_str(&date).ok()
}
