//! `oauth1 sign --base-string`, the real binary: every vector of
//! `fixtures/signatures.json` that records a base string and its signature
//! (the `primitive` ones, base string + secrets, and every request vector's
//! base string) gives the vector's signature, from the text, from a file
//! and from standard input; published values known to be wrong (RFC 5849's
//! misprint, fixtures/README) are not what it prints; a PLAINTEXT
//! signature, which is the key, is printed only with --show-secrets. The
//! expected values are the vectors' (oauthlib's and a reference's, and the
//! sources' where they reproduce), never computed by the library.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::bin::TempDir;
use common::exec::{run, Output};
use common::vectors::{fixture, vector, X_CONSUMER_SECRET, X_TOKEN_SECRET};
use serde_json::Value;

/// What `sign --show-secrets` hides a PLAINTEXT signature behind.
const HIDDEN: &str =
    "<hidden: the PLAINTEXT signature is the signing key; --show-secrets shows it>\n";

/// The flags of vector `v`'s secrets and method (its RSA key written to a
/// file in `dir`), without the base string.
fn secret_flags(v: &Value, dir: &TempDir) -> Vec<String> {
    let inputs = &v["inputs"];
    let method = inputs["signature_method"].as_str().unwrap();
    let mut flags = vec![format!("--signature-method={method}")];
    if let Some(pem) = inputs["rsa_private_key"].as_str() {
        let path = dir.0.join(format!("{}.pem", v["id"].as_str().unwrap()));
        std::fs::write(&path, pem).unwrap();
        flags.push(format!("--private-key={}", path.display()));
        return flags;
    }
    match inputs["consumer_secret"].as_str().unwrap_or("") {
        "" => flags.push("--empty-consumer-secret".into()),
        secret => flags.push(format!("--consumer-secret={secret}")),
    }
    let token_secret = inputs["token_secret"].as_str().unwrap_or("");
    flags.push(format!("--token-secret={token_secret}"));
    flags
}

fn sign(base_string: &str, flags: &[String], stdin: Option<&[u8]>) -> Output {
    let mut args = vec!["sign".to_owned(), format!("--base-string={base_string}")];
    args.extend(flags.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args, stdin, &[])
}

/// Every vector with a base string and its signature: (id, base string,
/// signature, vector).
fn base_string_vectors() -> Vec<(String, String, String, Value)> {
    fixture("signatures.json")
        .into_iter()
        .filter_map(|v| {
            let base_string = v["inputs"]["base_string"]
                .as_str()
                .or(v["expected"]["base_string"].as_str())?
                .to_owned();
            let signature = v["expected"]["signature"].as_str()?.to_owned();
            Some((
                v["id"].as_str().unwrap().to_owned(),
                base_string,
                signature,
                v,
            ))
        })
        .collect()
}

