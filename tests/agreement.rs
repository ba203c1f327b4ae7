//! The signer and its own verifier agree by construction (issue 22): every
//! request this crate's signer signs, this crate's verifier accepts with its
//! default settings (every signature method listed), sent in any of the
//! three transmissions of RFC 5849 §3.5, and recomputes the very base string
//! the signer signed; and a pinned nonce or timestamp the verifier would
//! refuse, the signer refuses at `build()`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(feature = "rsa")]
use oauth1_signer::pipeline::SigningKey;
use oauth1_signer::verify::{MemoryNonceStore, Received, StaticSecrets, Verifier};
use oauth1_signer::{
    pipeline::append_to_query, pipeline::encode_pairs, pipeline::parse_authorization_header,
    Credentials, OAuthRequest, SignatureMethod, Signer,
};
use proptest::prelude::*;

fn block<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

/// Text of every kind a parameter may hold: reserved and unreserved ASCII,
/// spaces, `%`, `+`, non-ASCII.
fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-Z0-9 !*'()+&=%~._\\-/?#é☃😀]{0,12}").unwrap()
}

/// A request parameter's name: anything but a protocol parameter's.
fn name() -> impl Strategy<Value = String> {
    text().prop_filter("not a protocol parameter", |n| !n.starts_with("oauth_"))
}

fn pairs() -> impl Strategy<Value = Vec<(String, String)>> {
    proptest::collection::vec((name(), text()), 0..4)
}

/// A nonce as people pin one: mostly fine, sometimes not.
fn nonce() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(prop_oneof![
        3 => "[A-Za-z0-9._~+/=-]{1,64}",
        1 => "([A-Za-z0-9 é\"]{0,3}|[a-z]{65,70}|a b|été-2024)",
    ])
}

/// A timestamp as people pin one: mostly a positive integer.
fn timestamp() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[1-9][0-9]{0,9}",
        1 => "(|0|-1|\\+1|1\\.5|12a| 1|18446744073709551616)",
    ]
}

/// Every method (the RSA ones with the `rsa` feature).
fn method() -> impl Strategy<Value = SignatureMethod> {
    let methods: Vec<SignatureMethod> = SignatureMethod::ALL
        .into_iter()
        .filter(|m| cfg!(feature = "rsa") || !m.is_rsa())
        .collect();
    proptest::sample::select(methods)
}

#[cfg(feature = "rsa")]
const RSA_PRIVATE: &str = include_str!("../fixtures/keys/oauthlib_tests_rsa_pkcs1.pem");
#[cfg(feature = "rsa")]
const RSA_PUBLIC: &str = include_str!("../fixtures/keys/oauthlib_tests_rsa_public.pem");

/// The nonce rule, from its statement (this crate's: 1 to 64 letters,
/// digits and `-._~+/=`), and the timestamp's (RFC 5849 §3.3: a positive
/// integer; here one that fits in 64 bits).
fn nonce_ok(n: &str) -> bool {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~+/=".contains(c);
    !n.is_empty() && n.chars().count() <= 64 && n.chars().all(allowed)
}

