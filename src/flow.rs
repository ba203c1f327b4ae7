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

use std::fmt;

use crate::credentials::{Credentials, Secret};
use crate::decode::form_decode;
use crate::encode::percent_encode_str;
use crate::error::Error;

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
        }
    }
}

impl std::error::Error for FlowError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FlowError::Sign(e) => Some(e),
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

/// The parameters of a token response, decoded; names are unique.
fn parse_form(body: &[u8]) -> Result<Vec<(String, String)>, FlowError> {
    if body.is_empty() {
        return Err(FlowError::Malformed {
            reason: "the body is empty".into(),
        });
    }
    let mut params: Vec<(String, String)> = Vec::new();
    let mut at = 0;
    for segment in body.split(|&b| b == b'&') {
        let Some(eq) = segment.iter().position(|&b| b == b'=') else {
            return Err(FlowError::Malformed {
                reason: format!("the parameter at byte {at} has no '='"),
            });
        };
        let decode = |text: &[u8], base: usize| -> Result<String, FlowError> {
            let decoded = form_decode(text).map_err(|e| FlowError::Malformed {
                // Only where: the escape itself may be part of a secret.
                reason: format!(
                    "bad percent-encoding at byte {}",
                    base + e.offset().map_or(0, |(_, o)| o)
                ),
            })?;
            decoded
                .to_str()
                .map(str::to_owned)
                .ok_or_else(|| FlowError::Malformed {
                    reason: format!("the text at byte {base} is not UTF-8"),
                })
        };
        let name = decode(&segment[..eq], at)?;
        let value = decode(&segment[eq + 1..], at + eq + 1)?;
        if params.iter().any(|(n, _)| *n == name) {
            return Err(FlowError::DuplicateParameter { name });
        }
        params.push((name, value));
        at += segment.len() + 1;
    }
    Ok(params)
}

/// Takes the token and its secret out of `params`.
fn take_token(params: &mut Vec<(String, String)>) -> Result<(String, Secret), FlowError> {
    let mut take = |name: &'static str| {
        let at = params
            .iter()
            .position(|(n, _)| n == name)
            .ok_or(FlowError::MissingParameter { name })?;
        Ok::<_, FlowError>(params.remove(at).1)
    };
    let token = take("oauth_token")?;
    let secret = Secret::new(take("oauth_token_secret")?);
    if token.is_empty() {
        return Err(FlowError::MissingParameter {
            name: "oauth_token",
        });
    }
    Ok((token, secret))
}

/// Temporary credentials (a request token), from the first step (§2.1).
///
/// `Debug` hides the secret.
#[derive(Clone, Debug)]
pub struct TemporaryCredentials {
    token: String,
    secret: Secret,
}

impl TemporaryCredentials {
    /// Reads a temporary-credentials response body:
    /// `oauth_token=...&oauth_token_secret=...&oauth_callback_confirmed=true`.
    ///
    /// ```
    /// use oauth1_signer::TemporaryCredentials;
    ///
    /// let t = TemporaryCredentials::parse(b"oauth_token=hh5s93j4hdidpola&oauth_token_secret=hdhd0244k9j7ao03&oauth_callback_confirmed=true")?;
    /// assert_eq!(t.token(), "hh5s93j4hdidpola");
    /// assert_eq!(t.secret().expose(), "hdhd0244k9j7ao03");
    /// assert!(TemporaryCredentials::parse(b"oauth_token=a&oauth_token_secret=b").is_err());
    /// # Ok::<(), oauth1_signer::FlowError>(())
    /// ```
    ///
    /// # Errors
    /// [`FlowError::Malformed`] for a body that is not strict form
    /// encoding (or not UTF-8), [`FlowError::DuplicateParameter`],
    /// [`FlowError::MissingParameter`] for a missing token or secret, and
    /// [`FlowError::CallbackNotConfirmed`] unless `oauth_callback_confirmed`
    /// is `true`.
    pub fn parse(body: &[u8]) -> Result<TemporaryCredentials, FlowError> {
        let mut params = parse_form(body)?;
        let (token, secret) = take_token(&mut params)?;
        if !params
            .iter()
            .any(|(n, v)| n == "oauth_callback_confirmed" && v == "true")
        {
            return Err(FlowError::CallbackNotConfirmed);
        }
        Ok(TemporaryCredentials { token, secret })
    }

