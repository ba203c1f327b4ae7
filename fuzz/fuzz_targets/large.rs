//! Big requests, quickly: a fuzzed chunk repeated up to 256 KiB, as a form body,
//! inside the URL, both, or as thousands of extra protocol parameters, through
//! the whole signer. `authorization` must agree with `trace`, and an error
//! must point inside the text it names.
//!
//! Input: `count (u16 LE) shape (u8)`, then `prefix 0xFF chunk 0xFF suffix`;
//! the text is `prefix + chunk × count + suffix`.
#![no_main]
use libfuzzer_sys::fuzz_target;
use oauth1_signer::{Credentials, OAuthRequest, Part, Signer};

mod common;
use common::{fields, text};

const MAX: usize = 1 << 18;
const MAX_EXTRAS: usize = 10_000;

fuzz_target!(|data: &[u8]| {
    let [n0, n1, shape, ref rest @ ..] = *data else {
        return;
    };
    let [prefix, chunk, suffix] = fields(rest);
    let count = usize::from(u16::from_le_bytes([n0, n1])).min(MAX / chunk.len().max(1));
    let grow = |prefix: &[u8], chunk: &[u8], suffix: &[u8]| {
        let mut out = Vec::with_capacity(prefix.len() + chunk.len() * count + suffix.len());
        out.extend_from_slice(prefix);
        for _ in 0..count {
            out.extend_from_slice(chunk);
        }
        out.extend_from_slice(suffix);
        out
    };
    let signer = Signer::builder(Credentials::new("ck", "cs").with_token("tk", "ts"))
        .with_nonce("nonce")
        .with_timestamp("1")
        .build()
        .unwrap();
    let (url, body, extras): (String, Option<Vec<u8>>, Vec<(String, String)>) = match shape % 4 {
        // A big form body.
        0 => (
            "https://api.x.com/1.1/statuses/update.json".into(),
            Some(grow(prefix, chunk, suffix)),
            vec![],
        ),
        // A big URL (path or query: the prefix says).
        1 => {
            let url = grow(
                text(prefix).as_bytes(),
                text(chunk).as_bytes(),
                text(suffix).as_bytes(),
            );
            (String::from_utf8(url).unwrap(), None, vec![])
        }
        // Both.
        2 => {
            let body = grow(b"", chunk, suffix);
            let url = grow(text(prefix).as_bytes(), text(chunk).as_bytes(), b"");
            (String::from_utf8(url).unwrap(), Some(body), vec![])
        }
        // Many extra protocol parameters: `oauth_<prefix><i>` = chunk.
        _ => {
            let extras = (0..count.min(MAX_EXTRAS))
                .map(|i| (format!("oauth_{}{i}", text(prefix)), text(chunk).to_owned()))
                .collect();
            ("https://api.x.com/2/users/me".into(), None, extras)
        }
    };
    let mut request = OAuthRequest::post(&url).protocol_params(&extras);
    if let Some(body) = &body {
        request = request.form_body(body);
    }
    let header = signer.authorization_header(&request);
    match signer.trace(&request) {
        Ok(trace) => {
            assert!(trace.base_string.is_ascii());
            assert_eq!(header.unwrap(), trace.authorization_header);
        }
        Err(e) => {
            assert_eq!(header.unwrap_err().to_string(), e.to_string());
            match e.offset() {
                Some((Part::Url, at)) => assert!(at <= url.len(), "{e}"),
                Some((Part::FormBody, at)) => {
                    assert!(at <= body.as_ref().map_or(0, Vec::len), "{e}")
                }
                _ => {}
            }
        }
    }
});
