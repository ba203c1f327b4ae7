//! The driver of the instruction-count guard: runs one measured operation N
//! times inside `run_case`, which `valgrind --tool=callgrind
//! --toggle-collect='*run_case*'` counts alone. Process start-up, the set-up
//! of each case, its warm-up calls and the checks that each contender
//! produces the right answer are outside it.
//!
//! ```text
//! cargo build --profile instructions -p oauth1-instructions
//! valgrind --tool=callgrind --toggle-collect='*run_case*' \
//!     target/instructions/oauth1-instructions sign_get20 1000
//! ```
//!
//! `benches/instructions.py` runs the guarded cases and compares them with
//! `benches/instructions.json`; `oauth1-instructions list` names every case.
//! `TIME=1` adds the best of thirty timed repeats, for quick A/B checks on a
//! noisy machine (never a verdict).

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Instant;

use hmac::{Hmac, KeyInit, Mac};
use oauth1_signer::pipeline::{BaseString, BaseStringUri, Params, RequestUrl, SigningKey};
use oauth1_signer::text::Sink;
use oauth1_signer::verify::{
    Lookup, MemoryNonceStore, NonceKey, Received, SecretFuture, SecretSource, Secrets,
    StaticSecrets, Verifier,
};
use oauth1_signer::{Credentials, OAuthRequest, SignatureMethod};
use sha1::Sha1;

use common::*;

/// Calls made before `run_case`, so that nothing done once (a lazily keyed
/// MAC, a first allocation) is counted.
const WARM_UP: usize = 10;

/// The cases: name, what is measured.
const CASES: &[(&str, &str)] = &[
    (
        "sign_x_docs",
        "ours: Signer::authorization_header, X docs request, reused signer",
    ),
    ("sign_get20", "ours: the same, the 20-parameter GET"),
    (
        "fresh_x_docs",
        "ours: a Signer built for each X docs request",
    ),
    (
        "peer_x_docs",
        "oauth1-request 0.6 (derive): Builder::authorize, X docs request",
    ),
    (
        "peer_get20",
        "oauth1-request 0.6 (derive): the 20-parameter GET",
    ),
    (
        "peer_list_x_docs",
        "oauth1-request 0.6 (ParameterList, sorted before): X docs",
    ),
    (
        "peer_list_get20",
        "oauth1-request 0.6 (ParameterList, sorted before): the GET",
    ),
    (
        "floor_x_docs",
        "hmac + sha1 + base64 over the finished base string, key reused",
    ),
    ("floor_get20", "the same, the 20-parameter GET"),
    (
        "verify_x_docs",
        "ours: Verifier::verify_at, X docs request, a store that is not measured",
    ),
    (
        "verify_unordered_x_docs",
        "ours: verify_at, the same header in oauthlib's order (not sorted)",
    ),
    (
        "nonce_key_x_docs",
        "ours: NonceKey::new alone (the store's key, SHA-256)",
    ),
    (
        "verify_memory_x_docs",
        "ours: verify_at with a MemoryNonceStore, a fresh nonce each",
    ),
    (
        "unknown_x_docs",
        "ours: verify_at, an unknown consumer key (the dummy secret)",
    ),
    (
        "fresh_secrets_x_docs",
        "ours: verify_at, a source that builds new Secrets per lookup",
    ),
    (
        "encode_tweet_64k",
        "ours: percent_encode_str of 64 KiB of tweet-like text",
    ),
    (
        "encode_non_ascii_64k",
        "ours: the same, 64 KiB of Hindi, Turkish and emoji",
    ),
    (
        "peer_encode_tweet_64k",
        "percent-encoding 2 (RFC 3986 unreserved set): tweet-like",
    ),
    (
        "peer_encode_non_ascii_64k",
        "percent-encoding 2: Hindi, Turkish and emoji",
    ),
    (
        "stage_collect",
        "ours, public stages: X docs URL parsed, parameters collected, sorted",
    ),
    (
        "stage_base",
        "ours, public stages: and the base string written into a counter",
    ),
    ("stage_sign", "ours, public stages: and signed"),
    (
        "sign_bytes_x_docs",
        "ours: SigningKey::sign_bytes over the finished base string",
    ),
];

