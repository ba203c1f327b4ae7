//! `oauth1 authorize`, `oauth1 accounts` and `oauth1 request`, the real
//! binary against the real loopback provider (`tests/provider/server.py`,
//! whose checks are Python oauthlib's).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::provider::{Provider, ACCESS_TOKEN, CONSUMER_KEY, CONSUMER_SECRET};
use serde_json::{json, Value};

use common::bin::{browse, oauth1, run, text, TempDir, BIN};
use common::login::{provider_login, Login};

/// Runs `oauth1 authorize` against the provider: reads the URL it prints,
/// "approves" by fetching the PIN, types it. Returns stdout.
fn authorize(provider: &Provider, config: &Path, extra: &[&str]) -> String {
    let login = Login::start(provider_login(provider, config, extra));
    let base = &provider.base;
    assert!(
        login
            .url
            .starts_with(&format!("{base}/oauth/authorize?oauth_token=")),
        "{}",
        login.url
    );
    let pin = browse(&login.url);
    assert_eq!(pin.len(), 7, "{pin}");
    text(&login.finish_with(&pin).0)
}

#[test]
fn authorize_saves_a_private_profile_that_request_signs_with() {
    let provider = Provider::start(&[]);
    let base = provider.base.clone();
    let dir = TempDir::new("flow");
    let config = &dir.config();

    let said = authorize(&provider, config, &[]);
    assert!(
        said.starts_with(
            "authorized as @oauth1_signer_test; saved as profile \"oauth1_signer_test\""
        ),
        "{said}"
    );
    let file = config.join("profiles.json");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(saved["default"], "oauth1_signer_test");
    let profile = &saved["profiles"]["oauth1_signer_test"];
    assert_eq!(profile["consumer_key"], CONSUMER_KEY);
    assert_eq!(profile["user_id"], "1000000001");
    let token = profile["token"].as_str().unwrap().to_owned();
    let token_secret = profile["token_secret"].as_str().unwrap().to_owned();
    assert_eq!((token.len(), token_secret.len()), (30, 30));

    // A second login under another name; the first stays the default.
    authorize(&provider, config, &["--profile", "second"]);
    let listed = run({
        let mut c = oauth1(config);
        c.arg("accounts");
        c
    });
    assert!(listed.status.success());
    assert_eq!(
        text(&listed.stdout),
        "* oauth1_signer_test  @oauth1_signer_test  user_id=1000000001  consumer_key=test-consumer-key-0001\n\
         \x20 second  @oauth1_signer_test  user_id=1000000001  consumer_key=test-consumer-key-0001\n"
    );
    assert!(!text(&listed.stdout).contains(&token_secret));

    let request = |args: &[&str]| {
        let mut c = oauth1(config);
        c.arg("request").args(args);
        run(c)
    };
    let body = |out: &Output| -> Value { serde_json::from_slice(&out.stdout).unwrap() };

    // GET with a query, from the default profile.
    let got = request(&[&format!("{base}/2/users/me?user.fields=id,name&q=a%20b")]);
    assert!(got.status.success(), "{}", text(&got.stderr));
    assert_eq!(body(&got)["oauth_token"], token.as_str());
    assert_eq!(
        body(&got)["query"],
        json!([["user.fields", "id,name"], ["q", "a b"]])
    );

    // POST with a form body from two -d, signed.
    let posted = request(&[
        "--profile",
        "oauth1_signer_test",
        "-d",
        "status=Hello%20Ladies%20%2b%20Gentlemen",
        "-d",
        "lang=en",
        &format!("{base}/1.1/statuses/update.json"),
    ]);
    assert!(posted.status.success(), "{}", text(&posted.stderr));
    assert_eq!(body(&posted)["method"], "POST");
    assert_eq!(
        body(&posted)["form"],
        json!([["status", "Hello Ladies + Gentlemen"], ["lang", "en"]])
    );

    // POST with a JSON body, not signed; -i prints the status and headers;
    // --trace prints the stages, no secret, to stderr.
    let tweeted = request(&[
        "-i",
        "--trace",
        "--profile",
        "second",
        "--json",
        r#"{"text":"hello"}"#,
        &format!("{base}/2/tweets"),
    ]);
    assert!(tweeted.status.success(), "{}", text(&tweeted.stderr));
    let out = text(&tweeted.stdout);
    assert!(out.starts_with("HTTP/1.1 200 OK\n"), "{out}");
    assert!(out.contains("\ncontent-type: application/json\n"), "{out}");
    let json_body = out.split("\n\n").nth(1).unwrap();
    let echoed: Value = serde_json::from_str(json_body).unwrap();
    assert_eq!(echoed["json"], json!({"text": "hello"}));
    let trace = text(&tweeted.stderr);
    assert!(trace.contains("base string"), "{trace}");
    assert!(trace.contains("&http%3A%2F%2F127.0.0.1%3A"), "{trace}");
    assert!(
        !trace.contains("hello"),
        "a JSON body is not signed: {trace}"
    );
    assert!(!trace.contains(CONSUMER_SECRET), "{trace}");
    let second_secret = saved_secret(config, "second");
    assert!(!trace.contains(&second_secret), "{trace}");

    // In the query (RFC 5849 §3.5.3), which the provider accepts: the trace
    // shows the request as given and the URL as sent, and no header, since
    // none is sent.
    let queried = request(&[
        "--trace",
        "--transmission",
        "query",
        &format!("{base}/2/users/me?user.fields=id"),
    ]);
    assert!(queried.status.success(), "{}", text(&queried.stderr));
    assert_eq!(body(&queried)["oauth_token"], token.as_str());
    let trace = text(&queried.stderr);
    assert!(
        trace.starts_with(&format!(
            "request:\n  GET {base}/2/users/me?user.fields=id\n"
        )),
        "{trace}"
    );
    assert!(
        trace.contains(&format!(
            "\nsent in the query (RFC 5849 §3.5.3):\n  {base}/2/users/me?user.fields=id&oauth_consumer_key="
        )),
        "{trace}"
    );
    assert!(!trace.contains("Authorization header"), "{trace}");

    // The same command again (a retry): signed afresh, accepted again.
    for _ in 0..2 {
        let again = request(&["-X", "DELETE", &format!("{base}/2/tweets/1")]);
        assert!(again.status.success(), "{}", text(&again.stdout));
        assert_eq!(body(&again)["method"], "DELETE");
    }

    // Credentials from the environment: a wrong secret is refused, exit 1,
    // the provider's JSON printed.
    let mut wrong = oauth1(config);
    wrong
        .args(["request", &format!("{base}/2/users/me")])
        .env("OAUTH_CONSUMER_KEY", CONSUMER_KEY)
        .env("OAUTH_CONSUMER_SECRET", "not-the-secret")
        .env("OAUTH_TOKEN", ACCESS_TOKEN)
        .env("OAUTH_TOKEN_SECRET", "not-the-token-secret");
    let refused = run(wrong);
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(body(&refused)["oauthlib_error"], "signature mismatch");
    assert_eq!(body(&refused)["errors"][0]["code"], 32);

    // No such profile: exit 2, one line.
    let missing = request(&["--profile", "nobody", &format!("{base}/2/users/me")]);
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        text(&missing.stderr),
        "error: no profile named \"nobody\" (`oauth1 accounts` lists them)\n"
    );

    // `accounts --default` switches the default.
    let mut switch = oauth1(config);
    switch.args(["accounts", "--default", "second"]);
    let switched = run(switch);
    assert!(
        text(&switched.stdout).contains("* second"),
        "{}",
        text(&switched.stdout)
    );
    let got = request(&[&format!("{base}/2/users/me")]);
    assert_eq!(
        body(&got)["oauth_token"],
        saved_token(config, "second").as_str()
    );

    let log = provider.stop();
    assert!(
        !log.contains(&token_secret) && !log.contains(CONSUMER_SECRET),
        "{log}"
    );
}

