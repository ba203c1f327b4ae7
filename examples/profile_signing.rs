//! A driver for instruction counts: runs one benchmarked operation N times, so
//! that `valgrind --tool=callgrind` can compare changes deterministically.
//!
//! ```text
//! cargo build --profile bench --example profile_signing
//! valgrind --tool=callgrind --toggle-collect='*run_case*' \
//!     target/release/examples/profile_signing x_docs 1000
//! ```
//! Cases: `x_docs`, `fresh_x_docs`, `get20`, `floor_x_docs`, `floor_get20`, `peer_x_docs`,
//! `peer_get20`, `encode_identifiers`, `encode_tweet`, `encode_non_ascii`.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../benches/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::num::NonZeroU64;

use hmac::{Hmac, KeyInit, Mac};
use oauth1_signer::{
    pipeline::BaseString, pipeline::BaseStringUri, pipeline::Params, pipeline::RequestUrl,
    pipeline::SigningKey, text::Sink, Credentials, OAuthRequest, SignatureMethod, Signer,
};
use sha1::Sha1;

use common::*;

/// Counts the bytes written into it: a sink that costs next to nothing.
struct Counter(usize);

impl Sink for Counter {
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// The X docs request through the public stages, up to `depth`.
fn stages(key: &SigningKey, depth: u8) -> usize {
    let url = RequestUrl::parse(black_box(X_DOCS_URL)).unwrap();
    let mut params = Params::new();
    params.extend_query(url.query().unwrap()).unwrap();
    for (n, v) in PROTOCOL_PARAMS {
        params.push(n, v);
    }
    params.extend_form(black_box(X_DOCS_BODY)).unwrap();
    let normalized = params.normalize();
    if depth == 0 {
        return normalized.iter().len();
    }
    let base = BaseString::new("POST", BaseStringUri::new(&url), normalized).unwrap();
    if depth == 1 {
        let mut n = Counter(0);
        base.write_to(&mut n);
        return n.0;
    }
    key.sign(&base).unwrap().as_str().len()
}

#[inline(never)]
fn run_case(n: usize, f: &mut dyn FnMut() -> usize) -> usize {
    let mut acc = 0;
    for _ in 0..n {
        acc += f();
    }
    acc
}

fn main() {
    let mut args = std::env::args().skip(1);
    let case = args.next().unwrap_or_else(|| "x_docs".into());
    let n: usize = args.next().map_or(1000, |s| s.parse().unwrap());

    let signer = Signer::builder(
        Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET),
    )
    .with_nonce(NONCE)
    .with_timestamp(TIMESTAMP)
    .build()
    .unwrap();
    let get20 = get20_url();
    let x_docs = OAuthRequest::post(X_DOCS_URL).form_body(X_DOCS_BODY);
    let key = SigningKey::new(SignatureMethod::HmacSha1, CONSUMER_SECRET, TOKEN_SECRET).unwrap();
    let get20_req = OAuthRequest::get(&get20);
    let keyed = <Hmac<Sha1> as KeyInit>::new_from_slice(
        format!("{CONSUMER_SECRET}&{TOKEN_SECRET}").as_bytes(),
    )
    .unwrap();
    let mut peer = oauth::Builder::with_token(
        oauth::Token::from_parts(CONSUMER_KEY, CONSUMER_SECRET, TOKEN, TOKEN_SECRET),
        oauth::HMAC_SHA1,
    );
    peer.nonce(NONCE)
        .timestamp(NonZeroU64::new(1318622958))
        .version(true);
    let x_docs_params = oauth::ParameterList::new(X_DOCS_PARAMS);
    let get20_params = oauth::ParameterList::new(get20_params());
    let tweet = "Hello Ladies + Gentlemen, a signed OAuth request! Who's up for lunch at 12:30? "
        .repeat(13);
    let non_ascii = "नमस्ते दुनिया! İstanbul'da güzel bir gün; 🎉🚀✨ Günaydın! ".repeat(13);
    let identifiers = "oauth_consumer_key xvz1evFS4wEEPTGEFPHBog 370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb ".repeat(10);
    let floor = |request: &OAuthRequest<'_>| {
        let base = signer.trace(request).unwrap().base_string;
        move || {
            let mut mac = keyed.clone();
            mac.update(black_box(base.as_bytes()));
            let mut out = [0u8; 28];
            base64::Engine::encode_slice(
                &base64::engine::general_purpose::STANDARD,
                mac.finalize().into_bytes(),
                &mut out,
            )
            .unwrap()
        }
    };
    let mut out = String::with_capacity(1 << 16);
    let mut encode = move |text: &str| {
        out.clear();
        oauth1_signer::text::percent_encode_str(black_box(text)).write_to(&mut out);
        out.len()
    };

    let mut f: Box<dyn FnMut() -> usize> = match case.as_str() {
        "x_docs" => Box::new(|| {
            signer
                .authorization_header(black_box(&x_docs))
                .unwrap()
                .len()
        }),
        // A signer built for each request, as `ours_fresh` in the bench.
        "fresh_x_docs" => Box::new(|| {
            Signer::builder(
                Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET),
            )
            .with_nonce(NONCE)
            .with_timestamp(TIMESTAMP)
            .build()
            .unwrap()
            .authorization_header(black_box(&x_docs))
            .unwrap()
            .len()
        }),
        "get20" => Box::new(|| {
            signer
                .authorization_header(black_box(&get20_req))
                .unwrap()
                .len()
        }),
        "floor_x_docs" => Box::new(floor(&x_docs)),
        "floor_get20" => Box::new(floor(&get20_req)),
        "peer_x_docs" => Box::new(|| peer.post(X_DOCS_URI, black_box(&x_docs_params)).len()),
        "peer_get20" => Box::new(|| peer.get(GET20_URI, black_box(&get20_params)).len()),
        // Stages of the X docs request through the public pipeline, to see
        // where the time goes: collect + sort, + base string into a counter,
        // + HMAC.
        "stage_collect" => Box::new(|| stages(&key, 0)),
        "stage_base" => Box::new(|| stages(&key, 1)),
        "stage_sign" => Box::new(|| stages(&key, 2)),
        // The crate's MAC over the finished base string: the floor through
        // `SigningKey`, to tell the MAC's cost from the writing's.
        "sign_bytes_x_docs" => {
            let base = signer.trace(&x_docs).unwrap().base_string;
            Box::new(move || {
                key.sign_bytes(black_box(base.as_bytes()))
                    .unwrap()
                    .as_str()
                    .len()
            })
        }
        "encode_identifiers" => Box::new(|| encode(&identifiers)),
        "encode_tweet" => Box::new(|| encode(&tweet)),
        "encode_non_ascii" => Box::new(|| encode(&non_ascii)),
        other => panic!("unknown case {other}"),
    };
    let total = run_case(n, &mut f);
    // Best of thirty timed repeats, for quick A/B checks on a noisy machine.
    let mut best = f64::NAN;
    if std::env::var_os("TIME").is_some() {
        best = f64::INFINITY;
        for _ in 0..30 {
            let start = std::time::Instant::now();
            black_box(run_case(n, &mut f));
            let t = start.elapsed().as_nanos() as f64 / n as f64;
            best = best.min(t);
            if std::env::var_os("ALL").is_some() {
                eprint!("{t:.0} ");
            }
        }
    }
    println!("{case} x{n}: {total} {best:.1} ns/iter");
}
