//! The request as the user gives it, for every subcommand that signs,
//! explains or verifies one: [`RequestFlags`] (the URL, method and body, or
//! a JSON file taken literally), [`Credentials`] (one path for all), and,
//! for the subcommands that sign, [`SigningFlags`] (the protocol
//! parameters a signer chooses). `verify` takes no `SigningFlags`: it reads
//! them from the request it checks.

use clap::Args;
use oauth1_signer::{
    BodyHashAlgorithm, BodyHashPolicy, Error, Part, Provider, RequestSpec, Signer, Transmission,
};

use crate::caret::Caret;
use crate::flags::{Credentials, MethodFlags};
use crate::{read_stdin, Failure};

/// The X developer docs' "Creating a signature" request (vector
/// `x-docs-creating-a-signature`), for `--example`.
const EXAMPLE: &str = include_str!("x-docs-creating-a-signature.json");

/// The request as sent: from the flags, or a JSON file (or the example)
/// taken literally.
#[derive(Args, Debug)]
pub(crate) struct RequestFlags {
    /// The request URL, exactly as it will be sent (its query is signed)
    #[arg(required_unless_present_any = ["request", "example"])]
    url: Option<String>,

    /// HTTP method [default: GET, or POST with --data]
    #[arg(short = 'X', long)]
    method: Option<String>,

    /// Raw application/x-www-form-urlencoded body; its parameters are signed
    #[arg(short = 'd', long, value_name = "BODY")]
    data: Option<String>,

    /// A body that is not a form (JSON, XML, bytes), TEXT or @FILE: never
    /// signed itself; covered by oauth_body_hash when --body-hash says so
    #[arg(long, value_name = "TEXT|@FILE", conflicts_with = "data")]
    body: Option<String>,

    /// The --body's media type [default: application/octet-stream]
    #[arg(long, value_name = "TYPE", requires = "body")]
    content_type: Option<String>,

    /// Read the request as JSON (the test vectors' "inputs"), taken literally; '-' is stdin
    #[arg(long, value_name = "FILE", conflicts_with = "example")]
    request: Option<String>,

    /// The X docs "Creating a signature" example (no credentials needed)
    #[arg(long)]
    pub(crate) example: bool,
}

impl RequestFlags {
    /// Whether the request is a JSON file (or the example) taken literally.
    pub(crate) fn literal(&self) -> bool {
        self.request.is_some() || self.example
    }

    /// The bytes of `--body`, if given (read from the file for `@FILE`).
    fn body_bytes(&self) -> Result<Option<Vec<u8>>, Failure> {
        let Some(body) = &self.body else {
            return Ok(None);
        };
        Ok(Some(match body.strip_prefix('@') {
            Some(path) => std::fs::read(path)
                .map_err(|e| Failure::input(format!("cannot read --body file {path:?}: {e}")))?,
            None => body.clone().into_bytes(),
        }))
    }
}

/// The provider, how the protocol parameters are sent, and whether the
/// body is hashed (`sign`, `explain`, `request`).
#[derive(Args, Debug)]
pub(crate) struct SendFlags {
    /// A provider profile (x, netsuite, woocommerce, mastercard, lti, jira-dc, magento, etrade,
    /// trello, garmin, flickr, discogs, rfc5849): its signature method, transmission, body
    /// hash, realm, oauth_version and parameter style, unless given here
    #[arg(long, value_name = "NAME")]
    provider: Option<Provider>,

    /// Where the protocol parameters go: header (Authorization, the default), query (the
    /// URL), form-body (a form body: -d)
    #[arg(long)]
    transmission: Option<Transmission>,

    /// The body hash
    #[command(flatten)]
    hash: BodyHashFlags,
}

/// `oauth_body_hash`: when, and which hash (`sign`, `request`, `verify`,
/// `serve`), each by the library's words; one given alone, the library's
/// rule ([`BodyHash::chosen`](oauth1_signer::BodyHash::chosen)) gives the
/// other.
#[derive(Args, Debug)]
pub(crate) struct BodyHashFlags {
    /// When to send oauth_body_hash: never (the default, but unless-form when
    /// --body-hash-algorithm is given), unless-form (on any body that is not a form, the
    /// empty one included), required (the same; a verifier refuses none), always (a form's
    /// too, as Mastercard's signers do)
    #[arg(long)]
    body_hash: Option<BodyHashPolicy>,

