//! What an [`Error`] says: its `Display`, one sentence naming what is
//! wrong and where, and the quoting of a name from the input in it.

use std::fmt;

use super::{Error, ErrorKind};

/// A name from the input, quoted for a message: its first [`Quoted::MAX`]
/// characters, then `...` and its length. A parameter name can be as long as
/// the URL or body it came from; no message repeats kilobytes of input.
pub(crate) struct Quoted<'a>(pub(crate) &'a str);

impl Quoted<'_> {
    const MAX: usize = 64;
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(Quoted::MAX) {
            None => write!(f, "{:?}", self.0),
            Some((end, _)) => write!(f, "{:?}... ({} bytes)", &self.0[..end], self.0.len()),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::MalformedEscape {
                part,
                offset,
                found,
            } => write!(
                f,
                "malformed percent-escape at byte {offset} of the {part}: {found:?} \
                 (a '%' must be followed by two hex digits)"
            ),
            ErrorKind::InvalidByte {
                part,
                offset,
                byte,
                expected,
            } => {
                write!(f, "invalid byte ")?;
                if byte.is_ascii_graphic() {
                    write!(f, "'{}'", *byte as char)?;
                } else {
                    write!(f, "0x{byte:02X}")?;
                }
                write!(f, " at byte {offset} of the {part} ({expected})")
            }
            ErrorKind::UnexpectedEnd {
                part,
                offset,
                expected,
            } => write!(
                f,
                "the {part} ends at byte {offset}, cut off before {expected}"
            ),
            ErrorKind::Empty { part } => write!(f, "the {part} is empty"),
            ErrorKind::InvalidUrl { offset, reason, .. } => {
                write!(f, "invalid URL at byte {offset}: {reason}")
            }
            ErrorKind::UnknownSignatureMethod { name } => write!(
                f,
                "unknown signature method {} (expected HMAC-SHA1, HMAC-SHA256, \
                 HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256)",
                Quoted(name)
            ),
            ErrorKind::UnknownName {
                what,
                name,
                expected,
            } => {
                let expected = expected.join(", ");
                write!(f, "unknown {what} {} (expected {expected})", Quoted(name))
            }
            ErrorKind::DuplicateProtocolParameter { name, at } => {
                write!(f, "protocol parameter {} is given more than once", Quoted(name))?;
                match at {
                    Some((part, offset)) => write!(f, " (again at byte {offset} of the {part})"),
                    None => Ok(()),
                }
            }
            ErrorKind::ProtocolParameterInRequest { name, part, offset } => write!(
                f,
                "protocol parameter {} at byte {offset} of the {part}: the signer sends \
                 the protocol parameters in the Authorization header, and one must not be sent twice",
                Quoted(name)
            ),
            ErrorKind::InvalidProtocolValue { name, reason } => {
                write!(f, "invalid {name}: {reason}")
            }
            ErrorKind::NotAProtocolParameter { name } => write!(
                f,
                "{} is not a protocol parameter (protocol parameter names start with \"oauth_\")",
                Quoted(name)
            ),
            ErrorKind::MissingKey { method } => {
                write!(f, "signature method {method} needs an RSA private key")
            }
            ErrorKind::InvalidKey { reason } => write!(f, "invalid private key: {reason}"),
            ErrorKind::ClockBeforeEpoch => {
                f.write_str("the system clock is before 1970-01-01, so no timestamp can be made")
            }
            ErrorKind::NoClock => f.write_str(
                "this target has no clock, so no timestamp can be made: pin the timestamp",
            ),
            ErrorKind::Rsa { reason } => write!(f, "RSA signing failed: {reason}"),
            ErrorKind::TooLong { part, len, limit } => write!(
                f,
                "the {part} is {len} bytes, over the limit of {limit} bytes (no legitimate one is that long)"
            ),
            ErrorKind::AmbiguousMediaType { media_type } => write!(
                f,
                "Content-Type {} looks like application/x-www-form-urlencoded and is not it: \
                 some servers read such a body as a form and others do not; send exactly \
                 application/x-www-form-urlencoded (parameters after ';' allowed) or another type",
                Quoted(media_type)
            ),
            ErrorKind::Conflict { reason } => f.write_str(reason),
            ErrorKind::Ambiguous {
                part,
                offset,
                reason,
            } => write!(f, "ambiguous {part} at byte {offset}: {reason}"),
            ErrorKind::Unreadable {
                part,
                offset,
                reason,
            } => match offset {
                Some(offset) => write!(f, "cannot read the {part} at byte {offset}: {reason}"),
                None => write!(f, "cannot read the {part}: {reason}"),
            },
            ErrorKind::NotInCapture {
                part,
                offset,
                option,
                path,
            } => {
                let source = match path.as_str() {
                    "-" => "standard input".to_owned(),
                    path => format!("the file {}", Quoted(path)),
                };
                write!(
                    f,
                    "{option} at byte {offset} of the {part} reads {source}, which is not in \
                     the {part}: give its content instead"
                )
            }
            ErrorKind::EntryNotChosen {
                candidates,
                entries,
            } => match candidates.as_slice() {
                [] => write!(
                    f,
                    "none of the HAR file's {entries} entries carries OAuth 1.0a (an \
                     Authorization: OAuth header or oauth_* parameters): choose one by its number"
                ),
                several => {
                    let list: Vec<String> = several.iter().map(usize::to_string).collect();
                    write!(
                        f,
                        "{} of the HAR file's {entries} entries carry OAuth 1.0a (numbers {}, \
                         counted from 0): choose one",
                        several.len(),
                        list.join(", ")
                    )
                }
            },
            ErrorKind::NoSuchEntry { entry, entries } => write!(
                f,
                "the HAR file has no entry {entry}: its {entries} entries are numbered from 0"
            ),
        }
    }
}