fn saved(config: &Path, name: &str, field: &str) -> String {
    let file = std::fs::read_to_string(config.join("profiles.json")).unwrap();
    let saved: Value = serde_json::from_str(&file).unwrap();
    saved["profiles"][name][field].as_str().unwrap().to_owned()
}

fn saved_secret(config: &Path, name: &str) -> String {
    saved(config, name, "token_secret")
}

fn saved_token(config: &Path, name: &str) -> String {
    saved(config, name, "token")
}

#[test]
fn a_network_error_is_one_line_and_exit_2() {
    let dir = TempDir::new("net");
    // Port 1 on loopback: nothing listens there.
    let mut c = oauth1(&dir.config());
    // A long query: the error names the server, not the whole URL.
    let url = format!("http://127.0.0.1:1/2/users/me?q={}", "x".repeat(5000));
    c.args(["request", &url])
        .env("OAUTH_CONSUMER_KEY", CONSUMER_KEY)
        .env("OAUTH_CONSUMER_SECRET", CONSUMER_SECRET);
    let out = run(c);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: cannot reach http://127.0.0.1:1: "),
        "{err}"
    );
    // The cause, not only reqwest's "error sending request".
    assert!(err.to_lowercase().contains("refused"), "{err}");
    assert!(err.len() < 500, "{err}");
    assert!(!err.contains(CONSUMER_SECRET));
    assert!(out.stdout.is_empty());
}

