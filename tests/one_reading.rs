//! One reading of a request (issue 29): wherever a request can be read two
//! ways — a provider's parameter style, a framework's test for a form, a
//! proxy's idea of the host, a malformed escape — the verifier refuses it
//! rather than choose, and nothing tampered verifies.
//!
//! - A property over random requests, every transmission and every provider
//!   profile (but PLAINTEXT's, whose signature covers nothing but the
//!   secrets): a byte changed anywhere the signature or the body hash
//!   covers, or a protocol parameter moved to another place, is refused.
//! - Mastercard's style with requests from Mastercard's own signer
//!   (`mastercard-oauth1-signer`, `tests/peers/providers_peer.py`): a
//!   header name that would write a query parameter into its unencoded
//!   parameter string is refused; a form body is covered by its hash; a `%`
//!   in a consumer key is read as written.
//! - A `Content-Type` that only looks like a form's, through `VerifyLayer`
//!   on a real axum `Router` whose handlers use axum's own `Form` and `Json`
//!   extractors: refused (415) before a handler can parse it; a handler
//!   reads from the body only what was verified.
//! - A trusted proxy's host: only `host[:port]`.

#![cfg(all(feature = "tower", feature = "json", feature = "rsa"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::routing::post;
use axum::{Extension, Form, Json, Router};
use common::peers::{peer_script, run_peer};
use oauth1_signer::verify::{
    Forwarded, MemoryNonceStore, Reason, Received, StaticSecrets, Verified, Verifier, VerifyLayer,
};
use oauth1_signer::RequestSpec;
use oauth1_signer::{
    pipeline::encode_pairs, pipeline::ParameterStyle, provider::PROVIDERS, Credentials, ErrorKind,
    OAuthRequest, Provider, Secret, SignatureMethod, Signer, Transmission,
};
use proptest::prelude::*;
use serde_json::{json, Value};
use tower::ServiceExt as _;

const KEY: &str = include_str!("../fixtures/keys/oauthlib_tests_rsa_pkcs1.pem");
const PUBLIC_KEY: &str = include_str!("../fixtures/keys/oauthlib_tests_rsa_public.pem");
const TIMESTAMP: u64 = 1764648000;

fn block<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(f)
}

fn signed_at() -> u64 {
    TIMESTAMP
}

/// A verifier for `profile`'s requests: its style and body-hash rule, every
/// method, the consumer's RSA public key, the clock at the signing instant.
fn verifier_for(
    profile: &oauth1_signer::provider::Profile,
) -> Verifier<StaticSecrets, MemoryNonceStore> {
    let secrets = StaticSecrets::new(Credentials::new("ck", "cs").with_token("tk", "ts"))
        .with_rsa_public_key_pem(PUBLIC_KEY)
        .unwrap();
    Verifier::builder(secrets, MemoryNonceStore::with_capacity(16))
        .methods(&SignatureMethod::ALL)
        .body_hash(profile.body_hash)
        .parameter_style(profile.style)
        .public_base_url("https://api.example.com")
        .clock(signed_at)
        .build()
        .unwrap()
}

/// One request as a server receives it: method, origin-form target, header,
/// body and its media type.
#[derive(Clone, Debug)]
struct Wire {
    method: String,
    target: String,
    authorization: Option<String>,
    body: Vec<u8>,
    content_type: Option<String>,
}

impl Wire {
    fn verify(&self, profile: &oauth1_signer::provider::Profile) -> Result<(), Reason> {
        let mut r = Received::new(&self.method, self.target.as_str());
        if let Some(h) = &self.authorization {
            r = r.authorization_header(h);
        }
        if self.content_type.is_some() || !self.body.is_empty() {
            r = r.body(self.content_type.as_deref(), &self.body);
        }
        block(verifier_for(profile).verify(&r))
            .map(|_| ())
            .map_err(|e| e.reason().clone())
    }
}

/// Whether replacing byte `i` of `text` by `to` writes the same bytes
/// after percent-decoding: only a hex digit of an escape changed to its
/// other case (`%2f` for `%2F`), which every reading decodes alike.
fn same_escape(text: &[u8], i: usize, to: u8) -> bool {
    let in_escape = (i >= 1 && text[i - 1] == b'%') || (i >= 2 && text[i - 2] == b'%');
    in_escape && text[i].is_ascii_hexdigit() && text[i].eq_ignore_ascii_case(&to)
}

