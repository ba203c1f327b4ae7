//! The outgoing request ([`RequestSpec`]) as JSON (feature `json`): its
//! serde adapter and [`JsonError`].
//!
//! The top wing: it imports `outgoing` (the request it
//! reads) and the error; no wing imports it.
//!
//! The schema is the one of the `inputs` of this crate's test vectors
//! (`fixtures/README.md`, "Request inputs"), so a vector, a bug report and a
//! command-line request file are the same thing:
//!
//! ```text
//! {"method", "url", "form_body"?, "consumer_key", "consumer_secret"?, "token"?,
//!  "token_secret"?, "signature_method"?, "timestamp"?, "nonce"?, "version"?,
//!  "callback"?, "verifier"?, "realm"?, "extra_oauth_params"?: [[name, value], ...],
//!  "rsa_private_key"?: PEM, "transmission"?: "header" | "query" | "form-body",
//!  "body"?, "content_type"?, "body_hash"?: "never" | "unless-form" | "required" | "always",
//!  "body_hash_algorithm"?: "follow-method" | "sha1" | "sha256" | "sha512", "provider"?}
//! ```
//!
//! It is taken literally: a field that is absent is not sent. No `nonce` means
//! no `oauth_nonce`, no `timestamp` no `oauth_timestamp`, no `version` no
//! `oauth_version` (the only version there is, `"1.0"`, is the only one
//! accepted); an absent secret is empty; an absent `signature_method` is
//! `HMAC-SHA1`. Fields it does not know (`id`, `rsa_certificate`...) are
//! ignored. This reproduces the X developer docs' "Creating a signature"
//! example (vector `x-docs-creating-a-signature`):
//!
//! ```
//! use oauth1_signer::RequestSpec;
//!
//! let spec = RequestSpec::from_json(r#"{
//!     "id": "x-docs-creating-a-signature",
//!     "method": "POST",
//!     "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true",
//!     "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
//!     "consumer_key": "xvz1evFS4wEEPTGEFPHBog",
//!     "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
//!     "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
//!     "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
//!     "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
//!     "timestamp": "1318622958",
//!     "version": "1.0",
//!     "signature_method": "HMAC-SHA1"
//! }"#)?;
//!
//! let trace = spec.trace()?;
//! assert_eq!(trace.signature.as_str(), "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=");
//! assert_eq!(trace.base_string_uri, "https://api.x.com/1.1/statuses/update.json");
//! # Ok::<(), oauth1_signer::json::JsonError>(())
//! ```
//!
//! Beyond the vectors' schema, a request says how it is sent:
//! `transmission` puts the protocol parameters in the `Authorization` header
//! (the default), the query, or the form body (RFC 5849 §3.5); `body` (with
//! `content_type`) is a body that is not form parameters, never signed
//! itself; `body_hash` says when `oauth_body_hash` is sent over the body
//! (the empty body when there is none) and `body_hash_algorithm` with which
//! hash; `provider` names a
//! [`Profile`](crate::provider::Profile) whose defaults fill the fields left out (the
//! signature method, the transmission, the body hash, the realm, and the
//! provider's parameter style). [`RequestSpec::sent`] is what goes on the
//! wire.
//!
//! `Debug` never shows the secrets or the private key; `Serialize` writes
//! them, since a request file has to hold them.
mod error;

use crate::outgoing::spec::RequestSpec;

pub use error::JsonError;

impl RequestSpec {
    /// Parses a request from JSON text.
    ///
    /// ```
    /// use oauth1_signer::{json::JsonError, RequestSpec};
    ///
    /// # let json = r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true", "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21", "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw", "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE", "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg", "timestamp": "1318622958", "version": "1.0", "signature_method": "HMAC-SHA1"}"#;
    /// // `json` holds the inputs of vector `x-docs-creating-a-signature`.
    /// let spec = RequestSpec::from_json(json)?;
    /// assert_eq!(spec.nonce.as_deref(), Some("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg"));
    ///
    /// let err = RequestSpec::from_json(&json.replace("\"1.0\"", "\"2.0\"")).unwrap_err();
    /// let cause = std::error::Error::source(&err).map(ToString::to_string).unwrap_or_default();
    /// assert!(cause.contains("expected \"1.0\""), "{cause}");
    /// assert_eq!(err.line_column(), Some((1, 517))); // just after "2.0"
    /// assert!(matches!(RequestSpec::from_json("{\"method\": }"), Err(JsonError::Json(_))));
    /// # Ok::<(), JsonError>(())
    /// ```
    ///
    /// # Errors
    /// [`JsonError::Json`], with a line and column, for text that is not
    /// JSON, a missing `method`, `url` or `consumer_key`, a field of the wrong
    /// type, or a `version` other than `"1.0"`. The message never holds the
    /// value of a secret.
    pub fn from_json(json: &str) -> Result<RequestSpec, JsonError> {
        Ok(serde_json::from_str(json)?)
    }
}
