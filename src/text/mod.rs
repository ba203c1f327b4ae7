//! Bytes: the byte classes and their fast scans, strict percent-encoding
//! and decoding (RFC 5849 §3.6, RFC 3986 §2.1), form text taken apart, a
//! collected name or value, the sinks the pipeline writes into, and what
//! text may reach a terminal or a log (control characters escaped, secrets
//! and signatures redacted).
//!
//! The bottom wing: it imports nothing of this crate but [`Error`](crate::Error).
//!
//! ```
//! use oauth1_signer::text::{percent_decode, percent_encode_str};
//!
//! assert_eq!(percent_encode_str("Ladies + Gentlemen").to_string(), "Ladies%20%2B%20Gentlemen");
//! assert_eq!(percent_decode(b"%E2%98%83")?.as_bytes(), "☃".as_bytes());
//! # Ok::<(), oauth1_signer::Error>(())
//! ```

pub(crate) mod decode;
pub(crate) mod encode;
pub(crate) mod form;
pub(crate) mod printable;
pub(crate) mod redact;
pub(crate) mod repeat;
pub(crate) mod scan;
pub(crate) mod sink;
pub(crate) mod value;
pub(crate) mod word;

pub use decode::{form_decode, percent_decode, Decoded};
pub use encode::{percent_encode, percent_encode_str, PercentEncode};
pub use printable::{error_chain, escape_controls, escape_controls_into};
pub use redact::{holds_secret, redact_secrets, redact_url};
pub use scan::is_unreserved;
pub use sink::Sink;
