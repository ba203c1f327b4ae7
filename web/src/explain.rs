//! The Explain panel: the Sign panel's request and what the other side
//! gave (its base string, signature or header) to the library's
//! [`Explainer`] findings, each cause by its stable code, with the part where
//! ours and theirs differ marked. Comparisons are made as `oauth1 explain`
//! makes them: the header on its own, the base string with the signature.

use oauth1_signer::explain::{Explainer, Theirs};
use serde::{Deserialize, Serialize};

use crate::render::{diff, Diff, Spot};
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
}

/// One cause and every place it was found.
#[derive(Clone, Debug, Serialize)]
pub struct Cause {
    /// The cause's stable code (`space-as-plus`).
    pub code: &'static str,
    /// Each finding of this cause, in the order found.
    pub findings: Vec<Place>,
}

/// One finding of a cause, for the page.
#[derive(Clone, Debug, Serialize)]
pub struct Place {
    /// Where: `method`, `uri`, `parameter:NAME`, ...
    pub component: String,
    /// One sentence for people.
    pub detail: String,
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
    /// Whether what they gave matches ours.
    pub matches: bool,
    /// The causes, most fundamental first, each once with its findings.
    pub causes: Vec<Cause>,
    /// Their base string, as given or as the signature search found it.
    pub their_base_string: Option<String>,
    /// Why nothing could be compared, and the field it is about.
    pub error: Option<FieldError>,
}

/// `evidence` (JSON of [`Evidence`]) explained.
pub fn explain_json(evidence: &str) -> Explained {
    let ev: Evidence = match serde_json::from_str(evidence) {
        Ok(e) => e,
        Err(e) => {
            return failed(FieldError {
                field: Some("fields"),
                spot: Spot::message(format!("unreadable fields: {e}")),
            })
        }
    };
    let (base, signature, header) = (
        Some(ev.their_base_string.trim()).filter(|s| !s.is_empty()),
        Some(ev.their_signature.trim()).filter(|s| !s.is_empty()),
        Some(ev.their_header.trim()).filter(|s| !s.is_empty()),
    );
    if base.is_none() && signature.is_none() && header.is_none() {
        return Explained::default();
    }
    let explainer = match with_request(&ev.fields, Explainer::new) {
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
            let h = header.unwrap_or_default();
            return failed(FieldError {
                field: Some("their_header"),
                spot: match e.offset() {
                    Some((_, at)) => Spot::at(e.to_string(), h, at, e.span_len()),
                    None => Spot::message(e.to_string()),
                },
            });
        }
    };
    // The findings of one cause are shown together, the causes in the order
    // first found.
    let mut causes: Vec<Cause> = Vec::new();
    for f in &explanation.findings {
        let (ours, theirs) = diff(&f.ours, &f.theirs);
        let place = Place {
            component: f.component.to_string(),
            detail: f.detail.clone(),
            ours,
            theirs,
            level: f.level.map(|l| l.as_str()),
        };
        let code = f.cause.as_str();
        match causes.iter_mut().find(|c| c.code == code) {
            Some(c) => c.findings.push(place),
            None => causes.push(Cause {
                code,
                findings: vec![place],
            }),
        }
    }
    Explained {
        compared: true,
        matches: explanation.matches,
        causes,
        their_base_string: explanation.their_base_string,
        error: None,
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
        let mut unique = codes.clone();
        unique.dedup();
        assert_eq!(unique.len(), codes.len(), "{codes:?}");
    }

    #[test]
    fn nothing_to_compare_is_not_an_error() {
        let x = explain_json(r#"{"method":"GET","url":"https://h/"}"#);
        assert!(!x.compared && x.error.is_none());
    }
}
