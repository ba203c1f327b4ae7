//! Parameter strings of the implementations that deviate from RFC 5849 and
//! whose servers verify exactly what they send: a [`ParameterStyle`]
//! chosen by name, never by default (a provider's [`Profile`](crate::provider::Profile)
//! names it).
//!
//! Mastercard's official signers (`mastercard-oauth1-signer` on PyPI,
//! `oauth1/coreutils.py` and `oauth.py`; `oauth1-signer-java` does the
//! same) write the parameter string differently from §3.4.1.3.2:
//! - each `oauth_*` value as it is, not percent-encoded;
//! - the query's pairs as they stand in the URL, or, when the query holds a
//!   percent-escape, each name and value percent-encoded from its decoded
//!   form (`+` decoded as a space);
//! - the `name=value` strings sorted as whole strings, not by name then
//!   value;
//! - a form body's parameters not at all: its bytes are covered by
//!   `oauth_body_hash`, which they send on every request, a form's too;
//! - the string percent-encoded once in the base string, as RFC 5849 does.
//!
//! Their header is `OAuth ` and `name="value"` joined by `,` with no
//! space, in the order they set them (`oauth_consumer_key`, `oauth_nonce`,
//! `oauth_timestamp`, `oauth_signature_method`, `oauth_version`,
//! `oauth_body_hash`, then `oauth_signature`), every value as it is except
//! the signature, which is percent-encoded.
//!
//! Such a string cannot always be read back: a value holding `&` or `=`
//! would write the same string as other parameters. So in this style only
//! what those signers send is signed or accepted ([`check_mastercard`]):
//! their seven names, in the header, values read as they write them, none
//! holding `&` or `=` (but the body hash's Base64 padding).

use std::borrow::Cow;

use crate::error::{Error, ErrorKind};
use crate::pipeline::base_string::{styled_base_string, BaseStringUri};
use crate::pipeline::body_hash::{BodyHash, BodyHashPolicy};
use crate::pipeline::header::parse::{parse_header_params, Escapes};
use crate::pipeline::protocol::{Name, Protocol, Transmission};
use crate::text::decode::{form_decode, percent_decode};
use crate::text::encode::percent_encode;
use crate::text::form::pairs;
use crate::text::scan::holds_escape;

/// How a signer writes the parameter string and the header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParameterStyle {
    /// RFC 5849 §3.4.1.3.2 and §3.5.1 (the default).
    #[default]
    Rfc5849,
    /// Mastercard's official signers, as the module documentation says.
    Mastercard,
}

impl ParameterStyle {
    /// Whether a form-encoded body's parameters are signed (§3.4.1.3.1):
    /// in RFC 5849's style; in Mastercard's its bytes are hashed instead.
    pub fn signs_form_body(self) -> bool {
        self == ParameterStyle::Rfc5849
    }

    /// The body-hash rule in this style: `configured` in RFC 5849's; in
    /// Mastercard's, a hash on every request, a form's included
    /// ([`BodyHashPolicy::Always`]), by `configured`'s algorithm: nothing
    /// else would cover a form body, whose parameters it does not sign.
    pub fn body_hash(self, configured: BodyHash) -> BodyHash {
        match self {
            ParameterStyle::Rfc5849 => configured,
            ParameterStyle::Mastercard => {
                BodyHash::new(BodyHashPolicy::Always, configured.algorithm())
            }
        }
    }
}

/// Why a request in Mastercard's style cannot send its protocol parameters
/// in the query or a form body.
pub(crate) const MASTERCARD_HEADER_ONLY: &str =
    "Mastercard's style sends the protocol parameters in the Authorization header only, \
     as its signers do; its gateway reads them nowhere else";

/// The names Mastercard's signers send, and nothing else is accepted in
/// their style.
const MASTERCARD_NAMES: [Name; 7] = [
    Name::ConsumerKey,
    Name::Nonce,
    Name::Timestamp,
    Name::SignatureMethod,
    Name::Version,
    Name::BodyHash,
    Name::Signature,
];

/// The one rule of what Mastercard's style signs and accepts: each name one
/// of its signers' seven, and no value (but the signature, which is
/// percent-encoded where it is written) holding `&` or `=`, which would
/// write the same parameter string as other parameters; the body hash is
/// Base64, whose `=` only pads its end. The signer checks what it is about
/// to send; the verifier what it read.
///
/// # Errors
/// [`ErrorKind::NotAProtocolParameter`] for another name;
/// [`ErrorKind::InvalidProtocolValue`] for a value that holds `&` or `=`.
pub(crate) fn check_mastercard<'p>(
    params: impl Iterator<Item = (&'p str, &'p str)>,
) -> Result<(), Error> {
    for (name, value) in params {
        let Some(known) = MASTERCARD_NAMES.into_iter().find(|n| n.as_str() == name) else {
            return Err(Error::new(ErrorKind::NotAProtocolParameter {
                name: name.to_owned(),
            }));
        };
        let refused = |reason| {
            Err(Error::new(ErrorKind::InvalidProtocolValue {
                name: known.as_str(),
                reason,
            }))
        };
        match known {
            Name::Signature => {}
            Name::BodyHash => {
                let data = value.trim_end_matches('=');
                let base64 = data
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
                if !base64 || value.len() - data.len() > 2 {
                    return refused("Base64 (A-Z a-z 0-9 + /, '=' only as padding at the end)");
                }
            }
            _ if value.contains(['&', '=']) => {
                return refused(
                    "no '&' or '=' in Mastercard's style, whose parameter string writes \
                     values unencoded (it would read as other parameters)",
                )
            }
            _ => {}
        }
    }
    Ok(())
}

