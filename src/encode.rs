//! Strict percent-encoding and strict decoding ([RFC 5849 §3.6]).
//!
//! Encoding copies the unreserved bytes `A-Z a-z 0-9 - . _ ~` ([RFC 3986 §2.3])
//! and writes every other byte of the input as `%XX` with upper-case hex:
//! `! * ' ( )` too, a space as `%20` (never `+`), and each byte of a non-ASCII
//! character's UTF-8 form. Decoding turns `%XX` (either case) back into the byte
//! and refuses a `%` that is not followed by two hex digits, naming its offset.
//! Decoded values are bytes: `%FF` is a valid value even though it is not UTF-8.
//!
//! [RFC 5849 §3.6]: https://www.rfc-editor.org/rfc/rfc5849#section-3.6
//! [RFC 3986 §2.3]: https://www.rfc-editor.org/rfc/rfc3986#section-2.3

use std::borrow::Cow;
use std::fmt;

use crate::error::{Error, Part};
use crate::sink::{Sink, Writer, WriterBuf, WRITER_CAP};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Whether RFC 3986 lets `byte` stand for itself: `A-Z a-z 0-9 - . _ ~`.
#[inline]
pub const fn is_unreserved(byte: u8) -> bool {
    UNRESERVED[byte as usize]
}

/// [`is_unreserved`] of every byte: one load, where the ranges take several
/// compares.
const UNRESERVED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] =
            matches!(b as u8, b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~');
        b += 1;
    }
    t
};

/// One table entry: up to seven output bytes, little-endian, with their count in
/// the top byte. The encoder writes all eight bytes and advances by the count, so
/// the inner loop has no branch on the input.
const fn entry(bytes: &[u8]) -> u64 {
    let mut e = 0u64;
    let mut i = 0;
    while i < bytes.len() {
        e |= (bytes[i] as u64) << (8 * i);
        i += 1;
    }
    e | ((bytes.len() as u64) << 56)
}

/// `b` once encoded: itself, or `%XX`.
const ONCE: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        t[b] = if is_unreserved(byte) {
            entry(&[byte])
        } else {
            entry(&[b'%', HEX[b >> 4], HEX[b & 15]])
        };
        b += 1;
    }
    t
};

/// `b` encoded twice, as the normalised parameters appear inside the base
/// string: itself, or `%25XX`.
const TWICE: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        t[b] = if is_unreserved(byte) {
            entry(&[byte])
        } else {
            entry(&[b'%', b'2', b'5', HEX[b >> 4], HEX[b & 15]])
        };
        b += 1;
    }
    t
};

/// How many input bytes the encoder handles per window of the [`Writer`].
const CHUNK: usize = 64;

/// The longest entry of [`ONCE`] and of [`TWICE`]: the room one input byte
/// may need. (Stores run up to 16 bytes past the room, into the writer's slack.)
const ONCE_MAX: usize = 3;
const TWICE_MAX: usize = 5;

const LANES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Per byte of `v` (each below 0x80), the high bit is set where the byte is
/// at least `c`: adding `0x80 - c` carries into that bit and never further.
#[inline(always)]
const fn at_least(v: u64, c: u8) -> u64 {
    v + (0x80 - c as u64) * LANES
}

/// The high bit of each byte of `w` (eight input bytes, little-endian) set
/// where that byte is unreserved: [`is_unreserved`] eight at a time.
#[inline(always)]
const fn unreserved_lanes(w: u64) -> u64 {
    let v = w & !HIGH;
    let folded = v | (0x20 * LANES); // A-Z onto a-z
    let letters = at_least(folded, b'a') & !at_least(folded, b'z' + 1);
    let digits = at_least(v, b'0') & !at_least(v, b'9' + 1);
    let dash_dot = at_least(v, b'-') & !at_least(v, b'.' + 1);
    let underscore = at_least(v, b'_') & !at_least(v, b'_' + 1);
    let tilde = at_least(v, b'~') & !at_least(v, b'~' + 1);
    (letters | digits | dash_dot | underscore | tilde) & !w & HIGH
}

