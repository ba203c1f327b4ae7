//! Differential tests: our base strings, signatures and whole `Authorization`
//! headers against two OAuth 1.0a implementations this project did not write,
//! on seeded random requests.
//!
//! - Python `oauthlib` (tests/peers/oauthlib_peer.py)
//! - npm `oauth-1.0a` with Node's `crypto` (tests/peers/oauth_1_0a_peer.js)
//!
//! Install them with `python3 -m pip install -r tests/peers/requirements.txt`
//! and `npm ci --prefix tests/peers` (`.ci/run` does). Each peer gets 1,500
//! requests drawn from one generator (`tests/common/generator/`, checked by
//! `tests/differential_generator.rs`); the classes of input a peer is known to
//! get wrong (tests/peers/README.md, with evidence) are switched off for that
//! peer only, each with a comment naming the deviation. Everything else must
//! agree byte for byte: base string URI, normalised parameters, base string,
//! signature, and the header's pairs (realm included; the order of the
//! protocol parameters is free, RFC 5849 §3.5.1).
//!
//! About one request in ten is one this crate must refuse (a realm holding
//! `"` or `\`, a query or body parameter named `oauth_*`, an empty nonce, a
//! timestamp that is not a positive integer, a bracketed host that is not an
//! IPv6 address, port 0). For those the test asserts the refusal, by its
//! kind, instead of comparing.
//!
//! The seed is printed; replay a run with `OAUTH1_DIFF_SEED=<seed>`, or try a
//! fresh one with `OAUTH1_DIFF_SEED=random`. `OAUTH1_PYTHON` and
//! `OAUTH1_NODE` choose the interpreters (default `python3`, `node`).
#![cfg(feature = "json")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::generator::{batch, is_unreserved, Profile, DEFAULT_SEED, OAUTHLIB, OAUTH_1_0A};
use common::peers::{peer_script, run_peer, INSTALL};
use oauth1_signer::{Error, RequestSpec};
use serde_json::Value;

/// What we and a peer are compared on.
#[derive(Debug, PartialEq)]
struct Signed {
    base_string_uri: String,
    normalized_params: String,
    base_string: String,
    signature: String,
    header: String,
}

fn ours(request: &Value) -> Result<Signed, Error> {
    let spec = RequestSpec::from_json(&request.to_string()).unwrap();
    let trace = spec.trace()?;
    Ok(Signed {
        base_string_uri: trace.base_string_uri,
        normalized_params: trace.normalized_params,
        base_string: trace.base_string,
        signature: trace.signature.to_string(),
        header: trace.authorization_header,
    })
}

fn theirs(answer: &Value) -> Result<Signed, String> {
    if let Some(e) = answer.get("error") {
        return Err(e.as_str().unwrap_or_default().to_string());
    }
    let field = |k: &str| answer[k].as_str().unwrap_or_default().to_string();
    Ok(Signed {
        base_string_uri: field("base_string_uri"),
        normalized_params: field("normalized_params"),
        base_string: field("base_string"),
        signature: field("signature"),
        header: field("authorization_header"),
    })
}

/// The pairs of an `OAuth ...` header as written (names and values still
/// percent-encoded), read strictly: `OAuth `, then `name="value"` pairs
/// joined by exactly `, `. A value ends at the next `"`: a realm holds no
/// `"` or `\`, and every other value is percent-encoded.
fn header_pairs(header: &str) -> Result<Vec<(String, String)>, String> {
    let mut rest = header
        .strip_prefix("OAuth ")
        .ok_or_else(|| format!("not an OAuth header: {header:?}"))?;
    let mut pairs = Vec::new();
    loop {
        let eq = rest
            .find("=\"")
            .ok_or_else(|| format!("no `=\"` in {rest:?}"))?;
        let name = &rest[..eq];
        if name.is_empty() || !name.bytes().all(|b| is_unreserved(b) || b == b'%') {
            return Err(format!("bad parameter name {name:?} in {header:?}"));
        }
        let after = &rest[eq + 2..];
        let close = after
            .find('"')
            .ok_or_else(|| format!("unterminated value in {header:?}"))?;
        pairs.push((name.to_string(), after[..close].to_string()));
        rest = &after[close + 1..];
        if rest.is_empty() {
            return Ok(pairs);
        }
        rest = rest
            .strip_prefix(", ")
            .ok_or_else(|| format!("expected `, ` at {rest:?} in {header:?}"))?;
    }
}

