//! The URL curl requests: globbing, the fragment, a missing scheme and dot
//! segments as curl treats them; the authority a server reads from a `Host`
//! header instead; and curl's own escaping (`--data-urlencode`).

use crate::capture::shell::Word;
use crate::capture::{shown, Header, Warning};
use crate::error::Error;
use crate::text::percent_encode;

use super::args::Options;
use super::{text, unreadable};

/// The URL curl requests, from the word that gives it.
pub(super) fn requested_url(
    word: &Word,
    o: &Options,
    warnings: &mut Vec<Warning>,
) -> Result<String, Error> {
    let at = word.at;
    let raw = text(&word.bytes, at, "URL")?;
    if let Some(k) = raw.find(|c: char| c.is_whitespace() || c.is_control()) {
        return Err(unreadable(
            at,
            format!(
                "the URL holds whitespace or a control character (at its byte {k}), which \
                 curl does not send as written"
            ),
        ));
    }
    let mut url = if o.globoff { raw } else { unglob(&raw, at)? };
    if let Some(k) = url.find('#') {
        let fragment = shown(&url.as_bytes()[k..]);
        warnings.push(
            Warning::new(
                "fragment-dropped",
                Some(at),
                format!(
                    "curl does not send the URL's fragment {fragment}: the request is without it"
                ),
            )
            .quoting([fragment]),
        );
        url.truncate(k);
    }
    match url.find("://") {
        Some(k) => {
            let scheme = url[..k].to_ascii_lowercase();
            if scheme != "http" && scheme != "https" {
                return Err(unreadable(
                    at,
                    format!(
                        "the URL's scheme is {}, not http or https",
                        shown(scheme.as_bytes())
                    ),
                ));
            }
        }
        None => {
            let scheme = o.proto_default.as_deref().unwrap_or("http");
            warnings.push(
                Warning::new(
                    "scheme-assumed",
                    Some(at),
                    format!(
                        "the URL has no scheme: curl sends it as {scheme}://, and so is it read"
                    ),
                )
                .quoting([scheme.to_string()]),
            );
            url = format!("{scheme}://{url}");
        }
    }
    if !o.path_as_is {
        url = without_dot_segments(&url);
    }
    Ok(url)
}

/// `url` with `query` appended: after `?`, or `&` when it has a query.
pub(super) fn append_query(url: &mut String, query: &str) {
    url.push(if url.contains('?') { '&' } else { '?' });
    url.push_str(query);
}

/// The URL curl requests when it globs: `\[`, `\]`, `\{`, `\}` are the
/// characters themselves; an unescaped `[` or `{` (but an IPv6 host's `[`)
/// would make several URLs of one.
fn unglob(raw: &str, at: usize) -> Result<String, Error> {
    let mut out = String::with_capacity(raw.len());
    let ipv6 = raw
        .find("://")
        .map(|k| k + 3)
        .filter(|&k| raw[k..].starts_with('['));
    let mut chars = raw.char_indices().peekable();
    let mut in_host_literal = false;
    while let Some((k, c)) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some((_, '[' | ']' | '{' | '}'))) => {
                if let Some((_, next)) = chars.next() {
                    out.push(next);
                }
            }
            '[' if Some(k) == ipv6 => {
                in_host_literal = true;
                out.push(c);
            }
            ']' if in_host_literal => {
                in_host_literal = false;
                out.push(c);
            }
            '[' | '{' => {
                return Err(unreadable(
                    at,
                    format!(
                        "the URL's {c} (at its byte {k}) makes curl glob it into several URLs: \
                         such a command needs -g (--globoff), or \\{c}"
                    ),
                ))
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}

/// `url` with its path's `.` and `..` segments removed (RFC 3986 §5.2.4),
/// as curl sends it without `--path-as-is`.
fn without_dot_segments(url: &str) -> String {
    let Some(k) = url.find("://") else {
        return url.to_owned();
    };
    let after = k + 3;
    let path_start = url[after..]
        .find(['/', '?'])
        .map_or(url.len(), |p| after + p);
    if !url[path_start..].starts_with('/') {
        return url.to_owned();
    }
    let path_end = url[path_start..]
        .find('?')
        .map_or(url.len(), |p| path_start + p);
    let path = &url[path_start..path_end];
    if !path.split('/').any(|s| s == "." || s == "..") {
        return url.to_owned();
    }
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path[1..].split('/').collect();
    let last = segments.len() - 1;
    let mut trailing = false;
    for (n, segment) in segments.iter().enumerate() {
        match *segment {
            "." => trailing = n == last,
            ".." => {
                out.pop();
                trailing = n == last;
            }
            s => {
                out.push(s);
                trailing = false;
            }
        }
    }
    let mut path = format!("/{}", out.join("/"));
    if trailing && !path.ends_with('/') {
        path.push('/');
    }
    format!("{}{path}{}", &url[..path_start], &url[path_end..])
}

