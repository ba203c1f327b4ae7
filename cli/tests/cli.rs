//! The real `oauth1` binary, driven with the public vectors in `fixtures/`
//! and with malformed input whose offsets can be counted by hand.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use oauth1_signer::parse_authorization_header;
use serde_json::{json, Value};

const CREDENTIAL_VARS: [&str; 4] = [
    "OAUTH_CONSUMER_KEY",
    "OAUTH_CONSUMER_SECRET",
    "OAUTH_TOKEN",
    "OAUTH_TOKEN_SECRET",
];

/// The X docs "Creating a signature" credentials (vector `x-docs-creating-a-signature`).
const X_CONSUMER_KEY: &str = "xvz1evFS4wEEPTGEFPHBog";
const X_CONSUMER_SECRET: &str = "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw";
const X_TOKEN: &str = "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb";
const X_TOKEN_SECRET: &str = "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE";
const X_URL: &str = "https://api.x.com/1.1/statuses/update.json?include_entities=true";
const X_BODY: &str = "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21";
const X_NONCE: &str = "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg";
const X_TIMESTAMP: &str = "1318622958";

struct Output {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the binary with no OAUTH_* variables but those in `env`.
fn run(args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_oauth1"));
    cmd.args(args);
    for var in CREDENTIAL_VARS {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    cmd.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the oauth1 binary runs");
    if let Some(input) = stdin {
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    Output {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

fn oauth1(args: &[&str]) -> Output {
    run(args, None, &[])
}

fn fixture(name: &str) -> Vec<Value> {
    let path = format!("{}/../fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file: Value = serde_json::from_str(&text).unwrap();
    file["vectors"].as_array().unwrap().clone()
}

fn vector(name: &str, id: &str) -> Value {
    fixture(name).into_iter().find(|v| v["id"] == id).unwrap()
}

fn sorted_header(header: &str) -> Vec<(String, String)> {
    let mut pairs = parse_authorization_header(header).unwrap_or_else(|e| panic!("{header}: {e}"));
    pairs.sort();
    pairs
}

fn sorted_pairs(value: &Value) -> Vec<Value> {
    let mut pairs = value.as_array().unwrap().clone();
    pairs.sort_by_key(|p| p.to_string());
    pairs
}

/// Signs every request vector with a consumer key through `sign --request -
/// --format json` and compares every stage the vector records. Returns how
/// many were run, and the differences.
fn sign_vectors(file: &str, kind: &str) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut count = 0;
    for v in fixture(file) {
        if v["kind"] != kind || v["inputs"].get("consumer_key").is_none() {
            continue;
        }
        count += 1;
        let id = v["id"].as_str().unwrap();
        // Fields the schema does not know, such as `id`, are ignored.
        let mut inputs = v["inputs"].clone();
        inputs["id"] = v["id"].clone();
        let stdin = inputs.to_string();
        let args = [
            "sign",
            "--request",
            "-",
            "--format",
            "json",
            "--show-secrets",
        ];
        let out = run(&args, Some(stdin.as_bytes()), &[]);
        if let Some(why) = common::refused::refused_by_signer(id) {
            // Refused on purpose (tests/common): exit 2, saying why.
            if out.code != 2 || !out.stderr.contains(why) {
                failures.push(format!(
                    "{file} {id}: not refused: exit {}: {}",
                    out.code, out.stderr
                ));
            }
            continue;
        }
        // The test keys are 1024-bit RSA keys: the CLI warns, and signs.
        let weak_key = |line: &str| line.starts_with("warning: the RSA key has 1024 bits;");
        if out.code != 0 || !out.stderr.lines().all(weak_key) {
            failures.push(format!("{file} {id}: exit {}: {}", out.code, out.stderr));
            continue;
        }
        let got: Value = serde_json::from_str(&out.stdout).unwrap();
        let want = &v["expected"];
        for stage in [
            "normalized_params",
            "base_string_uri",
            "base_string",
            "signing_key",
            "signature",
        ] {
            if let Some(expected) = want.get(stage) {
                if got.get(stage) != Some(expected) {
                    failures.push(format!(
                        "{file} {id}: {stage}: got {}, want {expected}",
                        got[stage]
                    ));
                }
            }
        }
        if let Some(expected) = want.get("collected_params") {
            if sorted_pairs(&got["collected_params"]) != sorted_pairs(expected) {
                failures.push(format!(
                    "{file} {id}: collected_params: got {}",
                    got["collected_params"]
                ));
            }
        }
        let header = got["authorization_header"].as_str().unwrap();
        if let Some(expected) = want["authorization_header"].as_str() {
            if sorted_header(header) != sorted_header(expected) {
                failures.push(format!("{file} {id}: authorization_header: got {header}"));
            }
        }
        if let Some(expected) = want.get("header_params") {
            let got: Vec<(String, String)> = sorted_header(header);
            let want: Vec<(String, String)> = serde_json::from_value(expected.clone()).unwrap();
            if got != want {
                failures.push(format!("{file} {id}: header_params: got {got:?}"));
            }
        }
        // The header format prints the very same header.
        let plain = run(&["sign", "--request", "-"], Some(stdin.as_bytes()), &[]);
        if plain.stdout != format!("{header}\n") {
            failures.push(format!(
                "{file} {id}: --format header printed {:?}",
                plain.stdout
            ));
        }
    }
    (count, failures)
}

#[test]
fn every_request_vector_signs_as_recorded() {
    let mut all = Vec::new();
    for (file, kind, expected_count) in [
        ("signatures.json", "request", 28),
        ("base_string.json", "request", 6),
        ("headers.json", "build", 28),
    ] {
        let (count, failures) = sign_vectors(file, kind);
        assert_eq!(count, expected_count, "{file}: vectors run");
        all.extend(failures);
    }
    assert!(
        all.is_empty(),
        "{} stage(s) differ:\n{}",
        all.len(),
        all.join("\n")
    );
}

fn hex_to_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn every_percent_encoding_vector_encodes_and_decodes() {
    let vectors = fixture("percent_encoding.json");
    assert_eq!(vectors.len(), 274);
    let mut failures = Vec::new();
    for v in &vectors {
        let id = v["id"].as_str().unwrap();
        let hex = v["inputs"]["input_hex"].as_str().unwrap();
        let encoded = v["expected"].as_str().unwrap();

        let out = oauth1(&["encode", "--hex", hex]);
        if (out.code, out.stdout.as_str()) != (0, format!("{encoded}\n").as_str()) {
            failures.push(format!(
                "{id}: encode --hex {hex}: exit {}, {:?}",
                out.code, out.stdout
            ));
        }
        // The same bytes as text, where a command line can carry them.
        if let Some(text) = v["inputs"]["input"].as_str().filter(|t| !t.contains('\0')) {
            let out = oauth1(&["encode", "--", text]);
            if out.stdout != format!("{encoded}\n") {
                failures.push(format!("{id}: encode {text:?}: {:?}", out.stdout));
            }
        }

        let bytes = hex_to_bytes(hex);
        let want = match std::str::from_utf8(&bytes) {
            Ok(text) => json!({"text": text, "hex": hex, "binary": false}),
            Err(_) => json!({"hex": hex, "binary": true}),
        };
        let out = oauth1(&["decode", "--format", "json", "--", encoded]);
        let got: Value = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
        if out.code != 0 || got != want {
            failures.push(format!(
                "{id}: decode {encoded}: exit {}, {}",
                out.code, out.stdout
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const ESCAPE_RULE: &str = "(a '%' must be followed by two hex digits)";

#[test]
fn malformed_escapes_exit_2_with_the_offset_and_a_caret() {
    // (input, offset of the '%', text shown, caret line)
    for (input, offset, found, caret) in [
        ("%2G", 0, "%2G", "  ^^^"),
        ("abc%2Gdef", 3, "%2G", "     ^^^"),
        ("%4", 0, "%4", "  ^^"),
        ("ab%4", 2, "%4", "    ^^"),
        ("abc%", 3, "%", "     ^"),
        ("%", 0, "%", "  ^"),
        ("%%", 0, "%%", "  ^^"),
        ("ok%41%g1", 5, "%g1", "       ^^^"),
    ] {
        for format in ["text", "json"] {
            let out = oauth1(&["decode", "--format", format, "--", input]);
            assert_eq!(out.code, 2, "{input}");
            assert_eq!(out.stdout, "", "{input}");
            assert_eq!(
                out.stderr,
                format!(
                    "error: malformed percent-escape at byte {offset} of the input: \"{found}\" {ESCAPE_RULE}\n  {input}\n{caret}\n"
                ),
                "{input}"
            );
        }
    }
}

#[test]
fn stdin_is_read_without_one_trailing_newline() {
    // Stripping comes before decoding: the caret counts in what is left.
    let out = run(&["decode"], Some(b"abc%2Gdef\n"), &[]);
    assert_eq!(
        out.stderr,
        format!("error: malformed percent-escape at byte 3 of the input: \"%2G\" {ESCAPE_RULE}\n  abc%2Gdef\n     ^^^\n")
    );
    for (input, encoded) in [
        (&b"a b\n"[..], "a%20b"),
        (b"a b\r\n", "a%20b"),
        (b"a b\n\n", "a%20b%0A"),
        (b"a b", "a%20b"),
        (b"\n", ""),
        (b"\xff\xfe", "%FF%FE"),
    ] {
        let out = run(&["encode"], Some(input), &[]);
        assert_eq!(
            (out.code, out.stdout.as_str()),
            (0, format!("{encoded}\n").as_str()),
            "{input:?}"
        );
    }
    let out = run(&["decode", "--form"], Some(b"x+y%21\n"), &[]);
    assert_eq!(out.stdout, "x y!\n");
}

/// Decoded text goes into a pipe byte for byte, but a terminal (a pty, through
/// script(1)) never gets its control characters raw: an escape sequence in
/// the input does not retitle the window or clear the screen.
#[test]
fn decoded_control_characters_are_escaped_on_a_terminal_only() {
    let input = "%1B%5D0%3Bpwned%07%1B%5B2Jx%09y";
    let out = oauth1(&["decode", input]);
    assert_eq!(out.code, 0);
    assert_eq!(out.stdout, "\x1b]0;pwned\x07\x1b[2Jx\ty\n");
    let line = format!("'{}' decode '{input}'", env!("CARGO_BIN_EXE_oauth1"));
    let out = Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script(1) runs");
    assert!(out.status.success());
    // The pty turns "\n" into "\r\n"; the tab is kept.
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "\\u{1b}]0;pwned\\u{7}\\u{1b}[2Jx\ty\r\n"
    );
}

#[test]
fn non_utf8_results_are_shown_as_binary_hex() {
    // (input, bytes as lower-case hex, byte count)
    for (input, hex, n) in [
        ("%FF", "ff", "1 byte"),
        ("%C0%AF", "c0af", "2 bytes"),      // overlong '/'
        ("%ED%A0%80", "eda080", "3 bytes"), // a UTF-16 surrogate
        ("%E2%98", "e298", "2 bytes"),      // '☃' cut short
        ("a%80b", "618062", "3 bytes"),     // a stray continuation byte
    ] {
        let out = oauth1(&["decode", input]);
        assert_eq!(out.code, 0, "{input}");
        assert_eq!(out.stdout, format!("{hex}\n"), "{input}");
        assert_eq!(out.stderr, format!("binary (not UTF-8): {n}\n"), "{input}");

        let out = oauth1(&["decode", "--format", "json", input]);
        assert_eq!(out.code, 0, "{input}");
        let got: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(got, json!({"hex": hex, "binary": true}), "{input}");
    }
    let out = oauth1(&["decode", "--format", "json", "%E2%98%83"]);
    let got: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(got, json!({"text": "☃", "hex": "e29883", "binary": false}));
}

#[test]
fn bad_hex_names_the_offset() {
    let out = oauth1(&["encode", "--hex", "e2g883"]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: invalid hex digit 'g' at byte 2 of the input (expected 0-9, a-f or A-F)\n  e2g883\n    ^\n"
    );
    let out = oauth1(&["encode", "--hex", "e2988"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .starts_with("error: odd number of hex digits (5): the digit at byte 4 "),
        "{}",
        out.stderr
    );
    assert_eq!(oauth1(&["encode", "--hex", "E29883"]).stdout, "%E2%98%83\n");
    assert_eq!(oauth1(&["encode", "--hex", ""]).stdout, "\n");
}

#[test]
fn sign_errors_point_into_the_url_body_or_method() {
    let out = oauth1(&[
        "sign",
        "--consumer-key",
        "k",
        "-d",
        "abc%2Gdef",
        "https://h/",
    ]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        format!("error: malformed percent-escape at byte 3 of the form body: \"%2G\" {ESCAPE_RULE}\n  abc%2Gdef\n     ^^^\n")
    );

    // "https://h/p?a=" is 14 bytes.
    let out = oauth1(&["sign", "--consumer-key", "k", "https://h/p?a=%zz"]);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        format!("error: malformed percent-escape at byte 14 of the URL: \"%zz\" {ESCAPE_RULE}\n  https://h/p?a=%zz\n                ^^^\n")
    );

    // "https://h/a" is 11 bytes; then the space.
    let out = oauth1(&["sign", "--consumer-key", "k", "https://h/a b"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .starts_with("error: invalid byte 0x20 at byte 11 of the URL"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.ends_with("\n  https://h/a b\n             ^\n"),
        "{}",
        out.stderr
    );

    let out = oauth1(&["sign", "--consumer-key", "k", "-X", "GE T", "https://h/"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .starts_with("error: invalid byte 0x20 at byte 2 of the method"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.ends_with("\n  GE T\n    ^\n"), "{}", out.stderr);

    let out = oauth1(&["sign", "--consumer-key", "k", "ftp://h/"]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().next().unwrap(), "error: invalid URL at byte 0: unsupported scheme (only http and https requests can be signed)");
}

#[test]
fn other_bad_input_is_one_line_and_exit_2() {
    for (args, message) in [
        (
            &["sign", "--consumer-key", "k", "--signature-method", "HMAC-MD5", "https://h/"][..],
            "error: unknown signature method \"HMAC-MD5\" (expected HMAC-SHA1, HMAC-SHA256, HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256)\n",
        ),
        (
            &["sign", "--consumer-key", "k", "--signature-method", "RSA-SHA1", "https://h/"],
            "error: signature method RSA-SHA1 needs an RSA private key\n",
        ),
        (
            &["sign", "--consumer-key", "k", "--signature-method", "RSA-SHA1", "--private-key", "/nonexistent/key.pem", "https://h/"],
            "error: cannot read --private-key file \"/nonexistent/key.pem\": No such file or directory (os error 2)\n",
        ),
        (
            &["sign", "--request", "/nonexistent/request.json"],
            "error: cannot read --request file \"/nonexistent/request.json\": No such file or directory (os error 2)\n",
        ),
    ] {
        let out = oauth1(args);
        assert_eq!((out.code, out.stderr.as_str(), out.stdout.as_str()), (2, message, ""), "{args:?}");
    }

    // A file that is not a key.
    let manifest = format!("{}/Cargo.toml", env!("CARGO_MANIFEST_DIR"));
    let out = oauth1(&[
        "sign",
        "--consumer-key",
        "k",
        "--signature-method",
        "RSA-SHA256",
        "--private-key",
        &manifest,
        "https://h/",
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with("error: invalid private key: "),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.lines().count(), 1);

    // JSON that stops after 17 characters.
    let out = run(
        &["sign", "--request", "-"],
        Some(br#"{"method": "GET","#),
        &[],
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .starts_with("error: invalid request JSON: EOF while parsing"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.ends_with(" at line 1 column 17\n"),
        "{}",
        out.stderr
    );

    let out = run(
        &["sign", "--request", "-"],
        Some(br#"{"method": "GET", "url": "https://h/", "consumer_key": "k", "version": "2.0"}"#),
        &[],
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.starts_with(
            "error: invalid request JSON: invalid value: string \"2.0\", expected \"1.0\""
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn missing_consumer_key_says_which_flag_or_variable_to_set() {
    let message = "error: no consumer key: pass --consumer-key KEY or set OAUTH_CONSUMER_KEY \
                   (or --profile NAME, an account `oauth1 authorize` saved)\n";
    for env in [
        &[][..],
        &[("OAUTH_CONSUMER_KEY", "")],
        &[("OAUTH_CONSUMER_SECRET", "s")],
    ] {
        let out = run(&["sign", "https://api.x.com/2/users/me"], None, env);
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (2, "", message),
            "{env:?}"
        );
    }
}

fn x_docs_header() -> String {
    vector("signatures.json", "x-docs-creating-a-signature")["expected"]["authorization_header"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn credentials_come_from_the_environment() {
    let env = [
        ("OAUTH_CONSUMER_KEY", X_CONSUMER_KEY),
        ("OAUTH_CONSUMER_SECRET", X_CONSUMER_SECRET),
        ("OAUTH_TOKEN", X_TOKEN),
        ("OAUTH_TOKEN_SECRET", X_TOKEN_SECRET),
    ];
    // -d makes it a POST.
    let out = run(
        &[
            "sign",
            "-d",
            X_BODY,
            "--nonce",
            X_NONCE,
            "--timestamp",
            X_TIMESTAMP,
            X_URL,
        ],
        None,
        &env,
    );
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert_eq!(
        sorted_header(out.stdout.trim_end()),
        sorted_header(&x_docs_header())
    );

    // A flag beats the variable.
    let out = run(
        &[
            "sign",
            "-d",
            X_BODY,
            "--nonce",
            X_NONCE,
            "--timestamp",
            X_TIMESTAMP,
            "--consumer-secret",
            "other",
            X_URL,
        ],
        None,
        &env,
    );
    assert_eq!(out.code, 0);
    assert!(!out.stdout.contains("Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D"));

    // A request file is taken literally: vector oauthlib-client-hmac-sha1 has
    // no secrets, and the environment's do not creep in.
    let v = vector("signatures.json", "oauthlib-client-hmac-sha1");
    let out = run(
        &["sign", "--request", "-", "--format", "json"],
        Some(v["inputs"].to_string().as_bytes()),
        &env,
    );
    let got: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(got["signature"], v["expected"]["signature"]);
}

#[test]
fn flags_on_the_command_line_override_the_request_file() {
    // The X docs request sent to api.twitter.com is vector twitter-v1.1-statuses-update.
    let v = vector("signatures.json", "twitter-v1.1-statuses-update");
    let url = v["inputs"]["url"].as_str().unwrap();
    let out = oauth1(&["sign", "--example", "--format", "json", url]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let got: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(got["signature"], v["expected"]["signature"]);
    assert_eq!(got["base_string"], v["expected"]["base_string"]);

    // Vector oauth1-request-rs-emoji-form sends no version: adding one to the
    // file and taking it away again with --no-version gives its signature.
    let v = vector("signatures.json", "oauth1-request-rs-emoji-form");
    let mut inputs = v["inputs"].clone();
    inputs["version"] = json!("1.0");
    let out = run(
        &["sign", "--request", "-", "--no-version", "--format", "json"],
        Some(inputs.to_string().as_bytes()),
        &[],
    );
    let got: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(got["signature"], v["expected"]["signature"]);
}

#[test]
fn the_example_reproduces_the_x_docs() {
    let v = vector("signatures.json", "x-docs-creating-a-signature");
    let out = oauth1(&["sign", "--example"]);
    assert_eq!(
        out.stdout,
        format!(
            "{}\n",
            v["expected"]["authorization_header"].as_str().unwrap()
        )
    );

    let out = oauth1(&["sign", "--example", "--format", "json", "--show-secrets"]);
    let got: Value = serde_json::from_str(&out.stdout).unwrap();
    for stage in [
        "normalized_params",
        "base_string_uri",
        "base_string",
        "signing_key",
        "signature",
        "authorization_header",
    ] {
        assert_eq!(got[stage], v["expected"][stage], "{stage}");
    }
    // A multiset, as the fixtures' README says: the trace lists the protocol
    // parameters sorted, the vector in the order the docs list them.
    let sorted = |pairs: &Value| {
        let mut pairs = pairs.as_array().unwrap().clone();
        pairs.sort_by_key(|p| p.to_string());
        pairs
    };
    assert_eq!(
        sorted(&got["collected_params"]),
        sorted(&v["expected"]["collected_params"])
    );

    // The trace shows the base string a part per line: joined, they are the base string.
    let out = oauth1(&["sign", "--example", "--format", "trace"]);
    assert_eq!(out.code, 0);
    let lines: Vec<&str> = out.stdout.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with("base string ("))
        .unwrap()
        + 1;
    let parts: Vec<&str> = lines[start..]
        .iter()
        .take_while(|l| !l.is_empty())
        .map(|l| l.trim_start())
        .collect();
    assert_eq!(parts[0], "POST");
    assert_eq!(
        parts[1],
        "&https%3A%2F%2Fapi.x.com%2F1.1%2Fstatuses%2Fupdate.json"
    );
    assert_eq!(parts[2], "&include_entities%3Dtrue");
    assert_eq!(
        parts.len(),
        2 + 8,
        "the method, the URI, and one line per parameter"
    );
    assert_eq!(
        parts.concat(),
        v["expected"]["base_string"].as_str().unwrap()
    );
    for param in v["expected"]["normalized_params"]
        .as_str()
        .unwrap()
        .split('&')
    {
        assert!(lines.contains(&format!("  {param}").as_str()), "{param}");
    }
}

/// The embedded example is pinned to the X docs' 2011 timestamp on purpose: no
/// clock warning for it, in any format. A timestamp the user pins is warned about.
#[test]
fn the_example_does_not_warn_about_its_own_timestamp() {
    for format in ["trace", "json"] {
        let out = oauth1(&["sign", "--example", "--format", format]);
        assert_eq!(out.code, 0);
        assert!(
            !out.stdout.contains("local clock"),
            "{format}: {}",
            out.stdout
        );
    }
    let out = oauth1(&[
        "sign",
        "--example",
        "--timestamp",
        "1318622958",
        "--format",
        "trace",
    ]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.contains("seconds from the local clock"),
        "{}",
        out.stdout
    );
}

#[test]
fn secrets_are_shown_only_with_show_secrets() {
    let secrets = [X_CONSUMER_SECRET, X_TOKEN_SECRET];
    for format in ["header", "json", "curl", "trace"] {
        let out = oauth1(&["sign", "--example", "--format", format]);
        assert_eq!(out.code, 0);
        for secret in secrets {
            assert!(
                !out.stdout.contains(secret) && !out.stderr.contains(secret),
                "{format}"
            );
        }
        assert!(!out.stdout.contains("signing_key"), "{format}");
    }
    let out = oauth1(&["sign", "--example", "--format", "trace", "--show-secrets"]);
    assert!(out
        .stdout
        .contains(&format!("\n  {X_CONSUMER_SECRET}&{X_TOKEN_SECRET}\n")));

    // PLAINTEXT: the signature is the key ("foo&bar" in vector oauthlib-client-plaintext),
    // so json and trace hide it as well.
    let v = vector("signatures.json", "oauthlib-client-plaintext");
    let stdin = v["inputs"].to_string();
    for format in ["json", "trace"] {
        let out = run(
            &["sign", "--request", "-", "--format", format],
            Some(stdin.as_bytes()),
            &[],
        );
        assert_eq!(out.code, 0);
        assert!(
            !out.stdout.contains("foo") && !out.stdout.contains("bar"),
            "{}",
            out.stdout
        );
    }
    let out = run(
        &[
            "sign",
            "--request",
            "-",
            "--format",
            "json",
            "--show-secrets",
        ],
        Some(stdin.as_bytes()),
        &[],
    );
    let got: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(got["signature"], "foo&bar");

    // Nor do errors or --help show them: a secret of the wrong type is not quoted back.
    let out = run(
        &["sign", "--request", "-"],
        Some(br#"{"method": "GET", "url": "https://h/", "consumer_key": "k", "consumer_secret": 987654321}"#),
        &[],
    );
    assert_eq!(out.code, 2);
    assert!(!out.stderr.contains("987654321"), "{}", out.stderr);
    let out = run(
        &["sign", "--help"],
        None,
        &[
            ("OAUTH_CONSUMER_SECRET", X_CONSUMER_SECRET),
            ("OAUTH_TOKEN_SECRET", X_TOKEN_SECRET),
        ],
    );
    assert_eq!(out.code, 0);
    assert!(out.stdout.contains("OAUTH_CONSUMER_SECRET"));
    for secret in secrets {
        assert!(!out.stdout.contains(secret));
    }
}

#[test]
fn curl_format_quotes_single_quotes() {
    let args = [
        "--consumer-key",
        "k",
        "--consumer-secret",
        "s",
        "--nonce",
        "n",
        "--timestamp",
        "1",
        "--realm",
        "O'Reilly",
        "-d",
        "q=it's",
        "https://h/p?x='y'",
    ];
    let header = oauth1(&[&["sign"][..], &args].concat()).stdout;
    let header = header.trim_end();
    assert!(
        header.starts_with("OAuth realm=\"O'Reilly\", oauth_consumer_key=\"k\", "),
        "{header}"
    );

    let out = oauth1(&[&["sign", "--format", "curl"][..], &args].concat());
    assert_eq!(out.code, 0);
    let quoted_header = header.replace('\'', r"'\''");
    assert_eq!(
        out.stdout,
        format!(
            "curl -X 'POST' -H 'Authorization: {quoted_header}' -H 'Content-Type: application/x-www-form-urlencoded' \
             --data-raw 'q=it'\\''s' --path-as-is 'https://h/p?x='\\''y'\\'''\n"
        )
    );

    // A shell reads it back into exactly the words meant.
    #[cfg(unix)]
    {
        let words = out.stdout.trim_end().strip_prefix("curl ").unwrap();
        let shell = Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s\\n' {words}"))
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8(shell.stdout).unwrap(),
            format!(
                "-X\nPOST\n-H\nAuthorization: {header}\n-H\nContent-Type: application/x-www-form-urlencoded\n--data-raw\nq=it's\n--path-as-is\nhttps://h/p?x='y'\n"
            )
        );
    }

    // No body: no --data-raw, no Content-Type.
    let out = oauth1(&[
        "sign",
        "--format",
        "curl",
        "--consumer-key",
        "k",
        "--empty-consumer-secret",
        "https://h/",
    ]);
    assert!(
        out.stdout
            .starts_with("curl -X 'GET' -H 'Authorization: OAuth "),
        "{}",
        out.stdout
    );
    assert!(
        !out.stdout.contains("--data-raw") && out.stdout.ends_with(" --path-as-is 'https://h/'\n")
    );
}

#[test]
fn live_requests_get_a_fresh_nonce_and_timestamp() {
    let live = ["sign", "--consumer-key", "k", "--consumer-secret", "s"];
    let a = oauth1(&[&live[..], &["https://h/"]].concat()).stdout;
    let b = oauth1(&[&live[..], &["https://h/"]].concat()).stdout;
    let nonce = |h: &str| {
        sorted_header(h.trim_end())
            .into_iter()
            .find(|(n, _)| n == "oauth_nonce")
            .map(|(_, v)| v)
    };
    assert!(nonce(&a).is_some() && nonce(&a) != nonce(&b));
    let params = sorted_header(a.trim_end());
    let names: Vec<&str> = params.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "oauth_consumer_key",
            "oauth_nonce",
            "oauth_signature",
            "oauth_signature_method",
            "oauth_timestamp",
            "oauth_version"
        ]
    );
    let no_version = oauth1(&[&live[..], &["--no-version", "https://h/"]].concat()).stdout;
    assert!(!no_version.contains("oauth_version"));
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(oauth1(&["sign"]).code, 2);
    assert_eq!(oauth1(&["sign", "--format", "xml", "--example"]).code, 2);
    assert_eq!(oauth1(&["sign", "--example", "--request", "-"]).code, 2);
    assert_eq!(oauth1(&["frobnicate"]).code, 2);
    assert_eq!(oauth1(&["--help"]).code, 0);
}

#[test]
fn trace_never_panics_on_a_long_parameter_name() {
    // A width of 65,536 or more in `{:<width$}` panics; names over 40
    // characters are printed unpadded instead.
    let name = "a".repeat(70_000);
    let body = format!("{name}=1&b=2");
    for format in ["header", "json", "curl", "trace"] {
        let out = oauth1(&[
            "sign",
            "--consumer-key",
            "k",
            "--consumer-secret",
            "s",
            "-d",
            &body,
            "--format",
            format,
            "https://h/",
        ]);
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{format}");
        if format == "trace" {
            let lines: Vec<&str> = out.stdout.lines().collect();
            assert!(lines.contains(&format!("  {name}  1").as_str()));
            // The short names are still lined up with each other.
            assert!(lines.contains(&"  oauth_signature_method  HMAC-SHA1"));
            assert!(lines.contains(&"  b                       2"));
        }
    }
}

/// Runs the binary with `stdin` under a 200 MB address-space limit, so that
/// an error display that grows with the input fails.
#[cfg(unix)]
fn run_in_200_mb(args: &[&str], stdin: &[u8]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(r#"ulimit -v 200000 && exec "$0" "$@""#)
        .arg(env!("CARGO_BIN_EXE_oauth1"))
        .args(args);
    for var in CREDENTIAL_VARS {
        cmd.env_remove(var);
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[cfg(unix)]
#[test]
fn a_caret_in_a_huge_input_costs_what_it_prints() {
    const N: usize = 5_000_000;
    let mut input = vec![b'a'; N];
    input.extend_from_slice(b"%zz");
    let context = "a".repeat(40);
    let carets = format!("  {}^^^\n", " ".repeat(43));

    let started = std::time::Instant::now();
    let out = run_in_200_mb(&["decode"], &input);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(
        out.stderr,
        format!("error: malformed percent-escape at byte {N} of the input: \"%zz\" {ESCAPE_RULE}\n  ...{context}%zz\n{carets}")
    );
    assert!(out.stderr.len() < 500);

    // The same through sign: a 5 MB form body in a request file.
    let request = json!({
        "method": "POST",
        "url": "https://h/",
        "consumer_key": "k",
        "form_body": String::from_utf8(input).unwrap(),
    });
    let out = run_in_200_mb(&["sign", "--request", "-"], request.to_string().as_bytes());
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.len() < 500, "{}", out.stderr.len());
    assert!(
        out.stderr
            .ends_with(&format!("\n  ...{context}%zz\n{carets}")),
        "{}",
        out.stderr
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));

    // The window kept around the spot starts inside a '€' (3 bytes): it is
    // moved to the next character, and what is shown does not change.
    let input = format!("{}ab%zz", "€".repeat(100));
    let out = oauth1(&["decode", "--", &input]);
    assert_eq!(
        out.stderr,
        format!(
            "error: malformed percent-escape at byte 302 of the input: \"%zz\" {ESCAPE_RULE}\n  ...{}ab%zz\n{carets}",
            "€".repeat(38)
        )
    );
    // Cut on both sides.
    let input = format!("{}%zz{}", "b".repeat(1000), "c".repeat(1000));
    let out = oauth1(&["decode", "--", &input]);
    assert!(
        out.stderr.ends_with(&format!(
            "\n  ...{}%zz{}...\n{carets}",
            "b".repeat(40),
            "c".repeat(40)
        )),
        "{}",
        out.stderr
    );
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly_and_a_full_disk_does_not() {
    use std::io::Read;

    // `oauth1 encode < big | head -c1`: more than a pipe holds.
    let mut child = Command::new(env!("CARGO_BIN_EXE_oauth1"))
        .arg("encode")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&vec![b' '; 1 << 20]);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"%");
    drop(stdout);
    writer.join().unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).as_ref()
        ),
        (Some(0), "")
    );

    // `> /dev/full`: exit 1 and say so.
    if let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
        for args in [&["encode", "abc"][..], &["sign", "--example"]] {
            let out = Command::new(env!("CARGO_BIN_EXE_oauth1"))
                .args(args)
                .stdout(full.try_clone().unwrap())
                .stderr(Stdio::piped())
                .output()
                .unwrap();
            let stderr = String::from_utf8(out.stderr).unwrap();
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            assert!(
                stderr.starts_with("error: cannot write the output: ")
                    && stderr.lines().count() == 1,
                "{stderr}"
            );
        }
    }
}

#[test]
fn secrets_may_start_with_a_hyphen_and_are_never_echoed() {
    let secret = "--SeCrEt123";
    let base = [
        "sign",
        "--consumer-key",
        "k",
        "--token",
        "t",
        "--nonce",
        "n",
        "--timestamp",
        "1",
    ];
    let with = |extra: &[&str]| oauth1(&[&base[..], extra, &["https://h/"]].concat());
    let spaced = with(&["--consumer-secret", secret, "--token-secret", secret]);
    let joined = with(&[
        &format!("--consumer-secret={secret}"),
        &format!("--token-secret={secret}"),
    ]);
    assert_eq!((spaced.code, spaced.stderr.as_str()), (0, ""));
    assert_eq!(spaced.stdout, joined.stdout);
    let other = with(&["--consumer-secret", "x", "--token-secret", "y"]);
    assert_ne!(spaced.stdout, other.stdout);

    for extra in [
        // A wrong flag after a secret.
        &["--token-secret", secret, "--bogus"][..],
        &["--consumer-secret", secret, "--frobnicate=1"],
        // A secret given twice.
        &[
            "--consumer-secret",
            secret,
            "--consumer-secret",
            "-other-SeCrEt",
        ],
        &[
            "--consumer-secret",
            "hunter2",
            "--consumer-secret",
            "hunter3",
        ],
        // clap quotes the extra argument back; it is the secret.
        &["--consumer-secret", "hunter2", "https://h/", "hunter2"],
    ] {
        let out = with(extra);
        assert_eq!(out.code, 2, "{extra:?}");
        for s in ["SeCrEt", "hunter"] {
            assert!(
                !out.stderr.contains(s) && !out.stdout.contains(s),
                "{extra:?}: {}",
                out.stderr
            );
        }
    }
    // The same from the environment.
    let out = run(
        &["sign", "--consumer-key", "k", "https://h/", "hunter2"],
        None,
        &[("OAUTH_CONSUMER_SECRET", "hunter2")],
    );
    assert_eq!(out.code, 2);
    assert!(!out.stderr.contains("hunter2"), "{}", out.stderr);
    assert!(out.stderr.contains("<redacted>"), "{}", out.stderr);
}

#[test]
fn missing_credentials_are_refused_unless_asked_for() {
    let url = "https://h/";
    let no_secret = "error: no consumer secret: pass --consumer-secret SECRET or set OAUTH_CONSUMER_SECRET (--empty-consumer-secret signs with an empty one)\n";
    let no_token = "error: --token-secret is set but no token: set --token / OAUTH_TOKEN, or drop the token secret\n";
    for (args, env, message) in [
        (&["--consumer-key", "k", url][..], &[][..], no_secret),
        (
            &["--consumer-key", "k", url],
            &[("OAUTH_CONSUMER_SECRET", "")],
            no_secret,
        ),
        (
            &["--consumer-key", "k", "--consumer-secret", "", url],
            &[],
            no_secret,
        ),
        (
            &[
                "--consumer-key",
                "k",
                "--consumer-secret",
                "s",
                "--token-secret",
                "ts",
                url,
            ],
            &[],
            no_token,
        ),
        (
            &[
                "--consumer-key",
                "k",
                "--consumer-secret",
                "s",
                "--token",
                "",
                "--token-secret",
                "ts",
                url,
            ],
            &[],
            no_token,
        ),
        (
            &["--consumer-key", "k", "--consumer-secret", "s", url],
            &[("OAUTH_TOKEN", ""), ("OAUTH_TOKEN_SECRET", "ts")],
            no_token,
        ),
    ] {
        let out = run(&[&["sign"][..], args].concat(), None, env);
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (2, "", message),
            "{args:?} {env:?}"
        );
    }

    // Asked for: an empty consumer secret signs with the key "&".
    let out = oauth1(&[
        "sign",
        "--consumer-key",
        "k",
        "--empty-consumer-secret",
        "--signature-method",
        "PLAINTEXT",
        url,
    ]);
    assert_eq!((out.code, out.stderr.as_str()), (0, ""));
    assert!(
        out.stdout.contains("oauth_signature=\"%26\""),
        "{}",
        out.stdout
    );

    // An empty token is no token: no oauth_token="" is sent.
    for (args, env) in [
        (&["--token", ""][..], &[][..]),
        (&[], &[("OAUTH_TOKEN", "")]),
    ] {
        let out = run(
            &[
                &["sign", "--consumer-key", "k", "--consumer-secret", "s"][..],
                args,
                &[url],
            ]
            .concat(),
            None,
            env,
        );
        assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{args:?} {env:?}");
        assert!(!out.stdout.contains("oauth_token"), "{}", out.stdout);
    }

    // RSA needs no consumer secret.
    let key = format!(
        "{}/../fixtures/keys/oauthlib_tests_rsa_pkcs1.pem",
        env!("CARGO_MANIFEST_DIR")
    );
    let out = oauth1(&[
        "sign",
        "--consumer-key",
        "k",
        "--signature-method",
        "RSA-SHA1",
        "--private-key",
        &key,
        url,
    ]);
    // No credential is missing: the only word on stderr is about the key's size.
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.starts_with("warning: the RSA key has 1024 bits")
            && out.stderr.lines().count() == 1,
        "{}",
        out.stderr
    );

    let help = oauth1(&["sign", "--help"]).stdout;
    assert!(help.contains("--empty-consumer-secret"), "{help}");
}

#[test]
fn curl_format_sends_the_path_as_is_and_head_with_dash_i() {
    let sign = |method: &str| {
        oauth1(&[
            "sign",
            "--format",
            "curl",
            "--consumer-key",
            "k",
            "--consumer-secret",
            "s",
            "-X",
            method,
            "https://h/a/../b/./c",
        ])
    };
    let out = sign("GET");
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .starts_with("curl -X 'GET' -H 'Authorization: OAuth "),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .ends_with("' --path-as-is 'https://h/a/../b/./c'\n"),
        "{}",
        out.stdout
    );
    let out = sign("HEAD");
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.starts_with("curl -I -H 'Authorization: OAuth "),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("-X"), "{}", out.stdout);
}

#[test]
fn a_pinned_nonce_or_timestamp_that_cannot_be_sent_is_refused() {
    // RFC 5849 §3.3: a timestamp is a positive integer; a nonce is a random
    // string, so never empty. Each was sent as given before.
    let base = ["sign", "--consumer-key", "k", "--consumer-secret", "s"];
    for (flag, value, want) in [
        ("--timestamp", "12abc", "invalid oauth_timestamp"),
        ("--timestamp", "-5", "invalid oauth_timestamp"),
        ("--timestamp", "", "invalid oauth_timestamp"),
        ("--timestamp", "0", "invalid oauth_timestamp"),
        (
            "--timestamp",
            "12345678901234567890123456",
            "invalid oauth_timestamp",
        ),
        ("--nonce", "", "invalid oauth_nonce"),
    ] {
        let flag_value = format!("{flag}={value}");
        let out = oauth1(&[&base[..], &[&flag_value, "https://h/"]].concat());
        assert_eq!(out.code, 2, "{flag} {value:?}: {}", out.stdout);
        assert!(
            out.stderr.contains(want),
            "{flag} {value:?}: {}",
            out.stderr
        );
        assert!(out.stdout.is_empty());
    }
    // Leading zeros are digits, sent as given.
    let out = oauth1(&[&base[..], &["--timestamp", "0042", "https://h/"]].concat());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("oauth_timestamp=\"0042\""));
}

#[test]
fn trace_and_json_warn_about_values_that_are_not_utf8() {
    let base = [
        "sign",
        "--consumer-key",
        "k",
        "--consumer-secret",
        "s",
        "-d",
        "x=%E9&y=%C3%A9",
    ];
    let trace = oauth1(&[&base[..], &["--format", "trace", "https://h/"]].concat());
    assert_eq!(trace.code, 0, "{}", trace.stderr);
    let warnings = trace
        .stdout
        .split("\nwarnings:\n")
        .nth(1)
        .unwrap_or_default();
    assert!(
        warnings.contains("\"x\"") && warnings.contains("not UTF-8") && !warnings.contains("\"y\""),
        "{}",
        trace.stdout
    );
    let json = oauth1(&[&base[..], &["--format", "json", "https://h/"]].concat());
    let got: Value = serde_json::from_str(&json.stdout).unwrap();
    let warnings = got["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0]
        .as_str()
        .unwrap()
        .contains("\"x\" in the form body"));
    let clean = oauth1(
        &[
            &base[..5],
            &["-d", "y=%C3%A9", "--format", "json", "https://h/"],
        ]
        .concat(),
    );
    let got: Value = serde_json::from_str(&clean.stdout).unwrap();
    assert_eq!(got["warnings"], json!([]));
}

/// Runs a printed curl command with `sh`, curl's own output quiet, and
/// returns the HTTP status and the body.
fn run_curl(line: &str) -> (String, String) {
    // The flags go right after `curl`; what is sent stays as printed.
    let line = line.trim_end().replacen(
        "curl ",
        "curl -sS --max-time 10 -o /dev/stdout -w '\\n%{http_code}' ",
        1,
    );
    let out = Command::new("sh").arg("-c").arg(&line).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let (body, status) = stdout.rsplit_once('\n').unwrap_or(("", &stdout));
    (status.to_owned(), body.to_owned())
}

#[test]
fn printed_curl_commands_send_what_was_signed() {
    use common::provider::{Provider, ACCESS_SECRET, ACCESS_TOKEN, CONSUMER_KEY, CONSUMER_SECRET};
    let provider = Provider::start(&[]);
    let sign = |extra: &[&str]| {
        let creds = [
            "sign",
            "--format",
            "curl",
            "--consumer-key",
            CONSUMER_KEY,
            "--consumer-secret",
            CONSUMER_SECRET,
            "--token",
            ACCESS_TOKEN,
            "--token-secret",
            ACCESS_SECRET,
        ];
        let out = oauth1(&[&creds[..], extra].concat());
        assert_eq!(out.code, 0, "{}", out.stderr);
        out.stdout
    };
    let base = &provider.base;
    // GET with a query; POST with a form body; a path with dot segments,
    // which curl would have resolved without --path-as-is; HEAD, which curl
    // would have waited on with -X HEAD.
    for (extra, want_body) in [
        (
            vec![format!(
                "{base}/1.1/statuses/home_timeline.json?count=2&since_id=12"
            )],
            "\"count\"",
        ),
        (
            vec![
                "-d".into(),
                "status=Hello%20Ladies%20%2b%20Gentlemen".into(),
                format!("{base}/1.1/statuses/update.json"),
            ],
            "Hello Ladies + Gentlemen",
        ),
        (
            vec![format!("{base}/1.1/a/../b/./c.json?x=1")],
            "/1.1/a/../b/./c.json",
        ),
        (
            vec!["-X".into(), "HEAD".into(), format!("{base}/2/users/me")],
            "",
        ),
    ] {
        let args: Vec<&str> = extra.iter().map(String::as_str).collect();
        let line = sign(&args);
        let (status, body) = run_curl(&line);
        assert_eq!(status, "200", "{line}\n{body}");
        assert!(body.contains(want_body), "{line}\n{body}");
    }
    // The provider really checks: the same command run twice is a replayed
    // nonce, and a wrong secret does not verify.
    let line = sign(&[&format!("{base}/2/users/me")]);
    assert_eq!(run_curl(&line).0, "200");
    assert_eq!(run_curl(&line).0, "401", "a replayed nonce was accepted");
    let wrong = oauth1(&[
        "sign",
        "--format",
        "curl",
        "--consumer-key",
        CONSUMER_KEY,
        "--consumer-secret",
        "not-the-secret",
        "--token",
        ACCESS_TOKEN,
        "--token-secret",
        ACCESS_SECRET,
        &format!("{base}/2/users/me"),
    ]);
    assert_eq!(run_curl(&wrong.stdout).0, "401");
    let log = provider.stop();
    assert!(
        !log.contains(ACCESS_SECRET) && !log.contains(CONSUMER_SECRET),
        "{log}"
    );
}

#[test]
fn a_weak_rsa_key_is_signed_with_a_warning() {
    let key = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fixtures/keys/oauthlib_tests_rsa_pkcs1.pem"
    );
    let out = oauth1(&[
        "sign",
        "--consumer-key",
        "k",
        "--signature-method",
        "RSA-SHA1",
        "--private-key",
        key,
        "https://h/",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("oauth_signature_method=\"RSA-SHA1\""));
    assert_eq!(
        out.stderr,
        "warning: the RSA key has 1024 bits; keys under 2048 bits are too weak to rely on\n"
    );
}

// `oauth1 explain`: the request of `--example` is vector
// `x-docs-creating-a-signature`, so the vector's base string, signature and
// header are what a side that gets everything right sends.

/// One stage of vector `x-docs-creating-a-signature`, as recorded.
fn x_docs(stage: &str) -> String {
    vector("signatures.json", "x-docs-creating-a-signature")["expected"][stage]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The X docs base string as a side that writes a space as `+` signs it,
/// made by hand: in the status value, `%2520` (a space, encoded twice)
/// becomes `%2B` (a `+`, encoded once).
fn x_docs_space_as_plus() -> String {
    let ours = x_docs("base_string");
    let (head, status) = ours.split_once("%26status%3D").unwrap();
    let theirs = format!("{head}%26status%3D{}", status.replace("%2520", "%2B"));
    assert!(theirs.ends_with(
        "%26status%3DHello%2BLadies%2B%252B%2BGentlemen%252C%2Ba%2Bsigned%2BOAuth%2Brequest%2521"
    ));
    theirs
}

/// HMAC-SHA1 of `base` under the X docs key, straight from the `hmac`
/// crate: the signature their side sends over their base string.
fn x_docs_hmac(base: &str) -> String {
    let key = format!("{X_CONSUMER_SECRET}&{X_TOKEN_SECRET}");
    assert_eq!(key, x_docs("signing_key"));
    common::oracle::hmac_sha1_base64(&key, base)
}

/// A file under the target's temporary directory, holding `text`.
fn temp_file(name: &str, text: &str) -> String {
    let path = format!("{}/cli-{name}", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn explain_exits_0_when_what_they_gave_is_ours() {
    let base = x_docs("base_string");
    let signature = x_docs("signature");
    assert_eq!(signature, "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=");
    let header = x_docs("authorization_header");
    let base_file = format!("@{}", temp_file("explain-ours.txt", &format!("{base}\n")));
    for args in [
        &["--their-base-string", base.as_str()][..],
        &["--their-base-string", &base_file],
        &["--their-signature", &signature],
        // As copied out of a header: percent-encoded.
        &["--their-signature", "Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D"],
        &["--their-header", &header],
        &[
            "--their-base-string",
            &base,
            "--their-signature",
            &signature,
            "--their-header",
            &header,
        ],
    ] {
        let out = oauth1(&[&["explain", "--example"], args].concat());
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (0, "match: what they gave is what we compute\n", ""),
            "{args:?}"
        );
        let out = oauth1(&[&["explain", "--example", "--format", "json"], args].concat());
        assert_eq!(out.code, 0, "{args:?}");
        let got: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(got, json!({"match": true, "causes": []}), "{args:?}");
    }
}

#[test]
fn explain_exits_1_and_names_the_cause_of_a_mistaken_side() {
    let theirs = x_docs_space_as_plus();
    let out = oauth1(&["explain", "--example", "--their-base-string", &theirs]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_eq!(out.stderr, "");
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "mismatch: 1 cause(s)");
    assert_eq!(lines[2], "  space-as-plus  parameter:status");
    assert!(out
        .stdout
        .contains("theirs: status=Hello+Ladies+%2B+Gentlemen%2C+a+signed+OAuth+request%21\n"));
    // The base strings diffed, a part per line: only the status differs.
    assert!(out.stdout.contains("\n- %26status%3DHello%2520Ladies%2520%252B%2520Gentlemen%252C%2520a%2520signed%2520OAuth%2520request%2521\n"), "{}", out.stdout);
    assert!(out.stdout.contains("\n+ %26status%3DHello%2BLadies%2B%252B%2BGentlemen%252C%2Ba%2Bsigned%2BOAuth%2Brequest%2521\n"), "{}", out.stdout);
    assert_eq!(
        out.stdout
            .lines()
            .filter(|l| l.starts_with("- ") || l.starts_with("+ "))
            .count(),
        2
    );

    // Their signature alone (HMAC-SHA1 over their base string), or in their
    // header: the search finds the mistake that reproduces it.
    let their_signature = x_docs_hmac(&theirs);
    assert_ne!(their_signature, x_docs("signature"));
    let their_header = x_docs("authorization_header").replace(
        "Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D",
        &their_signature
            .replace('+', "%2B")
            .replace('/', "%2F")
            .replace('=', "%3D"),
    );
    for args in [
        ["--their-signature", their_signature.as_str()],
        ["--their-header", &their_header],
    ] {
        let out = oauth1(&[&["explain", "--example", "--format", "json"][..], &args].concat());
        assert_eq!(out.code, 1, "{args:?}: {}", out.stderr);
        let got: Value = serde_json::from_str(&out.stdout).unwrap();
        let codes: Vec<&str> = got["causes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, ["space-as-plus"], "{args:?}");
    }

    // A header with another nonce: named before the signature is searched.
    let header = x_docs("authorization_header").replace(X_NONCE, "another-nonce");
    let out = oauth1(&["explain", "--example", "--their-header", &header]);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout
            .contains("  nonce-differs  parameter:oauth_nonce\n"),
        "{}",
        out.stdout
    );
}

#[test]
fn explain_json_is_match_and_causes() {
    let theirs = x_docs_space_as_plus();
    let out = oauth1(&[
        "explain",
        "--example",
        "--their-base-string",
        &theirs,
        "--format",
        "json",
    ]);
    assert_eq!(out.code, 1);
    let got: Value = serde_json::from_str(&out.stdout).unwrap();
    let keys = |v: &Value| {
        let mut keys: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        keys.sort();
        keys
    };
    assert_eq!(keys(&got), ["causes", "match"]);
    assert_eq!(got["match"], false);
    let causes = got["causes"].as_array().unwrap();
    assert_eq!(causes.len(), 1);
    for cause in causes {
        assert_eq!(
            keys(cause),
            ["code", "component", "detail", "ours", "theirs"]
        );
        for key in ["code", "component", "detail", "ours", "theirs"] {
            assert!(cause[key].is_string(), "{key}: {cause}");
        }
    }
    assert_eq!(
        causes[0],
        json!({
            "code": "space-as-plus",
            "component": "parameter:status",
            "ours": "status=Hello%20Ladies%20%2B%20Gentlemen%2C%20a%20signed%20OAuth%20request%21",
            "theirs": "status=Hello+Ladies+%2B+Gentlemen%2C+a+signed+OAuth+request%21",
            "detail": "their parameters are encoded this way",
        })
    );
    // JSON only: no diff, no colour.
    assert!(out.stdout.ends_with("}\n") && !out.stdout.contains('\u{1b}'));
}

#[test]
fn explain_bad_input_exits_2_with_one_line() {
    let no_base_string = temp_file(
        "explain-no-base-string.txt",
        "{\"errors\":[{\"code\":32}]}\n",
    );
    let no_base_string_error = format!(
        "error: no signature base string found in --response-body \"{no_base_string}\" \
         (looked for debug_sbs=... and text that starts like METHOD&http...)\n"
    );
    for (args, message) in [
        (
            &["--their-base-string", "@/nonexistent/theirs.txt"][..],
            "error: cannot read --their-base-string file \"/nonexistent/theirs.txt\": No such file or directory (os error 2)\n",
        ),
        (
            &["--response-body", "/nonexistent/body.txt"],
            "error: cannot read --response-body file \"/nonexistent/body.txt\": No such file or directory (os error 2)\n",
        ),
        (&["--their-signature", ""], "error: --their-signature is empty\n"),
        (&["--their-signature", " \n"], "error: --their-signature is empty\n"),
        (
            &["--their-base-string", &x_docs("base_string"), "--their-signature", ""],
            "error: --their-signature is empty\n",
        ),
        (&["--response-body", &no_base_string], &no_base_string_error),
        (
            &[],
            "error: nothing to compare: give --their-base-string, --their-signature, --their-header or --response-body\n",
        ),
    ] {
        let out = oauth1(&[&["explain", "--example"], args].concat());
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (2, "", message),
            "{args:?}"
        );
    }
    // A header that is not one.
    let out = oauth1(&[
        "explain",
        "--example",
        "--their-header",
        "Basic dXNlcjpwYXNz",
    ]);
    assert_eq!((out.code, out.stdout.as_str()), (2, ""));
    assert!(
        out.stderr.starts_with("error: --their-header: "),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
}

#[test]
fn explain_never_prints_a_secret_without_show_secrets() {
    let secrets = [X_CONSUMER_SECRET, X_TOKEN_SECRET];
    let wrong = "AAAAAAAAAAAAAAAAAAAAAAAAAAA=";
    let theirs = x_docs_space_as_plus();
    let header = x_docs("authorization_header").replace(X_NONCE, "another-nonce");
    // HMAC-SHA1, then PLAINTEXT: there the signature is the key
    // ("consumer secret&token secret"), so neither side's may be shown.
    let swapped = format!("{X_TOKEN_SECRET}&{X_CONSUMER_SECRET}");
    let plaintext = ["--signature-method", "PLAINTEXT"];
    for args in [
        &["--their-signature", wrong][..],
        &["--their-base-string", &theirs],
        &["--their-base-string", &theirs, "--their-signature", wrong],
        &["--their-header", &header],
        &[plaintext[0], plaintext[1], "--their-signature", wrong],
        &[plaintext[0], plaintext[1], "--their-signature", &swapped],
        &[
            plaintext[0],
            plaintext[1],
            "--their-base-string",
            &theirs,
            "--their-signature",
            &swapped,
        ],
    ] {
        for format in ["text", "json"] {
            let out = oauth1(&[&["explain", "--example", "--format", format], args].concat());
            assert_eq!(out.code, 1, "{args:?} {format}: {}", out.stderr);
            for secret in secrets {
                assert!(
                    !out.stdout.contains(secret) && !out.stderr.contains(secret),
                    "{args:?} {format}: {}",
                    out.stdout
                );
            }
        }
    }
    // The swapped PLAINTEXT key is still named, its text redacted.
    let out = oauth1(&[
        "explain",
        "--example",
        "--signature-method",
        "PLAINTEXT",
        "--their-signature",
        &swapped,
    ]);
    assert!(
        out.stdout.contains("  key-mismatch  key\n"),
        "{}",
        out.stdout
    );
    assert!(out
        .stdout
        .contains("theirs: <redacted: a PLAINTEXT signature is the signing key>\n"));

    // With --show-secrets, our trace shows the key (and the check above
    // would have seen it).
    for args in [
        &["--their-signature", wrong][..],
        &[plaintext[0], plaintext[1], "--their-signature", wrong],
    ] {
        let out = oauth1(&[&["explain", "--example", "--show-secrets"], args].concat());
        assert_eq!(out.code, 1);
        assert!(
            out.stdout
                .contains(&format!("\n  {X_CONSUMER_SECRET}&{X_TOKEN_SECRET}\n")),
            "{args:?}: {}",
            out.stdout
        );
    }
}
