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

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer as reqwest hands it on: `status`, `headers`, `body`, from
    /// `https://api.x.com/2/users/me`.
    fn answer(status: u16, headers: &[(&str, &str)], body: &'static str) -> reqwest::Response {
        let mut builder = http::Response::builder()
            .status(status)
            .url(reqwest::Url::parse("https://api.x.com/2/users/me").unwrap());
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        reqwest::Response::from(builder.body(reqwest::Body::from(body)).unwrap())
    }

    /// X's answer to a timestamp out of bounds (X's "Response codes and
    /// errors": code 135).
    const X_135: &str = r#"{"errors":[{"code":135,"message":"Timestamp out of bounds."}]}"#;
    /// The X docs' example timestamp, as an HTTP date.
    const DATE: &str = "Fri, 14 Oct 2011 20:09:18 GMT";
    const DATE_UNIX: i64 = 1_318_622_958;

    async fn read(response: reqwest::Response) -> (u16, String, String, Option<Refused>) {
        let (response, refused) = read_refusal(response).await.unwrap();
        let status = response.status().as_u16();
        let url = response.url().to_string();
        let body = response.text().await.unwrap();
        (status, url, body, refused)
    }

    fn now() -> i64 {
        i64::try_from(unix_now().unwrap()).unwrap()
    }

    #[tokio::test]
    async fn x_135_and_timestamp_refused_give_the_offset_and_the_answer_back_whole() {
        let before = now();
        let (status, url, body, refused) = read(answer(401, &[("date", DATE)], X_135)).await;
        let after = now();
        assert_eq!(
            (status, url.as_str(), body.as_str()),
            (401, "https://api.x.com/2/users/me", X_135)
        );
        let refused = refused.unwrap();
        // The provider's clock less ours, as the answer arrived.
        assert!(
            DATE_UNIX - after <= refused.offset && refused.offset <= DATE_UNIX - before,
            "{refused:?}"
        );
        assert_eq!(
            (refused.status, refused.key, refused.date.as_str()),
            (401, "x-135", DATE)
        );
        let problem = "oauth_problem=timestamp_refused&oauth_acceptable_timestamps=1-2";
        let (_, _, body, refused) = read(answer(401, &[("date", DATE)], problem)).await;
        assert_eq!(body, problem);
        assert_eq!(refused.unwrap().key, "problem-timestamp_refused");
    }

    #[tokio::test]
    async fn no_other_answer_gives_an_offset() {
        // X's 32 (a bad signature), a refusal without a Date or with one
        // that is not a date, a success: none, each given back whole.
        let x_32 = r#"{"errors":[{"code":32,"message":"Could not authenticate you."}]}"#;
        for (status, headers, body) in [
            (401, &[("date", DATE)][..], x_32),
            (401, &[][..], X_135),
            (401, &[("date", "soon")][..], X_135),
            (500, &[("date", DATE)][..], X_135),
            (200, &[("date", DATE)][..], "{}"),
        ] {
            let (got_status, _, got_body, refused) = read(answer(status, headers, body)).await;
            assert_eq!((got_status, got_body.as_str()), (status, body));
            assert!(refused.is_none(), "{status} {headers:?} {body}");
        }
    }

    #[test]
    fn the_offset_learned_is_shared_and_replaced() {
        let skew = ClockSkew::default();
        assert_eq!(skew.offset(), None);
        skew.keep(-600);
        skew.keep(3600);
        assert_eq!(skew.offset(), Some(3600));
    }
}
