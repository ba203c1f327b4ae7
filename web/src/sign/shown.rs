//! What the Sign panel shows: every stage of the signature, the secrets
//! masked unless asked (by the library, as it writes what is sent), the
//! request as it is sent and a curl command that sends it, the library's
//! warnings and lints.

use std::borrow::Cow;

use oauth1_signer::pipeline::{base_string_lines, encode_refused, Mask};
use oauth1_signer::{Error, Part};
use serde::Serialize;

use super::errors::{part_word, FieldError};
use super::fields::Fields;
use super::hints::hints;
use super::request::{spec_of, with_request};
use crate::render::{Arg, Hint};
use crate::say;

/// What the page shows in place of a secret it was not asked to show.
pub const MASK: &str = "••••••";

/// A protocol parameter taken out of the URL or the body, to be sent in the
/// header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lifted {
    /// `oauth_callback` or `oauth_verifier`.
    pub name: &'static str,
    /// `url` or `body`: where it was typed.
    pub from: &'static str,
}

/// The request as it is to be sent: the URL and body without the protocol
/// parameters taken out of them, and with the signed ones where the
/// transmission puts them (the query, or the end of the body).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Sent {
    /// The URL to send.
    pub url: String,
    /// The body to send, if one is sent.
    pub body: Option<String>,
    /// Its media type.
    pub content_type: Option<String>,
    /// Where the protocol parameters are: `header`, `query` or `form-body`.
    pub transmission: &'static str,
    /// What was taken out, and from where.
    pub lifted: Vec<Lifted>,
}

/// One of the library's warnings.
#[derive(Clone, Debug, Serialize)]
pub struct Warned {
    /// Its own words, in English (for scripts).
    pub message: String,
    /// What the page says of it.
    pub said: Hint,
}

/// Every stage of the signature, or the error.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Signed {
    /// The collected parameters, decoded, in the order collected (query,
    /// protocol, body), each `[name, value]`.
    pub params: Vec<[String; 2]>,
    /// The normalised parameter string.
    pub normalized: String,
    /// The base string.
    pub base_string: String,
    /// The base string broken before each `&` and `%26` (an encoded `&`):
    /// joined, the lines are exactly the base string.
    pub base_string_lines: Vec<String>,
    /// The signing key (§3.4.2): `encode(consumer secret)&encode(token
    /// secret)`, each secret [`MASK`]ed unless the user asked to see them.
    pub signing_key: String,
    /// The signature ([`MASK`]ed for PLAINTEXT, which is the key, unless asked).
    pub signature: String,
    /// The `Authorization` header value (its signature masked likewise);
    /// empty when the parameters are sent in the query or the body.
    pub header: String,
    /// A curl command that sends the request, header and body.
    pub curl: String,
    /// Whether a secret is masked in what is shown.
    pub masked: bool,
    /// Whether a private key signs (RSA): there is no signing key text.
    pub rsa: bool,
    /// The request as it is to be sent.
    pub sent: Sent,
    /// The library's warnings.
    pub warnings: Vec<Warned>,
    /// The URL with each byte the library refuses in a URL percent-encoded
    /// (a space, `ş`, `[`, `"`...), when it holds any: what the page offers
    /// in one action.
    pub url_fix: Option<String>,
    /// Whether the curl command carries a masked signature (PLAINTEXT, its
    /// secrets hidden): it cannot be sent as shown.
    pub curl_masked: bool,
    /// The page's advice: `empty-consumer-key`, `empty-consumer-secret`,
    /// `token-without-secret`, `secret-without-token`, `timestamp-ms`,
    /// `lifted`, `verifier-without-token`.
    pub hints: Vec<Hint>,
    /// Why nothing could be signed.
    pub error: Option<FieldError>,
}

