//! Request vectors (base_string.json and signatures.json `request`,
//! headers.json `build`), each checked twice against its `expected`
//! stages: through the public stage functions on their own
//! (`RequestUrl::parse`, `Params`, `BaseString`, `SigningKey`), and through
//! `Signer::trace`, `Signer::authorization` and `Signer::sign`; an RSA
//! signature is verified with the certificate its source published.

#[cfg(feature = "rsa")]
use super::rsa_cert;
use super::Outcome;
use crate::common::refused::refused_by_signer;
use crate::common::{byte_multiset, header_multiset, Checker, RequestInputs, Vector};
use oauth1_signer::{
    pipeline::authorization_header, pipeline::key_string, pipeline::BaseString,
    pipeline::BaseStringUri, pipeline::Params, pipeline::RequestUrl, pipeline::SigningKey,
    SignatureMethod, Trace,
};

pub fn check_request(c: &mut Checker<'_>, v: &Vector) -> Outcome {
    let Some(inputs) = c.ok("inputs", v.inputs::<RequestInputs>()) else {
        return Outcome::Checked;
    };
    let rsa_unavailable = check_request_stages(c, &inputs);
    if inputs.is_base_string_only() {
        for stage in [
            "signing_key",
            "signature",
            "authorization_header",
            "header_params",
        ] {
            if c.expected(stage).is_some() {
                c.fail(
                    stage,
                    "a vector without consumer_key has no protocol parameters, so nothing to sign",
                );
            }
        }
        return Outcome::Checked;
    }
    if rsa_unavailable {
        return Outcome::WithoutRsa;
    }
    check_request_signer(c, &inputs);
    Outcome::Checked
}

/// The request through the public stage functions on their own: the URL,
/// the parameters (query, then the protocol parameters the vector sends,
/// then the form body), the base string URI, the normalised parameters, the
/// base string, the signing key and the signature.
///
/// Returns whether the signature could not be computed for lack of the
/// `rsa` feature.
fn check_request_stages(c: &mut Checker<'_>, inputs: &RequestInputs) -> bool {
    const S: &str = " (stage functions)";
    let Some(url) = c.ok("RequestUrl::parse", RequestUrl::parse(&inputs.url)) else {
        return false;
    };
    let Some(protocol) = c.ok("inputs", inputs.protocol_params()) else {
        return false;
    };
    let mut params = Params::new();
    if let Some(query) = url.query()
        && c.ok("Params::extend_query", params.extend_query(query))
            .is_none()
    {
        return false;
    }
    for &(name, value) in &protocol {
        params.push(name, value);
    }
    if let Some(body) = &inputs.form_body
        && c.ok("Params::extend_form", params.extend_form(body.as_bytes()))
            .is_none()
    {
        return false;
    }

    if let Some(want) = c.expected_pairs("collected_params") {
        // The vectors list what is signed: `Params` keeps an `oauth_signature`
        // until it normalises (§3.4.1.3.1 leaves it out of the base string).
        let got = byte_multiset(
            params
                .iter()
                .filter(|p| &*p.name() != b"oauth_signature")
                .map(|p| (p.name(), p.value())),
        );
        c.eq(&format!("collected_params{S}"), &got, &byte_multiset(want));
    }
    let uri = BaseStringUri::new(&url);
    if let Some(want) = c.expected_str("base_string_uri") {
        c.eq(
            &format!("base_string_uri{S}"),
            uri.to_string().as_str(),
            want,
        );
    }
    let normalized = params.normalize();
    if let Some(want) = c.expected_str("normalized_params") {
        c.eq(
            &format!("normalized_params{S}"),
            normalized.to_string().as_str(),
            want,
        );
    }
    let Some(base) = c.ok(
        "BaseString::new",
        BaseString::new(&inputs.method, uri, normalized),
    ) else {
        return false;
    };
    if let Some(want) = c.expected_str("base_string") {
        c.eq(&format!("base_string{S}"), base.to_string().as_str(), want);
    }
    if inputs.is_base_string_only() {
        return false;
    }

    let Some(sig_method) = c.ok("signature_method", inputs.signature_method()) else {
        return false;
    };
    if !sig_method.is_rsa()
        && let Some(want) = c.expected_str("signing_key")
    {
        let got = key_string(inputs.consumer_secret(), inputs.token_secret());
        c.eq(&format!("signing_key{S}"), got.expose(), want);
    }
    let Some(key) = prepare_key(
        c,
        sig_method,
        inputs.consumer_secret(),
        inputs.token_secret(),
        inputs.rsa_private_key.as_deref(),
    ) else {
        return sig_method.is_rsa() && !cfg!(feature = "rsa");
    };
    let Some(signature) = c.ok(&format!("signature{S}"), key.sign(&base)) else {
        return false;
    };
    if let Some(want) = c.expected_str("signature") {
        c.eq(&format!("signature{S}"), signature.as_str(), want);
    }
    // The header built by `authorization_header` from the vector's protocol
    // parameters and the signature, sorted by name as a signer sends them.
    let mut sent: Vec<(&str, &str)> = protocol
        .iter()
        .copied()
        .filter(|&(n, _)| n != "oauth_signature")
        .chain([("oauth_signature", signature.as_str())])
        .collect();
    sent.sort();
    let Some(header) = c.ok(
        &format!("authorization_header{S}"),
        authorization_header(inputs.realm.as_deref(), sent.iter().copied()),
    ) else {
        return false;
    };
    let got = c.ok(
        &format!("authorization_header{S} parsed"),
        header_multiset(&header),
    );
    if let (Some(got), Some(want)) = (&got, c.expected_str("authorization_header"))
        && let Some(want) = c.ok(
            "authorization_header (expected) parsed",
            header_multiset(want),
        )
    {
        c.eq(
            &format!("authorization_header{S}, parsed pairs"),
            got,
            &want,
        );
    }
    if let (Some(got), Some(want)) = (&got, c.expected_pairs("header_params")) {
        c.eq(&format!("header_params{S}"), got, &want);
    }
    false
}

