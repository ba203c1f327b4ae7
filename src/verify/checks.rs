//! The checks of a received request's protocol parameters (RFC 5849 §3.1,
//! §3.3, §3.4), each on the one model ([`Protocol`]): which are present,
//! the method accepted, the nonce and timestamp by the signer's own rules,
//! the timestamp window, the body hash, and the signature.

use std::ops::RangeInclusive;
use std::time::Duration;

use crate::pipeline::body_hash::{body_hash, BodyHash};
use crate::pipeline::protocol::{Name, Nonce, Protocol, Timestamp};
use crate::pipeline::sign::SignatureMethod;
use crate::verify::reason::Reason;
use crate::verify::received::Received;
use crate::verify::secrets::Secrets;

/// Which parameters are present and well-formed (§3.1): the method among
/// `methods`, and the timestamp and nonce when sent, by the rules the
/// signer applies (`protocol.rs`): what it sends, this accepts.
pub(super) fn check_protocol(
    protocol: &Protocol<'_>,
    methods: &[SignatureMethod],
    nonce_len: &RangeInclusive<usize>,
) -> Result<(SignatureMethod, Option<u64>), Reason> {
    let method = protocol.get(Name::SignatureMethod);
    // §3.1: the timestamp and nonce "MAY be omitted" with PLAINTEXT.
    let plaintext_pair = method == Some(SignatureMethod::Plaintext.as_str())
        && protocol.get(Name::Timestamp).is_none()
        && protocol.get(Name::Nonce).is_none();
    let absent: Vec<&'static str> = [
        Name::ConsumerKey,
        Name::Nonce,
        Name::Signature,
        Name::SignatureMethod,
        Name::Timestamp,
    ]
    .into_iter()
    .filter(|&n| protocol.get(n).is_none())
    .filter(|n| !(plaintext_pair && matches!(n, Name::Nonce | Name::Timestamp)))
    .map(Name::as_str)
    .collect();
    if !absent.is_empty() {
        return Err(Reason::ParameterAbsent(absent));
    }
    if protocol.get(Name::Version).is_some_and(|v| v != "1.0") {
        return Err(Reason::VersionRejected);
    }
    let method_text = method.unwrap_or_default();
    // The name exactly as registered: no second spelling.
    let method = methods
        .iter()
        .copied()
        .find(|m| m.as_str() == method_text)
        .ok_or_else(|| Reason::SignatureMethodRejected {
            method: method_text.to_owned(),
        })?;
    let timestamp = match protocol.get(Name::Timestamp) {
        None => None,
        Some(t) => Some(Timestamp::parse(t).map_err(Reason::from)?.secs()),
    };
    if let Some(n) = protocol.get(Name::Nonce) {
        Nonce::parse_within(n, nonce_len).map_err(Reason::from)?;
    }
    Ok((method, timestamp))
}

/// The timestamp inside `[now - before, now + after]`, or how far out.
pub(super) fn check_timestamp(
    t: u64,
    now: u64,
    before: Duration,
    after: Duration,
) -> Option<Reason> {
    let from = now.saturating_sub(before.as_secs());
    let to = now.saturating_add(after.as_secs());
    let by_seconds = if t < from {
        -i64::try_from(from - t).unwrap_or(i64::MAX)
    } else if t > to {
        i64::try_from(t - to).unwrap_or(i64::MAX)
    } else {
        return None;
    };
    Some(Reason::TimestampRefused {
        by_seconds,
        acceptable: (from, to),
    })
}

/// `oauth_body_hash` against the body received, by the verifier's
/// [`BodyHash`]: required where its policy says so; when sent, refused on
/// a form-encoded body, whose parameters are signed already (OAuth Request
/// Body Hash §3.2), unless the policy is [`BodyHashPolicy::Always`](crate::BodyHashPolicy::Always)
/// (Mastercard's style, which signs no form parameter), and on a body
/// passed on unread; compared on the decoded digest (the method's hash, or
/// the one the policy names) otherwise.
pub(super) fn check_body_hash(
    protocol: &Protocol<'_>,
    r: &Received<'_>,
    method: SignatureMethod,
    policy: &BodyHash,
) -> Option<Reason> {
    let name = || Name::BodyHash.as_str().to_owned();
    let Some(theirs) = protocol.get(Name::BodyHash) else {
        return policy
            .required(r.form)
            .then(|| Reason::ParameterAbsent(vec![Name::BodyHash.as_str()]));
    };
    if !r.body_read {
        return Some(Reason::ParameterRejected {
            name: name(),
            why: "the body was passed on unread, so its hash cannot be checked",
        });
    }
    if r.form && !policy.applies(true) {
        return Some(Reason::ParameterRejected {
            name: name(),
            why: "a form-encoded body's parameters are signed; it has no body hash",
        });
    }
    let ours = body_hash(policy.algorithm().for_method(method), r.body);
    let decode = |s: &str| {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.decode(s).ok()
    };
    match (decode(theirs), decode(&ours)) {
        (Some(a), Some(b)) if a == b => None,
        _ => Some(Reason::BodyHashInvalid),
    }
}

/// Whether `secrets` hold an RSA public key to verify with.
pub(super) fn has_rsa_public_key(secrets: &Secrets) -> bool {
    #[cfg(feature = "rsa")]
    return secrets.rsa_public_key().is_some();
    #[cfg(not(feature = "rsa"))]
    {
        let _ = secrets;
        false
    }
}

/// Whether `signature` is `method`'s over `base` with `secrets`.
pub(super) fn signature_matches(
    method: SignatureMethod,
    base: &[u8],
    signature: &str,
    secrets: &Secrets,
) -> bool {
    if method.is_rsa() {
        #[cfg(feature = "rsa")]
        if let Some(key) = secrets.rsa_public_key() {
            return crate::pipeline::sign::rsa_verify(method, key, base, signature);
        }
        return false;
    }
    secrets
        .signing_key(method)
        .is_some_and(|key| key.matches(base, signature))
}
