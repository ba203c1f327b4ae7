//! Form text taken apart: the `name=value` pairs of
//! `application/x-www-form-urlencoded` text and where each one is
//! ([RFC 5849 §3.4.1.3.1], [WHATWG URL "urlencoded parsing"]).
//!
//! Every stage that reads form text (a query, a form body, a token answer,
//! a base string's parameter string) splits it here, once: at each `&`,
//! then each segment at its first `=`. Nothing is decoded or copied; the
//! pairs are slices of the text, with their byte offsets in it.
//!
//! Empty segments (`a&&b`, a leading or trailing `&`, empty text) are
//! skipped by [`pairs`], as the request's parameters and the explainer read
//! them, and kept by [`segments`], for a reader that refuses them (a token
//! answer: every segment must hold an `=`).
//!
//! [RFC 5849 §3.4.1.3.1]: https://www.rfc-editor.org/rfc/rfc5849#section-3.4.1.3.1
//! [WHATWG URL "urlencoded parsing"]: https://url.spec.whatwg.org/#urlencoded-parsing

use crate::text::scan::find_byte;

/// One `&`-separated segment of form text, split at its first `=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pair<'a> {
    /// The name as written (everything before the first `=`).
    pub name: &'a [u8],
    /// The value as written (everything after the first `=`, later `=`s
    /// included); `None` for a bare name such as `a` in `a&b=1`.
    pub value: Option<&'a [u8]>,
    /// The byte offset of the name (the segment's start) in the text.
    pub at: usize,
}

impl<'a> Pair<'a> {
    /// The value, empty for a bare name.
    #[inline]
    pub fn value_or_empty(&self) -> &'a [u8] {
        self.value.unwrap_or_default()
    }

    /// The byte offset of the value in the text: just past the `=`, or, for a
    /// bare name, the end of the name (where its empty value is).
    #[inline]
    pub fn value_at(&self) -> usize {
        self.at + self.name.len() + usize::from(self.value.is_some())
    }
}

/// The pairs of `text`, empty segments skipped: `b=&a&&a=1&` is `b=`, `a`,
/// `a=1`; empty text has none.
#[inline]
pub(crate) fn pairs(text: &[u8]) -> Pairs<'_> {
    Pairs {
        rest: text,
        at: 0,
        keep_empty: false,
        done: false,
    }
}

/// Every segment of `text` as a pair, empty ones kept (as an empty bare
/// name): `a&&b=1&` is `a`, ``, `b=1`, ``; empty text is one empty segment.
#[inline]
pub(crate) fn segments(text: &[u8]) -> Pairs<'_> {
    Pairs {
        rest: text,
        at: 0,
        keep_empty: true,
        done: false,
    }
}

/// The iterator of [`pairs`] and [`segments`].
#[derive(Clone, Debug)]
pub(crate) struct Pairs<'a> {
    /// The text after the last `&` passed.
    rest: &'a [u8],
    /// The offset of `rest` in the text.
    at: usize,
    keep_empty: bool,
    /// The last segment (the one with no `&` after it) has been read.
    done: bool,
}

impl<'a> Iterator for Pairs<'a> {
    type Item = Pair<'a>;

    #[inline]
    fn next(&mut self) -> Option<Pair<'a>> {
        loop {
            if self.done {
                return None;
            }
            let input = self.rest;
            let at = self.at;
            let segment = match find_byte(input, b'&') {
                Some(i) => {
                    self.rest = &input[i + 1..];
                    self.at = at + i + 1;
                    &input[..i]
                }
                None => {
                    self.done = true;
                    input
                }
            };
            if segment.is_empty() && !self.keep_empty {
                continue;
            }
            return Some(match find_byte(segment, b'=') {
                Some(eq) => Pair {
                    name: &segment[..eq],
                    value: Some(&segment[eq + 1..]),
                    at,
                },
                None => Pair {
                    name: segment,
                    value: None,
                    at,
                },
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pair as (name, value, name offset, value offset).
    type Seen<'a> = (&'a [u8], Option<&'a [u8]>, usize, usize);

    fn all(it: Pairs<'_>) -> Vec<Seen<'_>> {
        it.map(|p| (p.name, p.value, p.at, p.value_at())).collect()
    }

    #[test]
    fn pairs_skip_empty_segments_and_keep_bare_names() {
        // Offsets counted by hand: `b=&a&&` is six bytes, `b=&a&&a=1&` ten.
        assert_eq!(
            all(pairs(b"b=&a&&a=1&c=d=e&")),
            [
                (&b"b"[..], Some(&b""[..]), 0, 2),
                (b"a", None, 3, 4),
                (b"a", Some(b"1"), 6, 8),
                (b"c", Some(b"d=e"), 10, 12),
            ]
        );
        assert_eq!(all(pairs(b"")), []);
        assert_eq!(all(pairs(b"&&&")), []);
        assert_eq!(all(pairs(b"&=")), [(&b""[..], Some(&b""[..]), 1, 2)]);
    }

    #[test]
    fn segments_keep_every_segment() {
        assert_eq!(
            all(segments(b"a&&b=1&")),
            [
                (&b"a"[..], None, 0, 1),
                (b"", None, 2, 2),
                (b"b", Some(&b"1"[..]), 3, 5),
                (b"", None, 7, 7),
            ]
        );
        assert_eq!(all(segments(b"")), [(&b""[..], None, 0, 0)]);
    }

    #[test]
    fn long_text_is_split_where_the_bytes_are() {
        // Past the word-at-a-time scan's block size, in every position.
        for len in 1..40 {
            let mut text = vec![b'x'; len];
            text.extend_from_slice(b"=1&");
            text.extend(vec![b'y'; len]);
            let got = all(pairs(&text));
            assert_eq!(got.len(), 2);
            assert_eq!((got[0].2, got[0].3), (0, len + 1));
            assert_eq!(got[1], (&text[len + 3..], None, len + 3, 2 * len + 3));
        }
    }
}