/// Whether a whole block needs no escape (identifiers, tokens, nonces).
#[inline(always)]
fn all_unreserved(block: &[u8; 16]) -> bool {
    let (lo, hi) = block.split_at(8);
    let lo = u64::from_le_bytes(lo.try_into().unwrap_or([0; 8]));
    let hi = u64::from_le_bytes(hi.try_into().unwrap_or([0; 8]));
    // Cheap tests first: non-ASCII text fails on its first byte, and prose on
    // its spaces and punctuation (every byte below '-' is reserved).
    (lo | hi) & HIGH == 0
        && at_least(lo, b'-') & at_least(hi, b'-') & HIGH == HIGH
        && unreserved_lanes(lo) == HIGH
        && unreserved_lanes(hi) == HIGH
}

/// Stores one table entry at `pos` and returns the position after it.
///
/// `pos` is below [`WRITER_CAP`] whenever the writer's contract is kept;
/// masking it lets the compiler see that the store is in bounds.
#[inline(always)]
fn put_entry(buf: &mut WriterBuf, pos: usize, e: u64) -> usize {
    let p = pos % WRITER_CAP;
    buf[p..p + 8].copy_from_slice(&e.to_le_bytes());
    // Not `p + ...`: the mask stays off the loop-carried chain.
    pos + (e >> 56) as usize
}

/// Encodes at most [`CHUNK`] bytes into `buf` at `pos`, which has room for
/// the longest encoding of each; returns the position after them.
#[inline(always)]
fn encode_chunk(chunk: &[u8], table: &[u64; 256], buf: &mut WriterBuf, mut pos: usize) -> usize {
    let (blocks, rest) = chunk.as_chunks::<16>();
    for block in blocks {
        if all_unreserved(block) {
            let p = pos % WRITER_CAP;
            buf[p..p + 16].copy_from_slice(block);
            pos += 16;
        } else {
            for &b in block {
                pos = put_entry(buf, pos, table[b as usize]);
            }
        }
    }
    for &b in rest {
        pos = put_entry(buf, pos, table[b as usize]);
    }
    pos
}

/// Encodes `input` through `table` into the writer.
#[inline]
fn encode_with<S: Sink + ?Sized>(
    input: &[u8],
    table: &[u64; 256],
    max: usize,
    w: &mut Writer<'_, S>,
) {
    for chunk in input.chunks(CHUNK) {
        let (buf, pos) = w.window(chunk.len() * max);
        let end = encode_chunk(chunk, table, buf, pos);
        w.set_len(end);
    }
}

/// `table` for form-encoded text: a `+` is a space. (A `%` is decoded with
/// the two digits after it before it gets here.)
const fn form_table(table: &[u64; 256]) -> [u64; 256] {
    let mut t = *table;
    t[b'+' as usize] = table[b' ' as usize];
    t
}
const FORM_ONCE: [u64; 256] = form_table(&ONCE);
const FORM_TWICE: [u64; 256] = form_table(&TWICE);

/// Decodes form-encoded `input` (checked by [`check_escapes`]) and encodes the
/// bytes once, or twice if `DOUBLE`, into the writer, in one pass: a table
/// load per byte, an escape's two digits decoded first.
#[inline]
fn transcode_with<const DOUBLE: bool, S: Sink + ?Sized>(input: &[u8], w: &mut Writer<'_, S>) {
    let (form, table, max) = if DOUBLE {
        (&FORM_TWICE, &TWICE, TWICE_MAX)
    } else {
        (&FORM_ONCE, &ONCE, ONCE_MAX)
    };
    let mut i = 0;
    while i < input.len() {
        // At most CHUNK input bytes, each writing at most `max` bytes.
        let end = input.len().min(i + CHUNK);
        let (buf, mut pos) = w.window((end - i) * max);
        while i < end {
            let b = input[i];
            let mut e = form[b as usize];
            i += 1;
            if b == b'%' {
                if let Some(&[h, l]) = input.get(i..i + 2) {
                    let (h, l) = (HEX_VALUE[h as usize], HEX_VALUE[l as usize]);
                    if (h | l) < 16 {
                        e = table[(h << 4 | l) as usize];
                        i += 2;
                    }
                }
            }
            pos = put_entry(buf, pos, e);
        }
        w.set_len(pos);
    }
}

/// Writes the strict percent-encoding of `input` into the writer.
#[inline]
pub(crate) fn encode_into<S: Sink + ?Sized>(input: &[u8], w: &mut Writer<'_, S>) {
    encode_with(input, &ONCE, ONCE_MAX, w);
}

