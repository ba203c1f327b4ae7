//! An error placed in the field it is about, as the page shows it.

use oauth1_signer::pipeline::is_form_urlencoded;
use oauth1_signer::{Error, ErrorKind, Part};
use serde::Serialize;

use super::fields::{BodyType, Fields};
use crate::render::{Hint, Spot};
use crate::say;

/// An error and the field it is about (`url`, `body`, `realm`, `method`,
/// `nonce`, `timestamp`, `signature_method`, `callback`, `verifier`,
/// `fields`), if one.
#[derive(Clone, Debug, Serialize)]
pub struct FieldError {
    /// The field's name in [`Fields`].
    pub field: Option<&'static str>,
    /// The error, where in the field, and what the page says of it.
    pub spot: Spot,
}

impl FieldError {
    /// The library's error `e`, placed in the field it points into.
    pub fn new(e: &Error, fields: &Fields) -> FieldError {
        let message = e.to_string();
        let (field, text) = match (e.offset(), e.kind()) {
            (Some((Part::Url, _)), _) => (Some("url"), fields.url.as_str()),
            (Some((Part::FormBody, _)), _) => (Some("body"), fields.body.as_str()),
            (Some((Part::Realm, _)), _) => (Some("realm"), fields.realm.as_str()),
            (Some((Part::Method, _)), _)
            | (
                _,
                ErrorKind::Empty {
                    part: Part::Method, ..
                },
            ) => (Some("method"), fields.method.as_str()),
            (Some((Part::Input, _)), _) | (_, ErrorKind::AmbiguousMediaType { .. }) => {
                (Some("content_type"), fields.content_type.as_str())
            }
            (_, ErrorKind::InvalidProtocolValue { name, .. }) => {
                let field = match *name {
                    "oauth_nonce" => Some("nonce"),
                    "oauth_timestamp" => Some("timestamp"),
                    "oauth_consumer_key" => Some("consumer_key"),
                    "oauth_token" => Some("token"),
                    "oauth_callback" => Some("callback"),
                    "oauth_verifier" => Some("verifier"),
                    _ => None,
                };
                (field, "")
            }
            (_, ErrorKind::UnknownSignatureMethod { .. }) => (Some("signature_method"), ""),
            (
                _,
                ErrorKind::MissingKey { .. } | ErrorKind::InvalidKey { .. } | ErrorKind::Rsa { .. },
            ) => (Some("private_key"), ""),
            // A body given as other bytes of the form's type, else where the
            // parameters go (the form-body transmission without a form,
            // Mastercard's style off the header).
            (_, ErrorKind::Conflict { .. }) => {
                let form_type = BodyType::from_name(&fields.body_type) == Ok(BodyType::Bytes)
                    && is_form_urlencoded(&fields.content_type).unwrap_or(true);
                (
                    Some(if form_type {
                        "content_type"
                    } else {
                        "transmission"
                    }),
                    "",
                )
            }
            _ => (None, ""),
        };
        let spot = match e.offset() {
            Some((_, at)) if field.is_some() => Spot::at(message, text, at, e.span_len()),
            _ => Spot::message(message),
        };
        FieldError {
            field,
            spot: spot.said(say::error(e, text)),
        }
    }

    /// An error the page found, in `field`: `message` in English, `said`
    /// its code for the page's languages.
    pub fn page(field: &'static str, message: impl Into<String>, said: Hint) -> FieldError {
        FieldError {
            field: Some(field),
            spot: Spot::message(message).said(said),
        }
    }

    /// A select's value that names none of its options.
    pub(crate) fn unknown(field: &'static str) -> FieldError {
        FieldError::page(
            field,
            format!("the {field} select names none of its options"),
            Hint::new("err.unknown-option", [field.to_owned()]),
        )
    }

    /// Fields the page could not read (a bug of the page's own script).
    pub fn fields(e: &serde_json::Error) -> FieldError {
        FieldError::page(
            "fields",
            format!("unreadable fields: {e}"),
            Hint::new("err.fields", [e.to_string()]),
        )
    }
}

/// The page's word for where a parameter was typed: `url` or `body`.
pub(crate) fn part_word(from: &str) -> &'static str {
    if from == "body" {
        "part.body"
    } else {
        "part.url"
    }
}
