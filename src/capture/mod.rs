//! Requests as people have them (feature `capture`): a curl command copied
//! from a browser or a code generator, a HAR file, a raw HTTP/1.1 request a
//! proxy saved; and the provider's error answer, read.
//!
//! Each parser reads its text as the tool that wrote it means it and gives
//! one [`Captured`] request: the method, the URL, the headers and the body
//! exactly as they were sent, with the [`Warning`]s a reader should see (an
//! abbreviated curl option, a fragment curl drops). Whatever could be read two
//! ways is refused by name with its byte offset ([`ErrorKind::Ambiguous`]:
//! two `Authorization` headers, a `Content-Length` beside chunked framing);
//! bytes that are not in the text (`-d @payload.json`) are named
//! ([`ErrorKind::NotInCapture`]), read only through a file source the
//! caller gives ([`Curl::with_files`]). Nothing here touches a file system,
//! a clock or a runtime: the page calls these parsers as the CLI does.
//!
//! - [`parse_curl`] and [`Curl`]: a curl command, as bash reads it (single,
//!   double and `$'...'` quotes, line continuations) or as `cmd.exe` and the
//!   C runtime read it (`^` escapes, `"` quotes), with curl's own rules for
//!   `-X`, `-G`, `-I`, `--url`, `-H` and the data options.
//! - [`parse_har`] and [`Har`]: a HAR 1.2 file; the entries that carry
//!   OAuth 1.0a listed, one chosen, with its response.
//! - [`parse_http`]: a request line, headers and body (`Content-Length` or
//!   chunked), RFC 9112.
//! - [`read_answer`]: what a provider's error body says (X's error codes,
//!   its v2 problems, OAuth Problem Reporting), and by how much a client's
//!   clock is off ([`clock_offset`]).
//!
//! It imports the wings below it, [`text`](crate::text) and the
//! [`pipeline`](crate::pipeline): the media-type rule, and the header's
//! scheme, [`Params`](crate::pipeline::Params) and the protocol
//! parameters' reader (crate-private) to find OAuth 1.0a where the
//! verifier finds it. It produces the request that the verifier and the
//! explainer read; the `outgoing`, `client` and `explain` wings import it.
//!
//! ```
//! use oauth1_signer::capture::parse_curl;
//!
//! // As Chrome's "Copy as cURL (bash)" writes a form POST.
//! let command = r#"curl 'https://api.x.com/1.1/statuses/update.json?include_entities=true' \
//!   -H 'authorization: OAuth oauth_consumer_key="xvz1evFS4wEEPTGEFPHBog", oauth_signature="x"' \
//!   -H 'content-type: application/x-www-form-urlencoded' \
//!   --data-raw 'status=Hello%20Ladies' \
//!   --compressed"#;
//! let request = parse_curl(command)?;
//! assert_eq!(request.method(), "POST");
//! assert_eq!(request.url(), "https://api.x.com/1.1/statuses/update.json?include_entities=true");
//! assert!(request.authorization().is_some_and(|h| h.starts_with("OAuth ")));
//! assert_eq!(request.body(), Some(&b"status=Hello%20Ladies"[..]));
//! assert!(request.is_form()?);
//! assert!(request.warnings().is_empty());
//! # Ok::<(), oauth1_signer::Error>(())
//! ```
//!
//! [`ErrorKind::Ambiguous`]: crate::ErrorKind::Ambiguous
//! [`ErrorKind::NotInCapture`]: crate::ErrorKind::NotInCapture

mod answer;
mod curl;
mod date;
mod har;
mod http;
mod json;
mod oauth;
mod options;
mod shell;

use std::fmt;

use crate::error::{Error, ErrorKind, Part};
use crate::pipeline::request::is_form_media_type;

pub use answer::{clock_offset, read_answer, Answer, AnswerKind, ProviderError};
pub use curl::{parse_curl, Curl, CurlCommand, FileSource, Shell};
pub use date::parse_http_date;
pub use har::{parse_har, Har, HarEntry};
pub use http::{parse_http, parse_http_response};
pub use oauth::Carried;

/// One header as it was sent: its name as written and its value.
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    /// The name, as written (any case).
    pub name: String,
    /// The value, without the whitespace around it.
    pub value: String,
    /// Byte offset of the header in the capture, when it was read from
    /// text (the `-H` word, the header line).
    pub offset: Option<usize>,
}