/// Writes the encoding of the encoding of `input` into the writer.
#[inline]
pub(crate) fn encode_twice_into<S: Sink + ?Sized>(input: &[u8], w: &mut Writer<'_, S>) {
    encode_with(input, &TWICE, TWICE_MAX, w);
}

/// Writes the encoding of form-encoded `input`, once decoded, into the writer.
#[inline]
pub(crate) fn transcode_form_into<S: Sink + ?Sized>(input: &[u8], w: &mut Writer<'_, S>) {
    transcode_with::<false, S>(input, w);
}

/// [`transcode_form_into`], encoded once more.
#[inline]
pub(crate) fn transcode_form_twice_into<S: Sink + ?Sized>(input: &[u8], w: &mut Writer<'_, S>) {
    transcode_with::<true, S>(input, w);
}

/// Writes the strict percent-encoding of `input` into `sink`.
#[inline]
pub(crate) fn encode_to<S: Sink + ?Sized>(input: &[u8], sink: &mut S) {
    let mut w = Writer::new(sink);
    encode_into(input, &mut w);
    w.finish();
}

/// Writes the percent-encoding of the percent-encoding of `input` into `sink`.
pub(crate) fn encode_twice_to<S: Sink + ?Sized>(input: &[u8], sink: &mut S) {
    let mut w = Writer::new(sink);
    encode_twice_into(input, &mut w);
    w.finish();
}

/// Whether `input` needs no escape at all, so that it can be copied as it is.
#[inline]
pub(crate) fn is_clean(input: &[u8]) -> bool {
    let (words, rest) = input.as_chunks::<8>();
    words
        .iter()
        .all(|w| unreserved_lanes(u64::from_le_bytes(*w)) == HIGH)
        && rest.iter().all(|&b| is_unreserved(b))
}

/// Number of bytes the strict encoding of `input` takes.
pub fn encoded_len(input: &[u8]) -> usize {
    input
        .iter()
        .map(|&b| (ONCE[b as usize] >> 56) as usize)
        .sum()
}

/// Percent-encodes `input` as RFC 5849 §3.6 requires.
///
/// The result is lazy: it allocates nothing until it is written somewhere. It
/// is a [`Display`](fmt::Display), an [`Iterator`] over `&str` pieces, converts
/// into a `Cow<str>` that borrows when nothing needed encoding, and can be
/// written into any [`Sink`] with [`PercentEncode::write_to`].
///
/// ```
/// use oauth1_signer::percent_encode;
///
/// assert_eq!(
///     percent_encode("Ladies + Gentlemen".as_bytes()).to_string(),
///     "Ladies%20%2B%20Gentlemen"
/// );
/// assert_eq!(percent_encode(b"(!*')").to_string(), "%28%21%2A%27%29");
/// assert_eq!(percent_encode("☃".as_bytes()).to_string(), "%E2%98%83");
/// ```
#[inline]
pub fn percent_encode(input: &[u8]) -> PercentEncode<'_> {
    PercentEncode { rest: input }
}

/// [`percent_encode`] of the UTF-8 bytes of a `str`.
///
/// ```
/// use std::borrow::Cow;
/// use oauth1_signer::percent_encode_str;
///
/// let same: Cow<str> = percent_encode_str("no-escapes_needed.~").into();
/// assert!(matches!(same, Cow::Borrowed(_)));
/// assert_eq!(percent_encode_str("a b").to_string(), "a%20b");
/// ```
#[inline]
pub fn percent_encode_str(input: &str) -> PercentEncode<'_> {
    percent_encode(input.as_bytes())
}

/// The lazy result of [`percent_encode`].
#[derive(Clone, Debug)]
pub struct PercentEncode<'a> {
    rest: &'a [u8],
}

impl PercentEncode<'_> {
    /// Writes the encoding into `sink`, without allocating.
    ///
    /// ```
    /// use oauth1_signer::percent_encode;
    ///
    /// let mut out = Vec::new();
    /// percent_encode(b"a=b&c").write_to(&mut out);
    /// assert_eq!(out, b"a%3Db%26c");
    /// ```
    #[inline]
    pub fn write_to<S: Sink + ?Sized>(&self, sink: &mut S) {
        encode_to(self.rest, sink);
    }

    /// Number of bytes the encoding takes.
    pub fn len(&self) -> usize {
        encoded_len(self.rest)
    }

    /// Whether the encoding is empty (the input was empty).
    pub fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }
}

