//! Arbitrary method, URL, realm and form body through the whole signer: the
//! header from `authorization` (first request, and a reused signer) must be
//! the trace's, errors included. Input: `method 0xFF url 0xFF realm 0xFF body`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oauth1_signer::{pipeline::parse_authorization_header, Credentials, OAuthRequest, Signer};

mod common;
use common::{fields, text};

fuzz_target!(|data: &[u8]| {
    let [method, url, realm, body] = fields(data);
    let (method, url, realm) = (text(method), text(url), text(realm));
    let Ok(signer) = Signer::builder(Credentials::new("ck", "cs").with_token("tk", "ts"))
        .with_nonce("nonce")
        .with_timestamp("1")
        .with_realm(realm)
        .build()
    else {
        return;
    };
    let request = OAuthRequest::new(method, url).form_body(body);
    // The first request encodes the signer's own protocol parameters, the
    // second copies them: both must agree with the trace.
    let first = signer.authorization_header(&request);
    let second = signer.authorization_header(&request);
    match signer.trace(&request) {
        Ok(trace) => {
            assert!(trace.base_string.is_ascii());
            assert_eq!(first.unwrap(), trace.authorization_header);
            assert_eq!(second.unwrap(), trace.authorization_header);
            let parsed = parse_authorization_header(&trace.authorization_header).unwrap();
            assert!(parsed
                .iter()
                .any(|(n, v)| n == "oauth_signature" && *v == trace.signature.as_str()));
        }
        Err(e) => {
            assert_eq!(first.unwrap_err().to_string(), e.to_string());
            assert_eq!(second.unwrap_err().to_string(), e.to_string());
        }
    }
});
