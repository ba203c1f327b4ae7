//! Values computed in the tests themselves, not by the library: an
//! HMAC-SHA1 signature of a base string written by hand, straight from the
//! `hmac` crate.

use base64::Engine as _;
use hmac::{KeyInit as _, Mac as _};

/// HMAC-SHA1 of `text` with `key`, in base64.
pub fn hmac_sha1_base64(key: &str, text: &str) -> String {
    let mut mac = hmac::Hmac::<sha1::Sha1>::new_from_slice(key.as_bytes()).unwrap();
    mac.update(text.as_bytes());
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// As [`hmac_sha1_base64`], percent-encoded as in a header.
pub fn header_signature(key: &str, text: &str) -> String {
    hmac_sha1_base64(key, text)
        .replace('+', "%2B")
        .replace('/', "%2F")
        .replace('=', "%3D")
}
