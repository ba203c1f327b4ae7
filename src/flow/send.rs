//! The three-legged flow over reqwest (feature `reqwest`): each step's
//! `POST` signed with the flow's protocol parameter (`oauth_callback` or
//! `oauth_verifier`) by the same code as the middleware, sent, and its
//! response checked for an error status and read by `tokens`. A redirect to
//! the same origin is signed afresh for its URL; one to another origin is a
//! [`FlowError::Redirect`] naming its `Location` (`crate::redirect`).

use super::{FlowError, TemporaryCredentials, TokenCredentials};
use crate::client::http_request::{Flow, HttpError, HttpOptions};
use crate::client::middleware::sign_flow_request;
use crate::client::redirect::Redirects;
use crate::pipeline::credentials::Credentials;
use crate::pipeline::signer::Signer;
use crate::provider::profile::FlowQuirks;

/// Sends a signed `method` request with no body to `url` and reads the
/// response body.
async fn send(
    client: &reqwest::Client,
    method: reqwest::Method,
    signer: &Signer,
    url: &str,
    flow: Flow<'_>,
) -> Result<Vec<u8>, FlowError> {
    let transport = |e: reqwest::Error| FlowError::transport(&e);
    let mut request = client.request(method, url).build().map_err(transport)?;
    let mut redirects = Redirects::new();
    let response = loop {
        sign_flow_request(signer, &mut request, HttpOptions::new(), flow).map_err(|e| match e {
            HttpError::Sign(e) => FlowError::Sign(e),
            other => FlowError::transport(&other),
        })?;
        // The body is empty, so the copy always succeeds.
        let sent = request.try_clone();
        let response = client.execute(request).await.map_err(transport)?;
        let hop = match sent {
            Some(sent) => redirects
                .follow(sent, &response)
                .map_err(FlowError::Redirect)?,
            None => None,
        };
        match hop {
            Some(hop) => request = hop,
            None => break response,
        }
    };
    let status = response.status();
    // Read only up to the cap: a provider cannot make us buffer more.
    let body = super::tokens::read_body(response).await?;
    if !status.is_success() {
        return Err(FlowError::provider(status.as_u16(), &body));
    }
    Ok(body)
}

/// Step 1 (§2.1): obtains temporary credentials from `url`, signed with
/// the client credentials in `consumer` (any token in it is left out)
/// and `oauth_callback` (`"oob"` for the PIN flow), as RFC 5849 says
/// (HMAC-SHA1, `oauth_callback_confirmed` required): for another method or
/// a provider's quirks, [`request_temporary_credentials_with`].
///
/// # Errors
/// [`FlowError::Provider`] for an error status, with the provider's
/// message; a [`TemporaryCredentials::parse`] error; [`FlowError::Sign`]
/// for a URL that cannot be signed; [`FlowError::Transport`];
/// [`FlowError::Redirect`] for a redirect to another origin (a redirect to
/// the same one is followed, signed afresh), and for a `client` that
/// follows redirects itself: build it with
/// [`client_builder`](crate::client::client_builder).
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
    request_temporary_credentials_with(client, &signer, url, callback, &FlowQuirks::default()).await
}

/// Step 1 (§2.1) with `signer` (the client credentials alone, no token;
/// a provider's [`Profile::signer`](crate::provider::Profile::signer), say) and the
/// answer read by the provider's `quirks`
/// ([`TemporaryCredentials::parse_with`]).
///
/// # Errors
/// As [`request_temporary_credentials`].
pub async fn request_temporary_credentials_with(
    client: &reqwest::Client,
    signer: &Signer,
    url: &str,
    callback: &str,
    quirks: &FlowQuirks,
) -> Result<TemporaryCredentials, FlowError> {
    let flow = Flow {
        callback: Some(callback),
        verifier: None,
    };
    let answer = send(client, reqwest::Method::POST, signer, url, flow).await?;
    TemporaryCredentials::parse_with(&answer, quirks)
}

/// Step 3 (§2.3): exchanges the temporary credentials and the
/// `verifier` (the PIN) for token credentials at `url`, with HMAC-SHA1:
/// for another method, [`request_token_credentials_with`].
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
    request_token_credentials_with(client, &signer, url, verifier).await
}

/// Step 3 (§2.3) with `signer`, which holds the temporary credentials
/// ([`TemporaryCredentials::credentials`]).
///
/// # Errors
/// As [`request_token_credentials`].
pub async fn request_token_credentials_with(
    client: &reqwest::Client,
    signer: &Signer,
    url: &str,
    verifier: &str,
) -> Result<TokenCredentials, FlowError> {
    let flow = Flow {
        callback: None,
        verifier: Some(verifier),
    };
    TokenCredentials::parse(&send(client, reqwest::Method::POST, signer, url, flow).await?)
}

/// Renews the access token that `signer` holds, at `url`, where a provider
/// offers it ([`FlowQuirks::renews`]): E\*TRADE's
/// `GET https://api.etrade.com/oauth/renew_access_token`, signed with the
/// consumer credentials and the access token, makes a token that went
/// inactive (two hours unused) active again until it expires at midnight
/// US Eastern. The token and its secret stay the same; the provider's
/// answer (`Access Token has been renewed`) is returned as sent.
///
/// # Errors
/// As [`request_temporary_credentials`]: [`FlowError::Provider`] when the
/// provider refuses (an expired token cannot be renewed: the flow starts
/// again).
pub async fn renew_access_token(
    client: &reqwest::Client,
    signer: &Signer,
    url: &str,
) -> Result<Vec<u8>, FlowError> {
    send(client, reqwest::Method::GET, signer, url, Flow::default()).await
}