impl fmt::Debug for Header {
    /// The name, and the value only for a header that cannot hold a
    /// credential.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secret = ["authorization", "cookie", "proxy-authorization"]
            .iter()
            .any(|n| self.name.eq_ignore_ascii_case(n));
        let value: &dyn fmt::Debug = if secret { &"<redacted>" } else { &self.value };
        f.debug_struct("Header")
            .field("name", &self.name)
            .field("value", value)
            .finish()
    }
}

/// Something a reader of a capture should know that does not stop it being
/// read: an option curl reads as another it abbreviates, a fragment curl
/// does not send, curl's encoding of `--data-urlencode`. Each has a stable
/// [`code`](Warning::code), the values from the capture it
/// [`quotes`](Warning::quoted), and a sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    code: &'static str,
    offset: Option<usize>,
    quoted: Vec<String>,
    message: String,
}

impl Warning {
    pub(crate) fn new(
        code: &'static str,
        offset: Option<usize>,
        message: impl Into<String>,
    ) -> Self {
        Warning {
            code,
            offset,
            quoted: Vec::new(),
            message: message.into(),
        }
    }

    /// The warning, quoting `values` (each as its sentence quotes it).
    pub(crate) fn quoting<const N: usize>(mut self, values: [String; N]) -> Self {
        self.quoted = values.into();
        self
    }

    /// A stable code: `option-abbreviated`, `host-header`, `fragment-dropped`, `scheme-assumed`,
    /// `curl-urlencode`, `multipart-not-read`, `caret-in-ansi-c-quote`, `caret-in-cmd-quotes`,
    /// `cmd-variable`, `ignored-after-command`, `crlf-line-ends`,
    /// `har-params-joined`, `trailing-bytes`, `not-oauth`, `http2-message`,
    /// `request-target`, `file-read`.
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The byte offset in the capture it is about, if any.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }

    /// The values from the capture (or read from it) that the sentence
    /// quotes, in its order and as it writes them (control characters
    /// escaped), so that a reader can word the warning in another language
    /// from its [`code`](Self::code) and these (the page does):
    /// `option-abbreviated` the option as written and the one it is read
    /// as; `host-header` the `Host` sent; `ignored-after-command` what follows;
    /// `cmd-variable` the variable's name; `fragment-dropped` the fragment
    /// (none from a HAR file); `scheme-assumed` the scheme;
    /// `curl-urlencode` the option and its content; `har-params-joined` the
    /// entry's number; `trailing-bytes` how many; `not-oauth` the option
    /// that signs otherwise (none when the request carries no signature at
    /// all); `file-read` the option, the path and the number of bytes; the
    /// other codes none.
    pub fn quoted(&self) -> &[String] {
        &self.quoted
    }

    /// The sentence (names from the capture quoted, control characters
    /// escaped).
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.offset {
            Some(at) => write!(f, "{} (at byte {at})", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// The response a capture holds (a HAR entry's): its status, headers and
/// body, decoded from base64 when the HAR says it is.
#[derive(Clone, PartialEq, Eq)]
pub struct CapturedResponse {
    /// The HTTP status code.
    pub status: u16,
    /// The headers, as recorded.
    pub headers: Vec<Header>,
    /// The body, when it was recorded.
    pub body: Option<Vec<u8>>,
}

impl CapturedResponse {
    /// The value of header `name` (any case), the first if there are several.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| h.value.as_str())
    }

    /// What the body says, read ([`read_answer`]).
    pub fn answer(&self) -> Answer {
        read_answer(Some(self.status), self.body.as_deref().unwrap_or_default())
    }
}

impl fmt::Debug for CapturedResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CapturedResponse")
            .field("status", &self.status)
            .field("headers", &self.headers)
            .field("body_len", &self.body.as_ref().map(Vec::len))
            .finish()
    }
}

/// One request as a client sent it, read from a capture.
///
/// `Debug` never shows the `Authorization` header's value nor the body.
#[derive(Clone)]
pub struct Captured {
    pub(crate) part: Part,
    pub(crate) method: String,
    pub(crate) url: String,
    pub(crate) headers: Vec<Header>,
    pub(crate) body: Option<Vec<u8>>,
    pub(crate) response: Option<CapturedResponse>,
    pub(crate) warnings: Vec<Warning>,
}

impl fmt::Debug for Captured {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Captured")
            .field("part", &self.part)
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &self.headers)
            .field("body_len", &self.body.as_ref().map(Vec::len))
            .field("response", &self.response)
            .field("warnings", &self.warnings)
            .finish()
    }
}

/// The headers a request must not carry twice: two values of one of these
/// are two requests a reader could take it for.
const ONCE: [&str; 5] = [
    "host",
    "authorization",
    "content-type",
    "content-length",
    "transfer-encoding",
];

