//! `oauth1 verify` on the real binary: every public request vector (its
//! header recomputed by oauthlib and a standard-library reference, never by
//! this crate) verifies at its own timestamp; each kind of tampering is
//! rejected (exit 1) with its own reason and OAuth problem code; a header
//! that does not parse exits 2 with its byte offset.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;

use common::bin::{oauth1, run, text, TempDir};
use common::oracle::header_signature;
use serde_json::Value;

fn fixture(name: &str) -> Vec<Value> {
    let path = format!("{}/../fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let file: Value = serde_json::from_str(&text).unwrap();
    file["vectors"].as_array().unwrap().clone()
}

fn key_file(name: &str) -> String {
    format!("{}/../fixtures/keys/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The public key that goes with a vector's RSA private key (both in
/// `fixtures/keys/`, from the same sources).
fn public_key_for(inputs: &Value) -> Option<String> {
    let private = inputs["rsa_private_key"].as_str()?;
    Some(if private.contains("BEGIN RSA PRIVATE KEY") {
        key_file("oauthlib_tests_rsa_public.pem")
    } else {
        key_file("oauth_net_testcases_rsa.cert")
    })
}

struct Verdict {
    code: i32,
    stdout: String,
    stderr: String,
}

/// `oauth1 verify --request FILE --header HEADER ARGS...`.
fn verify(dir: &Path, inputs: &Value, header: &str, args: &[&str]) -> Verdict {
    let file = dir.join("request.json");
    std::fs::write(&file, inputs.to_string()).unwrap();
    let mut cmd = oauth1(&dir.join("config"));
    cmd.arg("verify")
        .arg("--request")
        .arg(&file)
        .arg("--header")
        .arg(header)
        .args(args);
    if let Some(key) = public_key_for(inputs) {
        cmd.arg("--public-key").arg(key);
    }
    let out = run(cmd);
    Verdict {
        code: out.status.code().expect("exited"),
        stdout: text(&out.stdout),
        stderr: text(&out.stderr),
    }
}

fn json(v: &Verdict) -> Value {
    serde_json::from_str(&v.stdout).unwrap_or_else(|e| panic!("{e}: {}", v.stdout))
}

#[test]
fn every_public_request_vector_verifies_at_its_timestamp() {
    let dir = TempDir::new("verify-vectors");
    let mut count = 0;
    for v in fixture("signatures.json") {
        if v["kind"] != "request" {
            continue;
        }
        let (id, inputs) = (v["id"].as_str().unwrap(), &v["inputs"]);
        let header = v["expected"]["authorization_header"].as_str().unwrap();
        let ts = inputs["timestamp"].as_str().unwrap();
        count += 1;
        if !ts.bytes().all(|b| b.is_ascii_digit()) {
            // oauthlib's unicode-body vectors sign the timestamp "abc"; RFC
            // 5849 §3.3 wants a positive integer, so a verifier refuses it.
            let out = verify(&dir.0, inputs, header, &["--now", "1", "--format", "json"]);
            assert_eq!(out.code, 1, "{id}: {}{}", out.stdout, out.stderr);
            let j = json(&out);
            assert_eq!(j["valid"], false, "{id}");
            assert!(
                j["problem"].as_str().unwrap().starts_with(
                    "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_timestamp"
                ),
                "{id}: {j}"
            );
            continue;
        }
        let out = verify(&dir.0, inputs, header, &["--now", ts]);
        assert_eq!(
            (out.code, out.stdout.as_str()),
            (0, "valid\n"),
            "{id}: {}",
            out.stderr
        );
        let out = verify(&dir.0, inputs, header, &["--now", ts, "--format", "json"]);
        assert_eq!(out.code, 0, "{id}");
        let j = json(&out);
        assert_eq!(
            (&j["valid"], &j["reason"]),
            (&Value::Bool(true), &Value::Null),
            "{id}"
        );
        assert_eq!(
            j["base_string_uri"], v["expected"]["base_string_uri"],
            "{id}"
        );
    }
    assert!(count >= 28, "only {count} request vectors");
}

/// The X docs' "Creating a signature" request, its published header, its
/// timestamp.
fn x_docs() -> (Value, String, String) {
    let v = common::x_docs::vector();
    let header = v["expected"]["authorization_header"]
        .as_str()
        .unwrap()
        .to_owned();
    let ts = v["inputs"]["timestamp"].as_str().unwrap().to_owned();
    (v["inputs"].clone(), header, ts)
}

/// One tampered request and what `verify` must say about it.
struct Case<'a> {
    what: &'a str,
    inputs: Value,
    header: String,
    now: &'a str,
    reason: &'a str,
    problem: &'a str,
}

#[test]
fn each_kind_of_tampering_is_rejected_with_its_reason() {
    let dir = TempDir::new("verify-tampered");
    let (inputs, header, ts) = x_docs();
    let signature_invalid = "oauth_problem=signature_invalid";
    let with = |field: &str, value: &str| {
        let mut i = inputs.clone();
        i[field] = Value::String(value.to_owned());
        i
    };
    let bad_signature = "the signature does not match";
    let late = (ts.parse::<u64>().unwrap() + 3600).to_string();
    // What is changed, the request and header then given, --now, and the
    // reason and problem expected.
    let cases = [
        Case {
            what: "a body parameter",
            inputs: with(
                "form_body",
                "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%3F",
            ),
            header: header.clone(),
            now: &ts,
            reason: bad_signature,
            problem: signature_invalid,
        },
        Case {
            what: "the method",
            inputs: with("method", "PUT"),
            header: header.clone(),
            now: &ts,
            reason: bad_signature,
            problem: signature_invalid,
        },
        Case {
            what: "the host",
            inputs: with(
                "url",
                "https://api.twitter.com/1.1/statuses/update.json?include_entities=true",
            ),
            header: header.clone(),
            now: &ts,
            reason: bad_signature,
            problem: signature_invalid,
        },
        Case {
            what: "the path",
            inputs: with(
                "url",
                "https://api.x.com/1.1/statuses/destroy.json?include_entities=true",
            ),
            header: header.clone(),
            now: &ts,
            reason: bad_signature,
            problem: signature_invalid,
        },
        Case {
            what: "the consumer secret",
            inputs: with("consumer_secret", "not-the-secret"),
            header: header.clone(),
            now: &ts,
            reason: bad_signature,
            problem: signature_invalid,
        },
        Case {
            what: "the consumer key in the header",
            inputs: inputs.clone(),
            header: header.replace("xvz1evFS4wEEPTGEFPHBog", "someone-else"),
            now: &ts,
            reason: "unknown consumer key",
            // The answer does not tell an unknown key from a bad signature.
            problem: signature_invalid,
        },
        Case {
            what: "the timestamp, an hour late",
            inputs: inputs.clone(),
            header: header.clone(),
            now: &late,
            reason: "timestamp refused",
            problem: "oauth_problem=timestamp_refused",
        },
    ];
    for Case {
        what,
        inputs,
        header,
        now,
        reason,
        problem,
    } in cases
    {
        let mut args: Vec<&str> = vec!["--format", "json", "--now", now];
        let out = verify(&dir.0, &inputs, &header, &args);
        assert_eq!(out.code, 1, "{what}: {}{}", out.stdout, out.stderr);
        let j = json(&out);
        assert_eq!(j["valid"], false, "{what}");
        assert!(
            j["reason"].as_str().unwrap().contains(reason),
            "{what}: {j}"
        );
        assert!(
            j["problem"].as_str().unwrap().starts_with(problem),
            "{what}: {j}"
        );
        // Text: the reason on stdout, exit 1.
        args.retain(|a| *a != "--format" && *a != "json");
        let out = verify(&dir.0, &inputs, &header, &args);
        assert_eq!(out.code, 1, "{what}");
        assert!(
            out.stdout.starts_with("invalid: ") && out.stdout.contains(reason),
            "{what}: {}",
            out.stdout
        );
    }
}

#[test]
fn a_secret_never_appears_in_the_output() {
    let dir = TempDir::new("verify-secret");
    let (inputs, header, ts) = x_docs();
    let mut tampered = inputs.clone();
    tampered["form_body"] = Value::String("status=other".into());
    for format in ["text", "json"] {
        let out = verify(
            &dir.0,
            &tampered,
            &header,
            &["--now", &ts, "--format", format],
        );
        assert_eq!(out.code, 1);
        for secret in [
            "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
            "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
        ] {
            assert!(
                !out.stdout.contains(secret) && !out.stderr.contains(secret),
                "{format}"
            );
        }
    }
}

#[test]
fn a_header_that_does_not_parse_exits_2_at_its_offset() {
    let dir = TempDir::new("verify-malformed");
    let (inputs, _, ts) = x_docs();
    // The quoted value never ends: the header's 36 bytes are all read.
    let header = "OAuth oauth_consumer_key=\"xvz1evFS4w";
    let out = verify(&dir.0, &inputs, header, &["--now", &ts]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.starts_with("error: --header: "),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains('^'),
        "a caret under the spot: {}",
        out.stderr
    );
    assert_eq!(out.stdout, "");
    // Not OAuth at all.
    let out = verify(&dir.0, &inputs, "Basic dXNlcjpwYXNz", &["--now", &ts]);
    assert_eq!(out.code, 2, "{}{}", out.stdout, out.stderr);
}

#[test]
fn a_flag_that_sets_a_protocol_parameter_is_refused_not_ignored() {
    let dir = TempDir::new("verify-signing-flags");
    let (inputs, header, ts) = x_docs();
    for flag in [
        &["--nonce", "n"][..],
        &["--timestamp", "1"],
        &["--realm", "r"],
        &["--signature-method", "PLAINTEXT"],
        &["--no-version"],
        &["--private-key", "key.pem"],
    ] {
        let mut args = vec!["--now", ts.as_str()];
        args.extend_from_slice(flag);
        let out = verify(&dir.0, &inputs, &header, &args);
        assert_eq!(out.code, 2, "{flag:?}: {}{}", out.stdout, out.stderr);
        assert!(out.stderr.contains(flag[0]), "{flag:?}: {}", out.stderr);
        assert_eq!(out.stdout, "");
    }
}

#[test]
fn a_parameter_twice_in_the_header_is_rejected_by_name() {
    let dir = TempDir::new("verify-twice");
    let (inputs, header, ts) = x_docs();
    let twice = format!("{header}, oauth_nonce=\"again\"");
    let out = verify(&dir.0, &inputs, &twice, &["--now", &ts, "--format", "json"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let j = json(&out);
    assert!(j["reason"].as_str().unwrap().contains("oauth_nonce"), "{j}");
    assert_eq!(
        j["problem"],
        "oauth_problem=parameter_rejected&oauth_parameters_rejected=oauth_nonce"
    );
}

#[test]
fn a_client_that_wrote_spaces_as_plus_is_diagnosed() {
    let dir = TempDir::new("verify-diagnosis");
    let (inputs, header, ts) = x_docs();
    let v = common::x_docs::vector();
    // That client's base string: each space of the status a '+' (so %2B
    // in the base string) instead of %20 (%2520).
    let base = v["expected"]["base_string"].as_str().unwrap();
    let theirs_base = base.replace("%2520", "%2B");
    assert_ne!(theirs_base, base);
    let key = format!(
        "{}&{}",
        inputs["consumer_secret"].as_str().unwrap(),
        inputs["token_secret"].as_str().unwrap()
    );
    let ours = "Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D";
    assert!(header.contains(ours));
    let theirs = header.replace(ours, &header_signature(&key, &theirs_base));
    let out = verify(
        &dir.0,
        &inputs,
        &theirs,
        &["--now", &ts, "--format", "json"],
    );
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    let j = json(&out);
    assert_eq!(j["problem"], "oauth_problem=signature_invalid");
    let codes: Vec<&str> = j["diagnosis"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["space-as-plus"], "{j}");
    let out = verify(&dir.0, &inputs, &theirs, &["--now", &ts]);
    assert!(out.stdout.contains("\n  space-as-plus ("), "{}", out.stdout);
}

#[test]
fn a_plaintext_key_sent_under_an_hmac_name_is_never_printed() {
    // The X docs request, its signature replaced by the PLAINTEXT key
    // (consumer secret & token secret) while the header still says
    // HMAC-SHA1: the diagnosis names PLAINTEXT and shows no secret.
    let dir = TempDir::new("verify-plaintext-under-hmac");
    let (inputs, header, ts) = x_docs();
    let key =
        "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw%26LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE";
    let sig = header
        .split("oauth_signature=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    let header = header.replace(sig, key);
    for format in ["text", "json"] {
        let out = verify(
            &dir.0,
            &inputs,
            &header,
            &["--now", &ts, "--format", format],
        );
        assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
        assert!(out.stdout.contains("PLAINTEXT"), "{format}: {}", out.stdout);
        for secret in [
            "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
            "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
        ] {
            assert!(
                !out.stdout.contains(secret) && !out.stderr.contains(secret),
                "{format}: {}",
                out.stdout
            );
        }
    }
}

/// `text` percent-encoded as RFC 3986 does, hex in `upper` or lower case.
fn encoded(text: &str, upper: bool) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ if upper => format!("%{b:02X}"),
            _ => format!("%{b:02x}"),
        })
        .collect()
}

#[test]
fn a_signature_that_spells_the_secrets_another_way_is_never_printed() {
    // Secrets with bytes that encoding changes; a client sends in place of
    // its signature the key text in near spellings: lower-case escapes,
    // the encoded consumer secret with a wrong token secret, escaped twice.
    let dir = TempDir::new("verify-near-spellings");
    let (mut inputs, header, ts) = x_docs();
    let (cs, tks) = ("c/s+e=c&r e!t-0001", "t/s+e=c&r e!t-0002");
    inputs["consumer_secret"] = Value::String(cs.into());
    inputs["token_secret"] = Value::String(tks.into());
    let sig = header
        .split("oauth_signature=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let spellings = [
        format!("{}&{}", encoded(cs, false), encoded(tks, false)),
        format!("{}&wrong-token-secret", encoded(cs, false)),
        format!("{}&wrong-token-secret", encoded(cs, true)),
        format!(
            "{}%26{}",
            encoded(&encoded(cs, true), false),
            encoded(tks, true)
        ),
        format!("{cs}&{tks}"),
    ];
    for sent in &spellings {
        // As the header carries it: percent-encoded once more.
        let header = header.replace(&sig, &encoded(sent, true));
        for format in ["text", "json"] {
            let out = verify(
                &dir.0,
                &inputs,
                &header,
                &["--now", &ts, "--format", format],
            );
            assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
            let shown = format!("{}{}", out.stdout, out.stderr);
            for secret in [cs, tks] {
                for spelling in [
                    secret.to_owned(),
                    encoded(secret, true),
                    encoded(secret, false),
                    encoded(&encoded(secret, true), true),
                ] {
                    assert!(!shown.contains(&spelling), "{sent} {format}: {shown}");
                }
            }
        }
    }
}

#[test]
fn an_rsa_signature_is_refused_with_another_key_tampered_or_without_one() {
    // The oauth.net TestCases RSA-SHA1 request: valid with its certificate.
    let dir = TempDir::new("verify-rsa");
    let v = fixture("signatures.json")
        .into_iter()
        .find(|v| v["id"] == "oauth-net-testcases-rsa-sha1")
        .unwrap();
    let (inputs, header) = (
        &v["inputs"],
        v["expected"]["authorization_header"].as_str().unwrap(),
    );
    let ts = inputs["timestamp"].as_str().unwrap();
    let mut without_private = inputs.clone();
    let obj = without_private.as_object_mut().unwrap();
    obj.remove("rsa_private_key");
    obj.remove("rsa_certificate");
    let run_with = |inputs: &Value, key: Option<&str>| {
        let file = dir.0.join("request.json");
        std::fs::write(&file, inputs.to_string()).unwrap();
        let mut cmd = oauth1(&dir.0.join("config"));
        cmd.args(["verify", "--now", ts, "--header", header, "--request"])
            .arg(&file);
        if let Some(key) = key {
            cmd.arg("--public-key").arg(key_file(key));
        }
        let out = run(cmd);
        (
            out.status.code().unwrap(),
            text(&out.stdout),
            text(&out.stderr),
        )
    };
    let (code, out, err) = run_with(&without_private, Some("oauth_net_testcases_rsa.cert"));
    assert_eq!((code, out.as_str()), (0, "valid\n"), "{err}");
    let (code, out, _) = run_with(&without_private, Some("oauthlib_tests_rsa_public.pem"));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("invalid: the signature does not match"),
        "{out}"
    );
    let mut tampered = without_private.clone();
    tampered["url"] = Value::String(
        inputs["url"]
            .as_str()
            .unwrap()
            .replace("size=original", "size=large"),
    );
    let (code, out, _) = run_with(&tampered, Some("oauth_net_testcases_rsa.cert"));
    assert_eq!(code, 1, "{out}");
    assert!(
        out.starts_with("invalid: the signature does not match"),
        "{out}"
    );
    let (code, out, err) = run_with(&without_private, None);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.starts_with("invalid: no RSA public key") && out.contains("--public-key"),
        "{out}"
    );
}