/// The protocol parameters of an `Authorization` header as Mastercard's
/// signers write it: names and values as written (their values are not
/// percent-encoded, so a `%` in a consumer key is a `%`), but the signature,
/// which they percent-encode; no realm; only what [`check_mastercard`]
/// accepts.
///
/// # Errors
/// As the header parser, and as [`check_mastercard`]; a `realm`, which
/// those signers never send ([`ErrorKind::NotAProtocolParameter`]).
pub(crate) fn mastercard_protocol(header: &str) -> Result<Protocol<'_>, Error> {
    let mut read = Vec::with_capacity(MASTERCARD_NAMES.len());
    for p in parse_header_params(header, Escapes::AsWritten)? {
        let value = if p.name == Name::Signature.as_str() {
            let decoded = percent_decode(p.value.as_bytes()).map_err(|_| {
                Error::new(ErrorKind::InvalidProtocolValue {
                    name: Name::Signature.as_str(),
                    reason: "percent-encoded, as Mastercard's signers write it",
                })
            })?;
            Cow::Owned(String::from_utf8_lossy(decoded.as_bytes()).into_owned())
        } else {
            p.value
        };
        read.push((p.name, value, p.at));
    }
    check_mastercard(read.iter().map(|(n, v, _)| (n.as_ref(), v.as_ref())))?;
    Protocol::from_params(Transmission::Header, None, read)
}

/// The Mastercard parameter string of a request whose query is `query`
/// (as it stands in the URL), with the protocol parameters `protocol`.
///
/// # Errors
/// A query whose escapes do not decode.
pub(crate) fn mastercard_parameter_string<'p>(
    query: Option<&str>,
    protocol: impl Iterator<Item = (&'p str, &'p str)>,
) -> Result<String, Error> {
    let query = query.unwrap_or_default();
    // Python's `query != unquote(query)`: it holds an escape.
    let must_encode = holds_escape(query.as_bytes());
    let mut strings: Vec<String> = Vec::new();
    for pair in pairs(query.as_bytes()) {
        let (name, value) = (pair.name, pair.value_or_empty());
        strings.push(if must_encode {
            let (name, value) = (form_decode(name)?, form_decode(value)?);
            format!(
                "{}={}",
                percent_encode(name.as_bytes()),
                percent_encode(value.as_bytes())
            )
        } else {
            format!(
                "{}={}",
                String::from_utf8_lossy(name),
                String::from_utf8_lossy(value)
            )
        });
    }
    for (name, value) in protocol.filter(|(n, _)| *n != Name::Signature.as_str()) {
        strings.push(format!("{name}={value}"));
    }
    strings.sort_unstable();
    Ok(strings.join("&"))
}

/// The Mastercard base string: the method and the base string URI as RFC
/// 5849 writes them, then the Mastercard parameter string, each
/// percent-encoded once. The signer signs it and the verifier (in that
/// style) recomputes it.
///
/// # Errors
/// As [`mastercard_parameter_string`]; a method that is not a token.
pub(crate) fn mastercard_base_string<'p>(
    method: &str,
    uri: &BaseStringUri<'_>,
    query: Option<&str>,
    protocol: impl Iterator<Item = (&'p str, &'p str)>,
) -> Result<String, Error> {
    let params = mastercard_parameter_string(query, protocol)?;
    styled_base_string(method, uri, &params)
}

/// The Mastercard header of `protocol` with `signature`.
pub(crate) fn mastercard_header<'p>(
    protocol: impl Iterator<Item = (&'p str, &'p str)>,
    signature: &str,
    mask: Option<&str>,
) -> String {
    const ORDER: [Name; 6] = [
        Name::ConsumerKey,
        Name::Nonce,
        Name::Timestamp,
        Name::SignatureMethod,
        Name::Version,
        Name::BodyHash,
    ];
    let rank = |name: &str| {
        ORDER
            .iter()
            .position(|n| n.as_str() == name)
            .unwrap_or(ORDER.len())
    };
    let mut params: Vec<(&str, &str)> = protocol
        .filter(|(n, _)| *n != Name::Signature.as_str())
        .collect();
    params.sort_by_key(|(n, _)| rank(n));
    let mut parts: Vec<String> = params.iter().map(|(n, v)| format!("{n}=\"{v}\"")).collect();
    // A secret signature masked where it is shown: the mask in its place,
    // as it is.
    parts.push(match mask {
        Some(mask) => format!("{}=\"{mask}\"", Name::Signature.as_str()),
        None => format!(
            "{}=\"{}\"",
            Name::Signature.as_str(),
            percent_encode(signature.as_bytes())
        ),
    });
    format!("OAuth {}", parts.join(","))
}
