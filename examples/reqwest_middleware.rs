//! Every request of a `reqwest_middleware` client signed, in one line.
//!
//! ```sh
//! export OAUTH_CONSUMER_KEY=... OAUTH_CONSUMER_SECRET=... OAUTH_TOKEN=... OAUTH_TOKEN_SECRET=...
//! cargo run --features reqwest --example reqwest_middleware -- https://api.x.com/2/users/me
//! ```

use oauth1_signer::{
    client::{client_builder, OAuth1Middleware},
    Credentials, Signer,
};
use reqwest_middleware::ClientBuilder;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let env = |name: &str| std::env::var(name).map_err(|_| format!("set {name}"));
    let credentials = Credentials::new(env("OAUTH_CONSUMER_KEY")?, env("OAUTH_CONSUMER_SECRET")?)
        .with_token(env("OAUTH_TOKEN")?, env("OAUTH_TOKEN_SECRET")?);

    // Redirects left to the middleware, which signs each hop afresh.
    let client = ClientBuilder::new(client_builder().build()?)
        .with(OAuth1Middleware::new(Signer::new(credentials)))
        .build();

    let url = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "https://api.x.com/2/users/me".into());
    let response = client.get(url).send().await?;
    println!("{}\n{}", response.status(), response.text().await?);
    Ok(())
}
