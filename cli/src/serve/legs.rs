//! `serve` as a stand-in for all three legs of X's flow (RFC 5849 §2, X's
//! "Obtaining user access tokens"), at X's paths:
//!
//! - `POST /oauth/request_token`, signed with the client credentials alone
//!   and `oauth_callback`: answers `oauth_token`, `oauth_token_secret` and
//!   `oauth_callback_confirmed=true` (§2.1);
//! - `GET /oauth/authorize?oauth_token=T`: approves at once, as a user
//!   would, and redirects to the callback with `oauth_token` and
//!   `oauth_verifier` (for `oob`, answers them as a form) (§2.2);
//! - `POST /oauth/access_token`, signed with the temporary credentials and
//!   carrying `oauth_verifier`: answers `oauth_token`, `oauth_token_secret`,
//!   `user_id` and `screen_name` (§2.3); a verifier that is not the one
//!   issued is refused, and a temporary token serves one exchange.
//!
//! Each issued access token then verifies on every other path. A callback
//! is what the library's [`check_callback`] accepts: `oob`, an absolute
//! `http(s)` URL or a scheme the operator names (`--callback-scheme`), 2048
//! bytes at most. The answers are the library's writers (the inverses of
//! the client's parsers: [`TemporaryCredentials::response_body`],
//! [`callback_url`], [`TokenCredentials::response_body`]); a verifier is
//! compared by [`Secret::ct_eq`]. What is left here is the legs' order,
//! their statuses and log lines; the tokens are kept in `store`, and
//! `answer` writes the answers as HTTP. A temporary token expires `--temporary-token-lifetime`
//! after it is issued, and the temporary tokens held are bounded in count
//! and in bytes (`temporary`); access tokens live as long as the server,
//! [`MAX_TOKENS`] at most. Each token, secret and verifier is 128 bits from
//! the operating system's generator, and no secret or verifier is logged.
//! The requests are verified by the library's verifier, with the same nonce
//! store, methods, body-hash rule and public URL as every other path.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hyper::{Method, StatusCode};
use oauth1_signer::flow::{
    callback_url, check_callback, CallbackError, FlowError, TemporaryCredentials, TokenCredentials,
};
use oauth1_signer::pipeline::{encode_pairs, ParameterStyle, Params};
use oauth1_signer::verify::{NonceStore, Received, Rejection, SecretSource, Secrets, Verifier};
use oauth1_signer::RequestSpec;
use oauth1_signer::{BodyHash, Name, Secret, SignatureMethod};
use rand::rngs::SysRng;
use rand::TryRng as _;

use super::store::{lock, Access, Consumer, Issued, Kind, Tokens};
use super::temporary::{Found, Full, Temporaries};
use super::FlowFlags;
use crate::Failure;

/// X's paths of the three legs.
pub(crate) const REQUEST_TOKEN: &str = "/oauth/request_token";
pub(crate) const AUTHORIZE: &str = "/oauth/authorize";
pub(crate) const ACCESS_TOKEN: &str = "/oauth/access_token";

/// The most access tokens kept: a client's tests make a few; past this, a
/// request for another is refused (503) rather than memory spent. (The
/// temporary tokens have bounds of their own: `temporary`.)
pub(crate) const MAX_TOKENS: usize = 100_000;

/// A leg's answer, before `answer` writes it as HTTP: its status, its
/// body, and the line logged (the truth, which the client may not see).
pub(crate) enum LegAnswer {
    /// A form-encoded body: the leg's answer, or a refusal in OAuth
    /// Problem Reporting's terms.
    Form {
        status: StatusCode,
        body: String,
        logged: String,
    },
    /// A refusal outside the protocol, said in `reason` (and logged so).
    Plain {
        status: StatusCode,
        reason: Cow<'static, str>,
    },
    /// A redirect to the callback (§2.2).
    Redirect { location: String, logged: String },
}

impl LegAnswer {
    fn plain(status: StatusCode, reason: impl Into<Cow<'static, str>>) -> LegAnswer {
        LegAnswer::Plain {
            status,
            reason: reason.into(),
        }
    }
}

