//! The capture wing against what others say a capture holds:
//!
//! - `fixtures/captures/generators.json`: requests oauthlib signed, written as each generator
//!   writes them (Chromium's and Firefox's "Copy as cURL", Postman's and Insomnia's
//!   snippets, Chrome's and Firefox's HAR, raw HTTP/1.1); each parses to the request that was
//!   sent (`sent`: the generator's input), with the warning a generator's own mistake earns;
//! - `fixtures/captures/curlconverter.json`: curlconverter's corpus of real commands, each run
//!   by curl itself (bash, then curl, against a socket on 127.0.0.1): the parse is the request
//!   curl sent, byte for byte; the commands whose request is not in the text are refused by
//!   name;
//! - `fixtures/captures/answers.json`: X's documented error bodies and Problem Reporting
//!   answers, each read with its code.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::Duration;

use oauth1_signer::capture::{parse_curl, parse_har, parse_http, read_answer, Captured};
use oauth1_signer::ErrorKind;
use serde_json::Value;

fn fixture(name: &str) -> Vec<Value> {
    let path = format!("{}/fixtures/captures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let doc: Value = serde_json::from_str(&text).unwrap();
    let cases = doc["cases"].as_array().unwrap().clone();
    assert_eq!(doc["count"].as_u64(), Some(cases.len() as u64), "{name}");
    cases
}

fn parse(case: &Value) -> Captured {
    let text = case["text"].as_str().unwrap();
    let id = case["id"].as_str().unwrap();
    let parsed = match case["format"].as_str().unwrap() {
        "curl" => parse_curl(text),
        "har" => parse_har(text).and_then(|h| h.choose(case["entry"].as_u64().map(|n| n as usize))),
        "http" => parse_http(text.as_bytes(), case["scheme"].as_str().unwrap()),
        other => panic!("{id}: format {other}"),
    };
    parsed.unwrap_or_else(|e| panic!("{id}: {e}"))
}

#[test]
fn each_generator_s_capture_parses_to_the_request_sent() {
    let cases = fixture("generators.json");
    assert!(cases.len() >= 15);
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        assert!(
            case["source"].as_str().is_some_and(|s| s.len() > 20),
            "{id}: a source"
        );
        let r = parse(case);
        let sent = &case["sent"];
        assert_eq!(r.method(), sent["method"].as_str().unwrap(), "{id}");
        assert_eq!(r.url(), sent["url"].as_str().unwrap(), "{id}");
        assert_eq!(r.content_type(), sent["content_type"].as_str(), "{id}");
        let warned: Vec<&str> = r.warnings().iter().map(|w| w.code()).collect();
        match case["expect_warning"].as_str() {
            // The generator's own mistake: the command does not send the request signed,
            // and the warning says why.
            Some(code) => {
                assert!(warned.contains(&code), "{id}: {warned:?}");
                let differs = r.authorization() != sent["authorization"].as_str()
                    || r.body() != sent["body"].as_str().map(str::as_bytes);
                assert!(differs, "{id}: the command sends what was signed after all");
            }
            None => {
                assert_eq!(r.authorization(), sent["authorization"].as_str(), "{id}");
                assert_eq!(
                    r.body(),
                    sent["body"].as_str().map(str::as_bytes),
                    "{id}: {}",
                    String::from_utf8_lossy(r.body().unwrap_or_default())
                );
                assert!(
                    warned.iter().all(|w| *w == "crlf-line-ends"),
                    "{id}: {warned:?}"
                );
            }
        }
    }
}

