//! The three legs of RFC 5849 §2 against `oauth1 serve`, which stands in
//! for X at X's paths on a local port: temporary credentials, the user's
//! approval (answered at once), token credentials, and a request signed
//! with them, so that a login runs end to end without X.
//!
//! ```sh
//! # a shell: the stand-in, with the consumer credentials the client signs with
//! cargo run -p oauth1-cli -- serve --listen 127.0.0.1:8080 --consumer-key ck --consumer-secret cs
//! # another shell: the login
//! cargo run --features reqwest --example serve_login -- http://127.0.0.1:8080
//! ```
//!
//! It prints each leg's answer, and exits 0 once the token credentials
//! signed a request that the server verified. `cli/tests/flow_example.rs`
//! runs [`login`] against a real `oauth1 serve`.

use oauth1_signer::flow::{
    authorize_url, request_temporary_credentials, request_token_credentials, TokenCredentials,
};
use oauth1_signer::text::form_decode;
use oauth1_signer::{client::client_builder, Credentials, OAuthRequest, Signer};

/// What a login against `base` (`http://127.0.0.1:8080`) got: the token
/// credentials, and the status a request signed with them was answered.
pub async fn login(
    base: &str,
    consumer: &Credentials,
) -> Result<(TokenCredentials, u16), Box<dyn std::error::Error>> {
    // Redirects left to the flow, which signs each hop afresh.
    let client = client_builder().build()?;
    // §2.1, signed with the consumer credentials alone; `oob`: no callback,
    // the verifier is shown to the user (X shows a PIN).
    let url = format!("{base}/oauth/request_token");
    let temporary = request_temporary_credentials(&client, consumer, &url, "oob").await?;
    println!("temporary token: {}", temporary.token());

    // §2.2: the user's browser, unsigned. `serve` approves at once and, for
    // `oob`, answers `oauth_token=...&oauth_verifier=...`.
    let approval = authorize_url(&format!("{base}/oauth/authorize"), temporary.token());
    let answer = client.get(&approval).send().await?.error_for_status()?;
    let form = answer.text().await?;
    let verifier = form
        .split('&')
        .find_map(|pair| pair.strip_prefix("oauth_verifier="))
        .ok_or_else(|| format!("no oauth_verifier in {form:?}"))?;
    let verifier = form_decode(verifier.as_bytes())?
        .to_str()
        .ok_or("the verifier is not UTF-8")?
        .to_owned();
    println!("verifier: {verifier}");

    // §2.3, signed with the temporary credentials and the verifier.
    let url = format!("{base}/oauth/access_token");
    let tokens = request_token_credentials(&client, consumer, &temporary, &url, &verifier).await?;
    println!(
        "token credentials for @{} (user id {})",
        tokens.param("screen_name").unwrap_or("?"),
        tokens.param("user_id").unwrap_or("?")
    );

    // What the login was for: a request signed with the token credentials.
    let url = format!("{base}/1.1/account/verify_credentials.json");
    let header =
        Signer::new(tokens.credentials(consumer)).authorization_header(&OAuthRequest::get(&url))?;
    let answer = client
        .get(&url)
        .header("authorization", header)
        .send()
        .await?;
    let status = answer.status().as_u16();
    println!("GET {url}: {status}");
    Ok((tokens, status))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let base = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "http://127.0.0.1:8080".to_owned());
    let consumer = Credentials::new("ck", "cs");
    let (_, status) = login(base.trim_end_matches('/'), &consumer).await?;
    if status != 200 {
        return Err(format!("the signed request was answered {status}").into());
    }
    Ok(())
}
