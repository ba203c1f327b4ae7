//! What `sign` prints: every stage as JSON or as a trace for people, and a
//! curl command line; secrets shown only when asked for.

use std::borrow::Cow;
use std::fmt::Write as _;

use oauth1_signer::pipeline::{Mask, Placed};
use oauth1_signer::{text::redact_secrets, RequestSpec, Secret, Trace, Transmission};
use serde::Serialize;

use oauth1_signer::outgoing::Sent;
use oauth1_signer::pipeline::base_string_lines;

use crate::caret::printable;
use crate::{hex, Failure};

/// `text` with `spec`'s secrets in any spelling replaced by `<redacted>`
/// (the library's one rule, [`redact_secrets`]), unless `show` (the user
/// asked for them with --show-secrets): a signature sent as a near spelling
/// of the key, say, is shown by what prints it.
pub(crate) fn without_secrets(text: String, spec: &RequestSpec, show: bool) -> String {
    if show {
        return text;
    }
    match redacted(&text, spec) {
        Cow::Borrowed(_) => text,
        Cow::Owned(redacted) => redacted,
    }
}

/// `text` with `spec`'s secrets in any spelling replaced by `<redacted>`;
/// borrowed when it holds none.
pub(crate) fn redacted<'t>(text: &'t str, spec: &RequestSpec) -> Cow<'t, str> {
    // An absent secret as "", which the rule skips.
    fn secret(s: &Option<Secret>) -> &str {
        s.as_ref().map_or("", Secret::expose)
    }
    redact_secrets(
        text,
        &[secret(&spec.consumer_secret), secret(&spec.token_secret)],
    )
}

/// What may be shown of the secret-bearing stages.
pub struct Shown {
    signing_key: Option<String>,
    /// `None` when the signature is a PLAINTEXT one being hidden.
    signature: Option<String>,
    /// The `Authorization` header, a hidden signature written as `<hidden>`.
    header: String,
    show_secrets: bool,
}

/// Never the key or the signature, which may be secret.
impl std::fmt::Debug for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shown").finish_non_exhaustive()
    }
}

pub(crate) const HIDDEN: &str =
    "<hidden: the PLAINTEXT signature is the signing key; --show-secrets shows it>";

impl Shown {
    /// What of `trace` may be shown: the signing key only with
    /// `show_secrets`, and a PLAINTEXT signature (which is the key) hidden
    /// in the signature and the header without it (the library writes the
    /// header with `<hidden>` in its place: [`Shown::mask`]).
    pub fn new(trace: &Trace, show_secrets: bool) -> Shown {
        let mask = Shown::mask_for(show_secrets);
        let hidden = trace.signature.is_secret() && !show_secrets;
        let header = match trace
            .signed
            .placed_shown(Transmission::Header, "", b"", mask)
        {
            Placed::Header(header) => header,
            _ => trace.authorization_header.clone(),
        };
        Shown {
            signing_key: if show_secrets {
                trace.signing_key.as_ref().map(|k| k.expose().to_owned())
            } else {
                None
            },
            signature: (!hidden).then(|| trace.signature.as_str().to_owned()),
            header,
            show_secrets,
        }
    }

    fn mask_for(show_secrets: bool) -> Mask<'static> {
        if show_secrets {
            Mask::Show
        } else {
            Mask::With("<hidden>")
        }
    }

    /// How the library writes a PLAINTEXT signature in what is sent, as
    /// shown: as it is with --show-secrets, else `<hidden>` in its place.
    pub(crate) fn mask(&self) -> Mask<'static> {
        Shown::mask_for(self.show_secrets)
    }
}

/// A decoded name or value: a JSON string when it is UTF-8, `{"hex": ...}` when not.
#[derive(Serialize)]
#[serde(untagged)]
enum Bytes<'a> {
    Text(&'a str),
    Binary { hex: String },
}

impl<'a> Bytes<'a> {
    fn new(bytes: &'a [u8]) -> Bytes<'a> {
        match std::str::from_utf8(bytes) {
            Ok(s) => Bytes::Text(s),
            Err(_) => Bytes::Binary { hex: hex(bytes) },
        }
    }
}

/// Every stage as one JSON object, with the test vectors' field names, one
/// collected pair per line; with `sent`, what is sent (`sent_url`,
/// `sent_body`, and `authorization_header` only when the protocol
/// parameters go in the header). `sent` is as shown
/// ([`RequestSpec::sent_shown`] with `Shown::mask`).
pub fn stages_json(trace: &Trace, shown: &Shown, sent: Option<&Sent>) -> Result<String, Failure> {
    let json = |value: &dyn erased::Json| value.to_json().map_err(|e| Failure::Io(e.to_string()));
    let mut out = String::from("{\n  \"collected_params\": [");
    for (i, (_, name, value)) in trace.collected_params.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let (name, value) = (json(&Bytes::new(name))?, json(&Bytes::new(value))?);
        let _ = write!(out, "{sep}\n    [{name}, {value}]");
    }
    out.push_str("\n  ]");
    let mut field = |name: &str, value: &str| -> Result<(), Failure> {
        let _ = write!(out, ",\n  {}: {}", json(&name)?, json(&value)?);
        Ok(())
    };
    field("normalized_params", &trace.normalized_params)?;
    field("base_string_uri", &trace.base_string_uri)?;
    field("base_string", &trace.base_string)?;
    if let Some(key) = &shown.signing_key {
        field("signing_key", key)?;
    }
    field("signature", shown.signature.as_deref().unwrap_or(HIDDEN))?;
    // What is sent: the header only with the header transmission; the URL
    // and body as they go (a PLAINTEXT signature in them hidden as in the
    // header, by the library's writer).
    match sent {
        Some(sent) => {
            if sent.authorization.is_some() {
                field("authorization_header", &shown.header)?;
            }
            field("sent_url", &sent.url)?;
            let body = sent.body.as_ref().map(|b| String::from_utf8_lossy(b));
            let _ = write!(out, ",\n  \"sent_body\": {}", json(&body)?);
        }
        None => field("authorization_header", &shown.header)?,
    }
    let warnings: Vec<String> = trace.warnings.iter().map(ToString::to_string).collect();
    let _ = write!(out, ",\n  \"warnings\": {}", json(&warnings)?);
    out.push_str("\n}\n");
    Ok(out)
}

