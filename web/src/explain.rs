//! The Explain panel: the Sign panel's request and what the other side
//! gave (its base string, signature or header) to the library's
//! [`Explainer`] findings, each cause by its stable code, with the part where
//! ours and theirs differ marked, and what to change (the catalogue's
//! [`Cause::fix`](oauth1_signer::explain::Cause::fix)). Comparisons are made as `oauth1 explain` makes them: the
//! header on its own, the base string with the signature.

use oauth1_signer::explain::{Component, Explainer, FoundBy, Theirs};
use serde::{Deserialize, Serialize};

use crate::render::{diff, Diff, Hint, Spot};
use crate::sign::{with_request, FieldError, Fields};

/// The Sign panel's fields and the other side's evidence (each may be empty).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Evidence {
    /// The request, as the Sign panel has it.
    #[serde(flatten)]
    pub fields: Fields,
    /// Their signature base string.
    pub their_base_string: String,
    /// Their signature (Base64, or percent-encoded as in a header).
    pub their_signature: String,
    /// Their `Authorization` header.
    pub their_header: String,
    /// What the client sent, captured (empty: the Sign panel's request):
    /// a curl command, a raw HTTP request or a HAR file, as
    /// [`capture_kind`](Self::capture_kind) says.
    pub capture: String,
    /// `curl`, `http` or `har`.
    pub capture_kind: String,
    /// The scheme of a raw HTTP request whose target is a path: `https`
    /// (or empty) or `http`.
    pub capture_scheme: String,
    /// The HAR entry, from 0 (empty: the only one that carries OAuth).
    pub capture_entry: String,
}

/// One cause and every place it was found.
#[derive(Clone, Debug, Serialize)]
pub struct CauseFound {
    /// The cause's stable code (`space-as-plus`).
    pub code: &'static str,
    /// What to change, in one sentence (the catalogue's, in English).
    pub fix: &'static str,
    /// Each finding of this cause, in the order found.
    pub findings: Vec<Place>,
}

/// One finding of a cause, for the page.
#[derive(Clone, Debug, Serialize)]
pub struct Place {
    /// Where: `method`, `uri`, `parameter:NAME`, ...
    pub component: String,
    /// The kind of place alone: `method`, `uri`, `parameters`, `parameter`,
    /// `header`, `key`, `signature`.
    pub place: &'static str,
    /// The parameter's name, for a `parameter` or `header` place.
    pub name: Option<String>,
    /// One sentence for people (the library's, English): how it was found.
    pub detail: String,
    /// How it was found, as the page words it in another language:
    /// `compared`, `reproduced`, `reproduced-pair`, `key-reproduced`,
    /// `not-reproduced`, `not-searched` (the library's `FoundBy`).
    pub found_by: &'static str,
    /// Whether an encoder used at a wider level writes the same base string
    /// (a signature cannot tell which).
    pub ambiguous: bool,
    /// Our text there, split where it differs from theirs.
    pub ours: Diff,
    /// Their text there, split where it differs from ours.
    pub theirs: Diff,
    /// For an encoding cause found by the signature search, where the
    /// mistaken encoder was used.
    pub level: Option<&'static str>,
}

/// What the explainer says.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Explained {
    /// Whether anything was given to compare.
    pub compared: bool,
    /// Whether what they gave matches ours (for a capture: its signature,
    /// signed with the capture's values, whatever the
    /// [`contradictions`](Self::contradictions)).
    pub matches: bool,
    /// The causes, most fundamental first, each once with its findings.
    pub causes: Vec<CauseFound>,
    /// Their base string, as given or as the signature search found it.
    pub their_base_string: Option<String>,
    /// Why nothing could be compared, and the field it is about.
    pub error: Option<FieldError>,
    /// How the captured request was read, when one was given.
    pub capture: Option<CaptureShown>,
    /// The values the Sign panel pins that the capture contradicts, to be
    /// said first ([`matches`](Self::matches) is of the signature signed
    /// with the capture's values).
    pub contradictions: Vec<ContradictionShown>,
}

/// How a captured request was read: the capture module's, in the page's
/// full module; nothing in its first download, which reads no capture
/// (`app.js` loads the full module before it sends one).
#[cfg(feature = "capture")]
pub type CaptureShown = crate::capture::CaptureRead;
/// How a captured request was read: nothing, in the page's first download,
/// which reads no capture.
#[cfg(not(feature = "capture"))]
pub type CaptureShown = ();

/// A value pinned that the capture contradicts: the capture module's, in
/// the page's full module.
#[cfg(feature = "capture")]
pub type ContradictionShown = crate::capture::ContradictionShown;
/// A value pinned that the capture contradicts: none, in the page's first
/// download.
#[cfg(not(feature = "capture"))]
pub type ContradictionShown = ();

