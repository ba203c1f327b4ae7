//! The library's `examples/serve_login.rs` (the `flow` module's linked
//! example) run against a real `oauth1 serve` on 127.0.0.1: the three legs
//! give token credentials, and a request signed with them verifies.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::serve::Serve;
use oauth1_signer::Credentials;

#[allow(dead_code)]
#[path = "../../examples/serve_login.rs"]
mod serve_login;

#[tokio::test]
async fn the_flow_example_logs_in_against_oauth1_serve() {
    // The TLS provider the binary installs (never used here: http only).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let serve = Serve::start_with(&["--consumer-key", "ck", "--consumer-secret", "cs"], &[]);
    let base = serve.url("");
    let (tokens, status) = serve_login::login(&base, &Credentials::new("ck", "cs"))
        .await
        .unwrap();
    assert_eq!(status, 200);
    assert!(!tokens.token().is_empty());
    assert_eq!(tokens.param("user_id"), Some("1"));
    // Signed with other consumer credentials, the first leg is refused.
    let e = serve_login::login(&base, &Credentials::new("ck", "wrong"))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("401"), "{e}");
    let (exit, log) = serve.stop("TERM");
    assert!(exit.success(), "{log}");
    assert_eq!(
        log.matches("POST /oauth/access_token 200").count(),
        1,
        "{log}"
    );
}
