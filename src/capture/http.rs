//! A raw HTTP/1.1 request as a proxy saves it (mitmproxy, Burp, Charles,
//! Wireshark's "Follow HTTP stream"), read by RFC 9112: the request line,
//! the header lines, and the body its framing gives (`Content-Length`, or
//! `Transfer-Encoding: chunked`). The bytes do not hold the scheme; the
//! caller says it.

use crate::error::{Error, ErrorKind, Part};

use super::{shown, Captured, CapturedResponse, Header, Warning};

fn unreadable(offset: usize, reason: impl Into<String>) -> Error {
    Error::unreadable(Part::HttpMessage, Some(offset), reason)
}

fn ambiguous(offset: usize, reason: impl Into<String>) -> Error {
    Error::ambiguous(Part::HttpMessage, offset, reason)
}

/// A line of a message's head (without its CR LF or LF) and where it starts.
type Line<'a> = (&'a [u8], usize);

/// The lines of a message's head, and where the body starts.
fn head_lines(message: &[u8]) -> Result<(Vec<Line<'_>>, usize), Error> {
    let mut lines = Vec::new();
    let mut at = 0;
    loop {
        let Some(k) = message[at..].iter().position(|&b| b == b'\n') else {
            return Err(Error::new(ErrorKind::UnexpectedEnd {
                part: Part::HttpMessage,
                offset: message.len(),
                expected: "the empty line that ends the headers",
            }));
        };
        let end = at + k;
        let line = &message[at..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let start = at;
        at = end + 1;
        // Empty lines before the request line are passed over (§2.2).
        if line.is_empty() {
            if lines.is_empty() {
                continue;
            }
            return Ok((lines, at));
        }
        lines.push((line, start));
    }
}

fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Reads a raw HTTP/1.1 request. `scheme` (`https` or `http`) is the
/// scheme of its URL when its target is a path (origin-form, with the
/// `Host` header); a target that is a whole URL (absolute-form, as sent to
/// a proxy) keeps its own.
///
/// ```
/// use oauth1_signer::capture::parse_http;
///
/// let message = b"POST /1.1/statuses/update.json?include_entities=true HTTP/1.1\r\n\
///     Host: api.x.com\r\n\
///     Authorization: OAuth oauth_consumer_key=\"xvz1evFS4wEEPTGEFPHBog\"\r\n\
///     Content-Type: application/x-www-form-urlencoded\r\n\
///     Content-Length: 12\r\n\
///     \r\n\
///     status=Hello";
/// let request = parse_http(message, "https")?;
/// assert_eq!(request.url(), "https://api.x.com/1.1/statuses/update.json?include_entities=true");
/// assert_eq!(request.body(), Some(&b"status=Hello"[..]));
///
/// let chunked = b"POST /p HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
/// assert_eq!(parse_http(chunked, "http")?.body(), Some(&b"hello"[..]));
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
///
/// # Errors
/// - [`ErrorKind::Unreadable`] at its offset: a request line that is not
///   `METHOD target HTTP/1.x`, a header line that is not `name: value`
///   (or is folded onto the line before), an origin-form target without
///   `Host`, a body cut off before its `Content-Length` or its last
///   chunk, a `Transfer-Encoding` other than `chunked`, a `scheme` other
///   than `http` or `https`;
/// - [`ErrorKind::Ambiguous`]: two `Host`, `Authorization`,
///   `Content-Type` or `Content-Length` headers, `Content-Length` beside
///   `Transfer-Encoding`, bytes after the request that are not blank;
/// - [`ErrorKind::UnexpectedEnd`]: no empty line ends the headers.
pub fn parse_http(message: &[u8], scheme: &str) -> Result<Captured, Error> {
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return Err(Error::unreadable(
            Part::HttpMessage,
            None,
            format!(
                "the scheme {} is not http or https",
                shown(scheme.as_bytes())
            ),
        ));
    }
    let (lines, body_at) = head_lines(message)?;
    let mut warnings = Vec::new();
    let (request_line, line_at) = lines[0];
    let parts: Vec<&[u8]> = request_line.split(|&b| b == b' ').collect();
    let [method, target, version] = parts.as_slice() else {
        return Err(unreadable(
            line_at,
            format!(
                "{} is not a request line (METHOD target HTTP/1.1, one space between)",
                shown(request_line)
            ),
        ));
    };
    if method.is_empty() || !method.iter().all(|&b| is_tchar(b)) {
        return Err(unreadable(
            line_at,
            format!("{} is not a method", shown(method)),
        ));
    }
    match *version {
        b"HTTP/1.1" | b"HTTP/1.0" => {}
        b"HTTP/2" | b"HTTP/2.0" => warnings.push(Warning::new(
            "http2-message",
            Some(line_at),
            "an HTTP/2 request written as HTTP/1.1 text (as Burp shows one): read as if it were",
        )),
        other => {
            return Err(unreadable(
                line_at + method.len() + target.len() + 2,
                format!("{} is not HTTP/1.1 or HTTP/1.0", shown(other)),
            ))
        }
    }
    let mut headers = Vec::new();
    for &(line, at) in &lines[1..] {
        if matches!(line[0], b' ' | b'\t') {
            return Err(unreadable(
                at,
                "a header line folded onto the one before (obsolete line folding, RFC 9112 §5.2): \
                 where its value ends cannot be known",
            ));
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return Err(unreadable(
                at,
                format!("{} is not a header line (name: value)", shown(line)),
            ));
        };
        let name = &line[..colon];
        if name.is_empty() || !name.iter().all(|&b| is_tchar(b)) {
            return Err(unreadable(
                at,
                format!(
                    "{} is not a header name (no space before the colon)",
                    shown(name)
                ),
            ));
        }
        let value = line[colon + 1..].trim_ascii();
        let value = std::str::from_utf8(value).map_err(|e| {
            unreadable(
                at + colon + 1 + e.valid_up_to(),
                "a header value that is not UTF-8 text",
            )
        })?;
        if let Some(k) = value.find(|c: char| c.is_control() && c != '\t') {
            return Err(unreadable(
                at + colon + 1 + k,
                "a control character in a header value",
            ));
        }
        headers.push(Header {
            name: String::from_utf8_lossy(name).into_owned(),
            value: value.to_owned(),
            offset: Some(at),
        });
    }
    let method = String::from_utf8_lossy(method).into_owned();
    let target_at = line_at + method.len() + 1;
    let target = std::str::from_utf8(target)
        .map_err(|_| unreadable(target_at, "the request target is not UTF-8 text"))?;
    let url = url(target, target_at, &scheme, &headers)?;
    let body = body(message, body_at, &headers, &mut warnings)?;
    let captured = Captured {
        part: Part::HttpMessage,
        method,
        url,
        headers,
        body,
        response: None,
        warnings,
    };
    captured.check_once()?;
    Ok(captured)
}