    /// The temporary token (`oauth_token`).
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The temporary token's secret.
    pub fn secret(&self) -> &Secret {
        &self.secret
    }

    /// `consumer` with this token, to sign the token-credentials request.
    pub fn credentials(&self, consumer: &Credentials) -> Credentials {
        Credentials::new(consumer.consumer_key(), consumer.consumer_secret().clone())
            .with_token(self.token.clone(), self.secret.clone())
    }
}

/// Token credentials (an access token), from the last step (§2.3), with
/// the other parameters of the response (X sends `user_id` and
/// `screen_name`).
///
/// `Debug` hides the secret.
#[derive(Clone, Debug)]
pub struct TokenCredentials {
    token: String,
    secret: Secret,
    params: Vec<(String, String)>,
}

impl TokenCredentials {
    /// Reads a token-credentials response body:
    /// `oauth_token=...&oauth_token_secret=...` and any other parameters.
    ///
    /// ```
    /// use oauth1_signer::TokenCredentials;
    ///
    /// let t = TokenCredentials::parse(b"oauth_token=6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY&oauth_token_secret=2EEfA6BG5ly3sR3XjE0IBSnlQu4ZrUzPiYTmrkVU&user_id=6253282&screen_name=twitterapi")?;
    /// assert_eq!(t.param("screen_name"), Some("twitterapi"));
    /// # Ok::<(), oauth1_signer::FlowError>(())
    /// ```
    ///
    /// # Errors
    /// As [`TemporaryCredentials::parse`], without the callback check.
    pub fn parse(body: &[u8]) -> Result<TokenCredentials, FlowError> {
        let mut params = parse_form(body)?;
        let (token, secret) = take_token(&mut params)?;
        Ok(TokenCredentials {
            token,
            secret,
            params,
        })
    }

    /// The token (`oauth_token`).
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The token's secret.
    pub fn secret(&self) -> &Secret {
        &self.secret
    }

