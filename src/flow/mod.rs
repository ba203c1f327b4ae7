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
//! [`Signer::authorization_header`](crate::Signer::authorization_header) and
//! [`OAuthRequest::callback`](crate::OAuthRequest::callback) or
//! [`oauth_verifier`](crate::OAuthRequest::oauth_verifier), and hand the response here.
//! With the `reqwest` feature, [`request_temporary_credentials`] and
//! [`request_token_credentials`] do the sending too.
//!
//! It imports the wings below it: the [`pipeline`](crate::pipeline) (the
//! signer, credentials, the query writer), the [`provider`](crate::provider)
//! (a provider's flow quirks), [`text`](crate::text) and, for the senders,
//! the `client`; no wing imports it.
//!
//! On the provider's side, [`check_callback`] is the rule for the
//! `oauth_callback` a server records and later redirects the user to:
//! `oob`, an absolute `http(s)` URL, or an app scheme the server names;
//! never `javascript:`, `data:`, `vbscript:` or `file:`; at most
//! [`MAX_CALLBACK`] bytes. The provider's answers are the parsers'
//! inverses: [`TemporaryCredentials::response_body`] (§2.1),
//! [`callback_url`] (§2.2) and [`TokenCredentials::response_body`] (§2.3).
//!
//! # A login end to end, without X
//!
//! The command-line tool's `oauth1 serve` stands in for all three legs at
//! X's paths on a local port: temporary credentials, an approval that
//! answers the verifier at once, and token credentials that then verify on
//! every other path. [`examples/serve_login.rs`][serve_login] runs the three
//! legs against it with the functions above, then signs a request with the
//! token credentials it got; from a checkout of the repository:
//!
//! ```sh
//! # a shell: the stand-in, with the consumer credentials the client signs with
//! cargo run -p oauth1-cli -- serve --listen 127.0.0.1:8080 --consumer-key ck --consumer-secret cs
//! # another shell: the login (each leg's answer printed; exit 0 once the
//! # request signed with the token credentials verified)
//! cargo run --features reqwest --example serve_login -- http://127.0.0.1:8080
//! ```
//!
//! Its core, each leg in turn:
//!
//! ```no_run
//! # #[cfg(feature = "reqwest")]
//! # async fn login() -> Result<(), Box<dyn std::error::Error>> {
//! use oauth1_signer::flow::{authorize_url, request_temporary_credentials, request_token_credentials};
//! use oauth1_signer::{client::client_builder, Credentials};
//!
//! let (base, consumer) = ("http://127.0.0.1:8080", Credentials::new("ck", "cs"));
//! let client = client_builder().build()?;
//! let temporary =
//!     request_temporary_credentials(&client, &consumer, &format!("{base}/oauth/request_token"), "oob").await?;
//! // The user's browser; `serve` approves at once: `oauth_token=...&oauth_verifier=...`.
//! let approval = authorize_url(&format!("{base}/oauth/authorize"), temporary.token());
//! let form = client.get(&approval).send().await?.text().await?;
//! let verifier = form.split('&').find_map(|p| p.strip_prefix("oauth_verifier=")).ok_or("no verifier")?;
//! let tokens = request_token_credentials(&client, &consumer, &temporary, &format!("{base}/oauth/access_token"), verifier).await?;
//! let signer = oauth1_signer::Signer::new(tokens.credentials(&consumer)); // signs as the user
//! # let _ = signer;
//! # Ok(())
//! # }
//! ```
//!
//! The repository's `cli/tests/flow_example.rs` runs the example against a
//! real `oauth1 serve`; docs/cli.md describes what `serve` answers at each
//! leg.
//!
//! [serve_login]: https://docs.rs/crate/oauth1-signer/latest/source/examples/serve_login.rs
//! [RFC 5849 §2]: https://www.rfc-editor.org/rfc/rfc5849#section-2
// The senders are linked to with the `reqwest` feature, else to docs.rs.
#![cfg_attr(
    feature = "reqwest",
    doc = "[`request_temporary_credentials`]: request_temporary_credentials\n\
           [`request_token_credentials`]: request_token_credentials"
)]
#![cfg_attr(
    not(feature = "reqwest"),
    doc = concat!(
        "[`request_temporary_credentials`]: https://docs.rs/oauth1-signer/",
        env!("CARGO_PKG_VERSION"),
        "/oauth1_signer/flow/fn.request_temporary_credentials.html\n",
        "[`request_token_credentials`]: https://docs.rs/oauth1-signer/",
        env!("CARGO_PKG_VERSION"),
        "/oauth1_signer/flow/fn.request_token_credentials.html"
    )
)]

mod callback;
#[cfg(feature = "reqwest")]
mod send;
mod tokens;

use std::fmt;

