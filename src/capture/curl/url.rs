//! The URL curl requests: globbing, the fragment, a missing scheme and dot
//! segments as curl treats them.

use crate::capture::shell::Word;
use crate::capture::{shown, Warning};
use crate::error::Error;

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
