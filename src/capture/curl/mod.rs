//! A curl command read as curl reads its options: the method (`-X`,
//! `-G`, `-I`, and POST implied by data), the URL (a word, or `--url`;
//! globbing, dot segments and the fragment as curl treats them), the
//! headers (`-H`, and those the data options imply) and the body by curl's
//! rules for `-d`, `--data-raw`, `--data-binary`, `--data-urlencode` and
//! `--json`. Options that do not change the request are stepped over; an
//! abbreviated option is the one curl 7.88 takes it for; an option curl
//! does not have is refused, as curl refuses it.

use base64::Engine as _;

use crate::error::{Error, ErrorKind, Part};
use crate::text::scan::holds_escape;

use super::shell::{looks_like_cmd, split_cmd, split_posix, unreadable, Command, Stdin};
use super::{carries_oauth, shown, Captured, Header, Warning};

mod args;
mod url;
mod write;

use args::{header, read_options, DataKind, HeaderArg, Options, Piece};
use url::{append_query, authority_from_host, curl_escape, requested_url};

pub use write::CurlCommand;

/// Where a command's files come from, when the caller lets them be read
/// ([`Curl::with_files`]): `-d @payload.json`, `-H @headers.txt`,
/// `-T file`, `< body.txt`. Any `FnMut(&str) -> Result<Vec<u8>, String>`
/// is one.
pub trait FileSource {
    /// The bytes of the file named `path` as the command writes it, or why
    /// it cannot be read.
    ///
    /// # Errors
    /// Why the file cannot be read (it becomes the parse's error).
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String>;
}

impl<F: FnMut(&str) -> Result<Vec<u8>, String>> FileSource for F {
    fn read(&mut self, path: &str) -> Result<Vec<u8>, String> {
        self(path)
    }
}

/// The shell a command was written for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shell {
    /// `cmd.exe` if the command looks written for it (its first argument in
    /// `^"...^"`, or its lines continued with `^`), else bash.
    #[default]
    Auto,
    /// bash and the POSIX shells: Chrome's "Copy as cURL (bash)", Firefox's
    /// "(POSIX)", Postman's and Insomnia's snippets, `oauth1 sign --format curl`.
    Posix,
    /// `cmd.exe`, then the C runtime's argument parsing: Chrome's "Copy as
    /// cURL (cmd)", Firefox's "(Windows)".
    Cmd,
}

impl Shell {
    /// The shell `command` is read with: itself, or for
    /// [`Auto`](Shell::Auto) the one it looks written for.
    ///
    /// ```
    /// use oauth1_signer::capture::Shell;
    ///
    /// assert_eq!(Shell::Auto.resolve("curl ^\"https://h/^\" ^\n  -H ^\"a: b^\""), Shell::Cmd);
    /// assert_eq!(Shell::Auto.resolve("curl 'https://h/' \\\n  -H 'a: b'"), Shell::Posix);
    /// ```
    pub fn resolve(self, command: &str) -> Shell {
        match self {
            Shell::Auto if looks_like_cmd(command) => Shell::Cmd,
            Shell::Auto => Shell::Posix,
            other => other,
        }
    }

    /// `bash` or `cmd`.
    pub fn as_str(self) -> &'static str {
        match self {
            Shell::Cmd => "cmd",
            _ => "bash",
        }
    }
}

/// A curl command reader: the shell, and where files come from.
///
/// ```
/// use oauth1_signer::capture::{Curl, Shell};
///
/// let mut files = |path: &str| match path {
///     "body.txt" => Ok(b"status=hi\r\n".to_vec()),
///     other => Err(format!("no file {other}")),
/// };
/// let request = Curl::new()
///     .with_shell(Shell::Posix)
///     .with_files(&mut files)
///     .parse("curl -d @body.txt https://api.x.com/1.1/statuses/update.json")?;
/// // -d reads a file as curl does: its CR and LF left out.
/// assert_eq!(request.body(), Some(&b"status=hi"[..]));
/// assert_eq!(request.warnings()[0].code(), "file-read");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
pub struct Curl<'f> {
    shell: Shell,
    files: Option<&'f mut dyn FileSource>,
}

impl std::fmt::Debug for Curl<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Curl")
            .field("shell", &self.shell)
            .field("files", &self.files.is_some())
            .finish()
    }
}