/// `evidence` (JSON of [`Evidence`]) explained.
pub fn explain_json(evidence: &str) -> Explained {
    let ev: Evidence = match serde_json::from_str(evidence) {
        Ok(e) => e,
        Err(e) => return failed(FieldError::fields(&e)),
    };
    if !ev.capture.trim().is_empty() {
        #[cfg(feature = "capture")]
        return from_capture(ev);
        #[cfg(not(feature = "capture"))]
        return failed(FieldError {
            field: Some("capture"),
            spot: Spot::message(
                "a captured request is read by the page's full module, not loaded yet",
            ),
        });
    }
    let (base, signature, header) = (
        Some(ev.their_base_string.trim()).filter(|s| !s.is_empty()),
        Some(ev.their_signature.trim()).filter(|s| !s.is_empty()),
        Some(ev.their_header.trim()).filter(|s| !s.is_empty()),
    );
    if base.is_none() && signature.is_none() && header.is_none() {
        return Explained::default();
    }
    if ev.fields.url.trim().is_empty() {
        return failed(FieldError::page(
            "url",
            "there is no request to compare with: fill in the Sign panel (its URL at least)",
            Hint::new("no-request", []),
        ));
    }
    // A header as logs print it: `Authorization: OAuth ...`.
    let (skipped, header) = match header.map(field_value) {
        Some((skipped, h)) => (skipped, Some(h)),
        None => (0, None),
    };
    let explainer = match explainer_of(&ev.fields) {
        Ok(x) => x,
        Err(e) => return failed(*e),
    };
    let theirs = Theirs {
        header,
        base_string: base,
        signature,
    };
    let explanation = match explainer.explain(theirs) {
        Ok(x) => x,
        Err(e) => {
            // Only their header can be refused (the blanks were dropped above).
            let h = ev.their_header.trim();
            return failed(FieldError {
                field: Some("their_header"),
                spot: Spot::of_in(&e, h, skipped),
            });
        }
    };
    explained(&explanation)
}

/// The explainer of the request `fields` say, its parameters compared as
/// a header's whatever the transmission.
fn explainer_of(fields: &Fields) -> Result<Explainer, Box<FieldError>> {
    // A body that is not signed (JSON, say): a base string that signs it
    // is named `body-signed`.
    with_request(fields, true, Explainer::new).map(|(x, spec, _)| match &spec.body {
        Some(body) => x.with_unsigned_body(body),
        None => x,
    })
}

#[cfg(feature = "capture")]
/// The captured request explained by the library's one call
/// ([`CaptureExplainer`](oauth1_signer::explain::CaptureExplainer), as
/// `oauth1 explain` and `oauth1 serve` explain one): the Sign panel gives
/// the secrets and pins what it fills in; a pin the capture contradicts is
/// said first.
fn from_capture(ev: Evidence) -> Explained {
    let read = match crate::capture::read(
        &ev.capture_kind,
        &ev.capture,
        &ev.capture_scheme,
        &ev.capture_entry,
    ) {
        Ok(r) => r,
        Err(refused) => {
            return Explained {
                error: Some(refused.error),
                capture: refused.shown,
                ..Explained::default()
            }
        }
    };
    let base = Some(ev.their_base_string.trim()).filter(|s| !s.is_empty());
    let signature = Some(ev.their_signature.trim()).filter(|s| !s.is_empty());
    match crate::capture::explain(&read, &ev.fields, base, signature) {
        Ok(x) => Explained {
            contradictions: x.contradictions.iter().map(Into::into).collect(),
            capture: Some(crate::capture::explained(&x, read.shown)),
            ..explained(&x.explanation)
        },
        Err(error) => Explained {
            error: Some(*error),
            capture: Some(read.shown),
            ..Explained::default()
        },
    }
}

/// The explanation, for the page.
fn explained(explanation: &oauth1_signer::explain::Explanation) -> Explained {
    // The findings of one cause are shown together, the causes in the order
    // first found.
    let mut causes: Vec<CauseFound> = Vec::new();
    for f in &explanation.findings {
        let (ours, theirs) = diff(&f.ours, &f.theirs);
        let (kind, name) = place_of(&f.component);
        let place = Place {
            component: f.component.to_string(),
            place: kind,
            name,
            detail: f.detail.clone(),
            found_by: f.found_by.as_str(),
            ambiguous: matches!(
                f.found_by,
                FoundBy::Reproduced {
                    ambiguous: true,
                    ..
                }
            ),
            ours,
            theirs,
            level: f.level.map(|l| l.as_str()),
        };
        let code = f.cause.as_str();
        match causes.iter_mut().find(|c| c.code == code) {
            Some(c) => c.findings.push(place),
            None => causes.push(CauseFound {
                code,
                fix: f.cause.fix(),
                findings: vec![place],
            }),
        }
    }
    Explained {
        compared: true,
        matches: explanation.matches,
        causes,
        their_base_string: explanation.their_base_string.clone(),
        error: None,
        capture: None,
        contradictions: Vec::new(),
    }
}