    /// Another parameter of the response (`user_id`, `screen_name`...).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The other parameters of the response, in order.
    pub fn params(&self) -> impl Iterator<Item = (&str, &str)> {
        self.params.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    /// `consumer` with this token: the credentials to sign requests with.
    pub fn credentials(&self, consumer: &Credentials) -> Credentials {
        Credentials::new(consumer.consumer_key(), consumer.consumer_secret().clone())
            .with_token(self.token.clone(), self.secret.clone())
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

#[cfg(feature = "reqwest")]
mod send {
    use super::*;
    use crate::http::{Flow, HttpError, HttpOptions};
    use crate::middleware::sign_flow_request;
    use crate::signer::Signer;

    /// Sends a signed `POST` to `url` and reads the response body.
    async fn post(
        client: &reqwest::Client,
        signer: &Signer,
        url: &str,
        flow: Flow<'_>,
    ) -> Result<Vec<u8>, FlowError> {
        let mut request = client.post(url).build().map_err(|e| FlowError::Transport {
            message: e.to_string(),
        })?;
        sign_flow_request(signer, &mut request, HttpOptions::new(), flow).map_err(|e| match e {
            HttpError::Sign(e) => FlowError::Sign(e),
            other => FlowError::Transport {
                message: other.to_string(),
            },
        })?;
        let response = client
            .execute(request)
            .await
            .map_err(|e| FlowError::Transport {
                message: e.to_string(),
            })?;
        let status = response.status();
        let body = response.bytes().await.map_err(|e| FlowError::Transport {
            message: e.to_string(),
        })?;
        if !status.is_success() {
            return Err(FlowError::provider(status.as_u16(), &body));
        }
        Ok(body.to_vec())
    }

    /// Step 1 (§2.1): obtains temporary credentials from `url`, signed with
    /// the client credentials in `consumer` (any token in it is left out)
    /// and `oauth_callback` (`"oob"` for the PIN flow).
    ///
    /// # Errors
    /// [`FlowError::Provider`] for an error status, with the provider's
    /// message; a [`TemporaryCredentials::parse`] error; [`FlowError::Sign`]
    /// for a URL that cannot be signed; [`FlowError::Transport`].
    pub async fn request_temporary_credentials(
        client: &reqwest::Client,
        consumer: &Credentials,
        url: &str,
        callback: &str,
    ) -> Result<TemporaryCredentials, FlowError> {
        let signer = Signer::new(Credentials::new(
            consumer.consumer_key(),
            consumer.consumer_secret().clone(),
        ));
        let flow = Flow {
            callback: Some(callback),
            verifier: None,
        };
        TemporaryCredentials::parse(&post(client, &signer, url, flow).await?)
    }

    /// Step 3 (§2.3): exchanges the temporary credentials and the
    /// `verifier` (the PIN) for token credentials at `url`.
    ///
    /// # Errors
    /// As [`request_temporary_credentials`], with
    /// [`TokenCredentials::parse`]'s errors.
    pub async fn request_token_credentials(
        client: &reqwest::Client,
        consumer: &Credentials,
        temporary: &TemporaryCredentials,
        url: &str,
        verifier: &str,
    ) -> Result<TokenCredentials, FlowError> {
        let signer = Signer::new(temporary.credentials(consumer));
        let flow = Flow {
            callback: None,
            verifier: Some(verifier),
        };
        TokenCredentials::parse(&post(client, &signer, url, flow).await?)
    }
}

#[cfg(feature = "reqwest")]
pub use send::{request_temporary_credentials, request_token_credentials};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_responses_are_read_strictly() {
        let t = TokenCredentials::parse(
            b"oauth_token=a%2Bb&oauth_token_secret=s+%21&user_id=1&screen_name=x%20y",
        )
        .unwrap();
        assert_eq!(t.token(), "a+b");
        assert_eq!(t.secret().expose(), "s !");
        assert_eq!(
            t.params().collect::<Vec<_>>(),
            [("user_id", "1"), ("screen_name", "x y")]
        );
        for (body, want) in [
            (
                &b""[..],
                FlowError::Malformed {
                    reason: "the body is empty".into(),
                },
            ),
            (
                b"oauth_token=a",
                FlowError::MissingParameter {
                    name: "oauth_token_secret",
                },
            ),
            (
                b"oauth_token_secret=a",
                FlowError::MissingParameter {
                    name: "oauth_token",
                },
            ),
            (
                b"oauth_token=&oauth_token_secret=s",
                FlowError::MissingParameter {
                    name: "oauth_token",
                },
            ),
            (
                b"oauth_token=a&oauth_token=b&oauth_token_secret=s",
                FlowError::DuplicateParameter {
                    name: "oauth_token".into(),
                },
            ),
            (
                b"oauth_token=a&oauth_token_secret",
                FlowError::Malformed {
                    reason: "the parameter at byte 14 has no '='".into(),
                },
            ),
            (
                b"oauth_token=a&oauth_token_secret=SECRET%G",
                FlowError::Malformed {
                    reason: "bad percent-encoding at byte 39".into(),
                },
            ),
            (
                b"oauth_token=%FF&oauth_token_secret=s",
                FlowError::Malformed {
                    reason: "the text at byte 12 is not UTF-8".into(),
                },
            ),
        ] {
            let e = TokenCredentials::parse(body).unwrap_err();
            assert_eq!(e, want, "{}", String::from_utf8_lossy(body));
            assert!(!e.to_string().contains("SECRET"));
        }
    }

    #[test]
    fn the_callback_must_be_confirmed() {
        let ok = b"oauth_token=t&oauth_token_secret=s&oauth_callback_confirmed=true";
        assert_eq!(TemporaryCredentials::parse(ok).unwrap().token(), "t");
        for body in [
            &b"oauth_token=t&oauth_token_secret=s"[..],
            b"oauth_token=t&oauth_token_secret=s&oauth_callback_confirmed=false",
            b"oauth_token=t&oauth_token_secret=s&oauth_callback_confirmed=TRUE",
        ] {
            assert_eq!(
                TemporaryCredentials::parse(body).unwrap_err(),
                FlowError::CallbackNotConfirmed
            );
        }
    }

    #[test]
    fn secrets_stay_hidden() {
        let t = TemporaryCredentials::parse(
            b"oauth_token=t&oauth_token_secret=SECRET&oauth_callback_confirmed=true",
        )
        .unwrap();
        assert!(!format!("{t:?}").contains("SECRET"));
        let creds = t.credentials(&Credentials::new("ck", "CONSUMER"));
        assert_eq!(creds.token(), Some("t"));
        assert_eq!(creds.token_secret().expose(), "SECRET");
        let k = TokenCredentials::parse(b"oauth_token=t&oauth_token_secret=SECRET").unwrap();
        assert!(!format!("{k:?}").contains("SECRET"));
    }

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
