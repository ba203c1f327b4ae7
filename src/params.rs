//! Collecting and normalising the request parameters ([RFC 5849 §3.4.1.3]).
//!
//! The signed parameters are the URL's query, the protocol (`oauth_*`)
//! parameters, and the body's parameters when the body is
//! `application/x-www-form-urlencoded` ([§3.4.1.3.1]); `oauth_signature` is
//! never among them. Duplicates, empty values and bare names are kept.
//! Normalising ([§3.4.1.3.2]) encodes every name and value, sorts the pairs by
//! encoded name and then encoded value in byte order, and joins them as
//! `name=value` with `&`.
//!
//! Nothing here copies the request: query and body parameters are kept as
//! slices of the caller's text and decoded lazily, byte by byte, when they are
//! compared or written.
//!
//! [RFC 5849 §3.4.1.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3
//! [§3.4.1.3.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3.1
//! [§3.4.1.3.2]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3.2

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use smallvec::SmallVec;

use crate::error::{Error, Part};
use crate::normalize::Normalized;
use crate::scan::find_byte;
use crate::text::Text;
use crate::url::RequestUrl;

/// The `&`-separated segments of a query or form body.
struct Segments<'a>(&'a [u8]);

impl<'a> Iterator for Segments<'a> {
    type Item = &'a [u8];

    #[inline]
    fn next(&mut self) -> Option<&'a [u8]> {
        let input = std::mem::take(&mut self.0);
        match find_byte(input, b'&') {
            Some(i) => {
                self.0 = &input[i + 1..];
                Some(&input[..i])
            }
            None if input.is_empty() => None,
            None => Some(input),
        }
    }
}

/// One collected parameter.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Param<'a> {
    pub(crate) name: Text<'a>,
    pub(crate) value: Text<'a>,
}

impl<'a> Param<'a> {
    /// The decoded name.
    pub fn name(&self) -> Cow<'a, [u8]> {
        self.name.decoded()
    }

    /// The decoded value (empty for a bare name such as `a` in `a&b=1`).
    pub fn value(&self) -> Cow<'a, [u8]> {
        self.value.decoded()
    }

    /// Whether the decoded name starts with `prefix`, without allocating.
    pub(crate) fn name_starts_with(&self, prefix: &[u8]) -> bool {
        match self.name {
            Text::Raw(b) | Text::Clean(b) => b.starts_with(prefix),
            Text::Form(_) => {
                let mut name = self.name.bytes();
                prefix.iter().all(|&b| name.next() == Some(b))
            }
        }
    }

    /// How the encoded name orders against the encoding of `name`.
    pub(crate) fn cmp_name(&self, name: &[u8]) -> Ordering {
        self.name.cmp_encoded(&Text::Raw(name))
    }

    fn cmp_encoded(&self, other: &Param<'_>) -> Ordering {
        self.name
            .cmp_encoded(&other.name)
            .then_with(|| self.value.cmp_encoded(&other.value))
    }
}

impl fmt::Debug for Param<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({:?}, {:?})",
            self.name().escape_ascii().to_string(),
            self.value().escape_ascii().to_string()
        )
    }
}

/// The parameters of a request, in the order they were collected.
///
/// ```
/// use oauth1_signer::Params;
///
/// let mut params = Params::new();
/// params.extend_form(b"a=x!y&a=x+y&c")?;
/// params.push("oauth_nonce", "7d8f3e4a");
/// assert_eq!(params.normalize().to_string(), "a=x%20y&a=x%21y&c=&oauth_nonce=7d8f3e4a");
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Default)]
pub struct Params<'a> {
    // Inline room for a typical request (up to eight protocol parameters and
    // two dozen of the caller's): signing allocates nothing for these.
    items: SmallVec<[Param<'a>; 32]>,
}

impl<'a> Params<'a> {
    /// No parameters.
    pub fn new() -> Self {
        Params::default()
    }

    /// Adds a parameter given as literal text (not encoded), such as a
    /// protocol parameter from an `Authorization` header.
    pub fn push(&mut self, name: &'a str, value: &'a str) {
        self.push_bytes(name.as_bytes(), value.as_bytes());
    }

