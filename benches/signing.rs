//! Full signing, against `oauth1-request` 0.6 and against the raw HMAC floor,
//! and verification of a signed request; one run, so the ratios hold.
//!
//! Run with `cargo bench --bench signing`; `python3 benches/ratios.py` turns
//! criterion's estimates into the tables in BENCHMARKS.md.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::hint::black_box;
use std::time::Duration;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use criterion::{criterion_group, criterion_main, Criterion};
use hmac::{Hmac, KeyInit, Mac};
use oauth1_signer::{
    pipeline::parse_authorization_header, pipeline::BaseString, pipeline::BaseStringUri,
    pipeline::Params, pipeline::RequestUrl, pipeline::SigningKey, Error, OAuthRequest,
    SignatureMethod, Signer,
};
use sha1::Sha1;

use common::*;

/// A derived request, type-erased so both cases fit one `Case`.
type Derived =
    Box<dyn Fn(&oauth::Builder<'static, oauth::HmacSha1, &'static str>, &str, &str) -> String>;

/// One request, as each contender takes it.
struct Case {
    name: &'static str,
    method: &'static str,
    /// The URL as sent, query included (ours).
    url: String,
    body: Option<&'static [u8]>,
    /// The query-less URI and the decoded parameters (`oauth1-request`).
    uri: &'static str,
    params: oauth::ParameterList<String, &'static str>,
    /// The same parameters as a `#[derive(oauth::Request)]` struct.
    derived: Derived,
}

impl Case {
    fn request(&self) -> OAuthRequest<'_> {
        let r = OAuthRequest::new(self.method, &self.url);
        match self.body {
            Some(b) => r.form_body(b),
            None => r,
        }
    }
}

fn cases() -> [Case; 2] {
    [
        Case {
            name: "x_docs",
            method: "POST",
            url: X_DOCS_URL.to_owned(),
            body: Some(X_DOCS_BODY),
            uri: X_DOCS_URI,
            params: oauth::ParameterList::new(
                X_DOCS_PARAMS
                    .iter()
                    .map(|&(n, v)| (n.to_owned(), v))
                    .collect(),
            ),
            derived: Box::new(|peer, method, uri| {
                peer.authorize(method, uri, black_box(&x_docs_derived()))
            }),
        },
        Case {
            name: "get20_non_ascii",
            method: "GET",
            url: get20_url(),
            body: None,
            uri: GET20_URI,
            params: oauth::ParameterList::new(get20_params()),
            derived: Box::new(|peer, method, uri| {
                peer.authorize(method, uri, black_box(&get20_derived()))
            }),
        },
    ]
}

/// Server side: parse the header, re-sign the request with the client's
/// prepared key, and compare the signatures in constant time.
fn verify(
    key: &SigningKey,
    method: &str,
    url: &str,
    body: Option<&[u8]>,
    header: &str,
) -> Result<bool, Error> {
    let sent = parse_authorization_header(header)?;
    let url = RequestUrl::parse(url)?;
    let mut params = Params::new();
    if let Some(q) = url.query() {
        params.extend_query(q)?;
    }
    let mut signature = None;
    for (name, value) in &sent {
        match name.as_str() {
            "realm" => {}
            "oauth_signature" => signature = Some(value.as_str()),
            _ => params.push(name, value),
        }
    }
    if let Some(b) = body {
        params.extend_form(b)?;
    }
    let base = BaseString::new(method, BaseStringUri::new(&url), params.normalize())?;
    let computed = key.sign(&base)?;
    Ok(signature.is_some_and(|s| computed.ct_eq(s)))
}

fn signing(c: &mut Criterion) {
    let signing_key = format!("{CONSUMER_SECRET}&{TOKEN_SECRET}");
    for case in cases() {
        let ours = signer();
        let peer = peer();
        let request = case.request();

        // The contenders must agree before anything is timed.
        let header = ours.authorization_header(&request).unwrap();
        let peer_header = peer.authorize(case.method, case.uri, &case.params);
        let signature = signature_of(&header);
        assert_eq!(
            signature,
            signature_of(&peer_header),
            "{}: oauth1-request disagrees",
            case.name
        );
        assert_eq!(
            signature,
            signature_of(&(case.derived)(&peer, case.method, case.uri)),
            "{}: oauth1-request (derived) disagrees",
            case.name
        );
        if case.name == "x_docs" {
            assert_eq!(signature, "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=");
        }
        let base_string = ours.trace(&request).unwrap().base_string;
        let keyed = <Hmac<Sha1> as KeyInit>::new_from_slice(signing_key.as_bytes()).unwrap();
        let floor = |mac: Hmac<Sha1>| {
            let mut mac = mac;
            mac.update(black_box(base_string.as_bytes()));
            let mut out = [0u8; 28];
            let n = STANDARD
                .encode_slice(mac.finalize().into_bytes(), &mut out)
                .unwrap();
            black_box(out[..n].len())
        };
        assert_eq!(
            {
                let mut mac = keyed.clone();
                mac.update(base_string.as_bytes());
                STANDARD.encode(mac.finalize().into_bytes())
            },
            signature
        );
        let key =
            SigningKey::new(SignatureMethod::HmacSha1, CONSUMER_SECRET, TOKEN_SECRET).unwrap();
        assert!(verify(&key, case.method, &case.url, case.body, &header).unwrap());
        assert!(!verify(
            &key,
            case.method,
            &case.url,
            case.body,
            &header.replace("oauth_nonce=\"k", "oauth_nonce=\"K")
        )
        .unwrap());

        let mut g = c.benchmark_group(case.name);
        g.bench_function("ours_reused", |b| {
            b.iter(|| ours.authorization_header(black_box(&request)).unwrap())
        });
        g.bench_function("ours_fresh", |b| {
            b.iter(|| {
                Signer::builder(credentials())
                    .with_nonce(NONCE)
                    .with_timestamp(TIMESTAMP)
                    .build()
                    .unwrap()
                    .authorization_header(black_box(&request))
                    .unwrap()
            })
        });
        g.bench_function("oauth1_request", |b| {
            b.iter(|| peer.authorize(case.method, black_box(case.uri), black_box(&case.params)))
        });
        g.bench_function("oauth1_request_derive", |b| {
            b.iter(|| (case.derived)(&peer, case.method, black_box(case.uri)))
        });
        g.bench_function("floor_per_call", |b| {
            b.iter(|| {
                floor(
                    <Hmac<Sha1> as KeyInit>::new_from_slice(black_box(signing_key.as_bytes()))
                        .unwrap(),
                )
            })
        });
        g.bench_function("floor_reused", |b| {
            b.iter(|| floor(black_box(&keyed).clone()))
        });
        g.bench_function("verify", |b| {
            b.iter(|| {
                verify(
                    &key,
                    case.method,
                    black_box(&case.url),
                    case.body,
                    black_box(&header),
                )
                .unwrap()
            })
        });
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(60);
    targets = signing
}
criterion_main!(benches);