/// The kind of a component and the parameter it names, if one.
fn place_of(c: &Component) -> (&'static str, Option<String>) {
    match c {
        Component::Method => ("method", None),
        Component::Uri => ("uri", None),
        Component::Parameters => ("parameters", None),
        Component::Parameter(n) => ("parameter", Some(n.clone())),
        Component::Header(n) => ("header", Some(n.clone())),
        Component::Key => ("key", None),
        Component::Signature => ("signature", None),
        _ => ("other", None),
    }
}

/// A header's value without the field name a log prints before it
/// (`Authorization:`, any case), and how many bytes were skipped.
fn field_value(header: &str) -> (usize, &str) {
    const NAME: &str = "authorization:";
    match header.get(..NAME.len()) {
        Some(n) if n.eq_ignore_ascii_case(NAME) => {
            let rest = &header[NAME.len()..];
            let value = rest.trim_start();
            (header.len() - value.len(), value)
        }
        _ => (0, header),
    }
}

fn failed(error: FieldError) -> Explained {
    Explained {
        error: Some(error),
        ..Explained::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // X docs "Creating a signature", and a base string that writes each
    // space of the status as '+' (fixtures/explain.json, explain-space-as-plus).
    #[test]
    fn one_entry_per_cause() {
        let evidence = serde_json::json!({
            "method": "POST",
            "url": "https://api.x.com/1.1/statuses/update.json?include_entities=true",
            "body": "status=Hello%20Ladies%20%2b%20Gentlemen%2c%20a%20signed%20OAuth%20request%21",
            "consumer_key": "xvz1evFS4wEEPTGEFPHBog",
            "consumer_secret": "kAcSOqF21Fu85e7zjz7ZN2U4ZRhfV3WpwPAoE3Z7kBw",
            "token": "370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb",
            "token_secret": "LswwdoUaIvS8ltyTt5jkRh4J50vUPVVHtR2YPi5kE",
            "signature_method": "HMAC-SHA1",
            "nonce": "kYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg",
            "timestamp": "1318622958",
            "their_signature": "tXpPpWFTUAqx4z/p9kK1rdS+8bQ=",
            "their_base_string": "POST&https%3A%2F%2Fapi.x.com%2F1.1%2Fstatuses%2Fupdate.json&include_entities%3Dtrue%26oauth_consumer_key%3Dxvz1evFS4wEEPTGEFPHBog%26oauth_nonce%3DkYjzVBB8Y0ZFabxSWbWovY3uYSQ2pTgmZeNu2VS4cg%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1318622958%26oauth_token%3D370773112-GmHxMAgYyLbNEtIKZeRNFsMKPR9EyMZeS9weJAEb%26oauth_version%3D1.0%26status%3DHello%2BLadies%2B%252B%2BGentlemen%252C%2Ba%2Bsigned%2BOAuth%2Brequest%2521",
        });
        let x = explain_json(&evidence.to_string());
        assert!(x.compared && !x.matches);
        let codes: Vec<&str> = x.causes.iter().map(|c| c.code).collect();
        assert!(codes.contains(&"space-as-plus"), "{codes:?}");
        let plus = x.causes.iter().find(|c| c.code == "space-as-plus").unwrap();
        assert!(plus.fix.contains("%20"), "{}", plus.fix);
        let mut unique = codes.clone();
        unique.dedup();
        assert_eq!(unique.len(), codes.len(), "{codes:?}");
    }

    // fixtures/explain.json, explain-body-signed: the X docs request with
    // its status sent as JSON, and a base string that signs it as a form.
    #[test]
    fn a_signed_json_body_is_named_body_signed() {
        let all: serde_json::Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../fixtures/explain.json"
        )))
        .unwrap();
        let case = all["cases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == "explain-body-signed")
            .unwrap();
        let mut evidence = case["inputs"].clone();
        evidence["body"] = case["unsigned_body"].clone();
        evidence["body_type"] = "json".into();
        evidence["their_base_string"] = case["theirs"]["base_string"].clone();
        let x = explain_json(&evidence.to_string());
        let codes: Vec<&str> = x.causes.iter().map(|c| c.code).collect();
        assert_eq!(codes, ["body-signed"]);
    }

    #[test]
    fn nothing_to_compare_is_not_an_error() {
        let x = explain_json(r#"{"method":"GET","url":"https://h/"}"#);
        assert!(!x.compared && x.error.is_none());
    }

    #[test]
    fn no_request_is_said_as_such_not_as_an_invalid_url() {
        let x = explain_json(r#"{"their_signature":"abc"}"#);
        let e = x.error.unwrap();
        assert_eq!(e.spot.said.map(|h| h.code), Some("no-request"));
        assert_eq!(e.spot.offset, None);
    }

    #[test]
    fn a_header_as_logs_print_it_is_read() {
        assert_eq!(
            field_value("Authorization: OAuth a=\"b\""),
            (15, "OAuth a=\"b\"")
        );
        assert_eq!(field_value("authorization:OAuth x"), (14, "OAuth x"));
        assert_eq!(field_value("OAuth x"), (0, "OAuth x"));
        assert_eq!(field_value("Author"), (0, "Author"));
    }
}
