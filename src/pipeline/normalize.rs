//! Normalising the parameters ([RFC 5849 §3.4.1.3.2]): every name and
//! value encoded, the pairs sorted by encoded name and then encoded value in
//! byte order, and joined as `name=value` with `&`; a signer's protocol
//! parameters written in as one run where their names sort.
//!
//! [RFC 5849 §3.4.1.3.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3.2

use std::cmp::Ordering;
use std::fmt;

use crate::pipeline::params::{Param, Params};
use crate::pipeline::protocol::{Form, ProtocolParam, ProtocolParams, PROTOCOL_PREFIX};
use crate::text::sink::{Sink, Writer};
use crate::text::value::Text;

impl<'a> Params<'a> {
    /// Leaves out every `oauth_signature` (§3.4.1.3.1: it is never signed)
    /// and sorts the rest into normalised order (§3.4.1.3.2): by encoded
    /// name, then by encoded value, comparing bytes.
    pub fn normalize(&mut self) -> Normalized<'_, 'a> {
        self.retain_signed();
        Normalized::new(self.sort())
    }

    /// Sorts the parameters into normalised order, leaving out nothing.
    pub(crate) fn sort(&mut self) -> &[Param<'a>] {
        let items = self.as_mut_slice();
        items.sort_by(Param::cmp_encoded);
        items
    }
}

impl Param<'_> {
    /// How the encoded name orders against the encoding of `name`.
    pub(crate) fn cmp_name(&self, name: &[u8]) -> Ordering {
        self.name.cmp_encoded(&Text::Raw(name))
    }

    /// The normalised order: by encoded name, then encoded value.
    fn cmp_encoded(&self, other: &Param<'_>) -> Ordering {
        self.name
            .cmp_encoded(&other.name)
            .then_with(|| self.value.cmp_encoded(&other.value))
    }
}

