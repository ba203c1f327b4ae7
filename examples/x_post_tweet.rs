//! Post a tweet through the X API v2: `POST https://api.x.com/2/tweets` with
//! a JSON body, which is not signed (only the URL, method and `oauth_*`
//! parameters are).
//!
//! ```sh
//! export OAUTH_CONSUMER_KEY=... OAUTH_CONSUMER_SECRET=... OAUTH_TOKEN=... OAUTH_TOKEN_SECRET=...
//! cargo run --features reqwest --example x_post_tweet -- 'Hello from Rust'
//! ```
//!
//! Without the four variables it signs with placeholder credentials and
//! prints the request it would send, instead of sending it.

use oauth1_signer::{client::sign_reqwest_request, client::HttpOptions, Credentials, Signer};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "Hello from oauth1-signer".into());
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let given = (
        var("OAUTH_CONSUMER_KEY"),
        var("OAUTH_CONSUMER_SECRET"),
        var("OAUTH_TOKEN"),
        var("OAUTH_TOKEN_SECRET"),
    );
    let (credentials, live) = match given {
        (Some(key), Some(secret), Some(token), Some(token_secret)) => (
            Credentials::new(key, secret).with_token(token, token_secret),
            true,
        ),
        _ => (
            Credentials::new("your-api-key", "your-api-secret")
                .with_token("your-access-token", "your-access-token-secret"),
            false,
        ),
    };
    let signer = Signer::new(credentials);

    // A signature is for one URL: a redirect comes back as such, not
    // followed with a stale signature (`Redirects` follows it, re-signed).
    let client = oauth1_signer::client::client_builder().build()?;
    let body = serde_json::json!({ "text": text }).to_string();
    let mut request = client
        .post("https://api.x.com/2/tweets")
        .header("content-type", "application/json")
        .body(body.clone())
        .build()?;
    sign_reqwest_request(&signer, &mut request, HttpOptions::new())?;

    if !live {
        println!("(no OAUTH_CONSUMER_KEY, OAUTH_CONSUMER_SECRET, OAUTH_TOKEN, OAUTH_TOKEN_SECRET: not sent)");
        println!("{} {}", request.method(), request.url());
        for (name, value) in request.headers() {
            println!("{name}: {}", value.to_str().unwrap_or("<binary>"));
        }
        println!("\n{body}");
        return Ok(());
    }
    let response = client.execute(request).await?;
    let status = response.status();
    println!("{status}\n{}", response.text().await?);
    if !status.is_success() {
        std::process::exit(1);
    }
    Ok(())
}