impl<'a> Iterator for PercentEncode<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let (&first, tail) = self.rest.split_first()?;
        if is_unreserved(first) {
            let run = self
                .rest
                .iter()
                .position(|&b| !is_unreserved(b))
                .unwrap_or(self.rest.len());
            let (head, tail) = self.rest.split_at(run);
            self.rest = tail;
            // Unreserved bytes are ASCII, so this never fails.
            std::str::from_utf8(head).ok()
        } else {
            self.rest = tail;
            Some(escape_str(first))
        }
    }
}

/// `%XX` for one byte, from a static table so the iterator can hand out `&str`.
pub(crate) fn escape_str(byte: u8) -> &'static str {
    const ALL: &str = concat!(
        "%00%01%02%03%04%05%06%07%08%09%0A%0B%0C%0D%0E%0F",
        "%10%11%12%13%14%15%16%17%18%19%1A%1B%1C%1D%1E%1F",
        "%20%21%22%23%24%25%26%27%28%29%2A%2B%2C%2D%2E%2F",
        "%30%31%32%33%34%35%36%37%38%39%3A%3B%3C%3D%3E%3F",
        "%40%41%42%43%44%45%46%47%48%49%4A%4B%4C%4D%4E%4F",
        "%50%51%52%53%54%55%56%57%58%59%5A%5B%5C%5D%5E%5F",
        "%60%61%62%63%64%65%66%67%68%69%6A%6B%6C%6D%6E%6F",
        "%70%71%72%73%74%75%76%77%78%79%7A%7B%7C%7D%7E%7F",
        "%80%81%82%83%84%85%86%87%88%89%8A%8B%8C%8D%8E%8F",
        "%90%91%92%93%94%95%96%97%98%99%9A%9B%9C%9D%9E%9F",
        "%A0%A1%A2%A3%A4%A5%A6%A7%A8%A9%AA%AB%AC%AD%AE%AF",
        "%B0%B1%B2%B3%B4%B5%B6%B7%B8%B9%BA%BB%BC%BD%BE%BF",
        "%C0%C1%C2%C3%C4%C5%C6%C7%C8%C9%CA%CB%CC%CD%CE%CF",
        "%D0%D1%D2%D3%D4%D5%D6%D7%D8%D9%DA%DB%DC%DD%DE%DF",
        "%E0%E1%E2%E3%E4%E5%E6%E7%E8%E9%EA%EB%EC%ED%EE%EF",
        "%F0%F1%F2%F3%F4%F5%F6%F7%F8%F9%FA%FB%FC%FD%FE%FF",
    );
    let i = byte as usize * 3;
    &ALL[i..i + 3]
}

impl fmt::Display for PercentEncode<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for piece in self.clone() {
            f.write_str(piece)?;
        }
        Ok(())
    }
}

impl<'a> From<PercentEncode<'a>> for Cow<'a, str> {
    fn from(enc: PercentEncode<'a>) -> Cow<'a, str> {
        if enc.rest.iter().all(|&b| is_unreserved(b)) {
            if let Ok(s) = std::str::from_utf8(enc.rest) {
                return Cow::Borrowed(s);
            }
        }
        let mut out = String::with_capacity(enc.len());
        enc.write_to(&mut out);
        Cow::Owned(out)
    }
}

/// The value of each hex digit; 16 for every other byte.
const HEX_VALUE: [u8; 256] = {
    let mut t = [16u8; 256];
    let mut b = 0;
    while b < 256 {
        if let Some(v) = hex_value(b as u8) {
            t[b] = v;
        }
        b += 1;
    }
    t
};

#[inline]
const fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// Whether `b` is a hex digit, as arithmetic the compiler can vectorise.
#[inline(always)]
pub(crate) fn is_hex(b: u8) -> bool {
    (b.wrapping_sub(b'0') < 10) | ((b | 0x20).wrapping_sub(b'a') < 6)
}

/// Whether every `%` in `input` is followed by two hex digits: each `%` is
/// found eight bytes at a time and its two digits looked at.
#[inline]
pub(crate) fn escapes_complete(input: &[u8]) -> bool {
    let mut rest = input;
    while let Some(at) = find_byte(rest, b'%') {
        rest = &rest[at..];
        // A run of escapes (non-Latin text is nothing else) in a tight loop.
        while let [b'%', h, l, tail @ ..] = rest {
            if (HEX_VALUE[*h as usize] | HEX_VALUE[*l as usize]) >= 16 {
                return false;
            }
            rest = tail;
        }
        if rest.first() == Some(&b'%') {
            return false;
        }
    }
    true
}

