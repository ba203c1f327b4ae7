//! The library's lints of a request ([`RequestSpec::lints`]) as the page
//! says them: each a hint of the lint's code, quoting what it is about.

use oauth1_signer::outgoing::Lint;
use oauth1_signer::RequestSpec;

use crate::render::{Arg, Hint};
use crate::say;

/// What is likely a slip in `spec`, though it signs (a blank credential, a
/// token without its secret, a timestamp in milliseconds, a form body typed
/// as text, JSON that does not parse): the library's lints, each as the
/// page's hint of the same code.
pub(crate) fn hints(spec: &RequestSpec) -> Vec<Hint> {
    spec.lints().iter().map(|lint| hint(lint, spec)).collect()
}

/// `lint` as the page says it: its code, and what it quotes.
fn hint(lint: &Lint, spec: &RequestSpec) -> Hint {
    match lint {
        Lint::TimestampInMilliseconds { given, seconds, .. } => {
            Hint::new(lint.code(), [given.clone(), seconds.clone()])
        }
        // The character, where, and its encoding.
        Lint::RawByteInFormBody { offset, .. } => {
            let body = spec.form_body.as_deref().unwrap_or_default();
            Hint::with(
                lint.code(),
                [
                    say::char_at(body, *offset),
                    Arg::data(offset.to_string()),
                    say::encoded_at(body, *offset),
                ],
            )
        }
        Lint::InvalidJson { line, column, .. } => {
            Hint::new(lint.code(), [line.to_string(), column.to_string()])
        }
        _ => Hint::new(lint.code(), []),
    }
}

#[cfg(test)]
mod tests {
    use super::super::fields::{x_docs_example, Fields};
    use super::super::request::spec_of;
    use super::*;

    fn advice(fields: &Fields) -> Vec<Hint> {
        hints(&spec_of(fields).unwrap())
    }

    #[test]
    fn slips_are_hinted() {
        let fields = Fields {
            token: "t".into(),
            verifier: "v".into(),
            timestamp: "1318622958000".into(),
            ..Fields::default()
        };
        let codes: Vec<&str> = advice(&fields).iter().map(|h| h.code).collect();
        assert_eq!(
            codes,
            [
                "empty-consumer-key",
                "empty-consumer-secret",
                "token-without-secret",
                "timestamp-ms"
            ]
        );
        assert_eq!(
            advice(&fields)[3].args,
            [Arg::data("1318622958000"), Arg::data("1318622958")]
        );
        assert!(advice(&x_docs_example()).is_empty());
    }

    #[test]
    fn a_form_body_typed_as_text_is_hinted() {
        let fields = |body: &str| Fields {
            body: body.into(),
            ..x_docs_example()
        };
        let h = advice(&fields("status=ağaç ığdır"));
        assert_eq!(h[0].code, "form-raw");
        // "status=a" is 8 bytes; ğ is %C4%9F.
        assert_eq!(h[0].args[1..], [Arg::data("8"), Arg::data("%C4%9F")]);
        assert!(advice(&fields("status=a%C4%9Fa%C3%A7")).is_empty());
    }
}