#[test]
fn a_har_entry_s_response_is_read_with_its_date() {
    let cases = fixture("generators.json");
    let late = cases
        .iter()
        .find(|c| c["id"] == "firefox-har-timestamp-out-of-bounds")
        .unwrap();
    let r = parse(late);
    let response = r.response().unwrap();
    assert_eq!(response.status, 401);
    let answer = response.answer();
    assert_eq!(answer.errors[0].code, "135");
    // Signed at 1318623100; answered Fri, 14 Oct 2011 20:21:40 GMT = 1318623700.
    let offset =
        oauth1_signer::capture::clock_offset(1_318_623_100, response.header("date").unwrap())
            .unwrap();
    assert_eq!(
        offset,
        late["answer"]["clock_offset_seconds"].as_i64().unwrap()
    );
    // Both of the file's signed entries are listed; a choice is needed.
    let har = parse_har(late["text"].as_str().unwrap()).unwrap();
    assert_eq!(har.oauth_entries(), [0, 1]);
    assert!(matches!(
        har.choose(None).unwrap_err().kind(),
        ErrorKind::EntryNotChosen { .. }
    ));
}

#[test]
fn each_documented_answer_is_read_with_its_code() {
    for case in fixture("answers.json") {
        let id = case["id"].as_str().unwrap();
        let status = case["status"].as_u64().map(|s| s as u16);
        let answer = read_answer(status, case["body"].as_str().unwrap().as_bytes());
        let expected = &case["expected"];
        let e = answer
            .errors
            .first()
            .unwrap_or_else(|| panic!("{id}: nothing read"));
        assert_eq!(
            format!("{:?}", e.kind),
            expected["kind"].as_str().unwrap(),
            "{id}"
        );
        assert_eq!(e.code, expected["code"].as_str().unwrap(), "{id}");
        let mentions = expected["meaning_mentions"].as_str().unwrap();
        assert!(
            e.meaning.contains(mentions) || e.check.contains(mentions),
            "{id}: {} / {}",
            e.meaning,
            e.check
        );
        if let Some(window) = expected["acceptable_timestamps"].as_array() {
            let w: Vec<u64> = window.iter().map(|v| v.as_u64().unwrap()).collect();
            assert_eq!(answer.acceptable_timestamps(), Some((w[0], w[1])), "{id}");
        }
        if let Some(details) = expected["details"].as_array() {
            let want: Vec<(String, String)> = details
                .iter()
                .map(|d| (d[0].as_str().unwrap().into(), d[1].as_str().unwrap().into()))
                .collect();
            assert_eq!(e.details, want, "{id}");
        }
    }
}

/// One request as curl wrote it on the wire: its request line and header
/// lines, and its body by Content-Length.
struct Wire {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// Runs `command` with bash, its curl connecting to a socket here for
/// localhost:28139 (curlconverter's fixtures' address), and returns what
/// curl sent.
fn run_with_curl(command: &str) -> Wire {
    match try_with_curl(command) {
        Some(wire) => wire,
        None => panic!("curl failed: {command}"),
    }
}

/// As [`run_with_curl`], or `None` when curl sent nothing and failed (an
/// option it refuses).
fn try_with_curl(command: &str) -> Option<Wire> {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let home =
        std::env::temp_dir().join(format!("oauth1-capture-curl-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join(".curlrc"),
        // Quoted: a config file's values may be separated by a colon.
        format!(
            "connect-to = \":28139:127.0.0.1:{port}\"\nconnect-to = \":80:127.0.0.1:{port}\"\n\
             max-time = 10\n"
        ),
    )
    .unwrap();
    listener.set_nonblocking(true).unwrap();
    let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let done = finished.clone();
    let server = std::thread::spawn(move || {
        // Bounded: a curl that never connects fails the test, never hangs it.
        let deadline = std::time::Instant::now() + Duration::from_secs(15);
        let mut stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                // bash has ended without connecting: nothing was sent.
                Err(_) if done.load(std::sync::atomic::Ordering::SeqCst) => return None,
                Err(_) if std::time::Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(e) => panic!("curl never connected: {e}"),
            }
        };
        stream.set_nonblocking(false).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut bytes = Vec::new();
        let mut buf = [0u8; 65536];
        loop {
            let n = stream.read(&mut buf).unwrap_or(0);
            if n == 0 {
                break;
            }
            bytes.extend_from_slice(&buf[..n]);
            if let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&bytes[..end]).to_lowercase();
                let len = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .map_or(0, |v| v.trim().parse::<usize>().unwrap());
                if bytes.len() >= end + 4 + len {
                    break;
                }
            }
        }
        let _ =
            stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        Some(bytes)
    });
    let status = Command::new("bash")
        .args(["--noprofile", "--norc", "-c", command])
        .env("HOME", &home)
        .current_dir(&home)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("bash and curl (the oracle) must be installed");
    finished.store(true, std::sync::atomic::Ordering::SeqCst);
    let bytes = server.join().unwrap();
    if !status.success() {
        assert!(bytes.is_none(), "curl sent a request and failed: {command}");
        return None;
    }
    let bytes = bytes.unwrap();
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8(bytes[..end].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next().unwrap().splitn(3, ' ');
    let method = request_line.next().unwrap().to_owned();
    let target = request_line.next().unwrap().to_owned();
    let headers = lines
        .map(|l| {
            let (n, v) = l.split_once(':').unwrap();
            (n.to_owned(), v.trim().to_owned())
        })
        .collect();
    Some(Wire {
        method,
        target,
        headers,
        body: bytes[end + 4..].to_vec(),
    })
}