/// The [`SigningKey`] for `method`: HMAC/PLAINTEXT from the two secrets, RSA
/// from the PEM. `None` (and no failure) for RSA without the `rsa` feature.
pub fn prepare_key(
    c: &mut Checker<'_>,
    method: SignatureMethod,
    consumer_secret: &str,
    token_secret: &str,
    rsa_pem: Option<&str>,
) -> Option<SigningKey> {
    let key = if method.is_rsa() {
        let Some(pem) = rsa_pem else {
            c.fail(
                "rsa_private_key",
                format_args!("{method} vector without rsa_private_key"),
            );
            return None;
        };
        rsa_key(c, method, pem)?
    } else {
        c.ok(
            "SigningKey::new",
            SigningKey::new(method, consumer_secret, token_secret),
        )?
    };
    c.eq("SigningKey::method", &key.method(), &method);
    Some(key)
}

#[cfg(feature = "rsa")]
fn rsa_key(c: &mut Checker<'_>, method: SignatureMethod, pem: &str) -> Option<SigningKey> {
    c.ok("SigningKey::rsa_pem", SigningKey::rsa_pem(method, pem))
}

#[cfg(not(feature = "rsa"))]
fn rsa_key(_: &mut Checker<'_>, _: SignatureMethod, _: &str) -> Option<SigningKey> {
    None
}

