//! OAuth Echo: delegating the proof of who a user is to a third party (a
//! media host, say) that holds neither the consumer's nor the user's
//! secret ([X's OAuth Echo page]).
//!
//! The consumer signs the call it would make to the service provider's
//! identity endpoint (X's `GET /1.1/account/verify_credentials.json`) and,
//! instead of sending it, gives the delegator two headers:
//! `X-Auth-Service-Provider` (that endpoint's URL) and
//! `X-Verify-Credentials-Authorization` (the `Authorization` header it
//! would have sent). The delegator **cannot verify** that signature (it
//! has neither secret): it checks that the URL is one it trusts, exactly,
//! and sends that request itself, with that header; the provider's `200`
//! (and the user it names) is the proof, its `401` the refusal. So a
//! delegator needs [`EchoHeaders::trusted`], not a
//! [`Verifier`](crate::verify::Verifier), and the whole exchange must fit in
//! the provider's timestamp window.
//!
//! ```
//! use oauth1_signer::provider::echo::{EchoHeaders, X_VERIFY_CREDENTIALS};
//! use oauth1_signer::{Credentials, Signer};
//!
//! // The consumer, for the user whose tokens it holds:
//! let signer = Signer::new(Credentials::new("ck", "cs").with_token("tk", "ts"));
//! let echo = EchoHeaders::sign(&signer, X_VERIFY_CREDENTIALS)?;
//! let [(provider_name, provider), (authorization_name, authorization)] = echo.headers();
//! assert_eq!((provider_name, provider), ("X-Auth-Service-Provider", X_VERIFY_CREDENTIALS));
//! assert_eq!(authorization_name, "X-Verify-Credentials-Authorization");
//! assert!(authorization.starts_with("OAuth oauth_consumer_key=\"ck\", "));
//!
//! // The delegator, which trusts X's endpoint alone, forwards it as given:
//! let (url, header) = EchoHeaders::trusted(provider, authorization, &[X_VERIFY_CREDENTIALS])?;
//! assert_eq!(url, X_VERIFY_CREDENTIALS);
//! // ...GET `url` with `Authorization: {header}`; X's 200 names the user.
//! assert!(EchoHeaders::trusted("https://api.x.com.evil.example/1.1/account/verify_credentials.json",
//!                              authorization, &[X_VERIFY_CREDENTIALS]).is_err());
//! # Ok::<(), oauth1_signer::Error>(())
//! ```
//!
//! [X's OAuth Echo page]: https://docs.x.com/resources/fundamentals/authentication/oauth-1-0a/oauth-echo

use std::fmt;

use crate::error::{Error, ErrorKind, Part};
use crate::pipeline::protocol::Protocol;
use crate::pipeline::request::OAuthRequest;
use crate::pipeline::signer::Signer;
use crate::text::scan::find_non_field_byte;

/// X's identity endpoint, the `X-Auth-Service-Provider` of an Echo to X.
pub const X_VERIFY_CREDENTIALS: &str = "https://api.x.com/1.1/account/verify_credentials.json";

/// The header naming the provider's identity endpoint.
pub const PROVIDER_HEADER: &str = "X-Auth-Service-Provider";

/// The header holding the `Authorization` value signed for it.
pub const AUTHORIZATION_HEADER: &str = "X-Verify-Credentials-Authorization";

/// The two headers of an OAuth Echo.
#[derive(Clone, PartialEq, Eq)]
pub struct EchoHeaders {
    provider: String,
    authorization: String,
}

impl EchoHeaders {
    /// Signs `GET provider_url` with `signer` (the user's credentials), in
    /// the header, for a delegator to send.
    ///
    /// # Errors
    /// As [`Signer::sign`]: a URL that cannot be signed.
    pub fn sign(signer: &Signer, provider_url: &str) -> Result<EchoHeaders, Error> {
        let authorization = signer.authorization_header(&OAuthRequest::get(provider_url))?;
        Ok(EchoHeaders {
            provider: provider_url.to_owned(),
            authorization,
        })
    }