fn timestamp_ok(t: &str) -> bool {
    !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) && t.parse::<u64>().is_ok_and(|n| n > 0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn what_the_signer_signs_its_verifier_accepts_in_every_transmission(
        http_method in proptest::sample::select(vec!["GET", "POST", "PUT", "DELETE"]),
        path in "(/|/[a-z0-9._~-]{1,8}(/[a-z0-9]{0,6}|/%[0-9A-F]{2}){0,2})",
        query in pairs(),
        body in pairs(),
        key in text(),
        token in proptest::option::of(text()),
        secrets in (text(), text()),
        method in method(),
        nonce in nonce(),
        timestamp in timestamp(),
        realm in proptest::option::of("[A-Za-z0-9 .]{0,10}"),
        version in any::<bool>(),
        callback in proptest::option::of(text()),
        verifier_code in proptest::option::of(text()),
    ) {
        let (cs, ts) = secrets;
        let mut credentials = Credentials::new(key.as_str(), cs.as_str());
        if let Some(token) = &token {
            credentials = credentials.with_token(token.as_str(), ts.as_str());
        }
        let mut builder = Signer::builder(credentials.clone())
            .with_method(method)
            .with_version(version)
            .with_timestamp(timestamp.clone());
        #[cfg(feature = "rsa")]
        if method.is_rsa() {
            builder = builder.with_key(SigningKey::rsa_pem(method, RSA_PRIVATE).unwrap());
        }
        if let Some(n) = &nonce {
            builder = builder.with_nonce(n.clone());
        }
        if let Some(r) = &realm {
            builder = builder.with_realm(r.clone());
        }
        // The signer refuses exactly what the verifier would.
        let acceptable = nonce.as_deref().is_none_or(nonce_ok) && timestamp_ok(&timestamp);
        let signer = match builder.build() {
            Ok(s) => s,
            Err(e) => {
                prop_assert!(!acceptable, "refused {nonce:?} {timestamp:?}: {e}");
                return Ok(());
            }
        };
        prop_assert!(acceptable, "signed with {nonce:?} {timestamp:?}");
        let now: u64 = timestamp.parse().unwrap();

        let mut url = format!("https://api.example.com{path}");
        let query_text = encode_pairs(query.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        if !query_text.is_empty() {
            url = format!("{url}?{query_text}");
        }
        let with_body = http_method != "GET" && http_method != "DELETE";
        let body_text = encode_pairs(body.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        let mut request = OAuthRequest::new(http_method, &url);
        if with_body {
            request = request.form_body(body_text.as_bytes());
        }
        if let Some(c) = &callback {
            request = request.callback(c);
        }
        if let Some(v) = &verifier_code {
            request = request.oauth_verifier(v);
        }
        // One signing (a fresh nonce differs between two): its header, and
        // the same protocol parameters for the query and the body.
        let trace = signer.trace(&request).unwrap();
        let protocol: Vec<(String, String)> = parse_authorization_header(&trace.authorization_header)
            .unwrap()
            .into_iter()
            .filter(|(n, _)| n != "realm")
            .collect();
        let protocol_pairs = || protocol.iter().map(|(n, v)| (n.as_str(), v.as_str()));

        #[allow(unused_mut)]
        let mut secrets = StaticSecrets::new(credentials);
        #[cfg(feature = "rsa")]
        if method.is_rsa() {
            secrets = secrets.with_rsa_public_key_pem(RSA_PUBLIC).unwrap();
        }
        // A verifier (and a nonce store) for each transmission: the three
        // carry the same nonce.
        let check = |received: Received<'_>, how: &str| -> Result<(), TestCaseError> {
            let verifier = Verifier::builder(secrets.clone(), MemoryNonceStore::with_capacity(16))
                .methods(&SignatureMethod::ALL)
                .build()
                .unwrap();
            match block(verifier.verify_at(&received, now)) {
                Ok(v) => {
                    prop_assert_eq!(v.base_string(), trace.base_string.as_str(), "{}", how);
                    Ok(())
                }
                Err(e) => {
                    prop_assert!(false, "{}: {} (base string {:?}, signer's {:?})", how, e, e.base_string(), trace.base_string);
                    Ok(())
                }
            }
        };
        // §3.5.1: the Authorization header.
        let header = trace.authorization_header.clone();
        let r = Received::new(http_method, url.as_str()).authorization_header(&header);
        let r = if with_body { r.form_body(body_text.as_bytes()) } else { r };
        check(r, "header")?;
        // §3.5.3: the query.
        let in_query = append_to_query(&url, protocol_pairs());
        let r = Received::new(http_method, in_query.as_str());
        let r = if with_body { r.form_body(body_text.as_bytes()) } else { r };
        check(r, "query")?;
        // §3.5.2: the form body.
        if with_body {
            let protocol = encode_pairs(protocol_pairs());
            let sent = if body_text.is_empty() { protocol } else { format!("{body_text}&{protocol}") };
            let r = Received::new(http_method, url.as_str()).form_body(sent.as_bytes());
            check(r, "form body")?;
        }
    }
}