/// Reads a raw HTTP/1.1 response, as a proxy saves one: the status line,
/// the headers, and the body (by `Content-Length`, chunked, or to the end
/// of the bytes, as a response without either is framed).
///
/// ```
/// use oauth1_signer::capture::parse_http_response;
///
/// let saved = b"HTTP/1.1 401 Authorization Required\r\n\
///     Date: Fri, 14 Oct 2011 20:19:18 GMT\r\n\
///     Content-Type: application/json\r\n\
///     \r\n\
///     {\"errors\":[{\"code\":135,\"message\":\"Timestamp out of bounds.\"}]}";
/// let response = parse_http_response(saved)?;
/// assert_eq!(response.status, 401);
/// assert_eq!(response.header("date"), Some("Fri, 14 Oct 2011 20:19:18 GMT"));
/// assert_eq!(response.answer().errors[0].code, "135");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
///
/// # Errors
/// [`ErrorKind::Unreadable`]: a status line that is not `HTTP/1.x CODE
/// reason`, a header line that is not `name: value`, a body cut off;
/// [`ErrorKind::UnexpectedEnd`]: no empty line ends the headers.
pub fn parse_http_response(message: &[u8]) -> Result<CapturedResponse, Error> {
    let (lines, body_at) = head_lines(message)?;
    let (status_line, at) = lines[0];
    let mut parts = status_line.splitn(3, |&b| b == b' ');
    let version = parts.next().unwrap_or_default();
    let code = parts.next().unwrap_or_default();
    let status = std::str::from_utf8(code)
        .ok()
        .filter(|c| c.len() == 3)
        .and_then(|c| c.parse::<u16>().ok())
        .filter(|_| version.starts_with(b"HTTP/"))
        .ok_or_else(|| {
            unreadable(
                at,
                format!(
                    "{} is not a status line (HTTP/1.1 401 Unauthorized)",
                    shown(status_line)
                ),
            )
        })?;
    let mut headers = Vec::new();
    for &(line, at) in &lines[1..] {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return Err(unreadable(
                at,
                format!("{} is not a header line (name: value)", shown(line)),
            ));
        };
        headers.push(Header {
            name: String::from_utf8_lossy(&line[..colon]).trim().to_owned(),
            value: String::from_utf8_lossy(line[colon + 1..].trim_ascii()).into_owned(),
            offset: Some(at),
        });
    }
    let framed = headers.iter().any(|h| {
        h.name.eq_ignore_ascii_case("content-length")
            || h.name.eq_ignore_ascii_case("transfer-encoding")
    });
    let body = if framed {
        body(message, body_at, &headers, &mut Vec::new())?
    } else {
        Some(message[body_at..].to_vec())
    };
    Ok(CapturedResponse {
        status,
        headers,
        body,
    })
}