/// What the request carries: parameters of every kind of text.
fn text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-Z0-9 !*'()+&=%~._/é]{1,8}").unwrap()
}

fn pairs() -> impl Strategy<Value = Vec<(String, String)>> {
    proptest::collection::vec(
        (
            text().prop_filter("not oauth_", |n| !n.starts_with("oauth_")),
            text(),
        ),
        0..3,
    )
}

#[derive(Clone, Copy, Debug)]
enum BodyKind {
    None,
    Form,
    Json,
}

#[derive(Clone, Copy, Debug)]
enum Tamper {
    /// A byte of the path or the query.
    Target(usize, u8),
    /// A byte of the body.
    Body(usize, u8),
    /// A byte of the Authorization header.
    Header(usize, u8),
    /// One protocol parameter (the `n`th, not the signature) moved to
    /// another place.
    Move(usize),
}

fn tamper() -> impl Strategy<Value = Tamper> {
    let byte = proptest::sample::select(b"aZ09-._~%+=&".to_vec());
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Tamper::Target(i, b)),
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Tamper::Body(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Tamper::Header(i, b)),
        any::<usize>().prop_map(Tamper::Move),
    ]
}

/// The request `provider`'s profile signs, as the wire carries it.
fn signed(
    provider: Provider,
    method: &str,
    query: &[(String, String)],
    body: BodyKind,
    form: &[(String, String)],
    transmission: Option<Transmission>,
) -> Option<Wire> {
    let profile = provider.profile();
    let mut url = "https://api.example.com/1/items".to_owned();
    let q = encode_pairs(query.iter().map(|(n, v)| (n.as_str(), v.as_str())));
    if !q.is_empty() {
        url = format!("{url}?{q}");
    }
    let mut spec = RequestSpec::default();
    spec.method = method.to_owned();
    spec.url = url;
    spec.consumer_key = "ck".into();
    spec.consumer_secret = Some(Secret::new("cs"));
    if profile.style == ParameterStyle::Rfc5849 {
        spec.token = Some("tk".into());
        spec.token_secret = Some(Secret::new("ts"));
    }
    spec.nonce = Some("n0nce1234abcdefg".into());
    spec.timestamp = Some(TIMESTAMP.to_string());
    spec.version = profile.version;
    spec.provider = Some(provider);
    // Another transmission than the profile's, where its style has one.
    if profile.style == ParameterStyle::Rfc5849 {
        spec.transmission = transmission;
    }
    if profile.method.is_rsa() {
        spec.rsa_private_key = Some(Secret::new(KEY));
    }
    match body {
        BodyKind::None => {}
        BodyKind::Form => {
            spec.form_body = Some(encode_pairs(
                form.iter().map(|(n, v)| (n.as_str(), v.as_str())),
            ))
        }
        BodyKind::Json => {
            spec.body = Some(br#"{"text":"hi"}"#.to_vec());
            spec.content_type = Some("application/json".into());
        }
    }
    // A profile's transmission needs a form body to carry it (LTI's).
    if spec.transmission() == Transmission::FormBody && spec.form_body.is_none() {
        return None;
    }
    let params = spec.protocol_params().unwrap();
    let signed = spec.signer().unwrap().sign(&spec.request(&params)).unwrap();
    let sent = spec.sent(&signed).unwrap();
    let rest = sent.url.split_once("://").unwrap().1;
    Some(Wire {
        method: method.to_owned(),
        target: rest[rest.find('/').unwrap()..].to_owned(),
        authorization: sent.authorization,
        body: sent.body.unwrap_or_default(),
        content_type: sent.content_type,
    })
}

/// The protocol parameters of the query or the form body, as `(start, end)`
/// byte ranges of `text`'s `&`-separated pairs.
fn protocol_pairs(text: &str) -> Vec<(usize, usize)> {
    let mut at = 0;
    let mut out = Vec::new();
    for pair in text.split('&') {
        if pair.starts_with("oauth_") && !pair.starts_with("oauth_signature=") {
            out.push((at, at + pair.len()));
        }
        at += pair.len() + 1;
    }
    out
}

/// Applies `tamper` to `wire`; `None` when it changes nothing any reading
/// sees (a hex digit's case, the realm, which is never signed) or has
/// nowhere to apply.
fn tampered(wire: &Wire, tamper: Tamper, style: ParameterStyle) -> Option<Wire> {
    let mut w = wire.clone();
    let replace = |text: &mut Vec<u8>, from: usize, i: usize, to: u8| -> Option<()> {
        let span = text.len().checked_sub(from).filter(|n| *n > 0)?;
        let i = from + i % span;
        if text[i] == to || same_escape(text, i, to) {
            return None;
        }
        text[i] = to;
        Some(())
    };
    match tamper {
        Tamper::Target(i, to) => {
            let mut t = w.target.clone().into_bytes();
            replace(&mut t, 1, i, to)?;
            w.target = String::from_utf8(t).ok()?;
        }
        Tamper::Body(i, to) => {
            let covered = match w.content_type.as_deref() {
                Some("application/x-www-form-urlencoded") => true,
                _ => wire_has(wire, "oauth_body_hash"),
            };
            if !covered {
                return None;
            }
            replace(&mut w.body, 0, i, to)?;
        }
        Tamper::Header(i, to) => {
            let header = w.authorization.clone()?;
            let mut h = header.clone().into_bytes();
            // After the scheme (its case is free), and never inside the realm's value.
            replace(&mut h, "OAuth ".len(), i, to)?;
            let changed = h.iter().zip(header.as_bytes()).position(|(a, b)| a != b)?;
            if let Some(realm) = header.find("realm=\"") {
                let end = realm + 7 + header[realm + 7..].find('"').unwrap_or(0);
                if (realm + 7..end).contains(&changed) {
                    return None;
                }
            }
            if style == ParameterStyle::Mastercard && changed == 0 {
                return None;
            }
            w.authorization = Some(String::from_utf8(h).ok()?);
        }
        Tamper::Move(n) => {
            if let Some(header) = &wire.authorization {
                // One header parameter moved to the query.
                let params = oauth1_signer::pipeline::parse_authorization_header(header).unwrap();
                let movable: Vec<&(String, String)> = params
                    .iter()
                    .filter(|(k, _)| k.starts_with("oauth_") && k != "oauth_signature")
                    .collect();
                let (name, value) = movable.get(n % movable.len().max(1))?;
                let kept: Vec<(&str, &str)> = params
                    .iter()
                    .filter(|(k, _)| k != name)
                    .map(|(k, v)| (k.as_str(), v.as_str()))
                    .collect();
                let realm = kept.iter().find(|(k, _)| *k == "realm").map(|(_, v)| *v);
                let rest: Vec<(&str, &str)> = kept
                    .iter()
                    .filter(|(k, _)| *k != "realm")
                    .copied()
                    .collect();
                w.authorization = Some(
                    oauth1_signer::pipeline::authorization_header(realm, rest).unwrap_or_default(),
                );
                let sep = if w.target.contains('?') { '&' } else { '?' };
                w.target = format!(
                    "{}{sep}{}",
                    w.target,
                    encode_pairs([(name.as_str(), value.as_str())])
                );
            } else {
                // One pair moved between the query and the form body.
                let (path, query) = w.target.split_once('?').unwrap_or((&w.target, ""));
                let (path, query) = (path.to_owned(), query.to_owned());
                let body = String::from_utf8(w.body.clone()).ok()?;
                if w.content_type.as_deref() != Some("application/x-www-form-urlencoded") {
                    return None;
                }
                let in_query = protocol_pairs(&query);
                let from_query = !in_query.is_empty();
                let (from, to) = if from_query {
                    (query, body)
                } else {
                    (body, query)
                };
                let ranges = protocol_pairs(&from);
                let (s, e) = *ranges.get(n % ranges.len().max(1))?;
                let pair = from[s..e].to_owned();
                let mut left = format!("{}{}", &from[..s], &from[e..]);
                left = left.replace("&&", "&").trim_matches('&').to_owned();
                let to = if to.is_empty() {
                    pair
                } else {
                    format!("{to}&{pair}")
                };
                let (query, body) = if from_query { (left, to) } else { (to, left) };
                w.target = if query.is_empty() {
                    path
                } else {
                    format!("{path}?{query}")
                };
                w.body = body.into_bytes();
            }
        }
    }
    Some(w)
}

/// Whether the request carries protocol parameter `name` anywhere.
fn wire_has(w: &Wire, name: &str) -> bool {
    w.authorization.as_deref().unwrap_or("").contains(name)
        || w.target.contains(name)
        || String::from_utf8_lossy(&w.body).contains(name)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn a_tampered_request_is_refused_in_every_transmission_and_provider_style(
        provider in proptest::sample::select(PROVIDERS.to_vec()),
        method in proptest::sample::select(vec!["GET", "POST", "PUT"]),
        query in pairs(),
        body in proptest::sample::select(vec![BodyKind::None, BodyKind::Form, BodyKind::Json]),
        form in pairs(),
        transmission in proptest::option::of(proptest::sample::select(vec![
            Transmission::Header, Transmission::Query, Transmission::FormBody,
        ])),
        tamper in tamper(),
    ) {
        let profile = provider.profile();
        // PLAINTEXT's signature is the secrets and covers nothing else
        // (RFC 5849 §3.4.4: it relies on TLS): Discogs's profile.
        if profile.method == SignatureMethod::Plaintext {
            return Ok(());
        }
        let body = if method == "GET" { BodyKind::None } else { body };
        let Some(wire) = signed(provider, method, &query, body, &form, transmission) else {
            return Ok(());
        };
        prop_assert_eq!(wire.verify(&profile), Ok(()), "{:?} {:?}", provider, wire);
        let Some(bad) = tampered(&wire, tamper, profile.style) else {
            return Ok(());
        };
        let verdict = bad.verify(&profile);
        prop_assert!(
            verdict.is_err(),
            "{:?} {:?} verified after {:?}: {:?} (was {:?})",
            provider, profile.style, tamper, bad, wire
        );
    }
}

// ---------------------------------------------------------------------------
// Mastercard's style, with Mastercard's own signer.

fn mastercard_header(url: &str, method: &str, payload: Option<&str>, consumer_key: &str) -> String {
    let batch = [
        json!({"id": 0, "client": "mastercard", "url": url, "method": method,
        "payload": payload, "consumer_key": consumer_key, "key_pem": KEY,
        "nonce": "vErIfYn0nce12345", "timestamp": TIMESTAMP.to_string()}),
    ];
    let answers: Vec<Value> = run_peer("python3", &peer_script("providers_peer.py"), &batch)
        .unwrap_or_else(|e| panic!("{e}"));
    answers[0]["authorization_header"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn mastercard_gateway(consumer_key: &str) -> Verifier<StaticSecrets, MemoryNonceStore> {
    let secrets = StaticSecrets::new(Credentials::new(consumer_key, ""))
        .with_rsa_public_key_pem(PUBLIC_KEY)
        .unwrap();
    Verifier::builder(secrets, MemoryNonceStore::with_capacity(10))
        .methods(&[SignatureMethod::RsaSha256])
        .body_hash(Provider::Mastercard.profile().body_hash)
        .parameter_style(ParameterStyle::Mastercard)
        .clock(signed_at)
        .build()
        .unwrap()
}

#[test]
fn mastercard_s_style_cannot_be_made_to_drop_a_query_parameter() {
    let signed_for = "https://sandbox.api.mastercard.com/accounts?limit=10&user_id=123";
    let header = mastercard_header(signed_for, "GET", None, "ck0001");
    let gateway = || mastercard_gateway("ck0001");
    // As signed, it verifies.
    let r = Received::new("GET", signed_for).authorization_header(&header);
    let verified = block(gateway().verify(&r)).unwrap();
    assert!(verified.params().any(|(n, v)| n == "user_id" && v == "123"));
    // `user_id=123` moved out of the query into a header name, which an
    // unencoded parameter string writes alike: refused, naming the name.
    let moved = header.replacen(
        "oauth_version=\"1.0\"",
        "oauth_version%3D1.0%26user_id=\"123\"",
        1,
    );
    assert_ne!(moved, header);
    let sent_to = "https://sandbox.api.mastercard.com/accounts?limit=10";
    let r = Received::new("GET", sent_to).authorization_header(&moved);
    let e = block(gateway().verify(&r)).unwrap_err();
    assert!(
        matches!(e.reason(), Reason::ParameterRejected { name, .. } if name.starts_with("oauth_version%3D")),
        "{e}"
    );
    // A value holding '&' is refused wherever it is.
    let amp = header.replacen(
        "oauth_nonce=\"vErIfYn0nce12345\"",
        "oauth_nonce=\"a&user_id=123\"",
        1,
    );
    let r = Received::new("GET", sent_to).authorization_header(&amp);
    let e = block(gateway().verify(&r)).unwrap_err();
    assert!(
        matches!(e.reason(), Reason::ParameterRejected { name, .. } if name == "oauth_nonce"),
        "{e}"
    );
    // Only the header: the same parameters in the query are not read.
    let in_query = format!("{signed_for}&oauth_consumer_key=ck0001&oauth_signature=x");
    let e = block(gateway().verify(&Received::new("GET", in_query.as_str()))).unwrap_err();
    assert!(
        matches!(e.reason(), Reason::ParameterRejected { .. }),
        "{e}"
    );
}

#[test]
fn mastercard_s_form_post_is_covered_by_its_body_hash() {
    let url = "https://sandbox.api.mastercard.com/transfers";
    let form = "to=alice&amount=10";
    let header = mastercard_header(url, "POST", Some(form), "ck0001");
    assert!(header.contains("oauth_body_hash=\""), "{header}");
    let post = |body: &'static str| {
        Received::new("POST", url)
            .authorization_header(&header)
            .body(Some("application/x-www-form-urlencoded"), body.as_bytes())
    };
    // Mastercard's signer's form POST verifies in its style...
    block(mastercard_gateway("ck0001").verify(&post(form))).unwrap();
    // ...and another body does not: the hash covers it.
    let e =
        block(mastercard_gateway("ck0001").verify(&post("to=mallory&amount=1000000"))).unwrap_err();
    assert_eq!(e.reason(), &Reason::BodyHashInvalid);
    // A form POST without a hash is refused in that style.
    let without = header
        .split(',')
        .filter(|p| !p.starts_with("oauth_body_hash="))
        .collect::<Vec<_>>()
        .join(",");
    let r = Received::new("POST", url)
        .authorization_header(&without)
        .body(Some("application/x-www-form-urlencoded"), form.as_bytes());
    let e = block(mastercard_gateway("ck0001").verify(&r)).unwrap_err();
    assert_eq!(
        e.reason(),
        &Reason::ParameterAbsent(vec!["oauth_body_hash"])
    );

    // Our signer, with the profile, sends the hash over the form too, and
    // the same header as Mastercard's (nonce and clock pinned alike).
    let profile = Provider::Mastercard.profile();
    let mut spec = RequestSpec::default();
    spec.method = "POST".into();
    spec.url = url.into();
    spec.form_body = Some(form.into());
    spec.consumer_key = "ck0001".into();
    spec.rsa_private_key = Some(Secret::new(KEY));
    spec.nonce = Some("vErIfYn0nce12345".into());
    spec.timestamp = Some(TIMESTAMP.to_string());
    spec.version = profile.version;
    spec.provider = Some(Provider::Mastercard);
    let params = spec.protocol_params().unwrap();
    let ours = spec
        .signer()
        .unwrap()
        .authorization_header(&spec.request(&params))
        .unwrap();
    assert_eq!(ours, header);
}

#[test]
fn a_percent_in_a_mastercard_consumer_key_is_read_as_written() {
    let url = "https://sandbox.api.mastercard.com/atms/v1/atm?Format=XML";
    let key = "abc%41def!ghi";
    let header = mastercard_header(url, "GET", None, key);
    assert!(
        header.contains("oauth_consumer_key=\"abc%41def!ghi\""),
        "{header}"
    );
    let r = Received::new("GET", url).authorization_header(&header);
    let verified = block(mastercard_gateway(key).verify(&r)).unwrap();
    assert_eq!(verified.consumer_key(), key);
    // Our signer refuses a key it could not write unambiguously.
    let signer = Provider::Mastercard
        .profile()
        .signer(Credentials::new("a=b", ""))
        .with_key(
            oauth1_signer::pipeline::SigningKey::rsa_pem(SignatureMethod::RsaSha256, KEY).unwrap(),
        )
        .build()
        .unwrap();
    let e = signer
        .authorization_header(&OAuthRequest::get(url))
        .unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::InvalidProtocolValue {
                name: "oauth_consumer_key",
                ..
            }
        ),
        "{e}"
    );
}

