//! An axum route protected by OAuth 1.0a, in a few lines: the verified
//! consumer key reaches the handler; anything else is answered 401.
//!
//! ```sh
//! cargo run --features tower --example axum_verify
//! # in another shell, a request signed for the same credentials:
//! OAUTH_CONSUMER_KEY=key OAUTH_CONSUMER_SECRET=secret \
//!     oauth1 sign --format curl http://127.0.0.1:3000/api/me | sh
//! ```

use std::sync::Arc;

use axum::extract::OriginalUri;
use axum::routing::get;
use axum::{Extension, Router};
use oauth1_signer::verify::{MemoryNonceStore, StaticSecrets, Verified, Verifier, VerifyLayer};
use oauth1_signer::Credentials;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let secrets = StaticSecrets::new(Credentials::new("key", "secret"));
    let verifier = Verifier::builder(secrets, MemoryNonceStore::with_capacity(100_000))
        .public_base_url("http://127.0.0.1:3000")
        .build()?;
    let protect = VerifyLayer::new(Arc::new(verifier))
        .realm("example")?
        // Inside `nest`, verify the path the client signed (`/api/me`).
        .original_uri(|e| e.get::<OriginalUri>().map(|u| &u.0));

    let api = Router::new().route("/me", get(me)).layer(protect);
    let app = Router::new().nest("/api", api);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:3000").await?;
    axum::serve(listener, app).await?;
    Ok(())
}

async fn me(Extension(v): Extension<Verified>) -> String {
    format!("hello, {}\n", v.consumer_key())
}