/// `fields` (JSON of [`Fields`]) signed, every stage kept.
pub fn sign_json(fields: &str) -> Signed {
    let fields: Fields = match serde_json::from_str(fields) {
        Ok(f) => f,
        Err(e) => {
            return Signed {
                error: Some(FieldError::fields(&e)),
                ..Signed::default()
            }
        }
    };
    // The library's lints of the request as the fields make it (before a
    // parameter typed into the URL is taken out), even when it cannot be
    // signed.
    let hints = spec_of(&fields).map(|s| hints(&s)).unwrap_or_default();
    // The URL with each character it refuses encoded, in one pass.
    let url_fix = match encode_refused(&fields.url) {
        Cow::Owned(fixed) => Some(fixed),
        Cow::Borrowed(_) => None,
    };
    let mut signed = signed(&fields, hints);
    signed.url_fix = url_fix;
    signed
}

/// [`sign_json`] once the fields are read.
fn signed(fields: &Fields, hints: Vec<Hint>) -> Signed {
    match with_request(fields, false, |signer, request| signer.trace(request)) {
        Ok((t, spec, taken)) => {
            let secret = t.signature.is_secret();
            let shown = fields.show_secrets;
            let signing_key = match (&t.signing_key, shown) {
                (Some(k), true) => k.expose().to_owned(),
                (Some(_), false) => masked_key(fields),
                (None, _) => String::new(),
            };
            // A PLAINTEXT signature is the key: masked wherever it is sent,
            // unless asked, by the library as it writes it.
            let mask = if shown { Mask::Show } else { Mask::With(MASK) };
            let signature = if secret && !shown {
                MASK.to_owned()
            } else {
                t.signature.as_str().to_owned()
            };
            let lifted: Vec<Lifted> = taken
                .iter()
                .map(|l| Lifted {
                    name: l.name.as_str(),
                    from: if l.from == Part::FormBody {
                        "body"
                    } else {
                        "url"
                    },
                })
                .collect();
            let mut hints = hints;
            // Taken out of the URL or the body, a parameter is sent with
            // the others, wherever the transmission puts them.
            hints.extend(
                lifted.iter().map(|l| {
                    Hint::with("lifted", [Arg::data(l.name), Arg::word(part_word(l.from))])
                }),
            );
            // What goes on the wire, as shown: the library's one rule of
            // where each parameter is sent, and its one curl writer.
            let placed = |e: Error| Signed {
                error: Some(FieldError::new(&e, fields)),
                hints: hints.clone(),
                ..Signed::default()
            };
            let on_wire = match spec.sent_shown(&t.signed, mask) {
                Ok(sent) => sent,
                Err(e) => return placed(e),
            };
            let curl = match on_wire.curl(&fields.method) {
                Ok(command) => format!("{command:#}"),
                Err(e) => return placed(e),
            };
            let sent = Sent {
                url: on_wire.url.clone(),
                body: on_wire
                    .body
                    .as_deref()
                    .map(|b| String::from_utf8_lossy(b).into_owned()),
                content_type: on_wire.content_type.clone(),
                transmission: spec.transmission().as_str(),
                lifted,
            };
            Signed {
                params: t
                    .collected_params
                    .iter()
                    .map(|(_, n, v)| {
                        [
                            String::from_utf8_lossy(n).into_owned(),
                            String::from_utf8_lossy(v).into_owned(),
                        ]
                    })
                    .collect(),
                normalized: t.normalized_params.clone(),
                base_string_lines: lines(&t.base_string),
                base_string: t.base_string,
                masked: !shown && (secret || t.signing_key.is_some()),
                rsa: t.signing_key.is_none(),
                signing_key,
                signature,
                curl,
                header: on_wire.authorization.unwrap_or_default(),
                sent,
                curl_masked: secret && !shown,
                url_fix: None,
                warnings: t
                    .warnings
                    .iter()
                    .map(|w| Warned {
                        message: w.to_string(),
                        said: say::warning(w),
                    })
                    .collect(),
                hints,
                error: None,
            }
        }
        Err(e) => Signed {
            error: Some(*e),
            hints,
            ..Signed::default()
        },
    }
}