// ---------------------------------------------------------------------------
// A media type one framework reads as a form and another does not.

/// A handler behind the layer that parses a form with axum's `Form`: what it
/// read, and the consumer key it acts for.
async fn form_handler(
    Extension(v): Extension<Verified>,
    Form(fields): Form<HashMap<String, String>>,
) -> String {
    let mut fields: Vec<_> = fields.into_iter().collect();
    fields.sort();
    format!("{} {fields:?}", v.consumer_key())
}

async fn json_handler(Extension(v): Extension<Verified>, Json(body): Json<Value>) -> String {
    format!("{} {body}", v.consumer_key())
}

fn app() -> Router {
    let verifier = Verifier::builder(
        StaticSecrets::new(Credentials::new("ck", "cs")),
        MemoryNonceStore::with_capacity(100),
    )
    .public_base_url("https://api.example.com")
    .clock(signed_at)
    .build()
    .unwrap();
    Router::new()
        .route("/transfer", post(form_handler))
        .route("/tweet", post(json_handler))
        .layer(VerifyLayer::new(Arc::new(verifier)))
}

fn send(request: http::Request<Body>) -> (u16, String) {
    block(async {
        let response = app().oneshot(request).await.unwrap();
        let status = response.status().as_u16();
        let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
        (status, String::from_utf8_lossy(&body).into_owned())
    })
}

