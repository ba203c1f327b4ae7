//! The protocol parameters' values that have a rule of their own (§3.3):
//! the nonce and the timestamp, one parse each for the signer and the
//! verifier.

use std::ops::RangeInclusive;

use super::Name;
use crate::error::{Error, ErrorKind};
use crate::text::scan::is_unreserved;

/// A nonce (§3.3): by the one rule this crate's signer and its verifier
/// share, 1 to 64 characters, each an ASCII letter or digit or one of
/// `- . _ ~ + / =`. That holds every nonce real clients make (oauthlib's
/// digits, the X docs' 42 letters and digits, a UUID, dghubble's 44
/// characters of Base64) and needs no escape but `+ / =`; a signer refuses
/// a pinned nonce outside it at `build()`, and a verifier refuses one by
/// default (its length range can be changed:
/// [`VerifierBuilder::nonce_len`](crate::verify::VerifierBuilder::nonce_len)).
///
/// ```
/// use oauth1_signer::pipeline::Nonce;
///
/// assert_eq!(Nonce::parse("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")?.as_str().len(), 42);
/// assert!(Nonce::parse("a b").is_err());
/// assert!(Nonce::parse(&"n".repeat(65)).is_err());
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nonce<'a>(&'a str);

impl<'a> Nonce<'a> {
    /// The lengths, in characters, a nonce may have by default.
    pub const LEN: RangeInclusive<usize> = 1..=64;

    /// `text` as a nonce, by the rule above.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidProtocolValue`] naming `oauth_nonce` and why.
    pub fn parse(text: &'a str) -> Result<Nonce<'a>, Error> {
        Nonce::parse_within(text, &Nonce::LEN)
    }

    /// `text` as a nonce whose length is in `len` instead of [`Nonce::LEN`].
    ///
    /// # Errors
    /// As [`parse`](Self::parse).
    pub fn parse_within(text: &'a str, len: &RangeInclusive<usize>) -> Result<Nonce<'a>, Error> {
        let invalid = |reason| {
            Err(Error::new(ErrorKind::InvalidProtocolValue {
                name: Name::Nonce.as_str(),
                reason,
            }))
        };
        if !text
            .bytes()
            .all(|b| is_unreserved(b) || matches!(b, b'+' | b'/' | b'='))
        {
            return invalid("a nonce holds only ASCII letters, digits and - . _ ~ + / =");
        }
        // ASCII by now: its length in bytes is its length in characters.
        if text.is_empty() {
            return invalid("a nonce cannot be empty");
        }
        if !len.contains(&text.len()) {
            return invalid(
                "the nonce's length is outside the accepted range (1 to 64 by default)",
            );
        }
        Ok(Nonce(text))
    }

    /// The nonce.
    pub fn as_str(&self) -> &'a str {
        self.0
    }
}

/// A timestamp (§3.3): "a positive integer", the number of seconds since
/// 1970, written in ASCII digits and fitting in 64 bits. One parse for the
/// signer (a pinned one is checked at `build()`) and the verifier.
///
/// ```
/// use oauth1_signer::pipeline::Timestamp;
///
/// assert_eq!(Timestamp::parse("1318622958")?.secs(), 1318622958);
/// for refused in ["", "0", "+1", "1.5", " 1", "18446744073709551616"] {
///     assert!(Timestamp::parse(refused).is_err(), "{refused:?}");
/// }
/// # Ok::<(), oauth1_signer::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(u64);

impl Timestamp {
    /// How far from now a timestamp is accepted by default, each way: five
    /// minutes (RFC 5849 §3.3 leaves it to the server; X allows a few
    /// minutes). A verifier's default window
    /// ([`verify::DEFAULT_WINDOW`](crate::verify::DEFAULT_WINDOW)), and how
    /// far a pinned one may be from the clock before the signer warns.
    pub const WINDOW: std::time::Duration = std::time::Duration::from_secs(300);

    /// `text` as a timestamp.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidProtocolValue`] naming `oauth_timestamp` and why.
    pub fn parse(text: &str) -> Result<Timestamp, Error> {
        let reason = if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            "a timestamp is a positive integer in ASCII digits"
        } else {
            match text.parse::<u64>() {
                Ok(0) => "a timestamp is a positive integer (0 is not)",
                Ok(n) => return Ok(Timestamp(n)),
                Err(_) => "a timestamp must fit in 64 bits",
            }
        };
        Err(Error::new(ErrorKind::InvalidProtocolValue {
            name: Name::Timestamp.as_str(),
            reason,
        }))
    }

    /// Seconds since 1970.
    pub fn secs(self) -> u64 {
        self.0
    }
}

impl std::fmt::Display for Timestamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}