#[test]
fn without_credentials_or_profiles_request_says_how_to_get_them() {
    let dir = TempDir::new("none");
    let mut c = oauth1(&dir.config());
    c.args(["request", "/2/users/me"]);
    let out = run(c);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("oauth1 authorize"), "{err}");
    let mut c = oauth1(&dir.config());
    c.arg("accounts");
    assert_eq!(
        text(&run(c).stdout),
        "no saved accounts (log in with `oauth1 authorize`)\n"
    );
}

/// `oauth1 request` with the provider's access token from the environment.
fn signed_request(config: &Path, args: &[&str]) -> Command {
    let mut c = oauth1(config);
    c.arg("request")
        .args(args)
        .env("OAUTH_CONSUMER_KEY", CONSUMER_KEY)
        .env("OAUTH_CONSUMER_SECRET", CONSUMER_SECRET)
        .env("OAUTH_TOKEN", ACCESS_TOKEN)
        .env("OAUTH_TOKEN_SECRET", common::provider::ACCESS_SECRET);
    c
}

/// `{base}/2/redirect`, verified by the provider (its nonce spent) before
/// it answers `status` with `Location: to`.
fn redirect_url(base: &str, status: u16, to: &str) -> String {
    format!(
        "{base}/2/redirect?status={status}&to={}",
        oauth1_signer::text::percent_encode_str(to)
    )
}

#[test]
fn request_follows_a_same_origin_redirect_signed_afresh_and_shows_every_hop() {
    let provider = Provider::start(&[]);
    let base = provider.base.clone();
    let dir = TempDir::new("redirect");
    // 307 keeps the POST and its signed form body; 302 turns it into a GET.
    for (status, reason, method, form) in [
        (
            307,
            "Temporary Redirect",
            "POST",
            json!([["status", "moved along"]]),
        ),
        (302, "Found", "GET", Value::Null),
    ] {
        let url = redirect_url(&base, status, "/2/users/me?hop=2");
        let out = run(signed_request(
            &dir.config(),
            &["-i", "-d", "status=moved%20along", &url],
        ));
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        let hops: Vec<&str> = stdout.lines().filter(|l| l.starts_with("HTTP/")).collect();
        assert_eq!(
            hops,
            [
                format!("HTTP/1.1 {status} {reason}"),
                "HTTP/1.1 200 OK".into()
            ],
            "{stdout}"
        );
        assert!(
            stdout.contains("\nlocation: /2/users/me?hop=2\n"),
            "{stdout}"
        );
        let body: Value = serde_json::from_str(stdout.rsplit("\n\n").next().unwrap()).unwrap();
        assert_eq!(body["method"], method);
        assert_eq!(body["query"], json!([["hop", "2"]]));
        assert_eq!(body["form"], form);
    }
    let log = provider.stop();
    assert_eq!(log.matches(" 401").count(), 0, "{log}");
}

