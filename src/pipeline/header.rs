//! Sending the protocol parameters ([RFC 5849 §3.5]): the `Authorization`
//! header (§3.5.1), building and parsing it, and the other two transmissions,
//! the form body (§3.5.2) and the query string (§3.5.3).
//!
//! The header is `OAuth `, then an optional `realm="..."`, then the protocol
//! parameters as `name="value"` joined by `, `, names and values
//! percent-encoded (§3.6). The realm is a plain quoted-string: a realm holding
//! `"`, `\`, CR, LF or any other control character is refused, never written,
//! so no header can be broken or injected through it.
//!
//! [RFC 5849 §3.5]: https://www.rfc-editor.org/rfc/rfc5849#section-3.5

pub(crate) mod parse;

pub use parse::parse_authorization_header;

use crate::error::{Error, Part};
use crate::pipeline::protocol::{Form, ProtocolParam, ProtocolParams};
use crate::text::encode::{encode_into, encode_str_to};
use crate::text::sink::{Count, Sink, Writer};

/// Checks that `realm` can be written as a quoted-string in a header.
///
/// A realm is printable ASCII (space to `~`) other than `"` and `\`: RFC 7230
/// §3.2.6 would allow more, but control characters break or inject headers,
/// and bytes past ASCII are read differently by different servers.
///
/// # Errors
/// [`ErrorKind::InvalidByte`](crate::ErrorKind::InvalidByte) naming the first byte that is not allowed.
pub fn check_realm(realm: &str) -> Result<(), Error> {
    match realm
        .bytes()
        .position(|b| b == b'"' || b == b'\\' || !(b' '..=b'~').contains(&b))
    {
        Some(i) => Err(Error::invalid_byte(
            Part::Realm,
            i,
            realm.as_bytes()[i],
            "a realm is printable ASCII other than '\"' and '\\'",
        )),
        None => Ok(()),
    }
}

/// Writes one protocol parameter as `name="value"`, both percent-encoded
/// (§3.5.1); `signature` is the value of `oauth_signature`'s place.
fn push_param(out: &mut impl Sink, p: &ProtocolParam<'_>, signature: &str) {
    match p.form {
        Form::Clean => {
            out.put_str(p.name);
            out.put_str("=\"");
            out.put_str(p.value);
        }
        Form::Encode => {
            encode_str_to(p.name, out);
            out.put_str("=\"");
            encode_str_to(p.value, out);
        }
        Form::Signature => {
            out.put_str("oauth_signature=\"");
            encode_str_to(signature, out);
        }
    }
    out.put_str("\"");
}

/// The header: `OAuth realm="...", name="value", ...`, the parameters in the
/// order given, `signature` where `oauth_signature`'s place is.
fn write_header(
    out: &mut impl Sink,
    realm: Option<&str>,
    params: &ProtocolParams<'_>,
    signature: &str,
) {
    out.put_str("OAuth ");
    let mut first = true;
    if let Some(realm) = realm {
        out.put_str("realm=\"");
        out.put_str(realm);
        out.put_str("\"");
        first = false;
    }
    let mut rest = params.as_slice();
    while let [p, tail @ ..] = rest {
        rest = tail;
        if !std::mem::replace(&mut first, false) {
            out.put_str(", ");
        }
        match p.joined {
            // A run written out ahead by `header_run_string`, copied whole.
            Some(run) => {
                out.put_str(&run.header);
                rest = rest.get(run.len - 1..).unwrap_or_default();
            }
            None => push_param(out, p, signature),
        }
    }
}

