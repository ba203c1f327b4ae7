//! The signature search of `explain`: every catalogued mistake and every pair
//! of them, for the X docs "Creating a signature" request, when none
//! reproduces the signature (the worst case: nothing stops the search early).
//! And the same search on GET requests of 10 and 100 query parameters, to
//! show how it grows with the number of parameters.
#![allow(missing_docs, clippy::unwrap_used)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use oauth1_signer::{explain::Explainer, Credentials, OAuthRequest, Signer};

fn signer() -> Signer {
    Signer::builder(
        Credentials::new(
            "xvz1evFS4wEEPTGEFPHBog",
            "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
        )
        .with_token(
            "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
            "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
        ),
    )
    .with_nonce("kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg")
    .with_timestamp("1318622958")
    .build()
    .unwrap()
}

/// A signature no variant reproduces.
const NOT_THEIRS: &str = "AAAAAAAAAAAAAAAAAAAAAAAAAAA=";

fn search(c: &mut Criterion) {
    let request =
        OAuthRequest::post("https://api.x.com/1.1/statuses/update.json?include_entities=true")
            .form_body(
                b"status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
            );
    let ex = Explainer::new(&signer(), &request).unwrap();
    assert!(!ex.signature(NOT_THEIRS).matches);
    c.bench_function("explain_signature_x_docs_whole_search", |b| {
        b.iter(|| ex.signature(std::hint::black_box(NOT_THEIRS)))
    });

    let mut group = c.benchmark_group("explain_signature_params");
    group.sample_size(10);
    for n in [10usize, 100, 1000] {
        let query: Vec<String> = (0..n).map(|i| format!("p{i:03}=v%20{i}")).collect();
        let url = format!("https://api.x.com/2/x?{}", query.join("&"));
        let ex = Explainer::new(&signer(), &OAuthRequest::get(&url)).unwrap();
        group.bench_with_input(BenchmarkId::from_parameter(n), &ex, |b, ex| {
            b.iter(|| ex.signature(std::hint::black_box(NOT_THEIRS)))
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
