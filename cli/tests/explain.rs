//! `oauth1 explain`, the real binary: bad input, several debug_sbs, and
//! their text escaped. (The explainer itself is tested in the library's
//! tests/explain.rs.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::process::Stdio;

use oauth1_signer::text::percent_encode;

/// `oauth1` run with `args` and `env`: exit code, stdout bytes, stderr.
fn oauth1(args: &[&str], env: &[(&str, &str)]) -> (i32, Vec<u8>, String) {
    let out = common::bin::hermetic()
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        out.stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A file under the target's temporary directory, holding `bytes`.
fn temp_file(name: &str, bytes: &[u8]) -> String {
    let path = format!("{}/explain-{name}", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn empty_or_blank_input_from_the_other_side_exits_2_and_says_so() {
    let empty = temp_file("empty.txt", b" \n");
    for (args, message) in [
        (
            &["--their-base-string", ""][..],
            "error: --their-base-string is empty\n",
        ),
        (
            &["--their-base-string", " \t\n"],
            "error: --their-base-string is empty\n",
        ),
        (
            &["--their-base-string", &format!("@{empty}")],
            "error: --their-base-string is empty\n",
        ),
        (
            &["--their-header", ""],
            "error: --their-header: the Authorization header is empty\n",
        ),
        (
            &["--their-header", "  \t "],
            "error: --their-header: the Authorization header is empty\n",
        ),
    ] {
        let (code, stdout, stderr) = oauth1(&[&["explain", "--example"], args].concat(), &[]);
        assert_eq!(
            (code, stdout.as_slice(), stderr.as_str()),
            (2, &b""[..], message),
            "{args:?}"
        );
    }
}

#[test]
fn a_parameter_given_twice_in_their_header_is_named() {
    let ours = common::x_docs::expected("authorization_header");
    let (code, _, stderr) = oauth1(&["explain", "--example", "--their-header", &ours], &[]);
    assert_eq!(
        (code, stderr.as_str()),
        (0, ""),
        "the header itself matches"
    );
    for (extra, name) in [
        (", oauth_signature=\"AAAA\"", "oauth_signature"),
        (", oauth_nonce=\"other\"", "oauth_nonce"),
        (
            ", oauth_nonce=\"kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg\"",
            "oauth_nonce",
        ),
    ] {
        let header = format!("{ours}{extra}");
        let (code, stdout, stderr) =
            oauth1(&["explain", "--example", "--their-header", &header], &[]);
        assert_eq!(
            (code, stdout.as_slice(), stderr.as_str()),
            (
                2,
                &b""[..],
                format!(
                    "error: --their-header: protocol parameter \"{name}\" is given more than once \
                     (again at byte {} of the Authorization header)\n",
                    // The appended one: after the header and ", ".
                    ours.len() + 2
                )
                .as_str()
            )
        );
    }
}

#[test]
fn of_several_debug_sbs_the_one_that_parses_is_used_and_the_count_is_said() {
    let right = common::x_docs::expected("base_string");
    // Form-encoded once more, as a form body holds it.
    let form = percent_encode(right.as_bytes()).to_string();
    let body = format!(
        "oauth_problem=signature_invalid&debug_sbs=see%20docs&debug_sbs={form}&debug_sbs=none"
    );
    let file = temp_file("several-debug-sbs.txt", body.as_bytes());
    let (code, stdout, stderr) = oauth1(&["explain", "--example", "--response-body", &file], &[]);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&stdout));
    assert_eq!(
        stderr,
        "note: --response-body has 3 debug_sbs values; the one that parses as a base string is number 2\n"
    );
    // One only: nothing to say.
    let file = temp_file("one-debug-sbs.txt", format!("debug_sbs={form}").as_bytes());
    let (code, _, stderr) = oauth1(&["explain", "--example", "--response-body", &file], &[]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}

#[test]
fn a_response_body_over_the_limit_exits_2_naming_it() {
    let file = temp_file(
        "huge.txt",
        &vec![b'x'; oauth1_signer::explain::MAX_RESPONSE_BODY_LEN + 1],
    );
    let (code, stdout, stderr) = oauth1(&["explain", "--example", "--response-body", &file], &[]);
    assert_eq!((code, stdout.as_slice()), (2, &b""[..]));
    assert_eq!(
        stderr,
        format!(
            "error: --response-body file \"{file}\" is over the limit of 16777216 bytes \
             (MAX_RESPONSE_BODY_LEN)\n"
        )
    );
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn escape_sequences_from_the_other_side_never_reach_stdout() {
    let right = common::x_docs::expected("base_string");
    // Their base string: a status that clears the screen (CSI 2J), sets the
    // window title (OSC), rings the bell, and a C1 CSI (U+009B).
    let evil = "\u{1b}[2J\u{1b}]0;owned\u{7}\u{9b}31mred";
    let theirs = right.replace("%26status%3D", &format!("%26status%3D{evil}"));
    assert_ne!(theirs, right);
    let text_body = format!("Expected signature base string: {theirs}\n");
    let form_body = format!(
        "oauth_problem=signature_invalid&debug_sbs={}",
        percent_encode(theirs.as_bytes())
    );
    let their_header = format!(
        "OAuth oauth_consumer_key=\"xvz1evFS4wEEPTGEFPHBog\", oauth_nonce=\"{}\", \
         oauth_signature=\"AAAA\", oauth_signature_method=\"HMAC-SHA1\", \
         oauth_timestamp=\"1318622958\", \
         oauth_token=\"370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb\", oauth_version=\"1.0\"",
        percent_encode(evil.as_bytes())
    );
    let text_file = temp_file("evil-text.txt", text_body.as_bytes());
    let form_file = temp_file("evil-form.txt", form_body.as_bytes());
    let base_file = temp_file("evil-base.txt", theirs.as_bytes());
    let base_arg = format!("@{base_file}");
    let inputs: [&[&str]; 4] = [
        &["--response-body", &text_file],
        &["--response-body", &form_file],
        &["--their-base-string", &base_arg],
        &["--their-header", &their_header],
    ];
    for input in inputs {
        for format in ["text", "json"] {
            // As on a terminal (colours on: anstream passes every byte), and
            // into a pipe.
            for env in [&[("CLICOLOR_FORCE", "1")][..], &[]] {
                let args = [&["explain", "--example", "--format", format][..], input].concat();
                let (code, stdout, stderr) = oauth1(&args, env);
                assert_eq!(code, 1, "{input:?} {format} {env:?}: {stderr}");
                let shown = String::from_utf8(stdout).unwrap();
                // Our own styles are SGR sequences (ESC [ digits m); nothing
                // else may hold an ESC, a BEL or a C1 control.
                let mut rest = shown.as_str();
                let mut without_styles = String::new();
                while let Some(at) = rest.find("\u{1b}[") {
                    without_styles.push_str(&rest[..at]);
                    let after = &rest[at + 2..];
                    let n = after
                        .find(|c: char| !(c.is_ascii_digit() || c == ';'))
                        .unwrap_or(after.len());
                    if after[n..].starts_with('m') {
                        rest = &after[n + 1..];
                    } else {
                        without_styles.push_str("\u{1b}[");
                        rest = after;
                    }
                }
                without_styles.push_str(rest);
                assert!(
                    !without_styles.chars().any(|c| c.is_control() && c != '\n'),
                    "{input:?} {format} {env:?}: {without_styles}"
                );
                if env.is_empty() {
                    assert!(!shown.contains('\u{1b}'), "{input:?} {format}: {shown}");
                }
            }
        }
    }
}
