//! The escapes of bash's `$'...'` quoting (the bash manual, §3.1.2.4
//! ANSI-C Quoting), and the length of a UTF-8 character.

use crate::error::Error;

use super::super::unreadable;

/// The length of the UTF-8 character at `at` (1 for a byte that starts none).
pub(super) fn char_len(b: &[u8], at: usize) -> usize {
    let len = match b[at] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    };
    len.min(b.len() - at)
}

/// One backslash escape of `$'...'` at `at`: its bytes and its length.
pub(super) fn ansi_c_escape(b: &[u8], at: usize) -> Result<(Vec<u8>, usize), Error> {
    let Some(&c) = b.get(at + 1) else {
        return Err(unreadable(at, "the $'...' ends in a backslash"));
    };
    let simple = |byte: u8| Ok((vec![byte], 2));
    let digits = |from: usize, max: usize, radix: u32| -> (u32, usize) {
        let mut value = 0u32;
        let mut n = 0;
        while n < max {
            match b.get(from + n).and_then(|&d| (d as char).to_digit(radix)) {
                Some(d) => {
                    value = value * radix + d;
                    n += 1;
                }
                None => break,
            }
        }
        (value, n)
    };
    let nul = || {
        unreadable(
            at,
            "a NUL byte in $'...' ends the argument there (bash cuts it off): the rest is not sent",
        )
    };
    match c {
        b'a' => simple(0x07),
        b'b' => simple(0x08),
        b'e' | b'E' => simple(0x1B),
        b'f' => simple(0x0C),
        b'n' => simple(b'\n'),
        b'r' => simple(b'\r'),
        b't' => simple(b'\t'),
        b'v' => simple(0x0B),
        b'\\' | b'\'' | b'"' | b'?' => simple(c),
        b'0'..=b'7' => {
            let (value, n) = digits(at + 1, 3, 8);
            match u8::try_from(value & 0xFF) {
                Ok(0) | Err(_) => Err(nul()),
                Ok(byte) => Ok((vec![byte], 1 + n)),
            }
        }
        b'x' => {
            let (value, n) = digits(at + 2, 2, 16);
            match (n, u8::try_from(value)) {
                (0, _) => Ok((b"\\x".to_vec(), 2)),
                (_, Ok(0) | Err(_)) => Err(nul()),
                (_, Ok(byte)) => Ok((vec![byte], 2 + n)),
            }
        }
        b'u' | b'U' => {
            let max = if c == b'u' { 4 } else { 8 };
            let (value, n) = digits(at + 2, max, 16);
            if n == 0 {
                return Ok((vec![b'\\', c], 2));
            }
            if value == 0 {
                return Err(nul());
            }
            let Some(ch) = char::from_u32(value) else {
                return Err(unreadable(
                    at,
                    format!("\\{}{value:X} is not a Unicode scalar value", c as char),
                ));
            };
            let mut buf = [0u8; 4];
            Ok((ch.encode_utf8(&mut buf).as_bytes().to_vec(), 2 + n))
        }
        b'c' => match b.get(at + 2) {
            Some(&x) if x.is_ascii() && (x & 0x1F) != 0 => Ok((vec![x & 0x1F], 3)),
            Some(_) => Err(nul()),
            None => Err(unreadable(at, "the $'...' ends in \\c")),
        },
        _ => {
            // An unknown escape is itself, backslash and all.
            let len = char_len(b, at + 1);
            let mut bytes = vec![b'\\'];
            bytes.extend_from_slice(&b[at + 1..at + 1 + len]);
            Ok((bytes, 1 + len))
        }
    }
}
