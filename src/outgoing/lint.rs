//! What is likely a slip in a request that still signs ([`RequestSpec::lints`]):
//! a blank credential, a token without its secret, a timestamp in
//! milliseconds, a form body typed as text, JSON that does not parse. The
//! page and `oauth1 sign` both say them; nothing here refuses a request.

use std::fmt;

use crate::outgoing::spec::RequestSpec;
use crate::pipeline::credentials::Secret;
use crate::text::scan::is_pchar;

/// A slip [`RequestSpec::lints`] finds in a request that signs all the
/// same. [`code`](Self::code) names it for a program (and the page's
/// translations); `Display` says it in English.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Lint {
    /// The consumer key is empty: every request carries the app's key.
    EmptyConsumerKey,
    /// The consumer secret is empty (an HMAC or PLAINTEXT method): the
    /// signing key then starts with `&`, and the provider's will not.
    EmptyConsumerSecret,
    /// A token without its token secret (an HMAC or PLAINTEXT method): the
    /// key is made with the secret that came with the token.
    TokenWithoutSecret,
    /// A token secret without its token: the token is sent, its secret
    /// only signs.
    SecretWithoutToken,
    /// A verifier without the temporary token it goes with (RFC 5849 §2.3).
    VerifierWithoutToken,
    /// A timestamp of thirteen or more digits: milliseconds (JavaScript's
    /// `Date.now()`), where OAuth counts seconds (RFC 5849 §3.3).
    #[non_exhaustive]
    TimestampInMilliseconds {
        /// The timestamp as given.
        given: String,
        /// It in seconds: its last three digits left out.
        seconds: String,
    },
    /// A form body holding a byte a form-encoded body carries only
    /// percent-encoded (a space, `ğ`, `"`): it is signed as typed, and the
    /// other side (oauthlib) will not read it.
    #[non_exhaustive]
    RawByteInFormBody {
        /// The byte offset of the first such byte in the form body.
        offset: usize,
    },
    /// A body sent as `application/json` that does not parse as JSON (with
    /// the `json` feature): it is sent all the same (it is not signed),
    /// but the server will refuse it.
    #[non_exhaustive]
    InvalidJson {
        /// The line of the first error, from 1.
        line: usize,
        /// Its column, from 1.
        column: usize,
    },
}

impl Lint {
    /// Its name for a program: `empty-consumer-key`,
    /// `empty-consumer-secret`, `token-without-secret`,
    /// `secret-without-token`, `verifier-without-token`, `timestamp-ms`,
    /// `form-raw`, `json-invalid`.
    pub fn code(&self) -> &'static str {
        match self {
            Lint::EmptyConsumerKey => "empty-consumer-key",
            Lint::EmptyConsumerSecret => "empty-consumer-secret",
            Lint::TokenWithoutSecret => "token-without-secret",
            Lint::SecretWithoutToken => "secret-without-token",
            Lint::VerifierWithoutToken => "verifier-without-token",
            Lint::TimestampInMilliseconds { .. } => "timestamp-ms",
            Lint::RawByteInFormBody { .. } => "form-raw",
            Lint::InvalidJson { .. } => "json-invalid",
        }
    }
}

impl fmt::Display for Lint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lint::EmptyConsumerKey => {
                f.write_str("the consumer key is empty: every request carries the app's consumer key")
            }
            Lint::EmptyConsumerSecret => f.write_str(
                "the consumer secret is empty: the signing key then starts with '&', and the provider's will not",
            ),
            Lint::TokenWithoutSecret => f.write_str(
                "a token without its token secret: the key is made with the secret that came with the token",
            ),
            Lint::SecretWithoutToken => {
                f.write_str("a token secret without its token: the token is sent, its secret only signs")
            }
            Lint::VerifierWithoutToken => f.write_str(
                "a verifier without a token: it goes with the temporary token it was issued for (RFC 5849 §2.3)",
            ),
            Lint::TimestampInMilliseconds { given, seconds } => write!(
                f,
                "the timestamp {given} looks like milliseconds (13 digits); OAuth counts seconds: {seconds}"
            ),
            Lint::RawByteInFormBody { offset } => write!(
                f,
                "the form body holds a byte at {offset} that a form-encoded body carries only \
                 percent-encoded: it is signed as typed, and the other side will not read it so"
            ),
            Lint::InvalidJson { line, column } => write!(
                f,
                "the JSON body does not parse (line {line}, column {column}): it is sent all the \
                 same, but the server will refuse it"
            ),
        }
    }
}

