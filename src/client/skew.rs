//! Clock skew correction for the reqwest middleware (opt-in,
//! [`OAuth1Middleware::with_clock_skew_correction`]): a provider that
//! refuses a request's timestamp (X's error code 135, OAuth Problem
//! Reporting's `timestamp_refused`) tells, in its `Date` header (RFC 9110
//! §6.6.1), what time it is there; the difference from the local clock is
//! the offset a fresh timestamp needs, as the AWS SDKs correct a client's
//! clock skew from a refused request's answer.
//!
//! The answer is read by the capture wing's one reader
//! ([`read_answer`], [`clock_offset`]), never searched here. Only a refusal
//! whose body declares at most [`ANSWER_READ`] bytes is read; any other
//! answer passes through unread.
//!
//! [`OAuth1Middleware::with_clock_skew_correction`]: crate::client::OAuth1Middleware::with_clock_skew_correction

use std::sync::{Mutex, PoisonError};

use reqwest::ResponseBuilderExt as _;

use crate::capture::{clock_offset, read_answer};
use crate::pipeline::clock::unix_now;

/// The most bytes of a refusal read to find whether it is about the clock:
/// an error answer is a few hundred.
pub(crate) const ANSWER_READ: u64 = 64 << 10;

/// The offset learned, shared by every request (and every clone) of one
/// middleware: the local clock is one clock, whichever account signs.
#[derive(Debug, Default)]
pub(crate) struct ClockSkew {
    offset: Mutex<Option<i64>>,
}

impl ClockSkew {
    /// The offset learned from the provider's answers, if any.
    pub(crate) fn offset(&self) -> Option<i64> {
        *self.offset.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `offset` for the requests that follow.
    pub(crate) fn keep(&self, offset: i64) {
        *self.offset.lock().unwrap_or_else(PoisonError::into_inner) = Some(offset);
    }
}

/// What a refusal of the timestamp says: the offset to sign with, and the
/// answer it was read from (for the log).
#[derive(Debug)]
pub(crate) struct Refused {
    /// Seconds to add to the local clock: the provider's `Date` less the
    /// local time when the answer arrived.
    pub(crate) offset: i64,
    /// The answer's status.
    pub(crate) status: u16,
    /// The error read ([`ProviderError::key`](crate::capture::ProviderError::key):
    /// `x-135`, `problem-timestamp_refused`).
    pub(crate) key: &'static str,
    /// The answer's `Date`, as sent (an HTTP date, which holds no control
    /// character).
    pub(crate) date: String,
}

/// `response`, and when it refuses the request's timestamp and says the
/// time by its `Date`, the offset that makes the local clock the
/// provider's. A 400, 401 or 403 with a `Date` and a body of at most
/// [`ANSWER_READ`] bytes is read (and given back whole); any other answer
/// is given back unread.
///
/// # Errors
/// The body could not be read (the connection failed mid-answer).
pub(crate) async fn read_refusal(
    mut response: reqwest::Response,
) -> reqwest_middleware::Result<(reqwest::Response, Option<Refused>)> {
    let status = response.status();
    let date = response
        .headers()
        .get(http::header::DATE)
        .and_then(|d| d.to_str().ok())
        .map(str::to_owned);
    let readable = matches!(status.as_u16(), 400 | 401 | 403)
        && response.content_length().is_some_and(|n| n <= ANSWER_READ);
    let Some(date) = date.filter(|_| readable) else {
        return Ok((response, None));
    };
    let (version, url, headers) = (
        response.version(),
        response.url().clone(),
        response.headers().clone(),
    );
    let extensions = std::mem::take(response.extensions_mut());
    let body = response.bytes().await?;
    // Now, as the answer arrived: the provider's clock and ours, side by side.
    let local = unix_now().ok();
    let answer = read_answer(Some(status.as_u16()), &body);
    let refused = answer.time_error().and_then(|e| {
        // `clock_offset` is the local clock less the provider's.
        let ahead = clock_offset(local?, &date).ok()?;
        Some(Refused {
            offset: 0i64.saturating_sub(ahead),
            status: status.as_u16(),
            key: e.key,
            date: date.clone(),
        })
    });
    // The answer given back as it came: status, version, headers, URL
    // (which reqwest keeps in an extension only its builder sets),
    // extensions and the body's bytes.
    let mut rebuilt = http::Response::builder()
        .status(status)
        .version(version)
        .url(url)
        .body(reqwest::Body::from(body))
        .map_err(reqwest_middleware::Error::middleware)?;
    *rebuilt.headers_mut() = headers;
    rebuilt.extensions_mut().extend(extensions);
    Ok((reqwest::Response::from(rebuilt), refused))
}