    /// [`push`](Self::push) for names and values that are bytes, not text.
    pub fn push_bytes(&mut self, name: &'a [u8], value: &'a [u8]) {
        self.items.push(Param {
            name: Text::Raw(name),
            value: Text::Raw(value),
        });
    }

    /// Adds the parameters of an `application/x-www-form-urlencoded` body.
    ///
    /// `+` is a space; empty segments (`a&&b`) are skipped; a bare name (`a`)
    /// has an empty value.
    ///
    /// # Errors
    /// [`ErrorKind::MalformedEscape`](crate::ErrorKind::MalformedEscape) with
    /// the offset of the bad `%` in the body.
    pub fn extend_form(&mut self, body: &'a [u8]) -> Result<(), Error> {
        self.extend_encoded(body, Part::FormBody, 0)
    }

    /// Adds the parameters of a URL query (the text after `?`, without `#...`).
    ///
    /// # Errors
    /// As [`extend_form`](Self::extend_form), with offsets within the query.
    pub fn extend_query(&mut self, query: &'a str) -> Result<(), Error> {
        self.extend_encoded(query.as_bytes(), Part::Url, 0)
    }

    pub(crate) fn extend_encoded(
        &mut self,
        input: &'a [u8],
        part: Part,
        base: usize,
    ) -> Result<(), Error> {
        // Each name and value with a `%` has its escapes checked as it is
        // collected; a malformed one sends the whole input down the slow
        // path, which names its offset.
        let start = self.items.len();
        if self.extend_checking(input) {
            return Ok(());
        }
        self.items.truncate(start);
        self.extend_encoded_slow(input, part, base)
    }

    /// [`extend_checked`](Self::extend_checked) for input whose escapes have
    /// not been checked: false, with some parameters added, at the first
    /// malformed escape.
    fn extend_checking(&mut self, input: &'a [u8]) -> bool {
        self.extend_segments(input, Text::checking)
    }

    /// Adds the parameters of a query whose escapes
    /// [`RequestUrl::parse`](crate::RequestUrl::parse) has checked.
    pub(crate) fn extend_checked_query(&mut self, url: &RequestUrl<'a>) {
        if let Some(query) = url.query() {
            self.extend_checked(query.as_bytes());
        }
    }

    fn extend_checked(&mut self, input: &'a [u8]) {
        self.extend_segments(input, |text| Some(Text::checked(text)));
    }

