//! Collecting the request parameters ([RFC 5849 §3.4.1.3.1]).
//!
//! The signed parameters are the URL's query, the protocol (`oauth_*`)
//! parameters, and the body's parameters when the body is
//! `application/x-www-form-urlencoded`; `oauth_signature` is never among
//! them. Duplicates, empty values and bare names are kept. Putting them in
//! order and writing them is the next stage's (`normalize.rs`, §3.4.1.3.2).
//!
//! Nothing here copies the request: query and body parameters are kept as
//! slices of the caller's text and decoded lazily, byte by byte, when they are
//! compared or written.
//!
//! [RFC 5849 §3.4.1.3.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3.1

use std::borrow::Cow;
use std::fmt;

use smallvec::SmallVec;

use crate::error::{Error, Part};
use crate::pipeline::url::RequestUrl;
use crate::text::form::pairs;
use crate::text::scan::is_clean;
use crate::text::value::Text;

/// One collected parameter.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Param<'a> {
    pub(crate) name: Text<'a>,
    pub(crate) value: Text<'a>,
    /// Where the name starts; `None` for literal text.
    pub(crate) at: Option<(Part, usize)>,
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

    /// Where the parameter came from: the part of the request and the byte
    /// offset of its name there, counted as errors count them (within the
    /// whole URL for a signed request's query; within the query or body given
    /// to [`Params::extend_query`] or [`Params::extend_form`]). `None` for a
    /// parameter given as literal text ([`Params::push`]).
    pub fn offset(&self) -> Option<(Part, usize)> {
        self.at
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
/// use oauth1_signer::pipeline::Params;
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
        // A name or value of unreserved bytes (most protocol parameters) is
        // its own encoding: copied as it is when written.
        let literal = |b| {
            if is_clean(b) {
                Text::Clean(b)
            } else {
                Text::Raw(b)
            }
        };
        self.items.push(Param {
            name: literal(name),
            value: literal(value),
            at: None,
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
        if self.extend_checking(input, part, base) {
            return Ok(());
        }
        self.items.truncate(start);
        self.extend_encoded_slow(input, part, base)
    }

    /// [`extend_pairs`](Self::extend_pairs) for input whose escapes have
    /// not been checked: false, with some parameters added, at the first
    /// malformed escape.
    fn extend_checking(&mut self, input: &'a [u8], part: Part, base: usize) -> bool {
        self.extend_pairs(input, part, base, Text::checking)
    }

    /// Adds the parameters of a query whose escapes
    /// [`RequestUrl::parse`](crate::pipeline::RequestUrl::parse) has checked, with
    /// their offsets in the whole URL.
    pub(crate) fn extend_checked_query(&mut self, url: &RequestUrl<'a>) {
        if let Some(query) = url.query() {
            self.extend_pairs(query.as_bytes(), Part::Url, url.query_at(), |text| {
                Some(Text::checked(text))
            });
        }
    }

    /// Adds the [`pairs`] of `input` (empty segments skipped, a bare name
    /// with an empty value), each name and value read by `read`: false, with
    /// some parameters added, at the first it refuses.
    #[inline(always)]
    fn extend_pairs(
        &mut self,
        input: &'a [u8],
        part: Part,
        base: usize,
        read: impl Fn(&'a [u8]) -> Option<Text<'a>>,
    ) -> bool {
        for pair in pairs(input) {
            let (Some(name), Some(value)) = (read(pair.name), read(pair.value_or_empty())) else {
                return false;
            };
            self.items.push(Param {
                name,
                value,
                at: Some((part, base + pair.at)),
            });
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
        for pair in pairs(input) {
            let name = Text::form(pair.name, base + pair.at, part)?;
            let value = Text::form(pair.value_or_empty(), base + pair.value_at(), part)?;
            self.items.push(Param {
                name,
                value,
                at: Some((part, base + pair.at)),
            });
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

    /// Leaves out every `oauth_signature` (§3.4.1.3.1: it is never signed).
    pub(crate) fn retain_signed(&mut self) {
        self.items.retain(|p| !p.name.eq_bytes(b"oauth_signature"));
    }

    /// The parameters, for the next stage to put in order
    /// ([`normalize`](Self::normalize)).
    pub(crate) fn as_mut_slice(&mut self) -> &mut [Param<'a>] {
        &mut self.items
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

    #[test]
    fn keeps_duplicates_empty_values_and_bare_names_and_skips_empty_segments() {
        let mut p = Params::new();
        p.extend_form(b"b=&a&&a=1&a").unwrap();
        let got: Vec<(Vec<u8>, Vec<u8>)> = p
            .iter()
            .map(|q| (q.name().into_owned(), q.value().into_owned()))
            .collect();
        let want: [(&[u8], &[u8]); 4] = [(b"b", b""), (b"a", b""), (b"a", b"1"), (b"a", b"")];
        assert_eq!(got.len(), want.len());
        for ((n, v), (wn, wv)) in got.iter().zip(want) {
            assert_eq!((&n[..], &v[..]), (wn, wv));
        }
    }

    #[test]
    fn values_that_are_not_utf8_are_collected_as_their_bytes() {
        // `%FF` decodes to the byte 0xFF, which is not UTF-8.
        let mut p = Params::new();
        p.extend_form(b"a=%ff&b=%C3%28").unwrap();
        let values: Vec<Vec<u8>> = p.iter().map(|q| q.value().into_owned()).collect();
        assert_eq!(values, [vec![0xFF], vec![0xC3, 0x28]]);
    }

    #[test]
    fn errors_point_into_the_input() {
        let mut p = Params::new();
        let err = p.extend_encoded(b"a=1&b=%2G", Part::Url, 20).unwrap_err();
        assert_eq!(err.offset(), Some((Part::Url, 26)));
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
    fn each_parameter_knows_where_its_name_starts() {
        // Offsets counted by hand: `&b=&a&&` is seven bytes.
        let mut p = Params::new();
        p.extend_encoded(b"&b=&a&&a%3D=1&", Part::FormBody, 0)
            .unwrap();
        p.extend_encoded(b"x=1", Part::Url, 11).unwrap();
        p.push("k", "v");
        let got: Vec<_> = p.iter().map(Param::offset).collect();
        assert_eq!(
            got,
            [
                Some((Part::FormBody, 1)),
                Some((Part::FormBody, 4)),
                Some((Part::FormBody, 7)),
                Some((Part::Url, 11)),
                None
            ]
        );
        // The checked and the unchecked paths agree.
        let mut q = Params::new();
        q.extend_encoded_slow(b"&b=&a&&a%3D=1&", Part::FormBody, 0)
            .unwrap();
        let slow: Vec<_> = q.iter().map(Param::offset).collect();
        assert_eq!(slow, got[..3]);
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
    fn debug_shows_names_and_values() {
        let mut p = Params::new();
        p.extend_form(b"screen+name=jack&count=%FF").unwrap();
        let first = *p.iter().next().unwrap();
        assert_eq!(format!("{first:?}"), r#"("screen name", "jack")"#);
        assert_eq!(
            format!("{p:?}"),
            r#"[("screen name", "jack"), ("count", "\\xff")]"#
        );
    }
}
