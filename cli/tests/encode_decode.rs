//! `oauth1 encode` and `oauth1 decode`, the real binary: every vector of
//! `fixtures/percent_encoding.json` encodes, and decodes to its text or its
//! bytes; malformed escapes and bad hex exit 2 with the offset and a caret
//! (offsets counted by hand), at a cost that does not grow with the input;
//! stdin is read without one trailing newline; control characters are
//! escaped on a terminal only; results that are not UTF-8 are shown as hex;
//! a closed pipe ends quietly, a full disk does not.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

use common::bin::{clear_env, hermetic};
use common::exec::{oauth1, run, Output, ESCAPE_RULE};
use common::vectors::fixture;
use serde_json::{json, Value};

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
    let out = clear_env(&mut Command::new("script"))
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

/// Runs the binary with `stdin` under a 200 MB address-space limit, so that
/// an error display that grows with the input fails.
#[cfg(unix)]
fn run_in_200_mb(args: &[&str], stdin: &[u8]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg(r#"ulimit -v 200000 && exec "$0" "$@""#)
        .arg(env!("CARGO_BIN_EXE_oauth1"))
        .args(args);
    clear_env(&mut cmd);
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
    let mut child = hermetic()
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
            let out = hermetic()
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
