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

use crate::decode::{check_escapes, DecodeBytes};
use crate::encode::{
    encode_into, encode_twice_into, transcode_form_into, transcode_form_twice_into,
};
use crate::error::{Error, Part};
use crate::scan::{escapes_complete, find_byte, has_escapes, is_clean, is_unreserved};
use crate::sink::{Sink, Writer};
use crate::url::RequestUrl;

/// A name or value: either literal bytes, or form-encoded text that has been
/// checked and is decoded on the fly.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Text<'a> {
    Raw(&'a [u8]),
    Form(&'a [u8]),
    /// Literal bytes known to need no escape (a protocol parameter the signer
    /// checked once, or a query or body name or value of unreserved bytes
    /// only): written by copying, at any depth of encoding.
    Clean(&'a [u8]),
}

/// Where two encoded strings differ decides their order, and the encoded form
/// of a byte orders like this rank: every escaped byte (`%XX`, `%` being 0x25)
/// sorts before every unreserved byte, escaped bytes by their value (upper-case
/// hex keeps numeric order), unreserved bytes by their value. So raw bytes can
/// be sorted in encoded order without encoding them.
#[inline]
fn rank(b: u8) -> u16 {
    RANK[b as usize]
}

/// [`rank`] of every byte.
const RANK: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = if is_unreserved(b as u8) {
            256 + b as u16
        } else {
            b as u16
        };
        b += 1;
    }
    t
};

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

/// The first index where `a` and `b` differ, comparing eight bytes at a time
/// (names share long prefixes such as `oauth_`).
#[inline]
fn mismatch(a: &[u8], b: &[u8]) -> Option<usize> {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let (a_words, a_rest) = a.as_chunks::<8>();
    let (b_words, b_rest) = b.as_chunks::<8>();
    for (i, (x, y)) in a_words.iter().zip(b_words).enumerate() {
        let diff = u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y);
        if diff != 0 {
            return Some(i * 8 + diff.trailing_zeros() as usize / 8);
        }
    }
    let at = a_words.len() * 8;
    a_rest
        .iter()
        .zip(b_rest)
        .position(|(x, y)| x != y)
        .map(|j| at + j)
}

/// Compares two byte strings in the order of their percent-encodings, without
/// encoding them.
pub(crate) fn cmp_encoded(a: &[u8], b: &[u8]) -> Ordering {
    Text::Raw(a).cmp_encoded(&Text::Raw(b))
}

impl<'a> Text<'a> {
    /// Literal bytes, or form-encoded text checked for malformed escapes.
    fn form(input: &'a [u8], base: usize, part: Part) -> Result<Text<'a>, Error> {
        Ok(if check_escapes(input, true, part, base)? {
            Text::Form(input)
        } else {
            Text::Raw(input)
        })
    }

    /// Form-encoded text whose escapes have been checked.
    #[inline]
    fn checked(input: &'a [u8]) -> Text<'a> {
        // Unreserved bytes hold no `%` or `+`: one pass tells most names and
        // many values.
        if is_clean(input) {
            Text::Clean(input)
        } else if has_escapes(input, true) {
            Text::Form(input)
        } else {
            Text::Raw(input)
        }
    }

    /// [`checked`](Self::checked) for text whose escapes have not been
    /// checked: `None` if one is malformed.
    #[inline]
    fn checking(input: &'a [u8]) -> Option<Text<'a>> {
        match Text::checked(input) {
            Text::Form(_) if !escapes_complete(input) => None,
            text => Some(text),
        }
    }

    fn decoded(&self) -> Cow<'a, [u8]> {
        match *self {
            Text::Raw(b) | Text::Clean(b) => Cow::Borrowed(b),
            Text::Form(_) => Cow::Owned(self.bytes().collect()),
        }
    }

    fn eq_bytes(&self, other: &[u8]) -> bool {
        match *self {
            Text::Raw(b) | Text::Clean(b) => b == other,
            Text::Form(_) => self.bytes().eq(other.iter().copied()),
        }
    }

    fn cmp_encoded(&self, other: &Text<'_>) -> Ordering {
        match (*self, *other) {
            (Text::Raw(a) | Text::Clean(a), Text::Raw(b) | Text::Clean(b)) => {
                match mismatch(a, b) {
                    Some(i) => rank(a[i]).cmp(&rank(b[i])),
                    None => a.len().cmp(&b.len()),
                }
            }
            (a, b) => a.ranks().cmp(b.ranks()),
        }
    }

    fn ranks(self) -> impl Iterator<Item = u16> + 'a {
        self.bytes().map(rank)
    }

    fn bytes(self) -> TextBytes<'a> {
        match self {
            Text::Raw(b) | Text::Clean(b) => TextBytes::Raw(b.iter()),
            Text::Form(b) => TextBytes::Form(DecodeBytes::new(b, true)),
        }
    }

