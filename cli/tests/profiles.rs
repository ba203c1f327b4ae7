//! The profiles file and what `oauth1 authorize` and `oauth1 accounts`
//! print: concurrent logins both kept, an unwritable directory found before
//! the flow, a relative `XDG_CONFIG_HOME` ignored, a malformed file named
//! without its secrets, `accounts --remove`, the provider's text escaped,
//! and bad endpoint URLs refused as usage errors. The real binary, against
//! the loopback provider (`tests/provider/server.py`) where a flow is run.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::path::Path;
use std::process::Stdio;

use common::provider::{Provider, CONSUMER_KEY, CONSUMER_SECRET};
use serde_json::Value;

use common::bin::{oauth1, run, text, TempDir};
use common::login::{provider_login, Login};

fn saved(config: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(config.join("profiles.json")).unwrap()).unwrap()
}

#[test]
fn two_logins_at_once_both_keep_their_profile() {
    let provider = Provider::start(&[]);
    let dir = TempDir::new("concurrent");
    let config = dir.config();
    // Both are past their start (where the file used to be read) and
    // waiting for a PIN before either saves.
    let first = Login::start(provider_login(&provider, &config, &["--profile", "first"]));
    let second = Login::start(provider_login(&provider, &config, &["--profile", "second"]));
    first.finish();
    second.finish();
    let file = saved(&config);
    let names: Vec<&str> = file["profiles"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(names, ["first", "second"]);
    assert_eq!(file["default"], "first");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(config.join("profiles.json"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    // No temporary file is left behind.
    let mut left: Vec<String> = std::fs::read_dir(&config)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["profiles.json", "profiles.json.lock"]);
}

#[test]
fn an_unwritable_configuration_directory_fails_before_any_request() {
    let provider = Provider::start(&[]);
    let dir = TempDir::new("unwritable");
    // A directory under a regular file cannot be made, even by root.
    let file = dir.0.join("a-file");
    std::fs::write(&file, "").unwrap();
    let config = file.join("config");
    let out = run(provider_login(&provider, &config, &[]));
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("error: cannot create the directory ") && err.contains("a-file"),
        "{err}"
    );
    assert!(!err.contains("Open this URL"), "{err}");
    let log = provider.stop();
    assert!(!log.contains("/oauth/"), "a request was sent: {log}");
}

#[cfg(all(unix, not(target_os = "macos")))]
#[test]
fn a_relative_xdg_config_home_is_ignored() {
    let dir = TempDir::new("xdg");
    let home = dir.0.join("home");
    let cwd = dir.0.join("cwd");
    let write = |at: &Path, name: &str| {
        std::fs::create_dir_all(at).unwrap();
        let profile = serde_json::json!({"profiles": {name: {
            "consumer_key": "k", "consumer_secret": "s", "token": "t", "token_secret": "u"}}});
        std::fs::write(at.join("profiles.json"), profile.to_string()).unwrap();
    };
    write(&home.join(".config/oauth1"), "from-home");
    write(&cwd.join("relative/oauth1"), "from-cwd");
    let mut c = oauth1(&dir.0);
    c.env_remove("OAUTH1_CONFIG_DIR")
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", "relative")
        .current_dir(&cwd)
        .arg("accounts");
    let out = run(c);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "  from-home  consumer_key=k\n");
    // An absolute one is used.
    let mut c = oauth1(&dir.0);
    c.env_remove("OAUTH1_CONFIG_DIR")
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", cwd.join("relative"))
        .arg("accounts");
    assert_eq!(text(&run(c).stdout), "  from-cwd  consumer_key=k\n");
}

#[test]
fn a_profiles_file_of_the_wrong_shape_is_named_and_its_secrets_are_not() {
    let dir = TempDir::new("shape");
    let config = dir.config();
    std::fs::create_dir_all(&config).unwrap();
    for (secret, expected) in [
        // A secret that is a number, an array, a map: line 4 holds it.
        ("98765432109876", "expected a string"),
        ("[\"SECRET-IN-ARRAY\"]", "expected a string"),
        ("{\"SECRET-KEY\": \"SECRET-VALUE\"}", "expected a string"),
    ] {
        let file = format!(
            "{{\"profiles\": {{\n\"a\": {{\"consumer_key\": \"k\",\n\"token\": \"t\", \"token_secret\": \"u\",\n\"consumer_secret\": {secret}}}}}}}\n"
        );
        std::fs::write(config.join("profiles.json"), file).unwrap();
        let mut c = oauth1(&config);
        c.arg("accounts");
        let out = run(c);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(
            err.contains(" is not a profiles file: line 4, column "),
            "{err}"
        );
        assert!(err.trim_end().ends_with(expected), "{err}");
        for part in ["98765", "SECRET"] {
            assert!(!err.contains(part), "{err}");
        }
    }
}

