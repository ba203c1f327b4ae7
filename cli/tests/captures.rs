//! `oauth1 explain` and `oauth1 verify` on what a client sent, as each generator writes it
//! (`fixtures/captures/generators.json`: Chromium's and Firefox's "Copy as cURL" for bash and
//! cmd, Postman's and Insomnia's snippets, Chrome's and Firefox's HAR, raw HTTP/1.1; each
//! request signed by oauthlib with one known mistake or none): `verify` accepts exactly the
//! valid ones, `explain` names each mistake, and a HAR entry's answer (X's code 135) says by
//! how many seconds the client's clock is off. Every refusal of the inputs is named.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::bin::{oauth1, run, text, TempDir};
use serde_json::Value;

fn cases() -> Vec<Value> {
    let path = format!(
        "{}/../fixtures/captures/generators.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["cases"].as_array().unwrap().clone()
}

/// The arguments that give a case's capture, written to a file in `dir`.
fn capture_args(case: &Value, dir: &TempDir) -> Vec<String> {
    let id = case["id"].as_str().unwrap();
    let file = dir.0.join(format!("{id}.txt"));
    std::fs::write(&file, case["text"].as_str().unwrap()).unwrap();
    let at = format!("@{}", file.display());
    let mut args = match case["format"].as_str().unwrap() {
        "curl" => vec!["--curl".to_owned(), at],
        "har" => vec!["--har".to_owned(), at],
        "http" => vec![
            "--http".to_owned(),
            at,
            "--scheme".to_owned(),
            case["scheme"].as_str().unwrap().to_owned(),
        ],
        other => panic!("{other}"),
    };
    if let Some(n) = case["entry"].as_u64() {
        args.extend(["--entry".to_owned(), n.to_string()]);
    }
    let c = &case["credentials"];
    for (flag, field) in [
        ("--consumer-key", "consumer_key"),
        ("--consumer-secret", "consumer_secret"),
        ("--token", "token"),
        ("--token-secret", "token_secret"),
    ] {
        args.extend([flag.to_owned(), c[field].as_str().unwrap().to_owned()]);
    }
    args
}

fn oauth1_in(dir: &TempDir, args: &[String]) -> (i32, String, String) {
    let mut command = oauth1(&dir.config());
    command.args(args);
    let out = run(command);
    (
        out.status.code().unwrap(),
        text(&out.stdout),
        text(&out.stderr),
    )
}

#[test]
fn verify_accepts_exactly_the_valid_captures() {
    let dir = TempDir::new("captures-verify");
    for case in cases() {
        let id = case["id"].as_str().unwrap();
        let mut args = vec!["verify".to_owned()];
        args.extend(capture_args(&case, &dir));
        // A HAR entry is checked as of its answer's Date; the others at their timestamp.
        if let Some(now) = case["now"].as_u64().filter(|_| case["format"] != "har") {
            args.extend(["--now".to_owned(), now.to_string()]);
        }
        let (code, stdout, stderr) = oauth1_in(&dir, &args);
        let valid = case["valid"].as_bool().unwrap();
        assert_eq!(stdout.starts_with("valid\n"), valid, "{id}: {stdout}");
        match case["expect_warning"].as_str() {
            // The command does not send what was signed: rejected, or (a header the
            // generator broke) refused as malformed; the note says why either way.
            Some(warning) => {
                assert!([1, 2].contains(&code), "{id}: {stdout}{stderr}");
                assert!(
                    stderr.contains(&format!("note: {warning}: ")),
                    "{id}: {stderr}"
                );
            }
            None => assert_eq!(code, if valid { 0 } else { 1 }, "{id}: {stdout}{stderr}"),
        }
        if case["mistake"] == "clock" {
            assert!(
                stdout.contains("invalid: timestamp refused"),
                "{id}: {stdout}"
            );
            assert!(
                stderr.contains("checked as of the recorded answer's Date"),
                "{id}: {stderr}"
            );
        }
    }
}

#[test]
fn explain_names_each_mistake_and_reads_the_answer() {
    let dir = TempDir::new("captures-explain");
    for case in cases() {
        let id = case["id"].as_str().unwrap();
        let mut args = vec![
            "explain".to_owned(),
            "--format".to_owned(),
            "json".to_owned(),
        ];
        args.extend(capture_args(&case, &dir));
        let (code, stdout, stderr) = oauth1_in(&dir, &args);
        if let Some(warning) = case["expect_warning"].as_str() {
            assert!(
                stderr.contains(&format!("note: {warning}: ")),
                "{id}: {stderr}"
            );
            if code == 2 {
                // The header the generator broke does not parse: named where it breaks.
                assert!(
                    stderr.contains("the captured Authorization header: "),
                    "{id}: {stderr}"
                );
                continue;
            }
        }
        let out: Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{id}: {e}: {stdout}{stderr}"));
        let causes: Vec<&str> = out["causes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["code"].as_str().unwrap())
            .collect();
        // The nonce and timestamp are theirs: never a cause.
        assert!(
            !causes.contains(&"nonce-differs") && !causes.contains(&"timestamp-differs"),
            "{id}: {causes:?}"
        );
        match case["mistake"].as_str() {
            None | Some("clock") if case["expect_warning"].is_null() => {
                assert_eq!(
                    (code, out["match"].as_bool()),
                    (0, Some(true)),
                    "{id}: {causes:?}"
                );
            }
            None | Some("clock") => assert_eq!(code, 1, "{id}"),
            Some(mistake) => {
                assert_eq!(code, 1, "{id}");
                assert!(causes.contains(&mistake), "{id}: {causes:?}");
            }
        }
        if let Some(answer) = case["answer"].as_object() {
            let read = &out["answer"];
            assert_eq!(read["status"], answer["status"], "{id}: {stdout}");
            assert_eq!(read["errors"][0]["code"], answer["code"], "{id}: {stdout}");
            if let Some(offset) = answer.get("clock_offset_seconds") {
                assert_eq!(&read["clock_offset_seconds"], offset, "{id}: {stdout}");
            }
        }
    }
}

/// A protocol parameter's name is read decoded, as RFC 5849 §3.4.1.3.1 collects it:
/// `oauth%5Fnonce` in a query is `oauth_nonce`, and a byte search for `oauth_` misses it.
/// oauthlib's signature of `http-absolute-form-query` is over the decoded names, so the
/// same request with one name escaped is the same signed request.
#[test]
fn a_protocol_name_escaped_in_the_query_is_read_as_the_name() {
    let dir = TempDir::new("captures-escaped-name");
    let mut case = cases()
        .into_iter()
        .find(|c| c["id"] == "http-absolute-form-query")
        .unwrap();
    let text = case["text"].as_str().unwrap();
    assert!(text.contains("&oauth_nonce="));
    case["text"] = text.replacen("&oauth_nonce=", "&oauth%5Fnonce=", 1).into();
    let now = case["now"].as_u64().unwrap().to_string();
    for command in ["verify", "explain"] {
        let mut args = vec![command.to_owned()];
        args.extend(capture_args(&case, &dir));
        args.extend(["--now".to_owned(), now.clone()]);
        if command == "explain" {
            args.truncate(args.len() - 2);
        }
        let (code, stdout, stderr) = oauth1_in(&dir, &args);
        assert_eq!(code, 0, "{command}: {stdout}{stderr}");
    }
    // And in two places at once, the capture is refused by name rather than read one way.
    let text = case["text"].as_str().unwrap().replacen(
        "Host: api.example.com\r\n",
        "Host: api.example.com\r\nAuthorization: OAuth oauth_consumer_key=\"xvz1evFS4wEEPTGEFPHBog\"\r\n",
        1,
    );
    case["text"] = text.into();
    let mut args = vec!["explain".to_owned()];
    args.extend(capture_args(&case, &dir));
    let (code, _, stderr) = oauth1_in(&dir, &args);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("protocol parameters in the Authorization header and in the URL"),
        "{stderr}"
    );
}

#[test]
fn the_clock_is_said_in_seconds_for_people() {
    let dir = TempDir::new("captures-clock");
    let case = cases()
        .into_iter()
        .find(|c| c["id"] == "firefox-har-timestamp-out-of-bounds")
        .unwrap();
    let mut args = vec!["explain".to_owned()];
    args.extend(capture_args(&case, &dir));
    let (code, stdout, _) = oauth1_in(&dir, &args);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("X error 135 \"Timestamp out of bounds.\""),
        "{stdout}"
    );
    assert!(
        stdout.contains("the client's clock is 600 seconds behind the answer's Date"),
        "{stdout}"
    );
}

