//! A curl command that sends one request exactly: the inverse of the
//! reader beside it ([`parse_curl`](super::parse_curl) reads what this
//! writes back to the same method, URL, headers and body bytes).
//!
//! curl is told not to change what was signed: `--path-as-is` keeps dot
//! segments (curl resolves `/a/../b` to `/b` otherwise, RFC 3986 §5.2.4),
//! `--globoff` keeps `[ ] { }` (curl's globbing makes several URLs of one),
//! `--data-raw` sends the body as it is (`-d` reads `@file`). `-X` is
//! written only where curl would not choose the method itself (curl's
//! manual: "Normally you do not need this option"; it also keeps the method
//! across a redirect, `-L`), and a HEAD is `-I` (with `-X HEAD` curl waits
//! for a body that never comes). Each word is quoted for bash and the POSIX
//! shells: single quotes when it is printable text, else `$'...'` with each
//! control character, `\`, `'` and byte that is not UTF-8 escaped, so that
//! nothing of the request reaches a terminal raw.
//!
//! It takes plain parts (the method, the URL, the headers, the body's
//! bytes): whoever holds a request writes it through here
//! ([`Sent::curl`](crate::outgoing::Sent::curl) does).

use std::fmt;

use crate::error::{Error, ErrorKind, Part};
use crate::text::scan::is_tchar;

/// A curl command line (for bash and the POSIX shells) that sends one
/// request exactly as given. `Display` writes it on one line; the
/// alternate form (`{:#}`) puts each header and the body on a line of its
/// own, continued with ` \`. Neither ends with a line break, so options can
/// be appended (`--silent`, `-v`).
///
/// ```
/// use oauth1_signer::capture::{parse_curl, CurlCommand};
///
/// let url = "https://api.x.com/2/users?ids[]=1&path=/a/../b";
/// let headers = [("Authorization", r#"OAuth oauth_signature="it's""#), ("Content-Type", "text/plain")];
/// let body = b"line one\r\n\x1b[2J\xff";
/// let command = CurlCommand::new("PUT", url, headers, Some(body))?;
/// assert_eq!(
///     command.to_string(),
///     r#"curl -X 'PUT' --globoff --path-as-is 'https://api.x.com/2/users?ids[]=1&path=/a/../b' -H 'Authorization: OAuth oauth_signature="it'\''s"' -H 'Content-Type: text/plain' --data-raw $'line one\r\n\x1b[2J\xff'"#
/// );
/// // curl reads it back (as bash splits it) to the same request.
/// let read = parse_curl(&format!("{command:#}"))?;
/// assert_eq!((read.method(), read.url(), read.body()), ("PUT", url, Some(&body[..])));
/// assert_eq!(read.authorization(), Some(headers[0].1));
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone)]
pub struct CurlCommand<'a> {
    method: &'a str,
    url: &'a str,
    headers: Vec<(&'a str, &'a str)>,
    body: Option<&'a [u8]>,
}

/// The method and the header names only: a header's value or the body may
/// hold a signature (a PLAINTEXT one is the signing key) or a secret.
impl fmt::Debug for CurlCommand<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| *n).collect();
        f.debug_struct("CurlCommand")
            .field("method", &self.method)
            .field("headers", &names)
            .field("body_len", &self.body.map(<[u8]>::len))
            .finish_non_exhaustive()
    }
}