    /// Its hash: follow-method (the default: SHA-1 for HMAC-SHA1 and RSA-SHA1, SHA-256 for
    /// the -SHA256 methods, SHA-512 for HMAC-SHA512), sha1, sha256, sha512
    #[arg(long)]
    body_hash_algorithm: Option<BodyHashAlgorithm>,
}

impl SendFlags {
    /// Sets the provider, the transmission and the body hash of `spec` when
    /// given (`literal`: only what was typed on the command line replaces
    /// the file's). A provider that sends no `oauth_version` sends none
    /// from the flags either.
    pub(crate) fn fill(&self, spec: &mut RequestSpec, literal: bool, given: &dyn Fn(&str) -> bool) {
        if self.provider.is_some() && (!literal || given("provider")) {
            spec.provider = self.provider;
            if !literal && !spec.profile().is_some_and(|p| p.version) {
                spec.version = false;
            }
        }
        if self.transmission.is_some() {
            spec.transmission = self.transmission;
        }
        self.hash.fill(spec);
    }
}

impl BodyHashFlags {
    /// Sets the body-hash policy and algorithm of `spec` that were given
    /// (over the file's); [`RequestSpec::body_hash_rule`] then makes the
    /// rule of them and the provider's.
    pub(crate) fn fill(&self, spec: &mut RequestSpec) {
        if self.body_hash.is_some() {
            spec.body_hash = self.body_hash;
        }
        if self.body_hash_algorithm.is_some() {
            spec.body_hash_algorithm = self.body_hash_algorithm;
        }
    }
}

/// What a signer chooses: the method and key, the nonce and timestamp, the
/// realm, the callback, the verification code, the version.
#[derive(Args, Debug)]
pub(crate) struct SigningFlags {
    /// The signature method and RSA key
    #[command(flatten)]
    pub(crate) method: MethodFlags,

    /// Pin oauth_nonce (for reproducible output)
    #[arg(long)]
    nonce: Option<String>,

    /// Pin oauth_timestamp (for reproducible output)
    #[arg(long)]
    timestamp: Option<String>,

    /// realm, sent first in the header and never signed
    #[arg(long)]
    realm: Option<String>,

    /// oauth_callback (request-token call)
    #[arg(long)]
    callback: Option<String>,

    /// oauth_verifier, the verification code (access-token call)
    #[arg(long, value_name = "CODE")]
    oauth_verifier: Option<String>,

    /// Do not send oauth_version="1.0"
    #[arg(long)]
    no_version: bool,

    /// The provider, the transmission and the body hash
    #[command(flatten)]
    pub(crate) send: SendFlags,
}

impl SigningFlags {
    /// Sets the protocol parameters of `spec` (`literal`: only those typed
    /// on the command line replace the file's).
    fn fill(
        &self,
        spec: &mut RequestSpec,
        literal: bool,
        given: &dyn Fn(&str) -> bool,
    ) -> Result<(), Failure> {
        self.method.fill(spec, literal, given)?;
        let set = |field: &mut Option<String>, value: &Option<String>, id: &str| {
            if !literal || given(id) {
                field.clone_from(value);
            }
        };
        set(&mut spec.nonce, &self.nonce, "nonce");
        set(&mut spec.timestamp, &self.timestamp, "timestamp");
        set(&mut spec.realm, &self.realm, "realm");
        set(&mut spec.callback, &self.callback, "callback");
        set(&mut spec.verifier, &self.oauth_verifier, "oauth_verifier");
        if !literal {
            spec.version = !self.no_version;
        } else if self.no_version {
            spec.version = false;
        }
        self.send.fill(spec, literal, given);
        Ok(())
    }
}

/// The request the flags (or the file) give, with its credentials and, when
/// it is to be signed, its protocol parameters.
pub(crate) fn spec(
    request: &RequestFlags,
    credentials: &Credentials,
    signing: Option<&SigningFlags>,
    given: &dyn Fn(&str) -> bool,
) -> Result<RequestSpec, Failure> {
    spec_of(request, Some(credentials), signing, given)
}