/// The headers curl adds by itself, which a parse does not list.
const CURL_OWN: [&str; 6] = [
    "host",
    "user-agent",
    "accept",
    "content-length",
    "accept-encoding",
    "expect",
];

/// Whether the parse is the request curl sent: its method, its URL's
/// target and authority (the `Host` curl sent; curl leaves out http's
/// port 80), its body byte for byte, and every header but curl's own.
fn same_request(id: &str, parsed: &Captured, wire: &Wire) {
    assert_eq!(parsed.method(), wire.method, "{id}");
    let url = parsed.url();
    let after_host = url.split("://").nth(1).unwrap();
    let split = after_host.find(['/', '?']).unwrap_or(after_host.len());
    let target = &after_host[split..];
    // An empty path is sent as "/".
    let target = match target.starts_with('/') {
        true => target.to_owned(),
        false => format!("/{target}"),
    };
    assert_eq!(target, wire.target, "{id}");
    let authority = &after_host[..split];
    let authority = authority.rsplit('@').next().unwrap();
    let authority = match url.starts_with("http://") {
        true => authority.strip_suffix(":80").unwrap_or(authority),
        false => authority,
    };
    let host = wire
        .headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("host"));
    assert!(
        host.is_some_and(|(_, v)| v.eq_ignore_ascii_case(authority)),
        "{id}: the URL's authority is {authority}, curl sent Host {host:?}"
    );
    assert_eq!(
        parsed.body().unwrap_or_default(),
        wire.body.as_slice(),
        "{id}"
    );
    for h in parsed.headers() {
        assert!(
            wire.headers
                .iter()
                .any(|(n, v)| n.eq_ignore_ascii_case(&h.name) && *v == h.value),
            "{id}: curl did not send {}: {}",
            h.name,
            h.value
        );
    }
    for (n, v) in &wire.headers {
        if CURL_OWN.iter().any(|own| n.eq_ignore_ascii_case(own)) {
            continue;
        }
        assert_eq!(
            parsed.header(n),
            Some(v.as_str()),
            "{id}: the parse lacks {n}"
        );
    }
}

/// `fixtures/captures/shell_and_curl.json`: issue 38's cases of what bash
/// and curl do to a command that a literal reading would miss (bash's
/// tilde, curl's abbreviated and unknown options, a `Host` or a header
/// name curl sends as written). Each is run by bash and curl: an accepted
/// command parses to the request curl sent, byte for byte; a refused one
/// is refused, and curl is seen to refuse it too or to send other bytes
/// than the text holds.
#[test]
fn what_bash_and_curl_do_to_a_command_is_read_or_refused() {
    let cases = fixture("shell_and_curl.json");
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let command = case["command"].as_str().unwrap();
        let wire = try_with_curl(command);
        let Some(kind) = case["expect"]["refused"].as_str() else {
            let parsed = parse_curl(command).unwrap_or_else(|e| panic!("{id}: {e}"));
            let wire = wire.unwrap_or_else(|| panic!("{id}: curl sent nothing"));
            same_request(id, &parsed, &wire);
            continue;
        };
        let e = parse_curl(command).unwrap_err();
        assert!(format!("{:?}", e.kind()).starts_with(kind), "{id}: {e}");
        let oracle = &case["expect"]["oracle"];
        if oracle["curl_refuses"].as_bool() == Some(true) {
            assert!(wire.is_none(), "{id}: curl sent a request");
            continue;
        }
        let wire = wire.unwrap_or_else(|| panic!("{id}: curl sent nothing"));
        if let Some(body) = oracle["body_is_not"].as_str() {
            assert_ne!(wire.body, body.as_bytes(), "{id}");
            assert!(!wire.body.is_empty(), "{id}");
        }
        if let Some(target) = oracle["target_is_not"].as_str() {
            assert_ne!(wire.target, target, "{id}");
        }
        if let Some(name) = oracle["no_header"].as_str() {
            assert!(
                wire.headers.iter().all(|(n, _)| n != name),
                "{id}: curl sent {name}"
            );
        }
    }
}

