//! A request URL's authority (RFC 3986 §3.2): the host, an IPv6 literal
//! checked as an address, and the port; user information and a `\\` named
//! as the tricks they are.

use std::net::Ipv6Addr;

use crate::error::{Error, Part};
use crate::text::scan::{is_host_byte, is_sub_delim, is_unreserved};

/// The host and port of `auth`, an authority whose first byte is at `base`
/// in the URL, or what is wrong with it there.
pub(crate) fn parse_authority(auth: &str, base: usize) -> Result<(&str, Option<u16>), Error> {
    match plain_authority(auth) {
        Some(parsed) => Ok(parsed),
        None => checked_authority(auth, base),
    }
}

/// The common case in one pass: a host name of allowed bytes, perhaps a
/// port from 1 to 65535. `None` for anything else (user information, IPv6,
/// a bad byte, an empty port, port 0 or past 65535), which
/// [`checked_authority`] reads and names what is wrong.
pub(super) fn plain_authority(auth: &str) -> Option<(&str, Option<u16>)> {
    let bytes = auth.as_bytes();
    let host_len = bytes
        .iter()
        .position(|&b| !is_host_byte(b))
        .unwrap_or(bytes.len());
    if host_len == 0 {
        return None;
    }
    match bytes[host_len..] {
        [] => Some((auth, None)),
        [b':', ref digits @ ..] => {
            // Checked at every digit, so no count of digits can overflow. An
            // empty port folds to 0, which is left to the checked path too.
            let port = digits.iter().try_fold(0u16, |n, &d| {
                let digit = d.is_ascii_digit().then(|| u16::from(d - b'0'))?;
                n.checked_mul(10)?.checked_add(digit)
            })?;
            (port != 0).then_some((&auth[..host_len], Some(port)))
        }
        _ => None,
    }
}

/// [`parse_authority`] for any authority, naming what is wrong.
pub(super) fn checked_authority(auth: &str, base: usize) -> Result<(&str, Option<u16>), Error> {
    // Before the '@' check: in `h\@evil` the backslash is the trick (browsers
    // read `\` as `/`, so they go to `h`; servers see user information and
    // go to `evil`), and it is what must be named.
    if let Some(at) = auth.find('\\') {
        return Err(Error::invalid_byte(
            Part::Url,
            base + at,
            b'\\',
            "'\\' is not allowed in a URL; browsers read it as '/', servers do not",
        ));
    }
    if let Some(at) = auth.find('@') {
        return Err(Error::invalid_url(
            base + at,
            "user information in the URL is never sent in the Host header; remove it",
        ));
    }
    let (host, port_text, port_at) = if auth.starts_with('[') {
        let Some(close) = auth.find(']') else {
            return Err(Error::invalid_url(
                base,
                "IPv6 address without its closing ']'",
            ));
        };
        let host = &auth[..=close];
        check_ip_literal(&host[1..close], base + 1)?;
        match &auth[close + 1..] {
            "" => (host, None, 0),
            rest => match rest.strip_prefix(':') {
                Some(p) => (host, Some(p), close + 2),
                None => {
                    return Err(Error::invalid_url(
                        base + close + 1,
                        "expected ':' and a port after the IPv6 address",
                    ))
                }
            },
        }
    } else {
        match auth.rfind(':') {
            Some(c) => (&auth[..c], Some(&auth[c + 1..]), c + 1),
            None => (auth, None, 0),
        }
    };
    if host.is_empty() {
        return Err(Error::invalid_url(base, "missing host"));
    }
    if !host.starts_with('[') {
        check_host(host, base, |b| is_unreserved(b) || is_sub_delim(b))?;
    }
    let port = match port_text {
        None | Some("") => None,
        Some(p) => {
            if let Some(i) = p.bytes().position(|b| !b.is_ascii_digit()) {
                return Err(Error::invalid_url(
                    base + port_at + i,
                    "the port must be decimal digits",
                ));
            }
            let port = p
                .parse::<u16>()
                .map_err(|_| Error::invalid_url(base + port_at, "the port is larger than 65535"))?;
            // Port 0 is reserved (IANA); no request can reach it, so none can be
            // signed for it. An empty port (RFC 3986 §3.2.3) means the default.
            if port == 0 {
                return Err(Error::invalid_url(
                    base + port_at,
                    "port 0 cannot be connected to",
                ));
            }
            Some(port)
        }
    };
    Ok((host, port))
}

/// Checks the text between the brackets of an RFC 3986 §3.2.2 `IP-literal`,
/// whose first byte is at `base`: it must be an `IPv6address`, which the
/// standard library parses to the same grammar. A byte class alone lets
/// `[]` or `[::1::2]` through, and a host the client cannot connect to is
/// one whose signature nobody can check.
fn check_ip_literal(text: &str, base: usize) -> Result<(), Error> {
    // RFC 6874 zone ids (`%25eth0`) name an interface of the sender's
    // machine: meaningless to the server, and left out of the Host header.
    if let Some(at) = text.find('%') {
        return Err(Error::invalid_url(
            base + at,
            "an IPv6 zone id ('%25...') names a local interface and cannot be signed; remove it",
        ));
    }
    if text.starts_with(['v', 'V']) {
        return Err(Error::invalid_url(
            base,
            "IPvFuture addresses ('[v1.x]') are not supported; only IPv6 addresses are",
        ));
    }
    match text.parse::<Ipv6Addr>() {
        Ok(_) => Ok(()),
        Err(_) => Err(Error::invalid_url(base, "not an IPv6 address")),
    }
}

fn check_host(host: &str, base: usize, allowed: impl Fn(u8) -> bool) -> Result<(), Error> {
    match host.bytes().position(|b| !allowed(b)) {
        Some(i) => Err(Error::invalid_byte(
            Part::Url,
            base + i,
            host.as_bytes()[i],
            "a character allowed in a host name (percent-encoded and non-ASCII hosts are not supported; use the punycode form)",
        )),
        None => Ok(()),
    }
}
