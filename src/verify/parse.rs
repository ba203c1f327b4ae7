//! Where a received request's protocol parameters are ([RFC 5849 §3.5]),
//! read strictly into the one model ([`Protocol`]): from exactly one of the
//! `Authorization` header (§3.5.1), the form body (§3.5.2) and the query
//! (§3.5.3); each once; in the header, nothing but `realm` and `oauth_*`.
//!
//! The header is read by the signer's own parser ([`Protocol::from_header`]);
//! the query and the body are collected by the signer's own stage
//! (`params.rs`), so that the parameters found here are the ones the base
//! string signs. The names' rules (the prefix, each once) are the model's.
//!
//! [RFC 5849 §3.5]: https://www.rfc-editor.org/rfc/rfc5849#section-3.5

use std::borrow::Cow;

use crate::error::Part;
use crate::pipeline::params::Params;
use crate::pipeline::protocol::{Name, Protocol, Transmission, PROTOCOL_PREFIX};
use crate::pipeline::style::{mastercard_protocol, ParameterStyle};
use crate::verify::reason::Reason;

/// Decoded bytes as text, borrowed when they were.
fn text(bytes: Cow<'_, [u8]>) -> Option<Cow<'_, str>> {
    match bytes {
        Cow::Borrowed(b) => std::str::from_utf8(b).ok().map(Cow::Borrowed),
        Cow::Owned(b) => String::from_utf8(b).ok().map(Cow::Owned),
    }
}

/// The protocol parameters: the header's `oauth_*` ones if it has any, else
/// the `oauth_*` parameters of the query or of the form body (collected in
/// `params`, query first), with the header's realm.
///
/// # Errors
/// [`Reason::Malformed`] for a header that does not parse;
/// [`Reason::Duplicated`] for a name given twice where they are;
/// [`Reason::ParameterRejected`] for a header name that is not a protocol
/// parameter's, or one that does not decode to UTF-8;
/// [`Reason::InTwoPlaces`] when they are in more than one place.
pub(crate) fn protocol<'a>(
    header: Option<&'a str>,
    params: &Params<'a>,
    style: ParameterStyle,
) -> Result<Protocol<'a>, Reason> {
    let from_header = match (header, style) {
        (Some(h), ParameterStyle::Rfc5849) => Some(Protocol::from_header(h).map_err(Reason::from)?),
        (Some(h), ParameterStyle::Mastercard) => {
            Some(mastercard_protocol(h).map_err(Reason::from)?)
        }
        (None, _) => None,
    };
    // Mastercard's signers send the header, and only it.
    if style == ParameterStyle::Mastercard && from_header.as_ref().is_none_or(Protocol::is_empty) {
        let in_request = params
            .iter()
            .find(|p| p.name_starts_with(PROTOCOL_PREFIX.as_bytes()));
        return Err(match in_request {
            Some(p) => Reason::ParameterRejected {
                name: String::from_utf8_lossy(&p.name()).into_owned(),
                why: "Mastercard's style reads the protocol parameters from the Authorization \
                      header only, as its signers send them",
            },
            None => {
                Reason::ParameterAbsent(vec![Name::ConsumerKey.as_str(), Name::Signature.as_str()])
            }
        });
    }
    let mut in_request = params
        .iter()
        .filter(|p| p.name_starts_with(PROTOCOL_PREFIX.as_bytes()))
        .filter_map(|p| Some((p.offset()?, p)));
    let from_header = match from_header {
        Some(from_header) if !from_header.is_empty() => {
            if let Some(((part, _), p)) = in_request.next() {
                return Err(Reason::InTwoPlaces {
                    name: String::from_utf8_lossy(&p.name()).into_owned(),
                    first: Part::Header,
                    second: part,
                });
            }
            return Ok(from_header);
        }
        other => other,
    };
    let mut place = None;
    let mut found = Vec::new();
    for ((part, offset), p) in in_request {
        let name = String::from_utf8_lossy(&p.name()).into_owned();
        match place {
            None => place = Some(part),
            Some(first) if first != part => {
                return Err(Reason::InTwoPlaces {
                    name,
                    first,
                    second: part,
                })
            }
            Some(_) => {}
        }
        let (Some(name), Some(value)) = (text(p.name()), text(p.value())) else {
            return Err(Reason::ParameterRejected {
                name,
                why: "a protocol parameter's name and value are UTF-8 text",
            });
        };
        found.push((name, value, offset));
    }
    let transmission = match place {
        Some(Part::FormBody) => Transmission::FormBody,
        Some(_) => Transmission::Query,
        None => Transmission::Header,
    };
    let realm = from_header.and_then(Protocol::into_realm);
    Protocol::from_params(transmission, realm, found).map_err(Reason::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_name_twice_is_refused_at_the_second() {
        let params = Params::new();
        // `OAuth oauth_a="1", ` is 19 bytes: the second name starts there.
        let e = protocol(
            Some(r#"OAuth oauth_a="1", oauth_a="1""#),
            &params,
            ParameterStyle::Rfc5849,
        )
        .unwrap_err();
        assert_eq!(
            e,
            Reason::Duplicated {
                name: "oauth_a".into(),
                part: Part::Header,
                offset: 19
            }
        );
        // The realm too, in any case (RFC 7235 §2.1).
        let e = protocol(
            Some(r#"OAuth realm="a", Realm="b""#),
            &params,
            ParameterStyle::Rfc5849,
        )
        .unwrap_err();
        assert!(matches!(e, Reason::Duplicated { offset: 17, .. }), "{e:?}");
        let e = protocol(
            Some(r#"OAuth realm="a", x="b""#),
            &params,
            ParameterStyle::Rfc5849,
        )
        .unwrap_err();
        assert!(matches!(e, Reason::ParameterRejected { .. }), "{e:?}");
    }

    #[test]
    fn a_header_that_does_not_parse_is_malformed_whatever_its_names() {
        // The parameters go into the model as they are parsed: a name
        // refused before the fault does not hide it, nor does a repeat.
        for header in [
            r#"OAuth x="b", oauth_a="cut"#,
            r#"OAuth oauth_a="1", oauth_a="1", oauth_b"#,
            r#"OAuth realm="a", realm="b", oauth_a=1"#,
        ] {
            let e = protocol(Some(header), &Params::new(), ParameterStyle::Rfc5849).unwrap_err();
            assert!(matches!(e, Reason::Malformed(_)), "{header}: {e:?}");
        }
    }
}