#[test]
fn curlconverter_s_commands_parse_to_what_curl_itself_sends() {
    let cases = fixture("curlconverter.json");
    let mut run = 0;
    for case in &cases {
        let id = case["id"].as_str().unwrap();
        let command = case["command"].as_str().unwrap();
        if let Some(kind) = case["expect"]["refused"].as_str() {
            let e = parse_curl(command).unwrap_err();
            let got = format!("{:?}", e.kind());
            assert!(got.starts_with(kind), "{id}: {e}");
            continue;
        }
        let parsed = parse_curl(command).unwrap_or_else(|e| panic!("{id}: {e}"));
        let wire = run_with_curl(command);
        run += 1;
        same_request(id, &parsed, &wire);
    }
    assert!(run >= 50, "{run} commands run");
}

/// A request to write as a curl command: its method, URL, headers and body.
type Written = (
    &'static str,
    String,
    Vec<(&'static str, String)>,
    Option<Vec<u8>>,
);

/// Requests to write as curl commands: each method (HEAD among them, and
/// a lower-case one curl sends as written), URLs holding `[ ] { }`, dot
/// segments and quotes, headers holding quotes, backslashes, control
/// characters and Unicode, bodies of any bytes but NUL (no shell word
/// holds one; the writer refuses it), bytes that are not UTF-8's among
/// them.
fn written_requests() -> impl proptest::strategy::Strategy<Value = Written> {
    use proptest::prelude::*;
    let method = proptest::sample::select(vec![
        "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "patch",
    ]);
    let url = proptest::collection::vec(
        prop_oneof![
            3 => proptest::char::range('a', 'z'),
            2 => proptest::sample::select(vec![
                '/', '.', '-', '_', '~', '%', '!', '$', '&', '\'', '(', ')', '*', '+', ',', ';',
                '=', ':', '@', '[', ']', '{', '}', '?', '"', '\\', '`',
            ]),
            1 => Just('é'),
        ],
        0..30,
    )
    .prop_map(|tail| {
        let tail: String = tail.into_iter().collect();
        format!("https://api.x.com/a/../{tail}")
    });
    let value = proptest::collection::vec(
        prop_oneof![
            4 => proptest::char::range('a', 'z'),
            3 => proptest::sample::select(vec![
                '\'', '"', '\\', '$', '`', '!', ' ', '\t', '%', '=', ',', '[', '{', ';', ':',
            ]),
            1 => proptest::sample::select(vec!['\u{1}', '\u{1b}', '\u{7f}', '\u{85}', '\u{9b}']),
            1 => proptest::sample::select(vec!['é', '☃', '😀', '\u{a0}']),
        ],
        0..30,
    )
    .prop_map(|chars| {
        let v: String = chars.into_iter().collect();
        // A value begins and ends with neither a space nor a tab (the
        // writer refuses them: curl and HTTP drop them).
        v.trim_matches([' ', '\t']).to_owned()
    });
    let headers = (
        proptest::option::of(value.clone()),
        proptest::option::of(value.clone()),
        value,
    )
        .prop_map(|(auth, custom, media)| (auth, custom, media));
    let body = proptest::option::of(proptest::collection::vec(1u8..=255, 0..40));
    (method, url, headers, body).prop_map(|(method, url, (auth, custom, media), body)| {
        let mut headers = Vec::new();
        if let Some(auth) = auth {
            headers.push(("Authorization", format!("OAuth oauth_signature=\"{auth}\"")));
        }
        if let Some(custom) = custom {
            headers.push(("X-Custom", custom));
        }
        // A body's type given, so that curl adds none of its own.
        if body.is_some() {
            headers.push(("Content-Type", format!("text/plain; x={media}")));
        }
        (method, url, headers, body)
    })
}

/// The curl writer is the reader's inverse: each generated request, written
/// as a command ([`CurlCommand`], on one line and on several) and read back
/// as bash and curl read it ([`parse_curl`]), is the same method, URL,
/// headers and body bytes. Deterministic: proptest's fixed-seed generator,
/// 400 requests.
#[test]
fn a_written_curl_command_reads_back_to_its_request() {
    use oauth1_signer::capture::CurlCommand;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

    let config = Config {
        cases: 400,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    runner
        .run(&written_requests(), |(method, url, headers, body)| {
            let pairs: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
            let command = CurlCommand::new(method, &url, pairs.clone(), body.as_deref()).unwrap();
            for written in [command.to_string(), format!("{command:#}")] {
                // Nothing of the request reaches a terminal raw.
                assert!(
                    !written.chars().any(|c| c.is_control() && c != '\n'),
                    "{written:?}"
                );
                let read = parse_curl(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
                assert_eq!(read.method(), method, "{written}");
                assert_eq!(read.url(), url, "{written}");
                let read_headers: Vec<(&str, &str)> = read
                    .headers()
                    .iter()
                    .map(|h| (h.name.as_str(), h.value.as_str()))
                    .collect();
                assert_eq!(read_headers, pairs, "{written}");
                assert_eq!(read.body(), body.as_deref(), "{written}");
            }
            Ok(())
        })
        .unwrap();
}

/// A few written commands run by bash and curl themselves, against a
/// socket here: what curl sends is what the command was written for (a
/// HEAD as `-I`, a URL with `[ ]`, `{ }` and dot segments sent as it is,
/// a body with control bytes and bytes that are not UTF-8's).
#[test]
fn a_written_curl_command_sends_its_request_through_bash_and_curl() {
    use oauth1_signer::capture::CurlCommand;

    let auth = r#"OAuth oauth_signature="it's a \"quote\" \\ $HOME `x`""#;
    type Case<'a> = (&'a str, &'a str, Vec<(&'a str, &'a str)>, Option<&'a [u8]>);
    let cases: [Case; 4] = [
        (
            "HEAD",
            "http://localhost:28139/a/../b/./c",
            vec![("Authorization", auth)],
            None,
        ),
        (
            "POST",
            "http://localhost:28139/p?ids[]=1&f={x}",
            vec![("Authorization", auth), ("Content-Type", "text/plain")],
            Some(b"line\r\n\x1b[2J\x01'\"\\\xff\xfe$(id)"),
        ),
        (
            "PUT",
            "http://localhost:28139/u/../v",
            vec![
                ("X-Ctl", "a\x1bb\x7fc"),
                ("X-Empty", ""),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
            Some(b"a=1&b=%20"),
        ),
        ("DELETE", "http://localhost:28139/d", vec![], None),
    ];
    for (method, url, headers, body) in cases {
        let command = CurlCommand::new(method, url, headers.clone(), body).unwrap();
        let written = format!("{command:#}");
        let parsed = parse_curl(&written).unwrap();
        let wire = run_with_curl(&written);
        same_request(&written, &parsed, &wire);
        assert_eq!(wire.method, method, "{written}");
        assert_eq!(wire.body, body.unwrap_or_default(), "{written}");
        for (name, value) in &headers {
            assert!(
                wire.headers.iter().any(|(n, v)| n == name && v == value),
                "{written}: curl did not send {name}: {value}"
            );
        }
    }
}