    /// The identity endpoint's URL (`X-Auth-Service-Provider`).
    pub fn provider(&self) -> &str {
        &self.provider
    }

    /// The `Authorization` value for it (`X-Verify-Credentials-Authorization`).
    pub fn authorization(&self) -> &str {
        &self.authorization
    }

    /// Both, as `(name, value)` header pairs.
    pub fn headers(&self) -> [(&'static str, &str); 2] {
        [
            (PROVIDER_HEADER, &self.provider),
            (AUTHORIZATION_HEADER, &self.authorization),
        ]
    }

    /// For a delegator: the URL and the `Authorization` value to send, when
    /// `provider` is exactly one of the `trusted` URLs and `authorization`
    /// an OAuth header. Anything else is refused: a delegator that sent a
    /// user's header to a URL the client chose would let any client make it
    /// call any server.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidProtocolValue`] naming the header: a provider
    /// URL not trusted (no prefix or host match: only the whole URL), an
    /// authorization that is not `OAuth ...`; [`ErrorKind::InvalidByte`]
    /// for a byte no header value holds (CR, LF, NUL, another control), at
    /// its offset; the header parser's errors for one that does not parse.
    pub fn trusted<'a>(
        provider: &'a str,
        authorization: &'a str,
        trusted: &[&str],
    ) -> Result<(&'a str, &'a str), Error> {
        if !trusted.contains(&provider) {
            return Err(Error::new(ErrorKind::InvalidProtocolValue {
                name: PROVIDER_HEADER,
                reason: "not a provider URL this delegator trusts (it must be one of them, \
                         exactly)",
            }));
        }
        // A header value: CR LF would start another header of the request
        // the delegator sends, and NUL or another control byte is no
        // header's (RFC 9110 §5.5).
        if let Some(at) = find_non_field_byte(authorization.as_bytes()) {
            return Err(Error::invalid_byte(
                Part::Header,
                at,
                authorization.as_bytes()[at],
                "visible ASCII, spaces and tabs: X-Verify-Credentials-Authorization is \
                 forwarded as a header",
            ));
        }
        let scheme = authorization.get(..6);
        if !scheme.is_some_and(|s| s.eq_ignore_ascii_case("OAuth ")) {
            return Err(Error::new(ErrorKind::InvalidProtocolValue {
                name: AUTHORIZATION_HEADER,
                reason: "not an OAuth header (\"OAuth oauth_consumer_key=...\")",
            }));
        }
        // And it reads as one, strictly: what is forwarded is an OAuth header.
        Protocol::from_header(authorization)?;
        Ok((provider, authorization))
    }
}

impl fmt::Debug for EchoHeaders {
    /// The provider URL; the authorization only by its length (a PLAINTEXT
    /// signature in it is the signing key).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EchoHeaders")
            .field("provider", &self.provider)
            .field("authorization_len", &self.authorization.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const URL: &str = "https://api.x.com/1.1/account/verify_credentials.json";

    #[test]
    fn an_authorization_that_would_be_another_header_is_refused() {
        let ok = r#"OAuth oauth_consumer_key="ck", oauth_signature="s""#;
        assert_eq!(EchoHeaders::trusted(URL, ok, &[URL]).unwrap(), (URL, ok));
        for (bad, at) in [
            (format!("{ok}\r\nX-Injected: 1"), ok.len()),
            (format!("{ok}\r\n"), ok.len()),
            (format!("{ok}\n"), ok.len()),
            ("OAuth oauth_consumer_key=\"c\0k\"".to_owned(), 27),
            ("OAuth\x0boauth_consumer_key=\"ck\"".to_owned(), 5),
        ] {
            let e = EchoHeaders::trusted(URL, &bad, &[URL]).unwrap_err();
            assert_eq!(e.offset(), Some((Part::Header, at)), "{bad:?}: {e}");
        }
        // An OAuth scheme with nothing that parses after it is no header.
        assert!(EchoHeaders::trusted(URL, "OAuth =", &[URL]).is_err());
    }
}