impl RequestSpec {
    /// What is likely a slip in this request, though it signs ([`Lint`]),
    /// in the order of [`Lint`]'s variants. The secrets' lints are left out
    /// for an RSA method, which signs with the private key alone.
    ///
    /// ```
    /// use oauth1_signer::outgoing::Lint;
    /// use oauth1_signer::RequestSpec;
    ///
    /// let spec = RequestSpec::from_json(r#"{"method": "POST", "url": "https://h/", "consumer_key": "k",
    ///     "consumer_secret": "s", "token": "t", "timestamp": "1318622958000", "form_body": "status=ağaç"}"#)?;
    /// let codes: Vec<&str> = spec.lints().iter().map(Lint::code).collect();
    /// assert_eq!(codes, ["token-without-secret", "timestamp-ms", "form-raw"]);
    /// assert!(matches!(spec.lints()[2], Lint::RawByteInFormBody { offset: 8, .. }));
    /// # Ok::<(), oauth1_signer::json::JsonError>(())
    /// ```
    pub fn lints(&self) -> Vec<Lint> {
        let empty = |s: &Option<Secret>| s.as_ref().is_none_or(|s| s.expose().is_empty());
        let token = self.token.as_deref().is_some_and(|t| !t.is_empty());
        let rsa = self.method().is_ok_and(|m| m.is_rsa());
        let mut out = Vec::new();
        if self.consumer_key.is_empty() {
            out.push(Lint::EmptyConsumerKey);
        }
        if !rsa && empty(&self.consumer_secret) {
            out.push(Lint::EmptyConsumerSecret);
        }
        if !rsa && token && empty(&self.token_secret) {
            out.push(Lint::TokenWithoutSecret);
        }
        if !token && !empty(&self.token_secret) {
            out.push(Lint::SecretWithoutToken);
        }
        if !token && self.verifier.as_deref().is_some_and(|v| !v.is_empty()) {
            out.push(Lint::VerifierWithoutToken);
        }
        // Seconds since 1970 have ten digits until the year 2286; thirteen
        // are milliseconds.
        if let Some(ts) = self.timestamp.as_deref().map(str::trim)
            && ts.len() >= 13
            && ts.bytes().all(|b| b.is_ascii_digit())
        {
            out.push(Lint::TimestampInMilliseconds {
                given: ts.to_owned(),
                seconds: ts[..ts.len() - 3].to_owned(),
            });
        }
        // A form body is encoded as a query is (RFC 3986 §3.4, the bytes
        // the URL parser takes raw in one); a malformed escape is the
        // signer's to refuse, with its offset.
        if let Some(body) = &self.form_body
            && let Some(offset) = body
                .bytes()
                .position(|b| !(b == b'%' || is_pchar(b) || matches!(b, b'/' | b'?')))
        {
            out.push(Lint::RawByteInFormBody { offset });
        }
        #[cfg(any(feature = "json", feature = "capture"))]
        if let Some(lint) = self.invalid_json() {
            out.push(lint);
        }
        out
    }

    /// [`Lint::InvalidJson`] for a JSON body that does not parse.
    #[cfg(any(feature = "json", feature = "capture"))]
    fn invalid_json(&self) -> Option<Lint> {
        let media = self.content_type.as_deref()?;
        let essence = media.split(';').next().unwrap_or_default().trim();
        let body = self.body.as_deref().filter(|b| !b.is_empty())?;
        if !essence.eq_ignore_ascii_case("application/json") {
            return None;
        }
        let e = serde_json::from_slice::<serde::de::IgnoredAny>(body).err()?;
        Some(Lint::InvalidJson {
            line: e.line(),
            column: e.column(),
        })
    }
}

#[cfg(all(test, feature = "json"))]
mod tests {
    use super::*;

    fn lints(json: &str) -> Vec<Lint> {
        RequestSpec::from_json(json).unwrap().lints()
    }

    // The page's cases before the rule moved here (its "slips are hinted").
    #[test]
    fn slips_are_found_and_a_clean_request_has_none() {
        let got = lints(
            r#"{"method": "GET", "url": "https://h/", "consumer_key": "", "token": "t",
                "verifier": "v", "timestamp": "1318622958000"}"#,
        );
        let codes: Vec<&str> = got.iter().map(Lint::code).collect();
        assert_eq!(
            codes,
            [
                "empty-consumer-key",
                "empty-consumer-secret",
                "token-without-secret",
                "timestamp-ms"
            ]
        );
        assert_eq!(
            got[3],
            Lint::TimestampInMilliseconds {
                given: "1318622958000".into(),
                seconds: "1318622958".into()
            }
        );
        // The X docs "Creating a signature" request.
        assert_eq!(
            lints(
                r#"{"method": "POST", "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true",
                "form_body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
                "consumer_key": "xvz1evFS4wEEPTGEFPHBog", "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
                "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb", "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
                "timestamp": "1318622958"}"#
            ),
            []
        );
    }

    #[test]
    fn a_verifier_or_a_secret_without_its_token_is_found() {
        let codes = |json| lints(json).iter().map(Lint::code).collect::<Vec<_>>();
        assert_eq!(
            codes(
                r#"{"method": "GET", "url": "https://h/", "consumer_key": "k", "consumer_secret": "s", "token_secret": "ts", "verifier": "v"}"#
            ),
            ["secret-without-token", "verifier-without-token"]
        );
    }

    #[test]
    fn an_rsa_method_needs_no_secret() {
        let got = lints(
            r#"{"method": "GET", "url": "https://h/", "consumer_key": "k", "token": "t",
                "signature_method": "RSA-SHA1"}"#,
        );
        assert_eq!(got, []);
    }

    #[test]
    fn a_form_body_typed_as_text_is_found_at_its_first_raw_byte() {
        let at = |body: &str| {
            let json = serde_json::json!({"method": "POST", "url": "https://h/",
                "consumer_key": "k", "consumer_secret": "s", "form_body": body});
            lints(&json.to_string())
        };
        // "status=a" is 8 bytes.
        assert_eq!(
            at("status=ağaç ığdır"),
            [Lint::RawByteInFormBody { offset: 8 }]
        );
        assert_eq!(at("a=1&b=x y"), [Lint::RawByteInFormBody { offset: 7 }]);
        assert_eq!(at("status=a%C4%9Fa%C3%A7"), []);
    }

    #[test]
    fn json_that_does_not_parse_is_found_where_serde_json_stops() {
        let json = |body: &str, media: &str| {
            let spec = serde_json::json!({"method": "POST", "url": "https://h/",
                "consumer_key": "k", "consumer_secret": "s", "body": body, "content_type": media});
            lints(&spec.to_string())
        };
        assert_eq!(
            json("{\"text\":", "application/json"),
            [Lint::InvalidJson { line: 1, column: 8 }]
        );
        assert_eq!(json("{\"text\": 1}", "application/json; charset=utf-8"), []);
        assert_eq!(json("{\"text\":", "text/plain"), []);
    }
}
