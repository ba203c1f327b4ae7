//! Percent-encoding and strict decoding throughput on three corpora, against
//! `percent-encoding` (RFC 3986 unreserved set) and `urlencoding`.
//!
//! Each contender appends into a reused `String`/`Vec`, so allocation is not
//! what is measured. Run with `cargo bench --bench encoding`.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::borrow::Cow;
use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use common::RFC3986;

/// Identifier-like: keys, tokens, ids, screen names; a separator now and then.
const IDENTIFIERS: &str = "oauth_consumer_key xvz1evFS4wEEPTGEFPHBog 370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb \
include_entities tweet_mode=extended user_id:783214 screen_name=TwitterDev kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg \
1318622958 since_id=1234567890123456789 max_results.100 expansions~author_id ";

/// English tweet-like text.
const TWEET: &str = "Hello Ladies + Gentlemen, a signed OAuth request! Just landed in NYC, the coffee here is \
great (but pricey). Who's up for lunch at 12:30? #travel @friend https://t.co/abc123 ... can't wait to see you all! ";

/// Hindi, Turkish and emoji.
const NON_ASCII: &str =
    "नमस्ते दुनिया! भारत की राजधानी नई दिल्ली है। İstanbul'da güzel bir gün; Çok teşekkür ederim, \
Şişli'de öğle yemeği 🎉🚀✨ मुझे हिंदी पसंद है 😀😃 Günaydın! Nasılsın? ❤️‍🔥 🍕🍔 Işık ılık süt iç ";

/// `text` repeated to `len` bytes, cut back to a character boundary.
fn corpus(text: &str, len: usize) -> String {
    let mut s = text.repeat(len / text.len() + 1);
    let mut end = len;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s.truncate(end);
    s
}

fn corpora() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (name, text) in [
        ("identifiers", IDENTIFIERS),
        ("tweet", TWEET),
        ("non_ascii", NON_ASCII),
    ] {
        for (size, len) in [("1KiB", 1024), ("64KiB", 64 * 1024)] {
            out.push((format!("{name}/{size}"), corpus(text, len)));
        }
    }
    out
}

fn config<'c>(
    c: &'c mut Criterion,
    group: &'static str,
) -> criterion::BenchmarkGroup<'c, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(group);
    g.warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    g
}

fn encoding(c: &mut Criterion) {
    let mut g = config(c, "encode");
    for (id, input) in corpora() {
        let want = percent_encoding::utf8_percent_encode(&input, RFC3986).to_string();
        assert_eq!(
            oauth1_signer::text::percent_encode_str(&input).to_string(),
            want
        );
        assert_eq!(urlencoding::encode(&input), want);
        let mut out = String::with_capacity(want.len());

        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_with_input(BenchmarkId::new("ours", &id), &input, |b, input| {
            b.iter(|| {
                out.clear();
                oauth1_signer::text::percent_encode_str(black_box(input)).write_to(&mut out);
                out.len()
            })
        });
        g.bench_with_input(
            BenchmarkId::new("percent_encoding", &id),
            &input,
            |b, input| {
                b.iter(|| {
                    out.clear();
                    out.extend(percent_encoding::utf8_percent_encode(
                        black_box(input),
                        RFC3986,
                    ));
                    out.len()
                })
            },
        );
        g.bench_with_input(BenchmarkId::new("urlencoding", &id), &input, |b, input| {
            b.iter(|| {
                out.clear();
                urlencoding::Encoded::str(black_box(input)).append_to(&mut out);
                out.len()
            })
        });
        g.bench_with_input(BenchmarkId::new("memcpy", &id), &input, |b, input| {
            b.iter(|| {
                out.clear();
                out.push_str(black_box(input));
                out.len()
            })
        });
    }
    g.finish();
}

fn decoding(c: &mut Criterion) {
    let mut g = config(c, "decode");
    for (id, input) in corpora() {
        let encoded = percent_encoding::utf8_percent_encode(&input, RFC3986).to_string();
        assert_eq!(
            oauth1_signer::text::percent_decode(encoded.as_bytes())
                .unwrap()
                .as_bytes(),
            input.as_bytes()
        );

        g.throughput(Throughput::Bytes(encoded.len() as u64));
        g.bench_with_input(
            BenchmarkId::new("ours_strict", &id),
            &encoded,
            |b, encoded| {
                b.iter(|| {
                    oauth1_signer::text::percent_decode(black_box(encoded.as_bytes()))
                        .unwrap()
                        .into_bytes()
                        .len()
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("percent_encoding", &id),
            &encoded,
            |b, encoded| {
                b.iter(|| {
                    let d: Cow<'_, [u8]> =
                        percent_encoding::percent_decode(black_box(encoded.as_bytes())).into();
                    d.len()
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("urlencoding", &id),
            &encoded,
            |b, encoded| b.iter(|| urlencoding::decode_binary(black_box(encoded.as_bytes())).len()),
        );
    }
    g.finish();
}

criterion_group!(benches, encoding, decoding);
criterion_main!(benches);
