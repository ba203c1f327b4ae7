//! The page's fields as the library's outgoing request ([`RequestSpec`]),
//! and the signer and request built from it.

use oauth1_signer::outgoing::Lifted as TakenOut;
use oauth1_signer::{
    Error, ErrorKind, Name, OAuthRequest, Part, RequestSpec, Secret, SignatureMethod, Signer,
    Transmission,
};

use super::errors::{part_word, FieldError};
use super::fields::{chosen, provider, BodyType, Fields, Unknown, JSON};
use crate::render::{Arg, Hint};

/// The page's fields as the library's outgoing request: an empty field is
/// an absent one; an empty nonce is made afresh, an empty timestamp is the
/// browser's clock (`now`: WebAssembly has no clock of its own).
///
/// # Errors
/// A select's value that names none of its options, by the field's name.
pub fn spec_of(fields: &Fields) -> Result<RequestSpec, Unknown> {
    let some = |v: &str| Some(v.to_owned()).filter(|v| !v.is_empty());
    let body_type = BodyType::from_name(&fields.body_type)?;
    let mut spec = RequestSpec::default();
    spec.provider = provider(&fields.provider)?;
    spec.transmission = chosen(&fields.transmission, "transmission")?;
    spec.method = fields.method.clone();
    spec.url = fields.url.clone();
    // With the form-body transmission the parameters need a form body to
    // join, even an empty one; a POST, PUT or PATCH is sent with a body (a
    // server may refuse one without a length).
    let carries_body = matches!(
        fields.method.to_ascii_uppercase().as_str(),
        "POST" | "PUT" | "PATCH"
    );
    let has_body = !fields.body.is_empty()
        || carries_body
        || (spec.transmission() == Transmission::FormBody && body_type == BodyType::Form);
    if has_body {
        match body_type {
            BodyType::Form => spec.form_body = Some(fields.body.clone()),
            BodyType::Json => {
                spec.body = Some(fields.body.clone().into_bytes());
                spec.content_type = Some(JSON.to_owned());
            }
            BodyType::Bytes => {
                spec.body = Some(fields.body.clone().into_bytes());
                spec.content_type = some(&fields.content_type);
            }
        }
    }
    spec.body_hash = chosen(&fields.body_hash, "body_hash")?;
    spec.body_hash_algorithm = chosen(&fields.body_hash_algorithm, "body_hash_algorithm")?;
    spec.consumer_key = fields.consumer_key.clone();
    spec.consumer_secret = Some(Secret::new(fields.consumer_secret.as_str()));
    spec.token = some(&fields.token);
    spec.token_secret = Some(Secret::new(fields.token_secret.as_str()));
    spec.signature_method = Some(fields.signature_method.clone());
    // The key field keeps its text whatever the method; an RSA method
    // signs with it.
    let rsa = fields
        .signature_method
        .parse::<SignatureMethod>()
        .is_ok_and(|m| m.is_rsa());
    spec.rsa_private_key =
        (rsa && !fields.private_key.is_empty()).then(|| Secret::new(fields.private_key.as_str()));
    spec.nonce = some(&fields.nonce);
    spec.timestamp = some(&fields.timestamp).or_else(|| some(&fields.now));
    spec.version = !fields.omit_version;
    spec.realm = some(&fields.realm);
    spec.callback = some(&fields.callback);
    spec.verifier = some(&fields.verifier);
    Ok(spec)
}

/// Builds the signer and the request of `fields` (through the library's
/// outgoing request, [`spec_of`]; with the parameters `in_header`
/// whatever the transmission, for a comparison) and runs `f` on them; an `oauth_callback`
/// or `oauth_verifier` typed into the URL or the body is taken out of it
/// ([`RequestSpec::lift_request_params`]) and sent with the other protocol
/// parameters.
///
/// # Errors
/// The first error of the request's settings or of `f`, placed in its
/// field; a callback or verifier given both in its field and in the URL or
/// body.
pub fn with_request<R>(
    fields: &Fields,
    in_header: bool,
    f: impl Fn(&Signer, &OAuthRequest<'_>) -> Result<R, Error>,
) -> Result<(R, RequestSpec, Vec<TakenOut>), Box<FieldError>> {
    let placed = |e: Error| Box::new(FieldError::new(&e, fields));
    let mut spec = spec_of(fields).map_err(|field| Box::new(FieldError::unknown(field)))?;
    if in_header {
        spec.transmission = Some(Transmission::Header);
    }
    let lifted = spec.lift_request_params().map_err(|e| match e.kind() {
        ErrorKind::DuplicateProtocolParameter { name, at, .. } => {
            let field = if name == Name::Callback.as_str() {
                "callback"
            } else {
                "verifier"
            };
            let from = match at {
                Some((Part::FormBody, _)) => "body",
                _ => "url",
            };
            Box::new(FieldError::page(
                field,
                format!("{name} is given twice: in its own field and in the {from}"),
                Hint::with(
                    "given-twice",
                    [Arg::data(name.clone()), Arg::word(part_word(from))],
                ),
            ))
        }
        _ => placed(e),
    })?;
    let signer = spec.fresh_signer().map_err(placed)?;
    let params = spec.protocol_params().map_err(placed)?;
    let result = f(&signer, &spec.request(&params)).map_err(placed)?;
    Ok((result, spec, lifted))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_is_placed_in_its_field_at_its_offset() {
        let fields = Fields {
            method: "GET".into(),
            url: "https://h/?a=%2G".into(),
            signature_method: "HMAC-SHA1".into(),
            nonce: "n".into(),
            timestamp: "1".into(),
            ..Fields::default()
        };
        let e = with_request(&fields, true, |s, r| s.trace(r))
            .err()
            .unwrap();
        assert_eq!(e.field, Some("url"));
        // "https://h/?a=" is 13 bytes.
        assert_eq!((e.spot.offset, e.spot.at.as_str()), (Some(13), "%2G"));
    }
}