/// Counts the bytes written into it: a sink that costs next to nothing.
struct Counter(usize);

impl Sink for Counter {
    fn put(&mut self, bytes: &[u8]) {
        self.0 += bytes.len();
    }
}

/// A source without a cache: new `Secrets` for every lookup.
struct FreshSecrets;

impl SecretSource for FreshSecrets {
    fn secrets<'a>(&'a self, _: &'a str, _: Option<&'a str>) -> SecretFuture<'a> {
        Box::pin(std::future::ready(Ok(Lookup::Found(Secrets::new(
            CONSUMER_SECRET,
            TOKEN_SECRET,
        )))))
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

/// The measured calls: the only function callgrind counts.
#[inline(never)]
fn run_case(n: usize, f: &mut dyn FnMut() -> usize) -> usize {
    let mut acc = 0;
    for _ in 0..n {
        acc += f();
    }
    acc
}

/// The same calls, not counted (callgrind counts `run_case` by its name;
/// written unlike it, so that the two are not folded into one function).
#[inline(never)]
fn warm_up(n: usize, f: &mut dyn FnMut() -> usize) {
    for _ in 0..n {
        black_box(f());
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let case = args.next().unwrap_or_else(|| "list".into());
    if case == "sizes" {
        let credentials =
            Credentials::new(CONSUMER_KEY, CONSUMER_SECRET).with_token(TOKEN, TOKEN_SECRET);
        let v = Verifier::builder(StaticSecrets::new(credentials), Unmeasured)
            .build()
            .unwrap();
        let r = Received::new("POST", X_DOCS_URL);
        let f = v.verify_at(&r, 0);
        println!("future {}", std::mem::size_of_val(&f));
        println!(
            "result {}",
            std::mem::size_of::<
                Result<oauth1_signer::verify::Verified, oauth1_signer::verify::Rejection>,
            >()
        );
        return;
    }
    if case == "list" {
        for (name, what) in CASES {
            println!("{name:<26} {what}");
        }
        return;
    }
    let n: usize = args.next().map_or(1000, |s| s.parse().unwrap());

    let signer = signer_with_nonce(NONCE);
    let peer = peer();
    let get20 = get20_url();
    let x_docs = OAuthRequest::post(X_DOCS_URL).form_body(X_DOCS_BODY);
    let get20_req = OAuthRequest::get(&get20);
    let key = SigningKey::new(SignatureMethod::HmacSha1, CONSUMER_SECRET, TOKEN_SECRET).unwrap();
    let keyed = <Hmac<Sha1> as KeyInit>::new_from_slice(
        format!("{CONSUMER_SECRET}&{TOKEN_SECRET}").as_bytes(),
    )
    .unwrap();
    let x_docs_list = oauth::ParameterList::new(X_DOCS_PARAMS);
    let get20_list = oauth::ParameterList::new(get20_params());

    // Every signing contender agrees before anything is counted.
    let x_docs_header = signer.authorization_header(&x_docs).unwrap();
    let get20_header = signer.authorization_header(&get20_req).unwrap();
    assert_eq!(signature_of(&x_docs_header), "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=");
    for (ours, theirs) in [
        (&x_docs_header, peer.post(X_DOCS_URI, &x_docs_derived())),
        (&x_docs_header, peer.post(X_DOCS_URI, &x_docs_list)),
        (&get20_header, peer.get(GET20_URI, &get20_derived())),
        (&get20_header, peer.get(GET20_URI, &get20_list)),
    ] {
        assert_eq!(signature_of(ours), signature_of(&theirs));
    }
    let floor = |request: &OAuthRequest<'_>| {
        let base = signer.trace(request).unwrap().base_string;
        let want = signer.trace(request).unwrap().signature;
        let keyed = keyed.clone();
        let mac = move || {
            let mut mac = keyed.clone();
            mac.update(black_box(base.as_bytes()));
            let mut out = [0u8; 28];
            let n = base64::Engine::encode_slice(
                &base64::engine::general_purpose::STANDARD,
                mac.finalize().into_bytes(),
                &mut out,
            )
            .unwrap();
            (out, n)
        };
        let (out, len) = mac();
        assert_eq!(&out[..len], want.as_str().as_bytes());
        move || mac().1
    };

    // Verifying: the X docs request as the signer sent it.
    let at: u64 = TIMESTAMP.parse().unwrap();
    let received = Received::new("POST", X_DOCS_URL)
        .authorization_header(&x_docs_header)
        .form_body(X_DOCS_BODY);
    // The same parameters in the order oauthlib and requests-oauthlib send
    // them (`Client.get_oauth_params`, the signature appended last), as
    // many Python clients do: a header whose names the verifier must sort.
    let unordered_header = {
        let pairs: Vec<&str> = x_docs_header["OAuth ".len()..].split(", ").collect();
        let order = [
            "oauth_nonce",
            "oauth_timestamp",
            "oauth_version",
            "oauth_signature_method",
            "oauth_consumer_key",
            "oauth_token",
            "oauth_signature",
        ];
        assert_eq!(pairs.len(), order.len(), "{x_docs_header}");
        let reordered: Vec<&str> = order
            .iter()
            .map(|name| {
                let pair = pairs.iter().find(|p| p.starts_with(&format!("{name}=")));
                *pair.unwrap()
            })
            .collect();
        format!("OAuth {}", reordered.join(", "))
    };
    let unordered = Received::new("POST", X_DOCS_URL)
        .authorization_header(&unordered_header)
        .form_body(X_DOCS_BODY);
    let unknown_header = x_docs_header.replacen(CONSUMER_KEY, "someone-else", 1);
    let unknown = Received::new("POST", X_DOCS_URL)
        .authorization_header(&unknown_header)
        .form_body(X_DOCS_BODY);
    let verifier = Verifier::builder(StaticSecrets::new(credentials()), Unmeasured)
        .build()
        .unwrap();
    let fresh_secrets = Verifier::builder(FreshSecrets, Unmeasured).build().unwrap();
    now(verifier.verify_at(&received, at)).unwrap();
    now(verifier.verify_at(&unknown, at)).unwrap_err();
    now(verifier.verify_at(&unordered, at)).unwrap();
    now(fresh_secrets.verify_at(&received, at)).unwrap();
    // With the memory store every request needs a nonce of its own: signed
    // here, each as long as the pinned one (so every base string is as
    // long), with a clock that stands still (nothing expires).
    let memory_headers: Vec<String> = if case == "verify_memory_x_docs" {
        (0..WARM_UP + n)
            .map(|i| {
                let nonce = format!("{}{i:06}", &NONCE[..NONCE.len() - 6]);
                signer_with_nonce(&nonce)
                    .authorization_header(&x_docs)
                    .unwrap()
            })
            .collect()
    } else {
        Vec::new()
    };
    let memory_received: Vec<Received<'_>> = memory_headers
        .iter()
        .map(|h| {
            Received::new("POST", X_DOCS_URL)
                .authorization_header(h)
                .form_body(X_DOCS_BODY)
        })
        .collect();
    let still = Instant::now();
    let memory = Verifier::builder(
        StaticSecrets::new(credentials()),
        MemoryNonceStore::with_clock(WARM_UP + n + 1, move || still),
    )
    .build()
    .unwrap();
    let mut next_memory = memory_received.iter();

    // Encoding: 64 KiB of text into a reused `String`, checked against the peer.
    let encode_input = |text: &str| {
        let input = corpus(text, 64 * 1024);
        let want = percent_encoding::utf8_percent_encode(&input, RFC3986).to_string();
        assert_eq!(
            oauth1_signer::text::percent_encode_str(&input).to_string(),
            want
        );
        (input, String::with_capacity(want.len()))
    };
    let ours_encode = |(input, mut out): (String, String)| {
        move || {
            out.clear();
            oauth1_signer::text::percent_encode_str(black_box(&input)).write_to(&mut out);
            out.len()
        }
    };
    let peer_encode = |(input, mut out): (String, String)| {
        move || {
            out.clear();
            out.extend(percent_encoding::utf8_percent_encode(
                black_box(&input),
                RFC3986,
            ));
            out.len()
        }
    };

    let mut f: Box<dyn FnMut() -> usize + '_> = match case.as_str() {
        "sign_x_docs" => Box::new(|| {
            signer
                .authorization_header(black_box(&x_docs))
                .unwrap()
                .len()
        }),
        "sign_get20" => Box::new(|| {
            signer
                .authorization_header(black_box(&get20_req))
                .unwrap()
                .len()
        }),
        "fresh_x_docs" => Box::new(|| {
            signer_with_nonce(NONCE)
                .authorization_header(black_box(&x_docs))
                .unwrap()
                .len()
        }),
        "peer_x_docs" => Box::new(|| {
            peer.post(black_box(X_DOCS_URI), black_box(&x_docs_derived()))
                .len()
        }),
        "peer_get20" => Box::new(|| {
            peer.get(black_box(GET20_URI), black_box(&get20_derived()))
                .len()
        }),
        "peer_list_x_docs" => Box::new(|| peer.post(X_DOCS_URI, black_box(&x_docs_list)).len()),
        "peer_list_get20" => Box::new(|| peer.get(GET20_URI, black_box(&get20_list)).len()),
        "floor_x_docs" => Box::new(floor(&x_docs)),
        "floor_get20" => Box::new(floor(&get20_req)),
        "verify_x_docs" => Box::new(|| {
            now(verifier.verify_at(black_box(&received), at))
                .unwrap()
                .base_string()
                .len()
        }),
        "verify_unordered_x_docs" => Box::new(|| {
            now(verifier.verify_at(black_box(&unordered), at))
                .unwrap()
                .base_string()
                .len()
        }),
        "nonce_key_x_docs" => Box::new(|| {
            NonceKey::new(black_box(CONSUMER_KEY), TOKEN, at, NONCE).as_bytes()[0].into()
        }),
        "verify_memory_x_docs" => Box::new(|| {
            let received = next_memory.next().unwrap();
            now(memory.verify_at(black_box(received), at))
                .unwrap()
                .base_string()
                .len()
        }),
        "unknown_x_docs" => Box::new(|| {
            now(verifier.verify_at(black_box(&unknown), at))
                .unwrap_err()
                .base_string()
                .map_or(0, str::len)
        }),
        "fresh_secrets_x_docs" => Box::new(|| {
            now(fresh_secrets.verify_at(black_box(&received), at))
                .unwrap()
                .base_string()
                .len()
        }),
        "encode_tweet_64k" => Box::new(ours_encode(encode_input(TWEET))),
        "encode_non_ascii_64k" => Box::new(ours_encode(encode_input(NON_ASCII))),
        "peer_encode_tweet_64k" => Box::new(peer_encode(encode_input(TWEET))),
        "peer_encode_non_ascii_64k" => Box::new(peer_encode(encode_input(NON_ASCII))),
        "stage_collect" => Box::new(|| stages(&key, 0)),
        "stage_base" => Box::new(|| stages(&key, 1)),
        "stage_sign" => Box::new(|| stages(&key, 2)),
        "sign_bytes_x_docs" => {
            let base = signer.trace(&x_docs).unwrap().base_string;
            Box::new(move || {
                key.sign_bytes(black_box(base.as_bytes()))
                    .unwrap()
                    .as_str()
                    .len()
            })
        }
        other => panic!("unknown case {other} (`list` names them)"),
    };
    warm_up(WARM_UP, &mut f);
    let total = black_box(run_case(n, &mut f));
    // Best of thirty timed repeats (TIME=1), for quick A/B checks; the
    // memory store's case has only its own requests, so it is not timed.
    let mut best = f64::NAN;
    if std::env::var_os("TIME").is_some() && case != "verify_memory_x_docs" {
        best = f64::INFINITY;
        for _ in 0..30 {
            let start = Instant::now();
            warm_up(n, &mut f);
            best = best.min(start.elapsed().as_nanos() as f64 / n as f64);
        }
    }
    println!("{case} x{n}: {total} {best:.1} ns/iter");
}