impl Captured {
    /// Which kind of capture it was read from ([`Part::CurlCommand`],
    /// [`Part::Har`], [`Part::HttpMessage`]).
    pub fn part(&self) -> Part {
        self.part
    }

    /// The method, as sent.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The absolute URL, as sent (without a fragment, which no client sends).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Every header, in the order sent (for a curl command: those `-H`
    /// gives, and the ones its options imply, such as the form
    /// `Content-Type` of `-d`).
    pub fn headers(&self) -> &[Header] {
        &self.headers
    }

    /// The value of header `name` (any case), if it was sent. Each of
    /// `Authorization`, `Content-Type`, `Content-Length` and
    /// `Transfer-Encoding` (and `Host`) was checked at parsing to be there at most once;
    /// of another header sent twice, the first.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .map(|h| h.value.as_str())
    }

    /// The `Authorization` header, if one was sent (two were refused at
    /// parsing).
    pub fn authorization(&self) -> Option<&str> {
        self.header("authorization")
    }

    /// The `Content-Type` header, if one was sent.
    pub fn content_type(&self) -> Option<&str> {
        self.header("content-type")
    }

    /// Whether the body is `application/x-www-form-urlencoded`, so that its
    /// parameters are signed (RFC 5849 §3.4.1.3.1), by the rule the signer
    /// and the verifier apply ([`is_form_urlencoded`](crate::pipeline::is_form_urlencoded)).
    ///
    /// # Errors
    /// [`ErrorKind::AmbiguousMediaType`] for a type that only looks like
    /// the form's.
    pub fn is_form(&self) -> Result<bool, Error> {
        match self.content_type() {
            Some(t) => is_form_media_type(t.as_bytes()),
            None => Ok(false),
        }
    }

    /// The body, if there is one (`Some` of an empty body when one was sent
    /// with no bytes).
    pub fn body(&self) -> Option<&[u8]> {
        self.body.as_deref()
    }

    /// The response, when the capture holds one (a HAR entry).
    pub fn response(&self) -> Option<&CapturedResponse> {
        self.response.as_ref()
    }

    /// What a reader should know of how it was read.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Refuses a header of [`ONCE`] sent twice, at the second's offset.
    pub(crate) fn check_once(&self) -> Result<(), Error> {
        for name in ONCE {
            let mut seen = self
                .headers
                .iter()
                .filter(|h| h.name.eq_ignore_ascii_case(name));
            if let (Some(first), Some(second)) = (seen.next(), seen.next()) {
                let at = |h: &Header| h.offset.map_or(String::new(), |o| format!(" at byte {o}"));
                return Err(Error::ambiguous(
                    self.part,
                    second.offset.unwrap_or(0),
                    format!(
                        "two {} headers (the first{}): which one a server reads cannot be known",
                        first.name,
                        at(first)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Whether a request carries OAuth 1.0a, by [`Captured::oauth`]: a request
/// that cannot be read is counted as carrying it (its error is for whoever
/// reads it further, not hidden by a guess).
pub(crate) fn carries_oauth(captured: &Captured) -> bool {
    !matches!(captured.oauth(), Ok(None))
}

impl Error {
    /// [`ErrorKind::Unreadable`]: the capture `part` cannot be read as one
    /// request at `offset` (when there is a spot), for `reason`.
    pub(crate) fn unreadable(
        part: Part,
        offset: Option<usize>,
        reason: impl Into<String>,
    ) -> Error {
        Error::new(ErrorKind::Unreadable {
            part,
            offset,
            reason: reason.into(),
        })
    }

    /// [`ErrorKind::Ambiguous`]: the capture `part` reads two ways, the
    /// second at `offset`, for `reason`.
    pub(crate) fn ambiguous(part: Part, offset: usize, reason: impl Into<String>) -> Error {
        Error::new(ErrorKind::Ambiguous {
            part,
            offset,
            reason: reason.into(),
        })
    }
}

/// `text` for a message: quoted, control characters escaped, at most 80
/// characters.
pub(crate) fn shown(text: &[u8]) -> String {
    let escaped = crate::text::escape_controls(text, &[]);
    match escaped.char_indices().nth(80) {
        None => format!("\"{escaped}\""),
        Some((end, _)) => format!("\"{}...\"", &escaped[..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shown_text_is_escaped_and_cut() {
        assert_eq!(shown(b"a\x1bb"), r#""a\u{1b}b""#);
        assert_eq!(
            shown("x".repeat(100).as_bytes()),
            format!("\"{}...\"", "x".repeat(80))
        );
    }
}
