//! Reading an `Authorization: OAuth ...` header (RFC 5849 §3.5.1): its
//! scheme, its `name="value"` pairs (RFC 2617's list, quoted-pairs
//! understood), decoded once.

use std::borrow::Cow;

use crate::error::{Error, ErrorKind, Part};
use crate::pipeline::protocol::{Protocol, Transmission};
use crate::text::decode::percent_decode;
use crate::text::scan::{find_byte, find_quoted_end, is_tchar, unreserved_prefix};

fn is_ows(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Parses an `Authorization: OAuth ...` header value into decoded
/// `(name, value)` pairs, in order, `realm` included (its value is a plain
/// quoted-string, not percent-decoded; its name matches in any case and is
/// returned as `realm`).
///
/// Whitespace after commas is optional (RFC 2617 allows line breaks there, as
/// RFC 5849 §3.5.1 prints them); a quoted-pair (`\"`) is understood. Duplicate
/// names are returned as they are: whether they are allowed is the verifier's
/// question, not the parser's.
///
/// ```
/// use oauth1_signer::pipeline::parse_authorization_header;
///
/// let params = parse_authorization_header(r#"OAuth realm="Example", oauth_signature="wOJIO9A2W5mFwDgiDvZbTSMK%2FPY%3D""#)?;
/// assert_eq!(params, [("realm".into(), "Example".into()), ("oauth_signature".into(), "wOJIO9A2W5mFwDgiDvZbTSMK/PY=".into())]);
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
///
/// # Errors
/// [`ErrorKind::InvalidByte`] (with the offset in the header) for a header
/// that is not `OAuth` followed by `name="value"` pairs, or whose decoded
/// names or values are not UTF-8; [`ErrorKind::UnexpectedEnd`] for one cut
/// off (inside a quoted value, say); [`ErrorKind::Empty`] for an empty or
/// blank one; [`ErrorKind::MalformedEscape`] for a bad `%`.
pub fn parse_authorization_header(header: &str) -> Result<Vec<(String, String)>, Error> {
    Ok(parse_header_params(header, Escapes::Decode)?
        .into_iter()
        .map(|p| (p.name.into_owned(), p.value.into_owned()))
        .collect())
}

impl<'a> Protocol<'a> {
    /// The protocol parameters of an `Authorization` header (§3.5.1): the
    /// header parsed as [`parse_authorization_header`] does, its `realm`
    /// (any case) beside them, every other name `oauth_*`, each once.
    ///
    /// # Errors
    /// As [`parse_authorization_header`]; then
    /// [`ErrorKind::NotAProtocolParameter`] for a name that is neither
    /// `realm` nor `oauth_*`, [`ErrorKind::DuplicateProtocolParameter`] at
    /// the second of a name given twice (`realm` too), with its offset.
    pub fn from_header(header: &'a str) -> Result<Protocol<'a>, Error> {
        let mut realm = None;
        let mut realm_twice = None;
        // Read into the model as they are parsed, with no list between.
        let mut reading = Protocol::reading(Transmission::Header, None);
        each_header_param(header, Escapes::Decode, |p| {
            if p.name != "realm" {
                reading.push(p.name, p.value, p.at, p.clean);
                return;
            }
            match realm {
                None => realm = Some(p.value),
                Some(_) => realm_twice = realm_twice.or(Some(p.at)),
            }
        })?;
        if let Some(at) = realm_twice {
            return Err(Error::new(ErrorKind::DuplicateProtocolParameter {
                name: "realm".into(),
                at: Some((Part::Header, at)),
            }));
        }
        Ok(reading.finish()?.with_realm(realm))
    }
}

/// One parameter of a parsed `Authorization` header: decoded name and value
/// (borrowed from the header where decoding changes nothing), and the byte
/// offset of the name in the header (for a verifier's errors).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HeaderParam<'h> {
    pub(crate) name: Cow<'h, str>,
    pub(crate) value: Cow<'h, str>,
    pub(crate) at: usize,
    /// Name and value were written with unreserved bytes only (no escape,
    /// no quoted-pair): each is as written, and needs no escape.
    pub(crate) clean: bool,
}

/// How a header's names and values are read once unquoted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Escapes {
    /// Percent-decoded (RFC 5849 §3.5.1).
    Decode,
    /// As written: a style whose signers write values raw (Mastercard's).
    AsWritten,
}

