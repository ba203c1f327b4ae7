//! The one error type: what went wrong, and where.
//!
//! Every error that comes from untrusted input names the part of the input it
//! is about ([`Part`]) and, where it makes sense, the byte offset inside that
//! part. No error ever carries a secret: credentials are never parsed, so they
//! never appear here.
//!
//! What is stable: the [`ErrorKind`] of an error and the fields of each kind
//! (part, offset, byte, parameter name), which callers may match on. What is
//! not: the text of `Display` and of the `reason`/`expected` explanations,
//! which may be reworded in any release. Both enums may grow.

use std::fmt;

mod message;

pub(crate) use message::Quoted;

/// Which piece of the caller's input an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Part {
    /// The request URL (offsets count from the start of the whole URL).
    Url,
    /// An `application/x-www-form-urlencoded` request body.
    FormBody,
    /// The HTTP method.
    Method,
    /// The `realm` value of the Authorization header.
    Realm,
    /// An `Authorization` header being parsed.
    Header,
    /// A free-standing string given to a decoding function, or the
    /// evidence given to the explainer as a whole.
    Input,
    /// A signature given to be checked or explained.
    Signature,
    /// A copied curl command (offsets count from its first byte).
    CurlCommand,
    /// A HAR file (offsets count from its first byte).
    Har,
    /// A raw HTTP/1.1 request as a proxy saved it (offsets count from its
    /// first byte).
    HttpMessage,
}

impl Part {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Part::Url => "URL",
            Part::FormBody => "form body",
            Part::Method => "method",
            Part::Realm => "realm",
            Part::Header => "Authorization header",
            Part::Input => "input",
            Part::Signature => "signature",
            Part::CurlCommand => "curl command",
            Part::Har => "HAR file",
            Part::HttpMessage => "HTTP request",
        }
    }
}