#[test]
fn each_refusal_is_named_with_where_it_is() {
    let dir = TempDir::new("captures-refused");
    let creds = ["--consumer-key", "ck-key", "--consumer-secret", "cs-secret"];
    let check = |args: &[&str], want: &str| {
        let mut all: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        all.extend(creds.iter().map(|s| (*s).to_owned()));
        let (code, stdout, stderr) = oauth1_in(&dir, &all);
        assert_eq!(code, 2, "{args:?}: {stdout}{stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    };
    // Two Authorization headers, at the second's offset and line, with a caret.
    check(
        &["verify", "--curl", "curl https://h/ \\\n -H 'Authorization: OAuth a=\"1\"' \\\n -H 'Authorization: OAuth a=\"2\"'"],
        "ambiguous curl command at byte 54: two Authorization headers (the first at byte 19): \
         which one a server reads cannot be known (line 3)\n   -H 'Authorization",
    );
    check(
        &["explain", "--curl", "curl 'https://h/ -H x"],
        "the ' that opens here is never closed (line 1)",
    );
    check(
        &["explain", "--curl", "curl https://h/ -d @body.json"],
        "-d at byte 16 of the curl command reads the file \"body.json\", which is not in the curl \
         command: give its content instead; --read-files lets oauth1 read it",
    );
    check(
        &[
            "explain",
            "--read-files",
            "--curl",
            "curl https://h/ -d @body.json",
        ],
        "cannot read the curl command at byte 16: -d reads the file \"body.json\": No such file",
    );
    check(
        &[
            "explain",
            "--curl",
            "curl -H \"Authorization: OAuth $TOKEN\" https://h/",
        ],
        "$TOKEN is a shell variable",
    );
    check(
        &[
            "verify",
            "--http",
            "POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 40\r\n\r\na=1",
        ],
        "the body is cut off: Content-Length says 40 bytes and 3 follow",
    );
    check(
        &["verify", "--http", "GET /p HTTP/1.1\r\nAccept: */*\r\n\r\n"],
        "there is no Host header",
    );
    check(
        &[
            "verify",
            "--http",
            "POST /p HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
        ],
        "both Content-Length and Transfer-Encoding",
    );
    let har = r#"{"log": {"entries": [
        {"request": {"method": "GET", "url": "https://h/a?oauth_token=t", "headers": []}},
        {"request": {"method": "POST", "url": "https://h/b?oauth_token=t", "headers": []}}]}}"#;
    check(
        &["explain", "--har", har],
        "2 of the HAR file's 2 entries carry OAuth 1.0a (numbers 0, 1, counted from 0): choose \
         one with --entry N:\n  0  GET https://h/a?oauth_token=t\n  1  POST https://h/b?oauth_token=t",
    );
    check(
        &["explain", "--har", har, "--entry", "5"],
        "the HAR file has no entry 5: its 2 entries are numbered from 0",
    );
    check(&["explain", "--har", "{\"log\": "], "not JSON");
    check(
        &["explain", "--curl", "curl https://h/"],
        "the captured request carries no OAuth 1.0a",
    );
    // A capture is instead of the request's flags, and of --header.
    let (code, _, stderr) = oauth1_in(
        &dir,
        &[
            "verify",
            "--curl",
            "curl https://h/",
            "--header",
            "OAuth a=\"1\"",
        ]
        .map(str::to_owned),
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
    let (code, _, stderr) = oauth1_in(
        &dir,
        &["explain", "--curl", "curl https://h/", "https://h/"].map(str::to_owned),
    );
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}

