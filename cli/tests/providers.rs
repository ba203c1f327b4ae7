//! `oauth1 sign --provider NAME` and the request file's `"provider"`,
//! `"transmission"`, `"body"` and `"body_hash"` against the client libraries
//! each provider's users run (`tests/peers/`, pinned in
//! `tests/peers/requirements.txt`), their nonces and clocks pinned:
//! Mastercard's official signer (`mastercard-oauth1-signer`), byte for byte;
//! WooCommerce's REST client (`woocommerce`), the URL it sends, which
//! `oauth1 verify` then accepts; NetSuite's realm and HMAC-SHA256 as
//! oauthlib (under requests-oauthlib) signs them; an LTI 1.1 launch made by
//! `lti`'s ToolConsumer, which `oauth1 verify` accepts from its body alone,
//! and rejects once tampered with; `oauth1 verify` and `oauth1 serve` with
//! `--provider mastercard` accept what Mastercard's signer sends, in its
//! parameter style and not in RFC 5849's.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use common::exec::{run, Output};
use common::peers::run_peer;
use common::serve::{send, Serve};
use serde_json::{json, Value};

const KEY: &str = include_str!("../../fixtures/keys/oauthlib_tests_rsa_pkcs1.pem");
const PUBLIC_KEY: &str = include_str!("../../fixtures/keys/oauthlib_tests_rsa_public.pem");
const TIMESTAMP: &str = "1764648000";

fn peer(script: &str, batch: &[Value]) -> Vec<Value> {
    let batch: Vec<Value> = batch
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut r = r.clone();
            r["id"] = json!(i);
            r
        })
        .collect();
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/peers")
        .join(script);
    run_peer("python3", &script, &batch).unwrap_or_else(|e| panic!("{e}"))
}

fn oauth1(args: &[&str]) -> Output {
    let out = run(args, None, &[]);
    assert_eq!(out.code, 0, "oauth1 {args:?}: {}", out.stderr);
    out
}

/// A file in a fresh directory of the test's own.
fn file(test: &str, name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "oauth1-cli-providers-{test}-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn json_output(out: &Output) -> Value {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", out.stdout))
}