use crate::error::Error;
use crate::pipeline::header::append_to_query;
use crate::provider::profile::FlowQuirks;
use crate::text::printable::escape_controls;

pub use callback::{check_app_scheme, check_callback, CallbackError, MAX_CALLBACK};
#[cfg(feature = "reqwest")]
pub use send::{
    renew_access_token, request_temporary_credentials, request_temporary_credentials_with,
    request_token_credentials, request_token_credentials_with,
};
pub use tokens::{TemporaryCredentials, TokenCredentials, MAX_TOKEN_ANSWER};

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
    /// The response is longer than [`MAX_TOKEN_ANSWER`] bytes.
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
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
    Redirect(crate::client::redirect::RedirectError),
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
            FlowError::TooLarge { limit } => write!(
                f,
                "the token response is over {limit} bytes, more than any token answer needs"
            ),
            FlowError::CallbackNotConfirmed => f.write_str(
                "the temporary-credentials response lacks oauth_callback_confirmed=true \
                 (RFC 5849 §2.1)",
            ),
            // The cause is the source: a reporter prints each once.
            FlowError::Sign(_) => f.write_str("cannot sign the request"),
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
            // Its message is the redirect error's own (no second copy).
            _ => None,
        }
    }
}

impl FlowError {
    /// The error for a response with a status other than 2xx: the
    /// provider's message, for any HTTP client.
    ///
    /// ```
    /// use oauth1_signer::flow::FlowError;
    ///
    /// let e = FlowError::provider(401, br#"{"errors":[{"code":32,"message":"Could not authenticate you."}]}"#);
    /// assert!(e.to_string().contains("401") && e.to_string().contains("Could not authenticate you."));
    /// ```
    pub fn provider(status: u16, body: &[u8]) -> FlowError {
        let text = escape_controls(body.trim_ascii(), &[]);
        let message: String = text.chars().take(1000).collect();
        FlowError::Provider { status, message }
    }