#[test]
fn the_request_flags_are_still_required_without_a_capture() {
    let dir = TempDir::new("captures-url");
    let (code, _, stderr) = oauth1_in(
        &dir,
        &[
            "verify",
            "--consumer-key",
            "ck-key",
            "--consumer-secret",
            "cs-secret",
        ]
        .map(str::to_owned),
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("required arguments were not provided"),
        "{stderr}"
    );
}

/// The arguments of a case's capture with only its secrets, as the help's and the README's
/// examples give them: the consumer key and token are the capture's.
fn with_secrets_alone(case: &Value, dir: &TempDir) -> Vec<String> {
    let all = capture_args(case, dir);
    let mut args = Vec::new();
    let mut i = 0;
    while i < all.len() {
        if all[i] == "--consumer-key" || all[i] == "--token" {
            i += 2;
            continue;
        }
        args.push(all[i].clone());
        i += 1;
    }
    args
}

#[test]
fn explain_needs_only_the_secrets_of_a_capture() {
    let dir = TempDir::new("captures-secrets-alone");
    for case in cases() {
        let id = case["id"].as_str().unwrap();
        if case["expect_warning"].is_string() {
            continue;
        }
        let mut args = vec![
            "explain".to_owned(),
            "--format".to_owned(),
            "json".to_owned(),
        ];
        args.extend(with_secrets_alone(&case, &dir));
        assert!(!args.contains(&"--consumer-key".to_owned()));
        let (code, stdout, stderr) = oauth1_in(&dir, &args);
        let out: Value =
            serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{id}: {e}: {stdout}{stderr}"));
        let causes: Vec<&str> = out["causes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["code"].as_str().unwrap())
            .collect();
        match case["mistake"].as_str() {
            None | Some("clock") => {
                assert_eq!(
                    (code, out["match"].as_bool()),
                    (0, Some(true)),
                    "{id}: {causes:?}"
                );
            }
            Some(mistake) => {
                assert_eq!(code, 1, "{id}");
                assert_eq!(causes.first(), Some(&mistake), "{id}: {causes:?}");
            }
        }
        assert!(
            stderr.contains("note: oauth_consumer_key, oauth_token, oauth_signature_method, "),
            "{id}: {stderr}"
        );
    }
    // No secret at all, and no saved account: the secrets are asked for, not the key.
    let case = &cases()[0];
    let mut args = vec!["explain".to_owned()];
    args.extend(
        with_secrets_alone(case, &dir)
            .into_iter()
            .take_while(|a| !a.starts_with("--") || !a.contains("secret")),
    );
    let (code, _, stderr) = oauth1_in(&dir, &args);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("error: no secrets: pass --consumer-secret"),
        "{stderr}"
    );
}

