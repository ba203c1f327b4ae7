//! Where a captured request carries OAuth 1.0a ([RFC 5849 §3.5]), read as
//! the verifier reads a received request: from the `Authorization: OAuth`
//! header, or from the `oauth_*` parameters of the query or of the form
//! body, never from two of these.
//!
//! The query and the body are collected by the signer's own stage
//! ([`Params`], as the verifier collects them): split at the one splitter,
//! each name decoded before it is compared with the `oauth_` prefix (so
//! `oauth%5Fnonce` is `oauth_nonce`), a malformed escape refused at its
//! offset. The header's scheme is the header parser's test, and its
//! parameters the header parser's reading ([`Protocol::from_header`]).
//!
//! [RFC 5849 §3.5]: https://www.rfc-editor.org/rfc/rfc5849#section-3.5

use std::borrow::Cow;
use std::fmt;

use crate::error::{Error, Part};
use crate::pipeline::header::parse::scheme;
use crate::pipeline::params::Params;
use crate::pipeline::protocol::{is_protocol_name, Protocol, Transmission};
use crate::text::form::pairs;

use super::Captured;

/// What a captured request carries of OAuth 1.0a: its protocol parameters,
/// where they were, and the request without them (the request the client
/// signed: RFC 5849 §3.4.1.3.1 collects the protocol parameters apart from
/// the query and the body they travel in). From
/// [`Captured::oauth`].
///
/// ```
/// use oauth1_signer::capture::parse_curl;
/// use oauth1_signer::{Name, Transmission};
///
/// // A name escaped is the same name: `oauth%5Fnonce` is `oauth_nonce`.
/// let captured = parse_curl(
///     "curl 'https://api.example.com/r?a=1&oauth%5Fnonce=n%20x&oauth_consumer_key=k&b=2'",
/// )?;
/// let carried = captured.oauth()?.expect("it carries OAuth 1.0a");
/// assert_eq!(carried.protocol().transmission(), Transmission::Query);
/// assert_eq!(carried.protocol().get(Name::Nonce), Some("n x"));
/// assert_eq!(carried.url(), "https://api.example.com/r?a=1&b=2");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Carried {
    protocol: Protocol<'static>,
    url: String,
    form_body: Option<Vec<u8>>,
}

impl Carried {
    /// The protocol parameters, decoded, with where they were
    /// ([`Protocol::transmission`]) and the header's realm.
    pub fn protocol(&self) -> &Protocol<'static> {
        &self.protocol
    }

    /// The protocol parameters, owned.
    pub fn into_protocol(self) -> Protocol<'static> {
        self.protocol
    }

    /// The URL without the protocol parameters: as captured unless they
    /// were in its query, the other pairs kept byte for byte, in order.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The form body without the protocol parameters (as captured unless
    /// they were in it); `None` when the request has no form body.
    pub fn form_body(&self) -> Option<&[u8]> {
        self.form_body.as_deref()
    }
}

impl fmt::Debug for Carried {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The protocol's own Debug leaves the signature out.
        f.debug_struct("Carried")
            .field("protocol", &self.protocol)
            .field("url", &self.url)
            .field("form_body_len", &self.form_body.as_ref().map(Vec::len))
            .finish()
    }
}

impl Captured {
    /// The `Authorization` header, if one was sent with the scheme `OAuth`
    /// (any case), by the header parser's test.
    pub fn oauth_header(&self) -> Option<&str> {
        self.authorization().filter(|h| scheme(h).2)
    }

