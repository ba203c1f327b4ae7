//! `oauth1 sign`, the real binary, against the public vectors in
//! `fixtures/`: every request vector signed through `--request -` gives
//! each stage the vector records in `--format json` (and the same header in
//! `--format header`); `--example` is vector `x-docs-creating-a-signature`,
//! stage by stage and in the trace; credentials come from the environment,
//! flags override a request file; live requests get a fresh nonce and
//! timestamp; a weak RSA key is signed with a warning. The expected values
//! are the vectors', never computed by the library.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::exec::{oauth1, run};
use common::vectors::{
    fixture, vector, X_BODY, X_CONSUMER_KEY, X_CONSUMER_SECRET, X_NONCE, X_TIMESTAMP, X_TOKEN,
    X_TOKEN_SECRET, X_URL,
};
use oauth1_signer::pipeline::parse_authorization_header;
use serde_json::{json, Value};

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
        // The test keys are 1024-bit RSA keys: the CLI warns, and signs; and
        // it prints the library's lints of the request (a vector's empty
        // consumer secret, say), which sign all the same.
        let lints: Vec<String> = oauth1_signer::RequestSpec::from_json(&stdin)
            .map(|spec| {
                spec.lints()
                    .iter()
                    .map(|l| format!("warning: {l}"))
                    .collect()
            })
            .unwrap_or_default();
        let weak_key = |line: &str| {
            line.starts_with("warning: the RSA key has 1024 bits;")
                || lints.iter().any(|l| l == line)
        };
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

fn x_docs_header() -> String {
    common::x_docs::vector()["expected"]["authorization_header"]
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
    let v = common::x_docs::vector();
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

#[test]
fn a_body_hash_algorithm_given_alone_sends_a_body_hash() {
    // Naming the hash is asking for one: it is sent (as --body-hash
    // unless-form), never left out silently. The expected value is
    // Base64(SHA-256("x")), from Python's hashlib.
    let out = oauth1(&[
        "sign",
        "https://api.example.com/r",
        "-X",
        "PUT",
        "--body",
        "x",
        "--content-type",
        "text/plain",
        "--body-hash-algorithm",
        "sha256",
        "--consumer-key",
        "ck",
        "--consumer-secret",
        "cs",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("oauth_body_hash=\"LXEWQrcmsEQBYnyp%2B6wy9chTD7GQPMTbAiWHF5IaSIE%3D\""),
        "{}",
        out.stdout
    );
}

/// The words of the body-hash flags, `--transmission` and `--provider` are
/// the library's (`FromStr` on its types, which the request file and the
/// page's selects read too): an unknown one is named with those accepted.
#[test]
fn an_unknown_word_is_named_with_the_words_accepted() {
    for (flag, word, says) in [
        (
            "--body-hash",
            "sometimes",
            r#"unknown body-hash policy "sometimes" (expected never, unless-form, required, always)"#,
        ),
        (
            "--body-hash-algorithm",
            "SHA-256",
            r#"unknown body-hash algorithm "SHA-256" (expected follow-method, sha1, sha256, sha512)"#,
        ),
        (
            "--transmission",
            "body",
            r#"unknown transmission "body" (expected header, form-body, query)"#,
        ),
        (
            "--provider",
            "myspace",
            r#"unknown provider "myspace" (expected rfc5849, x, netsuite, woocommerce, mastercard, lti, jira-dc, magento, etrade, trello, garmin, flickr, discogs)"#,
        ),
    ] {
        let out = oauth1(&[
            "sign",
            "https://h/",
            "--consumer-key",
            "ck",
            "--consumer-secret",
            "cs",
            flag,
            word,
        ]);
        assert_eq!(out.code, 2, "{flag} {word}: {}", out.stdout);
        assert!(out.stderr.contains(says), "{}", out.stderr);
    }
}

/// A body-hash policy given alone keeps the provider's hash, Mastercard's
/// SHA-256, whatever the signature method (`BodyHash::chosen`; the page's
/// algorithm select left empty gives the same, `web/src/sign/`). The
/// value is Base64(SHA-256("a=1")), from Python's hashlib.
#[test]
fn a_body_hash_policy_given_alone_keeps_the_provider_s_hash() {
    let out = oauth1(&[
        "sign",
        "https://api.example.com/r",
        "-d",
        "a=1",
        "--provider",
        "mastercard",
        "--signature-method",
        "HMAC-SHA1",
        "--body-hash",
        "always",
        "--consumer-key",
        "ck",
        "--consumer-secret",
        "cs",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Mastercard's signers write the header's values as they are.
    assert!(
        out.stdout
            .contains("oauth_body_hash=\"wi/qXXQo5c9H72NUyXySI8ldbc3D4NIwD/eQVrH/PYU=\""),
        "{}",
        out.stdout
    );
}

/// The request file says the body hash in the flags' words, two fields:
/// `"always"` over a form, which the single word of earlier releases could
/// not say; that word (`"sha1"`) is refused by name. Base64(SHA-256("a=1"))
/// from Python's hashlib.
#[test]
fn the_request_file_takes_the_flags_body_hash_words() {
    let mut request = json!({"method": "POST", "url": "https://api.example.com/r",
        "form_body": "a=1", "consumer_key": "ck", "consumer_secret": "cs",
        "body_hash": "always", "body_hash_algorithm": "sha256"});
    let out = run(
        &["sign", "--request", "-"],
        Some(request.to_string().as_bytes()),
        &[],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("oauth_body_hash=\"wi%2FqXXQo5c9H72NUyXySI8ldbc3D4NIwD%2FeQVrH%2FPYU%3D\""),
        "{}",
        out.stdout
    );
    request["body_hash"] = json!("sha1");
    let out = run(
        &["sign", "--request", "-"],
        Some(request.to_string().as_bytes()),
        &[],
    );
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stderr.contains(
            r#"unknown body-hash policy "sha1" (expected never, unless-form, required, always)"#
        ),
        "{}",
        out.stderr
    );
}

/// A method's name is read with its case aside wherever it is read:
/// `rsa-sha1` asks for the private key, as `RSA-SHA1` does, not for a
/// consumer secret (the CLI's own test was `starts_with("RSA")`).
#[test]
fn a_lowercase_rsa_method_asks_for_its_key() {
    for method in ["RSA-SHA1", "rsa-sha1", "Rsa-Sha256"] {
        let out = oauth1(&[
            "sign",
            "https://h/",
            "--consumer-key",
            "ck",
            "--signature-method",
            method,
        ]);
        assert_eq!(out.code, 2, "{method}: {}", out.stdout);
        assert!(
            out.stderr.contains("needs an RSA private key"),
            "{method}: {}",
            out.stderr
        );
    }
}
