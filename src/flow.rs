//! The three-legged flow: obtaining token credentials ([RFC 5849 §2]; X's
//! "Obtaining user access tokens").
//!
//! 1. Temporary credentials (§2.1): a `POST` to the provider's request-token
//!    URL, signed with the client credentials alone and `oauth_callback`
//!    (`oob` for a PIN); the answer is parsed by [`TemporaryCredentials::parse`],
//!    which insists on `oauth_callback_confirmed=true`.
//! 2. Resource owner authorisation (§2.2): the user opens
//!    [`authorize_url`] and comes back with a verifier (X shows a PIN).
//! 3. Token credentials (§2.3): a `POST` to the access-token URL, signed with
//!    the temporary credentials and `oauth_verifier`; the answer is parsed by
//!    [`TokenCredentials::parse`].
//!
//! The parsing and the URL work with any HTTP client: sign each request with
//! [`Signer::authorization`](crate::Signer::authorization) and
//! [`OAuthRequest::callback`](crate::OAuthRequest::callback) or
//! [`verifier`](crate::OAuthRequest::verifier), and hand the response here.
//! With the `reqwest` feature, [`request_temporary_credentials`] and
//! [`request_token_credentials`] do the sending too.
//!
//! [RFC 5849 §2]: https://www.rfc-editor.org/rfc/rfc5849#section-2

#[cfg(feature = "reqwest")]
mod send;
mod tokens;

use std::fmt;

use crate::encode::percent_encode_str;
use crate::error::Error;

#[cfg(feature = "reqwest")]
pub use send::{request_temporary_credentials, request_token_credentials};
pub use tokens::{TemporaryCredentials, TokenCredentials};

/// A provider's three endpoints (RFC 5849 §2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoints {
    /// The temporary-credentials (request-token) URL (§2.1).
    pub request_token: String,
    /// The resource-owner authorisation URL (§2.2).
    pub authorize: String,
    /// The token-credentials (access-token) URL (§2.3).
    pub access_token: String,
}

impl Endpoints {
    /// The X API's endpoints: `https://api.x.com/oauth/request_token`,
    /// `.../oauth/authorize` and `.../oauth/access_token`.
    pub fn x() -> Endpoints {
        Endpoints {
            request_token: "https://api.x.com/oauth/request_token".into(),
            authorize: "https://api.x.com/oauth/authorize".into(),
            access_token: "https://api.x.com/oauth/access_token".into(),
        }
    }
}

/// Why a step of the flow failed. No variant carries a secret: a token
/// response is never quoted, only the names of its parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FlowError {
    /// The provider answered with an error status. `message` is its body
    /// (X's error JSON, say), cut to 1000 characters, control characters
    /// replaced.
    Provider {
        /// The HTTP status code.
        status: u16,
        /// What the provider said.
        message: String,
    },
    /// The response is not a strict `application/x-www-form-urlencoded` body.
    Malformed {
        /// What is wrong, and at which byte.
        reason: String,
    },
    /// A parameter the step needs is missing (or, for `oauth_token`, empty).
    MissingParameter {
        /// Its name.
        name: &'static str,
    },
    /// A parameter is given twice.
    DuplicateParameter {
        /// Its name.
        name: String,
    },
    /// The temporary-credentials response lacks `oauth_callback_confirmed=true`
    /// (§2.1), so the callback may not have been recorded.
    CallbackNotConfirmed,
    /// The request could not be signed.
    Sign(Error),
    /// The request could not be sent or the response not read.
    Transport {
        /// The HTTP client's message.
        message: String,
    },
    /// A redirect that is not followed: to another origin (named), one too
    /// many, or one the HTTP client followed itself with a stale signature.
    #[cfg(feature = "reqwest")]
    Redirect(crate::redirect::RedirectError),
}

impl fmt::Display for FlowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlowError::Provider { status, message } => {
                write!(f, "the provider answered {status}: {message}")
            }
            FlowError::Malformed { reason } => {
                write!(f, "malformed token response: {reason}")
            }
            FlowError::MissingParameter { name } => {
                write!(f, "the token response has no {name}")
            }
            FlowError::DuplicateParameter { name } => {
                write!(f, "the token response gives {name:?} twice")
            }
            FlowError::CallbackNotConfirmed => f.write_str(
                "the temporary-credentials response lacks oauth_callback_confirmed=true \
                 (RFC 5849 §2.1)",
            ),
            FlowError::Sign(e) => write!(f, "cannot sign the request: {e}"),
            FlowError::Transport { message } => write!(f, "cannot reach the provider: {message}"),
            #[cfg(feature = "reqwest")]
            FlowError::Redirect(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FlowError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FlowError::Sign(e) => Some(e),
            #[cfg(feature = "reqwest")]
            FlowError::Redirect(e) => Some(e),
            _ => None,
        }
    }
}

impl FlowError {
    /// The error for a response with a status other than 2xx: the
    /// provider's message, for any HTTP client.
    ///
    /// ```
    /// use oauth1_signer::FlowError;
    ///
    /// let e = FlowError::provider(401, br#"{"errors":[{"code":32,"message":"Could not authenticate you."}]}"#);
    /// assert!(e.to_string().contains("401") && e.to_string().contains("Could not authenticate you."));
    /// ```
    pub fn provider(status: u16, body: &[u8]) -> FlowError {
        let text = String::from_utf8_lossy(body);
        let message: String = text
            .trim()
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(1000)
            .collect();
        FlowError::Provider { status, message }
    }
}

/// The URL to send the user to (§2.2): `authorize` with `oauth_token`
/// added to its query.
///
/// ```
/// use oauth1_signer::authorize_url;
///
/// assert_eq!(
///     authorize_url("https://api.x.com/oauth/authorize", "Z6eEdO8M+Xfw"),
///     "https://api.x.com/oauth/authorize?oauth_token=Z6eEdO8M%2BXfw",
/// );
/// assert_eq!(authorize_url("https://h/a?force_login=true", "t"), "https://h/a?force_login=true&oauth_token=t");
/// ```
pub fn authorize_url(authorize: &str, temporary_token: &str) -> String {
    let sep = match authorize.find('?') {
        None => "?",
        Some(q) if q + 1 == authorize.len() || authorize.ends_with('&') => "",
        Some(_) => "&",
    };
    format!(
        "{authorize}{sep}oauth_token={}",
        percent_encode_str(temporary_token)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_errors_keep_the_message_in_one_line() {
        let e = FlowError::provider(
            403,
            b"<errors>\n<error code=\"415\">Callback URL not approved</error>\n</errors>\n",
        );
        assert_eq!(
            e.to_string(),
            "the provider answered 403: <errors> <error code=\"415\">Callback URL not approved</error> </errors>"
        );
    }

    #[test]
    fn authorize_url_adds_the_token_to_any_query() {
        assert_eq!(
            authorize_url("https://h/a?", "t"),
            "https://h/a?oauth_token=t"
        );
        assert_eq!(
            authorize_url("https://h/a?x=1&", "t"),
            "https://h/a?x=1&oauth_token=t"
        );
        assert_eq!(
            Endpoints::x().authorize,
            "https://api.x.com/oauth/authorize"
        );
    }
}