/// The request's URL: an absolute-form target as it is; an origin-form one
/// after `scheme://` and the `Host` header.
fn url(target: &str, at: usize, scheme: &str, headers: &[Header]) -> Result<String, Error> {
    let lower = target.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") {
        return Ok(match target.split_once('#') {
            Some((before, _)) => before.to_owned(),
            None => target.to_owned(),
        });
    }
    if !target.starts_with('/') {
        return Err(unreadable(
            at,
            format!(
                "the request target {} is neither a path (/...) nor an http(s) URL",
                shown(target.as_bytes())
            ),
        ));
    }
    let mut hosts = headers
        .iter()
        .filter(|h| h.name.eq_ignore_ascii_case("host"));
    let host = match (hosts.next(), hosts.next()) {
        (None, _) => {
            return Err(unreadable(
                at,
                "the target is a path and there is no Host header: the URL cannot be known",
            ))
        }
        (Some(_), Some(second)) => {
            return Err(ambiguous(
                second.offset.unwrap_or(at),
                "two Host headers: which host the request was for cannot be known",
            ))
        }
        (Some(host), None) => host,
    };
    let value = &host.value;
    if value.is_empty() || value.contains(['/', '?', '#', '@', ' ', '\\']) {
        return Err(unreadable(
            host.offset.unwrap_or(at),
            format!(
                "the Host header {} is not host[:port]",
                shown(value.as_bytes())
            ),
        ));
    }
    Ok(format!("{scheme}://{value}{target}"))
}

