//! What a new user reads, run as written: README.md's `oauth1 serve` line
//! starts a server; `oauth1 --help` says what each subcommand's exit status
//! means, and `verify` exits as it says; README.md and docs/ hold no
//! invisible character; README.md's Features table names every feature of
//! the library's Cargo.toml.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::bin::{oauth1, TempDir};
use common::exec;

fn repo_file(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).unwrap()
}

#[test]
fn the_readme_s_serve_line_runs_as_written() {
    let readme = repo_file("README.md");
    let mut lines = readme.lines();
    let line = lines
        .find(|l| l.starts_with("$ oauth1 serve "))
        .expect("README.md shows `oauth1 serve`");
    let shown = lines.next().unwrap();
    let command = line.strip_prefix("$ oauth1 ").unwrap();
    let command = command.split(" #").next().unwrap();
    // As written, but at a free port: 8080 may be taken on this machine.
    let args: Vec<String> = command
        .split_whitespace()
        .map(|a| a.replace("127.0.0.1:8080", "127.0.0.1:0"))
        .collect();
    assert!(args.iter().any(|a| a == "127.0.0.1:0"), "{line}");
    let dir = TempDir::new("readme-serve");
    let mut child = oauth1(&dir.config())
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let _ = BufReader::new(child.stdout.take().unwrap()).read_line(&mut first);
    let Some(port) = first
        .trim()
        .strip_prefix("listening on http://127.0.0.1:")
        .and_then(|p| p.parse::<u16>().ok())
    else {
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        panic!(
            "`oauth1 {command}` did not start ({}): {first:?} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    };
    // What README.md shows it printing, at the port it took.
    assert_eq!(
        shown.replace(":8080", &format!(":{port}")),
        first.trim(),
        "README.md shows the line `serve` prints first"
    );
    // It answers: an unsigned request is refused, 401.
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let _ = child.kill();
    let _ = child.wait();
    assert!(answer.starts_with("HTTP/1.1 401"), "{answer}");
}

#[test]
fn help_says_what_each_exit_status_means_and_verify_exits_so() {
    let help = exec::oauth1(&["--help"]);
    assert_eq!(help.code, 0);
    // No longer "1 I/O failure" for every subcommand: verify's 1 is "rejected".
    assert!(!help.stdout.contains("1 I/O failure."), "{}", help.stdout);
    let statuses = help
        .stdout
        .split("Exit status")
        .nth(1)
        .expect("--help says what the exit statuses mean");
    // Every subcommand --help lists has its line.
    let commands: Vec<&str> = help
        .stdout
        .split("Commands:")
        .nth(1)
        .unwrap()
        .split("Options:")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(
        commands.contains(&"verify") && commands.len() >= 9,
        "{commands:?}"
    );
    for c in &commands {
        assert!(
            statuses.lines().any(|l| l
                .split_whitespace()
                .take_while(|w| !w.starts_with('0'))
                .any(|w| w.trim_end_matches(',') == *c)),
            "{c}: {statuses}"
        );
    }
    let verify_line = statuses
        .lines()
        .find(|l| l.trim_start().starts_with("verify "))
        .unwrap();
    assert!(verify_line.contains("0 valid, 1 rejected"), "{verify_line}");
    // And verify exits so: README.md's line (valid, 0), then its header
    // with the signature changed (rejected, 1).
    let header = exec::oauth1(&["sign", "--example"]).stdout;
    let header = header.trim();
    let verify = |header: &str| {
        exec::oauth1(&[
            "verify",
            "--example",
            "--now",
            "1318622958",
            "--header",
            header,
        ])
    };
    let valid = verify(header);
    assert_eq!((valid.code, valid.stdout.trim()), (0, "valid"));
    let tampered = header.replace("oauth_nonce=\"", "oauth_nonce=\"x");
    let rejected = verify(&tampered);
    assert_eq!(rejected.code, 1, "{}", rejected.stdout);
    assert!(
        rejected.stdout.starts_with("invalid"),
        "{}",
        rejected.stdout
    );
    // docs/cli.md says the same.
    let cli_md = repo_file("docs/cli.md");
    assert!(cli_md.contains("`verify`: 0 valid, 1 rejected"));
}

#[test]
fn the_readme_and_the_docs_hold_no_invisible_character() {
    // Zero-width space, non-joiner and joiner, word joiner, BOM: a reader
    // copying a name from a table copies them too.
    let mut files = vec!["README.md".to_owned()];
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    for entry in std::fs::read_dir(docs).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            files.push(format!("docs/{name}"));
        }
    }
    for file in files {
        let text = repo_file(&file);
        for (n, line) in text.lines().enumerate() {
            let found = line
                .chars()
                .find(|c| matches!(c, '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}'));
            assert_eq!(found, None, "{file}:{}: {line}", n + 1);
        }
    }
}

#[test]
fn the_readme_names_every_feature() {
    let manifest = repo_file("Cargo.toml");
    let features = manifest
        .split("\n[features]\n")
        .nth(1)
        .unwrap()
        .split("\n[")
        .next()
        .unwrap();
    let names: Vec<&str> = features
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(" = ").map(|(n, _)| n.trim()))
        .filter(|n| *n != "default")
        .collect();
    assert!(names.contains(&"capture") && names.len() >= 8, "{names:?}");
    let readme = repo_file("README.md");
    let table = readme.split("## Features").nth(1).unwrap();
    for name in names {
        assert!(
            table.contains(&format!("| `{name}` |")),
            "README.md's Features table does not name `{name}`"
        );
    }
}

#[test]
fn docs_web_md_installs_the_wasm_bindgen_cli_that_cargo_lock_names() {
    // The version line docs/web.md gives, run as written, names the
    // wasm-bindgen of Cargo.lock; the install is not `--locked` (which
    // fails: .ci/web.sh says why).
    let web = repo_file("docs/web.md");
    let want = web
        .lines()
        .find(|l| l.starts_with("want=$("))
        .expect("docs/web.md computes the version");
    let install = web
        .lines()
        .find(|l| l.starts_with("cargo install wasm-bindgen-cli"))
        .expect("docs/web.md installs wasm-bindgen-cli");
    assert_eq!(
        install,
        "cargo install wasm-bindgen-cli --version \"$want\""
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = std::process::Command::new("bash")
        .args(["-c", &format!("{want}\nprintf %s \"$want\"")])
        .current_dir(&root)
        .output()
        .unwrap();
    let lock = repo_file("Cargo.lock");
    let version = lock
        .split("\n[[package]]\nname = \"wasm-bindgen\"\nversion = \"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("Cargo.lock has wasm-bindgen");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), version);
}
