//! Parameter strings of the implementations that deviate from RFC 5849 and
//! whose servers verify exactly what they send: a [`ParameterStyle`]
//! chosen by name, never by default (a provider's [`Profile`](crate::Profile)
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
//! - a form body's parameters not at all;
//! - the string percent-encoded once in the base string, as RFC 5849 does.
//!
//! Their header is `OAuth ` and `name="value"` joined by `,` with no
//! space, in the order they set them (`oauth_consumer_key`, `oauth_nonce`,
//! `oauth_timestamp`, `oauth_signature_method`, `oauth_version`,
//! `oauth_body_hash`, then `oauth_signature`), every value as it is except
//! the signature, which is percent-encoded.

use crate::decode::form_decode;
use crate::encode::percent_encode;
use crate::error::Error;
use crate::form::pairs;
use crate::protocol::Name;

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
    let must_encode = query
        .as_bytes()
        .windows(3)
        .any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit());
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

/// The Mastercard base string: the method as RFC 5849's base string
/// writes it (`rfc_base_string`'s first part), then the base string URI
/// and the Mastercard parameter string, each percent-encoded once. The
/// signer signs it and the verifier (in that style) recomputes it.
///
/// # Errors
/// As [`mastercard_parameter_string`].
pub(crate) fn mastercard_base_string<'p>(
    rfc_base_string: &str,
    base_string_uri: &str,
    query: Option<&str>,
    protocol: impl Iterator<Item = (&'p str, &'p str)>,
) -> Result<String, Error> {
    let method = rfc_base_string.split('&').next().unwrap_or_default();
    let params = mastercard_parameter_string(query, protocol)?;
    Ok(format!(
        "{method}&{}&{}",
        percent_encode(base_string_uri.as_bytes()),
        percent_encode(params.as_bytes())
    ))
}

/// The Mastercard header of `protocol` with `signature`.
pub(crate) fn mastercard_header<'p>(
    protocol: impl Iterator<Item = (&'p str, &'p str)>,
    signature: &str,
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
    parts.push(format!(
        "{}=\"{}\"",
        Name::Signature.as_str(),
        percent_encode(signature.as_bytes())
    ));
    format!("OAuth {}", parts.join(","))
}
