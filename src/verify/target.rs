//! Which URL a received request is checked against: the URL policy. Behind
//! a proxy the received URL is not the one the client signed, so the
//! verifier's public base URL (or, when trusted, what the proxy says the
//! client used) gives its scheme, host and port, and a path prefix.

use std::borrow::Cow;

use crate::error::Error;
use crate::pipeline::url::{find_scheme_end, parse_authority};
use crate::verify::reason::Reason;
use crate::verify::received::{Forwarded, Received};

/// The URL policy a verifier was built with: the public base URL's origin
/// (`scheme://authority`) and its path without a trailing `/`, and whether
/// a proxy's forwarded headers are trusted.
#[derive(Clone, Debug)]
pub(super) struct UrlPolicy {
    pub(super) base: Option<(String, String)>,
    pub(super) trust_forwarded: bool,
}

impl UrlPolicy {
    /// The URL the client is taken to have signed
    /// ([`Verifier::request_url`](crate::verify::Verifier::request_url)),
    /// borrowed when it is the received one.
    pub(super) fn url_of<'r>(&self, r: &'r Received<'_>) -> Result<Cow<'r, str>, Reason> {
        let received: &str = &r.url;
        // The path and query of an absolute URL.
        let path = match find_scheme_end(received) {
            Some(i) if received[..i].bytes().all(|b| b.is_ascii_alphabetic()) => {
                let rest = &received[i + 3..];
                let at = rest.find(['/', '?', '#']).unwrap_or(rest.len());
                Some(&rest[at..])
            }
            _ => None,
        };
        if self.trust_forwarded {
            if let Some(origin) = r.forwarded_origin() {
                let (proto, host) = checked_origin(origin)?;
                let tail = path.unwrap_or(received);
                return Ok(format!("{proto}://{host}{tail}").into());
            }
        }
        Ok(match (&self.base, path) {
            (Some((origin, prefix)), Some(tail)) => format!("{origin}{prefix}{tail}").into(),
            (Some((origin, prefix)), None) => format!("{origin}{prefix}{received}").into(),
            (None, _) => received.into(),
        })
    }
}

/// What a trusted proxy says the client used, accepted only as an origin:
/// the scheme `http` or `https` (any case, written lower-case), and the host
/// as `host[:port]` by the request URL's own authority grammar (a reg-name
/// or an IP literal, digits for the port). Anything else (`host#`, which
/// would make the received path and query a fragment, never signed;
/// `host/admin`, which would put a path before it; user information) is
/// refused, never joined to the received path.
fn checked_origin<'a>(
    ((proto, proto_from), (host, host_from)): Forwarded<'a>,
) -> Result<(&'static str, &'a str), Reason> {
    let proto = if proto.eq_ignore_ascii_case("https") {
        "https"
    } else if proto.eq_ignore_ascii_case("http") {
        "http"
    } else {
        return Err(Reason::ForwardedRejected {
            header: proto_from,
            why: "the scheme is neither http nor https",
        });
    };
    let hostport = host.bytes().all(|b| {
        b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b':' | b'[' | b']')
    });
    if !hostport || parse_authority(host, 0).is_err() {
        return Err(Reason::ForwardedRejected {
            header: host_from,
            why: "the host is not host[:port] (a name or an IP address, digits for the port)",
        });
    }
    Ok((proto, host))
}

/// The received target is an absolute URL or a path (origin-form, RFC 9112
/// §3.2.1): `OPTIONS *` and a `CONNECT` authority name no resource to sign.
pub(super) fn check_target(r: &Received<'_>) -> Result<(), Reason> {
    if let Some(e) = &r.refused {
        return Err(Reason::Malformed(e.clone()));
    }
    let url: &str = &r.url;
    let absolute = find_scheme_end(url)
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
