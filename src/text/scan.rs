//! Byte classes and the fast scans over them.
//!
//! Every class of byte the pipeline tests is defined here once: RFC 3986's
//! `unreserved` (§2.3), `sub-delims` (§2.2), `pchar` (§3.3) and host bytes
//! (§3.2.2), hex digits, and RFC 9110's `tchar` (§5.6.2). The stages above
//! (encoding, decoding, the URL, the header) ask these functions and never
//! spell a class out again.
//!
//! Some classes also have a word-at-a-time or branch-free form for long
//! text. Each such fast form is tested below against its plain definition,
//! over every byte and every lane, as `httparse` keeps its SIMD scanners
//! behind one entry point.

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

/// `sub-delims` of RFC 3986 §2.2.
pub(crate) const fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// Whether `b` may stand for itself in `application/x-www-form-urlencoded`
/// text as its serialisers write it: [`is_unreserved`], `*` (which HTML's
/// serialiser leaves), and the syntax `%` (escapes), `+` (a space), `&`
/// and `=`. Everything else, a space, a line break or a byte-order mark
/// included, is written as `%XX` by every serialiser (RFC 5849 §3.6,
/// WHATWG URL "application/x-www-form-urlencoded serializing").
#[inline]
pub(crate) const fn is_form_byte(b: u8) -> bool {
    is_unreserved(b) || matches!(b, b'*' | b'%' | b'+' | b'&' | b'=')
}

/// `pchar` of RFC 3986 §3.3, less `%` (escapes are checked on their own).
pub(crate) const fn is_pchar(b: u8) -> bool {
    is_unreserved(b) || is_sub_delim(b) || b == b':' || b == b'@'
}

/// Whether a host name (RFC 3986 §3.2.2 `reg-name`, without escapes) may
/// hold `b`: unreserved and `sub-delims`.
#[inline]
pub(crate) const fn is_host_byte(b: u8) -> bool {
    HOST_BYTE[b as usize]
}

/// [`is_host_byte`] of every byte.
const HOST_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = is_unreserved(b as u8) || is_sub_delim(b as u8);
        b += 1;
    }
    t
};

/// RFC 9110 §5.6.2 `tchar`: the bytes of a token, such as a method or an
/// auth-scheme or auth-param name.
#[inline]
pub(crate) const fn is_tchar(b: u8) -> bool {
    TCHAR[b as usize]
}

/// [`is_tchar`] of every byte.
const TCHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_alphanumeric()
            || matches!(
                b as u8,
                b'!' | b'#'
                    | b'$'
                    | b'%'
                    | b'&'
                    | b'\''
                    | b'*'
                    | b'+'
                    | b'-'
                    | b'.'
                    | b'^'
                    | b'_'
                    | b'`'
                    | b'|'
                    | b'~'
            );
        b += 1;
    }
    t
};

