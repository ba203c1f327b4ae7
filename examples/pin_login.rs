//! The PIN-based three-legged flow (RFC 5849 §2, X's "Obtaining user access
//! tokens"): get temporary credentials, let the user authorize in a browser,
//! exchange the PIN for an access token.
//!
//! ```sh
//! export OAUTH_CONSUMER_KEY=... OAUTH_CONSUMER_SECRET=...
//! cargo run --features reqwest --example pin_login
//! ```
//!
//! (`oauth1 authorize` does the same and saves the tokens to a profile.)

use std::io::{BufRead as _, Write as _};

use oauth1_signer::{
    client::client_builder,
    flow::{authorize_url, request_temporary_credentials, request_token_credentials, Endpoints},
    Credentials,
};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let env = |name: &str| std::env::var(name).map_err(|_| format!("set {name}"));
    let consumer = Credentials::new(env("OAUTH_CONSUMER_KEY")?, env("OAUTH_CONSUMER_SECRET")?);
    let x = Endpoints::x();
    // Redirects left to the flow, which signs each hop afresh.
    let client = client_builder().build()?;

    let temporary =
        request_temporary_credentials(&client, &consumer, &x.request_token, "oob").await?;
    print!(
        "Open {} and authorize the app, then type the PIN: ",
        authorize_url(&x.authorize, temporary.token())
    );
    std::io::stdout().flush()?;
    let mut pin = String::new();
    std::io::stdin().lock().read_line(&mut pin)?;

    let tokens =
        request_token_credentials(&client, &consumer, &temporary, &x.access_token, pin.trim())
            .await?;
    println!(
        "Logged in as @{} (user id {}).",
        tokens.param("screen_name").unwrap_or("?"),
        tokens.param("user_id").unwrap_or("?")
    );
    println!("export OAUTH_TOKEN={}", tokens.token());
    println!("export OAUTH_TOKEN_SECRET=<the token secret: tokens.secret().expose()>");
    Ok(())
}
