//! What `oauth1 sign`, the real binary, refuses: exit 2 and one line (with
//! the input and a caret under the byte at fault where there is one) for
//! malformed escapes and bytes in the URL, the body or the method, bad flags,
//! keys and request files, missing credentials (unless asked for), and a
//! pinned timestamp or nonce that cannot be sent; secrets that start with a
//! hyphen are taken, and never echoed back in an error. The offsets are
//! counted by hand.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::exec::{oauth1, run, ESCAPE_RULE};

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

#[test]
fn usage_errors_exit_2() {
    assert_eq!(oauth1(&["sign"]).code, 2);
    assert_eq!(oauth1(&["sign", "--format", "xml", "--example"]).code, 2);
    assert_eq!(oauth1(&["sign", "--example", "--request", "-"]).code, 2);
    assert_eq!(oauth1(&["frobnicate"]).code, 2);
    assert_eq!(oauth1(&["--help"]).code, 0);
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

/// The runner every test uses (`common::bin::hermetic`) clears each
/// variable the binary's own code reads (a clap `env = "..."`, a `var("...")`),
/// but those read only when `OAUTH1_CONFIG_DIR`, which it sets, is not.
#[test]
fn the_runner_clears_every_variable_the_binary_reads() {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut sources = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut sources,
    );
    let mut read = std::collections::BTreeSet::new();
    for source in &sources {
        for marker in ["env = \"", "var(\"", "var_os(\""] {
            for (at, _) in source.match_indices(marker) {
                let rest = &source[at + marker.len()..];
                read.insert(rest[..rest.find('"').unwrap()].to_owned());
            }
        }
    }
    assert!(read.contains("OAUTH_CONSUMER_SECRET"), "{read:?}");
    assert!(read.contains("OAUTH1_CONFIG_DIR"), "{read:?}");
    // Read only when OAUTH1_CONFIG_DIR is not set.
    let fallbacks = ["HOME", "APPDATA"];
    for var in &read {
        assert!(
            common::bin::ENV_READ.contains(&var.as_str())
                || var == "OAUTH1_CONFIG_DIR"
                || fallbacks.contains(&var.as_str()),
            "{var} is read by oauth1 and left to the test's environment"
        );
    }
    let envs: Vec<_> = common::bin::hermetic()
        .get_envs()
        .map(|(k, v)| (k.to_owned(), v.map(ToOwned::to_owned)))
        .collect();
    for var in common::bin::ENV_READ {
        assert!(envs.contains(&(var.into(), None)), "{var} is not cleared");
    }
    assert!(envs.contains(&(
        "OAUTH1_CONFIG_DIR".into(),
        Some(common::bin::NO_PROFILES.into())
    )));
}