#[test]
fn request_stops_at_a_redirect_to_another_origin_and_names_it() {
    let provider = Provider::start(&[]);
    let base = provider.base.clone();
    let port = base.rsplit(':').next().unwrap();
    let dir = TempDir::new("cross");
    let elsewhere = format!("http://localhost:{port}/2/users/me");
    let out = run(signed_request(
        &dir.config(),
        &["-i", &redirect_url(&base, 301, &elsewhere)],
    ));
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("HTTP/1.1 301 Moved Permanently\n"),
        "{stdout}"
    );
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains(&format!("Location: {elsewhere}")), "{err}");
    let log = provider.stop();
    assert!(!log.contains("GET /2/users/me"), "followed: {log}");
}

#[test]
fn request_refuses_headers_the_signer_or_the_client_owns() {
    let dir = TempDir::new("headers");
    // Nothing listens on port 1: each is refused before anything is sent.
    let url = "http://127.0.0.1:1/2/users/me";
    for (header, extra, name) in [
        ("Host: api.x.com", &[][..], "host"),
        ("content-length: 5", &[], "content-length"),
        ("Transfer-Encoding: chunked", &[], "transfer-encoding"),
        ("Authorization: OAuth x", &[], "authorization"),
        ("Content-Type: text/plain", &["-d", "a=1"], "content-type"),
        (
            "Content-Type: application/json",
            &["--json", "{}"],
            "content-type",
        ),
    ] {
        let out = run(signed_request(
            &dir.config(),
            &[&["-H", header], extra, &[url]].concat(),
        ));
        assert_eq!(out.status.code(), Some(2), "{header}");
        let err = text(&out.stderr);
        assert!(
            err.starts_with(&format!("error: -H {name}: ")),
            "{header}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // A form Content-Type with a charset replaces the default, still signed.
    let provider = Provider::start(&[]);
    let out = run(signed_request(
        &dir.config(),
        &[
            "-H",
            "Content-Type: application/x-www-form-urlencoded; charset=utf-8",
            "-d",
            "status=hi",
            &format!("{}/1.1/statuses/update.json", provider.base),
        ],
    ));
    assert!(out.status.success(), "{}", text(&out.stdout));
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["form"], json!([["status", "hi"]]));
}

#[test]
fn request_writes_the_body_as_it_arrives() {
    let provider = Provider::start(&[]);
    let base = provider.base.clone();
    let dir = TempDir::new("stream");
    let mut child = signed_request(&dir.config(), &[&format!("{base}/2/stream")])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(first, "first\n");
    // The provider sends the rest only once asked: a client holding the
    // body whole would still be waiting (and get "not released").
    assert_eq!(browse(&format!("{base}/release")), "released");
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "released\n");
    assert!(child.wait().unwrap().success());
}

#[test]
fn request_signs_with_an_rsa_key_as_sign_does() {
    let keys = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/keys/");
    let public = format!("{keys}oauthlib_tests_rsa_public.pem");
    let provider = Provider::start(&["--rsa-public-key", &public]);
    let dir = TempDir::new("rsa");
    let url = format!("{}/2/users/me", provider.base);
    let rsa = |method: &str, key: &str| {
        let mut c = oauth1(&dir.config());
        // No consumer secret: an RSA signature is made with the key alone.
        c.args(["request", "--consumer-key", CONSUMER_KEY])
            .args(["--token", ACCESS_TOKEN, "--signature-method", method])
            .args(["--private-key", &format!("{keys}{key}"), &url]);
        run(c)
    };
    for method in ["RSA-SHA1", "RSA-SHA256"] {
        let out = rsa(method, "oauthlib_tests_rsa_pkcs1.pem");
        assert!(
            out.status.success(),
            "{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let body: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(body["signature_method"], method);
        assert_eq!(body["oauth_token"], ACCESS_TOKEN);
    }
    // Another key does not verify.
    let out = rsa("RSA-SHA1", "oauth_net_testcases_rsa_pkcs8.pem");
    assert_eq!(out.status.code(), Some(1));
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["oauthlib_error"], "signature mismatch");
}

