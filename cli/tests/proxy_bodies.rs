//! `oauth1 proxy`'s bodies: an unsigned body streams through unread (a
//! 20 MiB upload, the proxy's peak memory bounded); a body under
//! `oauth_body_hash` is read, its hash checked, then sent; a signed body
//! over the limit is refused, never forwarded.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
mod proxy_support;

use std::io::Write as _;
use std::net::TcpStream;
use std::time::Duration;

use base64::Engine as _;
use proxy_support::{read_answer, send, sign, sign_with, AxumUpstream, Proxy, ToSign, CREDENTIALS};
use sha1::Digest as _;

const UPLOAD: usize = 20 << 20;

fn put(proxy: &Proxy, path: &str) -> ToSign<'static> {
    ToSign {
        method: "PUT",
        url: format!("http://127.0.0.1:{}{path}", proxy.port),
        consumer: ("ck", "cs"),
        token: Some(("tk", "ts")),
        form_body: None,
    }
}

#[test]
fn a_20_mib_unsigned_body_streams_through_with_the_proxys_memory_bounded() {
    let up = AxumUpstream::start();
    let proxy = Proxy::start(&up.url(), &CREDENTIALS);
    // A first request, so that what the proxy allocates once is counted
    // before the upload.
    let auth = sign(&[put(&proxy, "/warm")]).remove(0);
    let a = send(
        proxy.port,
        "PUT",
        "/warm",
        &[
            ("Authorization", &auth),
            ("Content-Type", "application/octet-stream"),
        ],
        &[7u8; 64 * 1024],
    );
    assert_eq!(a.status, 200, "{}", proxy.log());
    let before = proxy.peak_rss_kib();

    let auth = sign(&[put(&proxy, "/upload")]).remove(0);
    let mut conn = TcpStream::connect(("127.0.0.1", proxy.port)).unwrap();
    conn.set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    conn.set_write_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        conn,
        "PUT /upload HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nAuthorization: {auth}\r\n\
         Content-Type: application/octet-stream\r\nContent-Length: {UPLOAD}\r\nConnection: close\r\n\r\n",
        proxy.port
    )
    .unwrap();
    let chunk = vec![b'z'; 64 * 1024];
    for _ in 0..UPLOAD / chunk.len() {
        conn.write_all(&chunk).unwrap();
    }
    let a = read_answer(&mut conn);
    assert_eq!((a.status, a.body.as_str()), (200, "upstream ok"));
    let seen = up.last();
    assert_eq!((seen.target.as_str(), seen.body_len), ("/upload", UPLOAD));
    assert_eq!(seen.all("x-oauth1-consumer-key"), ["ck"]);
    // Held whole, the body alone would add 20 MiB to the peak.
    let grew = proxy.peak_rss_kib().saturating_sub(before);
    assert!(
        grew < 8 * 1024,
        "the proxy's peak memory grew by {grew} KiB"
    );
}

#[test]
fn a_body_under_oauth_body_hash_is_read_checked_and_sent() {
    let up = AxumUpstream::start();
    let proxy = Proxy::start(&up.url(), &CREDENTIALS);
    let body = br#"{"text":"hello"}"#;
    // The hash computed here (sha1 and base64 crates), not by the library.
    let hash = base64::engine::general_purpose::STANDARD.encode(sha1::Sha1::digest(body));
    let request = put(&proxy, "/json");
    let auth = sign_with(&[(&request, &[("oauth_body_hash", hash.as_str())][..])]).remove(0);
    let headers = [
        ("Authorization", auth.as_str()),
        ("Content-Type", "application/json"),
    ];
    let a = send(proxy.port, "PUT", "/json", &headers, body);
    assert_eq!(a.status, 200, "{}", proxy.log());
    assert_eq!(up.last().body, body);
    // Another body under the same header: refused, not forwarded.
    let request = put(&proxy, "/json");
    let auth = sign_with(&[(&request, &[("oauth_body_hash", hash.as_str())][..])]).remove(0);
    let headers = [
        ("Authorization", auth.as_str()),
        ("Content-Type", "application/json"),
    ];
    let a = send(proxy.port, "PUT", "/json", &headers, br#"{"text":"hellp"}"#);
    assert_eq!(a.status, 401);
    assert_eq!(
        a.body,
        "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_body_hash"
    );
    assert_eq!(up.count(), 1);
}

#[test]
fn a_signed_body_over_the_limit_is_refused_and_not_forwarded() {
    let up = AxumUpstream::start();
    let mut args = CREDENTIALS.to_vec();
    args.extend(["--body-limit", "1024"]);
    let proxy = Proxy::start(&up.url(), &args);
    let form = format!("a={}", "x".repeat(2000));
    let request = ToSign {
        method: "POST",
        url: format!("http://127.0.0.1:{}/form", proxy.port),
        consumer: ("ck", "cs"),
        token: None,
        form_body: Some(&form),
    };
    let auth = sign(&[request]).remove(0);
    let headers = [
        ("Authorization", auth.as_str()),
        ("Content-Type", "application/x-www-form-urlencoded"),
    ];
    let a = send(proxy.port, "POST", "/form", &headers, form.as_bytes());
    assert_eq!(a.status, 413);
    assert_eq!(up.count(), 0);
}