fn signer() -> Signer {
    Signer::builder(Credentials::new("ck", "cs"))
        .with_timestamp(TIMESTAMP.to_string())
        .build()
        .unwrap()
}

#[test]
fn a_body_whose_type_only_looks_like_a_form_never_reaches_a_handler() {
    // A POST signed with no body, replayed with a body and a type that
    // axum's Form (a prefix test) parses as a form.
    let header = signer()
        .authorization_header(&OAuthRequest::post("https://api.example.com/transfer"))
        .unwrap();
    for content_type in [
        "application/x-www-form-urlencodedX",
        "application/x-www-form-urlencoded+json",
        "application/x-www-form-urlencoded/x",
        "application/x-www-form-urlencodedX; charset=utf-8",
        "application/x-www-form-urlencoded+json; charset=utf-8",
    ] {
        let request = http::Request::post("/transfer")
            .header("authorization", &header)
            .header("content-type", content_type)
            .body(Body::from("to=mallory&amount=1000000"))
            .unwrap();
        let (status, body) = send(request);
        assert_eq!(status, 415, "{content_type}: {body}");
        assert!(!body.contains("mallory"), "{body}");
    }
    // The same body as a real form is signed, so the replay fails on the
    // signature; signed as a form, it reaches the handler with exactly what
    // was verified.
    let request = http::Request::post("/transfer")
        .header("authorization", &header)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("to=mallory&amount=1000000"))
        .unwrap();
    assert_eq!(send(request).0, 401);
    let form = "to=alice&amount=10";
    let header = signer()
        .authorization_header(
            &OAuthRequest::post("https://api.example.com/transfer").form_body(form.as_bytes()),
        )
        .unwrap();
    let request = http::Request::post("/transfer")
        .header("authorization", &header)
        .header(
            "content-type",
            "application/x-www-form-urlencoded; charset=utf-8",
        )
        .body(Body::from(form))
        .unwrap();
    assert_eq!(
        send(request),
        (200, r#"ck [("amount", "10"), ("to", "alice")]"#.to_owned())
    );
    // A JSON body is not signed (X API v2): the handler reads it as JSON,
    // and axum's Form refuses it as a form.
    let header = signer()
        .authorization_header(&OAuthRequest::post("https://api.example.com/tweet"))
        .unwrap();
    let request = http::Request::post("/tweet")
        .header("authorization", &header)
        .header("content-type", "application/json")
        .body(Body::from(r#"{"text":"hi"}"#))
        .unwrap();
    assert_eq!(send(request), (200, r#"ck {"text":"hi"}"#.to_owned()));
    let header = signer()
        .authorization_header(&OAuthRequest::post("https://api.example.com/transfer"))
        .unwrap();
    let request = http::Request::post("/transfer")
        .header("authorization", &header)
        .header("content-type", "application/json")
        .body(Body::from("to=mallory&amount=1000000"))
        .unwrap();
    assert_eq!(
        send(request).0,
        415,
        "axum's Form refuses a JSON type itself"
    );
}

// ---------------------------------------------------------------------------
// A trusted proxy's host.

#[test]
fn a_trusted_proxy_s_host_is_only_ever_host_and_port() {
    // Signed for `GET https://tool.example.com/`.
    let header = signer()
        .authorization_header(&OAuthRequest::get("https://tool.example.com/"))
        .unwrap();
    let tool = || {
        Verifier::builder(
            StaticSecrets::new(Credentials::new("ck", "cs")),
            MemoryNonceStore::with_capacity(10),
        )
        .public_base_url("http://10.0.0.7:8080")
        .forwarded(Forwarded::Either)
        .clock(signed_at)
        .build()
        .unwrap()
    };
    let get = |target: &str, forwarded: (Option<&str>, Option<&str>), header_7239: Option<&str>| {
        let r = Received::new("GET", target.to_owned())
            .authorization_header(&header)
            .forwarded(forwarded.0, forwarded.1)
            .forwarded_header(header_7239);
        block(tool().verify(&r)).map_err(|e| e.reason().clone())
    };
    // What it was signed for verifies, with either header.
    assert!(get("/", (Some("https"), Some("tool.example.com")), None).is_ok());
    assert!(get("/", (None, None), Some("proto=https;host=tool.example.com")).is_ok());
    // A host that turns the received path into a fragment, or prepends a
    // path, is refused before any URL is made of it.
    for host in [
        "tool.example.com#",
        "tool.example.com/",
        "tool.example.com/admin",
        "tool.example.com?",
        "u@tool.example.com",
        "tool.example.com:443#",
        "tool.example.com\\",
        "tool.example.com:x",
    ] {
        let e = get("/admin/delete?user=42", (Some("https"), Some(host)), None).unwrap_err();
        assert!(
            matches!(
                e,
                Reason::ForwardedRejected {
                    header: "X-Forwarded-Host",
                    ..
                }
            ),
            "{host}: {e:?}"
        );
        let quoted = format!("proto=https;host=\"{host}\"");
        let e = get("/admin/delete?user=42", (None, None), Some(&quoted)).unwrap_err();
        assert!(
            matches!(
                e,
                Reason::ForwardedRejected {
                    header: "Forwarded",
                    ..
                }
            ),
            "{host}: {e:?}"
        );
    }
    for proto in ["ftp", "https:", "javascript", "https://evil"] {
        let e = get("/", (Some(proto), Some("tool.example.com")), None).unwrap_err();
        assert!(
            matches!(
                e,
                Reason::ForwardedRejected {
                    header: "X-Forwarded-Proto",
                    ..
                }
            ),
            "{proto}: {e:?}"
        );
    }
    // An IP literal with a port is a host.
    let e = get("/", (Some("https"), Some("[2001:db8::1]:8443")), None).unwrap_err();
    assert_eq!(e, Reason::SignatureInvalid);
}

#[test]
fn a_malformed_escape_in_the_received_query_is_refused() {
    let verifier = || {
        Verifier::builder(
            StaticSecrets::new(Credentials::new("ck", "cs")),
            MemoryNonceStore::with_capacity(10),
        )
        .clock(signed_at)
        .build()
        .unwrap()
    };
    for (url, offset) in [
        ("https://api.example.com/?a=%zz", 27),
        ("https://api.example.com/?b=%4", 27),
        ("https://api.example.com/?c=1&d=%", 31),
    ] {
        let query = &url[url.find('?').unwrap() + 1..];
        let header = oauth1_signer::pipeline::authorization_header(
            None,
            [
                ("oauth_consumer_key", "ck"),
                ("oauth_nonce", "n0nce1234abcdefg"),
                ("oauth_signature", "x"),
                ("oauth_signature_method", "HMAC-SHA1"),
                ("oauth_timestamp", "1764648000"),
            ],
        )
        .unwrap();
        let r = Received::new("GET", url).authorization_header(&header);
        let e = block(verifier().verify(&r)).unwrap_err();
        match e.reason() {
            Reason::Malformed(e) => match e.kind() {
                ErrorKind::MalformedEscape { offset: o, .. } => assert_eq!(*o, offset, "{url}"),
                other => panic!("{url}: {other:?}"),
            },
            other => panic!("{url} ({query}): {other:?}"),
        }
    }
}