/// Writes protocol parameters as pairs of the parameter string, encoded
/// once more if `twice`, each after what `sep` writes; a run written out
/// ahead (`Joined`) is copied whole.
fn write_protocols<S: Sink + ?Sized>(
    w: &mut Writer<'_, S>,
    protocol: &[ProtocolParam<'_>],
    twice: bool,
    mut sep: impl FnMut(&mut Writer<'_, S>),
) {
    let mut rest = protocol;
    while let [p, tail @ ..] = rest {
        rest = tail;
        if let Some(run) = p.joined {
            sep(w);
            w.put(if twice { &run.twice } else { &run.once }.as_bytes());
            rest = rest.get(run.len - 1..).unwrap_or_default();
        } else if !matches!(p.form, Form::Signature) {
            sep(w);
            write_protocol(w, p, twice);
        }
    }
}

/// A signer's run of fixed clean protocol parameters as the parameter
/// string writes it, encoded once more if `twice` (`Joined`).
pub(crate) fn protocol_run_string(run: &[ProtocolParam<'_>], twice: bool) -> String {
    let mut out = String::new();
    let mut w = Writer::new(&mut out);
    let mut first = true;
    write_protocols(&mut w, run, twice, |w| {
        if !std::mem::replace(&mut first, false) {
            w.put(if twice { b"%26" } else { b"&" });
        }
    });
    w.finish();
    out
}

/// Writes one protocol parameter as a pair of the parameter string (never
/// `oauth_signature`'s place), encoded once more if `twice`.
fn write_protocol<S: Sink + ?Sized>(w: &mut Writer<'_, S>, p: &ProtocolParam<'_>, twice: bool) {
    match p.form {
        Form::Clean => {
            w.put(p.name.as_bytes());
            w.put(if twice { b"%3D" } else { b"=" });
            w.put(p.value.as_bytes());
        }
        Form::Encode => write_pair(w, p.name.as_bytes(), p.value.as_bytes(), twice),
        Form::Signature => {}
    }
}

/// Writes one parameter of the parameter string, `name=value` with both
/// encoded, and all of it encoded once more if `twice`: the one definition
/// of a pair's form in the normalised parameters (§3.4.1.3.2).
pub(crate) fn write_pair<S: Sink + ?Sized>(
    w: &mut Writer<'_, S>,
    name: &[u8],
    value: &[u8],
    twice: bool,
) {
    Text::Raw(name).write_into(w, twice);
    w.put(if twice { b"%3D" } else { b"=" });
    Text::Raw(value).write_into(w, twice);
}

/// The normalised parameters (§3.4.1.3.2), ready to be written.
///
/// `Display` gives the parameter string (`a=b&c=d`);
/// [`write_to`](Self::write_to) writes the same into a [`Sink`], and
/// [`write_encoded`](Self::write_encoded) writes it encoded once more, as it
/// stands in the signature base string.
#[derive(Clone, Copy)]
pub struct Normalized<'p, 'a> {
    items: &'p [Param<'a>],
    /// A signer's protocol parameters, sorted, and the index among `items`
    /// they go before: every protocol name starts with `oauth_`, and no
    /// request parameter's may, so they sort as one run.
    protocol: Option<(usize, &'p ProtocolParams<'a>)>,
}

impl<'p, 'a> Normalized<'p, 'a> {
    /// Parameters sorted by [`Params::normalize`].
    pub(crate) fn new(items: &'p [Param<'a>]) -> Self {
        Normalized {
            items,
            protocol: None,
        }
    }

    /// Sorted request parameters, none named `oauth_*`, with a signer's
    /// sorted protocol parameters written in where their names sort.
    pub(crate) fn with_protocol(items: &'p [Param<'a>], protocol: &'p ProtocolParams<'a>) -> Self {
        let at = items.partition_point(|p| p.cmp_name(PROTOCOL_PREFIX.as_bytes()).is_lt());
        Normalized {
            items,
            protocol: Some((at, protocol)),
        }
    }

    /// Where the protocol run goes among the request's parameters: before
    /// the first whose name sorts at or after `oauth_`.
    pub(crate) fn protocol_at(&self) -> usize {
        self.protocol.map_or(self.items.len(), |(at, _)| at)
    }

    /// Writes the parameter string, encoded once more if `twice`.
    pub(crate) fn write_into<S: Sink + ?Sized>(&self, w: &mut Writer<'_, S>, twice: bool) {
        let amp: &[u8] = if twice { b"%26" } else { b"&" };
        let eq: &[u8] = if twice { b"%3D" } else { b"=" };
        let (at, protocol) = match self.protocol {
            Some((at, protocol)) => (at, protocol.as_slice()),
            None => (usize::MAX, &[][..]),
        };
        let (before, after) = self.items.split_at(at.min(self.items.len()));
        let mut first = true;
        let mut sep = |w: &mut Writer<'_, S>| {
            if !std::mem::replace(&mut first, false) {
                w.put(amp);
            }
        };
        for p in before {
            sep(w);
            p.name.write_into(w, twice);
            w.put(eq);
            p.value.write_into(w, twice);
        }
        write_protocols(w, protocol, twice, &mut sep);
        for p in after {
            sep(w);
            p.name.write_into(w, twice);
            w.put(eq);
            p.value.write_into(w, twice);
        }
    }

    /// Writes the parameter string (`a=b&c=d`).
    pub fn write_to<S: Sink + ?Sized>(&self, sink: &mut S) {
        let mut w = Writer::new(sink);
        self.write_into(&mut w, false);
        w.finish();
    }

    /// Writes the parameter string percent-encoded (`a%3Db%26c%3Dd`).
    pub fn write_encoded<S: Sink + ?Sized>(&self, sink: &mut S) {
        let mut w = Writer::new(sink);
        self.write_into(&mut w, true);
        w.finish();
    }

    /// The parameters in normalised order (for a signer's, the request's
    /// own: its protocol parameters are written in, not listed).
    pub fn iter(&self) -> std::slice::Iter<'p, Param<'a>> {
        self.items.iter()
    }

    /// Every name and value of the parameter string in normalised order,
    /// as collected (not decoded), the protocol run's in its place: what
    /// the parameter string is written from.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (Text<'a>, Text<'a>)> + Clone + use<'a, 'p> {
        let (at, protocol) = match self.protocol {
            Some((at, protocol)) => (at, protocol.as_slice()),
            None => (usize::MAX, &[][..]),
        };
        let (before, after) = self.items.split_at(at.min(self.items.len()));
        let request = |p: &Param<'a>| (p.name, p.value);
        before
            .iter()
            .map(request)
            .chain(
                protocol
                    .iter()
                    .filter(|p| !matches!(p.form, Form::Signature))
                    .map(|p| (Text::Raw(p.name.as_bytes()), Text::Raw(p.value.as_bytes()))),
            )
            .chain(after.iter().map(request))
    }
}