impl fmt::Display for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What went wrong. Match on it through [`Error::kind`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A `%` not followed by two hexadecimal digits (`%2G`, `%4`, a trailing `%`).
    #[non_exhaustive]
    MalformedEscape {
        /// Where the escape was found.
        part: Part,
        /// Byte offset of the `%` within `part`.
        offset: usize,
        /// The offending text: the `%` and up to two bytes after it.
        found: String,
    },
    /// A byte that is not allowed at this place of the input.
    #[non_exhaustive]
    InvalidByte {
        /// Where the byte was found.
        part: Part,
        /// Byte offset within `part`.
        offset: usize,
        /// The byte itself.
        byte: u8,
        /// What was expected instead, or why the byte is refused.
        expected: &'static str,
    },
    /// The input ends where more was expected: a header cut off inside a
    /// quoted value, say. The offset is the input's length.
    #[non_exhaustive]
    UnexpectedEnd {
        /// Which input.
        part: Part,
        /// Byte offset of the end (the input's length).
        offset: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// A part of the input that must not be empty is empty (the method).
    #[non_exhaustive]
    Empty {
        /// Which part.
        part: Part,
    },
    /// The URL could not be used as an OAuth request URL.
    #[non_exhaustive]
    InvalidUrl {
        /// Always [`Part::Url`].
        part: Part,
        /// Byte offset within the URL where the problem starts.
        offset: usize,
        /// What is wrong.
        reason: &'static str,
    },
    /// The signature method name is not one of RFC 5849's (or its common extensions).
    #[non_exhaustive]
    UnknownSignatureMethod {
        /// The name as given.
        name: String,
    },
    /// A word for one of the library's choices (a transmission, a body-hash
    /// policy or algorithm, a provider) that names none of them.
    #[non_exhaustive]
    UnknownName {
        /// What it was to name: `"transmission"`, `"provider"`...
        what: &'static str,
        /// The word as given.
        name: String,
        /// The words accepted.
        expected: &'static [&'static str],
    },
    /// A protocol parameter was given twice, or collides with one the signer adds.
    #[non_exhaustive]
    DuplicateProtocolParameter {
        /// The parameter name (never its value).
        name: String,
        /// Where the second one's name is, when it was read from a text:
        /// the part and the byte offset there.
        at: Option<(Part, usize)>,
    },
    /// A query or form-body parameter is named `oauth_*`: the signer sends
    /// the protocol parameters in the header, and RFC 5849 §3.5 forbids
    /// sending one twice.
    #[non_exhaustive]
    ProtocolParameterInRequest {
        /// The decoded name (never its value).
        name: String,
        /// [`Part::Url`] or [`Part::FormBody`].
        part: Part,
        /// Byte offset of the name within `part`.
        offset: usize,
    },
    /// A protocol parameter's value cannot be sent (an empty nonce, a
    /// timestamp that is not a positive integer).
    #[non_exhaustive]
    InvalidProtocolValue {
        /// The parameter name (never its value).
        name: &'static str,
        /// What a value must be.
        reason: &'static str,
    },
    /// A parameter handed in as a protocol parameter does not start with `oauth_`.
    #[non_exhaustive]
    NotAProtocolParameter {
        /// The parameter name.
        name: String,
    },
    /// The signature method needs a key the signer was not given (an RSA private key).
    #[non_exhaustive]
    MissingKey {
        /// The signature method that needs it.
        method: &'static str,
    },
    /// A private key could not be read.
    #[non_exhaustive]
    InvalidKey {
        /// Why (never any key material).
        reason: String,
    },
    /// The system clock is set before 1970, so no timestamp can be made.
    #[non_exhaustive]
    ClockBeforeEpoch,
    /// The target has no clock (`wasm32-unknown-unknown`), so no timestamp
    /// can be made: pin one with `SignerBuilder::with_timestamp`.
    #[non_exhaustive]
    NoClock,
    /// The RSA operation failed.
    #[non_exhaustive]
    Rsa {
        /// The message of the RSA implementation.
        reason: String,
    },
    /// An input longer than any legitimate one (each limit is a named
    /// constant, documented where it is used: `MAX_HEADER_LEN` for the
    /// header `Explainer::header` reads).
    #[non_exhaustive]
    TooLong {
        /// Which input.
        part: Part,
        /// Its length in bytes.
        len: usize,
        /// The limit in bytes.
        limit: usize,
    },
    /// A `Content-Type` that looks like `application/x-www-form-urlencoded`
    /// and is not it (`application/x-www-form-urlencodedX`, `...+json`):
    /// one server reads the body as a form and another does not, so it is
    /// neither signed nor verified as either.
    #[non_exhaustive]
    AmbiguousMediaType {
        /// The media type as given (its first 100 bytes, not UTF-8 replaced).
        media_type: String,
    },
    /// Two parts of a request that cannot go together (a form body and
    /// another body; the form-body transmission without a form body; a body
    /// hash of a form).
    #[non_exhaustive]
    Conflict {
        /// What conflicts with what, and what to do instead.
        reason: &'static str,
    },
    /// A captured request (a curl command, a HAR file, a raw HTTP request)
    /// that can be read more than one way: two `Authorization` headers, a
    /// body given two ways, a `Content-Length` beside chunked framing.
    /// Nothing is guessed.
    #[non_exhaustive]
    Ambiguous {
        /// Which capture.
        part: Part,
        /// Byte offset of the second reading (the second header, say).
        offset: usize,
        /// What the two readings are.
        reason: String,
    },
    /// A captured request that cannot be read as one request: an unclosed
    /// quote, a shell expansion whose value is not in the text, a HAR
    /// entry without a URL, a line that is not a header.
    #[non_exhaustive]
    Unreadable {
        /// Which capture.
        part: Part,
        /// Byte offset of the spot, when there is one.
        offset: Option<usize>,
        /// What is wrong there.
        reason: String,
    },
    /// Bytes of a captured request that are not in the capture: a body the
    /// command reads from a file (`-d @payload.json`) or from standard
    /// input. Named, never read silently.
    #[non_exhaustive]
    NotInCapture {
        /// Which capture.
        part: Part,
        /// Byte offset of the option that names the file.
        offset: usize,
        /// The option, as written (`-d`, `--data-binary`, `-H`).
        option: String,
        /// The file's name as written (`-` for standard input).
        path: String,
    },
    /// A HAR file whose entries do not say which one to read: several carry
    /// OAuth 1.0a (or none does), and none was chosen.
    #[non_exhaustive]
    EntryNotChosen {
        /// The entries that carry OAuth 1.0a, counted from 0 in the file's
        /// order (empty when none does).
        candidates: Vec<usize>,
        /// How many entries the file has.
        entries: usize,
    },
    /// A HAR entry chosen by a number the file does not have.
    #[non_exhaustive]
    NoSuchEntry {
        /// The number asked for.
        entry: usize,
        /// How many entries the file has.
        entries: usize,
    },
}

/// The error type of this crate: an [`ErrorKind`] with a short, lowercase `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
}

impl Error {
    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The byte offset the error points at, if it points at one, with the part it counts in.
    pub fn offset(&self) -> Option<(Part, usize)> {
        match self.kind {
            ErrorKind::MalformedEscape { part, offset, .. }
            | ErrorKind::InvalidByte { part, offset, .. }
            | ErrorKind::UnexpectedEnd { part, offset, .. }
            | ErrorKind::InvalidUrl { part, offset, .. }
            | ErrorKind::ProtocolParameterInRequest { part, offset, .. }
            | ErrorKind::Ambiguous { part, offset, .. }
            | ErrorKind::NotInCapture { part, offset, .. } => Some((part, offset)),
            ErrorKind::Unreadable {
                part,
                offset: Some(offset),
                ..
            } => Some((part, offset)),
            ErrorKind::DuplicateProtocolParameter { at, .. } => at,
            _ => None,
        }
    }

    /// Length in bytes of the offending text at [`offset`](Self::offset), for carets.
    pub fn span_len(&self) -> usize {
        match &self.kind {
            ErrorKind::MalformedEscape { found, .. } => found.len().max(1),
            ErrorKind::ProtocolParameterInRequest { name, .. } => name.len().max(1),
            _ => 1,
        }
    }