/// [`escapes_complete`] in one branch-free pass that compiles to vector code:
/// faster on long text full of escapes.
pub(crate) fn escapes_complete_wide(input: &[u8]) -> bool {
    let mut bad = 0u8;
    let (first, second, third) = match input {
        [_, tail @ ..] => (input, tail, tail.get(1..).unwrap_or_default()),
        [] => (input, input, input),
    };
    for ((&a, &b), &c) in first.iter().zip(second).zip(third) {
        bad |= u8::from(a == b'%') & u8::from(!(is_hex(b) & is_hex(c)));
    }
    // The last two bytes start no complete escape.
    for &a in &input[input.len().saturating_sub(2)..] {
        bad |= u8::from(a == b'%');
    }
    bad == 0
}

/// Checks every `%` in `input` and says whether decoding would change anything.
///
/// `base` is added to offsets in errors, so that an error inside a URL's query
/// names its byte offset within the whole URL.
pub(crate) fn check_escapes(
    input: &[u8],
    form: bool,
    part: Part,
    base: usize,
) -> Result<bool, Error> {
    // Most names, values and paths hold no `%` at all.
    let Some(first) = find_byte(input, b'%') else {
        return Ok(form && find_byte(input, b'+').is_some());
    };
    let rest = &input[first..];
    let complete = if rest.len() >= 64 {
        escapes_complete_wide(rest)
    } else {
        escapes_complete(rest)
    };
    if complete {
        Ok(true)
    } else {
        check_escapes_slow(input, form, part, base)
    }
}

/// Whether form-encoded `input`, already checked, would change once decoded.
#[inline]
pub(crate) fn has_escapes(input: &[u8], form: bool) -> bool {
    let plus = if form { b'+' } else { b'%' };
    let (words, rest) = input.as_chunks::<8>();
    words.iter().any(|w| {
        let w = u64::from_le_bytes(*w);
        eq_lanes(w, b'%') | eq_lanes(w, plus) != 0
    }) || rest.iter().any(|&b| b == b'%' || b == plus)
}

/// The high bit of each byte of `w` set where that byte is `needle`: exact
/// for the lowest match (a borrow only ever runs upward, past a real match).
#[inline(always)]
const fn eq_lanes(w: u64, needle: u8) -> u64 {
    let x = w ^ (needle as u64 * LANES);
    x.wrapping_sub(LANES) & !x & HIGH
}

/// The first index of `a` or `b` in `haystack`, eight bytes at a time.
#[inline]
pub(crate) fn find_either(haystack: &[u8], a: u8, b: u8) -> Option<usize> {
    let (words, rest) = haystack.as_chunks::<8>();
    for (i, word) in words.iter().enumerate() {
        let w = u64::from_le_bytes(*word);
        let found = eq_lanes(w, a) | eq_lanes(w, b);
        if found != 0 {
            return Some(i * 8 + found.trailing_zeros() as usize / 8);
        }
    }
    rest.iter()
        .position(|&x| x == a || x == b)
        .map(|j| words.len() * 8 + j)
}

/// The first index of `needle` in `haystack`, eight bytes at a time.
#[inline]
pub(crate) fn find_byte(haystack: &[u8], needle: u8) -> Option<usize> {
    let (words, rest) = haystack.as_chunks::<8>();
    for (i, word) in words.iter().enumerate() {
        let found = eq_lanes(u64::from_le_bytes(*word), needle);
        if found != 0 {
            return Some(i * 8 + found.trailing_zeros() as usize / 8);
        }
    }
    rest.iter()
        .position(|&b| b == needle)
        .map(|j| words.len() * 8 + j)
}

#[cold]
fn check_escapes_slow(input: &[u8], form: bool, part: Part, base: usize) -> Result<bool, Error> {
    let mut changes = false;
    let mut i = 0;
    while i < input.len() {
        match input[i] {
            b'%' => {
                let ok = matches!(
                    (input.get(i + 1), input.get(i + 2)),
                    (Some(&h), Some(&l)) if hex_value(h).is_some() && hex_value(l).is_some()
                );
                if !ok {
                    return Err(Error::malformed_escape(part, input, i).shifted(base));
                }
                changes = true;
                i += 3;
            }
            b'+' if form => {
                changes = true;
                i += 1;
            }
            _ => i += 1,
        }
    }
    Ok(changes)
}