impl Default for Curl<'static> {
    fn default() -> Self {
        Curl::new()
    }
}

/// Reads a curl command ([`Curl::new`]'s defaults: the shell it looks
/// written for, no file read).
///
/// # Errors
/// As [`Curl::parse`].
pub fn parse_curl(command: &str) -> Result<Captured, Error> {
    Curl::new().parse(command)
}

fn ambiguous(at: usize, reason: impl Into<String>) -> Error {
    Error::ambiguous(Part::CurlCommand, at, reason)
}

fn text(bytes: &[u8], at: usize, what: &str) -> Result<String, Error> {
    String::from_utf8(bytes.to_vec()).map_err(|e| {
        Error::unreadable(
            Part::CurlCommand,
            Some(at),
            format!(
                "the {what} is not UTF-8 text (invalid byte at its byte {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

impl Curl<'static> {
    /// A reader for the shell the command looks written for, reading no file.
    pub fn new() -> Curl<'static> {
        Curl {
            shell: Shell::Auto,
            files: None,
        }
    }
}

impl<'f> Curl<'f> {
    /// The shell the command was written for.
    pub fn with_shell(mut self, shell: Shell) -> Self {
        self.shell = shell;
        self
    }

    /// Lets the files the command names be read from `files` (each read is
    /// a warning that names the file, code `file-read`). Without it, a file
    /// the request's bytes come from is an [`ErrorKind::NotInCapture`].
    pub fn with_files<'g>(self, files: &'g mut dyn FileSource) -> Curl<'g> {
        Curl {
            shell: self.shell,
            files: Some(files),
        }
    }

    /// Reads `command`: the one request it sends.
    ///
    /// # Errors
    /// - [`ErrorKind::Unreadable`] at its offset: a quote never closed,
    ///   a shell expansion whose value is not in the text (`$TOKEN`, `!`
    ///   or a `~` bash expands), a command that is not curl or sends no
    ///   request, an option curl does not have, a header name that is not
    ///   a token, a `Host` that is no host (or none sent), an
    ///   option without its value, no URL, a URL curl would glob, a scheme
    ///   other than http or https, text that is not UTF-8 where curl needs
    ///   text;
    /// - [`ErrorKind::Ambiguous`]: two URLs (two requests), two
    ///   `Authorization` or `Content-Type` headers, `-d` beside `--json`,
    ///   `-F` or `-T`, `-I` beside data, an abbreviation of several curl
    ///   options (`--hea`);
    /// - [`ErrorKind::NotInCapture`]: a body or headers read from a file or
    ///   standard input, without a [`FileSource`] (or one that cannot
    ///   read it);
    /// - [`ErrorKind::UnexpectedEnd`]: a line continued at the very end.
    pub fn parse(&mut self, command: &str) -> Result<Captured, Error> {
        let mut warnings = Vec::new();
        let split = match self.shell.resolve(command) {
            Shell::Cmd => split_cmd(command, &mut warnings)?,
            _ => split_posix(command, &mut warnings)?,
        };
        let Some(first) = split.words.first() else {
            return Err(unreadable(0, "there is no command"));
        };
        let program = String::from_utf8_lossy(&first.bytes);
        let name = program.rsplit(['/', '\\']).next().unwrap_or_default();
        if !name.eq_ignore_ascii_case("curl") && !name.eq_ignore_ascii_case("curl.exe") {
            return Err(unreadable(
                first.at,
                format!("the command is {}, not curl", shown(&first.bytes)),
            ));
        }
        let options = read_options(&split.words[1..], &mut warnings)?;
        self.build(options, &split, warnings)
    }

    /// The bytes of file `path`, named in a warning; or why not.
    fn file(
        &mut self,
        option: &str,
        path: &str,
        at: usize,
        stdin: Option<&Stdin>,
        warnings: &mut Vec<Warning>,
    ) -> Result<Vec<u8>, Error> {
        let not_here = |path: &str| {
            Error::new(ErrorKind::NotInCapture {
                part: Part::CurlCommand,
                offset: at,
                option: option.to_owned(),
                path: path.to_owned(),
            })
        };
        let path = match (path, stdin) {
            ("-", Some(Stdin::Text(bytes))) => return Ok(bytes.clone()),
            ("-", Some(Stdin::File { path, .. })) => path.as_str(),
            ("-", None) => return Err(not_here("-")),
            (path, _) => path,
        };
        let Some(files) = self.files.as_deref_mut() else {
            return Err(not_here(path));
        };
        let bytes = files.read(path).map_err(|why| {
            Error::unreadable(
                Part::CurlCommand,
                Some(at),
                format!("{option} reads the file {}: {why}", shown(path.as_bytes())),
            )
        })?;
        let (path, len) = (shown(path.as_bytes()), bytes.len().to_string());
        warnings.push(
            Warning::new(
                "file-read",
                Some(at),
                format!(
                    "{option} reads the file {path} ({len} bytes): read here as the command would"
                ),
            )
            .quoting([option.to_string(), path, len]),
        );
        Ok(bytes)
    }

    /// The bytes one data option sends.
    fn piece(
        &mut self,
        piece: &Piece,
        stdin: Option<&Stdin>,
        warnings: &mut Vec<Warning>,
    ) -> Result<Vec<u8>, Error> {
        let value = &piece.value;
        match piece.kind {
            DataKind::Raw => Ok(value.clone()),
            DataKind::Ascii | DataKind::Binary | DataKind::Json => match value.strip_prefix(b"@") {
                None => Ok(value.clone()),
                Some(path) => {
                    let path = text(path, piece.at, "file name")?;
                    let mut bytes = self.file(&piece.option, &path, piece.at, stdin, warnings)?;
                    if piece.kind == DataKind::Ascii {
                        // curl's -d: "carriage returns, newlines and null
                        // bytes are stripped out" of a file.
                        bytes.retain(|&b| !matches!(b, b'\r' | b'\n' | 0));
                    }
                    Ok(bytes)
                }
            },
            DataKind::UrlEncode | DataKind::Query => {
                if piece.kind == DataKind::Query
                    && let Some(raw) = value.strip_prefix(b"+")
                {
                    return Ok(raw.to_vec());
                }
                // [name]=content, else [name]@file, else content (curl's order).
                let (name, content) = match value.iter().position(|&b| b == b'=') {
                    Some(eq) => (&value[..eq], value[eq + 1..].to_vec()),
                    None => match value.iter().position(|&b| b == b'@') {
                        Some(at) => {
                            let path = text(&value[at + 1..], piece.at, "file name")?;
                            let bytes =
                                self.file(&piece.option, &path, piece.at, stdin, warnings)?;
                            (&value[..at], bytes)
                        }
                        None => (&b""[..], value.clone()),
                    },
                };
                if holds_escape(&content) {
                    let quoted = shown(&content);
                    warnings.push(
                        Warning::new(
                            "curl-urlencode",
                            Some(piece.at),
                            format!(
                                "{} encodes its content, which already holds %XX escapes: curl \
                                 sends each % as %25, so the server reads {quoted} literally \
                                 (encoded twice)",
                                piece.option,
                            ),
                        )
                        .quoting([piece.option.to_string(), quoted]),
                    );
                }
                let mut out = name.to_vec();
                if !name.is_empty() {
                    out.push(b'=');
                }
                curl_escape(&content, &mut out);
                Ok(out)
            }
        }
    }

    fn build(
        &mut self,
        o: Options,
        split: &Command,
        mut warnings: Vec<Warning>,
    ) -> Result<Captured, Error> {
        let stdin = split.stdin.as_ref();
        // Which requests the options select: curl refuses two methods.
        let json = o.data.iter().find(|p| p.kind == DataKind::Json);
        let other = o.data.iter().find(|p| p.kind != DataKind::Json);
        if let (Some(j), Some(d)) = (json, other) {
            let later = j.at.max(d.at);
            return Err(ambiguous(
                later,
                format!(
                    "a body from both {} and {}: JSON joined to other data is neither",
                    d.option, j.option
                ),
            ));
        }
        let first_data = o.data.first().map(|p| p.at);
        if let (Some(form), Some(data)) = (o.form, first_data) {
            return Err(ambiguous(
                form.max(data),
                "a body from both -F (multipart) and data options: curl refuses to send both",
            ));
        }
        if let (Some((_, upload)), Some(other)) = (&o.upload, first_data.or(o.form)) {
            return Err(ambiguous(
                (*upload).max(other),
                "a body from both -T (upload) and data or -F",
            ));
        }
        if let (Some(head), Some(data)) = (o.head, first_data.or(o.form))
            && o.get.is_none()
        {
            return Err(ambiguous(
                head.max(data),
                "-I (HEAD) beside a body: curl refuses to send both",
            ));
        }
        if let (Some(get), Some(form)) = (o.get, o.form) {
            return Err(ambiguous(
                get.max(form),
                "-G beside -F: curl refuses to send both",
            ));
        }
        // The URL.
        let word = match o.urls.as_slice() {
            [] => return Err(unreadable(0, "the command has no URL")),
            [one] => one,
            [first, second, ..] => {
                return Err(ambiguous(
                    second.at,
                    format!(
                        "a second URL (the first at byte {}): curl sends one request to each",
                        first.at
                    ),
                ))
            }
        };
        let mut url = requested_url(word, &o, &mut warnings)?;
        let mut data = Vec::new();
        for (k, piece) in o.data.iter().enumerate() {
            let bytes = self.piece(piece, stdin, &mut warnings)?;
            if k > 0 && piece.kind != DataKind::Json {
                data.push(b'&');
            }
            data.extend_from_slice(&bytes);
        }
        for piece in &o.query {
            let bytes = self.piece(piece, stdin, &mut warnings)?;
            let bytes = text(&bytes, piece.at, "--url-query value")?;
            append_query(&mut url, &bytes);
        }
        let has_data = !o.data.is_empty();
        if o.get.is_some() && has_data {
            let at = o.data[0].at;
            append_query(&mut url, &text(&data, at, "data -G puts in the query")?);
        }
        let method = match (&o.method, o.head, o.get, &o.upload) {
            (Some((m, _)), ..) => m.clone(),
            (None, Some(_), ..) => "HEAD".to_owned(),
            (None, None, Some(_), _) => "GET".to_owned(),
            (None, None, None, Some(_)) => "PUT".to_owned(),
            _ if has_data || o.form.is_some() => "POST".to_owned(),
            _ => "GET".to_owned(),
        };
        // The headers: -H's, and those the options imply unless -H sets them.
        let mut headers = Vec::new();
        let mut removed: Vec<(String, usize)> = Vec::new();
        for (bytes, at, option) in &o.headers {
            let lines = match bytes.strip_prefix(b"@") {
                Some(path) => {
                    let path = text(path, *at, "file name")?;
                    let file = self.file(option, &path, *at, stdin, &mut warnings)?;
                    file.split(|&b| b == b'\n')
                        .map(|l| l.strip_suffix(b"\r").unwrap_or(l).to_vec())
                        .filter(|l| !l.trim_ascii().is_empty())
                        .collect()
                }
                None => vec![bytes.clone()],
            };
            for line in lines {
                match header(&line, *at)? {
                    HeaderArg::Set(h) => headers.push(h),
                    HeaderArg::Remove(name) => removed.push((name, *at)),
                }
            }
        }
        authority_from_host(&mut url, &headers, &removed, &mut warnings)?;
        let given = |name: &str, headers: &[Header]| {
            headers.iter().any(|h| h.name.eq_ignore_ascii_case(name))
                || removed.iter().any(|(r, _)| r.eq_ignore_ascii_case(name))
        };
        let implied = |name: &str, value: String| Header {
            name: name.to_owned(),
            value,
            offset: None,
        };
        if json.is_some() && o.get.is_none() {
            if !given("content-type", &headers) {
                headers.push(implied("Content-Type", "application/json".into()));
            }
            if !given("accept", &headers) {
                headers.push(implied("Accept", "application/json".into()));
            }
        } else if has_data && o.get.is_none() && !given("content-type", &headers) {
            headers.push(implied(
                "Content-Type",
                "application/x-www-form-urlencoded".into(),
            ));
        }
        if o.form.is_some() && !given("content-type", &headers) {
            headers.push(implied("Content-Type", "multipart/form-data".into()));
        }
        if !given("authorization", &headers) {
            if let Some((user, _)) = &o.user {
                let token = base64::engine::general_purpose::STANDARD.encode(user);
                headers.push(implied("Authorization", format!("Basic {token}")));
            } else if let Some((token, at)) = &o.bearer {
                let token = text(token, *at, "--oauth2-bearer token")?;
                headers.push(implied("Authorization", format!("Bearer {token}")));
            }
        }
        if let Some((agent, at)) = &o.user_agent
            && !given("user-agent", &headers)
        {
            headers.push(implied("User-Agent", text(agent, *at, "user agent")?));
        }
        if let Some((referer, at)) = &o.referer {
            // `URL;auto` also sets the referer of redirects; the first is the URL.
            let referer = text(referer, *at, "referer")?;
            let referer = referer.strip_suffix(";auto").unwrap_or(&referer).to_owned();
            if !given("referer", &headers) && !referer.is_empty() {
                headers.push(implied("Referer", referer));
            }
        }
        if !o.cookies.is_empty() && !given("cookie", &headers) {
            let mut all = Vec::new();
            for (cookie, at) in &o.cookies {
                all.push(text(cookie, *at, "cookie")?);
            }
            headers.push(implied("Cookie", all.join("; ")));
        }
        let body = if let Some((path, at)) = &o.upload {
            Some(self.file("-T", path, *at, stdin, &mut warnings)?)
        } else if o.form.is_some() {
            warnings.push(Warning::new(
                "multipart-not-read",
                o.form,
                "-F sends a multipart/form-data body whose boundary curl chooses: it is not \
                 rebuilt here (its parameters are not signed; a body hash over it cannot be \
                 checked)",
            ));
            None
        } else if has_data && o.get.is_none() {
            Some(data)
        } else {
            None
        };
        let captured = Captured {
            part: Part::CurlCommand,
            method,
            url,
            headers,
            body,
            response: None,
            warnings,
        };
        captured.check_once()?;
        let mut captured = captured;
        if !carries_oauth(&captured) {
            captured.warnings.push(Warning::new(
                "not-oauth",
                None,
                "the request carries no OAuth 1.0a: no Authorization: OAuth header and no \
                 oauth_* parameter in its query or form body",
            ));
        }
        Ok(captured)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn parse(command: &str) -> Captured {
        parse_curl(command).unwrap_or_else(|e| panic!("{command}: {e}"))
    }

    fn kind(command: &str) -> ErrorKind {
        parse_curl(command).unwrap_err().kind().clone()
    }

    // The expected requests below are what curl 7.88.1 sent for each
    // command to a listening socket on 127.0.0.1 (the bytes it wrote).

    #[test]
    fn data_options_as_curl_sends_them() {
        let r = parse("curl http://h/p --data-urlencode 'a=b c+d~!*'");
        assert_eq!(r.body(), Some(&b"a=b+c%2Bd~%21%2A"[..]));
        assert_eq!(r.method(), "POST");
        assert_eq!(r.content_type(), Some("application/x-www-form-urlencoded"));
        let r = parse("curl http://h/p --json '{\"a\":1}' --json '{\"b\":2}'");
        assert_eq!(r.body(), Some(&b"{\"a\":1}{\"b\":2}"[..]));
        assert_eq!(r.content_type(), Some("application/json"));
        assert_eq!(r.header("accept"), Some("application/json"));
        let r = parse("curl http://h/p -d 'a=1' -d 'b=2' --data-binary 'c=3'");
        assert_eq!(r.body(), Some(&b"a=1&b=2&c=3"[..]));
        let r = parse("curl -G http://h/p?x=1 -d 'a=1' --data-urlencode 'b=c d'");
        assert_eq!((r.method(), r.url()), ("GET", "http://h/p?x=1&a=1&b=c+d"));
        assert_eq!(r.body(), None);
        assert_eq!(r.content_type(), None);
        let r = parse("curl -X PUT http://h/p -d 'a=1' -H 'Content-Type: text/plain' -H 'X-Empty;' -H 'Accept:'");
        assert_eq!(r.method(), "PUT");
        assert_eq!(r.content_type(), Some("text/plain"));
        assert_eq!(r.header("x-empty"), Some(""));
        let r = parse("curl -I http://h/p");
        assert_eq!(r.method(), "HEAD");
        let r = parse("curl http://h/p -d ''");
        assert_eq!((r.method(), r.body()), ("POST", Some(&b""[..])));
        let r = parse("curl 'http://h/p?q=1' --url-query 'a=b c'");
        assert_eq!(r.url(), "http://h/p?q=1&a=b+c");
    }

    #[test]
    fn the_url_as_curl_sends_it() {
        assert_eq!(parse("curl http://h/a/../b/./c").url(), "http://h/b/c");
        assert_eq!(
            parse("curl --path-as-is http://h/a/../b").url(),
            "http://h/a/../b"
        );
        let r = parse("curl 'http://h/p#frag'");
        assert_eq!(r.url(), "http://h/p");
        assert_eq!(r.warnings()[0].code(), "fragment-dropped");
        assert_eq!(r.warnings()[0].quoted(), ["\"#frag\""]);
        assert_eq!(parse(r"curl 'http://h/p\[1\]'").url(), "http://h/p[1]");
        assert_eq!(parse(r"curl -g 'http://h/p[1]'").url(), "http://h/p[1]");
        assert_eq!(
            parse("curl 'http://[::1]:8080/p'").url(),
            "http://[::1]:8080/p"
        );
        assert!(matches!(
            kind("curl 'http://h/p[1-3]'"),
            ErrorKind::Unreadable { .. }
        ));
        let r = parse("curl --url api.x.com/p");
        assert_eq!(r.url(), "http://api.x.com/p");
        assert_eq!(r.warnings()[0].code(), "scheme-assumed");
        assert!(matches!(
            kind("curl ftp://h/p"),
            ErrorKind::Unreadable { .. }
        ));
    }

    #[test]
    fn what_could_be_read_two_ways_is_refused_where_it_is() {
        let e = parse_curl(
            "curl http://h/ -H 'Authorization: OAuth a=\"1\"' -H 'authorization: OAuth a=\"2\"'",
        )
        .unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Ambiguous { offset: 47, .. }),
            "{e}"
        );
        assert!(
            e.to_string()
                .contains("two Authorization headers (the first at byte 15)"),
            "{e}"
        );
        assert!(matches!(
            kind("curl http://h/ http://g/"),
            ErrorKind::Ambiguous { offset: 15, .. }
        ));
        assert!(matches!(
            kind("curl http://h/ -d a=1 --json '{}'"),
            ErrorKind::Ambiguous { .. }
        ));
        assert!(matches!(
            kind("curl http://h/ -d a=1 -F b=2"),
            ErrorKind::Ambiguous { .. }
        ));
        assert!(matches!(
            kind("curl -I http://h/ -d a=1"),
            ErrorKind::Ambiguous { .. }
        ));
        assert!(matches!(
            kind("curl http://h/ -: http://g/"),
            ErrorKind::Ambiguous { .. }
        ));
    }

    #[test]
    fn files_are_named_and_read_only_through_a_source() {
        let e = parse_curl("curl http://h/ -d @body.txt").unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::NotInCapture {
                part: Part::CurlCommand,
                offset: 15,
                option: "-d".into(),
                path: "body.txt".into()
            }
        );
        assert!(matches!(
            kind("curl http://h/ --data-binary @-"),
            ErrorKind::NotInCapture { .. }
        ));
        let mut files = |p: &str| match p {
            "f" => Ok(b"a=1\r\nb=2\n".to_vec()),
            _ => Err("no such file".into()),
        };
        let r = Curl::new()
            .with_files(&mut files)
            .parse("curl http://h/ --data-binary @f")
            .unwrap();
        assert_eq!(r.body(), Some(&b"a=1\r\nb=2\n"[..]));
        let r = Curl::new()
            .with_files(&mut files)
            .parse("curl http://h/ -d @f")
            .unwrap();
        assert_eq!(r.body(), Some(&b"a=1b=2"[..]));
        let e = Curl::new()
            .with_files(&mut files)
            .parse("curl http://h/ -d @g")
            .unwrap_err();
        assert!(e.to_string().contains("no such file"), "{e}");
        // A here-document is the command's standard input.
        let r = parse("curl http://h/ -H 'Content-Type: application/json' --data @- <<EOF\n{\"a\": \"it's\"}\nEOF\n");
        assert_eq!(r.body(), Some(&b"{\"a\": \"it's\"}"[..]));
    }

    #[test]
    fn options_are_read_as_curl_reads_them() {
        let r = parse("curl -sSLXPOST -HX-A:1 -d@- http://h/ <<< 'a=1'");
        assert_eq!(r.method(), "POST");
        assert_eq!(r.header("x-a"), Some("1"));
        assert_eq!(r.body(), Some(&b"a=1"[..]));
        let r = parse("curl --compressed -k --no-progress-meter -b 'a=b' -A ua http://h/");
        assert!(
            r.warnings().iter().all(|w| w.code() == "not-oauth"),
            "{:?}",
            r.warnings()
        );
        // curl 7.88.1 refuses an option it does not have ("option
        // --frobnicate: is unknown", exit 2): no request is sent.
        let e = parse_curl("curl --frobnicate http://h/").unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ErrorKind::Unreadable {
                    offset: Some(5),
                    ..
                }
            ),
            "{e}"
        );
        assert!(e.to_string().contains("--frobnicate"), "{e}");
        assert!(matches!(
            kind("curl -j -% http://h/"),
            ErrorKind::Unreadable {
                offset: Some(8),
                ..
            }
        ));
        // `--` ends the options (curl's parse_args): what follows is a URL.
        assert_eq!(parse("curl -G -- http://h/p").url(), "http://h/p");
        assert!(matches!(
            kind("curl http://h/ -H"),
            ErrorKind::Unreadable { .. }
        ));
        assert!(matches!(
            kind("wget http://h/"),
            ErrorKind::Unreadable {
                offset: Some(0),
                ..
            }
        ));
        assert!(matches!(
            kind("curl -K opts.txt"),
            ErrorKind::Unreadable { .. }
        ));
        let r = parse("curl -u 'a:b' http://h/");
        assert_eq!(r.authorization(), Some("Basic YTpi"));
    }

    #[test]
    fn an_abbreviated_option_is_the_one_curl_7_88_takes() {
        // curl 7.88.1 against a listener on 127.0.0.1 sent
        // `GET /p?a=1` for `--ge -d a=1`, kept `/a/../p` for `--path-as`,
        // and refused `--hea` as ambiguous.
        let r = parse("curl http://h/p --ge -d a=1");
        assert_eq!(
            (r.method(), r.url(), r.body()),
            ("GET", "http://h/p?a=1", None)
        );
        let w = &r.warnings()[0];
        assert_eq!(w.code(), "option-abbreviated");
        assert_eq!(w.quoted(), ["\"--ge\"", "--get"]);
        assert_eq!(
            parse("curl --path-as http://h/a/../p").url(),
            "http://h/a/../p"
        );
        let e = parse_curl("curl http://h/ --hea").unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::Ambiguous { offset: 15, .. }),
            "{e}"
        );
        assert!(e.to_string().contains("--head, --header"), "{e}");
        assert!(matches!(
            kind("curl http://h/ --no-buf"),
            ErrorKind::Unreadable {
                offset: Some(15),
                ..
            }
        ));
    }

    #[test]
    fn headers_as_curl_sends_them() {
        // curl 7.88.1 sent `Host: other.example:99` for the first, with
        // `GET /p`, to the URL's host; and `Authorization : OAuth a=1`, the
        // name with its space, for the second.
        let r = parse("curl http://127.0.0.1:8124/p?q=1 -H 'Host: other.example:99'");
        assert_eq!(r.url(), "http://other.example:99/p?q=1");
        assert_eq!(r.warnings()[0].code(), "host-header");
        let r = parse("curl http://u:p@h/p -H 'host: H'");
        // A host is read in any case (RFC 3986 §3.2.2): the same host.
        assert_eq!(r.url(), "http://u:p@h/p");
        assert!(r.warnings().iter().all(|w| w.code() != "host-header"));
        // Each refused at its -H.
        for (command, at) in [
            ("curl http://h/ -H 'Authorization : OAuth a=1'", 15),
            ("curl http://h/ -H ' X-A: 1'", 15),
            ("curl http://h/ -H 'X A;'", 15),
            ("curl http://h/ -H 'Host;'", 15),
            ("curl http://h/ -H 'Host: a/b'", 15),
            ("curl http://h/ -H 'Host:'", 15),
        ] {
            let e = parse_curl(command).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::Unreadable { offset: Some(o), .. } if *o == at),
                "{command}: {e}"
            );
        }
        assert!(matches!(
            kind("curl http://h/ -H 'Host: a' -H 'host: b'"),
            ErrorKind::Ambiguous { offset: 28, .. }
        ));
    }

    #[test]
    fn data_urlencode_content_already_encoded_is_named() {
        let r = parse("curl http://h/ --data-urlencode 'status=Hello%20World'");
        assert_eq!(r.body(), Some(&b"status=Hello%2520World"[..]));
        assert!(r.warnings().iter().any(|w| w.code() == "curl-urlencode"));
    }
}