/// A flag that says another consumer key than the capture's is said first, as what it is;
/// the causes are those of the capture's own signature (here none).
#[test]
fn a_flag_the_capture_contradicts_is_said_first() {
    let dir = TempDir::new("captures-contradiction");
    let case = cases()
        .into_iter()
        .find(|c| c["id"] == "chromium-bash-form-post")
        .unwrap();
    let mut args = vec!["explain".to_owned()];
    args.extend(with_secrets_alone(&case, &dir));
    args.extend(["--consumer-key".to_owned(), "another-app".to_owned()]);
    let (code, stdout, stderr) = oauth1_in(&dir, &args);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.starts_with(
            "contradiction: --consumer-key says oauth_consumer_key \"another-app\" but the \
             capture was signed with oauth_consumer_key \"xvz1evFS4wEEPTGEFPHBog\"\nmatch: the \
             capture's signature is what we compute with its own values\n"
        ),
        "{stdout}"
    );
    args.extend(["--format".to_owned(), "json".to_owned()]);
    let (_, stdout, _) = oauth1_in(&dir, &args);
    let out: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(out["match"], false);
    assert_eq!(out["causes"].as_array().unwrap().len(), 0, "{stdout}");
    assert!(out["contradictions"][0]
        .as_str()
        .unwrap()
        .starts_with("--consumer-key says"));
    // From the environment, it is named so.
    let mut command = oauth1(&dir.config());
    command
        .args(&args[..args.len() - 4])
        .env("OAUTH_CONSUMER_KEY", "another-app");
    let out = run(command);
    assert!(
        text(&out.stdout).starts_with("contradiction: OAUTH_CONSUMER_KEY says"),
        "{}",
        text(&out.stdout)
    );
}

/// oauthlib's HMAC-SHA256 request (`fixtures/signatures.json`, its header as oauthlib's
/// test publishes it), with its empty consumer secret: a match, not
/// `signature-method-differs`; pinned to HMAC-SHA1, a contradiction.
#[test]
fn an_hmac_sha256_capture_matches() {
    let dir = TempDir::new("captures-hmac-sha256");
    let path = format!("{}/../fixtures/signatures.json", env!("CARGO_MANIFEST_DIR"));
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = doc["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "oauthlib-client-hmac-sha256")
        .unwrap();
    let header = v["published"]["header"].as_str().unwrap();
    let http = format!("GET / HTTP/1.1\r\nHost: example.com\r\nAuthorization: {header}\r\n\r\n");
    let args = [
        "explain",
        "--http",
        &http,
        "--scheme",
        "http",
        "--empty-consumer-secret",
    ];
    let (code, stdout, stderr) = oauth1_in(&dir, &args.map(str::to_owned));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.starts_with("match"), "{stdout}");
    let mut pinned = args.map(str::to_owned).to_vec();
    pinned.extend(["--signature-method".to_owned(), "HMAC-SHA1".to_owned()]);
    let (code, stdout, _) = oauth1_in(&dir, &pinned);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.starts_with(
            "contradiction: --signature-method says oauth_signature_method \"HMAC-SHA1\" but \
             the capture was signed with oauth_signature_method \"HMAC-SHA256\"\n"
        ),
        "{stdout}"
    );
    assert!(!stdout.contains("signature-method-differs"), "{stdout}");
}

