//! Any string as an `Authorization` header: parse, rebuild, parse again.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oauth1_signer::{pipeline::authorization_header, pipeline::parse_authorization_header};

fuzz_target!(|header: &str| {
    let Ok(params) = parse_authorization_header(header) else {
        return;
    };
    let realm = params
        .iter()
        .find(|(n, _)| n == "realm")
        .map(|(_, v)| v.as_str());
    let rest: Vec<(&str, &str)> = params
        .iter()
        .filter(|(n, _)| n != "realm")
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    // A realm with a quoted-pair may hold '"' or '\', which we never write.
    if let Ok(rebuilt) = authorization_header(realm, rest.iter().copied()) {
        let again = parse_authorization_header(&rebuilt).unwrap();
        let mut want: Vec<(String, String)> = rest
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect();
        if let Some(r) = realm {
            want.insert(0, ("realm".into(), r.into()));
        }
        assert_eq!(again, want);
    }
});
