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

/// The Authorization header of a client that writes a space as '+' in its
/// parameter string (the base string then encodes it as %2B, not %2520):
/// `POST http://127.0.0.1:PORT/update` with the form body `status=hello
/// world`, consumer key `ck`, signed with HMAC-SHA1 by `key` (`cs&` and the
/// token's secret). The parameter string and base string are written out
/// here, the signature by [`header_signature`]; the library signs nothing.
pub fn space_as_plus_header(port: u16, token: &str, key: &str, nonce: &str, ts: u64) -> String {
    let params = format!(
        "oauth_consumer_key=ck&oauth_nonce={nonce}&oauth_signature_method=HMAC-SHA1\
         &oauth_timestamp={ts}&oauth_token={token}&oauth_version=1.0&status=hello+world"
    );
    let encoded = params
        .replace('&', "%26")
        .replace('=', "%3D")
        .replace('+', "%2B");
    let base = format!("POST&http%3A%2F%2F127.0.0.1%3A{port}%2Fupdate&{encoded}");
    format!(
        "OAuth oauth_consumer_key=\"ck\", oauth_nonce=\"{nonce}\", oauth_signature=\"{}\", \
         oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"{ts}\", oauth_token=\"{token}\", \
         oauth_version=\"1.0\"",
        header_signature(key, &base)
    )
}
