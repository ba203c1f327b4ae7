//! The local clock, for a fresh `oauth_timestamp` (RFC 5849 §3.3) and for
//! warning about a pinned one far from it: seconds since 1970, where the
//! target has a clock.
//!
//! `wasm32-unknown-unknown` has none (`std::time::SystemTime::now` panics
//! there): a program on it, such as a web page, reads the time from its host
//! and pins the timestamp (`SignerBuilder::with_timestamp`).

use crate::error::{Error, ErrorKind};

/// Seconds since 1970 by the local clock.
///
/// # Errors
/// [`ErrorKind::ClockBeforeEpoch`] for a clock set before 1970;
/// [`ErrorKind::NoClock`] on a target without a clock.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) fn unix_now() -> Result<u64, Error> {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .map_err(|_| Error::new(ErrorKind::ClockBeforeEpoch))
}

/// No clock on this target: the caller pins the timestamp.
///
/// # Errors
/// Always [`ErrorKind::NoClock`].
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) fn unix_now() -> Result<u64, Error> {
    Err(Error::new(ErrorKind::NoClock))
}
