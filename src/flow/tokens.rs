//! The provider's token responses (RFC 5849 §2.1, §2.3): a strict
//! `application/x-www-form-urlencoded` body read into [`TemporaryCredentials`]
//! (which insist on `oauth_callback_confirmed=true`) or [`TokenCredentials`]
//! (which keep the other parameters, such as X's `user_id` and
//! `screen_name`). An error names a byte offset or a parameter, never a value:
//! the body holds a secret.

use super::FlowError;
use crate::credentials::{Credentials, Secret};
use crate::decode::form_decode;

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
}