fn two_profiles(config: &Path) {
    std::fs::create_dir_all(config).unwrap();
    let profile = |k: &str| {
        serde_json::json!({"consumer_key": k, "consumer_secret": "CS", "token": "t",
                           "token_secret": "TS"})
    };
    let file = serde_json::json!({"default": "a",
                                  "profiles": {"a": profile("ka"), "b": profile("kb")}});
    std::fs::write(config.join("profiles.json"), file.to_string()).unwrap();
}

#[test]
fn accounts_remove_deletes_one_profile_and_names_an_unknown_one() {
    let dir = TempDir::new("remove");
    let config = dir.config();
    two_profiles(&config);
    let mut c = oauth1(&config);
    c.args(["accounts", "--remove", "a"]);
    let out = run(c);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "  b  consumer_key=kb\n");
    assert!(
        text(&out.stderr).contains("no default"),
        "{}",
        text(&out.stderr)
    );
    let file = saved(&config);
    assert_eq!(file["profiles"].as_object().unwrap().len(), 1);
    assert!(file.get("default").is_none(), "{file}");

    // An unknown name: exit 1, named with its control characters escaped.
    let mut c = oauth1(&config);
    c.args(["accounts", "--remove", "no\x1b[2Jbody"]);
    let out = run(c);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("no profile named \"no\\u{1b}[2Jbody\""),
        "{err}"
    );
    assert!(!err.contains('\x1b'), "{err:?}");
    assert_eq!(saved(&config), file, "nothing changed");

    // --remove and --default together are a usage error.
    let mut c = oauth1(&config);
    c.args(["accounts", "--remove", "b", "--default", "b"]);
    assert_eq!(run(c).status.code(), Some(2));
}

#[test]
fn the_providers_text_reaches_the_terminal_escaped() {
    let hostile = "\x1b]0;pwned\x07\x1b[31m";
    let provider = Provider::start(&["--screen-name", hostile]);
    let dir = TempDir::new("escape");
    let config = dir.config();
    let (stdout, stderr) = Login::start(provider_login(&provider, &config, &[])).finish();
    let said = text(&stdout);
    assert!(
        !stdout.contains(&0x1b) && !stdout.contains(&0x07),
        "{said:?}"
    );
    assert!(!stderr.contains('\x1b'), "{stderr:?}");
    // The profile is named after the screen name, which is shown escaped.
    let shown = "\\u{1b}]0;pwned\\u{7}\\u{1b}[31m";
    assert!(
        said.starts_with(&format!(
            "authorized as @{shown}; saved as profile \"{shown}\""
        )),
        "{said}"
    );
    let mut c = oauth1(&config);
    c.arg("accounts");
    let listed = run(c);
    assert!(!listed.stdout.contains(&0x1b), "{:?}", text(&listed.stdout));
    assert!(
        text(&listed.stdout).starts_with(&format!("* {shown}  @{shown}  user_id=")),
        "{}",
        text(&listed.stdout)
    );
}

