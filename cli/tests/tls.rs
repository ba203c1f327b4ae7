//! `oauth1 request` over TLS: the client is built with ring's cryptography
//! (the CLI installs it at start, reqwest having no provider of its own),
//! so an `https` URL gets as far as connecting. Loopback only: a port
//! nothing listens on refuses the connection, which is exit 2 with the
//! reason, never a panic about a missing crypto provider.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::net::TcpListener;

use common::bin::{oauth1, run, text, TempDir};

#[test]
fn an_https_request_gets_as_far_as_connecting() {
    let port = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let dir = TempDir::new("tls");
    let mut cmd = oauth1(&dir.config());
    cmd.args(["request", "--consumer-key", "k", "--consumer-secret", "s"])
        .arg(format!("https://127.0.0.1:{port}/r"));
    let out = run(cmd);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("Connection refused") && !stderr.contains("panicked"),
        "{stderr}"
    );
}
