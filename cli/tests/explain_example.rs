//! `oauth1 explain --example`, the real binary. The example request is
//! vector `x-docs-creating-a-signature`, so its recorded base string,
//! signature and header are what a side that gets everything right sends
//! (exit 0); a side that writes a space as `+` (its base string made by
//! hand, its signature an HMAC-SHA1 computed here with the `hmac` crate) is
//! named `space-as-plus` (exit 1); the JSON is `match` and `causes`; bad
//! input exits 2 with one line; no secret is printed without
//! `--show-secrets`. (`oauth1 explain` on responses: cli/tests/explain.rs;
//! the explainer itself: the library's tests/explain.rs.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::exec::oauth1;
use common::vectors::{X_CONSUMER_SECRET, X_NONCE, X_TOKEN_SECRET};
use serde_json::{json, Value};

// `oauth1 explain`: the request of `--example` is vector
// `x-docs-creating-a-signature`, so the vector's base string, signature and
// header are what a side that gets everything right sends.

/// One stage of vector `x-docs-creating-a-signature`, as recorded.
fn x_docs(stage: &str) -> String {
    common::x_docs::vector()["expected"][stage]
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
    let no_base_string = temp_file("explain-no-base-string.txt", "<html>Bad Gateway</html>\n");
    let no_base_string_error = format!(
        "error: no signature base string nor provider error found in --response-body \
         \"{no_base_string}\" (looked for debug_sbs=..., text that starts like METHOD&http..., \
         X's error codes and oauth_problem=...)\n"
    );
    // X's code 32 is read, but it is no base string to compare with.
    let only_code = temp_file("explain-only-code.txt", "{\"errors\":[{\"code\":32}]}\n");
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
            "error: nothing to compare: give --curl, --har or --http (what the client sent), or \
             --their-base-string, --their-signature, --their-header or --response-body\n",
        ),
        (
            &["--response-body", &only_code],
            "error: nothing to compare: give --curl, --har or --http (what the client sent), or \
             --their-base-string, --their-signature, --their-header or --response-body (the \
             response holds no base string; it says: X error 32: X could not authenticate the \
             request: with OAuth 1.0a, the signature it computed differs from the one sent (or a \
             key, token or secret is not the one X holds). Check: the signature: compare the \
             request as signed with the request as sent (oauth1 explain names the mistake), and \
             both secrets.)\n",
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
