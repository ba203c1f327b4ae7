//! How the cost grows with the request: form bodies and queries of 1 KB to
//! 10 MB, 10 to 100k parameters (request parameters in the query and in the
//! body, extra protocol parameters), through `Signer::authorization` and
//! `Signer::trace`, and the CLI's four output formats on the real binary.
//! With the `explain` feature, `Explainer` too: a saved response body of
//! 1 KB to 10 MB searched for the base string, their header with 10 to 10k
//! protocol parameters, their base string with 10 to 10k parameters on
//! both sides, and the signature search over 10 to 10k query parameters.
//! The three-legged flow's token answers with 10 to 5,000 parameters.
//!
//! Every group reports its cost per byte or per parameter
//! (`Throughput::Bytes`/`Elements`): a flat per-unit cost means linear time.
//! At the end the run prints that table, from criterion's estimates.
//!
//! ```sh
//! cargo build --release -p oauth1-cli   # for the cli group; skipped without it
//! cargo bench --bench scaling
//! ```

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;
#[path = "../tests/common/x_docs.rs"]
mod x_docs;

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};
use oauth1_signer::{
    flow::{TokenCredentials, MAX_TOKEN_ANSWER},
    OAuthRequest, Signer,
};
use percent_encoding::utf8_percent_encode;

use common::*;

/// 1 KB to 10 MB, ×10 apart.
const SIZES: [usize; 5] = [1_000, 10_000, 100_000, 1_000_000, 10_000_000];
/// 10 to 100k parameters, ×10 apart.
const COUNTS: [usize; 5] = [10, 100, 1_000, 10_000, 100_000];

const URL: &str = "https://api.x.com/1.1/statuses/update.json";

/// Text as people write it, percent-encoded by `percent-encoding` as a client
/// sends it: spaces, punctuation, Turkish, Hindi and emoji escaped.
const TEXTS: [&str; 6] = [
    "Hello Ladies + Gentlemen, a signed OAuth request!",
    "İstanbul'da güzel bir gün",
    "नमस्ते दुनिया",
    "🎉🚀✨ shipping v2.0 today (50% off)",
    "a=b&c=d; path=/x?y",
    "Günaydın! Nasılsın?",
];

/// The `i`th of `n` names, in an order that is not sorted (7919 is prime to 10).
fn shuffled(i: usize, n: usize) -> usize {
    (i * 7919) % n
}

/// A form body (also a query) of exactly `size` bytes: `f000123=value` pairs,
/// values escaped text or plain identifiers, the last value padded.
fn content(size: usize, escaped: bool) -> String {
    let n = size / 40 + 1;
    let mut out = String::with_capacity(size);
    for i in 0.. {
        let mut pair = format!("{}f{:07}=", if i == 0 { "" } else { "&" }, shuffled(i, n));
        if escaped {
            pair.extend(utf8_percent_encode(TEXTS[i % TEXTS.len()], RFC3986));
        } else {
            pair.push_str(&format!("user_{:010}-{:08x}.v2", i * 7, i * 2_654_435_761));
        }
        if out.len() + pair.len() > size {
            break;
        }
        out.push_str(&pair);
    }
    while out.len() < size {
        out.push('x');
    }
    out
}

/// `n` short request parameters, `p000123=v123`, joined by `&`.
fn request_params(n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        if i > 0 {
            out.push('&');
        }
        out.push_str(&format!("p{:06}=v{i}", shuffled(i, n)));
    }
    out
}

/// `n` extra protocol parameters, `oauth_x000123`.
fn protocol_params(n: usize) -> Vec<(String, String)> {
    (0..n)
        .map(|i| (format!("oauth_x{:06}", shuffled(i, n)), format!("v{i}")))
        .collect()
}

/// Short runs: 10 samples, flat sampling (one iteration each for the big
/// cases), so that a 10 MB case costs a second, not minutes.
fn configure(group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(100))
        .measurement_time(Duration::from_millis(500))
        .nresamples(10_000);
}