    /// Adds the `name=value` segments of `input`, each name and value read by
    /// `read`: false, with some parameters added, at the first it refuses.
    #[inline(always)]
    fn extend_segments(
        &mut self,
        input: &'a [u8],
        read: impl Fn(&'a [u8]) -> Option<Text<'a>>,
    ) -> bool {
        for segment in Segments(input) {
            if segment.is_empty() {
                continue;
            }
            let (name, value) = match find_byte(segment, b'=') {
                Some(eq) => (&segment[..eq], &segment[eq + 1..]),
                None => (segment, &segment[segment.len()..]),
            };
            let (Some(name), Some(value)) = (read(name), read(value)) else {
                return false;
            };
            self.items.push(Param { name, value });
        }
        true
    }

    #[cold]
    fn extend_encoded_slow(
        &mut self,
        input: &'a [u8],
        part: Part,
        base: usize,
    ) -> Result<(), Error> {
        let mut start = 0;
        for segment in input.split(|&b| b == b'&') {
            let at = base + start;
            start += segment.len() + 1;
            if segment.is_empty() {
                continue;
            }
            let (name, value, value_at) = match segment.iter().position(|&b| b == b'=') {
                Some(eq) => (&segment[..eq], &segment[eq + 1..], at + eq + 1),
                None => (segment, &segment[segment.len()..], at + segment.len()),
            };
            let name = Text::form(name, at, part)?;
            let value = Text::form(value, value_at, part)?;
            self.items.push(Param { name, value });
        }
        Ok(())
    }

    /// The number of parameters collected.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether no parameter has been collected.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The parameters in the order they are held (collection order until
    /// [`normalize`](Self::normalize) sorts them).
    pub fn iter(&self) -> std::slice::Iter<'_, Param<'a>> {
        self.items.iter()
    }

    /// Whether a parameter with this decoded name is present.
    pub fn contains(&self, name: &[u8]) -> bool {
        self.items.iter().any(|p| p.name.eq_bytes(name))
    }

    /// Leaves out every `oauth_signature` (§3.4.1.3.1: it is never signed)
    /// and sorts the rest into normalised order (§3.4.1.3.2): by encoded
    /// name, then by encoded value, comparing bytes.
    pub fn normalize(&mut self) -> Normalized<'_, 'a> {
        self.items.retain(|p| !p.name.eq_bytes(b"oauth_signature"));
        self.sort();
        Normalized::new(&self.items)
    }

    /// Sorts the parameters into normalised order, leaving out nothing.
    pub(crate) fn sort(&mut self) -> &[Param<'a>] {
        self.items.sort_by(Param::cmp_encoded);
        &self.items
    }
}

impl fmt::Debug for Params<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.items.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::percent_encode;
    use crate::normalize::Piece;
    use crate::text::{cmp_encoded, mismatch, rank};

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
    fn rank_order_matches_encoded_order_for_every_pair_of_bytes() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let ea = percent_encode(&[a]).to_string();
                let eb = percent_encode(&[b]).to_string();
                assert_eq!(rank(a).cmp(&rank(b)), ea.cmp(&eb), "{a:#x} {b:#x}");
            }
        }
    }

    #[test]
    fn mixed_raw_and_form_compare_alike() {
        let raw = Text::Raw(b"a b");
        let form = Text::Form(b"a+b");
        assert_eq!(raw.cmp_encoded(&form), Ordering::Equal);
        assert_eq!(
            Text::Raw(b"a").cmp_encoded(&Text::Form(b"a%21")),
            Ordering::Less
        );
    }

    #[test]
    fn keeps_duplicates_empty_values_and_bare_names_and_skips_empty_segments() {
        assert_eq!(normalized("b=&a&&a=1&a"), "a=&a=&a=1&b=");
    }

    #[test]
    fn values_that_are_not_utf8_are_signed_as_their_bytes() {
        // `%FF` decodes to the byte 0xFF, which is not UTF-8, and re-encodes to `%FF`.
        let mut p = Params::new();
        p.extend_form(b"a=%ff&b=%C3%28").unwrap();
        assert_eq!(p.iter().next().unwrap().value().as_ref(), &[0xFF]);
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
        let run = [
            Piece::Param {
                name: "oauth_consumer_key",
                value: "k y",
                clean: false,
            },
            Piece::Signature,
            Piece::Param {
                name: "oauth_nonce",
                value: "n0",
                clean: true,
            },
            Piece::Encoded {
                once: "oauth_token=t",
                twice: "oauth_token%3Dt",
                header: "",
            },
        ];
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
            Normalized::with_protocol(&[], &run[1..3]).to_string(),
            "oauth_nonce=n0"
        );
        let mut q = Params::new();
        q.extend_form(b"a=1").unwrap();
        assert_eq!(
            Normalized::with_protocol(q.sort(), &run[2..3]).to_string(),
            "a=1&oauth_nonce=n0"
        );
    }

    #[test]
    fn errors_point_into_the_input() {
        let mut p = Params::new();
        let err = p.extend_encoded(b"a=1&b=%2G", Part::Url, 20).unwrap_err();
        assert_eq!(err.offset(), Some((Part::Url, 26)));
    }

    #[test]
    fn long_form_values_cross_the_buffer() {
        let body = format!("v={}", "%41".repeat(300));
        let mut p = Params::new();
        p.extend_form(body.as_bytes()).unwrap();
        assert_eq!(p.normalize().to_string(), format!("v={}", "A".repeat(300)));
    }

    /// The naive reference: encode both, compare the strings.
    fn naive_cmp(a: &[u8], b: &[u8]) -> Ordering {
        percent_encode(a)
            .to_string()
            .cmp(&percent_encode(b).to_string())
    }

    #[test]
    fn long_shared_prefixes_sort_as_their_encodings() {
        // Unreserved, reserved and non-ASCII bytes, so that every kind of
        // text (clean, raw, form) is compared.
        let prefix: Vec<u8> = b"1234567890abcdefghij_KLMNOPQRSTUVW.xyz~-0123456789"
            .iter()
            .copied()
            .chain([b' ', b'!', 0xC3, 0xA9])
            .collect();
        let others = [b'0', b'1', b'9', b'A', b'a', b'~', b' ', b'%', b'+', 0xFF];
        for len in [
            0,
            1,
            7,
            8,
            9,
            15,
            16,
            17,
            23,
            24,
            25,
            31,
            32,
            33,
            40,
            prefix.len(),
        ] {
            let base = &prefix[..len];
            for at in 0..=len {
                for &x in &others {
                    for &y in &others {
                        // Equal up to `at`, then x against y, then the rest.
                        let mut a = base.to_vec();
                        let mut b = base.to_vec();
                        a.truncate(at);
                        b.truncate(at);
                        a.push(x);
                        b.push(y);
                        a.extend_from_slice(&base[at..]);
                        b.extend_from_slice(&base[at..]);
                        let want = naive_cmp(&a, &b);
                        assert_eq!(cmp_encoded(&a, &b), want, "{a:?} {b:?}");
                        let naive_at = a.iter().zip(&b).position(|(p, q)| p != q);
                        assert_eq!(mismatch(&a, &b), naive_at, "{a:?} {b:?}");
                    }
                }
                // One a prefix of the other.
                let (short, long) = (&base[..at], base);
                assert_eq!(cmp_encoded(short, long), naive_cmp(short, long));
                assert_eq!(cmp_encoded(long, short), naive_cmp(long, short));
                assert_eq!(mismatch(short, long), None);
            }
        }
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
    fn malformed_escapes_at_the_start_of_a_segment_are_refused_where_they_are() {
        // Offsets counted by hand: `a=1&` is four bytes, `a=1&b=` six.
        for (input, offset, found) in [
            ("a=1&%zz=1", 4, "%zz"),
            ("%zz=1", 0, "%zz"),
            ("a=1&b=%z", 6, "%z"),
            ("%=1", 0, "%"),
            ("a=%", 2, "%"),
            ("x&a%2=1", 3, "%2"),
            ("&&a=1&&b=%1&", 9, "%1"),
        ] {
            for (part, base) in [(Part::FormBody, 0), (Part::Url, 30)] {
                let mut p = Params::new();
                let err = p.extend_encoded(input.as_bytes(), part, base).unwrap_err();
                assert_eq!(
                    err.kind(),
                    &crate::ErrorKind::MalformedEscape {
                        part,
                        offset: base + offset,
                        found: found.into()
                    },
                    "{input}"
                );
            }
            let mut p = Params::new();
            assert_eq!(
                p.extend_query(input).unwrap_err().offset(),
                Some((Part::Url, offset))
            );
            assert_eq!(
                p.extend_form(input.as_bytes()).unwrap_err().offset(),
                Some((Part::FormBody, offset))
            );
        }
    }

    #[test]
    fn contains_and_is_empty_look_at_the_decoded_names() {
        let mut p = Params::new();
        assert!(p.is_empty());
        assert!(!p.contains(b"a"));
        p.extend_form(b"a%5Fb=1&c+d=2&e").unwrap();
        assert!(!p.is_empty());
        assert_eq!(p.len(), 3);
        for name in [&b"a_b"[..], b"c d", b"e"] {
            assert!(p.contains(name), "{name:?}");
        }
        for name in [&b"a%5Fb"[..], b"c+d", b"a", b"1", b""] {
            assert!(!p.contains(name), "{name:?}");
        }
        let mut q = Params::new();
        q.push("k", "v");
        assert!(!q.is_empty());
        assert!(q.contains(b"k"));
        assert!(!q.contains(b"v"));
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
    fn debug_shows_names_and_values() {
        let mut p = Params::new();
        p.extend_form(b"screen+name=jack&count=%FF").unwrap();
        let first = *p.iter().next().unwrap();
        assert_eq!(format!("{first:?}"), r#"("screen name", "jack")"#);
        assert_eq!(
            format!("{p:?}"),
            r#"[("screen name", "jack"), ("count", "\\xff")]"#
        );
        assert_eq!(
            format!("{:?}", p.normalize()),
            r#"Normalized("count=%FF&screen%20name=jack")"#
        );
    }
}
