//! Strict percent-encoding ([RFC 5849 §3.6]).
//!
//! Encoding copies the unreserved bytes `A-Z a-z 0-9 - . _ ~` ([RFC 3986 §2.3])
//! and writes every other byte of the input as `%XX` with upper-case hex:
//! `! * ' ( )` too, a space as `%20` (never `+`), and each byte of a non-ASCII
//! character's UTF-8 form.
//!
//! The base string holds the normalised parameters encoded twice, and form
//! text (a query, a body) arrives encoded once already: the writers here
//! encode once or twice, and transcode form text (decode, then encode) in one
//! pass, so no stage ever builds an intermediate string.
//!
//! [RFC 5849 §3.6]: https://www.rfc-editor.org/rfc/rfc5849#section-3.6
//! [RFC 3986 §2.3]: https://www.rfc-editor.org/rfc/rfc3986#section-2.3

use std::borrow::Cow;
use std::fmt;

use crate::text::scan::{all_unreserved, is_unreserved, unreserved_prefix, HEX_VALUE};
use crate::text::sink::{Sink, Writer, WriterBuf, WRITER_CAP};

const HEX: &[u8; 16] = b"0123456789ABCDEF";

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
            if b == b'%'
                && let Some(&[h, l]) = input.get(i..i + 2)
            {
                let (h, l) = (HEX_VALUE[h as usize], HEX_VALUE[l as usize]);
                if (h | l) < 16 {
                    e = table[(h << 4 | l) as usize];
                    i += 2;
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

/// Writes the strict percent-encoding of `text` into `sink` a piece at a
/// time: each run of unreserved bytes as a slice of it, each other byte as
/// its escape. For short texts that are mostly unreserved (a signature, a
/// header's values), where [`Writer`]'s buffer costs more than it saves and
/// a `String` sink takes the pieces without checking their UTF-8 again.
#[inline]
pub(crate) fn encode_str_to<S: Sink + ?Sized>(text: &str, sink: &mut S) {
    let bytes = text.as_bytes();
    let mut run = 0;
    loop {
        let end = run + unreserved_prefix(&bytes[run..]);
        // A run holds unreserved (ASCII) bytes only, so it is whole text.
        sink.put_str(text.get(run..end).unwrap_or_default());
        let Some(&b) = bytes.get(end) else {
            return;
        };
        sink.put_str(escape_str(b));
        run = end + 1;
    }
}

/// Writes the percent-encoding of the percent-encoding of `input` into `sink`.
#[cfg(test)]
fn encode_twice_to<S: Sink + ?Sized>(input: &[u8], sink: &mut S) {
    let mut w = Writer::new(sink);
    encode_twice_into(input, &mut w);
    w.finish();
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
/// use oauth1_signer::text::percent_encode;
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
/// use oauth1_signer::text::percent_encode_str;
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
    /// use oauth1_signer::text::percent_encode;
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
            let run = unreserved_prefix(self.rest);
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
        if enc.rest.iter().all(|&b| is_unreserved(b))
            && let Ok(s) = std::str::from_utf8(enc.rest)
        {
            return Cow::Borrowed(s);
        }
        let mut out = String::with_capacity(enc.len());
        enc.write_to(&mut out);
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::decode::DecodeBytes;

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
        // Every character of a text, one at a time and in runs, written in
        // pieces into a `String` and counted.
        let text: String = (0..=0x7f_u8)
            .map(char::from)
            .chain(['é', '☃', '😀'])
            .collect();
        let want: String = text.bytes().map(oracle).collect();
        for piece in [&text[..], "abc~", "", "a b", "%", "x-._~y"] {
            let want: String = piece.bytes().map(oracle).collect();
            let mut out = String::new();
            encode_str_to(piece, &mut out);
            assert_eq!(out, want, "{piece:?}");
            let mut count = crate::text::sink::Count(0);
            encode_str_to(piece, &mut count);
            assert_eq!(count.0, want.len(), "{piece:?}");
        }
        assert_eq!(want.len(), encoded_len(text.as_bytes()));
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
    fn length_and_emptiness_count_the_encoded_bytes() {
        assert!(percent_encode(b"").is_empty());
        assert_eq!(percent_encode(b"").len(), 0);
        assert_eq!(percent_encode(b"").to_string(), "");
        // One unreserved byte stays one byte; a reserved one becomes three.
        for (input, len) in [(&b"a"[..], 1), (b" ", 3), (b"\0", 3), (b"a b~", 6)] {
            let enc = percent_encode(input);
            assert!(!enc.is_empty(), "{input:?}");
            assert_eq!(enc.len(), len, "{input:?}");
            assert_eq!(enc.to_string().len(), len, "{input:?}");
        }
    }
}