/// `authorization` and `trace` on one request, checked to agree first.
fn lib_pair(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    signer: &Signer,
    request: &OAuthRequest<'_>,
    case: &str,
    x: usize,
) {
    let header = signer.authorization_header(request).unwrap();
    assert_eq!(signer.trace(request).unwrap().authorization_header, header);
    group.bench_with_input(
        BenchmarkId::new(format!("authorization/{case}"), x),
        request,
        |b, r| b.iter(|| signer.authorization_header(black_box(r)).unwrap()),
    );
    group.bench_with_input(
        BenchmarkId::new(format!("trace/{case}"), x),
        request,
        |b, r| b.iter(|| signer.trace(black_box(r)).unwrap()),
    );
}

fn bytes(c: &mut Criterion) {
    let signer = signer();
    let mut group = c.benchmark_group("scaling/bytes");
    configure(&mut group);
    for size in SIZES {
        group.throughput(Throughput::Bytes(size as u64));
        for (kind, escaped) in [("escaped", true), ("identifiers", false)] {
            let text = content(size, escaped);
            assert_eq!(text.len(), size);
            let request = OAuthRequest::post(URL).form_body(text.as_bytes());
            lib_pair(&mut group, &signer, &request, &format!("body-{kind}"), size);
            let url = format!("{URL}?{text}");
            let request = OAuthRequest::get(&url);
            lib_pair(
                &mut group,
                &signer,
                &request,
                &format!("query-{kind}"),
                size,
            );
        }
    }
    group.finish();
}

fn params(c: &mut Criterion) {
    let signer = signer();
    let mut group = c.benchmark_group("scaling/params");
    configure(&mut group);
    for n in COUNTS {
        group.throughput(Throughput::Elements(n as u64));
        let text = request_params(n);
        let url = format!("{URL}?{text}");
        lib_pair(&mut group, &signer, &OAuthRequest::get(&url), "query", n);
        let request = OAuthRequest::post(URL).form_body(text.as_bytes());
        lib_pair(&mut group, &signer, &request, "body", n);
        let extras = protocol_params(n);
        let request = OAuthRequest::post(URL).protocol_params(&extras);
        lib_pair(&mut group, &signer, &request, "protocol", n);
    }
    group.finish();
}

/// 10 to 5,000 parameters: 5,000 `&p0123=v` pairs are 40 KB, under
/// `MAX_TOKEN_ANSWER` (64 KiB), the largest answer the flow reads.
const ANSWER_COUNTS: [usize; 4] = [10, 100, 1_000, 5_000];

/// A token answer of `n` extra parameters, in no sorted order.
fn token_answer(n: usize) -> String {
    let mut body = String::from("oauth_token=t&oauth_token_secret=s");
    for i in 0..n {
        body.push_str(&format!("&p{:04}=v", shuffled(i, n)));
    }
    assert!(body.len() <= MAX_TOKEN_ANSWER);
    body
}

/// The three-legged flow's token answers: parsed strictly, names checked
/// for duplicates (sorted once, not compared pairwise).
fn flow(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling/flow");
    configure(&mut group);
    for n in ANSWER_COUNTS {
        group.throughput(Throughput::Elements(n as u64));
        let body = token_answer(n);
        group.bench_with_input(BenchmarkId::new("token-answer", n), &body, |b, body| {
            b.iter(|| TokenCredentials::parse(black_box(body.as_bytes())).unwrap())
        });
    }
    group.finish();
}

/// Where cargo put its outputs: `CARGO_TARGET_TMPDIR` is `<target>/tmp`.
fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn cli(c: &mut Criterion) {
    let bin = std::env::var_os("OAUTH1_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| target_dir().join("release/oauth1"));
    if !bin.exists() {
        eprintln!(
            "scaling/cli skipped: no {} (cargo build --release -p oauth1-cli)",
            bin.display()
        );
        return;
    }
    let run = |args: &[&str]| {
        let status = Command::new(&bin)
            .args(args)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "oauth1 {args:?}: {status}");
    };
    let mut group = c.benchmark_group("scaling/cli");
    configure(&mut group);
    // What every run pays whatever the input: starting the process.
    group.bench_function("startup", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for _ in 0..iters {
                run(&["sign", "--example", "--format", "header"]);
            }
            start.elapsed()
        })
    });
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("scaling");
    std::fs::create_dir_all(&dir).unwrap();
    for size in SIZES {
        // The X docs request (the inputs of fixtures/signatures.json's vector
        // `x-docs-creating-a-signature`, a request file as `--request` reads
        // it) with its body grown to `size` bytes of escaped text.
        let mut spec = x_docs::inputs();
        spec["form_body"] = content(size, true).into();
        let file = dir.join(format!("body-{size}.json"));
        std::fs::write(&file, serde_json::to_vec(&spec).unwrap()).unwrap();
        let file = file.to_str().unwrap();
        group.throughput(Throughput::Bytes(size as u64));
        for format in ["header", "json", "curl", "trace"] {
            let args = ["sign", "--request", file, "--format", format];
            run(&args);
            group.bench_with_input(BenchmarkId::new(format, size), &args, |b, args| {
                b.iter_custom(|iters| {
                    let start = Instant::now();
                    for _ in 0..iters {
                        run(args);
                    }
                    start.elapsed()
                })
            });
        }
    }
    group.finish();
}