/// `oauth1` with these arguments, its exit code and stdout.
fn oauth1_out(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut cmd = oauth1(&dir.join("config"));
    cmd.args(args);
    let out = run(cmd);
    (
        out.status.code().unwrap(),
        text(&out.stdout),
        text(&out.stderr),
    )
}

#[test]
fn what_sign_signs_verify_accepts_and_what_verify_would_refuse_sign_refuses() {
    // Random requests (a fixed xorshift sequence, so one run is every run)
    // with pinned nonces and timestamps, some outside the rule.
    let dir = TempDir::new("sign-then-verify");
    let mut state: u64 = 0x2026_1202;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let nonces = [
        "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
        "abc",
        "u+K8pyH0Ckp8dRlsnwQwKeRi/2pVf2ZDjb0v2SfYTjA=",
        "a b",
        "été-2024",
        &"n".repeat(100),
    ];
    let values = ["hello world", "a+b", "%", "☃", "x=y&z", "", "~!*'()"];
    for round in 0..24 {
        let nonce = nonces[next() as usize % nonces.len()];
        let timestamp = (1_318_622_958 + next() % 1_000_000).to_string();
        let value = values[next() as usize % values.len()];
        let query = oauth1_signer::pipeline::encode_pairs([("q", value)]);
        let url = format!("https://api.x.com/1.1/r{round}.json?{query}");
        let body = oauth1_signer::pipeline::encode_pairs([(
            "status",
            values[next() as usize % values.len()],
        )]);
        let method = ["HMAC-SHA1", "HMAC-SHA256", "HMAC-SHA512", "PLAINTEXT"][next() as usize % 4];
        let creds = [
            "--consumer-key",
            "ck",
            "--consumer-secret",
            "cs&é",
            "--token",
            "tk",
            "--token-secret",
            "ts",
        ];
        let mut sign: Vec<&str> = vec!["sign", &url, "-X", "POST", "-d", &body];
        sign.extend(creds);
        sign.extend([
            "--signature-method",
            method,
            "--nonce",
            nonce,
            "--timestamp",
            &timestamp,
        ]);
        let (code, header, err) = oauth1_out(&dir.0, &sign);
        let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~+/=".contains(c);
        let rule = !nonce.is_empty() && nonce.chars().count() <= 64 && nonce.chars().all(allowed);
        if !rule {
            assert_eq!(code, 2, "{round}: {nonce:?} signed: {header}");
            assert!(err.contains("oauth_nonce"), "{round}: {err}");
            continue;
        }
        assert_eq!(code, 0, "{round}: {err}");
        let header = header.trim();
        let mut verify: Vec<&str> = vec!["verify", &url, "-X", "POST", "-d", &body];
        verify.extend(creds);
        verify.extend(["--header", header, "--now", &timestamp]);
        let (code, out, err) = oauth1_out(&dir.0, &verify);
        assert_eq!(
            (code, out.as_str()),
            (0, "valid\n"),
            "{round}: {header}\n{err}"
        );
    }
}
