//! Where the pipeline's bytes go.
//!
//! The base string is *written*, never built and copied: the signer streams it
//! straight into the MAC, and the debugging trace writes the very same bytes
//! into a `Vec<u8>` or `String`. One code path, two sinks, so what a trace shows
//! is exactly what was signed.

/// A destination for bytes written by the pipeline's stages.
///
/// Every stage of this crate writes only ASCII, in pieces of any size.
pub trait Sink {
    /// Appends `bytes`.
    fn put(&mut self, bytes: &[u8]);
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
}

impl<S: Sink + ?Sized> Sink for &mut S {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        (**self).put(bytes);
    }
}

/// Counts the bytes written, to size a buffer before writing for real.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counter(pub usize);

impl Sink for Counter {
    #[inline]
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}