/// Which leg a request is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Leg {
    RequestToken,
    Authorize,
    AccessToken,
}

impl Leg {
    /// The leg at `method` and `path`, if it is one.
    pub(crate) fn of(method: &Method, path: &str) -> Option<Leg> {
        match (method, path) {
            (&Method::POST, REQUEST_TOKEN) => Some(Leg::RequestToken),
            (&Method::GET, AUTHORIZE) => Some(Leg::Authorize),
            (&Method::POST, ACCESS_TOKEN) => Some(Leg::AccessToken),
            _ => None,
        }
    }
}

/// The three legs' state and their verifier.
pub(crate) struct Legs {
    tokens: Arc<Mutex<Tokens>>,
    /// Verifies the request-token and access-token legs.
    temporary: Verifier<Issued, Arc<dyn NonceStore>>,
    consumer: Consumer,
    users: AtomicU64,
    /// The app schemes accepted in a callback beside http(s) and oob.
    callback_schemes: Vec<String>,
}

impl std::fmt::Debug for Legs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Legs").finish_non_exhaustive()
    }
}

/// 128 bits from the operating system's generator (`getrandom`, by rand's
/// [`SysRng`]), as 32 hex digits: a token, secret or verifier nobody can
/// guess. Should the system give none, the leg is refused (503), never
/// answered with a weaker value.
fn random() -> Result<String, LegAnswer> {
    let mut bytes = [0u8; 16];
    if let Err(e) = SysRng.try_fill_bytes(&mut bytes) {
        return Err(refused(
            StatusCode::SERVICE_UNAVAILABLE,
            "oauth_problem=temporarily_unavailable",
            &format!("the operating system's random generator failed: {e}"),
        ));
    }
    let mut hex = String::with_capacity(32);
    for b in bytes {
        // Writing to a String cannot fail.
        let _ = write!(hex, "{b:02x}");
    }
    Ok(hex)
}

/// A refusal in OAuth Problem Reporting's terms.
fn refused(status: StatusCode, problem: &str, logged: &str) -> LegAnswer {
    LegAnswer::Form {
        status,
        body: problem.to_owned(),
        logged: logged.to_owned(),
    }
}

/// An answer the library would not write (it never refuses ours: the
/// tokens are 32 hex digits, the names fixed), as a 500 that says why.
fn unwritten(e: &FlowError) -> LegAnswer {
    LegAnswer::plain(
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("the answer could not be written: {e}"),
    )
}

/// The temporary token of an authorisation's query (§2.2), read by the
/// library's form reader: given once, not empty.
fn query_token(query: &str) -> Result<String, Cow<'static, str>> {
    let mut params = Params::new();
    params
        .extend_query(query)
        .map_err(|e| format!("the query: {}", crate::failure::chain(&e)))?;
    let mut tokens = params.iter().filter(|p| *p.name() == *b"oauth_token");
    let (Some(token), None) = (tokens.next(), tokens.next()) else {
        return Err(match params.contains(b"oauth_token") {
            true => "oauth_token is given twice in the query".into(),
            false => "no oauth_token in the query (GET /oauth/authorize?oauth_token=T)".into(),
        });
    };
    match String::from_utf8(token.value().into_owned()) {
        Ok(token) if !token.is_empty() => Ok(token),
        Ok(_) => Err("no oauth_token in the query (GET /oauth/authorize?oauth_token=T)".into()),
        Err(_) => Err("the query's oauth_token is not UTF-8".into()),
    }
}

