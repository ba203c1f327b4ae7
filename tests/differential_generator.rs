//! The differential tests' generator (`tests/common/generator/`) really
//! makes the classes of input `tests/differential.rs` claims to compare:
//! for each peer's profile, among the 1,500 requests of the default seed,
//! at least ten of each class the issue lists (IPv6 hosts, more than 32
//! parameters, values of a kilobyte, names and values that agree for
//! exactly 8, 9, 16 or 17 bytes, realms with `,` or `=`, `"` and `\` in
//! header values, each refusal, ...) and fifty of each signature method.
//! The counts are taken here from the generated JSON, the common prefixes
//! from the names and values encoded as RFC 5849 §3.6 says.
//!
//! Built with the `json` feature, as `tests/differential.rs` is.
#![cfg(feature = "json")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::generator::{
    batch, rfc_encode, Case, Refusal, DEFAULT_SEED, OAUTHLIB, OAUTH_1_0A, REFUSALS,
};

/// Common-prefix lengths in one request: between neighbouring distinct
/// names, and between neighbouring distinct values of one name.
type Prefixes = (Vec<usize>, Vec<usize>);

/// The longest common prefix, in bytes, of two strings.
fn common_prefix(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

#[test]
fn generator_covers_the_classes_it_claims() {
    // The generator must really produce the inputs the issue lists, or the
    // comparison above proves less than it says.
    for (profile, name) in [(OAUTHLIB, "oauthlib"), (OAUTH_1_0A, "oauth-1.0a")] {
        let cases = batch(DEFAULT_SEED, profile);
        let signed: Vec<&Case> = cases.iter().filter(|c| c.refusal.is_none()).collect();
        let count = |f: &dyn Fn(&Case) -> bool| signed.iter().filter(|c| f(c)).count();
        let url = |c: &Case| c.request["url"].as_str().unwrap().to_string();
        let has = |c: &Case, k: &str| c.request.get(k).is_some();
        let realm = |c: &Case| c.request["realm"].as_str().unwrap_or("\u{0}").to_string();
        // Names and values encoded, as the normaliser compares them; the
        // common-prefix lengths between neighbours in sorted order, of
        // distinct names, and of distinct values of one name.
        let prefixes: Vec<Prefixes> = signed
            .iter()
            .map(|c| {
                let mut pairs: Vec<(String, Option<String>)> = c
                    .params
                    .iter()
                    .map(|(n, v)| (rfc_encode(n), v.as_deref().map(rfc_encode)))
                    .collect();
                pairs.sort();
                pairs.dedup();
                let mut names: Vec<&String> = pairs.iter().map(|(n, _)| n).collect();
                names.dedup();
                let names = names
                    .windows(2)
                    .map(|w| common_prefix(w[0], w[1]))
                    .collect();
                let values = pairs
                    .windows(2)
                    .filter_map(|w| match (&w[0], &w[1]) {
                        ((n1, Some(a)), (n2, Some(b))) if n1 == n2 => Some(common_prefix(a, b)),
                        _ => None,
                    })
                    .collect();
                (names, values)
            })
            .collect();
        let count_prefixes =
            |f: &dyn Fn(&Prefixes) -> bool| prefixes.iter().filter(|p| f(p)).count();
        let mut classes: Vec<(String, usize)> = vec![
            (
                "IPv6 [::1]:8080".into(),
                count(&|c| url(c).contains("[::1]:8080/")),
            ),
            (
                "IPv6 [2001:db8::1]".into(),
                count(&|c| url(c).to_lowercase().contains("[2001:db8::1]")),
            ),
            (
                "more than 32 parameters".into(),
                count(&|c| c.params.len() > 32),
            ),
            (
                "24..=30 parameters (32 with the protocol ones)".into(),
                count(&|c| (24..=30).contains(&c.params.len())),
            ),
            (
                "a value of 1 KB or more".into(),
                count(&|c| {
                    c.params
                        .iter()
                        .any(|(_, v)| v.as_ref().is_some_and(|v| v.len() >= 1000))
                }),
            ),
            (
                "duplicate names, different values".into(),
                count_prefixes(&|p| !p.1.is_empty()),
            ),
            (
                "empty value".into(),
                count(&|c| c.params.iter().any(|(_, v)| v.as_deref() == Some(""))),
            ),
            (
                "bare name".into(),
                count(&|c| c.params.iter().any(|(_, v)| v.is_none())),
            ),
            ("realm with ','".into(), count(&|c| realm(c).contains(','))),
            ("realm with '='".into(), count(&|c| realm(c).contains('='))),
            ("empty realm".into(), count(&|c| realm(c).is_empty())),
            (
                "'\"' in a header value".into(),
                count(&|c| {
                    ["consumer_key", "token", "nonce", "callback", "verifier"]
                        .iter()
                        .any(|k| c.request[k].as_str().is_some_and(|v| v.contains('"')))
                }),
            ),
            (
                "'\\' in a header value".into(),
                count(&|c| {
                    ["consumer_key", "token", "nonce", "verifier"]
                        .iter()
                        .any(|k| c.request[k].as_str().is_some_and(|v| v.contains('\\')))
                }),
            ),
            (
                "',' and '=' in a header value".into(),
                count(&|c| {
                    ["consumer_key", "token", "nonce", "callback", "verifier"]
                        .iter()
                        .any(|k| {
                            c.request[k]
                                .as_str()
                                .is_some_and(|v| v.contains(',') && v.contains('='))
                        })
                }),
            ),
            ("form body".into(), count(&|c| has(c, "form_body"))),
            ("callback".into(), count(&|c| has(c, "callback"))),
            ("verifier".into(), count(&|c| has(c, "verifier"))),
            ("no version".into(), count(&|c| !has(c, "version"))),
            (
                "emoji".into(),
                count(&|c| {
                    c.request.to_string().contains("%F0%9F")
                        || c.request.to_string().contains("%f0%9f")
                }),
            ),
        ];
        for n in [8, 9, 16, 17] {
            classes.push((
                format!("names differing after exactly {n} bytes"),
                count_prefixes(&|p| p.0.contains(&n)),
            ));
            classes.push((
                format!("values of one name differing after exactly {n} bytes"),
                count_prefixes(&|p| p.1.contains(&n)),
            ));
        }
        classes.push((
            "names differing after 32+ bytes".into(),
            count_prefixes(&|p| p.0.iter().any(|&n| n >= 32)),
        ));
        classes.push((
            "values differing after 64+ bytes".into(),
            count_prefixes(&|p| p.1.iter().any(|&n| n >= 64)),
        ));
        classes.push((
            "values differing after 1000+ bytes".into(),
            count_prefixes(&|p| p.1.iter().any(|&n| n >= 1000)),
        ));
        if profile.unnormalised_urls {
            classes.push((
                "upper-case scheme".into(),
                count(&|c| url(c).starts_with("HTTP")),
            ));
            classes.push((
                "default port".into(),
                count(&|c| url(c).contains(":443/") || url(c).contains(":80/")),
            ));
            classes.push((
                "plus in query".into(),
                count(&|c| url(c).split('?').nth(1).is_some_and(|q| q.contains('+'))),
            ));
        }
        if profile.uncompressed_ipv6 {
            classes.push((
                "uncompressed IPv6".into(),
                count(&|c| url(c).contains("[0:0:0:0:0:0:0:1]")),
            ));
        }
        for refusal in REFUSALS {
            classes.push((
                format!("refused: {refusal:?}"),
                cases.iter().filter(|c| c.refusal == Some(*refusal)).count(),
            ));
        }
        for bad in ["\"", "\\"] {
            classes.push((
                format!("refused realm with {bad}"),
                cases
                    .iter()
                    .filter(|c| {
                        c.refusal == Some(Refusal::Realm)
                            && c.request["realm"].as_str().unwrap().contains(bad)
                    })
                    .count(),
            ));
        }
        for (what, n) in &classes {
            assert!(*n >= 10, "{name}: only {n} requests with {what}");
        }
        for m in [
            "HMAC-SHA1",
            "HMAC-SHA256",
            "HMAC-SHA512",
            "PLAINTEXT",
            "RSA-SHA1",
            "RSA-SHA256",
        ] {
            assert!(
                count(&|c| c.request["signature_method"] == m) >= 50,
                "{name}: too few {m}"
            );
        }
    }
}
