//! Which URL a received request is checked against: the URL policy. Behind
//! a proxy the received URL is not the one the client signed, so the
//! verifier's public base URL (or, from the one header family the operator
//! named, what the proxy says the client used) gives its scheme, host and
//! port, and a path prefix.

use std::borrow::Cow;

use crate::error::Error;
use crate::pipeline::url::{find_scheme_end, parse_authority};
use crate::verify::reason::Reason;
use crate::verify::received::{Origin, Received};

/// Which of a proxy's headers say the scheme and host the client used
/// ([`VerifierBuilder::forwarded`](crate::verify::VerifierBuilder::forwarded)).
///
/// A header is the proxy's only if the proxy *writes* it on every request,
/// overwriting (or appending to) what the client sent: every other header
/// reaches the server as the client wrote it. So name the one family the
/// proxy in front of this server writes, and the other is ignored; a client
/// that adds `Forwarded: proto=https;host=other-tenant.example` behind a
/// proxy that writes `X-Forwarded-*` then chooses nothing. Which proxy
/// configurations fit which choice: `docs/verify.md`.
///
/// ```
/// use oauth1_signer::verify::{Forwarded, MemoryNonceStore, StaticSecrets, Verifier};
/// use oauth1_signer::Credentials;
///
/// // Behind nginx with `proxy_set_header X-Forwarded-Proto $scheme;` and
/// // `proxy_set_header X-Forwarded-Host $host;`.
/// let verifier = Verifier::builder(StaticSecrets::new(Credentials::new("ck", "cs")), MemoryNonceStore::with_capacity(1000))
///     .forwarded(Forwarded::XForwarded)
///     .build()?;
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Forwarded {
    /// Neither family is read (the default): the scheme and host are the
    /// [public base URL](crate::verify::VerifierBuilder::public_base_url)'s,
    /// or the received absolute URL's. For a server no proxy stands in
    /// front of, or one whose public URL is fixed.
    #[default]
    Ignore,
    /// RFC 7239 `Forwarded` alone: `proto` and `host` of its last element
    /// ([§4](https://www.rfc-editor.org/rfc/rfc7239#section-4)), when it has
    /// both; a parameter given twice in that element (`host=a;host=b`, which
    /// §4 forbids) is refused. `X-Forwarded-*` is ignored.
    Rfc7239,
    /// `X-Forwarded-Proto` and `X-Forwarded-Host` alone: the last value of
    /// each, when both are there. `Forwarded` is ignored.
    XForwarded,
    /// The operator trusts a proxy's headers but has not named its family:
    /// whichever family the request carries is read as above, and a request
    /// that carries both (a `Forwarded` header and an `X-Forwarded-Proto` or
    /// `X-Forwarded-Host` header, whatever their values) is refused, since
    /// one of the two is the client's and which cannot be known. What the
    /// deprecated `trust_forwarded(true)` now means; name the family
    /// instead.
    Either,
}

/// The URL policy a verifier was built with: the public base URL's origin
/// (`scheme://authority`) and its path without a trailing `/`, and which
/// forwarded headers are read.
#[derive(Clone, Debug)]
pub(super) struct UrlPolicy {
    pub(super) base: Option<(String, String)>,
    pub(super) forwarded: Forwarded,
}

impl UrlPolicy {
    /// The URL the client is taken to have signed
    /// ([`Verifier::request_url`](crate::verify::Verifier::request_url)),
    /// borrowed when it is the received one. A target that is neither a
    /// path nor an absolute URL is refused before anything is joined to it
    /// (`x` after `https://tool.example.com` would name another host).
    pub(super) fn url_of<'r>(&self, r: &'r Received<'_>) -> Result<Cow<'r, str>, Reason> {
        let received: &str = &r.url;
        // The path and query of an absolute URL.
        let path = match target_form(received)? {
            Target::Absolute { path_at } => Some(&received[path_at..]),
            Target::Origin => None,
        };
        if let Some(origin) = self.proxy_origin(r)? {
            let (proto, host) = checked_origin(origin)?;
            let tail = path.unwrap_or(received);
            return Ok([proto, "://", host, tail].concat().into());
        }
        Ok(match (&self.base, path) {
            (Some((origin, prefix)), Some(tail)) => [origin, prefix, tail].concat().into(),
            (Some((origin, prefix)), None) => [origin, prefix, received].concat().into(),
            (None, _) => received.into(),
        })
    }

    /// The scheme and host the named family of forwarded headers gives, if
    /// it gives both.
    fn proxy_origin<'a>(&self, r: &Received<'a>) -> Result<Option<Origin<'a>>, Reason> {
        match self.forwarded {
            Forwarded::Ignore => Ok(None),
            Forwarded::Rfc7239 => r.rfc7239_origin(),
            Forwarded::XForwarded => Ok(r.x_forwarded_origin()),
            Forwarded::Either => match (r.has_rfc7239(), r.has_x_forwarded()) {
                (true, true) => Err(Reason::ForwardedRejected {
                    header: "Forwarded",
                    why: "the request also has X-Forwarded-Proto or X-Forwarded-Host, one of \
                          the two families is the client's, and the verifier was not told \
                          which its proxy writes (VerifierBuilder::forwarded)",
                }),
                (true, false) => r.rfc7239_origin(),
                (false, _) => Ok(r.x_forwarded_origin()),
            },
        }
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
    ((proto, proto_from), (host, host_from)): Origin<'a>,
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

/// The form of a received request target (RFC 9112 §3.2).
enum Target {
    /// `/path?query` (origin-form).
    Origin,
    /// `scheme://authority/path?query` (absolute-form); the path starts at
    /// `path_at` (at the end when it is empty).
    Absolute { path_at: usize },
}

/// The received target's form: an absolute URL or a path (origin-form, RFC
/// 9112 §3.2.1); `OPTIONS *`, a `CONNECT` authority, or any other text
/// names no resource to sign, and is refused.
fn target_form(url: &str) -> Result<Target, Reason> {
    match find_scheme_end(url) {
        Some(i) if i > 0 && url[..i].bytes().all(|b| b.is_ascii_alphabetic()) => {
            let rest = &url[i + 3..];
            let at = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            return Ok(Target::Absolute {
                path_at: i + 3 + at,
            });
        }
        _ if url.starts_with('/') => return Ok(Target::Origin),
        _ => {}
    }
    Err(Reason::Malformed(Error::invalid_url(
        0,
        "the request target is neither a path (starting with '/') nor an absolute URL: \
         an asterisk-form (OPTIONS *) or authority-form target names no resource to sign",
    )))
}

/// The received request can be read: its `Content-Type` was not refused.
/// (Its target, a path or an absolute URL, is checked once, as its URL is
/// built: [`UrlPolicy::url_of`].)
pub(super) fn check_target(r: &Received<'_>) -> Result<(), Reason> {
    match &r.refused {
        Some(e) => Err(Reason::Malformed(e.clone())),
        None => Ok(()),
    }
}
