//! Every public vector in `fixtures/`, checked through the library stage by
//! stage, so that a failure names the vector id and the broken stage.
//!
//! Each request vector is checked twice: once through the public stage
//! functions on their own (`RequestUrl::parse`, `Params`, `BaseString`,
//! `SigningKey`), and once through `Signer::trace`, `Signer::authorization`
//! and `Signer::sign`. Failures are collected for a whole file and reported
//! together; an `expected` stage that no check compared is a failure too.
//! The checks, by fixture file and `kind`, are in `tests/common/stages/`.
//!
//! The published values that are known to be wrong (fixtures/README.md,
//! "Published values that do not reproduce") each have a named test below
//! asserting that we give the correct value and not the misprint.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

#[cfg(feature = "http")]
use common::header_multiset;
#[cfg(feature = "rsa")]
use common::stages::rsa_cert;
use common::stages::{
    assert_clean, run, run_file, BASE_STRING, ENCODED_NAMES_PARSE, FILES, HEADERS,
    PERCENT_ENCODING, SIGNATURES,
};
use common::{load, BuildFromParamsInputs, ParseInputs, RequestInputs, UriInputs, Vector};
#[cfg(feature = "rsa")]
use oauth1_signer::SignatureMethod;
use oauth1_signer::{
    pipeline::authorization_header, pipeline::base_string_uri,
    pipeline::parse_authorization_header, pipeline::BaseString, pipeline::BaseStringUri,
    pipeline::Params, pipeline::RequestUrl, Trace,
};
use serde_json::Value;

// ---------------------------------------------------------------------------
// The tests: one per file, the count, the fixture's own consistency

#[test]
fn percent_encoding_vectors() {
    assert_clean(PERCENT_ENCODING, &run_file(PERCENT_ENCODING));
}

#[test]
fn base_string_vectors() {
    assert_clean(BASE_STRING, &run_file(BASE_STRING));
}

#[test]
fn signature_vectors() {
    assert_clean(SIGNATURES, &run_file(SIGNATURES));
}

#[test]
fn header_vectors() {
    assert_clean(HEADERS, &run_file(HEADERS));
}

/// No vector is silently skipped: each file's `count` is the number of
/// vectors it holds and the number the checks above went through.
#[test]
fn every_vector_is_checked() {
    for file in FILES {
        let fixture = load(file);
        assert_eq!(
            fixture.vectors.len(),
            fixture.count,
            "{file}: `count` is not the number of vectors"
        );
        let report = run(file, &fixture);
        assert_eq!(report.checked, fixture.count, "{file}: vectors checked");
        if cfg!(feature = "rsa") {
            assert_eq!(
                report.without_rsa,
                Vec::<String>::new(),
                "{file}: RSA vectors not fully checked"
            );
        }
        eprintln!(
            "{file}: {} of {} vectors checked ({} without their RSA signature and header stages, for lack of the `rsa` feature)",
            report.checked,
            fixture.count,
            report.without_rsa.len()
        );
    }
}