/// The request through the [`Signer`](oauth1_signer::Signer): every stage of
/// `Signer::trace`, then `Signer::authorization` and `Signer::sign`, which
/// must agree with the trace.
fn check_request_signer(c: &mut Checker<'_>, inputs: &RequestInputs) {
    const T: &str = " (Signer::trace)";
    if let Some(why) = refused_by_signer(c.id) {
        // oauthlib's test signs the timestamp "abc"; RFC 5849 §3.3 says a
        // timestamp is a positive integer, and the signer holds to that.
        let refused = inputs.signer().err().unwrap_or_default();
        c.eq("Signer refuses", &refused.ends_with(why), &true);
        return;
    }
    let Some(signer) = c.ok("Signer", inputs.signer()) else {
        return;
    };
    let Some(trace) = c.ok("Signer::trace", inputs.with_request(|r| signer.trace(r))) else {
        return;
    };

    if let Some(want) = c.expected_pairs("collected_params") {
        c.eq(
            &format!("collected_params{T}"),
            &byte_multiset(trace.collected_params.iter().map(|(_, n, v)| (n, v))),
            &byte_multiset(want),
        );
    }
    if let Some(want) = c.expected_str("normalized_params") {
        c.eq(
            &format!("normalized_params{T}"),
            trace.normalized_params.as_str(),
            want,
        );
    }
    if let Some(want) = c.expected_str("base_string_uri") {
        c.eq(
            &format!("base_string_uri{T}"),
            trace.base_string_uri.as_str(),
            want,
        );
    }
    if let Some(want) = c.expected_str("base_string") {
        c.eq(&format!("base_string{T}"), trace.base_string.as_str(), want);
    }
    if let Some(want) = c.expected_str("signing_key") {
        let got = trace.signing_key.as_ref().map(|k| k.expose());
        c.eq(&format!("signing_key{T}"), &got, &Some(want));
    }
    if let Some(want) = c.expected_str("signature") {
        c.eq(&format!("signature{T}"), trace.signature.as_str(), want);
    }
    let got_header = c.ok(
        &format!("authorization_header{T} parsed"),
        header_multiset(&trace.authorization_header),
    );
    if let Some(want) = c.expected_str("authorization_header")
        && let (Some(got), Some(want)) = (
            &got_header,
            c.ok(
                "authorization_header (expected) parsed",
                header_multiset(want),
            ),
        )
    {
        c.eq(
            &format!("authorization_header{T}, parsed pairs"),
            got,
            &want,
        );
    }
    if let Some(want) = c.expected_pairs("header_params")
        && let Some(got) = &got_header
    {
        c.eq(&format!("header_params{T}"), got, &want);
    }

    // The first request takes the general path; from the second on, the
    // signer copies its rendered protocol parameters (when the request
    // brings none of its own). Both must give the trace's header.
    for (what, _) in [("first use", 1), ("reused", 2)] {
        if let Some(header) = c.ok(
            &format!("Signer::authorization, {what}"),
            inputs.with_request(|r| signer.authorization_header(r)),
        ) {
            c.eq(
                &format!("Signer::authorization vs trace header, {what}"),
                &header,
                &trace.authorization_header,
            );
        }
    }
    if let Some(signed) = c.ok("Signer::sign", inputs.with_request(|r| signer.sign(r))) {
        if let Some(want) = c.expected_str("signature") {
            c.eq("Signer::sign signature", signed.signature().as_str(), want);
        }
        c.eq(
            "Signer::sign header vs trace header",
            &signed.authorization_header(),
            &trace.authorization_header,
        );
    }

    if let Some(cert) = &inputs.rsa_certificate {
        verify_with_certificate(c, &trace, cert);
    }
}

#[cfg(feature = "rsa")]
fn verify_with_certificate(c: &mut Checker<'_>, trace: &Trace, cert: &str) {
    let method = c.ok("signature_method", trace_method(trace));
    if let Some(method) = method {
        let result = rsa_cert::verify(
            cert,
            method,
            trace.base_string.as_bytes(),
            trace.signature.as_str(),
        );
        c.ok("signature verified with rsa_certificate", result);
    }
}

#[cfg(not(feature = "rsa"))]
fn verify_with_certificate(_: &mut Checker<'_>, _: &Trace, _: &str) {}

/// The `oauth_signature_method` a trace signed with.
#[cfg(feature = "rsa")]
fn trace_method(trace: &Trace) -> Result<SignatureMethod, String> {
    let (_, _, value) = trace
        .collected_params
        .iter()
        .find(|(_, n, _)| n == b"oauth_signature_method")
        .ok_or("no oauth_signature_method in the trace")?;
    std::str::from_utf8(value)
        .map_err(|e| e.to_string())?
        .parse()
        .map_err(|e: oauth1_signer::Error| e.to_string())
}