/// The body its framing gives.
fn body(
    message: &[u8],
    at: usize,
    headers: &[Header],
    warnings: &mut Vec<Warning>,
) -> Result<Option<Vec<u8>>, Error> {
    let find = |name: &str| headers.iter().find(|h| h.name.eq_ignore_ascii_case(name));
    let length = find("content-length");
    let encoding = find("transfer-encoding");
    let (body, end) = match (length, encoding) {
        (Some(l), Some(t)) => {
            let later = l.offset.max(t.offset).unwrap_or(at);
            return Err(ambiguous(
                later,
                "both Content-Length and Transfer-Encoding: the body's length can be read two ways",
            ));
        }
        (None, Some(t)) => {
            if !t.value.eq_ignore_ascii_case("chunked") {
                return Err(unreadable(
                    t.offset.unwrap_or(at),
                    format!(
                        "Transfer-Encoding {}: only chunked is read (the body's bytes are encoded)",
                        shown(t.value.as_bytes())
                    ),
                ));
            }
            let (body, end) = chunked(message, at)?;
            (Some(body), end)
        }
        (Some(l), None) => {
            // RFC 9110 §8.6: `Content-Length = 1*DIGIT`. Rust's parse
            // also takes a leading `+`, which a server may not.
            let digits = !l.value.is_empty() && l.value.bytes().all(|b| b.is_ascii_digit());
            let (true, Ok(n)) = (digits, l.value.parse::<usize>()) else {
                return Err(unreadable(
                    l.offset.unwrap_or(at),
                    format!(
                        "Content-Length {} is not one number (digits only, RFC 9110 §8.6)",
                        shown(l.value.as_bytes())
                    ),
                ));
            };
            let have = message.len() - at;
            if have < n {
                return Err(unreadable(
                    message.len(),
                    format!("the body is cut off: Content-Length says {n} bytes and {have} follow"),
                ));
            }
            (Some(message[at..at + n].to_vec()), at + n)
        }
        (None, None) => (None, at),
    };
    let rest = &message[end..];
    if !rest.is_empty() {
        if rest.iter().all(|b| b.is_ascii_whitespace()) {
            let n = rest.len().to_string();
            warnings.push(
                Warning::new(
                    "trailing-bytes",
                    Some(end),
                    format!(
                        "{n} blank bytes after the request (an editor's final line end?) are not \
                         part of it"
                    ),
                )
                .quoting([n]),
            );
        } else {
            let why = match body {
                None => "the request has no Content-Length or Transfer-Encoding, so no body",
                Some(_) => "its framing ends the body before them",
            };
            return Err(ambiguous(
                end,
                format!("{} bytes after the request ({why}): a second request, or a body the framing leaves out?", rest.len()),
            ));
        }
    }
    Ok(body)
}