/// docs/cli.md's and the README's example as written: `oauth1 explain --curl @copied.sh`
/// with the secrets in the environment, on Postman's snippet that left the query out.
#[test]
fn the_docs_example_runs_as_written() {
    let dir = TempDir::new("captures-docs-example");
    let case = cases()
        .into_iter()
        .find(|c| c["id"] == "postman-query-param-missing")
        .unwrap();
    let file = dir.0.join("copied.sh");
    std::fs::write(&file, case["text"].as_str().unwrap()).unwrap();
    let c = &case["credentials"];
    let mut command = oauth1(&dir.config());
    command
        .current_dir(&dir.0)
        .args(["explain", "--curl", "@copied.sh"])
        .env(
            "OAUTH_CONSUMER_SECRET",
            c["consumer_secret"].as_str().unwrap(),
        )
        .env("OAUTH_TOKEN_SECRET", c["token_secret"].as_str().unwrap());
    let out = run(command);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with("mismatch: 2 cause(s)\n\n  query-param-missing  parameters\n"),
        "{stdout}"
    );
}

/// The help's example as written, `--http @request.txt --response-body @answer.txt` with the
/// consumer secret alone: the request of `firefox-har-timestamp-out-of-bounds` (its `sent`)
/// as raw HTTP, and its HAR entry's response saved whole. The answer is read (X's 135) and
/// the clock said; without the token secret the signature is not reproduced (exit 1).
#[test]
fn the_help_s_http_example_runs_as_written() {
    let dir = TempDir::new("captures-help-example");
    let case = cases()
        .into_iter()
        .find(|c| c["id"] == "firefox-har-timestamp-out-of-bounds")
        .unwrap();
    let sent = &case["sent"];
    let url = sent["url"].as_str().unwrap();
    let body = sent["body"].as_str().unwrap();
    let request = format!(
        "{} {url} HTTP/1.1\r\nHost: api.x.com\r\nAuthorization: {}\r\nContent-Type: {}\r\n\
         Content-Length: {}\r\n\r\n{body}",
        sent["method"].as_str().unwrap(),
        sent["authorization"].as_str().unwrap(),
        sent["content_type"].as_str().unwrap(),
        body.len()
    );
    std::fs::write(dir.0.join("request.txt"), request).unwrap();
    let har: Value = serde_json::from_str(case["text"].as_str().unwrap()).unwrap();
    let response = &har["log"]["entries"][case["entry"].as_u64().unwrap() as usize]["response"];
    let mut answer = format!("HTTP/1.1 {} Unauthorized\r\n", response["status"]);
    for h in response["headers"].as_array().unwrap() {
        answer.push_str(&format!(
            "{}: {}\r\n",
            h["name"].as_str().unwrap(),
            h["value"].as_str().unwrap()
        ));
    }
    answer.push_str("\r\n");
    answer.push_str(response["content"]["text"].as_str().unwrap());
    std::fs::write(dir.0.join("answer.txt"), answer).unwrap();
    let cs = case["credentials"]["consumer_secret"].as_str().unwrap();
    let mut command = oauth1(&dir.config());
    command.current_dir(&dir.0).args([
        "explain",
        "--consumer-secret",
        cs,
        "--http",
        "@request.txt",
        "--response-body",
        "@answer.txt",
    ]);
    let out = run(command);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("X error 135"), "{stdout}");
    assert!(
        stdout.contains("the client's clock is 600 seconds behind the answer's Date"),
        "{stdout}"
    );
}

