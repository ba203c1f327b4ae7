//! Where a received request's protocol parameters are ([RFC 5849 §3.5]),
//! read strictly: from exactly one of the `Authorization` header (§3.5.1),
//! the form body (§3.5.2) and the query (§3.5.3); each once; in the header,
//! nothing but `realm` and `oauth_*`.
//!
//! The header is read by the signer's own parser (`header.rs`); the query
//! and the body are collected by the signer's own stage (`params.rs`), so
//! that the parameters found here are the ones the base string signs.
//!
//! [RFC 5849 §3.5]: https://www.rfc-editor.org/rfc/rfc5849#section-3.5

use std::borrow::Cow;

use crate::error::Part;
use crate::header::{parse_header_params, HeaderParam};
use crate::params::Params;
use crate::repeat::first_repeat;
use crate::verify::reason::Reason;

/// A received request's protocol parameters, decoded, each once.
/// Borrowed from the header or the request's text where they need no
/// decoding.
#[derive(Clone, Debug)]
pub(crate) struct Protocol<'a> {
    /// Where they were: [`Part::Header`], [`Part::Url`] or [`Part::FormBody`].
    pub(crate) place: Part,
    /// The header's `realm`, as given (never signed).
    pub(crate) realm: Option<&'a str>,
    /// Name and value of each, in the order found.
    pub(crate) params: Vec<(Cow<'a, str>, Cow<'a, str>)>,
}

impl<'a> Protocol<'a> {
    /// The value of `name`, if sent.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_ref())
    }
}

/// Decoded bytes as text, borrowed when they were.
fn text(bytes: Cow<'_, [u8]>) -> Option<Cow<'_, str>> {
    match bytes {
        Cow::Borrowed(b) => std::str::from_utf8(b).ok().map(Cow::Borrowed),
        Cow::Owned(b) => String::from_utf8(b).ok().map(Cow::Owned),
    }
}

/// The parameters of an `Authorization` header, each name once; only
/// `realm` (any case, returned as `realm`) and `oauth_*` names.
///
/// # Errors
/// [`Reason::Malformed`] as the parser says; [`Reason::Duplicated`] for a
/// name given twice; [`Reason::ParameterRejected`] for another name.
pub(crate) fn header_params(header: &str) -> Result<Vec<HeaderParam<'_>>, Reason> {
    let params = parse_header_params(header).map_err(Reason::Malformed)?;
    if let Some(p) = params
        .iter()
        .find(|p| p.name != "realm" && !p.name.starts_with("oauth_"))
    {
        return Err(Reason::ParameterRejected {
            name: p.name.to_string(),
            why: "not a protocol parameter (an Authorization header holds only \
                  realm and oauth_* parameters)",
        });
    }
    if let Some(p) = first_repeat(params.iter().map(|p| &p.name)).map(|i| &params[i]) {
        return Err(Reason::Duplicated {
            name: p.name.to_string(),
            part: Part::Header,
            offset: p.at,
        });
    }
    Ok(params)
}

/// The protocol parameters: the header's `oauth_*` ones if it has any, else
/// the `oauth_*` parameters of the query or of the form body (collected in
/// `params`, query first).
///
/// # Errors
/// [`Reason::InTwoPlaces`] when they are in more than one place;
/// [`Reason::Duplicated`] for one given twice in the query or the body;
/// [`Reason::ParameterRejected`] for one that does not decode to UTF-8.
pub(crate) fn protocol<'a>(
    header: &'a [HeaderParam<'_>],
    params: &Params<'a>,
) -> Result<Protocol<'a>, Reason> {
    let realm = header
        .iter()
        .find(|p| p.name == "realm")
        .map(|p| p.value.as_ref());
    let from_header: Vec<(Cow<'a, str>, Cow<'a, str>)> = header
        .iter()
        .filter(|p| p.name != "realm")
        .map(|p| {
            (
                Cow::Borrowed(p.name.as_ref()),
                Cow::Borrowed(p.value.as_ref()),
            )
        })
        .collect();
    let mut in_request = params
        .iter()
        .filter(|p| p.name_starts_with(b"oauth_"))
        .filter_map(|p| Some((p.offset()?, p)));
    if !from_header.is_empty() {
        if let Some(((part, _), p)) = in_request.next() {
            return Err(Reason::InTwoPlaces {
                name: String::from_utf8_lossy(&p.name()).into_owned(),
                first: Part::Header,
                second: part,
            });
        }
        return Ok(Protocol {
            place: Part::Header,
            realm,
            params: from_header,
        });
    }
    let mut place = None;
    let mut found: Vec<(Cow<'a, str>, Cow<'a, str>, usize)> = Vec::new();
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
    if let Some((name, _, offset)) =
        first_repeat(found.iter().map(|(n, _, _)| n)).map(|i| &found[i])
    {
        return Err(Reason::Duplicated {
            name: name.to_string(),
            part: place.unwrap_or(Part::Header),
            offset: *offset,
        });
    }
    let found = found.into_iter().map(|(n, v, _)| (n, v)).collect();
    Ok(Protocol {
        place: place.unwrap_or(Part::Header),
        realm,
        params: found,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_name_twice_is_refused_at_the_second() {
        // `OAuth oauth_a="1", ` is 19 bytes: the second name starts there.
        let e = header_params(r#"OAuth oauth_a="1", oauth_a="1""#).unwrap_err();
        assert_eq!(
            e,
            Reason::Duplicated {
                name: "oauth_a".into(),
                part: Part::Header,
                offset: 19
            }
        );
        // The realm too, in any case (RFC 7235 §2.1).
        let e = header_params(r#"OAuth realm="a", Realm="b""#).unwrap_err();
        assert!(matches!(e, Reason::Duplicated { offset: 17, .. }), "{e:?}");
        let e = header_params(r#"OAuth realm="a", x="b""#).unwrap_err();
        assert!(matches!(e, Reason::ParameterRejected { .. }), "{e:?}");
    }
}