/// Where the auth scheme of an `Authorization` header is (a token after
/// any leading whitespace, RFC 9110 §11.4): its start, its end, and whether
/// it is `OAuth` (any case). The one test of the scheme: the parser's, and
/// whoever asks whether a header is OAuth 1.0a's.
pub(crate) fn scheme(header: &str) -> (usize, usize, bool) {
    let b = header.as_bytes();
    let start = b.iter().position(|&c| !is_ows(c)).unwrap_or(b.len());
    let end = start
        + b[start..]
            .iter()
            .position(|&c| !is_tchar(c))
            .unwrap_or(b.len() - start);
    (start, end, header[start..end].eq_ignore_ascii_case("OAuth"))
}

/// [`parse_authorization_header`], each parameter with its offset, its
/// names and values read as `escapes` says.
pub(crate) fn parse_header_params(
    header: &str,
    escapes: Escapes,
) -> Result<Vec<HeaderParam<'_>>, Error> {
    let mut params = Vec::with_capacity(8);
    each_header_param(header, escapes, |p| params.push(p))?;
    Ok(params)
}

/// Each parameter of the header, in order, to `each`, read as `escapes`
/// says: what [`parse_header_params`] collects, and what
/// [`Protocol::from_header`] reads into the model with no list between.
/// After an error, `each` has had the parameters before it.
fn each_header_param<'h>(
    header: &'h str,
    escapes: Escapes,
    mut each: impl FnMut(HeaderParam<'h>),
) -> Result<(), Error> {
    #[inline(always)]
    fn decode(escapes: Escapes, raw: &str, at: usize) -> Result<Cow<'_, str>, Error> {
        // Most names and values hold no escape: as they are.
        if escapes == Escapes::AsWritten || find_byte(raw.as_bytes(), b'%').is_none() {
            return Ok(Cow::Borrowed(raw));
        }
        decode_text(raw, at)
    }
    let b = header.as_bytes();
    // At the end of the header, no byte is wrong: it was cut off (or empty).
    let err = |at: usize, expected: &'static str| match b.get(at) {
        Some(&byte) => Error::invalid_byte(Part::Header, at, byte, expected),
        None => Error::new(ErrorKind::UnexpectedEnd {
            part: Part::Header,
            offset: at,
            expected,
        }),
    };
    if header.bytes().all(is_ows) {
        return Err(Error::new(ErrorKind::Empty { part: Part::Header }));
    }
    let (scheme_at, mut i, oauth) = scheme(header);
    if !oauth {
        return Err(err(scheme_at, "the scheme 'OAuth'"));
    }
    loop {
        let ws = i;
        while i < b.len() && (is_ows(b[i]) || b[i] == b',') {
            i += 1;
        }
        if i == b.len() {
            return Ok(());
        }
        if i == ws {
            return Err(err(i, "whitespace or ',' between parameters"));
        }
        let name_start = i;
        // A name is a token ('=' is none): its unreserved bytes (all of
        // them, in every protocol parameter's name) eight at a time.
        i += unreserved_prefix(&b[i..]);
        let name_clean = b.get(i) == Some(&b'=');
        while i < b.len() && is_tchar(b[i]) {
            i += 1;
        }
        if i == name_start {
            return Err(err(i, "a parameter name"));
        }
        // Cut at ASCII bytes, so text still: no UTF-8 check needed.
        let name_raw = &header[name_start..i];
        if b.get(i) != Some(&b'=') {
            return Err(err(i, "'=' after the parameter name"));
        }
        i += 1;
        if b.get(i) != Some(&b'"') {
            return Err(err(i, "a '\"' opening the parameter value"));
        }
        i += 1;
        let value_start = i;
        // Most values are unreserved bytes to the closing quote: found in
        // one scan, which the loop below then ends at once.
        i += unreserved_prefix(&b[i..]);
        // (The realm's name is read below, in any case.)
        let clean =
            name_clean && b.get(i) == Some(&b'"') && !name_raw.eq_ignore_ascii_case("realm");
        // The value's bytes once quoted-pairs are undone: a slice of the
        // header unless it has one.
        let mut unquoted: Option<Vec<u8>> = None;
        let control = |c: u8| c.is_ascii_control() && c != b'\t';
        loop {
            // A run of plain bytes at once, then what ends it.
            let run = find_quoted_end(&b[i..]).map_or(b.len(), |n| i + n);
            if let Some(v) = unquoted.as_mut() {
                v.extend_from_slice(&b[i..run]);
            }
            i = run;
            match b.get(i) {
                None => return Err(err(i, "a '\"' closing the parameter value")),
                Some(b'"') => break,
                Some(b'\\') => match b.get(i + 1) {
                    Some(&c) if !control(c) => {
                        unquoted
                            .get_or_insert_with(|| b[value_start..i].to_vec())
                            .push(c);
                        i += 2;
                    }
                    _ => return Err(err(i + 1, "a character after '\\'")),
                },
                Some(_) => return Err(err(i, "no control characters inside a quoted value")),
            }
        }
        let raw = &header[value_start..i];
        i += 1;
        if clean {
            each(HeaderParam {
                name: Cow::Borrowed(name_raw),
                value: Cow::Borrowed(raw),
                at: name_start,
                clean,
            });
            continue;
        }
        let name = decode(escapes, name_raw, name_start)?;
        // RFC 7235 §2.1: auth-param names are case-insensitive, so `Realm`
        // is the realm; it is returned as `realm` so callers match one name.
        let (name, value) = if name.eq_ignore_ascii_case("realm") {
            let value = match unquoted {
                None => Some(Cow::Borrowed(raw)),
                Some(v) => String::from_utf8(v).map(Cow::Owned).ok(),
            };
            (
                Cow::Borrowed("realm"),
                value.ok_or_else(|| err(value_start, "UTF-8 text"))?,
            )
        } else {
            let value = match unquoted {
                None => decode(escapes, raw, value_start)?,
                Some(v) => {
                    // Text less its quoting backslashes: text still.
                    let v = String::from_utf8(v).map_err(|_| err(value_start, "UTF-8 text"))?;
                    Cow::Owned(decode(escapes, &v, value_start)?.into_owned())
                }
            };
            (name, value)
        };
        each(HeaderParam {
            name,
            value,
            at: name_start,
            clean,
        });
    }
}

/// Percent-decodes a header name or value; offsets of errors are shifted to
/// count from the start of the header.
#[inline(never)]
fn decode_text(raw: &str, at: usize) -> Result<Cow<'_, str>, Error> {
    let decoded = percent_decode(raw.as_bytes()).map_err(|e| {
        let e = e.shifted(at);
        match e.kind().clone() {
            ErrorKind::MalformedEscape { offset, found, .. } => {
                Error::new(ErrorKind::MalformedEscape {
                    part: Part::Header,
                    offset,
                    found,
                })
            }
            _ => e,
        }
    })?;
    let not_text = || {
        Error::invalid_byte(
            Part::Header,
            at,
            raw.bytes().next().unwrap_or(0),
            "percent-escapes that decode to UTF-8 text",
        )
    };
    match decoded.into_bytes() {
        // Nothing to decode: `raw` as it is, text already.
        Cow::Borrowed(_) => Ok(Cow::Borrowed(raw)),
        Cow::Owned(b) => String::from_utf8(b).map(Cow::Owned).map_err(|_| not_text()),
    }
}
