//! A parameter's name or value as collected ([RFC 5849 §3.4.1.3]): literal
//! bytes, or form-encoded text checked once and decoded on the fly, byte by
//! byte, whenever it is compared or written. Comparing two of them in the
//! order of their percent-encodings (§3.4.1.3.2) needs no encoding either:
//! see [`rank`].
//!
//! [RFC 5849 §3.4.1.3]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3

use std::borrow::Cow;
use std::cmp::Ordering;

use crate::error::{Error, Part};
use crate::text::decode::{check_escapes, DecodeBytes};
use crate::text::encode::{
    encode_into, encode_twice_into, transcode_form_into, transcode_form_twice_into,
};
use crate::text::scan::{escapes_complete, has_escapes, is_clean, is_unreserved};
use crate::text::sink::{Sink, Writer};

/// A name or value: either literal bytes, or form-encoded text that has been
/// checked and is decoded on the fly.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Text<'a> {
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
pub(crate) fn rank(b: u8) -> u16 {
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

/// The first index where `a` and `b` differ, comparing eight bytes at a time
/// (names share long prefixes such as `oauth_`).
#[inline]
pub(crate) fn mismatch(a: &[u8], b: &[u8]) -> Option<usize> {
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
    pub(crate) fn form(input: &'a [u8], base: usize, part: Part) -> Result<Text<'a>, Error> {
        Ok(if check_escapes(input, true, part, base)? {
            Text::Form(input)
        } else {
            Text::Raw(input)
        })
    }

    /// Form-encoded text whose escapes have been checked.
    #[inline]
    pub(crate) fn checked(input: &'a [u8]) -> Text<'a> {
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
    pub(crate) fn checking(input: &'a [u8]) -> Option<Text<'a>> {
        match Text::checked(input) {
            Text::Form(_) if !escapes_complete(input) => None,
            text => Some(text),
        }
    }

    /// The text as collected (not decoded).
    pub(crate) fn as_collected(&self) -> &'a [u8] {
        match *self {
            Text::Raw(b) | Text::Form(b) | Text::Clean(b) => b,
        }
    }

    /// Text of the same kind over `bytes` (a copy of [`as_collected`](Self::as_collected)).
    pub(crate) fn with_collected<'b>(&self, bytes: &'b [u8]) -> Text<'b> {
        match self {
            Text::Raw(_) => Text::Raw(bytes),
            Text::Form(_) => Text::Form(bytes),
            Text::Clean(_) => Text::Clean(bytes),
        }
    }

    /// The bytes decoded: borrowed, but for form text that holds an escape
    /// or a `+`.
    pub(crate) fn decoded(&self) -> Cow<'a, [u8]> {
        match *self {
            Text::Raw(b) | Text::Clean(b) => Cow::Borrowed(b),
            Text::Form(b) if !has_escapes(b, true) => Cow::Borrowed(b),
            Text::Form(_) => Cow::Owned(self.bytes().collect()),
        }
    }

    pub(crate) fn eq_bytes(&self, other: &[u8]) -> bool {
        match *self {
            Text::Raw(b) | Text::Clean(b) => b == other,
            Text::Form(_) => self.bytes().eq(other.iter().copied()),
        }
    }

    pub(crate) fn cmp_encoded(&self, other: &Text<'_>) -> Ordering {
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

    pub(crate) fn ranks(self) -> impl Iterator<Item = u16> + 'a {
        self.bytes().map(rank)
    }

    pub(crate) fn bytes(self) -> TextBytes<'a> {
        match self {
            Text::Raw(b) | Text::Clean(b) => TextBytes::Raw(b.iter()),
            Text::Form(b) => TextBytes::Form(DecodeBytes::new(b, true)),
        }
    }

    /// Writes the decoded bytes, encoded once or `twice`, into the writer.
    #[inline]
    pub(crate) fn write_into<S: Sink + ?Sized>(&self, w: &mut Writer<'_, S>, twice: bool) {
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
pub(crate) enum TextBytes<'a> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::encode::percent_encode;

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
}