/// The SHA-1 of `bytes`, in hex.
fn sha1_hex(bytes: &[u8]) -> String {
    use sha1::Digest as _;
    sha1::Sha1::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn request_uploads_media_in_chunks_with_unsigned_multipart_appends() {
    let provider = Provider::start(&[]);
    let url = format!("{}/1.1/media/upload.json", provider.base);
    let dir = TempDir::new("media");
    std::fs::create_dir_all(dir.config()).unwrap();
    // Two segments, one with every byte value and CRLFs in it.
    let segments: [Vec<u8>; 2] = [
        (0..=255u8).chain(*b"\r\n--\r\n").collect(),
        b"tail".to_vec(),
    ];
    let total: usize = segments.iter().map(Vec::len).sum();
    let ok_json = |out: Output| -> Value {
        assert!(
            out.status.success(),
            "{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let init = ok_json(run(signed_request(
        &dir.config(),
        &[
            "-d",
            &format!("command=INIT&total_bytes={total}&media_type=video%2Fmp4"),
            &url,
        ],
    )));
    let id = init["media_id_string"].as_str().unwrap().to_owned();
    for (i, segment) in segments.iter().enumerate() {
        let file = dir.config().join(format!("segment{i}"));
        std::fs::write(&file, segment).unwrap();
        let out = run(signed_request(
            &dir.config(),
            &[
                "-i",
                "-F",
                "command=APPEND",
                "-F",
                &format!("media_id={id}"),
                "-F",
                &format!("segment_index={i}"),
                "-F",
                &format!("media=@{}", file.display()),
                &url,
            ],
        ));
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        assert!(stdout.starts_with("HTTP/1.1 204 No Content\n"), "{stdout}");
    }
    let finalized = ok_json(run(signed_request(
        &dir.config(),
        &["-d", &format!("command=FINALIZE&media_id={id}"), &url],
    )));
    assert_eq!(finalized["size"], total);
    assert_eq!(finalized["processing_info"]["state"], "pending");
    let status = format!("{url}?command=STATUS&media_id={id}");
    let polled = ok_json(run(signed_request(&dir.config(), &[&status])));
    assert_eq!(polled["processing_info"]["state"], "in_progress");
    let polled = ok_json(run(signed_request(&dir.config(), &[&status])));
    assert_eq!(polled["processing_info"]["state"], "succeeded");
    assert_eq!(polled["sha1"], sha1_hex(&segments.concat()));
}

#[test]
fn request_writes_raw_bytes_to_a_pipe_and_escapes_them_on_a_terminal() {
    let provider = Provider::start(&[]);
    let dir = TempDir::new("raw");
    let body = b"a\x1b[31mb\tc\r\nd\x07\xc3\xa9\xff";
    let hexed: String = body.iter().map(|b| format!("{b:02x}")).collect();
    let url = format!("{}/2/raw?hex={hexed}", provider.base);
    // A pipe gets the bytes as they came.
    let out = run(signed_request(&dir.config(), &[&url]));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(out.stdout, body);
    // A terminal (a pty, through script(1)) gets control characters but
    // newline and tab escaped, and a final newline; the pty itself turns
    // each "\n" into "\r\n".
    let c = signed_request(&dir.config(), &[]);
    let line = format!("'{BIN}' request '{url}'");
    let mut script = Command::new("script");
    script.args(["-qec", &line, "/dev/null"]);
    for (k, v) in c.get_envs() {
        match v {
            Some(v) => script.env(k, v),
            None => script.env_remove(k),
        };
    }
    let out = run(script);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "a\\u{1b}[31mb\tc\\r\r\nd\\u{7}é\\xff\r\n"
    );
}
