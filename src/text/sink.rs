//! Where the pipeline's bytes go.
//!
//! The base string is *written*, never built and copied: the signer streams it
//! straight into the MAC, and the debugging trace writes the very same bytes
//! into a `Vec<u8>` or `String`. One code path, two sinks, so what a trace shows
//! is exactly what the stages sign.

/// A destination for bytes written by the pipeline's stages.
///
/// Every stage of this crate writes only ASCII, in pieces of any size.
pub trait Sink {
    /// Appends `bytes`.
    fn put(&mut self, bytes: &[u8]);

    /// Appends `text`: its bytes, as [`put`](Sink::put) does; a `String`
    /// takes it without checking its UTF-8 again.
    #[inline]
    fn put_str(&mut self, text: &str) {
        self.put(text.as_bytes());
    }
}

impl Sink for Vec<u8> {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Appends the bytes as text. The crate's stages write only ASCII; other bytes
/// (from a caller's own writer) are appended lossily, as U+FFFD.
impl Sink for String {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        match std::str::from_utf8(bytes) {
            Ok(s) => self.push_str(s),
            Err(_) => self.push_str(&String::from_utf8_lossy(bytes)),
        }
    }

    #[inline]
    fn put_str(&mut self, text: &str) {
        // A quote or a separator byte by byte: cheaper than a copy.
        if text.len() <= 2 && text.is_ascii() {
            for b in text.bytes() {
                self.push(char::from(b));
            }
        } else {
            self.push_str(text);
        }
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        (**self).put(bytes);
    }

    #[inline]
    fn put_str(&mut self, text: &str) {
        (**self).put_str(text);
    }
}

/// Counts the bytes written: a buffer sized by the very writer that then
/// fills it.
pub(crate) struct Count(pub(crate) usize);

impl Sink for Count {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// Size of a [`Writer`]'s buffer: several SHA blocks, so the MAC is fed in
/// long runs rather than per `%XX` token. A power of two, so that positions
/// can be masked into it and the compiler drops the bounds checks.
pub(crate) const WRITER_CAP: usize = 512;

/// Bytes past [`WRITER_CAP`] that a fixed-width store may touch: the longest
/// piece [`Writer::put`] copies without `memcpy`.
pub(crate) const WRITER_SLACK: usize = 64;

/// The buffer of a [`Writer`].
pub(crate) type WriterBuf = [u8; WRITER_CAP + WRITER_SLACK];

/// Copies `src` (at most [`WRITER_SLACK`] bytes) to `buf[at..]` with a few
/// fixed-width, overlapping moves: the pieces of a base string or header
/// (names, values, `%26`) are short, and a call to `memcpy` costs more than
/// the copy.
#[inline(always)]
fn copy_short(buf: &mut WriterBuf, at: usize, src: &[u8]) {
    let n = src.len();
    // Unrolled by hand: a loop here would be turned back into `memcpy`.
    if n >= 16 {
        buf[at..at + 16].copy_from_slice(&src[..16]);
        if n > 32 {
            buf[at + 16..at + 32].copy_from_slice(&src[16..32]);
            if n > 48 {
                buf[at + 32..at + 48].copy_from_slice(&src[32..48]);
            }
        }
        buf[at + n - 16..at + n].copy_from_slice(&src[n - 16..]);
    } else if n >= 8 {
        buf[at..at + 8].copy_from_slice(&src[..8]);
        buf[at + n - 8..at + n].copy_from_slice(&src[n - 8..]);
    } else if n >= 4 {
        buf[at..at + 4].copy_from_slice(&src[..4]);
        buf[at + n - 4..at + n].copy_from_slice(&src[n - 4..]);
    } else if n >= 2 {
        buf[at..at + 2].copy_from_slice(&src[..2]);
        buf[at + n - 2..at + n].copy_from_slice(&src[n - 2..]);
    } else if let Some(&b) = src.first() {
        buf[at] = b;
    }
}

/// A stack buffer in front of a [`Sink`]: the pipeline's stages write into it
/// directly (the encoder stores eight bytes at a time), and the sink sees a few
/// long pieces instead of many short ones. Call [`finish`](Writer::finish).
pub(crate) struct Writer<'s, S: Sink + ?Sized> {
    sink: &'s mut S,
    buf: WriterBuf,
    /// Bytes written, never more than [`WRITER_CAP`].
    len: usize,
}

impl<'s, S: Sink + ?Sized> Writer<'s, S> {
    #[inline(always)]
    pub(crate) fn new(sink: &'s mut S) -> Self {
        Writer {
            sink,
            buf: [0; WRITER_CAP + WRITER_SLACK],
            len: 0,
        }
    }

    /// Appends `bytes`.
    #[inline(always)]
    pub(crate) fn put(&mut self, bytes: &[u8]) {
        if bytes.len() <= WRITER_SLACK && bytes.len() <= WRITER_CAP - self.len {
            copy_short(&mut self.buf, self.len % WRITER_CAP, bytes);
            self.len += bytes.len();
        } else {
            self.put_long(bytes);
        }
    }

    fn put_long(&mut self, bytes: &[u8]) {
        if let Some(dst) = self.buf[..WRITER_CAP].get_mut(self.len..self.len + bytes.len()) {
            dst.copy_from_slice(bytes);
            self.len += bytes.len();
            return;
        }
        self.flush();
        if bytes.len() >= WRITER_CAP / 2 {
            self.sink.put(bytes);
        } else {
            self.buf[..bytes.len()].copy_from_slice(bytes);
            self.len = bytes.len();
        }
    }

    /// The whole buffer and the position to write at, with at least `n` (at
    /// most [`WRITER_CAP`]) bytes free before [`WRITER_CAP`]. The caller
    /// writes, then calls [`set_len`](Writer::set_len) with the new position.
    #[inline]
    pub(crate) fn window(&mut self, n: usize) -> (&mut WriterBuf, usize) {
        if WRITER_CAP - self.len < n {
            self.flush();
        }
        (&mut self.buf, self.len)
    }

    /// Keeps the bytes written into the [`window`](Writer::window) up to `len`.
    #[inline]
    pub(crate) fn set_len(&mut self, len: usize) {
        self.len = len.min(WRITER_CAP);
    }

    fn flush(&mut self) {
        if self.len > 0 {
            self.sink.put(&self.buf[..self.len]);
            self.len = 0;
        }
    }

    /// Hands what is left to the sink.
    #[inline]
    pub(crate) fn finish(mut self) {
        self.flush();
    }
}

/// Decimal digits of `n` (a port, a timestamp), written at the end of `buf`.
pub(crate) fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writer_hands_on_every_piece_in_order() {
        // Pieces of every length up to past the buffer, from every offset.
        let data: Vec<u8> = (0..2000u32).map(|i| (i * 7 % 251) as u8).collect();
        for step in [1, 3, 7, 8, 15, 16, 17, 33, 64, 65, 100, 255, 256, 511, 700] {
            let mut out = Vec::new();
            let mut w = Writer::new(&mut out);
            let mut want = Vec::new();
            let mut at = 0;
            for len in (0..=step).cycle().take(40) {
                let piece = &data[at % 1000..at % 1000 + len];
                w.put(piece);
                want.extend_from_slice(piece);
                at += len + 1;
            }
            w.finish();
            assert_eq!(out, want, "step {step}");
        }
    }
}