impl fmt::Display for Normalized<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_to(&mut s);
        f.write_str(&s)
    }
}

impl fmt::Debug for Normalized<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Normalized")
            .field(&self.to_string())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn normalized(form: &str) -> String {
        let mut p = Params::new();
        p.extend_form(form.as_bytes()).unwrap();
        p.normalize().to_string()
    }

    #[test]
    fn sorts_by_encoded_name_then_value() {
        // Raw order would put 'x!y' (0x21) before 'x', and '!' before ' '.
        assert_eq!(normalized("x!y=a&x=a"), "x=a&x%21y=a");
        assert_eq!(normalized("a=x!y&a=x+y"), "a=x%20y&a=x%21y");
        // '[' (0x5B) sorts after 'A' raw, but '%5B' sorts before 'A'.
        assert_eq!(normalized("k=A&k=%5B"), "k=%5B&k=A");
        // Sorting by the joined 'name=value' would put 'a=b' after 'a-b=c'.
        assert_eq!(normalized("a-b=c&a=b"), "a=b&a-b=c");
    }

    #[test]
    fn keeps_duplicates_empty_values_and_bare_names() {
        assert_eq!(normalized("b=&a&&a=1&a"), "a=&a=&a=1&b=");
    }

    #[test]
    fn values_that_are_not_utf8_are_signed_as_their_bytes() {
        // `%FF` decodes to the byte 0xFF, which is not UTF-8, and re-encodes to `%FF`.
        let mut p = Params::new();
        p.extend_form(b"a=%ff&b=%C3%28").unwrap();
        assert_eq!(p.normalize().to_string(), "a=%FF&b=%C3%28");
    }

    #[test]
    fn oauth_signature_is_collected_but_never_normalised() {
        let mut p = Params::new();
        p.extend_form(b"oauth_signature=x&oauth%5Fsignature=y&a=1")
            .unwrap();
        p.push("oauth_signature", "z");
        assert_eq!(p.len(), 4);
        assert!(p.contains(b"oauth_signature"));
        assert_eq!(p.normalize().to_string(), "a=1");
    }

    #[test]
    fn protocol_parameters_are_written_in_where_they_sort() {
        let param = ProtocolParam::new;
        let run = ProtocolParams::from_iter([
            param("oauth_consumer_key", "k y", Form::Encode),
            param("oauth_signature", "", Form::Signature),
            param("oauth_nonce", "n0", Form::Clean),
            param("oauth_token", "t", Form::Clean),
        ]);
        let mut p = Params::new();
        p.extend_form(b"z=1&a=%21&oauth=2&oauthz=3").unwrap();
        let items = p.sort();
        let n = Normalized::with_protocol(items, &run);
        assert_eq!(
            n.to_string(),
            "a=%21&oauth=2&oauth_consumer_key=k%20y&oauth_nonce=n0&oauth_token=t&oauthz=3&z=1"
        );
        let mut twice = String::new();
        n.write_encoded(&mut twice);
        assert_eq!(
            twice,
            "a%3D%2521%26oauth%3D2%26oauth_consumer_key%3Dk%2520y%26oauth_nonce%3Dn0\
             %26oauth_token%3Dt%26oauthz%3D3%26z%3D1"
        );
        // Alone, and after every request parameter.
        assert_eq!(
            Normalized::with_protocol(
                &[],
                &ProtocolParams::from_iter(run.as_slice()[1..3].iter().copied())
            )
            .to_string(),
            "oauth_nonce=n0"
        );
        let mut q = Params::new();
        q.extend_form(b"a=1").unwrap();
        assert_eq!(
            Normalized::with_protocol(
                q.sort(),
                &ProtocolParams::from_iter(run.as_slice()[2..3].iter().copied())
            )
            .to_string(),
            "a=1&oauth_nonce=n0"
        );
    }

    #[test]
    fn runs_written_out_ahead_write_what_each_parameter_would() {
        use crate::pipeline::header::{header_run_string, header_string};
        use crate::pipeline::protocol::{Joined, Name, Own, Value};
        use crate::OAuthRequest;
        // Fixed and clean, fixed needing an escape, fresh: runs of one and
        // of two, split by the signature's place and the others; a verifier
        // and an extra sort into the run of two.
        let own = || {
            Own::new([
                (Name::ConsumerKey, Value::Fixed("k y")),
                (Name::Nonce, Value::Fixed("n0")),
                (Name::SignatureMethod, Value::Fixed("HMAC-SHA1")),
                (Name::Timestamp, Value::Fresh),
                (Name::Token, Value::Fixed("tk")),
                (Name::Version, Value::Fixed("1.0")),
            ])
        };
        let joined = own().join(|run| Joined {
            len: run.len(),
            once: protocol_run_string(run, false).into(),
            twice: protocol_run_string(run, true).into(),
            header: header_run_string(run).into(),
        });
        let extras = [("oauth_body_hash", "h"), ("oauth_token_x", "1")];
        let unjoined = own();
        for request in [
            OAuthRequest::get("https://h/"),
            OAuthRequest::get("https://h/").callback("oob"),
            OAuthRequest::get("https://h/").oauth_verifier("v"),
            OAuthRequest::get("https://h/").protocol_params(&extras),
        ] {
            let (mut plain, mut spliced) = (ProtocolParams::default(), ProtocolParams::default());
            unjoined
                .params(&request, |_| "1318622958", &mut plain)
                .unwrap();
            joined
                .params(&request, |_| "1318622958", &mut spliced)
                .unwrap();
            let mut p = Params::new();
            p.extend_form(b"a=1&z=2").unwrap();
            let items = p.sort();
            for twice in [false, true] {
                let write = |run| {
                    let mut out = String::new();
                    let mut w = Writer::new(&mut out);
                    Normalized::with_protocol(items, run).write_into(&mut w, twice);
                    w.finish();
                    out
                };
                assert_eq!(write(&spliced), write(&plain), "{request:?}");
            }
            assert_eq!(
                header_string(Some("r"), &spliced, "s/g="),
                header_string(Some("r"), &plain, "s/g=")
            );
        }
    }

    #[test]
    fn long_form_values_cross_the_buffer() {
        let body = format!("v={}", "%41".repeat(300));
        let mut p = Params::new();
        p.extend_form(body.as_bytes()).unwrap();
        assert_eq!(p.normalize().to_string(), format!("v={}", "A".repeat(300)));
    }

    #[test]
    fn form_names_and_values_sharing_long_prefixes_normalise_in_encoded_order() {
        // Values of unreserved bytes only are copied, not decoded: the word
        // at a time comparison decides their order.
        assert_eq!(
            normalized("ids=1234567890123459&ids=1234567890123451"),
            "ids=1234567890123451&ids=1234567890123459"
        );
        for len in [8, 9, 15, 16, 17, 24, 25, 33] {
            let prefix = "x".repeat(len);
            // Names: "x..xb" after "x..xa"; a space (encoded "%20") before "a".
            assert_eq!(
                normalized(&format!("{prefix}b=1&{prefix}a=2&{prefix}+=3")),
                format!("{prefix}%20=3&{prefix}a=2&{prefix}b=1")
            );
            // Values, every kind of text: clean, escaped, and a '+'.
            assert_eq!(
                normalized(&format!(
                    "v={prefix}9&v={prefix}1&v={prefix}%21&v={prefix}+&v={prefix}"
                )),
                format!("v={prefix}&v={prefix}%20&v={prefix}%21&v={prefix}1&v={prefix}9")
            );
        }
    }

    #[test]
    fn normalised_parameters_are_written_once_and_twice_encoded() {
        let mut p = Params::new();
        p.extend_form(b"b=%2F+x&a=~1&c").unwrap();
        p.push("a", "é");
        let n = p.normalize();
        let mut once = String::new();
        n.write_to(&mut once);
        // "é" is C3 A9; %C3 sorts before "~" (every escape before every
        // unreserved byte).
        assert_eq!(once, "a=%C3%A9&a=~1&b=%2F%20x&c=");
        let mut twice = Vec::new();
        n.write_encoded(&mut twice);
        assert_eq!(
            String::from_utf8(twice).unwrap(),
            "a%3D%25C3%25A9%26a%3D~1%26b%3D%252F%2520x%26c%3D"
        );
        assert_eq!(n.iter().count(), 4);
    }

    #[test]
    fn debug_shows_the_parameter_string() {
        let mut p = Params::new();
        p.extend_form(b"screen+name=jack&count=%FF").unwrap();
        assert_eq!(
            format!("{:?}", p.normalize()),
            r#"Normalized("count=%FF&screen%20name=jack")"#
        );
    }
}
