//! Any bytes as a form body and as percent-encoded text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oauth1_signer::{
    pipeline::Params, text::form_decode, text::percent_decode, text::percent_encode,
};

fuzz_target!(|data: &[u8]| {
    let mut params = Params::new();
    if params.extend_form(data).is_ok() {
        let normalized = params.normalize().to_string();
        assert!(normalized.bytes().all(|b| b.is_ascii_graphic()));
    }
    for decoded in [percent_decode(data), form_decode(data)] {
        match decoded {
            Ok(d) => {
                let again = percent_encode(d.as_bytes()).to_string();
                assert_eq!(
                    percent_decode(again.as_bytes()).unwrap().as_bytes(),
                    d.as_bytes()
                );
            }
            Err(e) => assert!(e.offset().is_some_and(|(_, at)| at < data.len())),
        }
    }
});