/// The signing key's shape with each secret masked: `••••••&••••••`, or
/// `••••••&` when there is no token secret (the `&` is always there).
fn masked_key(fields: &Fields) -> String {
    let mask = |s: &str| if s.is_empty() { "" } else { MASK };
    format!(
        "{}&{}",
        mask(&fields.consumer_secret),
        mask(&fields.token_secret)
    )
}

/// `base` broken as the library shows a base string
/// ([`base_string_lines`]): joined, the lines are the base string.
fn lines(base: &str) -> Vec<String> {
    base_string_lines(base)
        .into_iter()
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::fields::x_docs_example;
    use super::*;

    #[test]
    fn lines_join_back_to_the_base_string() {
        let base = "POST&https%3A%2F%2Fh%2F&a%3D1%26b%3D2";
        let l = lines(base);
        assert_eq!(l, ["POST", "&https%3A%2F%2Fh%2F", "&a%3D1", "%26b%3D2"]);
        assert_eq!(l.concat(), base);
    }

    // Twitter's "Sign in with Twitter" request-token call
    // (fixtures/signatures.json, twitter-sign-in-request-token): its
    // callback typed into the URL signs as the callback field does.
    #[test]
    fn a_callback_in_the_url_is_sent_in_the_header_and_signs_the_same() {
        let fields = Fields {
            method: "POST".into(),
            url: "https://api.twitter.com/oauth/request_token?oauth_callback=http%3A%2F%2Flocalhost%2Fsign-in-with-twitter%2F".into(),
            consumer_key: "cChZNFj6T5R0TigYB9yd1w".into(),
            consumer_secret: "L8qq9PZyRg6ieKGEKhZolGC0vJWLw8iEJ88DRdyOg".into(),
            signature_method: "HMAC-SHA1".into(),
            nonce: "ea9ec8429b68d6b77cd5600adbbb0456".into(),
            timestamp: "1318467427".into(),
            ..Fields::default()
        };
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert_eq!(s.signature, "F1Li3tvehgcraF8DMJ7OyxO4w9Y=");
        assert_eq!(s.sent.url, "https://api.twitter.com/oauth/request_token");
        assert_eq!(
            s.sent.lifted,
            [Lifted {
                name: "oauth_callback",
                from: "url"
            }]
        );
        assert!(s
            .header
            .contains(r#"oauth_callback="http%3A%2F%2Flocalhost%2Fsign-in-with-twitter%2F""#));
        // Given in its field too: refused, in that field.
        let twice = Fields {
            callback: "oob".into(),
            ..fields
        };
        let e = sign_json(&serde_json::to_string(&twice).unwrap())
            .error
            .unwrap();
        assert_eq!(e.field, Some("callback"));
    }

    // RFC 5849 §1.2, POST /initiate: no oauth_version, a realm.
    #[test]
    fn the_rfc_s_temporary_credentials_sign_without_oauth_version() {
        let fields = Fields {
            method: "POST".into(),
            url: "https://photos.example.net/initiate".into(),
            realm: "Photos".into(),
            signature_method: "HMAC-SHA1".into(),
            timestamp: "137131200".into(),
            nonce: "wIjqoS".into(),
            callback: "http://printer.example.com/ready".into(),
            consumer_key: "dpf43f3p2l4k3l03".into(),
            consumer_secret: "kd94hf93k423kf44".into(),
            omit_version: true,
            ..Fields::default()
        };
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert_eq!(s.signature, "74KNZJeDHnMBp0EMJ9ZHt/XKycU=");
        assert!(!s.header.contains("oauth_version"));
    }

    #[test]
    fn secrets_are_masked_unless_asked() {
        let mut fields = x_docs_example();
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert_eq!(s.signing_key, format!("{MASK}&{MASK}"));
        assert!(s.masked);
        fields.show_secrets = true;
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        // X docs "Creating a signature": the signing key as published.
        assert_eq!(
            s.signing_key,
            "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw&LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE"
        );
        assert_eq!(s.signature, "Ls93hJiZbQ3akF3HF3x1Bz8/zU4=");
        // PLAINTEXT's signature is the key: masked too.
        fields.show_secrets = false;
        fields.signature_method = "PLAINTEXT".into();
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert_eq!(s.signature, MASK);
        assert!(
            !s.header.contains("kAcSOq") && !s.curl.contains("kAcSOq"),
            "{}",
            s.header
        );
    }

    #[test]
    fn the_parameters_are_sent_where_the_transmission_says() {
        // The X docs "Creating a signature" request: its published protocol
        // parameters and signature, form-encoded in name order (§3.5.2-3).
        const PROTOCOL: &str = "oauth_consumer_key=xvz1evFS4wEEPTGEFPHBog\
            &oauth_nonce=kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg\
            &oauth_signature=Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D&oauth_signature_method=HMAC-SHA1\
            &oauth_timestamp=1318622958\
            &oauth_token=370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb&oauth_version=1.0";
        let example = x_docs_example();
        let sign = |transmission: &str| {
            let fields = Fields {
                transmission: transmission.into(),
                ..x_docs_example()
            };
            sign_json(&serde_json::to_string(&fields).unwrap())
        };
        let query = sign("query");
        assert_eq!(query.sent.transmission, "query");
        assert_eq!(query.sent.url, format!("{}&{PROTOCOL}", example.url));
        assert_eq!(query.sent.body.as_deref(), Some(example.body.as_str()));
        assert_eq!(query.header, "");
        assert!(!query.curl.contains("Authorization"), "{}", query.curl);
        assert!(query
            .curl
            .contains(&format!("'{}&{PROTOCOL}'", example.url)));
        let body = sign("form-body");
        assert_eq!(body.sent.transmission, "form-body");
        assert_eq!(body.sent.url, example.url);
        assert_eq!(body.sent.body, Some(format!("{}&{PROTOCOL}", example.body)));
        assert_eq!(body.header, "");
        assert!(body
            .curl
            .ends_with(&format!("--data-raw '{}&{PROTOCOL}'", example.body)));
        // The header, as before; the signature is the same in all three.
        let header = sign("");
        assert_eq!(header.sent.transmission, "header");
        assert!(header
            .header
            .contains("oauth_signature=\"Ls93hJiZbQ3akF3HF3x1Bz8%2FzU4%3D\""));
        assert_eq!(
            (query.signature, body.signature),
            (header.signature.clone(), header.signature)
        );
        // PLAINTEXT's signature, the key, is masked in the query too.
        let fields = Fields {
            transmission: "query".into(),
            signature_method: "PLAINTEXT".into(),
            ..x_docs_example()
        };
        let plain = sign_json(&serde_json::to_string(&fields).unwrap());
        assert!(
            plain
                .sent
                .url
                .contains(&format!("&oauth_signature={MASK}&"))
                && !plain.sent.url.contains("kAcSOq"),
            "{}",
            plain.sent.url
        );
        let fields = Fields {
            transmission: "smoke-signal".into(),
            ..x_docs_example()
        };
        let refused = sign_json(&serde_json::to_string(&fields).unwrap());
        assert_eq!(refused.error.unwrap().field, Some("transmission"));
    }

    /// The page's curl command is the library's (`Sent::curl`), written a
    /// line per header and body: `--globoff` for a URL holding brackets
    /// (an IPv6 host), a body's control bytes escaped in `$'...'` (bash's
    /// manual, QUOTING), `-X` only where curl would not choose the method,
    /// `-I` for a HEAD.
    #[test]
    fn the_curl_command_is_the_library_s_with_globoff_and_escapes() {
        let sign = |fields: Fields| sign_json(&serde_json::to_string(&fields).unwrap());
        let bytes = Fields {
            method: "PUT".into(),
            url: "https://[2001:db8::1]/r".into(),
            body: "a\u{1b}[2Jb's".into(),
            body_type: "bytes".into(),
            content_type: "text/plain".into(),
            ..x_docs_example()
        };
        let s = sign(bytes);
        assert!(s.error.is_none(), "{:?}", s.error);
        assert!(
            s.curl
                .starts_with("curl -X 'PUT' --globoff --path-as-is 'https://[2001:db8::1]/r' \\\n  -H 'Authorization: OAuth "),
            "{}",
            s.curl
        );
        assert!(
            s.curl
                .ends_with("\n  -H 'Content-Type: text/plain' \\\n  --data-raw $'a\\x1b[2Jb\\'s'"),
            "{}",
            s.curl
        );
        assert!(!s.curl.contains('\u{1b}'));
        // The X docs request: a POST with a body, so no -X.
        let s = sign(x_docs_example());
        assert!(
            s.curl.starts_with(
                "curl --path-as-is 'https://api.x.com/1.1/statuses/update.json?include_entities=true' \\\n  -H 'Authorization: OAuth "
            ),
            "{}",
            s.curl
        );
        let head = Fields {
            method: "HEAD".into(),
            body: String::new(),
            ..x_docs_example()
        };
        assert!(sign(head).curl.starts_with("curl -I --path-as-is "));
    }

    // The library's one pass (`encode_refused`, whose own tests cite
    // Python's urllib.parse.quote) offered as the page's fix.
    #[test]
    fn a_url_with_bytes_to_encode_is_offered_encoded() {
        let fix = |url: &str| {
            let fields = Fields {
                url: url.into(),
                ..x_docs_example()
            };
            sign_json(&serde_json::to_string(&fields).unwrap()).url_fix
        };
        assert_eq!(
            fix("https://h/?ids[]=a b").as_deref(),
            Some("https://h/?ids%5B%5D=a%20b")
        );
        assert_eq!(fix("https://h/?q=a%20b"), None);
    }

    /// X API v2's `POST /2/tweets` (docs.x.com, "Create or Edit Post"): a
    /// JSON body, sent as `application/json` and not signed.
    #[test]
    fn a_json_body_is_sent_as_json_and_not_signed() {
        let fields = Fields {
            url: "https://api.x.com/2/tweets".into(),
            body: r#"{"text":"Hello Ladies + Gentlemen"}"#.into(),
            body_type: "json".into(),
            ..x_docs_example()
        };
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert!(s.error.is_none(), "{:?}", s.error);
        assert!(!s.base_string.contains("text"), "{}", s.base_string);
        assert!(!s.params.iter().any(|[n, _]| n == "oauth_body_hash"));
        assert_eq!(s.sent.content_type.as_deref(), Some("application/json"));
        assert!(s.curl.ends_with(
            "-H 'Content-Type: application/json' \\\n  --data-raw '{\"text\":\"Hello Ladies + Gentlemen\"}'"
        ), "{}", s.curl);
        assert!(s.hints.is_empty(), "{:?}", s.hints);
        let broken = Fields {
            body: "{\"text\":".into(),
            ..fields
        };
        let s = sign_json(&serde_json::to_string(&broken).unwrap());
        assert_eq!(
            s.hints,
            [Hint::new("json-invalid", ["1".into(), "8".into()])]
        );
    }

    /// The body hash extension's example (draft-eaton-oauth-bodyhash-00,
    /// Appendix A; fixtures/body_hash.json): "Hello World!" is
    /// `Lve95gjOVATpfV8EL5X4nxwjKHE=` in SHA-1.
    #[test]
    fn other_bytes_carry_their_media_type_and_the_hash_asked_for() {
        let fields = Fields {
            method: "PUT".into(),
            url: "https://h/r".into(),
            body: "Hello World!".into(),
            body_type: "bytes".into(),
            content_type: "text/plain".into(),
            body_hash: "unless-form".into(),
            body_hash_algorithm: "sha1".into(),
            ..x_docs_example()
        };
        let s = sign_json(&serde_json::to_string(&fields).unwrap());
        assert!(s.error.is_none(), "{:?}", s.error);
        assert!(s.params.contains(&[
            "oauth_body_hash".into(),
            "Lve95gjOVATpfV8EL5X4nxwjKHE=".into()
        ]));
        assert_eq!(s.sent.content_type.as_deref(), Some("text/plain"));
        // Never on a form, whose parameters are signed.
        let form = Fields {
            body: "a=1".into(),
            body_type: "form".into(),
            ..fields.clone()
        };
        let s = sign_json(&serde_json::to_string(&form).unwrap());
        assert!(!s.params.iter().any(|[n, _]| n == "oauth_body_hash"));
        let unknown = Fields {
            body_hash: "sometimes".into(),
            ..fields
        };
        let s = sign_json(&serde_json::to_string(&unknown).unwrap());
        assert_eq!(s.error.unwrap().field, Some("body_hash"));
    }

    /// The body-hash selects left empty take the library's one rule
    /// (`BodyHash::chosen`), as `oauth1 --body-hash-algorithm` alone does:
    /// a hash named is sent. Base64 of SHA-256 of the empty body: NIST CAVP
    /// SHA256ShortMsg.rsp, Len = 0 (fixtures/body_hash.json); of `a=1`:
    /// Python's hashlib and base64.
    #[test]
    fn a_body_hash_word_chosen_alone_takes_the_other_as_the_cli_does() {
        let hash_of = |fields: &Fields| {
            let s = sign_json(&serde_json::to_string(fields).unwrap());
            assert!(s.error.is_none(), "{:?}", s.error);
            s.params
                .into_iter()
                .find(|[n, _]| n == "oauth_body_hash")
                .map(|[_, v]| v)
        };
        let get = Fields {
            method: "GET".into(),
            url: "https://h/r".into(),
            body: String::new(),
            body_hash: String::new(),
            body_hash_algorithm: "sha256".into(),
            ..x_docs_example()
        };
        // Before: an empty policy was the provider's rule, whatever the hash.
        assert_eq!(
            hash_of(&get).as_deref(),
            Some("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        );
        // A policy alone keeps the provider's hash (Mastercard's SHA-256),
        // where the page used the signature method's (SHA-1 here).
        let form = Fields {
            body: "a=1".into(),
            provider: "mastercard".into(),
            body_hash: "always".into(),
            body_hash_algorithm: String::new(),
            // Mastercard's APIs are one-legged.
            token: String::new(),
            token_secret: String::new(),
            ..x_docs_example()
        };
        assert_eq!(
            hash_of(&form).as_deref(),
            Some("wi/qXXQo5c9H72NUyXySI8ldbc3D4NIwD/eQVrH/PYU=")
        );
        let unknown = Fields {
            body_hash_algorithm: "SHA-256".into(),
            ..get
        };
        let s = sign_json(&serde_json::to_string(&unknown).unwrap());
        assert_eq!(s.error.unwrap().field, Some("body_hash_algorithm"));
    }

    /// An empty transmission is the provider's (WooCommerce's query), as
    /// `oauth1 --provider woocommerce` sends it; the words are the library's.
    #[test]
    fn an_empty_transmission_is_the_provider_s() {
        let sent = |provider: &str, transmission: &str| {
            let fields = Fields {
                provider: provider.into(),
                transmission: transmission.into(),
                ..x_docs_example()
            };
            let s = sign_json(&serde_json::to_string(&fields).unwrap());
            (s.sent.transmission, s.error.map(|e| e.field))
        };
        assert_eq!(sent("woocommerce", ""), ("query", None));
        assert_eq!(sent("none", ""), ("header", None));
        assert_eq!(sent("woocommerce", "header"), ("header", None));
        assert_eq!(sent("none", "form-body"), ("form-body", None));
        assert_eq!(sent("none", "body"), ("", Some(Some("transmission"))));
    }

    #[test]
    fn an_unknown_method_names_its_field() {
        let s = sign_json(r#"{"signature_method":"HMAC-MD5","url":"https://h/","method":"GET"}"#);
        assert_eq!(s.error.unwrap().field, Some("signature_method"));
    }
}
