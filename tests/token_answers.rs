//! A provider's answers in the three legs (RFC 5849 §2), against the
//! answers RFC 5849 and X's docs print (`fixtures/token_answers.json`):
//! each written from its values as printed, and read back to them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use oauth1_signer::flow::{callback_url, TemporaryCredentials, TokenCredentials};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Issued {
    token: String,
    secret: String,
    #[serde(default)]
    params: Option<Vec<(String, String)>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Redirect {
    callback: String,
    token: String,
    verifier: String,
}

fn expected(v: &common::Vector, field: &str) -> String {
    v.expected[field]
        .as_str()
        .unwrap_or_else(|| panic!("{}: no expected.{field}", v.id))
        .to_owned()
}

#[test]
fn the_printed_answers_are_written_and_read_back() {
    let fixture = common::load("token_answers.json");
    assert_eq!(fixture.count, fixture.vectors.len());
    let mut kinds = [0; 3];
    for v in &fixture.vectors {
        match v.kind.as_deref() {
            Some("temporary") => {
                let i: Issued = v.inputs().unwrap();
                let body = expected(v, "body");
                let written = TemporaryCredentials::new(i.token.as_str(), i.secret.as_str())
                    .unwrap()
                    .response_body();
                assert_eq!(written, body, "{}", v.id);
                let read = TemporaryCredentials::parse(body.as_bytes()).unwrap();
                assert_eq!(
                    (read.token(), read.secret().expose()),
                    (&*i.token, &*i.secret)
                );
                kinds[0] += 1;
            }
            Some("token") => {
                let i: Issued = v.inputs().unwrap();
                let params = i.params.unwrap_or_default();
                let pairs = params.iter().map(|(n, v)| (n.as_str(), v.as_str()));
                let body = expected(v, "body");
                let written =
                    TokenCredentials::new(i.token.as_str(), i.secret.as_str(), pairs.clone())
                        .unwrap()
                        .response_body();
                assert_eq!(written, body, "{}", v.id);
                let read = TokenCredentials::parse(body.as_bytes()).unwrap();
                assert_eq!(
                    (read.token(), read.secret().expose()),
                    (&*i.token, &*i.secret)
                );
                assert!(read.params().eq(pairs), "{}", v.id);
                kinds[1] += 1;
            }
            Some("callback") => {
                let r: Redirect = v.inputs().unwrap();
                let url = callback_url(&r.callback, &r.token, &r.verifier);
                assert_eq!(url, expected(v, "url"), "{}", v.id);
                kinds[2] += 1;
            }
            other => panic!("{}: unknown kind {other:?}", v.id),
        }
    }
    assert_eq!(kinds, [3, 3, 2]);
}