/// The value of each hex digit; 16 for every other byte.
pub(crate) const HEX_VALUE: [u8; 256] = {
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
pub(crate) const fn hex_value(b: u8) -> Option<u8> {
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
pub(crate) fn all_unreserved(block: &[u8; 16]) -> bool {
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

/// Whether `input` needs no escape at all, so that it can be copied as it is.
#[inline]
pub(crate) fn is_clean(input: &[u8]) -> bool {
    let (words, rest) = input.as_chunks::<8>();
    words
        .iter()
        .all(|w| unreserved_lanes(u64::from_le_bytes(*w)) == HIGH)
        && rest.iter().all(|&b| is_unreserved(b))
}

/// How many bytes at the start of `input` are unreserved, found eight at a
/// time (a name such as `oauth_consumer_key`).
#[inline]
pub(crate) fn unreserved_prefix(input: &[u8]) -> usize {
    let (words, rest) = input.as_chunks::<8>();
    for (i, w) in words.iter().enumerate() {
        let other = !unreserved_lanes(u64::from_le_bytes(*w)) & HIGH;
        if other != 0 {
            return i * 8 + other.trailing_zeros() as usize / 8;
        }
    }
    words.len() * 8 + rest.iter().take_while(|&&b| is_unreserved(b)).count()
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

/// Whether `input` holds a complete percent-escape (`%` and two hex
/// digits): text someone encoded already (Python's `s != unquote(s)`).
pub(crate) fn holds_escape(input: &[u8]) -> bool {
    input
        .windows(3)
        .any(|w| w[0] == b'%' && is_hex(w[1]) & is_hex(w[2]))
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

/// Whether `b` ends a run of a quoted value's plain bytes (RFC 9110
/// §5.6.4): `"`, `\`, or a control character other than tab.
#[inline]
pub(crate) const fn ends_quoted_run(b: u8) -> bool {
    b == b'"' || b == b'\\' || (b.is_ascii_control() && b != b'\t')
}

/// The high bit of each byte of `v` (each below 0x80) set where the byte
/// is `c`, exactly (no borrow crosses lanes).
#[inline(always)]
const fn is_lanes(v: u64, c: u8) -> u64 {
    at_least(v, c) & !at_least(v, c + 1)
}

/// The first index in `haystack` of a byte that [`ends_quoted_run`],
/// eight bytes at a time: a header's values are most of its bytes.
#[inline]
pub(crate) fn find_quoted_end(haystack: &[u8]) -> Option<usize> {
    let (words, rest) = haystack.as_chunks::<8>();
    for (i, word) in words.iter().enumerate() {
        let w = u64::from_le_bytes(*word);
        let v = w & !HIGH;
        let controls = !at_least(v, 0x20) & !is_lanes(v, b'\t') | at_least(v, 0x7F);
        let found = (controls | is_lanes(v, b'"') | is_lanes(v, b'\\')) & !w & HIGH;
        if found != 0 {
            return Some(i * 8 + found.trailing_zeros() as usize / 8);
        }
    }
    rest.iter()
        .position(|&b| ends_quoted_run(b))
        .map(|j| words.len() * 8 + j)
}

/// Whether `b` may stand in a header field's value as this crate reads and
/// writes one: visible ASCII, a space or a tab (RFC 9110 §5.5; obs-text,
/// 0x80 to 0xFF, is not written, and CR, LF and the other controls would
/// end the field or reach whoever prints it).
#[inline]
pub(crate) const fn is_field_byte(b: u8) -> bool {
    b == b'\t' || matches!(b, b' '..=b'~')
}

/// The first index in `value` of a byte that [`is_field_byte`] refuses.
#[inline]
pub(crate) fn find_non_field_byte(value: &[u8]) -> Option<usize> {
    value.iter().position(|&b| !is_field_byte(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_runs_end_where_the_byte_by_byte_scan_ends_them() {
        // qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text (RFC 9110
        // §5.6.4): what ends a run is the rest, but for 0x80-0xFF.
        let ends = |b: u8| {
            !(b == b'\t'
                || b == b' '
                || b == 0x21
                || (0x23..=0x5B).contains(&b)
                || (0x5D..=0x7E).contains(&b)
                || b >= 0x80)
        };
        for b in 0..=255u8 {
            assert_eq!(ends_quoted_run(b), ends(b), "{b:#04x}");
        }
        let naive = |h: &[u8]| h.iter().position(|&b| ends(b));
        // Every pair of bytes at every place in two words, after plain bytes.
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                for at in [0, 3, 6, 7, 14] {
                    let mut h = [b'x'; 16];
                    h[at] = a;
                    h[at + 1] = b;
                    assert_eq!(find_quoted_end(&h), naive(&h), "{a:#04x} {b:#04x} at {at}");
                    assert_eq!(find_quoted_end(&h[..at + 2]), naive(&h[..at + 2]));
                }
            }
        }
        assert_eq!(find_quoted_end(b""), None);
    }

    #[test]
    fn field_bytes_are_visible_ascii_space_and_tab() {
        // RFC 9110 §5.5: field-vchar = VCHAR (0x21-0x7E) / obs-text, with SP
        // and HTAB between; obs-text (0x80-0xFF) is refused here.
        let ok = |b: u8| b == b'\t' || b == b' ' || (0x21..=0x7E).contains(&b);
        for b in 0..=255u8 {
            assert_eq!(is_field_byte(b), ok(b), "{b:#04x}");
        }
        assert_eq!(find_non_field_byte(b"OAuth a=\"\xc3\xa9\""), Some(9));
        assert_eq!(find_non_field_byte(b"OAuth\ta=\"~\""), None);
    }

    #[test]
    fn token_bytes_are_rfc_9110_tchar() {
        // tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
        //         "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
        for b in 0..=255u8 {
            let want = b.is_ascii_digit()
                || b.is_ascii_alphabetic()
                || "!#$%&'*+-.^_`|~".as_bytes().contains(&b);
            assert_eq!(is_tchar(b), want, "{b:#04x}");
        }
    }

    #[test]
    fn form_bytes_are_what_form_serialisers_leave_raw() {
        // WHATWG: the "application/x-www-form-urlencoded percent-encode set"
        // leaves ASCII alphanumerics and *-._ raw; RFC 3986 unreserved adds
        // '~'; the form's own syntax is % + & =.
        for b in 0..=255u8 {
            let want = b.is_ascii_alphanumeric() || "*-._~%+&=".as_bytes().contains(&b);
            assert_eq!(is_form_byte(b), want, "{b:#04x}");
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
                    assert_eq!(is_clean(&h), h.iter().all(|&b| is_unreserved(b)));
                    assert_eq!(
                        unreserved_prefix(&h),
                        h.iter().take_while(|&&b| is_unreserved(b)).count()
                    );
                }
            }
            assert_eq!(find_byte(&vec![b'x'; len], b'&'), None);
        }
    }
}