/// The per-unit table, from criterion's estimates of this run's benchmarks.
fn table() {
    let root = std::env::var_os("CRITERION_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| target_dir().join("criterion"));
    let mean = |group: &str, id: &str| -> Option<f64> {
        let path = root.join(group).join(id).join("new/estimates.json");
        let json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
        json["mean"]["point_estimate"].as_f64()
    };
    let rows: [(&str, &[usize], &[&str]); 5] = [
        (
            "scaling_bytes",
            &SIZES,
            &[
                "authorization_body-escaped",
                "trace_body-escaped",
                "authorization_body-identifiers",
                "trace_body-identifiers",
                "authorization_query-escaped",
                "trace_query-escaped",
                "authorization_query-identifiers",
                "trace_query-identifiers",
            ],
        ),
        (
            "scaling_params",
            &COUNTS,
            &[
                "authorization_query",
                "trace_query",
                "authorization_body",
                "trace_body",
                "authorization_protocol",
                "trace_protocol",
            ],
        ),
        (
            "scaling_explain",
            &SIZES,
            &["response-body-debug-sbs", "response-body-text"],
        ),
        (
            "scaling_explain",
            &[10, 100, 1_000, 10_000],
            &["their-header", "their-base-string", "signature-search"],
        ),
        ("scaling_flow", &ANSWER_COUNTS, &["token-answer"]),
    ];
    for (group, xs, cases) in rows {
        let unit = if xs == SIZES {
            "ns per byte"
        } else {
            "ns per parameter"
        };
        print_table(&format!("{group}: {unit}"), xs, cases, |case, i| {
            Some(mean(group, &format!("{case}/{}", xs[i]))? / xs[i] as f64)
        });
    }
    // A process start-up (about 3 ms) dwarfs a small request: show the time
    // per run, and the cost per byte of the bytes added since the size before.
    let cli = |case: &str, x: usize| mean("scaling_cli", &format!("{case}/{x}"));
    let formats = ["header", "json", "curl", "trace"];
    print_table("scaling_cli: ms per run", &SIZES, &formats, |case, i| {
        Some(cli(case, SIZES[i])? / 1e6)
    });
    print_table(
        "scaling_cli: ns per added byte, (t(size) - t(size before)) / (size - size before)",
        &SIZES[1..],
        &formats,
        |case, i| {
            let (x0, x1) = (SIZES[i], SIZES[i + 1]);
            Some((cli(case, x1)? - cli(case, x0)?) / (x1 - x0) as f64)
        },
    );
    if let Some(s) = mean("scaling_cli", "startup") {
        println!("\nCLI process start-up (sign --example): {:.2} ms", s / 1e6);
    }
}

/// A markdown table: a row per case, a column per size, and the spread.
fn print_table(
    title: &str,
    xs: &[usize],
    cases: &[&str],
    cell: impl Fn(&str, usize) -> Option<f64>,
) {
    if cases
        .iter()
        .all(|case| (0..xs.len()).all(|i| cell(case, i).is_none()))
    {
        return;
    }
    println!("\n{title}\n");
    let head: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    println!("| case | {} | max ÷ min |", head.join(" | "));
    println!("|---|{}---|", "---|".repeat(xs.len()));
    for case in cases {
        let cells: Vec<Option<f64>> = (0..xs.len()).map(|i| cell(case, i)).collect();
        let shown: Vec<String> = cells
            .iter()
            .map(|c| c.map_or("-".into(), |c| format!("{c:.3}")))
            .collect();
        let got: Vec<f64> = cells.iter().flatten().copied().collect();
        let spread = got.iter().copied().fold(f64::MIN, f64::max)
            / got.iter().copied().fold(f64::MAX, f64::min);
        println!("| {case} | {} | {spread:.2} |", shown.join(" | "));
    }
}

/// 10 to 10k parameters: the explainer's worst cases run a thousand base
/// strings of that size (the signature search's pairs).
#[cfg(feature = "explain")]
const EXPLAIN_COUNTS: [usize; 4] = [10, 100, 1_000, 10_000];

/// A signature no variant of the search reproduces: nothing stops it early.
#[cfg(feature = "explain")]
const NOT_THEIRS: &str = "AAAAAAAAAAAAAAAAAAAAAAAAAAA=";

#[cfg(feature = "explain")]
fn explain(c: &mut Criterion) {
    use oauth1_signer::explain::{find_base_string_in_response, Explainer};
    let signer = signer();
    let mut group = c.benchmark_group("scaling/explain");
    configure(&mut group);
    // A response body: a form-like run with no space (one long word with
    // `&`s), then their base string at the very end, as debug_sbs or in text.
    let theirs = signer
        .trace(&OAuthRequest::get(&format!("{URL}?a=1")))
        .unwrap()
        .base_string;
    let tails = [
        (
            "response-body-debug-sbs",
            format!(
                " oauth_problem=signature_invalid&debug_sbs={}",
                utf8_percent_encode(&theirs, RFC3986)
            ),
        ),
        (
            "response-body-text",
            format!(" Expected signature base string: {theirs}"),
        ),
    ];
    for size in SIZES {
        group.throughput(Throughput::Bytes(size as u64));
        for (case, tail) in &tails {
            let mut body = content(size - tail.len(), true);
            body.push_str(tail);
            assert_eq!(
                find_base_string_in_response(&body).unwrap().base_string,
                theirs
            );
            group.bench_with_input(BenchmarkId::new(*case, size), &body, |b, body| {
                b.iter(|| find_base_string_in_response(black_box(body)))
            });
        }
    }
    for n in EXPLAIN_COUNTS {
        group.throughput(Throughput::Elements(n as u64));
        // Their header: our n protocol parameters, another signature.
        let extras = protocol_params(n);
        let request = OAuthRequest::post(URL).protocol_params(&extras);
        let ex = Explainer::new(&signer, &request).unwrap();
        let header = ex.trace().authorization_header.clone();
        let at = header.find("oauth_signature=\"").unwrap() + "oauth_signature=\"".len();
        let end = at + header[at..].find('"').unwrap();
        let header = format!("{}{NOT_THEIRS}{}", &header[..at], &header[end..]);
        assert!(!ex.header(&header).unwrap().matches);
        group.bench_with_input(BenchmarkId::new("their-header", n), &header, |b, h| {
            b.iter(|| ex.header(black_box(h)).unwrap())
        });
        // Their base string: n query parameters on both sides, each value
        // another (the hardest to match: every pass looks at every pair).
        let url = format!("{URL}?{}", request_params(n));
        let ex = Explainer::new(&signer, &OAuthRequest::get(&url)).unwrap();
        let theirs = ex.trace().base_string.replace("%3Dv", "%3Dw");
        assert!(!ex.base_string(&theirs).matches);
        group.bench_with_input(BenchmarkId::new("their-base-string", n), &theirs, |b, t| {
            b.iter(|| ex.base_string(black_box(t)))
        });
        // Their signature alone, over the same n query parameters.
        assert!(!ex.signature(NOT_THEIRS).matches);
        group.bench_function(BenchmarkId::new("signature-search", n), |b| {
            b.iter(|| ex.signature(black_box(NOT_THEIRS)))
        });
    }
    group.finish();
}

#[cfg(not(feature = "explain"))]
fn explain(_: &mut Criterion) {
    eprintln!("scaling/explain skipped: build with --features explain");
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bytes(&mut c);
    params(&mut c);
    flow(&mut c);
    explain(&mut c);
    cli(&mut c);
    c.final_summary();
    table();
}