/// Takes the realm out of a header's pairs: it must come first, once.
fn take_realm(pairs: &mut Vec<(String, String)>) -> Result<Option<String>, String> {
    match pairs.iter().position(|(n, _)| n == "realm") {
        None => Ok(None),
        Some(0) if pairs.iter().filter(|(n, _)| n == "realm").count() == 1 => {
            Ok(Some(pairs.remove(0).1))
        }
        Some(_) => Err("realm is not first, or is there twice".into()),
    }
}

/// Compares two `Authorization` headers pair by pair, values as written.
/// The realm must be the request's, first; a peer that writes no empty realm
/// is held to exactly that. The protocol parameters may come in any order
/// (oauthlib keeps its own; we and oauth-1.0a sort by name), each once, each
/// `oauth_*`.
fn compare_headers(request: &Value, p: Profile, ours: &str, theirs: &str) -> Result<(), String> {
    let realm = request.get("realm").and_then(Value::as_str);
    let mut mine = header_pairs(ours)?;
    let mut peer = header_pairs(theirs)?;
    let my_realm = take_realm(&mut mine)?;
    let peer_realm = take_realm(&mut peer).map_err(|e| format!("peer: {e}"))?;
    if my_realm.as_deref() != realm {
        return Err(format!("our realm {my_realm:?}, the request's {realm:?}"));
    }
    let want_peer_realm = match realm {
        // H-EMPTY-REALM: the peer leaves an empty realm out.
        Some("") if !p.writes_empty_realm => None,
        r => r,
    };
    if peer_realm.as_deref() != want_peer_realm {
        return Err(format!(
            "peer realm {peer_realm:?}, expected {want_peer_realm:?}"
        ));
    }
    for (who, pairs) in [("ours", &mine), ("peer", &peer)] {
        let mut names: Vec<&str> = pairs.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_unstable();
        if names.windows(2).any(|w| w[0] == w[1]) || names.iter().any(|n| !n.starts_with("oauth_"))
        {
            return Err(format!("{who}: a name twice, or not oauth_*: {names:?}"));
        }
    }
    mine.sort();
    peer.sort();
    if mine != peer {
        return Err("the protocol parameters differ".into());
    }
    Ok(())
}

fn seed() -> u64 {
    match std::env::var("OAUTH1_DIFF_SEED").as_deref() {
        Err(_) => DEFAULT_SEED,
        Ok("random") => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64,
        Ok(s) => s
            .parse()
            .unwrap_or_else(|_| panic!("OAUTH1_DIFF_SEED must be a number or 'random', not {s:?}")),
    }
}