/// Ids are unique within a file, and the inline RSA keys and certificate are
/// the files in `fixtures/keys/`.
#[test]
fn fixtures_are_consistent() {
    let keys: Vec<String> = [
        "oauth_net_testcases_rsa_pkcs8.pem",
        "oauth_net_testcases_rsa.cert",
        "oauthlib_tests_rsa_pkcs1.pem",
    ]
    .iter()
    .map(|f| std::fs::read_to_string(common::fixture_path("keys").join(f)).unwrap())
    .collect();
    for file in FILES {
        let fixture = load(file);
        let mut ids: Vec<&str> = fixture.vectors.iter().map(|v| v.id.as_str()).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before, "{file}: duplicate ids");
        for v in &fixture.vectors {
            for field in ["rsa_private_key", "rsa_certificate"] {
                if let Some(pem) = v.inputs.get(field).and_then(Value::as_str) {
                    assert!(
                        keys.iter().any(|k| k.trim() == pem.trim()),
                        "{file} {}: inline {field} is not one of fixtures/keys/",
                        v.id
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// RSA signatures verified with the published certificate

/// The certificate check is not vacuous: the published RSA-SHA1 signature
/// verifies over its base string and not over a changed one.
#[cfg(feature = "rsa")]
#[test]
fn certificate_verification_rejects_a_changed_base_string() {
    let v = vector(SIGNATURES, "oauth-net-testcases-rsa-sha1");
    let inputs = request_inputs(&v);
    let cert = inputs.rsa_certificate.as_deref().unwrap();
    let base = v.expected["base_string"].as_str().unwrap();
    let signature = v.expected["signature"].as_str().unwrap();
    rsa_cert::verify(cert, SignatureMethod::RsaSha1, base.as_bytes(), signature).unwrap();
    let changed = base.replace("vacaction", "vacation");
    assert!(rsa_cert::verify(
        cert,
        SignatureMethod::RsaSha1,
        changed.as_bytes(),
        signature
    )
    .is_err());
    assert!(
        rsa_cert::verify(cert, SignatureMethod::RsaSha256, base.as_bytes(), signature).is_err()
    );
}

// ---------------------------------------------------------------------------
// Published values known to be wrong: one named test each

fn vector(file: &str, id: &str) -> Vector {
    load(file)
        .vectors
        .into_iter()
        .find(|v| v.id == id)
        .unwrap_or_else(|| panic!("{file}: no vector {id}"))
}

fn request_inputs(v: &Vector) -> RequestInputs {
    v.inputs().unwrap_or_else(|e| panic!("{}: {e}", v.id))
}

fn trace(file: &str, id: &str) -> Trace {
    let inputs = request_inputs(&vector(file, id));
    let signer = inputs
        .signer()
        .unwrap_or_else(|e| panic!("{file} {id}: {e}"));
    inputs
        .with_request(|r| signer.trace(r))
        .unwrap_or_else(|e| panic!("{file} {id}: {e}"))
}

fn published_str<'v>(v: &'v Vector, stage: &str) -> &'v str {
    v.published
        .as_ref()
        .and_then(|p| p.get(stage))
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{}: no published {stage}", v.id))
}

/// Every `reproduces: false` vector, with the test that pins it.
const KNOWN_MISPRINTS: &[(&str, &str, &str)] = &[
    (
        BASE_STRING,
        "rfc5849-3.1-and-3.4.1.1-example",
        "rfc5849_3_1_published_signature_is_a_misprint",
    ),
    (
        SIGNATURES,
        "rfc5849-3.1-and-3.4.1.1-example",
        "rfc5849_3_1_published_signature_is_a_misprint",
    ),
    (
        SIGNATURES,
        "x-docs-authorizing-a-request-mismatch",
        "x_docs_authorizing_a_request_shows_the_legacy_signature",
    ),
    (
        SIGNATURES,
        "ddo-multiple-values-body",
        "ddo_multiple_values_body_signs_both_occurrences",
    ),
    (
        BASE_STRING,
        "dghubble-signature-base-https-no-path",
        "dghubble_signature_base_https_no_path_gets_a_slash",
    ),
    (
        BASE_STRING,
        "dghubble-signature-base-port",
        "dghubble_signature_base_port_gets_a_slash",
    ),
    (
        BASE_STRING,
        "dghubble-https-443-no-path",
        "dghubble_base_uri_https_443_no_path_gets_a_slash",
    ),
];

#[test]
fn every_misprint_has_a_named_test() {
    let mut found = Vec::new();
    for file in FILES {
        for v in load(file).vectors {
            if v.reproduces == Some(false) {
                found.push((file, v.id));
            }
        }
    }
    let mut known: Vec<(&str, String)> = KNOWN_MISPRINTS
        .iter()
        .map(|&(f, id, _)| (f, id.to_owned()))
        .collect();
    found.sort();
    known.sort();
    assert_eq!(
        found, known,
        "vectors with reproduces: false vs the named tests below"
    );
}

/// RFC 5849 §3.1 prints `bYT5CMsGcbgUdFHObYMEfcx6bsw=`, which does not follow
/// from its own base string (§3.4.1.1) and secrets; the correct HMAC-SHA1 is
/// `r6/TJjbCOr97/+UU0NsvSne7s5g=` (RFC 5849 errata).
#[test]
fn rfc5849_3_1_published_signature_is_a_misprint() {
    const PUBLISHED: &str = "bYT5CMsGcbgUdFHObYMEfcx6bsw=";
    const CORRECT: &str = "r6/TJjbCOr97/+UU0NsvSne7s5g=";
    for file in [BASE_STRING, SIGNATURES] {
        let v = vector(file, "rfc5849-3.1-and-3.4.1.1-example");
        assert_eq!(published_str(&v, "signature"), PUBLISHED, "{file}");
        let t = trace(file, &v.id);
        assert_eq!(t.signature.as_str(), CORRECT, "{file}");
        assert_ne!(t.signature.as_str(), PUBLISHED, "{file}");
        // The RFC's base string is right; only the signature was misprinted.
        assert_eq!(t.base_string, published_str(&v, "base_string"), "{file}");
        assert_eq!(
            t.normalized_params,
            published_str(&v, "normalized_params"),
            "{file}"
        );
    }
}

/// X's 'Authorizing a request' page shows the api.x.com/1.1 request with the
/// signature of the original api.twitter.com/1/ example.
#[test]
fn x_docs_authorizing_a_request_shows_the_legacy_signature() {
    const PUBLISHED: &str = "tnnArxj06cWHq44gCs1OSKk/jLY=";
    const CORRECT: &str = "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=";
    let v = vector(SIGNATURES, "x-docs-authorizing-a-request-mismatch");
    assert_eq!(published_str(&v, "signature"), PUBLISHED);
    let t = trace(SIGNATURES, &v.id);
    assert_eq!(t.signature.as_str(), CORRECT);
    assert_ne!(t.signature.as_str(), PUBLISHED);
    // Where the published value comes from, and the api.twitter.com/1.1 variant.
    assert_eq!(
        trace(SIGNATURES, "twitter-legacy-v1-statuses-update")
            .signature
            .as_str(),
        PUBLISHED
    );
    assert_eq!(
        trace(SIGNATURES, "twitter-v1.1-statuses-update")
            .signature
            .as_str(),
        "hCtSmYh+iHYCEqBWrE7C7hYmtUk="
    );
    assert_eq!(
        trace(SIGNATURES, common::x_docs::ID).signature.as_str(),
        CORRECT
    );
}

/// ddo/oauth-1.0a merges `alt=json` from the query and the body into one
/// parameter; RFC 5849 §3.4.1.3.1 signs both occurrences.
#[test]
fn ddo_multiple_values_body_signs_both_occurrences() {
    const PUBLISHED: &str = "ri0lfv4udd2uQmkg5cCPVqLruyk=";
    const CORRECT: &str = "OL8Q1EkgP0+OFW1qruCESF1otKU=";
    let v = vector(SIGNATURES, "ddo-multiple-values-body");
    assert_eq!(published_str(&v, "signature"), PUBLISHED);
    let t = trace(SIGNATURES, &v.id);
    assert_eq!(t.signature.as_str(), CORRECT);
    assert_ne!(t.signature.as_str(), PUBLISHED);
    assert!(
        t.normalized_params.starts_with("alt=json&alt=json&"),
        "{}",
        t.normalized_params
    );
    // With the duplicate removed, the published value comes back.
    assert_eq!(
        trace(SIGNATURES, "ddo-multiple-values-body-deduplicated")
            .signature
            .as_str(),
        PUBLISHED
    );
}

/// dghubble/oauth1 keeps an empty path empty; RFC 5849 §3.4.1.2 (with RFC
/// 3986 normalisation), oauth.net and oauthlib give `/`.
fn assert_empty_path_gets_a_slash(id: &str, correct: &str) {
    let v = vector(BASE_STRING, id);
    let published = published_str(&v, "base_string");
    let inputs = request_inputs(&v);
    let url = RequestUrl::parse(&inputs.url).unwrap();
    assert_eq!(url.path(), "", "{id}: the URL has an empty path");
    let mut params = Params::new();
    params
        .extend_query(url.query().unwrap_or_default())
        .unwrap();
    let base = BaseString::new(&inputs.method, BaseStringUri::new(&url), params.normalize())
        .unwrap()
        .to_string();
    assert_eq!(base, correct, "{id}");
    assert_ne!(base, published, "{id}");
}

#[test]
fn dghubble_signature_base_https_no_path_gets_a_slash() {
    assert_empty_path_gets_a_slash(
        "dghubble-signature-base-https-no-path",
        "GET&https%3A%2F%2Fhello.io%2F&a%3Db%26c%3Dd",
    );
}

#[test]
fn dghubble_signature_base_port_gets_a_slash() {
    assert_empty_path_gets_a_slash(
        "dghubble-signature-base-port",
        "POST&http%3A%2F%2Fhello.io%3A8080%2F&a%3Db",
    );
}

#[test]
fn dghubble_base_uri_https_443_no_path_gets_a_slash() {
    let v = vector(BASE_STRING, "dghubble-https-443-no-path");
    let published = published_str(&v, "base_string_uri");
    assert_eq!(published, "https://example.com");
    let got = base_string_uri(&request_url(&v)).unwrap().to_string();
    assert_eq!(got, "https://example.com/");
    assert_ne!(got, published);
}

fn request_url(v: &Vector) -> String {
    v.inputs::<UriInputs>().unwrap().url
}

/// headers.json `dghubble-header-encoded-names` expects the parsed NAME to stay
/// `%2F%3D%20%2Bdoencode` while the value is decoded. We decode both: RFC 5849
/// §3.5.1 percent-encodes names and values alike, and
/// `dghubble-build-encoded-names` builds that very header from the decoded
/// name `/= +doencode`, so only decoding both round-trips.
#[test]
fn dghubble_header_encoded_names_are_decoded() {
    let header = vector(HEADERS, ENCODED_NAMES_PARSE)
        .inputs::<ParseInputs>()
        .unwrap()
        .authorization_header;
    let parsed = parse_authorization_header(&header).unwrap();
    assert_eq!(
        parsed,
        [("/= +doencode".to_owned(), "/= +doencode".to_owned())]
    );

    let build = vector(HEADERS, "dghubble-build-encoded-names");
    let params = build.inputs::<BuildFromParamsInputs>().unwrap().params;
    assert_eq!(params, parsed);
    let rebuilt =
        authorization_header(None, parsed.iter().map(|(n, v)| (n.as_str(), v.as_str()))).unwrap();
    assert_eq!(rebuilt, header);
}

/// The X docs' `POST statuses/update` (a form body) signed as an
/// `http::Request` whose body is a `&[u8]`, then a `bytes::Bytes`: each
/// `BodyBytes` must hand over the body, whose parameter is signed.
#[cfg(feature = "http")]
#[test]
fn http_requests_with_slice_and_bytes_bodies_sign_the_published_form() {
    use oauth1_signer::client::{trace_http_request, HttpOptions};

    let v = vector(SIGNATURES, common::x_docs::ID);
    let inputs = request_inputs(&v);
    let signer = inputs.signer().unwrap();
    let body = inputs.form_body.as_deref().unwrap().as_bytes();
    let want = published_str(&v, "signature");
    let request = || {
        http::Request::builder()
            .method(inputs.method.as_str())
            .uri(inputs.url.as_str())
            .header("content-type", "application/x-www-form-urlencoded")
    };
    let mut slice = request().body(body).unwrap();
    let t = trace_http_request(&signer, &mut slice, HttpOptions::new()).unwrap();
    assert_eq!(t.signature.as_str(), want, "&[u8]");
    let mut shared = request().body(bytes::Bytes::copy_from_slice(body)).unwrap();
    let t = trace_http_request(&signer, &mut shared, HttpOptions::new()).unwrap();
    assert_eq!(t.signature.as_str(), want, "Bytes");
    let header = header_multiset(shared.headers()["authorization"].to_str().unwrap()).unwrap();
    let published = header_multiset(v.expected["authorization_header"].as_str().unwrap()).unwrap();
    assert_eq!(header, published);
}