/// The bytes of an already-checked encoded string, decoded one at a time.
#[derive(Clone, Debug)]
pub(crate) struct DecodeBytes<'a> {
    rest: &'a [u8],
    form: bool,
}

impl<'a> DecodeBytes<'a> {
    /// `input` must have passed [`check_escapes`]; a malformed escape that slips
    /// through decodes to its `%` rather than panicking.
    pub(crate) fn new(input: &'a [u8], form: bool) -> Self {
        DecodeBytes { rest: input, form }
    }
}

impl Iterator for DecodeBytes<'_> {
    type Item = u8;

    #[inline]
    fn next(&mut self) -> Option<u8> {
        let (&b, tail) = self.rest.split_first()?;
        match b {
            b'%' => {
                if let [h, l, tail @ ..] = tail {
                    if let (Some(h), Some(l)) = (hex_value(*h), hex_value(*l)) {
                        self.rest = tail;
                        return Some(h << 4 | l);
                    }
                }
                self.rest = tail;
                Some(b'%')
            }
            b'+' if self.form => {
                self.rest = tail;
                Some(b' ')
            }
            _ => {
                self.rest = tail;
                Some(b)
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.rest.len().div_ceil(3), Some(self.rest.len()))
    }
}

/// The result of strict decoding: bytes, which may or may not be UTF-8 text.
#[derive(Clone, PartialEq, Eq)]
pub struct Decoded<'a> {
    bytes: Cow<'a, [u8]>,
}

impl<'a> Decoded<'a> {
    /// The decoded bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The decoded bytes as text, if they are valid UTF-8.
    pub fn to_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.bytes).ok()
    }

    /// Whether the decoded bytes are valid UTF-8 (overlong forms, surrogates,
    /// truncated sequences and stray continuation bytes are not).
    pub fn is_text(&self) -> bool {
        self.to_str().is_some()
    }

    /// The decoded bytes, borrowed from the input when nothing needed decoding.
    pub fn into_bytes(self) -> Cow<'a, [u8]> {
        self.bytes
    }
}

impl fmt::Debug for Decoded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_str() {
            Some(s) => f.debug_tuple("Text").field(&s).finish(),
            None => f
                .debug_tuple("Binary")
                .field(&format_args!("{}", self.bytes.escape_ascii()))
                .finish(),
        }
    }
}

fn decode(input: &[u8], form: bool) -> Result<Decoded<'_>, Error> {
    let bytes = if check_escapes(input, form, Part::Input, 0)? {
        Cow::Owned(decode_checked(input, form))
    } else {
        Cow::Borrowed(input)
    };
    Ok(Decoded { bytes })
}

/// Decodes `input`, which has passed [`check_escapes`]: runs without escapes
/// are copied whole, found eight bytes at a time.
fn decode_checked(input: &[u8], form: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut rest = input;
    loop {
        let next = if form {
            find_either(rest, b'%', b'+')
        } else {
            find_byte(rest, b'%')
        };
        let Some(at) = next else {
            out.extend_from_slice(rest);
            return out;
        };
        out.extend_from_slice(&rest[..at]);
        rest = &rest[at..];
        // A run of escapes (non-Latin text is nothing else) in a tight loop.
        while let [b'%', h, l, tail @ ..] = rest {
            let (h, l) = (HEX_VALUE[*h as usize], HEX_VALUE[*l as usize]);
            if (h | l) >= 16 {
                break;
            }
            out.push(h << 4 | l);
            rest = tail;
        }
        // A '+' (form), or a '%' that slipped past the check (kept as it is).
        if let [b, tail @ ..] = rest {
            if *b == b'+' || *b == b'%' {
                out.push(if *b == b'+' && form { b' ' } else { *b });
                rest = tail;
            }
        }
    }
}