/// One line of a failure report, short even for requests of kilobytes.
fn shorten(text: &str) -> String {
    if text.len() <= 600 {
        return text.to_string();
    }
    let cut = |mut i: usize| {
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    format!(
        "{} … ({} bytes) … {}",
        &text[..cut(300)],
        text.len(),
        &text[cut(text.len() - 200)..]
    )
}

fn differential(peer: &str, program: &str, script: &str, profile: Profile) {
    let seed = seed();
    println!("{peer}: seed {seed} (replay with OAUTH1_DIFF_SEED={seed})");
    let cases = batch(seed, profile);
    let requests: Vec<Value> = cases.iter().map(|c| c.request.clone()).collect();
    let answers =
        run_peer(program, &peer_script(script), &requests).unwrap_or_else(|e| panic!("{e}"));

    let mut failures = Vec::new();
    let (mut compared, mut refused) = (0, 0);
    for (case, answer) in cases.iter().zip(&answers) {
        let request = &case.request;
        let mine = ours(request);
        let problem = match (case.refusal, &mine) {
            (Some(refusal), Err(e)) => {
                refused += 1;
                refusal.check(request, e).err()
            }
            (Some(refusal), Ok(_)) => Some(format!("signed, but must be refused ({refusal:?})")),
            (None, Err(e)) => Some(format!("we refused it: {e}")),
            (None, Ok(mine)) => {
                compared += 1;
                match theirs(answer) {
                    Err(e) => Some(format!("{peer} refused it: {e}")),
                    Ok(t) => {
                        let mut differ: Vec<String> = [
                            ("base string URI", &mine.base_string_uri, &t.base_string_uri),
                            (
                                "normalized parameters",
                                &mine.normalized_params,
                                &t.normalized_params,
                            ),
                            ("base string", &mine.base_string, &t.base_string),
                            ("signature", &mine.signature, &t.signature),
                        ]
                        .into_iter()
                        .filter(|(_, a, b)| a != b)
                        .map(|(what, a, b)| {
                            format!(
                                "{what}:\n    ours:   {}\n    {peer}: {}",
                                shorten(a),
                                shorten(b)
                            )
                        })
                        .collect();
                        if let Err(e) = compare_headers(request, profile, &mine.header, &t.header) {
                            differ.push(format!(
                                "header ({e}):\n    ours:   {}\n    {peer}: {}",
                                shorten(&mine.header),
                                shorten(&t.header)
                            ));
                        }
                        (!differ.is_empty()).then(|| differ.join("\n  "))
                    }
                }
            }
        };
        if let Some(problem) = problem {
            failures.push(format!(
                "request {}\n  {problem}",
                shorten(&request.to_string())
            ));
        }
    }
    println!(
        "{peer}: {} of {} requests agree: {compared} compared with {peer} (base string, signature, header), {refused} refused as they must be",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(compared >= 1000, "only {compared} requests compared");
    assert!(
        failures.is_empty(),
        "{} of {} requests fail against {peer} (seed {seed}); first ones:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn agrees_with_oauthlib() {
    let python = std::env::var("OAUTH1_PYTHON").unwrap_or_else(|_| "python3".into());
    differential("oauthlib", &python, "oauthlib_peer.py", OAUTHLIB);
}

#[test]
fn agrees_with_oauth_1_0a() {
    let node = std::env::var("OAUTH1_NODE").unwrap_or_else(|_| "node".into());
    differential("oauth-1.0a", &node, "oauth_1_0a_peer.js", OAUTH_1_0A);
}

#[test]
fn a_missing_peer_says_how_to_install_it() {
    let requests: Vec<Value> = batch(DEFAULT_SEED, OAUTH_1_0A)
        .into_iter()
        .map(|c| c.request)
        .collect();
    // No interpreter.
    let e = run_peer(
        "/nonexistent/python3",
        &peer_script("oauthlib_peer.py"),
        &requests,
    )
    .unwrap_err();
    assert!(e.contains(INSTALL) && e.contains("cannot start"), "{e}");
    // No script.
    let python = std::env::var("OAUTH1_PYTHON").unwrap_or_else(|_| "python3".into());
    let e = run_peer(&python, &peer_script("no_such_peer.py"), &requests).unwrap_err();
    assert!(e.contains(INSTALL), "{e}");
    // No node_modules: the peer, copied where `require('oauth-1.0a')` finds
    // nothing, dies before reading its (megabytes of) input.
    let dir = std::env::temp_dir().join(format!("oauth1-signer-no-peers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("oauth_1_0a_peer.js");
    std::fs::copy(peer_script("oauth_1_0a_peer.js"), &script).unwrap();
    let node = std::env::var("OAUTH1_NODE").unwrap_or_else(|_| "node".into());
    let e = run_peer(&node, &script, &requests).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(e.contains(INSTALL), "{e}");
    assert!(
        e.contains("oauth-1.0a") || e.contains("cannot start"),
        "the message should say what is missing: {e}"
    );
}

#[test]
fn header_pairs_reads_what_both_peers_write() {
    // Written by hand from oauthlib's prepare_headers and oauth-1.0a's toHeader.
    let pairs = header_pairs(r#"OAuth realm="a, b=c", oauth_nonce="n%22", oauth_signature="x%3D""#)
        .unwrap();
    assert_eq!(
        pairs,
        [
            ("realm".to_string(), "a, b=c".to_string()),
            ("oauth_nonce".to_string(), "n%22".to_string()),
            ("oauth_signature".to_string(), "x%3D".to_string()),
        ]
    );
    for bad in [
        "OAuth",
        "Basic a=\"b\"",
        "OAuth a=\"b\",c=\"d\"",
        "OAuth a=\"b\", ",
        "OAuth a=\"b",
        "OAuth a b=\"c\"",
    ] {
        assert!(header_pairs(bad).is_err(), "{bad}");
    }
}