impl Legs {
    /// The legs for the consumer `spec` holds, verifying as the other paths
    /// do: `methods`, RSA with `public_key`, `body_hash`, URLs joined to
    /// `public`, nonces in `nonces` (shared with the other paths); the
    /// `flow`'s temporary tokens expiring after its lifetime, callbacks of
    /// its app schemes accepted.
    pub(crate) fn new(
        spec: &RequestSpec,
        nonces: Arc<dyn NonceStore>,
        public: &str,
        methods: &[SignatureMethod],
        public_key: Option<&str>,
        body_hash: BodyHash,
        flow: &FlowFlags,
    ) -> Result<Legs, Failure> {
        for scheme in &flow.callback_scheme {
            oauth1_signer::flow::check_app_scheme(scheme).map_err(|e| {
                Failure::input(format!(
                    "--callback-scheme {}: {e}",
                    crate::caret::printable(scheme.as_bytes())
                ))
            })?;
        }
        if let Some(pem) = public_key {
            Secrets::new(Secret::default(), Secret::default())
                .with_rsa_public_key_pem(pem)
                .map_err(|e| Failure::input(format!("--public-key: {e}")))?;
        }
        let consumer = Consumer {
            key: spec.consumer_key.clone(),
            secret: spec.consumer_secret.clone().unwrap_or_default(),
            public_key: public_key.map(str::to_owned),
        };
        let tokens = Arc::new(Mutex::new(Tokens {
            temporary: Temporaries::new(Duration::from_secs(flow.temporary_token_lifetime)),
            access: HashMap::new(),
        }));
        let style = spec.profile().map_or(ParameterStyle::Rfc5849, |p| p.style);
        let temporary = Verifier::builder(consumer.issued(&tokens, Kind::Temporary), nonces)
            .clock(crate::clock::now)
            .methods(methods)
            .body_hash(body_hash)
            .parameter_style(style)
            .public_base_url(public)
            .build()
            .map_err(|e| Failure::input(format!("--public-url: {e}")))?;
        Ok(Legs {
            tokens,
            temporary,
            consumer,
            users: AtomicU64::new(0),
            callback_schemes: flow.callback_scheme.clone(),
        })
    }

    /// The access tokens issued, as a source of secrets: the other paths
    /// verify with them (beside the credentials given, in one lookup).
    pub(crate) fn access_tokens(&self) -> Arc<dyn SecretSource> {
        Arc::new(self.consumer.issued(&self.tokens, Kind::Access))
    }

    /// Whether verifying a leg's request with this head needs its body.
    pub(crate) fn needs_body(&self, head: &Received<'_>) -> Result<bool, Rejection> {
        self.temporary.needs_body(head)
    }

    /// The secret of `token`, when it is an access token this server
    /// issued.
    pub(crate) fn issued(&self, token: &str) -> Option<Secret> {
        lock(&self.tokens)
            .access
            .get(token)
            .map(|a| a.secret.clone())
    }