    /// Writes the decoded bytes, encoded once or `twice`, into the writer.
    #[inline]
    fn write_into<S: Sink + ?Sized>(&self, w: &mut Writer<'_, S>, twice: bool) {
        match (*self, twice) {
            (Text::Clean(b), _) => w.put(b),
            (Text::Raw(b), false) => encode_into(b, w),
            (Text::Raw(b), true) => encode_twice_into(b, w),
            (Text::Form(b), false) => transcode_form_into(b, w),
            (Text::Form(b), true) => transcode_form_twice_into(b, w),
        }
    }
}

/// The decoded bytes of a [`Text`].
enum TextBytes<'a> {
    Raw(std::slice::Iter<'a, u8>),
    Form(DecodeBytes<'a>),
}

impl Iterator for TextBytes<'_> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        match self {
            TextBytes::Raw(it) => it.next().copied(),
            TextBytes::Form(it) => it.next(),
        }
    }
}

/// One collected parameter.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Param<'a> {
    name: Text<'a>,
    value: Text<'a>,
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

/// A piece of a signer's protocol parameters, which it writes as one run in
/// among the request's parameters (see [`Normalized::with_protocol`]) and in
/// the header.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Piece<'a> {
    /// One or more parameters encoded ahead of time, by [`write_pair`] and
    /// the header's pair writer, and joined: `a=1&b=2`, `a%3D1%26b%3D2`, and
    /// `a="1", b="2"` for the header.
    Encoded {
        once: &'a str,
        twice: &'a str,
        header: &'a str,
    },
    /// One parameter, encoded as it is written; `clean` when neither name
    /// nor value needs an escape, so that it is copied.
    Param {
        name: &'a str,
        value: &'a str,
        clean: bool,
    },
    /// Where `oauth_signature` goes: in the header, never in a base string.
    Signature,
}

impl Piece<'_> {
    /// Writes the piece's `name=value` pairs, encoded once more if `twice`.
    fn write_into<S: Sink + ?Sized>(&self, w: &mut Writer<'_, S>, twice: bool) {
        match *self {
            Piece::Encoded { once, twice: t, .. } => w.put(if twice { t } else { once }.as_bytes()),
            Piece::Param {
                name,
                value,
                clean: true,
            } => {
                w.put(name.as_bytes());
                w.put(if twice { b"%3D" } else { b"=" });
                w.put(value.as_bytes());
            }
            Piece::Param { name, value, .. } => {
                write_pair(w, name.as_bytes(), value.as_bytes(), twice)
            }
            Piece::Signature => {}
        }
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
    protocol: Option<(usize, &'p [Piece<'a>])>,
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
    pub(crate) fn with_protocol(items: &'p [Param<'a>], protocol: &'p [Piece<'a>]) -> Self {
        let at = items.partition_point(|p| p.cmp_name(b"oauth_").is_lt());
        Normalized {
            items,
            protocol: Some((at, protocol)),
        }
    }

    /// Writes the parameter string, encoded once more if `twice`.
    pub(crate) fn write_into<S: Sink + ?Sized>(&self, w: &mut Writer<'_, S>, twice: bool) {
        let amp: &[u8] = if twice { b"%26" } else { b"&" };
        let eq: &[u8] = if twice { b"%3D" } else { b"=" };
        let (at, protocol) = self.protocol.unwrap_or((usize::MAX, &[]));
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
        for p in protocol {
            if !matches!(p, Piece::Signature) {
                sep(w);
                p.write_into(w, twice);
            }
        }
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
    use crate::encode::percent_encode;

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
