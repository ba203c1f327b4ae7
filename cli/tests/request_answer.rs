//! `oauth1 request` reads a 401 or 403 for what it means: X's code 135 ("Timestamp out of
//! bounds", X's v1.1 error codes) with how many seconds the client's clock is off by the
//! answer's `Date`, and OAuth Problem Reporting's `oauth_problem`. The answer comes from a
//! one-shot server on 127.0.0.1; the body is printed as it came.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::bin::{oauth1, run, text, TempDir};

/// An IMF-fixdate (RFC 9110 §5.6.7) for `secs` since 1970, written here from the civil
/// calendar (Howard Hinnant's civil_from_days), not by the code under test.
fn http_date(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][(days % 7) as usize];
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{weekday}, {day:02} {} {year} {:02}:{:02}:{:02} GMT",
        months[(month - 1) as usize],
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Answers one request with `status`, a `Date` `behind` seconds before now, and `body`.
fn answer_once(
    status: &'static str,
    behind: u64,
    body: &'static str,
) -> (u16, std::thread::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut buf = [0u8; 8192];
        let mut head = Vec::new();
        while !head.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = stream.read(&mut buf).unwrap();
            assert!(n > 0, "the request ended early");
            head.extend_from_slice(&buf[..n]);
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let answer = format!(
            "HTTP/1.1 {status}\r\nDate: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            http_date(now - behind),
            body.len()
        );
        stream.write_all(answer.as_bytes()).unwrap();
    });
    (port, server)
}

#[test]
fn the_date_is_written_as_python_writes_it() {
    // email.utils.formatdate(1318622958, usegmt=True)
    assert_eq!(http_date(1_318_622_958), "Fri, 14 Oct 2011 20:09:18 GMT");
}

#[test]
fn a_401_with_x_s_code_135_says_how_far_the_clock_is_off() {
    let body = r#"{"errors":[{"code":135,"message":"Timestamp out of bounds."}]}"#;
    let (port, server) = answer_once("401 Unauthorized", 600, body);
    let dir = TempDir::new("request-135");
    let mut cmd = oauth1(&dir.config());
    cmd.args([
        "request",
        "--consumer-key",
        "ck-key",
        "--consumer-secret",
        "cs-secret",
    ])
    .arg(format!(
        "http://127.0.0.1:{port}/1.1/account/verify_credentials.json"
    ));
    let out = run(cmd);
    server.join().unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stdout, body, "the body is printed as it came");
    assert!(
        stderr.contains("the provider's answer (HTTP 401):"),
        "{stderr}"
    );
    assert!(
        stderr.contains("X error 135 \"Timestamp out of bounds.\""),
        "{stderr}"
    );
    // Signed now; the server's Date says 600 s before now (a second may pass between).
    assert!(
        stderr.contains("the client's clock is 600 seconds ahead of the answer's Date")
            || stderr.contains("the client's clock is 599 seconds ahead of the answer's Date"),
        "{stderr}"
    );
}

#[test]
fn a_403_with_oauth_problem_is_read_too() {
    let body = "oauth_problem=token_rejected&oauth_problem_advice=unknown%20token";
    let (port, server) = answer_once("403 Forbidden", 0, body);
    let dir = TempDir::new("request-problem");
    let mut cmd = oauth1(&dir.config());
    cmd.args([
        "request",
        "--consumer-key",
        "ck-key",
        "--consumer-secret",
        "cs-secret",
    ])
    .arg(format!("http://127.0.0.1:{port}/r"));
    let out = run(cmd);
    server.join().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("oauth_problem=token_rejected \"unknown token\": The token is not valid"),
        "{stderr}"
    );
}