/// What is sent, for `stages_text`: the URL and body as sent (as shown:
/// [`RequestSpec::sent_shown`] with [`Shown::mask`]), when they carry the
/// protocol parameters.
pub(crate) fn sent_text(sent: &Sent, transmission: Transmission) -> String {
    match transmission {
        Transmission::Query => format!(
            "\nsent in the query (RFC 5849 §3.5.3):\n  {}\n",
            printable(sent.url.as_bytes())
        ),
        Transmission::FormBody => format!(
            "\nsent in the form body (RFC 5849 §3.5.2):\n  {}\n",
            printable(sent.body.as_deref().unwrap_or_default())
        ),
        _ => String::new(),
    }
}

mod erased {
    /// A value serde can write as compact JSON.
    pub(super) trait Json {
        fn to_json(&self) -> serde_json::Result<String>;
    }

    impl<T: serde::Serialize + ?Sized> Json for T {
        fn to_json(&self) -> serde_json::Result<String> {
            serde_json::to_string(self)
        }
    }
}

/// Every stage as a trace for people: a heading per stage, its lines
/// indented, request text escaped, the base string broken at each `&`.
pub fn stages_text(spec: &RequestSpec, trace: &Trace, shown: &Shown) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "request:\n  {} {}", spec.method, spec.url);
    if let Some(body) = &spec.form_body {
        let _ = writeln!(out, "  (form body) {}", printable(body.as_bytes()));
    }
    out.push_str("\ncollected parameters (decoded; query, then oauth_*, then body):\n");
    // Names are padded to line the values up, but only names up to MAX_PAD
    // characters: a longer one is printed as it is (and a format width over
    // 65535 would panic).
    const MAX_PAD: usize = 40;
    let width = trace
        .collected_params
        .iter()
        .map(|(_, n, _)| printable(n).chars().count())
        .filter(|&w| w <= MAX_PAD)
        .max()
        .unwrap_or(0);
    for (_, name, value) in &trace.collected_params {
        let _ = writeln!(out, "  {:<width$}  {}", printable(name), printable(value));
    }
    out.push_str("\nnormalized parameters (encoded, sorted; one per line, joined by '&'):\n");
    for param in trace.normalized_params.split('&') {
        let _ = writeln!(out, "  {param}");
    }
    let _ = writeln!(out, "\nbase string URI:\n  {}", trace.base_string_uri);
    out.push_str(
        "\nbase string (a line per '&' and per '%26'; joined, they are the signed bytes):\n",
    );
    for line in base_string_lines(&trace.base_string) {
        let _ = writeln!(out, "  {line}");
    }
    out.push_str("\nsigning key:\n");
    match (&shown.signing_key, &trace.signing_key) {
        (Some(key), _) => {
            let _ = writeln!(out, "  {key}");
        }
        (None, Some(_)) => out.push_str("  <hidden; --show-secrets shows it>\n"),
        (None, None) => out.push_str("  (none: RSA signs with the private key)\n"),
    }
    let _ = writeln!(
        out,
        "\nsignature:\n  {}",
        shown.signature.as_deref().unwrap_or(HIDDEN)
    );
    // Sent in the query or the body, the parameters are shown there
    // (`sent_text`): no header is sent.
    if spec.transmission() == Transmission::Header {
        let _ = writeln!(out, "\nAuthorization header:\n  {}", shown.header);
    }
    if !trace.warnings.is_empty() {
        out.push_str("\nwarnings:\n");
        for warning in &trace.warnings {
            let _ = writeln!(out, "  {warning}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use oauth1_signer::{RequestSpec, Secret};

    use super::Shown;

    /// `Shown` is public (for the fuzz target), so its Debug must not be a
    /// way around --show-secrets: PLAINTEXT's signature is the key.
    #[test]
    fn debug_shows_neither_the_key_nor_the_signature() {
        let mut spec = RequestSpec::default();
        spec.method = "GET".into();
        spec.url = "https://h/".into();
        spec.consumer_key = "ck".into();
        spec.consumer_secret = Some(Secret::new("consumer-SECRET"));
        spec.signature_method = Some("PLAINTEXT".into());
        let trace = spec.trace().unwrap();
        let shown = Shown::new(&trace, true);
        assert_eq!(shown.signing_key.as_deref(), Some("consumer-SECRET&"));
        assert_eq!(format!("{shown:?}"), "Shown { .. }");
    }
}