    /// Where the request carries OAuth 1.0a, read as a verifier reads a
    /// received request (RFC 5849 §3.5): the `Authorization: OAuth` header's
    /// `oauth_*` parameters if it has any, else the `oauth_*` parameters of
    /// the query or of the form body (with the header's realm, if any);
    /// `None` when there are none.
    ///
    /// # Errors
    /// As [`Protocol::from_header`] for the header (offsets in the header);
    /// [`MalformedEscape`](crate::ErrorKind::MalformedEscape) at its offset
    /// in the URL or the form body; [`InvalidByte`](crate::ErrorKind::InvalidByte)
    /// at a protocol parameter whose name or value does not decode to UTF-8;
    /// [`DuplicateProtocolParameter`](crate::ErrorKind::DuplicateProtocolParameter)
    /// at the second of a name given twice;
    /// [`AmbiguousMediaType`](crate::ErrorKind::AmbiguousMediaType) as
    /// [`is_form`](Self::is_form); [`Ambiguous`](crate::ErrorKind::Ambiguous)
    /// when protocol parameters are in two places (the header and the query,
    /// say), which a server may read either way (§3.5 sends them in one).
    pub fn oauth(&self) -> Result<Option<Carried>, Error> {
        let form_body = match self.is_form()? {
            true => self.body.as_deref(),
            false => None,
        };
        let header = match self.oauth_header() {
            Some(h) => Some(Protocol::from_header(h)?),
            None => None,
        };
        let (before, query) = match self.url.split_once('?') {
            Some((before, query)) => (before, Some(query)),
            None => (self.url.as_str(), None),
        };
        let query = query
            .map(|q| split(q.as_bytes(), Part::Url, before.len() + 1))
            .transpose()?;
        let body = form_body.map(|b| split(b, Part::FormBody, 0)).transpose()?;
        // Where protocol parameters were found: the header, then the query,
        // then the body; a second place is refused, at its first one.
        let header_has = header.as_ref().is_some_and(|h| !h.is_empty());
        {
            let mut places = header_has
                .then_some((Part::Header, None))
                .into_iter()
                .chain(
                    [&query, &body]
                        .into_iter()
                        .flatten()
                        .filter_map(|s| Some((s.part, Some(s.protocol.first()?)))),
                );
            if let (Some((first, _)), Some((part, Some(p)))) = (places.next(), places.next()) {
                return Err(Error::ambiguous(
                    self.part,
                    self.headers_offset(),
                    format!(
                        "protocol parameters in the {first} and in the {part} ({} at byte {} of \
                     the {part}): RFC 5849 §3.5 sends them in one place, and which one a \
                     server reads cannot be known",
                        super::shown(p.name.as_bytes()),
                        p.at
                    ),
                ));
            }
        }
        // A text without protocol parameters stays as captured, byte for byte
        // (its empty segments too); one with them is its other pairs joined.
        let url = match &query {
            Some(s) if !s.protocol.is_empty() => match s.kept.is_empty() {
                true => before.to_owned(),
                false => format!("{before}?{}", String::from_utf8_lossy(&s.kept)),
            },
            _ => self.url.clone(),
        };
        let form_body = match (&body, form_body) {
            (Some(s), _) if !s.protocol.is_empty() => Some(s.kept.clone()),
            (_, captured) => captured.map(<[u8]>::to_vec),
        };
        let protocol = if header_has {
            header.map(Protocol::into_owned)
        } else {
            let realm = header.and_then(|h| h.realm().map(|r| Cow::Owned(r.to_owned())));
            match (query, body) {
                (Some(s), _) | (_, Some(s)) if !s.protocol.is_empty() => {
                    let transmission = match s.part {
                        Part::FormBody => Transmission::FormBody,
                        _ => Transmission::Query,
                    };
                    let params = s
                        .protocol
                        .into_iter()
                        .map(|p| (Cow::Owned(p.name), Cow::Owned(p.value), p.at));
                    Some(Protocol::from_params(transmission, realm, params)?)
                }
                _ => None,
            }
        };
        Ok(protocol.map(|protocol| Carried {
            protocol,
            url,
            form_body,
        }))
    }

    /// The byte offset of the first header in the capture, when known: where
    /// a reader looks for what the request carries.
    fn headers_offset(&self) -> usize {
        self.headers.iter().find_map(|h| h.offset).unwrap_or(0)
    }
}

/// One protocol parameter found in a query or a form body: decoded, with
/// its name's offset.
struct Found {
    name: String,
    value: String,
    at: usize,
}

