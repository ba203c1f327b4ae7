//! Which URL a received request is checked against: the URL policy. Behind
//! a proxy the received URL is not the one the client signed, so the
//! verifier's public base URL (or, when trusted, what the proxy says the
//! client used) gives its scheme, host and port, and a path prefix.

use std::borrow::Cow;

use crate::error::Error;
use crate::verify::reason::Reason;
use crate::verify::received::Received;
use crate::verify::verifier::Verifier;

impl<S, N> Verifier<S, N> {
    /// The URL the client is taken to have signed: the received one with
    /// the public base URL's (or trusted forwarded headers') scheme and
    /// authority, and the base URL's path before the received path. The
    /// verifier signs against it; a server that explains a failure uses
    /// the same.
    pub fn request_url(&self, r: &Received<'_>) -> String {
        self.url_of(r).into_owned()
    }

    /// [`request_url`](Self::request_url), borrowed when it is the received one.
    pub(super) fn url_of<'r>(&self, r: &'r Received<'_>) -> Cow<'r, str> {
        let received: &str = &r.url;
        // The path and query of an absolute URL.
        let path = match received.find("://") {
            Some(i) if received[..i].bytes().all(|b| b.is_ascii_alphabetic()) => {
                let rest = &received[i + 3..];
                let at = rest.find(['/', '?', '#']).unwrap_or(rest.len());
                Some(&rest[at..])
            }
            _ => None,
        };
        if self.config.trust_forwarded {
            if let Some((proto, host)) = r.forwarded_origin() {
                let tail = path.unwrap_or(received);
                return format!("{proto}://{host}{tail}").into();
            }
        }
        match (&self.config.base, path) {
            (Some((origin, prefix)), Some(tail)) => format!("{origin}{prefix}{tail}").into(),
            (Some((origin, prefix)), None) => format!("{origin}{prefix}{received}").into(),
            (None, _) => received.into(),
        }
    }
}

/// The received target is an absolute URL or a path (origin-form, RFC 9112
/// §3.2.1): `OPTIONS *` and a `CONNECT` authority name no resource to sign.
pub(super) fn check_target(r: &Received<'_>) -> Result<(), Reason> {
    let url: &str = &r.url;
    let absolute = url
        .find("://")
        .is_some_and(|i| i > 0 && url[..i].bytes().all(|b| b.is_ascii_alphabetic()));
    if absolute || url.starts_with('/') {
        return Ok(());
    }
    Err(Reason::Malformed(Error::invalid_url(
        0,
        "the request target is neither a path (starting with '/') nor an absolute URL: \
         an asterisk-form (OPTIONS *) or authority-form target names no resource to sign",
    )))
}