    /// §2.1: verifies a request-token request and issues temporary
    /// credentials; or the rejection.
    pub(crate) async fn request_token(
        &self,
        received: &Received<'_>,
    ) -> Result<LegAnswer, Rejection> {
        let verified = self.temporary.verify(received).await?;
        let protocol = verified.protocol();
        if protocol.token().is_some() {
            return Ok(refused(
                StatusCode::UNAUTHORIZED,
                "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_token",
                "a request-token request carries oauth_token (it is signed with the client credentials alone)",
            ));
        }
        let callback = protocol.get(Name::Callback).unwrap_or_default();
        let schemes: Vec<&str> = self.callback_schemes.iter().map(String::as_str).collect();
        match check_callback(callback, &schemes) {
            Ok(()) => {}
            Err(CallbackError::Empty) => {
                return Ok(refused(
                    StatusCode::UNAUTHORIZED,
                    "oauth_problem=parameter_absent&oauth_parameters_absent=oauth_callback",
                    "a request-token request without oauth_callback (RFC 5849 §2.1: oob for a PIN)",
                ))
            }
            // Problem Reporting: a parameter given that the provider does
            // not accept is `parameter_rejected`, naming it.
            Err(e) => {
                return Ok(refused(
                    StatusCode::UNAUTHORIZED,
                    "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_callback",
                    &format!("oauth_callback: {}", crate::failure::chain(&e)),
                ))
            }
        }
        let (token, secret) = match (random(), random()) {
            (Ok(token), Ok(secret)) => (token, secret),
            (Err(refusal), _) | (_, Err(refusal)) => return Ok(refusal),
        };
        let secrets = self.consumer.secrets(Secret::new(secret.as_str()));
        let mut tokens = lock(&self.tokens);
        let issued =
            tokens
                .temporary
                .issue(token.clone(), secrets, callback.to_owned(), Instant::now());
        let (held, bytes) = tokens.temporary.held();
        drop(tokens);
        if issued == Err(Full) {
            return Ok(refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "oauth_problem=temporarily_unavailable",
                &format!(
                    "the temporary tokens are full ({held} held, {bytes} bytes): \
                     the oldest expires within --temporary-token-lifetime"
                ),
            ));
        }
        let body = match TemporaryCredentials::new(token.as_str(), secret) {
            Ok(issued) => issued.response_body(),
            Err(e) => return Ok(unwritten(&e)),
        };
        Ok(LegAnswer::Form {
            status: StatusCode::OK,
            body,
            logged: format!("temporary token {token} issued ({held} held, {bytes} bytes)"),
        })
    }

    /// §2.2: the user approves `oauth_token` at once; the answer sends them
    /// to the callback with the verifier (or shows it, for `oob`).
    pub(crate) fn authorize(&self, query: Option<&str>) -> LegAnswer {
        let token = match query_token(query.unwrap_or_default()) {
            Ok(token) => token,
            Err(reason) => return LegAnswer::plain(StatusCode::BAD_REQUEST, reason),
        };
        // Made before it is known to be needed: no random bytes asked for
        // while the tokens are locked.
        let fresh = match random() {
            Ok(fresh) => fresh,
            Err(refusal) => return refusal,
        };
        let mut tokens = lock(&self.tokens);
        let temporary = match tokens.temporary.find(&token, Instant::now()) {
            Found::Live(t) if !t.used => t,
            Found::Expired => {
                return LegAnswer::plain(
                    StatusCode::BAD_REQUEST,
                    "the oauth_token expired (--temporary-token-lifetime): ask for another",
                )
            }
            Found::Live(_) | Found::Unknown => return LegAnswer::plain(
                StatusCode::BAD_REQUEST,
                "the oauth_token is not a temporary token this server issued, or it was exchanged",
            ),
        };
        let verifier = temporary
            .verifier
            .get_or_insert_with(|| Secret::new(fresh))
            .clone();
        let callback = temporary.callback.clone();
        drop(tokens);
        let logged = format!("temporary token {token} authorised");
        if callback == "oob" {
            let pairs = [
                ("oauth_token", token.as_str()),
                ("oauth_verifier", verifier.expose()),
            ];
            return LegAnswer::Form {
                status: StatusCode::OK,
                body: encode_pairs(pairs),
                logged,
            };
        }
        LegAnswer::Redirect {
            location: callback_url(&callback, &token, verifier.expose()),
            logged,
        }
    }

    /// §2.3: verifies an access-token request (signed with the temporary
    /// credentials), checks its verifier, and issues token credentials; or
    /// the rejection.
    pub(crate) async fn access_token(
        &self,
        received: &Received<'_>,
    ) -> Result<LegAnswer, Rejection> {
        let verified = self.temporary.verify(received).await?;
        let protocol = verified.protocol();
        let (Some(token), given) = (protocol.token(), protocol.get(Name::Verifier)) else {
            return Ok(refused(
                StatusCode::UNAUTHORIZED,
                "oauth_problem=parameter_absent&oauth_parameters_absent=oauth_token",
                "an access-token request without oauth_token (the temporary token)",
            ));
        };
        let Some(given) = given else {
            return Ok(refused(
                StatusCode::UNAUTHORIZED,
                "oauth_problem=parameter_absent&oauth_parameters_absent=oauth_verifier",
                "an access-token request without oauth_verifier",
            ));
        };
        let (random_part, secret) = match (random(), random()) {
            (Ok(token), Ok(secret)) => (token, secret),
            (Err(refusal), _) | (_, Err(refusal)) => return Ok(refusal),
        };
        let kept = Access {
            secret: Secret::new(secret.as_str()),
            secrets: self.consumer.secrets(Secret::new(secret.as_str())),
        };
        let mut tokens = lock(&self.tokens);
        let full = tokens.access.len() >= MAX_TOKENS;
        let temporary = match tokens.temporary.find(token, Instant::now()) {
            Found::Live(t) => t,
            Found::Expired => {
                return Ok(refused(
                    StatusCode::UNAUTHORIZED,
                    "oauth_problem=token_expired",
                    "the temporary token expired (--temporary-token-lifetime)",
                ))
            }
            Found::Unknown => {
                return Ok(refused(
                    StatusCode::UNAUTHORIZED,
                    "oauth_problem=token_rejected",
                    "not a temporary token this server issued",
                ))
            }
        };
        if temporary.used {
            return Ok(refused(
                StatusCode::UNAUTHORIZED,
                "oauth_problem=token_used",
                "the temporary token was exchanged already",
            ));
        }
        let Some(verifier) = &temporary.verifier else {
            return Ok(refused(
                StatusCode::UNAUTHORIZED,
                "oauth_problem=permission_unknown",
                "the temporary token was not authorised (GET /oauth/authorize first)",
            ));
        };
        if !verifier.ct_eq(&Secret::new(given)) {
            return Ok(refused(
                StatusCode::UNAUTHORIZED,
                "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_verifier",
                "the oauth_verifier is not the one issued for this token",
            ));
        }
        if full {
            return Ok(refused(
                StatusCode::SERVICE_UNAVAILABLE,
                "oauth_problem=temporarily_unavailable",
                "the access tokens are full (MAX_TOKENS)",
            ));
        }
        let user = self.users.fetch_add(1, Ordering::Relaxed) + 1;
        // X's shape: the user's id, a dash, the random part.
        let access = format!("{user}-{random_part}");
        let user_id = user.to_string();
        let screen_name = format!("oauth1_serve_user_{user}");
        let params = [("user_id", user_id.as_str()), ("screen_name", &screen_name)];
        // Written before anything is issued: a token is kept only once its
        // answer is.
        let body = match TokenCredentials::new(access.as_str(), secret, params) {
            Ok(issued) => issued.response_body(),
            Err(e) => return Ok(unwritten(&e)),
        };
        // One exchange per temporary token (and its verifier).
        temporary.used = true;
        tokens.access.insert(access.clone(), kept);
        drop(tokens);
        Ok(LegAnswer::Form {
            status: StatusCode::OK,
            body,
            logged: format!("access token {access} issued for user {user_id}"),
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn the_legs_are_at_x_s_paths_and_methods() {
        assert_eq!(
            Leg::of(&Method::POST, "/oauth/request_token"),
            Some(Leg::RequestToken)
        );
        assert_eq!(
            Leg::of(&Method::GET, "/oauth/authorize"),
            Some(Leg::Authorize)
        );
        assert_eq!(
            Leg::of(&Method::POST, "/oauth/access_token"),
            Some(Leg::AccessToken)
        );
        assert_eq!(Leg::of(&Method::GET, "/oauth/request_token"), None);
        assert_eq!(Leg::of(&Method::POST, "/2/tweets"), None);
    }

    #[test]
    fn random_values_are_32_hex_digits_and_differ() {
        let (a, b) = (random().ok().unwrap(), random().ok().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()), "{a}");
        assert_ne!(a, b);
    }

    #[test]
    fn the_authorisation_s_token_is_read_once_by_the_form_reader() {
        assert_eq!(query_token("x=1&oauth_token=a%2Bb+c").unwrap(), "a+b c");
        let refused = |q: &str| query_token(q).unwrap_err().into_owned();
        assert_eq!(
            refused("oauth_token=t&oauth_token=u"),
            "oauth_token is given twice in the query"
        );
        for q in ["", "x=1", "oauth_token=", "oauth_token"] {
            assert_eq!(
                refused(q),
                "no oauth_token in the query (GET /oauth/authorize?oauth_token=T)",
                "{q}"
            );
        }
        assert_eq!(
            refused("oauth_token=%FF"),
            "the query's oauth_token is not UTF-8"
        );
        assert!(refused("oauth_token=t&x=%G1").starts_with("the query: "));
    }
}