/// A signer's run of fixed clean protocol parameters as the header writes
/// it, `name="value"` joined by `, ` ([`Joined`](crate::pipeline::protocol::Joined)).
pub(crate) fn header_run_string(run: &[ProtocolParam<'_>]) -> String {
    fn write(out: &mut impl Sink, run: &[ProtocolParam<'_>]) {
        for (i, p) in run.iter().enumerate() {
            if i > 0 {
                out.put_str(", ");
            }
            push_param(out, p, "");
        }
    }
    // Counted first, by the same writer: one allocation, at its length.
    let mut len = Count(0);
    write(&mut len, run);
    let mut out = String::with_capacity(len.0);
    write(&mut out, run);
    out
}

/// The header (see `write_header`) in a `String` allocated once at its exact
/// length, counted first by the same writer. The realm must have passed
/// [`check_realm`].
pub(crate) fn header_string(
    realm: Option<&str>,
    params: &ProtocolParams<'_>,
    signature: &str,
) -> String {
    let mut len = Count(0);
    write_header(&mut len, realm, params, signature);
    let mut out = String::with_capacity(len.0);
    write_header(&mut out, realm, params, signature);
    out
}

/// Builds an `Authorization` header value from protocol parameters, in the
/// order given (a [`Signer`](crate::Signer) gives them sorted by name).
///
/// ```
/// use oauth1_signer::pipeline::authorization_header;
///
/// let h = authorization_header(Some("Example"), [("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_signature", "r6/TJjbCOr97/+UU0NsvSne7s5g=")])?;
/// assert_eq!(h, r#"OAuth realm="Example", oauth_consumer_key="9djdj82h48djs9d2", oauth_signature="r6%2FTJjbCOr97%2F%2BUU0NsvSne7s5g%3D""#);
/// assert!(authorization_header(Some("a\"b"), []).is_err());
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
///
/// # Errors
/// A realm that [`check_realm`] refuses; an empty parameter name (a header
/// parameter needs a name), as [`ErrorKind::InvalidByte`](crate::ErrorKind::InvalidByte) at the `=` where
/// the name should have been.
pub fn authorization_header<'a>(
    realm: Option<&str>,
    params: impl IntoIterator<Item = (&'a str, &'a str)> + Clone,
) -> Result<String, Error> {
    if let Some(r) = realm {
        check_realm(r)?;
    }
    if let Some(i) = params
        .clone()
        .into_iter()
        .position(|(name, _)| name.is_empty())
    {
        // The offset the '=' would have had in the header.
        let mut before = Count(0);
        let given = ProtocolParams::from_pairs(params.clone().into_iter().take(i));
        write_header(&mut before, realm, &given, "");
        let before = before.0;
        let at = before + usize::from(i > 0 || realm.is_some()) * ", ".len();
        return Err(Error::invalid_byte(
            Part::Header,
            at,
            b'=',
            "a parameter name (names cannot be empty)",
        ));
    }
    Ok(header_string(
        realm,
        &ProtocolParams::from_pairs(params),
        "",
    ))
}

/// Protocol parameters as an `application/x-www-form-urlencoded` string, for
/// the form-body (§3.5.2) and query-string (§3.5.3) transmissions.
///
/// ```
/// use oauth1_signer::pipeline::encode_pairs;
///
/// assert_eq!(encode_pairs([("oauth_signature", "a+b/c="), ("oauth_nonce", "n")]), "oauth_signature=a%2Bb%2Fc%3D&oauth_nonce=n");
/// ```
pub fn encode_pairs<'a>(params: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = String::new();
    let mut w = Writer::new(&mut out);
    for (i, (name, value)) in params.into_iter().enumerate() {
        if i > 0 {
            w.put(b"&");
        }
        encode_into(name.as_bytes(), &mut w);
        w.put(b"=");
        encode_into(value.as_bytes(), &mut w);
    }
    w.finish();
    out
}

/// Appends the protocol parameters to a URL's query (§3.5.3), keeping any
/// fragment at the end.
///
/// ```
/// use oauth1_signer::pipeline::append_to_query;
///
/// assert_eq!(append_to_query("https://h/p?a=1#f", [("oauth_nonce", "n n")]), "https://h/p?a=1&oauth_nonce=n%20n#f");
/// assert_eq!(append_to_query("https://h/p", [("oauth_nonce", "n")]), "https://h/p?oauth_nonce=n");
/// ```
pub fn append_to_query<'a>(
    url: &str,
    params: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> String {
    append_encoded_to_query(url, &encode_pairs(params))
}