#[test]
fn every_vector_s_base_string_signs_to_its_signature() {
    let dir = TempDir::new("sign-base-string");
    let vectors = base_string_vectors();
    let primitives = vectors
        .iter()
        .filter(|v| v.3["kind"] == "primitive")
        .count();
    // Eleven primitives (oauth.net, oauthlib, dghubble's bare "hello world")
    // and every request vector.
    assert_eq!(primitives, 11);
    assert!(vectors.len() >= 39, "{}", vectors.len());
    let mut failures = Vec::new();
    for (id, base_string, signature, v) in &vectors {
        let mut flags = secret_flags(v, &dir);
        let plaintext = v["inputs"]["signature_method"] == "PLAINTEXT";
        if plaintext {
            flags.push("--show-secrets".into());
        }
        let out = sign(base_string, &flags, None);
        // The test RSA keys are 1024 bits: warned about, and signed.
        let weak_key = |line: &str| line.starts_with("warning: the RSA key has 1024 bits;");
        if out.code != 0 || !out.stderr.lines().all(weak_key) {
            failures.push(format!("{id}: exit {}: {}", out.code, out.stderr));
        } else if out.stdout != format!("{signature}\n") {
            failures.push(format!("{id}: got {:?}, want {signature}", out.stdout));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_rfc_and_x_docs_base_strings_give_the_correct_signatures_not_the_misprints() {
    // RFC 5849 §3.4.1.1's base string: its §3.1 signature is a misprint
    // (errata; fixtures/README), the correct one is oauthlib's.
    let rfc = vector("signatures.json", "rfc5849-3.1-and-3.4.1.1-example");
    assert_eq!(rfc["reproduces"], false);
    let dir = TempDir::new("sign-base-string-rfc");
    let out = sign(
        rfc["expected"]["base_string"].as_str().unwrap(),
        &secret_flags(&rfc, &dir),
        None,
    );
    assert_eq!(
        out.stdout, "r6/TJjbCOr97/+UU0NsvSne7s5g=\n",
        "{}",
        out.stderr
    );
    assert_ne!(
        out.stdout.trim_end(),
        rfc["published"]["signature"].as_str().unwrap()
    );
    // X's "Creating a signature": the page's base string and signature.
    let x = common::x_docs::vector();
    let flags = [
        format!("--consumer-secret={X_CONSUMER_SECRET}"),
        format!("--token-secret={X_TOKEN_SECRET}"),
    ];
    let out = sign(x["expected"]["base_string"].as_str().unwrap(), &flags, None);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=\n"),
        "{}",
        out.stderr
    );
    // The other vectors whose published signature is wrong print the
    // correct one, not it.
    for (id, base_string, signature, v) in base_string_vectors() {
        if v["reproduces"] != false {
            continue;
        }
        let published = v["published"]["signature"].as_str().unwrap();
        assert_ne!(published, signature, "{id}");
        let out = sign(&base_string, &secret_flags(&v, &dir), None);
        assert_eq!(out.stdout, format!("{signature}\n"), "{id}");
    }
}

#[test]
fn a_file_or_standard_input_is_signed_without_its_final_line_ending() {
    let x = common::x_docs::vector();
    let base_string = x["expected"]["base_string"].as_str().unwrap();
    let want = "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=\n";
    let flags = [
        format!("--consumer-secret={X_CONSUMER_SECRET}"),
        format!("--token-secret={X_TOKEN_SECRET}"),
    ];
    let dir = TempDir::new("sign-base-string-file");
    for (name, text) in [
        ("bare.txt", base_string.to_owned()),
        ("lf.txt", format!("{base_string}\n")),
        ("crlf.txt", format!("{base_string}\r\n")),
    ] {
        let path = dir.0.join(name);
        std::fs::write(&path, text).unwrap();
        let out = sign(&format!("@{}", path.display()), &flags, None);
        assert_eq!(out.stdout, want, "{name}: {}", out.stderr);
    }
    let out = sign("@-", &flags, Some(format!("{base_string}\n").as_bytes()));
    assert_eq!(out.stdout, want, "{}", out.stderr);
    // One line ending only: a second is part of what is signed.
    let path = dir.0.join("two.txt");
    std::fs::write(&path, format!("{base_string}\n\n")).unwrap();
    let out = sign(&format!("@{}", path.display()), &flags, None);
    assert_eq!(out.code, 0);
    assert_ne!(out.stdout, want);
    // The secrets from the environment.
    let out = run(
        &["sign", &format!("--base-string={base_string}")],
        None,
        &[
            ("OAUTH_CONSUMER_SECRET", X_CONSUMER_SECRET),
            ("OAUTH_TOKEN_SECRET", X_TOKEN_SECRET),
        ],
    );
    assert_eq!(out.stdout, want, "{}", out.stderr);
    // A file that cannot be read is named.
    let out = sign("@/nonexistent/base.txt", &flags, None);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("cannot read --base-string file \"/nonexistent/base.txt\""),
        "{}",
        out.stderr
    );
}

#[test]
fn a_plaintext_signature_is_printed_only_when_asked() {
    // oauth.net TestCases: PLAINTEXT of cs and ts is "cs&ts".
    let v = vector("signatures.json", "oauth-net-testcases-plaintext");
    assert_eq!(v["expected"]["signature"], "cs&ts");
    let dir = TempDir::new("sign-base-string-plaintext");
    let flags = secret_flags(&v, &dir);
    let out = sign("bs", &flags, None);
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, HIDDEN),
        "{}",
        out.stderr
    );
    assert!(!out.stderr.contains("cs&ts"));
    let mut shown = flags.clone();
    shown.push("--show-secrets".into());
    assert_eq!(sign("bs", &shown, None).stdout, "cs&ts\n");
}

#[test]
fn a_base_string_is_refused_beside_a_request_and_without_a_consumer_secret() {
    let out = run(
        &[
            "sign",
            "--base-string=bs",
            "--consumer-secret=cs",
            "https://api.x.com/2/users/me",
        ],
        None,
        &[],
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("'--base-string <TEXT|@FILE>' cannot be used with"),
        "{}",
        out.stderr
    );
    for flag in ["--example", "--format=json", "--nonce=n", "--timestamp=1"] {
        let out = run(
            &["sign", "--base-string=bs", "--consumer-secret=cs", flag],
            None,
            &[],
        );
        assert_eq!(out.code, 2, "{flag}");
        assert!(
            out.stderr.contains("cannot be used with"),
            "{flag}: {}",
            out.stderr
        );
    }
    let out = run(
        &["sign", "--base-string=bs", "--token-secret=ts"],
        None,
        &[],
    );
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no consumer secret"), "{}", out.stderr);
    // No secrets and no profile: said as what --base-string needs.
    let dir = TempDir::new("sign-base-string-none");
    let config = dir.0.join("config");
    let out = run(
        &["sign", "--base-string=bs"],
        None,
        &[("OAUTH1_CONFIG_DIR", config.to_str().unwrap())],
    );
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("--base-string needs the secrets"),
        "{}",
        out.stderr
    );
}