/// With a capture and no secret on the command line, the default account's secrets sign it;
/// its consumer key is pinned, and one that is not the capture's is said first.
#[test]
fn the_default_account_s_secrets_explain_a_capture() {
    let dir = TempDir::new("captures-account");
    let case = cases()
        .into_iter()
        .find(|c| c["id"] == "firefox-posix-get-query")
        .unwrap();
    let c = &case["credentials"];
    let account = |key: &str| {
        serde_json::json!({"consumer_key": key, "consumer_secret": c["consumer_secret"],
                           "token": c["token"], "token_secret": c["token_secret"]})
    };
    std::fs::create_dir_all(dir.config()).unwrap();
    let file = serde_json::json!({"default": "mine",
        "profiles": {"mine": account(c["consumer_key"].as_str().unwrap()),
                     "other": account("another-app")}});
    std::fs::write(dir.config().join("profiles.json"), file.to_string()).unwrap();
    let capture: Vec<String> = with_secrets_alone(&case, &dir)
        .into_iter()
        .take_while(|a| !a.contains("secret"))
        .collect();
    let mut args = vec!["explain".to_owned()];
    args.extend(capture.clone());
    let (code, stdout, stderr) = oauth1_in(&dir, &args);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.starts_with("match: "), "{stdout}");
    args.extend(["--profile".to_owned(), "other".to_owned()]);
    let (code, stdout, _) = oauth1_in(&dir, &args);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.starts_with(
            "contradiction: the account \"other\"'s consumer key says oauth_consumer_key \
             \"another-app\" but the capture was signed with oauth_consumer_key"
        ),
        "{stdout}"
    );
}

/// docs/cli.md: a file a curl command names is not read behind the user's back. Without
/// `--read-files` each option that reads one is refused by name (and nothing of the file is
/// printed); with it a regular file is read, and a FIFO is refused, not waited on.
#[test]
fn a_file_the_command_names_is_read_only_when_asked() {
    let dir = TempDir::new("captures-files");
    let secret = dir.0.join("secret.txt");
    std::fs::write(&secret, "root:x:0:0:SECRET-LINE\n").unwrap();
    let path = secret.display().to_string();
    let creds = ["--consumer-key", "ck", "--consumer-secret", "cs"].map(String::from);
    let explain = |extra: &[&str], command: &str| {
        let mut args: Vec<String> = vec!["explain".into()];
        args.extend(extra.iter().map(|s| (*s).to_owned()));
        args.extend(["--curl".to_owned(), command.to_owned()]);
        args.extend(creds.iter().cloned());
        oauth1_in(&dir, &args)
    };
    for (command, option) in [
        (format!("curl https://h/ -d @{path}"), "-d"),
        (
            format!("curl https://h/ --data-binary @{path}"),
            "--data-binary",
        ),
        (
            format!("curl https://h/ --data-urlencode n@{path}"),
            "--data-urlencode",
        ),
        (format!("curl https://h/ -H @{path}"), "-H"),
        (format!("curl https://h/ -T {path}"), "-T"),
        (format!("curl https://h/ -d @- < {path}"), "-d"),
    ] {
        let (code, stdout, stderr) = explain(&[], &command);
        assert_eq!(code, 2, "{command}: {stdout}{stderr}");
        assert!(
            stderr.contains(&format!("{option} at byte")) && stderr.contains("--read-files"),
            "{command}: {stderr}"
        );
        assert!(
            !stdout.contains("SECRET-LINE") && !stderr.contains("SECRET-LINE"),
            "{command}: {stdout}{stderr}"
        );
    }
    // Asked, a regular file is read (and said to be).
    let (_, stdout, stderr) = explain(&["--read-files"], &format!("curl https://h/ -d @{path}"));
    assert!(stderr.contains("reads the file"), "{stdout}{stderr}");
    // A FIFO nobody writes to: refused by its type, never opened for a read that waits.
    let fifo = dir.0.join("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let mut command = oauth1(&dir.config());
    command
        .args(["explain", "--read-files", "--curl"])
        .arg(format!("curl https://h/ --data-binary @{}", fifo.display()))
        .args(&creds)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = command.spawn().unwrap();
    // Bounded so that a read that blocks fails the test instead of hanging it.
    let mut polls = 0;
    while child.try_wait().unwrap().is_none() {
        polls += 1;
        if polls > 600 {
            child.kill().unwrap();
            panic!("--data-binary @FIFO blocked");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a regular file"),
        "{}",
        text(&out.stderr)
    );
}