/// `url` with `encoded`, parameters already form-encoded, added to its
/// query (§3.5.3), keeping any fragment at the end.
pub(crate) fn append_encoded_to_query(url: &str, encoded: &str) -> String {
    let (head, fragment) = match url.find('#') {
        Some(i) => url.split_at(i),
        None => (url, ""),
    };
    let sep = match head.find('?') {
        None => "?",
        Some(i) if i + 1 == head.len() || head.ends_with('&') => "",
        Some(_) => "&",
    };
    let sep = if encoded.is_empty() { "" } else { sep };
    format!("{head}{sep}{encoded}{fragment}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn build_then_parse_round_trips() {
        let params = [("oauth_consumer_key", "k y"), ("oauth_signature", "a+b/c=")];
        let h = authorization_header(Some("Photos"), params).unwrap();
        assert_eq!(h.capacity(), h.len());
        let mut want = pairs(&params);
        want.insert(0, ("realm".into(), "Photos".into()));
        assert_eq!(parse_authorization_header(&h).unwrap(), want);
    }

    #[test]
    fn the_header_is_allocated_at_the_length_its_writer_counts() {
        // Escapes in names, values and the signature, a realm, a clean copy.
        let run = ProtocolParams::from_iter([
            ProtocolParam::new("oauth_a b", "é\"", Form::Encode),
            ProtocolParam::new("oauth_signature", "", Form::Signature),
            ProtocolParam::new("oauth_c", "1", Form::Clean),
        ]);
        let h = header_string(Some("R"), &run, "a+b/=");
        assert_eq!(
            h,
            "OAuth realm=\"R\", oauth_a%20b=\"%C3%A9%22\", \
             oauth_signature=\"a%2Bb%2F%3D\", oauth_c=\"1\""
        );
        assert_eq!(h.capacity(), h.len());
    }

    #[test]
    fn realm_cannot_inject() {
        for (realm, at) in [
            ("a\"b", 1),
            ("a\\", 1),
            ("x\r\nX-Evil: 1", 1),
            ("\n", 0),
            ("t\x7f", 1),
            // Outside printable ASCII: NEL, LINE SEPARATOR, and plain 'é'
            // were written raw before (offsets are of their first byte).
            ("a\u{85}b", 1),
            ("\u{2028}", 0),
            ("café", 3),
        ] {
            assert_eq!(
                check_realm(realm).unwrap_err().offset(),
                Some((Part::Realm, at)),
                "{realm:?}"
            );
        }
        assert!(check_realm("http://sp.example.com/").is_ok());
    }

    #[test]
    fn parse_accepts_rfc_line_breaks_and_no_spaces() {
        let h = "OAuth realm=\"Example\",\n   oauth_a=\"1\",oauth_b=\"%7E\"";
        assert_eq!(
            parse_authorization_header(h).unwrap(),
            pairs(&[("realm", "Example"), ("oauth_a", "1"), ("oauth_b", "~")])
        );
        assert_eq!(parse_authorization_header("oauth").unwrap(), vec![]);
    }

    #[test]
    fn parse_rejects_malformed_headers_with_offsets() {
        for (h, at) in [
            ("Basic abc", 0),
            ("OAuth a=b", 8),
            ("OAuth a=\"b", 10),
            ("OAuth a", 7),
            ("OAuth a=\"1\"b=\"2\"", 11),
            ("OAuth a=\"%2G\"", 9),
            ("OAuth a=\"x\ny\"", 10),
        ] {
            let e = parse_authorization_header(h).unwrap_err();
            assert_eq!(e.offset(), Some((Part::Header, at)), "{h:?}: {e}");
        }
    }

    #[test]
    fn realm_name_is_case_insensitive() {
        // RFC 7235 §2.1: auth-param names match case-insensitively, so these
        // are the realm, whose value is not percent-decoded.
        for h in [
            r#"OAuth Realm="a%20b", oauth_a="%20""#,
            r#"OAuth REALM="a%20b", oauth_a="%20""#,
        ] {
            assert_eq!(
                parse_authorization_header(h).unwrap(),
                pairs(&[("realm", "a%20b"), ("oauth_a", " ")]),
                "{h}"
            );
        }
    }

    #[test]
    fn a_cut_off_or_empty_header_says_so_and_names_no_byte() {
        // Cut inside a value: `OAuth oauth_nonce="abc` is 22 bytes.
        let e = parse_authorization_header("OAuth oauth_nonce=\"abc").unwrap_err();
        assert_eq!(
            e.kind(),
            &ErrorKind::UnexpectedEnd {
                part: Part::Header,
                offset: 22,
                expected: "a '\"' closing the parameter value"
            }
        );
        assert_eq!(
            e.to_string(),
            "the Authorization header ends at byte 22, cut off before a '\"' closing the parameter value"
        );
        // Cut after a name, and after the scheme's name.
        let e = parse_authorization_header("OAuth oauth_nonce").unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::UnexpectedEnd { offset: 17, .. }),
            "{e}"
        );
        let e = parse_authorization_header("OAu").unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ErrorKind::InvalidByte {
                    offset: 0,
                    byte: b'O',
                    ..
                }
            ),
            "{e}"
        );
        for blank in ["", "  ", "\t"] {
            let e = parse_authorization_header(blank).unwrap_err();
            assert_eq!(
                e.kind(),
                &ErrorKind::Empty { part: Part::Header },
                "{blank:?}"
            );
            assert!(!e.to_string().contains("0x00"), "{e}");
        }
    }

    #[test]
    fn quoted_pairs_are_unescaped() {
        assert_eq!(
            parse_authorization_header(r#"OAuth realm="a\"b\\c""#).unwrap(),
            pairs(&[("realm", "a\"b\\c")])
        );
        assert_eq!(
            parse_authorization_header(r#"OAuth oauth_a="\"x\\%41""#).unwrap(),
            pairs(&[("oauth_a", "\"x\\A")])
        );
        // O0 A1 u2 t3 h4 (space)5 a6 =7 "8 x9 \10: the escaped byte would be at 11.
        let e = parse_authorization_header("OAuth a=\"x\\").unwrap_err();
        assert_eq!(e.offset(), Some((Part::Header, 11)), "{e}");
        // `\` before a control byte: the control byte (at 11) is named.
        let e = parse_authorization_header("OAuth a=\"x\\\n\"").unwrap_err();
        assert_eq!(e.offset(), Some((Part::Header, 11)), "{e}");
    }

    #[test]
    fn empty_names_are_refused_where_they_would_stand() {
        let e = authorization_header(None, [("a", "1"), ("", "2")]).unwrap_err();
        // `OAuth a="1", ` is 13 bytes, so the `=` would be at offset 13.
        assert_eq!(e.offset(), Some((Part::Header, 13)));
        let e = authorization_header(Some("r"), [("", "2")]).unwrap_err();
        assert_eq!(e.offset(), Some((Part::Header, 17)));
        // First, with no realm: right after `OAuth ` (6 bytes), no ", " before it.
        let e = authorization_header(None, [("", "1")]).unwrap_err();
        assert_eq!(e.offset(), Some((Part::Header, 6)));
        // After a realm and a pair: `OAuth realm="r", a="1", ` is 24 bytes.
        let e = authorization_header(Some("r"), [("a", "1"), ("", "2")]).unwrap_err();
        assert_eq!(e.offset(), Some((Part::Header, 24)));
        // The pairs before it are counted encoded: `OAuth a%20b="%22", ` is 19 bytes.
        let e = authorization_header(None, [("a b", "\""), ("", "2")]).unwrap_err();
        assert_eq!(e.offset(), Some((Part::Header, 19)));
        match e.kind() {
            ErrorKind::InvalidByte { byte: b'=', .. } => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn query_transmission_keeps_the_fragment() {
        assert_eq!(append_to_query("http://h/?", [("a", "b")]), "http://h/?a=b");
        assert_eq!(append_to_query("http://h/", []), "http://h/");
    }
}