impl<'a> CurlCommand<'a> {
    /// The command that sends `method` to `url` with `headers` (in order,
    /// each as `name` and `value`) and `body`. curl adds a `Content-Type`
    /// of `application/x-www-form-urlencoded` to a body sent without one.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidByte`](crate::ErrorKind::InvalidByte) naming the
    /// part and offset of what no command can send as given: a NUL anywhere
    /// (no shell word holds one; [`Part::Method`], [`Part::Url`],
    /// [`Part::Input`] for a header or the body), a header name that is not
    /// a token (RFC 9110 §5.6.2: curl would read `a:b: c` or `a;` otherwise),
    /// a header value holding CR or LF (it would be two headers) or
    /// beginning or ending with a space or tab (which curl and HTTP drop).
    /// [`ErrorKind::Empty`](crate::ErrorKind::Empty) for an empty method or
    /// header name.
    pub fn new(
        method: &'a str,
        url: &'a str,
        headers: impl IntoIterator<Item = (&'a str, &'a str)>,
        body: Option<&'a [u8]>,
    ) -> Result<CurlCommand<'a>, Error> {
        if method.is_empty() {
            return Err(Error::new(ErrorKind::Empty { part: Part::Method }));
        }
        no_nul(method.as_bytes(), Part::Method)?;
        no_nul(url.as_bytes(), Part::Url)?;
        let headers: Vec<(&str, &str)> = headers.into_iter().collect();
        for (name, value) in &headers {
            if name.is_empty() {
                return Err(Error::new(ErrorKind::Empty { part: Part::Input }));
            }
            if let Some(at) = name.bytes().position(|b| !is_tchar(b)) {
                let byte = name.as_bytes()[at];
                return Err(Error::invalid_byte(
                    Part::Input,
                    at,
                    byte,
                    "a header name's byte (a token, RFC 9110 §5.6.2)",
                ));
            }
            let v = value.as_bytes();
            if let Some(at) = v.iter().position(|b| matches!(b, b'\0' | b'\r' | b'\n')) {
                return Err(Error::invalid_byte(
                    Part::Input,
                    at,
                    v[at],
                    "a header value's byte (no NUL, CR or LF: a shell word holds no NUL, and CR LF would begin another header)",
                ));
            }
            let blank = |b: &u8| matches!(b, b' ' | b'\t');
            let edge = match (v.first(), v.last()) {
                (Some(b), _) if blank(b) => Some(0),
                (_, Some(b)) if blank(b) => Some(v.len() - 1),
                _ => None,
            };
            if let Some(at) = edge {
                return Err(Error::invalid_byte(
                    Part::Input,
                    at,
                    v[at],
                    "a header value that neither begins nor ends with a space or tab (curl and HTTP drop them, RFC 9110 §5.5)",
                ));
            }
        }
        if let Some(body) = body {
            no_nul(body, Part::Input)?;
        }
        Ok(CurlCommand {
            method,
            url,
            headers,
            body,
        })
    }
}

/// Refuses a NUL in `bytes`, which no shell word can hold.
fn no_nul(bytes: &[u8], part: Part) -> Result<(), Error> {
    match bytes.iter().position(|&b| b == 0) {
        Some(at) => Err(Error::invalid_byte(
            part,
            at,
            0,
            "a byte other than NUL (a shell word cannot hold one)",
        )),
        None => Ok(()),
    }
}

impl fmt::Display for CurlCommand<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let next = if f.alternate() { " \\\n  " } else { " " };
        f.write_str("curl")?;
        match (self.method, self.body) {
            ("HEAD", None) => f.write_str(" -I")?,
            // curl sends these by itself.
            ("GET", None) | ("POST", Some(_)) => {}
            (method, _) => {
                f.write_str(" -X ")?;
                quote(f, method.as_bytes())?;
            }
        }
        if self.url.contains(['[', ']', '{', '}']) {
            f.write_str(" --globoff")?;
        }
        f.write_str(" --path-as-is ")?;
        // A word beginning with `-` would be read as an option.
        if self.url.starts_with('-') {
            f.write_str("--url ")?;
        }
        quote(f, self.url.as_bytes())?;
        for (name, value) in &self.headers {
            f.write_str(next)?;
            f.write_str("-H ")?;
            // `Name:` with nothing after it tells curl to remove the
            // header; `Name;` sends it empty.
            if value.is_empty() {
                quote(f, format!("{name};").as_bytes())?;
            } else {
                quote(f, format!("{name}: {value}").as_bytes())?;
            }
        }
        if let Some(body) = self.body {
            f.write_str(next)?;
            f.write_str("--data-raw ")?;
            quote(f, body)?;
        }
        Ok(())
    }
}