    /// A [`FlowError::Transport`] from the HTTP client's error, with every
    /// cause in its [`source`](std::error::Error::source) chain (reqwest's
    /// own message is only "error sending request"), joined by `": "`,
    /// control characters escaped ([`escape_controls`]).
    ///
    /// ```
    /// use oauth1_signer::flow::FlowError;
    ///
    /// let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "connection refused");
    /// let e = FlowError::transport(&refused);
    /// assert_eq!(e.to_string(), "cannot reach the provider: connection refused");
    /// ```
    pub fn transport(error: &(dyn std::error::Error + 'static)) -> FlowError {
        let mut message = String::new();
        let mut next = Some(error);
        while let Some(e) = next {
            let text = e.to_string();
            // Clients often repeat their cause in their own message.
            if !message.contains(&text) {
                if !message.is_empty() {
                    message.push_str(": ");
                }
                message.push_str(&escape_controls(text.as_bytes(), &[]));
            }
            next = e.source();
        }
        FlowError::Transport { message }
    }
}

/// The URL to send the user to (§2.2): `authorize` with `oauth_token`
/// added to its query, before any fragment (`#...`): a browser never sends
/// a fragment, so a token after the `#` would never reach the provider.
///
/// ```
/// use oauth1_signer::flow::authorize_url;
///
/// assert_eq!(
///     authorize_url("https://api.x.com/oauth/authorize", "Z6eEdO8M+Xfw"),
///     "https://api.x.com/oauth/authorize?oauth_token=Z6eEdO8M%2BXfw",
/// );
/// assert_eq!(authorize_url("https://h/a?force_login=true", "t"), "https://h/a?force_login=true&oauth_token=t");
/// assert_eq!(authorize_url("https://h/a?x=1#top", "t"), "https://h/a?x=1&oauth_token=t#top");
/// ```
pub fn authorize_url(authorize: &str, temporary_token: &str) -> String {
    append_to_query(authorize, [("oauth_token", temporary_token)])
}

/// Where the provider sends the user back (§2.2): the `callback` the
/// client gave (§2.1, checked by [`check_callback`]; not `oob`) with
/// `oauth_token` and `oauth_verifier` added to its query, which it keeps,
/// before any fragment.
///
/// ```
/// use oauth1_signer::flow::callback_url;
///
/// // RFC 5849 §2.2: the callback `http://client.example.net/cb?x=1`, and
/// // the browser's `GET /cb?x=1&oauth_token=hdk48Djdsa&oauth_verifier=473f82d3`.
/// assert_eq!(
///     callback_url("http://client.example.net/cb?x=1", "hdk48Djdsa", "473f82d3"),
///     "http://client.example.net/cb?x=1&oauth_token=hdk48Djdsa&oauth_verifier=473f82d3",
/// );
/// ```
pub fn callback_url(callback: &str, token: &str, verifier: &str) -> String {
    append_to_query(
        callback,
        [("oauth_token", token), ("oauth_verifier", verifier)],
    )
}

/// The URL to send the user to for `temporary_token`, by a provider's
/// `quirks`: the token under its name there (`oauth_token`; E*TRADE's
/// `token`), the consumer key when it takes one (E*TRADE's `key`), and
/// `extra` parameters it reads (Trello's `name`, `expiration`, `scope`),
/// each percent-encoded.
///
/// ```
/// use oauth1_signer::{flow::authorize_url_with, Provider};
///
/// // E*TRADE's developer guide: https://us.etrade.com/e/t/etws/authorize?key={consumer key}&token={request token}
/// let etrade = Provider::ETrade.profile().flow;
/// assert_eq!(
///     authorize_url_with("https://us.etrade.com/e/t/etws/authorize", "tok/1", "ck", &etrade, &[]),
///     "https://us.etrade.com/e/t/etws/authorize?key=ck&token=tok%2F1"
/// );
/// let trello = Provider::Trello.profile().flow;
/// assert_eq!(
///     authorize_url_with("https://trello.com/1/OAuthAuthorizeToken", "t", "ck", &trello,
///                        &[("name", "My App"), ("expiration", "never"), ("scope", "read,write")]),
///     "https://trello.com/1/OAuthAuthorizeToken?oauth_token=t&name=My%20App&expiration=never&scope=read%2Cwrite"
/// );
/// ```
pub fn authorize_url_with(
    authorize: &str,
    temporary_token: &str,
    consumer_key: &str,
    quirks: &FlowQuirks,
    extra: &[(&str, &str)],
) -> String {
    let mut pairs: Vec<(&str, &str)> = Vec::with_capacity(2 + extra.len());
    if let Some(key) = quirks.authorize_key_param {
        pairs.push((key, consumer_key));
    }
    pairs.push((quirks.authorize_token_param, temporary_token));
    pairs.extend_from_slice(extra);
    append_to_query(authorize, pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_errors_keep_the_message_in_one_line_escaped() {
        let e = FlowError::provider(
            403,
            b"<errors>\n<error code=\"415\">Callback URL not approved</error>\n</errors>\n",
        );
        assert_eq!(
            e.to_string(),
            r#"the provider answered 403: <errors>\n<error code="415">Callback URL not approved</error>\n</errors>"#
        );
    }

    /// An error with a message and a cause, as HTTP clients nest them.
    #[derive(Debug)]
    struct Nested(&'static str, Option<Box<Nested>>);

    impl fmt::Display for Nested {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(self.0)
        }
    }

    impl std::error::Error for Nested {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            self.1.as_deref().map(|e| e as _)
        }
    }

    #[test]
    fn transport_errors_keep_every_cause_once_on_one_line() {
        let e = Nested(
            "error sending request",
            Some(Box::new(Nested(
                "client error (Connect)",
                Some(Box::new(Nested("tcp connect error\n\x1b[2J", None))),
            ))),
        );
        assert_eq!(
            FlowError::transport(&e).to_string(),
            "cannot reach the provider: error sending request: client error (Connect): \
             tcp connect error\\n\\u{1b}[2J"
        );
        // A cause that the message above it already quotes is not repeated.
        let e = Nested(
            "dns error: no such host",
            Some(Box::new(Nested("no such host", None))),
        );
        assert_eq!(
            FlowError::transport(&e).to_string(),
            "cannot reach the provider: dns error: no such host"
        );
    }

    #[cfg(feature = "reqwest")]
    #[test]
    fn a_refused_connection_is_named_as_one() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        // Port 1 on loopback: nothing listens there.
        let e = runtime
            .block_on(reqwest::Client::new().post("http://127.0.0.1:1/").send())
            .unwrap_err();
        let mut cause: &(dyn std::error::Error + 'static) = &e;
        while let Some(next) = cause.source() {
            cause = next;
        }
        let io = cause.downcast_ref::<std::io::Error>().unwrap();
        assert_eq!(io.kind(), std::io::ErrorKind::ConnectionRefused);
        let FlowError::Transport { message } = FlowError::transport(&e) else {
            panic!("not a transport error");
        };
        assert!(message.ends_with(&io.to_string()), "{message}");
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
        // A '?' or '&' inside the fragment is the fragment's, not the query's.
        assert_eq!(
            authorize_url("https://h/a#x?y&", "t"),
            "https://h/a?oauth_token=t#x?y&"
        );
        assert_eq!(
            authorize_url("https://h/a?#", "t"),
            "https://h/a?oauth_token=t#"
        );
        assert_eq!(
            Endpoints::x().authorize,
            "https://api.x.com/oauth/authorize"
        );
    }
}