/// As [`spec`]; without `credentials`, none are filled (a capture's are
/// filled by [`Credentials::fill_for_capture`]).
pub(crate) fn spec_of(
    request: &RequestFlags,
    credentials: Option<&Credentials>,
    signing: Option<&SigningFlags>,
    given: &dyn Fn(&str) -> bool,
) -> Result<RequestSpec, Failure> {
    let literal = request.literal();
    let mut spec = if literal {
        let json = match &request.request {
            Some(path) => read_request(path)?,
            None => EXAMPLE.to_owned(),
        };
        RequestSpec::from_json(&json).map_err(|e| Failure::input(crate::failure::chain(&e)))?
    } else {
        let mut spec = RequestSpec::default();
        spec.version = true;
        spec
    };
    let typed = |id: &str| !literal || given(id);
    if typed("url") {
        if let Some(url) = &request.url {
            spec.url.clone_from(url);
        }
    }
    if typed("data") && request.data.is_some() {
        spec.form_body.clone_from(&request.data);
    }
    if typed("body") {
        if let Some(bytes) = request.body_bytes()? {
            spec.body = Some(bytes);
        }
    }
    if typed("content_type") && request.content_type.is_some() {
        spec.content_type.clone_from(&request.content_type);
    }
    spec.method = match (&request.method, literal) {
        (Some(m), false) => m.clone(),
        (Some(m), true) if given("method") => m.clone(),
        (None, false) if request.data.is_some() => "POST".into(),
        (None, false) => "GET".into(),
        _ => spec.method,
    };
    if let Some(signing) = signing {
        signing.fill(&mut spec, literal, given)?;
    }
    if let Some(credentials) = credentials {
        credentials.fill(&mut spec, literal, given)?;
    }
    Ok(spec)
}

/// The request and its signer, as `sign` and `explain` read them: pinned
/// as given from a file, with a fresh nonce and timestamp from the flags
/// unless pinned.
pub(crate) fn signed(
    request: &RequestFlags,
    credentials: &Credentials,
    signing: &SigningFlags,
    given: &dyn Fn(&str) -> bool,
) -> Result<(RequestSpec, Signer), Failure> {
    let spec = spec(request, credentials, Some(signing), given)?;
    let signer = if request.literal() {
        spec.signer()
    } else {
        spec.fresh_signer()
    };
    let signer = signer.map_err(|e| library_error(&e, &spec))?;
    if let Some(bits) = signer.signing_key().rsa_bits().filter(|&bits| bits < 2048) {
        // Signed all the same: the provider decides what it accepts.
        eprintln!(
            "warning: the RSA key has {bits} bits; keys under 2048 bits are too weak to rely on"
        );
    }
    Ok((spec, signer))
}

fn read_request(path: &str) -> Result<String, Failure> {
    let bytes = if path == "-" {
        read_stdin()?
    } else {
        std::fs::read(path)
            .map_err(|e| Failure::input(format!("cannot read --request file {path:?}: {e}")))?
    };
    String::from_utf8(bytes).map_err(|e| {
        Failure::input(format!(
            "the --request JSON is not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The text of `spec` that an error's [`Part`] points into, if the user gave
/// it and it is not empty (an error never points into a secret).
pub fn pointed_text(spec: &RequestSpec, part: Part) -> Option<&str> {
    match part {
        Part::Url => Some(spec.url.as_str()),
        Part::FormBody => spec.form_body.as_deref(),
        Part::Method => Some(spec.method.as_str()),
        Part::Realm => spec.realm.as_deref(),
        _ => None,
    }
    .filter(|t| !t.is_empty())
}

/// A library error, with a caret under the spot when it points into text
/// the user gave (never into a secret: no error points there).
pub(crate) fn library_error(e: &Error, spec: &RequestSpec) -> Failure {
    let caret = e.offset().and_then(|(part, offset)| {
        let text = pointed_text(spec, part)?;
        Some(Caret::new(text.as_bytes(), offset, e.span_len()))
    });
    Failure::Input(e.to_string(), caret)
}