    pub(crate) fn malformed_escape(part: Part, input: &[u8], offset: usize) -> Error {
        let end = input.len().min(offset + 3);
        let found = String::from_utf8_lossy(input.get(offset..end).unwrap_or_default());
        // Only the `%` and the bytes that should have been hex digits: cut at a
        // multi-byte character rather than showing half of it.
        let found = found.chars().take_while(|c| *c != '\u{fffd}').collect();
        Error::new(ErrorKind::MalformedEscape {
            part,
            offset,
            found,
        })
    }

    /// Moves the error's offset by `by` bytes, for a piece checked on its own
    /// whose offsets must count from the start of the whole input.
    pub(crate) fn shifted(mut self, by: usize) -> Error {
        match &mut self.kind {
            ErrorKind::MalformedEscape { offset, .. }
            | ErrorKind::InvalidByte { offset, .. }
            | ErrorKind::UnexpectedEnd { offset, .. }
            | ErrorKind::InvalidUrl { offset, .. }
            | ErrorKind::ProtocolParameterInRequest { offset, .. }
            | ErrorKind::Ambiguous { offset, .. }
            | ErrorKind::NotInCapture { offset, .. }
            | ErrorKind::Unreadable {
                offset: Some(offset),
                ..
            } => *offset += by,
            ErrorKind::DuplicateProtocolParameter {
                at: Some((_, offset)),
                ..
            } => *offset += by,
            _ => {}
        }
        self
    }

    pub(crate) fn invalid_byte(
        part: Part,
        offset: usize,
        byte: u8,
        expected: &'static str,
    ) -> Error {
        Error::new(ErrorKind::InvalidByte {
            part,
            offset,
            byte,
            expected,
        })
    }

    pub(crate) fn invalid_url(offset: usize, reason: &'static str) -> Error {
        Error::new(ErrorKind::InvalidUrl {
            part: Part::Url,
            offset,
            reason,
        })
    }
}

impl Error {
    /// An error of `kind`: crate-private, so that only this crate makes errors.
    pub(crate) fn new(kind: ErrorKind) -> Error {
        Error { kind }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_escape_names_offset_and_text() {
        let e = Error::malformed_escape(Part::Input, b"abc%2Gdef", 3);
        assert_eq!(
            e.to_string(),
            "malformed percent-escape at byte 3 of the input: \"%2G\" (a '%' must be followed by two hex digits)"
        );
        assert_eq!(e.offset(), Some((Part::Input, 3)));
        assert_eq!(e.span_len(), 3);
    }

    #[test]
    fn malformed_escape_at_end_is_short() {
        let e = Error::malformed_escape(Part::FormBody, b"a=%4", 2);
        assert_eq!(
            e.kind(),
            &ErrorKind::MalformedEscape {
                part: Part::FormBody,
                offset: 2,
                found: "%4".into()
            }
        );
    }

    #[test]
    fn names_from_the_input_are_quoted_at_most_64_characters() {
        let long = format!("oauth_{}", "é".repeat(10_000));
        for kind in [
            ErrorKind::UnknownSignatureMethod { name: long.clone() },
            ErrorKind::UnknownName {
                what: "provider",
                name: long.clone(),
                expected: &["x"],
            },
            ErrorKind::DuplicateProtocolParameter {
                name: long.clone(),
                at: None,
            },
            ErrorKind::NotAProtocolParameter { name: long.clone() },
            ErrorKind::ProtocolParameterInRequest {
                name: long.clone(),
                part: Part::Url,
                offset: 3,
            },
        ] {
            let text = Error::new(kind).to_string();
            // 6 + 58 characters of the name, then its length in bytes (20006).
            let shown = format!("\"oauth_{}\"... (20006 bytes)", "é".repeat(58));
            assert!(text.contains(&shown), "{text}");
            assert!(text.len() < 400, "{}", text.len());
        }
        // A short name is quoted whole, as before.
        let e = Error::new(ErrorKind::DuplicateProtocolParameter {
            name: "oauth_nonce".into(),
            at: None,
        });
        assert_eq!(
            e.to_string(),
            "protocol parameter \"oauth_nonce\" is given more than once"
        );
        let exactly = "n".repeat(64);
        let e = Error::new(ErrorKind::NotAProtocolParameter {
            name: exactly.clone(),
        });
        assert!(
            e.to_string().starts_with(&format!("{exactly:?} is not")),
            "{e}"
        );
    }

    #[test]
    fn malformed_escape_does_not_split_characters() {
        // '%' then the two bytes of 'é': shown whole.
        let e = Error::malformed_escape(Part::Input, "%é".as_bytes(), 0);
        assert_eq!(e.span_len(), 3);
        // '%' then the first two bytes of '☃': shown as the '%' alone.
        let e = Error::malformed_escape(Part::Input, "%☃".as_bytes(), 0);
        assert_eq!(e.span_len(), 1);
    }
}
