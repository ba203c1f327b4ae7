//! Any string as a request in the vectors' JSON schema, signed end to end.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oauth1_signer::RequestSpec;

fuzz_target!(|json: &str| {
    if let Ok(spec) = RequestSpec::from_json(json) {
        if let Ok(trace) = spec.trace() {
            assert!(trace.base_string.is_ascii());
            // A pinned nonce and timestamp give the same header twice.
            if spec.nonce.is_some() && spec.timestamp.is_some() {
                assert_eq!(
                    spec.authorization_header().ok(),
                    Some(trace.authorization_header)
                );
            }
        }
    }
});