#[test]
fn mastercard_from_the_flags_and_from_a_file_is_its_own_signer_s_header() {
    let url = "https://sandbox.api.mastercard.com/loyalty/v1/points?Format=JSON";
    let payload = r#"{"cardNumber":"5555555555554444","amount":"10.00"}"#;
    let nonce = "n0nce1234abcdefg";
    let theirs = &peer(
        "providers_peer.py",
        &[
            json!({"client": "mastercard", "url": url, "method": "POST", "payload": payload,
                   "consumer_key": "ck-0001!abc", "key_pem": KEY, "nonce": nonce,
                   "timestamp": TIMESTAMP}),
            json!({"client": "mastercard", "url": url, "method": "GET", "payload": null,
                   "consumer_key": "ck-0001!abc", "key_pem": KEY, "nonce": nonce,
                   "timestamp": TIMESTAMP}),
            // A form payload: Mastercard's signer hashes it like any other.
            json!({"client": "mastercard", "url": url, "method": "POST",
                   "payload": "to=alice&amount=10",
                   "consumer_key": "ck-0001!abc", "key_pem": KEY, "nonce": nonce,
                   "timestamp": TIMESTAMP}),
        ],
    );
    let key = file("mastercard", "key.pem", KEY);
    let key = key.to_str().unwrap();
    // The flags: the profile gives RSA-SHA256, the SHA-256 body hash (of the
    // empty body too) and Mastercard's parameter string and header.
    let post = oauth1(&[
        "sign",
        url,
        "-X",
        "POST",
        "--body",
        payload,
        "--content-type",
        "application/json",
        "--provider",
        "mastercard",
        "--consumer-key",
        "ck-0001!abc",
        "--private-key",
        key,
        "--nonce",
        nonce,
        "--timestamp",
        TIMESTAMP,
    ]);
    assert_eq!(
        post.stdout.trim_end(),
        theirs[0]["authorization_header"].as_str().unwrap()
    );
    let get = oauth1(&[
        "sign",
        url,
        "--provider",
        "mastercard",
        "--consumer-key",
        "ck-0001!abc",
        "--private-key",
        key,
        "--nonce",
        nonce,
        "--timestamp",
        TIMESTAMP,
    ]);
    assert_eq!(
        get.stdout.trim_end(),
        theirs[1]["authorization_header"].as_str().unwrap()
    );
    // A form body (-d) carries the hash too: nothing else covers it.
    let form = oauth1(&[
        "sign",
        url,
        "-d",
        "to=alice&amount=10",
        "--provider",
        "mastercard",
        "--consumer-key",
        "ck-0001!abc",
        "--private-key",
        key,
        "--nonce",
        nonce,
        "--timestamp",
        TIMESTAMP,
    ]);
    assert_eq!(
        form.stdout.trim_end(),
        theirs[2]["authorization_header"].as_str().unwrap(),
        "{}",
        form.stderr
    );
    // The request file, taken literally: "provider" fills the method, the
    // body hash and the style; the version is as written.
    let request = json!({"method": "POST", "url": url, "consumer_key": "ck-0001!abc",
        "rsa_private_key": KEY, "nonce": nonce, "timestamp": TIMESTAMP, "version": "1.0",
        "body": payload, "content_type": "application/json", "provider": "mastercard"});
    let path = file("mastercard", "request.json", &request.to_string());
    let out = oauth1(&[
        "sign",
        "--request",
        path.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let out = json_output(&out);
    assert_eq!(
        out["authorization_header"],
        theirs[0]["authorization_header"]
    );
    assert_eq!(out["sent_url"], json!(url));
    assert_eq!(out["sent_body"], json!(payload));
    // The receiving side: `oauth1 verify --provider mastercard` accepts what
    // Mastercard's signer sent; RFC 5849's parameter string (the same body
    // hash asked for) does not match it, the key's '!' being encoded once
    // by that signer and twice by RFC 5849.
    let public = file("mastercard", "public.pem", PUBLIC_KEY);
    let verify = |style: &[&str]| {
        run(
            &[
                &[
                    "verify",
                    url,
                    "-X",
                    "POST",
                    "--body",
                    payload,
                    "--content-type",
                    "application/json",
                    "--consumer-key",
                    "ck-0001!abc",
                    "--public-key",
                    public.to_str().unwrap(),
                    "--now",
                    TIMESTAMP,
                    "--header",
                    theirs[0]["authorization_header"].as_str().unwrap(),
                ][..],
                style,
            ]
            .concat(),
            None,
            &[],
        )
    };
    let valid = verify(&["--provider", "mastercard"]);
    assert_eq!(
        (valid.code, valid.stdout.as_str()),
        (0, "valid\n"),
        "{}",
        valid.stderr
    );
    let rfc = verify(&["--body-hash", "required", "--body-hash-algorithm", "sha256"]);
    assert_eq!(
        (rfc.code, rfc.stdout.as_str()),
        (
            1,
            "invalid: the signature does not match the request\n  (an RSA signature is checked \
             with the public key and cannot be remade: not diagnosed)\n"
        ),
        "{}",
        rfc.stderr
    );
}

#[test]
fn serve_stands_in_for_mastercard_with_its_public_key() {
    let serve = Serve::start_with(
        &["--consumer-key", "ck-0001!abc"],
        &[
            "--provider",
            "mastercard",
            "--public-key",
            file("mastercard-serve", "public.pem", PUBLIC_KEY)
                .to_str()
                .unwrap(),
        ],
    );
    let path = "/loyalty/v1/points?Format=JSON";
    let url = serve.url(path);
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
        .to_string();
    // Mastercard's own signer, at this instant: a GET, whose empty body is
    // hashed too.
    let theirs = &peer(
        "providers_peer.py",
        &[
            json!({"client": "mastercard", "url": url, "method": "GET", "payload": null,
                 "consumer_key": "ck-0001!abc", "key_pem": KEY, "nonce": "servenonce0001",
                 "timestamp": now}),
        ],
    )[0];
    let answer = send(
        serve.port,
        "GET",
        path,
        theirs["authorization_header"].as_str(),
        None,
    );
    assert_eq!(answer.status, 200, "{}", answer.json);
    assert_eq!(answer.json["signature_method"], json!("RSA-SHA256"));
    assert_eq!(answer.json["consumer_key"], json!("ck-0001!abc"));
    // Ours in RFC 5849's style, with the same method and body hash, is not
    // what this stand-in expects; ours with the profile is.
    let key = file("mastercard-serve", "key.pem", KEY);
    let ours = |nonce: &str, style: &[&str]| {
        oauth1(
            &[
                &[
                    "sign",
                    &url,
                    "--consumer-key",
                    "ck-0001!abc",
                    "--private-key",
                    key.to_str().unwrap(),
                    "--nonce",
                    nonce,
                ][..],
                style,
            ]
            .concat(),
        )
        .stdout
        .trim_end()
        .to_owned()
    };
    let rfc = ours(
        "servenonce0002",
        &[
            "--signature-method",
            "RSA-SHA256",
            "--body-hash",
            "required",
            "--body-hash-algorithm",
            "sha256",
        ],
    );
    // RFC 5849's header percent-encodes the body hash's Base64, which
    // Mastercard's signers write as it is: in their style it is no Base64,
    // refused by name before any signature is computed.
    let refused = send(serve.port, "GET", path, Some(&rfc), None);
    assert_eq!(refused.status, 401);
    assert_eq!(
        refused.json["problem"],
        json!("oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_body_hash"),
        "{}",
        refused.json
    );
    let styled = ours("servenonce0003", &["--provider", "mastercard"]);
    let answer = send(serve.port, "GET", path, Some(&styled), None);
    assert_eq!(answer.status, 200, "{}", answer.json);
    // A replay of Mastercard's request is refused.
    let replay = send(
        serve.port,
        "GET",
        path,
        theirs["authorization_header"].as_str(),
        None,
    );
    assert_eq!(replay.status, 401, "{}", replay.json);
}

#[test]
fn woocommerce_s_query_signed_url_is_sent_alike_and_verified() {
    let url = "http://shop.example.com/wp-json/wc/v3/products?per_page=5&search=mug";
    let theirs = &peer(
        "providers_peer.py",
        &[json!({"client": "woocommerce", "url": url, "method": "GET",
                 "consumer_key": "ck_1234", "consumer_secret": "cs_5678",
                 "nonce": "c0ffee1234", "timestamp": TIMESTAMP})],
    )[0];
    let theirs = theirs["url"].as_str().unwrap();
    let signature = |u: &str| {
        u.split('&')
            .find_map(|p| p.strip_prefix("oauth_signature="))
            .map(str::to_owned)
    };
    let creds = ["--consumer-key", "ck_1234", "--consumer-secret", "cs_5678"];
    let pinned = ["--nonce", "c0ffee1234", "--timestamp", TIMESTAMP];
    let ours = oauth1(
        &[
            &["sign", url, "--provider", "woocommerce"][..],
            &creds,
            &pinned,
        ]
        .concat(),
    );
    let ours = ours.stdout.trim_end();
    assert!(
        ours.starts_with(&format!("{url}&oauth_consumer_key=ck_1234&")),
        "{ours}"
    );
    assert!(!ours.contains("oauth_version"), "{ours}");
    assert_eq!(signature(ours), signature(theirs), "{theirs}");
    // In JSON: the URL to send, and no Authorization header.
    let json = oauth1(
        &[
            &["sign", url, "--provider", "woocommerce", "--format", "json"][..],
            &creds,
            &pinned,
        ]
        .concat(),
    );
    let json = json_output(&json);
    assert_eq!(json["sent_url"], json!(ours));
    assert!(json.get("authorization_header").is_none(), "{json}");
    assert_eq!(json["sent_body"], Value::Null);
    // Their URL, as the store receives it, verifies; a tampered one does not.
    let verify = |u: &str| {
        run(
            &[&["verify", u, "--now", TIMESTAMP][..], &creds].concat(),
            None,
            &[],
        )
    };
    let valid = verify(theirs);
    assert_eq!(
        (valid.code, valid.stdout.as_str()),
        (0, "valid\n"),
        "{}",
        valid.stderr
    );
    let tampered = verify(&theirs.replace("per_page=5", "per_page=500"));
    assert_eq!(tampered.code, 1, "{}", tampered.stdout);
    assert!(
        tampered.stdout.starts_with("invalid: "),
        "{}",
        tampered.stdout
    );
}

#[test]
fn netsuite_s_realm_and_hmac_sha256_are_oauthlib_s() {
    // A sandbox account: host "-sb1", realm "_SB1" (NetSuite's token-based
    // authentication), signed by oauthlib with that realm and HMAC-SHA256.
    let url =
        "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/record/v1/customer?limit=5";
    let theirs = &peer(
        "oauthlib_peer.py",
        &[
            json!({"method": "GET", "url": url, "consumer_key": "ns-ck", "consumer_secret": "ns-cs",
                 "token": "ns-tk", "token_secret": "ns-ts", "signature_method": "HMAC-SHA256",
                 "nonce": "n5n0nce", "timestamp": TIMESTAMP, "version": "1.0",
                 "realm": "1234567_SB1"}),
        ],
    )[0];
    let ours = oauth1(&[
        "sign",
        url,
        "--provider",
        "netsuite",
        "--consumer-key",
        "ns-ck",
        "--consumer-secret",
        "ns-cs",
        "--token",
        "ns-tk",
        "--token-secret",
        "ns-ts",
        "--nonce",
        "n5n0nce",
        "--timestamp",
        TIMESTAMP,
    ]);
    let params = |header: &str| {
        let mut p: Vec<String> = header
            .trim_start_matches("OAuth ")
            .split(", ")
            .map(str::to_owned)
            .collect();
        p.sort();
        p
    };
    assert_eq!(
        params(ours.stdout.trim_end()),
        params(theirs["authorization_header"].as_str().unwrap())
    );
    assert!(
        ours.stdout.starts_with("OAuth realm=\"1234567_SB1\", "),
        "{}",
        ours.stdout
    );
}

#[test]
fn an_lti_launch_from_its_body_alone_is_verified_and_a_tampered_one_is_not() {
    let launch = "http://tool.example.com/lti/launch";
    let params = json!({"lti_message_type": "basic-lti-launch-request", "lti_version": "LTI-1p0",
        "resource_link_id": "course-42-link", "user_id": "u 29", "roles": "Instructor"});
    let theirs = &peer(
        "providers_peer.py",
        &[
            json!({"client": "lti-launch", "launch_url": launch, "consumer_key": "lms-key",
                 "consumer_secret": "lms-secret", "params": params, "nonce": "lti0nonce0001",
                 "timestamp": TIMESTAMP}),
        ],
    )[0];
    let body = theirs["body"].as_str().unwrap();
    let creds = [
        "--consumer-key",
        "lms-key",
        "--consumer-secret",
        "lms-secret",
    ];
    let verify = |body: &str| {
        run(
            &[
                &["verify", launch, "-d", body, "--now", TIMESTAMP][..],
                &creds,
            ]
            .concat(),
            None,
            &[],
        )
    };
    let valid = verify(body);
    assert_eq!(
        (valid.code, valid.stdout.as_str()),
        (0, "valid\n"),
        "{}",
        valid.stderr
    );
    let tampered = verify(&body.replace("Instructor", "Administrator"));
    assert_eq!(tampered.code, 1, "{}", tampered.stdout);
    // Ours, as an LMS sends it (the LTI profile: the parameters in the form
    // body), is what lti's ToolProvider accepts.
    let form = "lti_message_type=basic-lti-launch-request&lti_version=LTI-1p0&resource_link_id=course-42-link&user_id=u%2029&roles=Instructor";
    let ours = oauth1(
        &[
            &[
                "sign",
                launch,
                "-d",
                form,
                "--provider",
                "lti",
                "--nonce",
                "lti0nonce0002",
                "--timestamp",
                TIMESTAMP,
            ][..],
            &creds,
        ]
        .concat(),
    );
    let ours = ours.stdout.trim_end();
    assert!(ours.starts_with(&format!("{form}&oauth_")), "{ours}");
    let checked = &peer(
        "providers_peer.py",
        &[
            json!({"client": "lti-verify", "launch_url": launch, "consumer_key": "lms-key",
                 "consumer_secret": "lms-secret", "body": ours, "now": TIMESTAMP}),
        ],
    )[0];
    assert_eq!(checked["valid"], json!(true), "{ours}");
}

#[test]
fn a_request_file_that_cannot_be_sent_is_refused_by_name() {
    for (fields, says) in [
        (json!({"form_body": "a=1", "body": "{}"}), "one body"),
        (
            json!({"transmission": "form-body"}),
            "form-body transmission",
        ),
        (
            json!({"body": "a=1", "content_type": "application/x-www-form-urlencoded"}),
            "form_body",
        ),
        (
            json!({"content_type": "application/json"}),
            "there is no body",
        ),
    ] {
        let mut request = json!({"method": "POST", "url": "https://api.example.com/r",
            "consumer_key": "ck", "consumer_secret": "cs"});
        for (k, v) in fields.as_object().unwrap() {
            request[k] = v.clone();
        }
        let path = file("refused", "request.json", &request.to_string());
        let out = run(&["sign", "--request", path.to_str().unwrap()], None, &[]);
        assert_eq!(out.code, 2, "{request}: {}", out.stdout);
        assert!(out.stderr.contains(says), "{request}: {}", out.stderr);
    }
    for (field, value) in [
        ("transmission", "body"),
        ("body_hash", "md5"),
        ("provider", "myspace"),
    ] {
        let request =
            json!({"method": "GET", "url": "https://h/", "consumer_key": "ck", field: value});
        let path = file("unknown", "request.json", &request.to_string());
        let out = run(&["sign", "--request", path.to_str().unwrap()], None, &[]);
        assert_eq!(out.code, 2, "{request}");
        assert!(
            out.stderr.contains(&format!("\"{value}\"")),
            "{}",
            out.stderr
        );
    }
}

#[test]
fn an_oauth_echo_for_x_is_oauthlib_s_header_for_the_identity_call() {
    // X's OAuth Echo page: the Authorization header the consumer would send
    // to GET https://api.x.com/1.1/account/verify_credentials.json.
    let url = "https://api.x.com/1.1/account/verify_credentials.json";
    let theirs = &peer(
        "oauthlib_peer.py",
        &[
            json!({"method": "GET", "url": url, "consumer_key": "ck", "consumer_secret": "cs",
                 "token": "tk", "token_secret": "ts", "nonce": "ech0n0nce", "timestamp": TIMESTAMP,
                 "signature_method": "HMAC-SHA1",
                 "version": "1.0"}),
        ],
    )[0];
    let out = oauth1(&[
        "sign",
        url,
        "--format",
        "echo",
        "--consumer-key",
        "ck",
        "--consumer-secret",
        "cs",
        "--token",
        "tk",
        "--token-secret",
        "ts",
        "--nonce",
        "ech0n0nce",
        "--timestamp",
        TIMESTAMP,
    ]);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], format!("X-Auth-Service-Provider: {url}"));
    let header = lines[1]
        .strip_prefix("X-Verify-Credentials-Authorization: ")
        .unwrap();
    let sorted = |h: &str| {
        let mut p: Vec<String> = h
            .trim_start_matches("OAuth ")
            .split(", ")
            .map(str::to_owned)
            .collect();
        p.sort();
        p
    };
    assert_eq!(
        sorted(header),
        sorted(theirs["authorization_header"].as_str().unwrap())
    );
    // Not a plain GET: refused, naming the format.
    let post = run(
        &[
            "sign",
            url,
            "-d",
            "a=1",
            "--format",
            "echo",
            "--consumer-key",
            "ck",
            "--consumer-secret",
            "cs",
        ],
        None,
        &[],
    );
    assert_eq!(post.code, 2);
    assert!(post.stderr.contains("--format echo"), "{}", post.stderr);
}
