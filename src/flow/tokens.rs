//! The provider's token responses (RFC 5849 §2.1, §2.3): a strict
//! `application/x-www-form-urlencoded` body read into [`TemporaryCredentials`]
//! (which insist on `oauth_callback_confirmed=true`) or [`TokenCredentials`]
//! (which keep the other parameters, such as X's `user_id` and
//! `screen_name`). An error names a byte offset or a parameter, never a value:
//! the body holds a secret.
//!
//! A provider writes the same answers: [`TemporaryCredentials::new`] and
//! [`TokenCredentials::new`] take what it issued, and `response_body` writes
//! the body that `parse` reads back to the same values (RFC 5849 §2.1's
//! `oauth_callback_confirmed=true` included), each name and value
//! percent-encoded as §3.6 encodes them.

use super::FlowError;
use crate::pipeline::credentials::{Credentials, Secret};
use crate::pipeline::header::encode_pairs;
use crate::provider::profile::FlowQuirks;
use crate::text::decode::form_decode;
use crate::text::encode::encoded_len;
use crate::text::form::segments;
use crate::text::repeat::first_repeat;
use crate::text::scan::is_form_byte;

/// The longest token answer read, in bytes: 64 KiB. Real answers are a few
/// hundred bytes (two tokens, a user id, a screen name); a longer body is
/// refused with [`FlowError::TooLarge`] before it is looked at.
pub const MAX_TOKEN_ANSWER: usize = 64 * 1024;