#[test]
fn an_endpoint_url_that_does_not_parse_is_a_usage_error_naming_the_flag() {
    let dir = TempDir::new("urls");
    let config = dir.config();
    // Port 1 answers nothing: had a request been tried, the error would say so.
    let good = "http://127.0.0.1:1/oauth/request_token";
    for (flag, url) in [
        ("--request-token-url", "127.0.0.1/oauth/request_token"),
        ("--authorize-url", "ftp://127.0.0.1/oauth/authorize"),
        ("--access-token-url", "http://127.0.0.1:1/a token"),
    ] {
        let mut c = oauth1(&config);
        c.args(["authorize", "--consumer-key", CONSUMER_KEY])
            .env("OAUTH_CONSUMER_SECRET", CONSUMER_SECRET)
            .args([flag, url]);
        if flag != "--request-token-url" {
            c.args(["--request-token-url", good]);
        }
        let out = run(c);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let err = text(&out.stderr);
        assert!(err.starts_with(&format!("error: {flag}: ")), "{err}");
        assert!(!err.contains("reach"), "{err}");
    }
    assert!(!config.exists(), "nothing written for a usage error");

    // A network error says which step, at which URL.
    let mut c = oauth1(&config);
    c.args(["authorize", "--consumer-key", CONSUMER_KEY])
        .env("OAUTH_CONSUMER_SECRET", CONSUMER_SECRET)
        .args(["--request-token-url", good]);
    let out = run(c);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.starts_with(&format!(
            "error: temporary credentials, --request-token-url ({good}): cannot reach the provider: "
        )),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn a_change_waits_for_the_lock_and_reads_the_file_after_it() {
    let dir = TempDir::new("lock");
    let config = dir.config();
    two_profiles(&config);
    // Hold the lock as another `oauth1` would, start a change, and change
    // the file ourselves before letting go: the change must see ours.
    let lock = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(config.join("profiles.json.lock"))
        .unwrap();
    lock.lock().unwrap();
    let mut c = oauth1(&config);
    c.args(["accounts", "--remove", "a"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = c.spawn().unwrap();
    let mut file = saved(&config);
    file["profiles"]["c"] = file["profiles"]["b"].clone();
    std::fs::write(config.join("profiles.json"), file.to_string()).unwrap();
    drop(lock);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let names: Vec<String> = saved(&config)["profiles"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(names, ["b", "c"]);
}

#[test]
fn a_token_answer_with_a_trailing_newline_is_refused_as_one() {
    let provider = Provider::start(&["--token-answer-suffix", "\n"]);
    let dir = TempDir::new("newline");
    let config = dir.config();
    let out = run(provider_login(&provider, &config, &[]));
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("error: temporary credentials, --request-token-url ("),
        "{err}"
    );
    assert!(
        err.contains("malformed token response: byte 0x0a at offset ")
            && err
                .trim_end()
                .ends_with("is not allowed in a form-encoded token answer (a trailing newline?)"),
        "{err}"
    );
    assert!(!err.contains("oauth_callback_confirmed"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn sign_and_verify_take_a_profile_as_request_does() {
    let dir = TempDir::new("profiles-sign");
    let config = dir.config();
    two_profiles(&config);
    let oauth = |args: &[&str]| {
        let mut c = oauth1(&config);
        c.args(args);
        run(c)
    };
    let pinned = ["--nonce", "n", "--timestamp", "1", "https://h/"];
    // The base string written by hand (RFC 5849 §3.4.1) and its HMAC-SHA1
    // by the test's own oracle, with profile b's secrets.
    let expected = |key: &str| {
        let base = format!(
            "GET&https%3A%2F%2Fh%2F&oauth_consumer_key%3D{key}%26oauth_nonce%3Dn\
             %26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1\
             %26oauth_token%3Dt%26oauth_version%3D1.0"
        );
        common::oracle::header_signature("CS&TS", &base)
    };
    let named = oauth(&[&["sign", "--profile", "b"][..], &pinned].concat());
    assert!(named.status.success(), "{}", text(&named.stderr));
    let header = text(&named.stdout).trim().to_owned();
    assert!(header.contains("oauth_consumer_key=\"kb\""), "{header}");
    assert!(
        header.contains(&format!("oauth_signature=\"{}\"", expected("kb"))),
        "{header}"
    );
    // No key and no --profile: the default account (a).
    let default = oauth(&[&["sign"][..], &pinned].concat());
    assert!(default.status.success(), "{}", text(&default.stderr));
    assert!(
        text(&default.stdout).contains(&format!("oauth_signature=\"{}\"", expected("ka"))),
        "{}",
        text(&default.stdout)
    );
    // verify, with the same path to the same credentials.
    let verified = oauth(&[
        "verify",
        "--profile",
        "b",
        "--now",
        "1",
        "--header",
        &header,
        "https://h/",
    ]);
    assert_eq!(
        text(&verified.stdout),
        "valid\n",
        "{}",
        text(&verified.stderr)
    );
    // Two sources at once is a usage error, naming both.
    let both = oauth(
        &[
            &["sign", "--profile", "b", "--consumer-key", "kx"][..],
            &pinned,
        ]
        .concat(),
    );
    assert_eq!(both.status.code(), Some(2));
    assert!(
        text(&both.stderr).contains("--profile and --consumer-key"),
        "{}",
        text(&both.stderr)
    );
}