/// One shell word holding exactly `bytes`: single-quoted (each `'` written
/// as `'\''`) when it is printable text; else in `$'...'` (bash, zsh, ksh,
/// POSIX 2024), each control character, byte that is not UTF-8, `\` and
/// `'` written as an escape, so that nothing reaches the terminal raw (an
/// ESC sequence, a CR that hides what precedes it) and the bytes sent are
/// still the bytes given.
fn quote(out: &mut impl fmt::Write, bytes: &[u8]) -> fmt::Result {
    if let Ok(text) = std::str::from_utf8(bytes)
        && !text.chars().any(char::is_control)
    {
        out.write_char('\'')?;
        for (i, part) in text.split('\'').enumerate() {
            if i > 0 {
                out.write_str(r"'\''")?;
            }
            out.write_str(part)?;
        }
        return out.write_char('\'');
    }
    out.write_str("$'")?;
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.write_str(r"\\")?,
                '\'' => out.write_str(r"\'")?,
                '\n' => out.write_str(r"\n")?,
                '\r' => out.write_str(r"\r")?,
                '\t' => out.write_str(r"\t")?,
                c if c.is_control() => {
                    let mut buf = [0u8; 4];
                    for b in c.encode_utf8(&mut buf).bytes() {
                        write!(out, "\\x{b:02x}")?;
                    }
                }
                c => out.write_char(c)?,
            }
        }
        for b in chunk.invalid() {
            write!(out, "\\x{b:02x}")?;
        }
    }
    out.write_char('\'')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(bytes: &[u8]) -> String {
        let mut out = String::new();
        quote(&mut out, bytes).unwrap();
        out
    }

    // bash's manual, QUOTING: a single quote cannot occur between single
    // quotes (hence '\''); $'...' decodes \\ \' \n \r \t and \xHH.
    #[test]
    fn a_word_with_control_bytes_is_quoted_so_that_none_reaches_the_terminal() {
        assert_eq!(quoted(b"a b'c"), r"'a b'\''c'");
        assert_eq!(quoted("ağaç".as_bytes()), "'ağaç'");
        assert_eq!(
            quoted(b"x\x1b[2J\r\ny\t'\\\xff\xc2\x9b"),
            r"$'x\x1b[2J\r\ny\t\'\\\xff\xc2\x9b'"
        );
        assert_eq!(quoted(b""), "''");
    }

    #[test]
    fn the_method_is_written_only_where_curl_would_not_choose_it() {
        let line = |method, body: Option<&'static [u8]>| {
            CurlCommand::new(method, "https://h/", [], body)
                .unwrap()
                .to_string()
        };
        assert_eq!(line("GET", None), "curl --path-as-is 'https://h/'");
        assert_eq!(
            line("POST", Some(b"a=1")),
            "curl --path-as-is 'https://h/' --data-raw 'a=1'"
        );
        assert_eq!(line("HEAD", None), "curl -I --path-as-is 'https://h/'");
        assert_eq!(
            line("POST", None),
            "curl -X 'POST' --path-as-is 'https://h/'"
        );
        assert_eq!(
            line("GET", Some(b"")),
            "curl -X 'GET' --path-as-is 'https://h/' --data-raw ''"
        );
        assert_eq!(line("get", None), "curl -X 'get' --path-as-is 'https://h/'");
        assert_eq!(
            line("HEAD", Some(b"x")),
            "curl -X 'HEAD' --path-as-is 'https://h/' --data-raw 'x'"
        );
    }

    #[test]
    fn the_alternate_form_puts_each_header_and_the_body_on_a_line() {
        let c = CurlCommand::new(
            "POST",
            "https://h/{a}",
            [("Authorization", r#"OAuth a="b""#), ("X-Empty", "")],
            Some(b"x=1"),
        )
        .unwrap();
        assert_eq!(
            format!("{c:#}"),
            "curl --globoff --path-as-is 'https://h/{a}' \\\n  -H 'Authorization: OAuth a=\"b\"' \\\n  \
             -H 'X-Empty;' \\\n  --data-raw 'x=1'"
        );
        assert!(
            format!("{c:?}").contains("Authorization") && !format!("{c:?}").contains("a=\\\"b")
        );
    }

    #[test]
    fn what_no_command_can_send_is_refused_by_part_and_offset() {
        let at = |e: Error| e.offset();
        let e = CurlCommand::new("GET", "https://h/\0", [], None).unwrap_err();
        assert_eq!(at(e), Some((Part::Url, 10)));
        let e = CurlCommand::new("POST", "https://h/", [], Some(b"ab\0")).unwrap_err();
        assert_eq!(at(e), Some((Part::Input, 2)));
        let e = CurlCommand::new("GET", "https://h/", [("A:b", "c")], None).unwrap_err();
        assert_eq!(at(e), Some((Part::Input, 1)));
        let e = CurlCommand::new("GET", "https://h/", [("A", "b\r\nC: d")], None).unwrap_err();
        assert_eq!(at(e), Some((Part::Input, 1)));
        let e = CurlCommand::new("GET", "https://h/", [("A", " b")], None).unwrap_err();
        assert_eq!(at(e), Some((Part::Input, 0)));
        assert!(CurlCommand::new("", "https://h/", [], None).is_err());
        assert!(CurlCommand::new("GET", "https://h/", [("", "b")], None).is_err());
    }

    #[test]
    fn a_url_like_an_option_is_given_with_url() {
        let c = CurlCommand::new("GET", "-h", [], None).unwrap();
        assert_eq!(c.to_string(), "curl --path-as-is --url '-h'");
    }
}