/// The parameters of a token response, decoded; names are unique.
///
/// The body must be form encoding as serialisers write it (RFC 5849 §2.1
/// and §2.3 say `application/x-www-form-urlencoded`): every raw byte
/// [`is_form_byte`], every segment `name=value`. A byte outside is refused
/// at its offset, before any parameter is read, so that a stray newline is
/// reported as one and not as a value that is wrong.
fn parse_form(body: &[u8]) -> Result<Vec<(String, String)>, FlowError> {
    if body.len() > MAX_TOKEN_ANSWER {
        return Err(FlowError::TooLarge {
            limit: MAX_TOKEN_ANSWER,
        });
    }
    if body.is_empty() {
        return Err(FlowError::Malformed {
            reason: "the body is empty".into(),
        });
    }
    if let Some(at) = body.iter().position(|&b| !is_form_byte(b)) {
        return Err(FlowError::Malformed {
            reason: refused_byte(body, at),
        });
    }
    let mut params: Vec<(String, String)> = Vec::new();
    // Every segment, empty ones too: each must hold an `=`.
    for pair in segments(body) {
        let Some(value) = pair.value else {
            return Err(FlowError::Malformed {
                reason: format!("the parameter at byte {} has no '='", pair.at),
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
        let name = decode(pair.name, pair.at)?;
        let value = decode(value, pair.value_at())?;
        params.push((name, value));
    }
    check_unique(&params)?;
    Ok(params)
}

/// Refuses a name given twice, in `n log n` ([`first_repeat`], the rule
/// the protocol parameters' model uses too).
fn check_unique(params: &[(String, String)]) -> Result<(), FlowError> {
    match first_repeat(params.iter().map(|(n, _)| n.as_str())) {
        Some(i) => Err(FlowError::DuplicateParameter {
            name: params[i].0.clone(),
        }),
        None => Ok(()),
    }
}

/// Why the byte at `at` is not form encoding, guessing the usual cause. The
/// byte is named in hex, never the text around it (it may be a secret's).
fn refused_byte(body: &[u8], at: usize) -> String {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    if body[at..].starts_with(BOM) {
        return format!(
            "a byte-order mark (EF BB BF) at offset {at}: a form-encoded token answer is \
             ASCII without one"
        );
    }
    let b = body[at];
    let trailing = body[at..].iter().all(|c| b" \t\r\n".contains(c));
    let cause = match b {
        b'\n' | b'\r' if trailing => "a trailing newline?",
        b'\r' | b'\n' => "a line break?",
        b' ' | b'\t' if trailing => "trailing white space?",
        b' ' => "a space, which form encoding writes as '+' or %20",
        0x00..=0x1F | 0x7F => "a control character",
        0x80.. => "not ASCII: form encoding writes it as %XX",
        _ => "form encoding writes it as %XX",
    };
    format!("byte {b:#04x} at offset {at} is not allowed in a form-encoded token answer ({cause})")
}

/// Reads a response body, stopping once it is over [`MAX_TOKEN_ANSWER`]
/// (the parse then refuses it): a provider cannot make us buffer more.
#[cfg(feature = "reqwest")]
pub(crate) async fn read_body(mut response: reqwest::Response) -> Result<Vec<u8>, FlowError> {
    let mut body = Vec::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| FlowError::transport(&e))?
    {
        let room = (MAX_TOKEN_ANSWER + 1).saturating_sub(body.len());
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() > MAX_TOKEN_ANSWER {
            break;
        }
    }
    Ok(body)
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

/// The checks that make `parse` read back what `response_body` writes:
/// a token that is not empty, names given once (the token's two among
/// them), an answer within [`MAX_TOKEN_ANSWER`] bytes once encoded.
fn check_issued<'a>(
    token: &str,
    pairs: impl Iterator<Item = (&'a str, &'a str)> + Clone,
) -> Result<(), FlowError> {
    if token.is_empty() {
        return Err(FlowError::MissingParameter {
            name: "oauth_token",
        });
    }
    if let Some(i) = first_repeat(pairs.clone().map(|(n, _)| n)) {
        return Err(FlowError::DuplicateParameter {
            name: pairs
                .clone()
                .nth(i)
                .map_or_else(String::new, |(n, _)| n.to_owned()),
        });
    }
    // Each pair's `name=value`, and an `&` between pairs.
    let len = pairs
        .map(|(n, v)| encoded_len(n.as_bytes()) + 1 + encoded_len(v.as_bytes()) + 1)
        .sum::<usize>()
        .saturating_sub(1);
    if len > MAX_TOKEN_ANSWER {
        return Err(FlowError::TooLarge {
            limit: MAX_TOKEN_ANSWER,
        });
    }
    Ok(())
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
    /// use oauth1_signer::flow::TemporaryCredentials;
    ///
    /// let t = TemporaryCredentials::parse(b"oauth_token=hh5s93j4hdidpola&oauth_token_secret=hdhd0244k9j7ao03&oauth_callback_confirmed=true")?;
    /// assert_eq!(t.token(), "hh5s93j4hdidpola");
    /// assert_eq!(t.secret().expose(), "hdhd0244k9j7ao03");
    /// assert!(TemporaryCredentials::parse(b"oauth_token=a&oauth_token_secret=b").is_err());
    /// # Ok::<(), oauth1_signer::flow::FlowError>(())
    /// ```
    ///
    /// # Errors
    /// [`FlowError::TooLarge`] for a body over [`MAX_TOKEN_ANSWER`];
    /// [`FlowError::Malformed`] for a body that is not strict form
    /// encoding (a raw byte other than `A-Z a-z 0-9 - . _ ~ * % + & =`,
    /// named with its offset; a bad `%` escape; a segment without `=`; a
    /// value not UTF-8), [`FlowError::DuplicateParameter`],
    /// [`FlowError::MissingParameter`] for a missing token or secret, and
    /// [`FlowError::CallbackNotConfirmed`] unless `oauth_callback_confirmed`
    /// is `true`.
    pub fn parse(body: &[u8]) -> Result<TemporaryCredentials, FlowError> {
        TemporaryCredentials::parse_with(body, &FlowQuirks::default())
    }

    /// [`parse`](Self::parse) for a provider whose answer has `quirks`: one
    /// without `oauth_callback_confirmed` (Magento's) when
    /// [`FlowQuirks::callback_confirmed`] is false.
    ///
    /// ```
    /// use oauth1_signer::{flow::TemporaryCredentials, Provider};
    ///
    /// let magento = Provider::Magento.profile().flow;
    /// let t = TemporaryCredentials::parse_with(b"oauth_token=a1&oauth_token_secret=b2", &magento)?;
    /// assert_eq!(t.token(), "a1");
    /// # Ok::<(), oauth1_signer::flow::FlowError>(())
    /// ```
    ///
    /// # Errors
    /// As [`parse`](Self::parse), but for the confirmation when not expected.
    pub fn parse_with(body: &[u8], quirks: &FlowQuirks) -> Result<TemporaryCredentials, FlowError> {
        let mut params = parse_form(body)?;
        let (token, secret) = take_token(&mut params)?;
        if quirks.callback_confirmed
            && !params
                .iter()
                .any(|(n, v)| n == "oauth_callback_confirmed" && v == "true")
        {
            return Err(FlowError::CallbackNotConfirmed);
        }
        Ok(TemporaryCredentials { token, secret })
    }

    /// The temporary credentials a provider issues (§2.1), to answer with
    /// [`response_body`](Self::response_body).
    ///
    /// # Errors
    /// What [`parse`](Self::parse) would refuse in the answer:
    /// [`FlowError::MissingParameter`] for an empty token,
    /// [`FlowError::TooLarge`] for an answer over [`MAX_TOKEN_ANSWER`]
    /// bytes.
    pub fn new(
        token: impl Into<String>,
        secret: impl Into<Secret>,
    ) -> Result<TemporaryCredentials, FlowError> {
        let (token, secret) = (token.into(), secret.into());
        check_issued(&token, temporary_pairs(&token, &secret).into_iter())?;
        Ok(TemporaryCredentials { token, secret })
    }

    /// The provider's answer (§2.1), the inverse of [`parse`](Self::parse):
    /// `oauth_token=...&oauth_token_secret=...&oauth_callback_confirmed=true`,
    /// names and values percent-encoded (§3.6). It holds the secret: it is
    /// for the client that asked, over TLS, never for a log.
    ///
    /// ```
    /// use oauth1_signer::flow::TemporaryCredentials;
    ///
    /// // RFC 5849 §2.1's answer.
    /// let t = TemporaryCredentials::new("hdk48Djdsa", "xyz4992k83j47x0b")?;
    /// assert_eq!(
    ///     t.response_body(),
    ///     "oauth_token=hdk48Djdsa&oauth_token_secret=xyz4992k83j47x0b&oauth_callback_confirmed=true"
    /// );
    /// # Ok::<(), oauth1_signer::flow::FlowError>(())
    /// ```
    pub fn response_body(&self) -> String {
        encode_pairs(temporary_pairs(&self.token, &self.secret))
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
    /// use oauth1_signer::flow::TokenCredentials;
    ///
    /// let t = TokenCredentials::parse(b"oauth_token=6253282-eWudHldSbIaelX7swmsiHImEL4KinwaGloHANdrY&oauth_token_secret=2EEfA6BG5ly3sR3XjE0IBSnlQu4ZrUzPiYTmrkVU&user_id=6253282&screen_name=twitterapi")?;
    /// assert_eq!(t.param("screen_name"), Some("twitterapi"));
    /// # Ok::<(), oauth1_signer::flow::FlowError>(())
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

    /// The token credentials a provider issues (§2.3), with the other
    /// parameters it answers (X's `user_id` and `screen_name`), to answer
    /// with [`response_body`](Self::response_body).
    ///
    /// # Errors
    /// What [`parse`](Self::parse) would refuse in the answer:
    /// [`FlowError::MissingParameter`] for an empty token,
    /// [`FlowError::DuplicateParameter`] for a name given twice or
    /// `oauth_token` or `oauth_token_secret` among `params`,
    /// [`FlowError::TooLarge`] for an answer over [`MAX_TOKEN_ANSWER`]
    /// bytes.
    pub fn new<'a>(
        token: impl Into<String>,
        secret: impl Into<Secret>,
        params: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<TokenCredentials, FlowError> {
        let (token, secret) = (token.into(), secret.into());
        let params: Vec<(String, String)> = params
            .into_iter()
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect();
        let pairs = token_pairs(&token, &secret)
            .into_iter()
            .chain(params.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        check_issued(&token, pairs)?;
        Ok(TokenCredentials {
            token,
            secret,
            params,
        })
    }

    /// The provider's answer (§2.3), the inverse of [`parse`](Self::parse):
    /// `oauth_token=...&oauth_token_secret=...`, then the other parameters
    /// in order, names and values percent-encoded (§3.6). It holds the
    /// secret: it is for the client that asked, over TLS, never for a log.
    ///
    /// ```
    /// use oauth1_signer::flow::TokenCredentials;
    ///
    /// // RFC 5849 §2.3's answer.
    /// let t = TokenCredentials::new("j49ddk933skd9dks", "ll399dj47dskfjdk", [])?;
    /// assert_eq!(t.response_body(), "oauth_token=j49ddk933skd9dks&oauth_token_secret=ll399dj47dskfjdk");
    /// # Ok::<(), oauth1_signer::flow::FlowError>(())
    /// ```
    pub fn response_body(&self) -> String {
        let params = self.params.iter().map(|(n, v)| (n.as_str(), v.as_str()));
        encode_pairs(
            token_pairs(&self.token, &self.secret)
                .into_iter()
                .chain(params),
        )
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

/// The pairs of a temporary-credentials answer (§2.1).
fn temporary_pairs<'a>(token: &'a str, secret: &'a Secret) -> [(&'a str, &'a str); 3] {
    [
        ("oauth_token", token),
        ("oauth_token_secret", secret.expose()),
        ("oauth_callback_confirmed", "true"),
    ]
}

/// The token's pairs of a token-credentials answer (§2.3).
fn token_pairs<'a>(token: &'a str, secret: &'a Secret) -> [(&'a str, &'a str); 2] {
    [
        ("oauth_token", token),
        ("oauth_token_secret", secret.expose()),
    ]
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

    /// `CONFIRMED` with `tail` spliced in at `at`: the refused byte is at
    /// `at`, counted by hand from the literal.
    const CONFIRMED: &[u8] =
        b"oauth_token=t&oauth_token_secret=SECRET&oauth_callback_confirmed=true";

    fn refusal(body: &[u8]) -> String {
        match TemporaryCredentials::parse(body).unwrap_err() {
            FlowError::Malformed { reason } => {
                assert!(!reason.contains("SECRET"), "{reason}");
                reason
            }
            other => panic!("{other:?} for {:?}", body.escape_ascii().to_string()),
        }
    }

    #[test]
    fn raw_bytes_outside_form_encoding_are_refused_where_they_are() {
        assert_eq!(CONFIRMED.len(), 69);
        let with = |at: usize, bytes: &[u8]| [&CONFIRMED[..at], bytes, &CONFIRMED[at..]].concat();
        // A good answer and a newline: the newline, not the callback.
        assert_eq!(
            refusal(&with(69, b"\n")),
            "byte 0x0a at offset 69 is not allowed in a form-encoded token answer \
             (a trailing newline?)"
        );
        assert!(
            refusal(&with(69, b" \t")).ends_with("(trailing white space?)"),
            "a good answer and trailing blanks"
        );
        assert_eq!(
            refusal(&with(69, b"\r\n")),
            "byte 0x0d at offset 69 is not allowed in a form-encoded token answer \
             (a trailing newline?)"
        );
        // A byte-order mark: not "has no oauth_token".
        assert_eq!(
            refusal(&with(0, b"\xEF\xBB\xBF")),
            "a byte-order mark (EF BB BF) at offset 0: a form-encoded token answer is \
             ASCII without one"
        );
        // "SECRET" starts at 33; a byte inside it is named, the secret is not.
        for (bytes, cause) in [
            (&b"\r\n"[..], "(a line break?)"),
            (b" ", "(a space, which form encoding writes as '+' or %20)"),
            (b"\x1b", "(a control character)"),
            (b"\x00", "(a control character)"),
            (b"\x7f", "(a control character)"),
            (b"\xc3\xa9", "(not ASCII: form encoding writes it as %XX)"),
            (b"\"", "(form encoding writes it as %XX)"),
            (b"#", "(form encoding writes it as %XX)"),
        ] {
            let reason = refusal(&with(36, bytes));
            assert!(
                reason.starts_with(&format!("byte {:#04x} at offset 36 ", bytes[0])),
                "{reason}"
            );
            assert!(reason.ends_with(cause), "{reason}");
        }
        // Every byte a serialiser leaves raw is still read.
        let t = TokenCredentials::parse(b"oauth_token=a*b-c.d_e~f&oauth_token_secret=s").unwrap();
        assert_eq!(t.token(), "a*b-c.d_e~f");
    }

    #[test]
    fn answers_over_the_limit_are_refused_and_answers_at_it_read() {
        let head = b"oauth_token=t&oauth_token_secret=s&x=";
        let mut body = head.to_vec();
        body.resize(MAX_TOKEN_ANSWER, b'a');
        let t = TokenCredentials::parse(&body).unwrap();
        assert_eq!(
            t.param("x").map(str::len),
            Some(MAX_TOKEN_ANSWER - head.len())
        );
        body.push(b'a');
        let e = TokenCredentials::parse(&body).unwrap_err();
        assert_eq!(e, FlowError::TooLarge { limit: 65536 });
        assert!(e.to_string().contains("65536 bytes"), "{e}");
    }

    #[test]
    fn duplicates_are_found_among_many_names() {
        // Names n0..n9999 once each, then one of them again, far from the first.
        let mut body = b"oauth_token=t&oauth_token_secret=s".to_vec();
        for i in 0..5000 {
            body.extend_from_slice(format!("&n{i}=v").as_bytes());
        }
        assert_eq!(
            TokenCredentials::parse(&body).unwrap().params().count(),
            5000
        );
        body.extend_from_slice(b"&n17=w");
        assert_eq!(
            TokenCredentials::parse(&body).unwrap_err(),
            FlowError::DuplicateParameter { name: "n17".into() }
        );
        // Names equal once decoded are the same name.
        assert_eq!(
            TokenCredentials::parse(b"oauth_token=t&oauth_token_secret=s&a_b=1&a%5Fb=2")
                .unwrap_err(),
            FlowError::DuplicateParameter { name: "a_b".into() }
        );
    }

    #[cfg(feature = "reqwest")]
    #[test]
    fn a_long_body_is_read_only_past_the_limit() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let read = |len: usize| {
            let response = reqwest::Response::from(http::Response::new(vec![b'a'; len]));
            runtime.block_on(read_body(response)).unwrap().len()
        };
        assert_eq!(read(10), 10);
        assert_eq!(read(MAX_TOKEN_ANSWER), MAX_TOKEN_ANSWER);
        assert_eq!(read(4 * MAX_TOKEN_ANSWER), MAX_TOKEN_ANSWER + 1);
    }

    /// Over a real connection, in chunks: every chunk is read up to the
    /// limit, and then no more. The server sends three 30,000-byte chunks and
    /// then holds the connection open without ending the body, so a reader
    /// that stopped early gets 30,000 bytes and one that read on waits for
    /// the server to give up, and then fails.
    #[cfg(feature = "reqwest")]
    #[test]
    fn reading_a_chunked_body_stops_at_the_limit() {
        use std::io::{Read as _, Write as _};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let server = std::thread::spawn(move || {
            let (mut socket, _) = listener.accept().unwrap();
            let mut request = [0u8; 4096];
            let _ = socket.read(&mut request).unwrap();
            let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
            socket.write_all(head.as_bytes()).unwrap();
            for _ in 0..3 {
                let chunk = format!("{:x}\r\n{}\r\n", 30_000, "a".repeat(30_000));
                socket.write_all(chunk.as_bytes()).unwrap();
                socket.flush().unwrap();
            }
            // No final chunk: the body never ends while this sleeps.
            std::thread::sleep(std::time::Duration::from_secs(3));
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let body = runtime.block_on(async {
            let response = reqwest::get(format!("http://{addr}/")).await.unwrap();
            read_body(response).await
        });
        assert_eq!(body.unwrap().len(), MAX_TOKEN_ANSWER + 1);
        server.join().unwrap();
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
    fn what_is_issued_is_read_back_as_it_was() {
        // Every byte class a token, secret or value could hold: reserved,
        // `+` (a space to form decoding), `%`, UTF-8, the empty secret.
        for (token, secret) in [
            ("a+b", "s !"),
            ("100%", ""),
            ("tok/=&?#", "sé\u{2603}"),
            ("~-._*", "%41"),
        ] {
            let t = TemporaryCredentials::new(token, secret).unwrap();
            let back = TemporaryCredentials::parse(t.response_body().as_bytes()).unwrap();
            assert_eq!((back.token(), back.secret().expose()), (token, secret));
            let params = [("user_id", "6253282"), ("screen_name", secret), ("", token)];
            let k = TokenCredentials::new(token, secret, params).unwrap();
            let back = TokenCredentials::parse(k.response_body().as_bytes()).unwrap();
            assert_eq!((back.token(), back.secret().expose()), (token, secret));
            assert_eq!(back.params().collect::<Vec<_>>(), params);
        }
    }

    #[test]
    fn what_parse_would_refuse_is_not_issued() {
        let empty = FlowError::MissingParameter {
            name: "oauth_token",
        };
        assert_eq!(TemporaryCredentials::new("", "s").unwrap_err(), empty);
        assert_eq!(TokenCredentials::new("", "s", []).unwrap_err(), empty);
        for (params, name) in [
            (&[("a", "1"), ("a", "2")][..], "a"),
            (&[("oauth_token", "t2")], "oauth_token"),
            (&[("oauth_token_secret", "s2")], "oauth_token_secret"),
        ] {
            assert_eq!(
                TokenCredentials::new("t", "s", params.iter().copied()).unwrap_err(),
                FlowError::DuplicateParameter { name: name.into() }
            );
        }
        // At the limit, written and read; a byte more, refused. The head
        // `oauth_token=t&oauth_token_secret=s&x=` is 37 bytes.
        let at = "a".repeat(MAX_TOKEN_ANSWER - 37);
        let t = TokenCredentials::new("t", "s", [("x", at.as_str())]).unwrap();
        assert_eq!(t.response_body().len(), MAX_TOKEN_ANSWER);
        assert!(TokenCredentials::parse(t.response_body().as_bytes()).is_ok());
        let over = format!("{at}a");
        assert_eq!(
            TokenCredentials::new("t", "s", [("x", over.as_str())]).unwrap_err(),
            FlowError::TooLarge {
                limit: MAX_TOKEN_ANSWER
            }
        );
        // An escape counts its three bytes: around a secret of n `/`s,
        // `oauth_token=t&oauth_token_secret=` and
        // `&oauth_callback_confirmed=true` are 63 bytes, so 21,824 of them
        // make 65,535 bytes and 21,825 make 65,538.
        let slashes = "/".repeat(21_824);
        let t = TemporaryCredentials::new("t", slashes.as_str()).unwrap();
        assert_eq!(t.response_body().len(), 65_535);
        let slashes = "/".repeat(21_825);
        assert!(TemporaryCredentials::new("t", slashes.as_str()).is_err());
    }
}