/// The URL a server builds from what curl sends: curl connects to the
/// URL's host but sends the `Host` a `-H` gives, and a server reconstructs
/// the target URI's authority from `Host` (RFC 9112 §3.3), so that is the
/// URL it verifies (and the one a client must sign). A `Host` that is no
/// authority, or none sent at all (`-H 'Host:'`), is refused.
pub(super) fn authority_from_host(
    url: &mut String,
    headers: &[Header],
    removed: &[(String, usize)],
    warnings: &mut Vec<Warning>,
) -> Result<(), Error> {
    if let Some((_, at)) = removed.iter().find(|(r, _)| r.eq_ignore_ascii_case("host")) {
        return Err(unreadable(
            *at,
            "-H 'Host:' sends no Host header: an HTTP/1.1 server refuses the request (RFC \
             9112 §3.2), and the URL it would verify cannot be known",
        ));
    }
    let mut hosts = headers
        .iter()
        .filter(|h| h.name.eq_ignore_ascii_case("host"));
    let (Some(host), None) = (hosts.next(), hosts.next()) else {
        // None, or two (refused by `check_once`, at the second).
        return Ok(());
    };
    let at = host.offset.unwrap_or(0);
    let value = host.value.as_str();
    // RFC 9110 §7.2: Host = uri-host [ ":" port ] (RFC 3986's host:
    // reg-name, an IP literal in brackets).
    let valid = !value.is_empty()
        && !value.starts_with(':')
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:%[]".contains(&b));
    if !valid {
        return Err(unreadable(
            at,
            format!(
                "the Host header {} is not a host and port (RFC 9110 §7.2): the URL a \
                 server builds from it cannot be known",
                shown(value.as_bytes())
            ),
        ));
    }
    let Some(start) = url.find("://").map(|k| k + 3) else {
        return Ok(());
    };
    let end = url[start..]
        .find(['/', '?'])
        .map_or(url.len(), |k| start + k);
    // Keep userinfo, which curl does not send in Host.
    let host_start = url[start..end].rfind('@').map_or(start, |k| start + k + 1);
    if url[host_start..end].eq_ignore_ascii_case(value) {
        return Ok(());
    }
    let quoted = shown(value.as_bytes());
    warnings.push(
        Warning::new(
            "host-header",
            Some(at),
            format!(
                "-H sends Host {quoted}, not the URL's host: curl connects to the URL's host, \
                 and a server builds the URL it verifies from Host (RFC 9112 §3.3), so the \
                 URL is read with {quoted}"
            ),
        )
        .quoting([quoted]),
    );
    url.replace_range(host_start..end, value);
    Ok(())
}

/// curl's `curl_easy_escape` (every byte but `A-Z a-z 0-9 - . _ ~` as
/// `%XX`, upper-case hex: RFC 3986's unreserved set, as our encoder
/// writes it), then each `%20` as `+`, as its tool does for
/// `--data-urlencode` and `--url-query`.
pub(super) fn curl_escape(bytes: &[u8], out: &mut Vec<u8>) {
    for (i, piece) in bytes.split(|&b| b == b' ').enumerate() {
        if i > 0 {
            out.push(b'+');
        }
        for run in percent_encode(piece) {
            out.extend_from_slice(run.as_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments_are_removed_as_rfc_3986_section_5_2_4_says() {
        assert_eq!(
            without_dot_segments("http://h/a/b/../c/./d/"),
            "http://h/a/c/d/"
        );
        assert_eq!(without_dot_segments("http://h/a/.."), "http://h/");
        assert_eq!(
            without_dot_segments("http://h/../../x?y=/../"),
            "http://h/x?y=/../"
        );
        assert_eq!(without_dot_segments("http://h"), "http://h");
    }
}