/// A query or a form body taken apart: its protocol parameters, and the
/// text without them.
struct Split {
    part: Part,
    protocol: Vec<Found>,
    kept: Vec<u8>,
}

/// `text` (a query at byte `base` of the URL, or a form body) read as the
/// signer's stage collects it, its `oauth_*` pairs taken out.
fn split(text: &[u8], part: Part, base: usize) -> Result<Split, Error> {
    let mut params = Params::new();
    params.extend_encoded(text, part, base)?;
    let mut protocol = Vec::new();
    let mut kept = Vec::with_capacity(text.len());
    // The stage keeps one parameter for each pair the splitter gives, in
    // order: each parameter's raw text is its pair's.
    for (pair, p) in pairs(text).zip(params.iter()) {
        let name = p.name();
        if is_protocol_name(&name) {
            let utf8 = |bytes: Cow<'_, [u8]>, raw: &[u8], at: usize| {
                String::from_utf8(bytes.into_owned()).map_err(|_| {
                    Error::invalid_byte(
                        part,
                        base + at,
                        raw.first().copied().unwrap_or(0),
                        "percent-escapes that decode to UTF-8 text",
                    )
                })
            };
            protocol.push(Found {
                name: utf8(name, pair.name, pair.at)?,
                value: utf8(p.value(), pair.value_or_empty(), pair.value_at())?,
                at: base + pair.at,
            });
        } else {
            if !kept.is_empty() {
                kept.push(b'&');
            }
            let end = match pair.value {
                Some(v) => pair.value_at() + v.len(),
                None => pair.at + pair.name.len(),
            };
            kept.extend_from_slice(&text[pair.at..end]);
        }
    }
    Ok(Split {
        part,
        protocol,
        kept,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::Header;
    use crate::error::ErrorKind;
    use crate::pipeline::protocol::Name;

    fn captured(url: &str, headers: &[(&str, &str)], body: Option<&str>) -> Captured {
        Captured {
            part: Part::CurlCommand,
            method: "POST".into(),
            url: url.into(),
            headers: headers
                .iter()
                .map(|(n, v)| Header {
                    name: (*n).into(),
                    value: (*v).into(),
                    offset: None,
                })
                .collect(),
            body: body.map(|b| b.as_bytes().to_vec()),
            response: None,
            warnings: Vec::new(),
        }
    }

    const FORM: (&str, &str) = ("Content-Type", "application/x-www-form-urlencoded");

    #[test]
    fn the_header_is_told_by_the_parsers_scheme_test() {
        for h in [
            "OAuth oauth_nonce=\"n\"",
            "  oauth oauth_nonce=\"n\"",
            "OAUTH\toauth_nonce=\"n\"",
        ] {
            let c = captured("https://h/", &[("Authorization", h)], None);
            assert_eq!(c.oauth_header(), Some(h));
            let p = c.oauth().unwrap().unwrap();
            assert_eq!(p.protocol().transmission(), Transmission::Header);
            assert_eq!(p.protocol().get(Name::Nonce), Some("n"));
        }
        for h in ["Bearer x", "OAuthx a=\"b\"", "OAut a"] {
            let c = captured("https://h/", &[("Authorization", h)], None);
            assert_eq!(c.oauth_header(), None);
            assert_eq!(c.oauth().unwrap(), None);
        }
    }

    #[test]
    fn an_escaped_prefix_is_the_prefix_and_the_rest_is_kept_byte_for_byte() {
        // The three readings the old byte search missed or changed: an
        // escaped `_`, a `+` in a kept value, a bare name.
        let c = captured(
            "https://h/p?a=x+y&oauth%5Fnonce=n%20x&c&oauth_token=t%2B&d=%7E",
            &[],
            None,
        );
        let p = c.oauth().unwrap().unwrap();
        assert_eq!(p.protocol().transmission(), Transmission::Query);
        assert_eq!(p.protocol().get(Name::Nonce), Some("n x"));
        assert_eq!(p.protocol().get(Name::Token), Some("t+"));
        assert_eq!(p.url(), "https://h/p?a=x+y&c&d=%7E");
        // Nothing else taken: a value that merely holds `oauth_`.
        let c = captured("https://h/?a=oauth_token", &[], None);
        assert_eq!(c.oauth().unwrap(), None);
        // All of the query taken: no `?` left.
        let c = captured("https://h/p?oauth_nonce=1", &[], None);
        assert_eq!(c.oauth().unwrap().unwrap().url(), "https://h/p");
    }

    #[test]
    fn a_form_body_is_read_only_when_it_is_a_form() {
        let body = Some("status=a%20b&oauth_nonce=1&oauth_consumer_key=k");
        let c = captured("https://h/?x=1", &[FORM], body);
        let p = c.oauth().unwrap().unwrap();
        assert_eq!(p.protocol().transmission(), Transmission::FormBody);
        assert_eq!(p.form_body(), Some(&b"status=a%20b"[..]));
        assert_eq!(p.url(), "https://h/?x=1");
        let c = captured("https://h/", &[("Content-Type", "text/plain")], body);
        assert_eq!(c.oauth().unwrap(), None);
        // Protocol parameters in the header: the body as captured, its empty
        // segments kept.
        let header = ("Authorization", "OAuth oauth_nonce=\"n\"");
        let c = captured("https://h/?a=1&&b", &[FORM, header], Some("x=1&&y=2&"));
        let p = c.oauth().unwrap().unwrap();
        assert_eq!(p.form_body(), Some(&b"x=1&&y=2&"[..]));
        assert_eq!(p.url(), "https://h/?a=1&&b");
    }

    #[test]
    fn a_malformed_escape_is_refused_at_its_offset_in_the_url() {
        // `https://h/?a=1&oauth_nonce=%G1`: the `%` is byte 27 of the URL.
        let c = captured("https://h/?a=1&oauth_nonce=%G1", &[], None);
        let e = c.oauth().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::MalformedEscape { .. }), "{e}");
        assert_eq!(e.offset(), Some((Part::Url, 27)));
        let c = captured("https://h/", &[FORM], Some("oauth_nonce=1&b=%"));
        assert_eq!(c.oauth().unwrap_err().offset(), Some((Part::FormBody, 16)));
    }

    #[test]
    fn a_value_that_is_not_utf8_is_refused_not_replaced() {
        // `%E9` alone is Latin-1 `é`, not UTF-8.
        let c = captured("https://h/?oauth_nonce=caf%E9", &[], None);
        let e = c.oauth().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::InvalidByte { .. }), "{e}");
        assert_eq!(e.offset(), Some((Part::Url, 23)));
    }

    #[test]
    fn two_places_are_refused_as_the_verifier_does() {
        let header = ("Authorization", "OAuth oauth_consumer_key=\"k\"");
        let c = captured("https://h/?oauth_nonce=1", &[header], None);
        let e = c.oauth().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Ambiguous { .. }), "{e}");
        assert!(
            e.to_string()
                .contains("Authorization header and in the URL"),
            "{e}"
        );
        let c = captured("https://h/?oauth_nonce=1", &[FORM], Some("oauth_token=t"));
        let e = c.oauth().unwrap_err();
        assert!(e.to_string().contains("URL and in the form body"), "{e}");
        // Twice in one place: the second, at its offset.
        let c = captured("https://h/?oauth_nonce=1&oauth_nonce=2", &[], None);
        let e = c.oauth().unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::DuplicateProtocolParameter { .. }
        ));
        assert_eq!(e.offset(), Some((Part::Url, 25)));
    }

    #[test]
    fn a_realm_only_header_lends_its_realm_to_the_query() {
        let header = ("Authorization", "OAuth realm=\"Photos\"");
        let c = captured("https://h/?oauth_nonce=1", &[header], None);
        let p = c.oauth().unwrap().unwrap();
        assert_eq!(p.protocol().transmission(), Transmission::Query);
        assert_eq!(p.protocol().realm(), Some("Photos"));
    }
}
