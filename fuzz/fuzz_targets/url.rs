//! Any string as a request URL: `Ok` or a clean error whose offset lies inside it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oauth1_signer::{pipeline::BaseStringUri, pipeline::Params, pipeline::RequestUrl};

fuzz_target!(|url: &str| {
    match RequestUrl::parse(url) {
        Ok(parsed) => {
            let uri = BaseStringUri::new(&parsed).to_string();
            assert!(uri.starts_with("http://") || uri.starts_with("https://"));
            if let Some(q) = parsed.query() {
                // A query that parsed is one whose escapes are all well formed.
                Params::new().extend_query(q).unwrap();
            }
        }
        Err(e) => assert!(e.offset().is_none_or(|(_, at)| at <= url.len()), "{e}"),
    }
});
