//! The input format of the targets that take several texts: fields separated
//! by a 0xFF byte, the last field taking the rest. 0xFF never occurs in UTF-8,
//! so a text field loses nothing, and a seed is written by hand
//! (`fuzz/make_corpus.py`) rather than in `arbitrary`'s encoding.

#![allow(dead_code)]

/// The separator: never part of UTF-8 text.
pub const SEP: u8 = 0xFF;

/// `N` fields; missing ones are empty, the last holds the rest (0xFF included).
pub fn fields<const N: usize>(data: &[u8]) -> [&[u8]; N] {
    let mut out = [&[][..]; N];
    let mut rest = data;
    for (i, field) in out.iter_mut().enumerate() {
        if i + 1 == N {
            *field = rest;
            break;
        }
        match rest.iter().position(|&b| b == SEP) {
            Some(at) => {
                *field = &rest[..at];
                rest = &rest[at + 1..];
            }
            None => {
                *field = rest;
                rest = &[];
            }
        }
    }
    out
}

/// The UTF-8 prefix of a field.
pub fn text(bytes: &[u8]) -> &str {
    match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default(),
    }
}