/// Strictly decodes percent-escapes; a `+` stays a `+` (RFC 3986 plain mode).
///
/// Use this for values that are percent-encoded but not form-encoded, such as
/// the quoted values of an `Authorization` header.
///
/// ```
/// use oauth1_signer::percent_decode;
///
/// assert_eq!(percent_decode(b"a+b%2bc%2Bd").unwrap().to_str(), Some("a+b+c+d"));
/// assert_eq!(percent_decode(b"%FF").unwrap().as_bytes(), &[0xFF]);
/// let err = percent_decode(b"abc%2Gdef").unwrap_err();
/// assert_eq!(err.offset().map(|(_, at)| at), Some(3));
/// ```
///
/// # Errors
/// A `%` not followed by two hex digits: [`ErrorKind::MalformedEscape`](crate::ErrorKind::MalformedEscape)
/// with the offset of the `%`.
pub fn percent_decode(input: &[u8]) -> Result<Decoded<'_>, Error> {
    decode(input, false)
}

/// Strictly decodes `application/x-www-form-urlencoded` text: a `+` is a space.
///
/// This is how query strings and form bodies are read before signing.
///
/// ```
/// use oauth1_signer::form_decode;
///
/// assert_eq!(form_decode(b"x+y%21").unwrap().to_str(), Some("x y!"));
/// assert!(form_decode(b"100%").is_err());
/// ```
///
/// # Errors
/// A `%` not followed by two hex digits: [`ErrorKind::MalformedEscape`](crate::ErrorKind::MalformedEscape)
/// with the offset of the `%`.
pub fn form_decode(input: &[u8]) -> Result<Decoded<'_>, Error> {
    decode(input, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Straight from RFC 3986 §2.3: `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`.
    fn oracle(b: u8) -> String {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            (b as char).to_string()
        } else {
            format!("%{b:02X}")
        }
    }

    #[test]
    fn every_byte_matches_the_rfc_grammar() {
        for b in 0..=255u8 {
            let want = oracle(b);
            assert_eq!(percent_encode(&[b]).to_string(), want, "byte {b:#04x}");
            let mut v = Vec::new();
            encode_to(&[b], &mut v);
            assert_eq!(v, want.as_bytes(), "byte {b:#04x} via sink");
            let mut twice = Vec::new();
            encode_twice_to(&[b], &mut twice);
            assert_eq!(
                twice,
                percent_encode(want.as_bytes()).to_string().as_bytes()
            );
            assert_eq!(encoded_len(&[b]), want.len());
        }
    }

    #[test]
    fn word_at_a_time_class_matches_the_byte_class() {
        for b in 0..=255u8 {
            assert_eq!(is_hex(b), hex_value(b).is_some(), "{b:#04x}");
            for lane in 0..8 {
                // The byte in one lane, among unreserved and reserved neighbours.
                for fill in [b'a', b'%', 0x80, 0xFF, b'~'] {
                    let mut word = [fill; 8];
                    word[lane] = b;
                    let lanes = unreserved_lanes(u64::from_le_bytes(word));
                    for (i, &x) in word.iter().enumerate() {
                        assert_eq!(
                            lanes >> (8 * i + 7) & 1 == 1,
                            is_unreserved(x),
                            "{word:?} lane {i}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn word_at_a_time_search_finds_the_first_match() {
        // Matches and near-misses (a borrow from 0x00 into 0x01) in every lane.
        for len in 0..20 {
            for at in 0..len {
                for other in [0x00u8, 0x01, b'&' + 1, 0x80, 0xFF] {
                    let mut h = vec![other; len];
                    h[at] = b'&';
                    if at + 1 < len {
                        h[at + 1] = b'#';
                    }
                    let want = h.iter().position(|&b| b == b'&');
                    assert_eq!(find_byte(&h, b'&'), want, "{h:?}");
                    let either = h.iter().position(|&b| b == b'&' || b == b'#');
                    assert_eq!(find_either(&h, b'#', b'&'), either, "{h:?}");
                    assert_eq!(
                        has_escapes(&h, true),
                        h.iter().any(|&b| b == b'%' || b == b'+')
                    );
                }
            }
            assert_eq!(find_byte(&vec![b'x'; len], b'&'), None);
        }
    }

    #[test]
    fn escape_scan_agrees_with_the_sequential_check() {
        let pieces: [&[u8]; 8] = [b"%", b"4", b"1", b"g", b"+", b"a", b"%%", b"F"];
        // Every string of up to five pieces.
        let mut stack = vec![Vec::new()];
        while let Some(s) = stack.pop() {
            for form in [false, true] {
                let slow = check_escapes_slow(&s, form, Part::Input, 0);
                let fast = check_escapes(&s, form, Part::Input, 0);
                assert_eq!(fast, slow, "{:?}", s.escape_ascii().to_string());
                assert_eq!(escapes_complete(&s), slow.is_ok());
                assert_eq!(escapes_complete_wide(&s), slow.is_ok());
                if let Ok(changes) = slow {
                    assert_eq!(has_escapes(&s, form), changes);
                }
            }
            if s.len() < 6 {
                for p in pieces {
                    stack.push([&s[..], p].concat());
                }
            }
        }
    }

    #[test]
    fn transcoding_is_decoding_then_encoding() {
        let long = "%E0%A4%A8%E0%A4%AE+x%e0%a4%F0%9F%98%80%41%42%43%20%7E".repeat(9);
        for input in [
            &b"a+b%41%2f%2F%zz%"[..],
            b"%E2%98%83+%7e",
            b"+",
            b"%4",
            b"plain",
            long.as_bytes(),
        ] {
            let decoded: Vec<u8> = DecodeBytes::new(input, true).collect();
            for (twice, want) in [
                (false, percent_encode(&decoded).to_string()),
                (true, {
                    let once = percent_encode(&decoded).to_string();
                    percent_encode(once.as_bytes()).to_string()
                }),
            ] {
                let mut got = String::new();
                let mut w = Writer::new(&mut got);
                if twice {
                    transcode_form_twice_into(input, &mut w);
                } else {
                    transcode_form_into(input, &mut w);
                }
                w.finish();
                assert_eq!(got, want, "{:?}", input.escape_ascii().to_string());
            }
        }
    }

    #[test]
    fn long_input_crosses_blocks() {
        let input: Vec<u8> = (0..1000u32).map(|i| (i % 256) as u8).collect();
        let want: String = input.iter().map(|&b| oracle(b)).collect();
        let mut got = String::new();
        percent_encode(&input).write_to(&mut got);
        assert_eq!(got, want);
        assert_eq!(percent_encode(&input).to_string(), want);
        assert_eq!(percent_encode(&input).len(), want.len());
    }

    #[test]
    fn fast_decoding_agrees_with_the_byte_iterator() {
        let long = "%E0%A4%A8+a%20b%2b%%41".repeat(20);
        for input in [
            &b""[..],
            b"+",
            b"%41",
            b"a+b%2Bc",
            b"%",
            b"%4",
            b"%%41",
            b"ab%zz+",
            long.as_bytes(),
        ] {
            for form in [false, true] {
                let want: Vec<u8> = DecodeBytes::new(input, form).collect();
                assert_eq!(
                    decode_checked(input, form),
                    want,
                    "{:?} {form}",
                    input.escape_ascii().to_string()
                );
            }
        }
    }

    #[test]
    fn decode_accepts_either_hex_case() {
        assert_eq!(percent_decode(b"%2b%2B").unwrap().as_bytes(), b"++");
    }

    #[test]
    fn decode_rejects_bad_escapes_with_offsets() {
        for (input, at, found) in [
            (&b"%2G"[..], 0, "%2G"),
            (b"ab%4", 2, "%4"),
            (b"abc%", 3, "%"),
            (b"%%41", 0, "%%4"),
            (b"ok%41%g1", 5, "%g1"),
        ] {
            let err = form_decode(input).unwrap_err();
            assert_eq!(
                err.kind(),
                &crate::ErrorKind::MalformedEscape {
                    part: Part::Input,
                    offset: at,
                    found: found.into()
                },
                "{input:?}"
            );
        }
    }

    #[test]
    fn decode_borrows_when_nothing_changes() {
        assert!(matches!(
            form_decode(b"plain").unwrap().into_bytes(),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            percent_decode(b"a+b").unwrap().into_bytes(),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            form_decode(b"a+b").unwrap().into_bytes(),
            Cow::Owned(_)
        ));
    }

    #[test]
    fn binary_is_not_text() {
        let d = percent_decode(b"%C0%AF").unwrap(); // overlong '/'
        assert!(!d.is_text());
        let d = percent_decode(b"%ED%A0%80").unwrap(); // surrogate
        assert!(!d.is_text());
        assert!(percent_decode(b"%E2%98%83").unwrap().is_text());
    }
}