/// A chunked body from `at`: its bytes, and where the message ends.
fn chunked(message: &[u8], mut at: usize) -> Result<(Vec<u8>, usize), Error> {
    let mut body = Vec::new();
    let cut = |at: usize| unreadable(at, "the chunked body is cut off before its last chunk (0)");
    let line = |at: usize| -> Result<(&[u8], usize), Error> {
        let k = message[at..]
            .iter()
            .position(|&b| b == b'\n')
            .ok_or_else(|| cut(message.len()))?;
        let text = &message[at..at + k];
        Ok((text.strip_suffix(b"\r").unwrap_or(text), at + k + 1))
    };
    loop {
        let (size_line, next) = line(at)?;
        let size = size_line
            .split(|&b| b == b';')
            .next()
            .unwrap_or_default()
            .trim_ascii();
        let size = std::str::from_utf8(size)
            .ok()
            .filter(|s| !s.is_empty() && s.len() <= 15)
            .and_then(|s| usize::from_str_radix(s, 16).ok())
            .ok_or_else(|| {
                unreadable(
                    at,
                    format!("{} is not a chunk size (hex digits)", shown(size_line)),
                )
            })?;
        if size == 0 {
            // Trailer lines, then the empty line.
            let mut t = next;
            loop {
                let (trailer, after) = line(t)?;
                t = after;
                if trailer.is_empty() {
                    return Ok((body, t));
                }
            }
        }
        let end = next + size;
        if message.len() < end {
            return Err(cut(message.len()));
        }
        body.extend_from_slice(&message[next..end]);
        at = match &message[end..] {
            [b'\r', b'\n', ..] => end + 2,
            [b'\n', ..] => end + 1,
            [] => return Err(cut(end)),
            _ => return Err(unreadable(end, "a chunk longer than its size says")),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(message: &[u8]) -> ErrorKind {
        parse_http(message, "https").unwrap_err().kind().clone()
    }

    #[test]
    fn the_url_is_the_target_with_host_or_the_target_itself() {
        let r = parse_http(b"GET /a?b=1 HTTP/1.1\nHost: api.x.com:8443\n\n", "https").unwrap();
        assert_eq!(r.url(), "https://api.x.com:8443/a?b=1");
        assert_eq!(r.body(), None);
        let r = parse_http(
            b"GET http://h.example/a HTTP/1.1\r\nHost: other\r\n\r\n",
            "https",
        )
        .unwrap();
        assert_eq!(r.url(), "http://h.example/a");
        assert!(matches!(
            kind(b"GET /a HTTP/1.1\r\n\r\n"),
            ErrorKind::Unreadable {
                offset: Some(4),
                ..
            }
        ));
        assert!(matches!(
            kind(b"GET /a HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
            ErrorKind::Ambiguous { offset: 26, .. }
        ));
        assert!(matches!(
            kind(b"CONNECT h:443 HTTP/1.1\r\nHost: h\r\n\r\n"),
            ErrorKind::Unreadable { .. }
        ));
        assert!(parse_http(b"GET / HTTP/1.1\r\nHost: h\r\n\r\n", "ftp").is_err());
    }

    #[test]
    fn framing_gives_the_body_and_what_could_be_read_two_ways_is_refused() {
        let m = b"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc\r\n";
        let r = parse_http(m, "https").unwrap();
        assert_eq!(r.body(), Some(&b"abc"[..]));
        assert_eq!(r.warnings()[0].code(), "trailing-bytes");
        let e = parse_http(
            b"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nabc",
            "https",
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .contains("cut off: Content-Length says 10 bytes and 3 follow"),
            "{e}"
        );
        assert!(matches!(
            kind(b"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"),
            ErrorKind::Ambiguous { offset: 45, .. }
        ));
        assert!(matches!(
            kind(b"POST / HTTP/1.1\r\nHost: h\r\n\r\nabc"),
            ErrorKind::Ambiguous { offset: 28, .. }
        ));
        assert!(matches!(
            kind(b"POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\n\r\nabc"),
            ErrorKind::Ambiguous { .. }
        ));
        // RFC 9110 §8.6: 1*DIGIT; a sign is not a digit.
        for length in ["+3", "-3", "0x3", "3,3", "\u{663}"] {
            let m = format!("POST / HTTP/1.1\r\nHost: h\r\nContent-Length:{length}\r\n\r\nabc");
            assert!(
                matches!(
                    kind(m.as_bytes()),
                    ErrorKind::Unreadable {
                        offset: Some(26),
                        ..
                    }
                ),
                "{length:?}"
            );
        }
        let chunked = b"POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nT: 1\r\n\r\n";
        assert_eq!(
            parse_http(chunked, "https").unwrap().body(),
            Some(&b"abcde"[..])
        );
        let cut = b"POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n";
        assert!(parse_http(cut, "https")
            .unwrap_err()
            .to_string()
            .contains("cut off before its last chunk"));
        assert!(matches!(
            kind(b"POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n"),
            ErrorKind::Unreadable { .. }
        ));
    }

    #[test]
    fn lines_that_are_not_http_are_named_where_they_are() {
        assert!(matches!(
            kind(b"GET  /a HTTP/1.1\r\n\r\n"),
            ErrorKind::Unreadable {
                offset: Some(0),
                ..
            }
        ));
        assert!(matches!(
            kind(b"GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n"),
            ErrorKind::Unreadable {
                offset: Some(25),
                ..
            }
        ));
        assert!(matches!(
            kind(b"GET / HTTP/1.1\r\nHost : h\r\n\r\n"),
            ErrorKind::Unreadable {
                offset: Some(16),
                ..
            }
        ));
        assert!(matches!(
            kind(b"GET / HTTP/1.1\r\nHost: h\r\n"),
            ErrorKind::UnexpectedEnd { .. }
        ));
        assert!(matches!(
            kind(b"GET / HTTP/3\r\nHost: h\r\n\r\n"),
            ErrorKind::Unreadable { .. }
        ));
        let e = parse_http(
            b"GET / HTTP/1.1\r\nHost: h\r\nAuthorization: OAuth a=1\r\nauthorization: OAuth a=2\r\n\r\n",
            "https",
        )
        .unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Ambiguous { offset: 51, .. }),
            "{e}"
        );
    }
}
