//! `oauth1 sign` and `oauth1 verify` in each transmission of RFC 5849 §3.5
//! and with a body hash: what `sign` sends in the query or the form body,
//! `verify` checks from the URL or the body alone (no `--header`); a body
//! that is not a form is covered by `oauth_body_hash` when asked, its value
//! the fixture's (`fixtures/body_hash.json`: NIST's SHA-256 of the empty
//! message) for an empty body.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::exec::{run, Output};

const CREDENTIALS: [&str; 8] = [
    "--consumer-key",
    "ck",
    "--consumer-secret",
    "cs",
    "--token",
    "tk",
    "--token-secret",
    "ts",
];

const PINNED: [&str; 4] = ["--nonce", "n0nce-2026", "--timestamp", "1764648000"];

fn oauth1(args: &[&[&str]]) -> Output {
    let args: Vec<&str> = args.iter().flat_map(|a| a.iter().copied()).collect();
    run(&args, None, &[])
}

fn verify(request: &[&str], extra: &[&str]) -> Output {
    oauth1(&[
        &["verify", "--now", "1764648000"],
        request,
        &CREDENTIALS,
        extra,
    ])
}

#[test]
fn in_the_query_the_url_is_signed_and_verified_alone() {
    let url = "https://api.example.com/r?a=1";
    let out = oauth1(&[
        &["sign", url, "--transmission", "query"],
        &CREDENTIALS,
        &PINNED,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let sent = out.stdout.trim();
    assert!(
        sent.starts_with("https://api.example.com/r?a=1&oauth_consumer_key=ck&"),
        "{sent}"
    );
    assert!(sent.contains("&oauth_signature="), "{sent}");
    let checked = verify(&[sent], &[]);
    assert_eq!(
        (checked.code, checked.stdout.as_str()),
        (0, "valid\n"),
        "{}",
        checked.stderr
    );
    // The trace shows that URL as sent, and no header, since none is sent.
    let trace = oauth1(&[
        &["sign", url, "--transmission", "query", "--format", "trace"],
        &CREDENTIALS,
        &PINNED,
    ]);
    assert!(
        trace.stdout.ends_with(&format!(
            "\nsent in the query (RFC 5849 §3.5.3):\n  {sent}\n"
        )) && !trace.stdout.contains("Authorization header"),
        "{}",
        trace.stdout
    );
    // The curl line sends that URL and no Authorization header.
    let curl = oauth1(&[
        &["sign", url, "--transmission", "query", "--format", "curl"],
        &CREDENTIALS,
        &PINNED,
    ]);
    assert!(
        curl.stdout.contains(&format!("'{sent}'")) && !curl.stdout.contains("Authorization"),
        "{}",
        curl.stdout
    );
}

#[test]
fn in_the_form_body_the_body_is_signed_and_verified_alone() {
    let url = "https://api.example.com/launch";
    let out = oauth1(&[
        &[
            "sign",
            url,
            "-d",
            "user_id=29&roles=Instructor",
            "--transmission",
            "form-body",
        ],
        &CREDENTIALS,
        &PINNED,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let body = out.stdout.trim();
    assert!(
        body.starts_with("user_id=29&roles=Instructor&oauth_consumer_key=ck&"),
        "{body}"
    );
    let checked = verify(&[url, "-d", body], &[]);
    assert_eq!(
        (checked.code, checked.stdout.as_str()),
        (0, "valid\n"),
        "{}",
        checked.stderr
    );
    // Tampered: refused.
    let tampered = body.replace("Instructor", "Administrator");
    let checked = verify(&[url, "-d", &tampered], &[]);
    assert_eq!(checked.code, 1, "{}", checked.stdout);
    // No form body to carry them: said so, exit 2.
    let out = oauth1(&[
        &["sign", url, "--transmission", "form-body"],
        &CREDENTIALS,
        &PINNED,
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("form body"), "{}", out.stderr);
}

#[test]
fn a_json_body_is_covered_by_its_hash_when_asked() {
    let url = "https://api.example.com/payments";
    let json = r#"{"amount":"10.00"}"#;
    let hashed = [
        "--body-hash",
        "required",
        "--signature-method",
        "HMAC-SHA256",
    ];
    let out = oauth1(&[
        &[
            "sign",
            url,
            "-X",
            "POST",
            "--body",
            json,
            "--content-type",
            "application/json",
        ],
        &CREDENTIALS,
        &PINNED,
        &hashed,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let header = out.stdout.trim().to_owned();
    assert!(header.contains("oauth_body_hash=\""), "{header}");
    let body = [
        "-X",
        "POST",
        "--body",
        json,
        "--content-type",
        "application/json",
    ];
    let required = ["--body-hash", "required"];
    let checked = verify(
        &[&[url][..], &body, &["--header", &header]].concat(),
        &required,
    );
    assert_eq!(
        (checked.code, checked.stdout.as_str()),
        (0, "valid\n"),
        "{}",
        checked.stderr
    );
    let other = [
        "-X",
        "POST",
        "--body",
        r#"{"amount":"99.00"}"#,
        "--content-type",
        "application/json",
    ];
    let checked = verify(
        &[&[url][..], &other, &["--header", &header]].concat(),
        &required,
    );
    assert_eq!(checked.code, 1);
    assert!(
        checked.stdout.contains("oauth_body_hash"),
        "{}",
        checked.stdout
    );
    // Required, and absent: refused by name.
    let plain = oauth1(&[
        &["sign", url],
        &CREDENTIALS,
        &PINNED,
        &["--signature-method", "HMAC-SHA256"],
    ]);
    let checked = verify(&[url, "--header", plain.stdout.trim()], &required);
    assert_eq!(checked.code, 1);
    assert!(
        checked.stdout.contains("oauth_body_hash"),
        "{}",
        checked.stdout
    );
}

#[test]
fn an_empty_body_s_hash_is_the_fixture_s() {
    let fixture: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/body_hash.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let expected = fixture["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "empty-body-sha256")
        .unwrap()["expected"]["hash"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = oauth1(&[
        &["sign", "https://api.example.com/r", "--format", "json"],
        &CREDENTIALS,
        &PINNED,
        &[
            "--body-hash",
            "required",
            "--signature-method",
            "HMAC-SHA256",
        ],
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let collected = json["collected_params"].as_array().unwrap();
    assert!(
        collected.contains(&serde_json::json!(["oauth_body_hash", expected])),
        "{collected:?}"
    );
}
