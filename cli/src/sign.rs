//! `sign`: one request, from flags (and the environment) or from a JSON
//! file, signed and printed as a header, every stage as JSON, a curl command
//! line, or a trace for people.

use clap::{Args, ValueEnum};
use oauth1_signer::{json::RequestSpec, Error, Part, Secret, Signer, Warning};

use crate::caret::Caret;
use crate::flags::{ConsumerFlags, KeyFlags, TokenFlags};
use crate::output::{curl_line, stages_json, stages_text, Shown};
use crate::{emit, read_stdin, Failure};

/// The X developer docs' "Creating a signature" request (vector
/// `x-docs-creating-a-signature`), for `sign --example`.
const EXAMPLE: &str = include_str!("../../examples/x-docs-creating-a-signature.json");

pub(crate) const SIGN_HELP: &str = "\
Without --request or --example, the request is made from the flags: the nonce and the timestamp
are fresh unless pinned, oauth_version=\"1.0\" is sent unless --no-version, and the four
credentials may come from the environment.

With --request FILE (or --example), the JSON is taken literally, as in the test vectors: a field
that is absent is not sent (no \"nonce\": no oauth_nonce; no \"version\": no oauth_version), and
the environment is not read. Flags typed on the command line override the file's fields.

Credentials from the flags: a consumer secret is required (--consumer-secret or
OAUTH_CONSUMER_SECRET) except for RSA; --empty-consumer-secret signs with an empty one on
purpose. An empty token (--token '' or OAUTH_TOKEN=) counts as no token, and a token secret
without a token is refused. Secrets may start with '-' (--token-secret -abc).

Secrets: the signing key is printed only with --show-secrets. A PLAINTEXT signature is the
signing key, so --format json and trace hide it too; header and curl print it, since it is
what is sent.

Examples:
  oauth1 sign --example --format trace
  OAUTH_CONSUMER_KEY=... OAUTH_CONSUMER_SECRET=... oauth1 sign -d 'status=hi' https://api.x.com/1.1/statuses/update.json
  oauth1 sign --request vector.json --format json";

#[derive(Args, Debug)]
pub(crate) struct SignArgs {
    /// The request, its credentials and its protocol parameters
    #[command(flatten)]
    pub(crate) request: RequestFlags,

    /// What to print
    #[arg(long, value_enum, default_value_t = SignFormat::Header)]
    format: SignFormat,

    /// Also print the signing key (and a PLAINTEXT signature) in json and trace output
    #[arg(long)]
    show_secrets: bool,
}

/// The request as `sign` takes it: flags (and the environment), or a JSON
/// file taken literally. `explain` takes it the same way.
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

    /// The client credentials
    #[command(flatten)]
    pub(crate) consumer: ConsumerFlags,

    /// The token credentials
    #[command(flatten)]
    pub(crate) tokens: TokenFlags,

    /// Sign with an empty consumer secret when none is given (otherwise refused)
    #[arg(long)]
    empty_consumer_secret: bool,

    /// HMAC-SHA1 (default), HMAC-SHA256, HMAC-SHA512, PLAINTEXT, RSA-SHA1 or RSA-SHA256
    #[arg(long, value_name = "METHOD")]
    signature_method: Option<String>,

    /// The RSA private key
    #[command(flatten)]
    key: KeyFlags,

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

    /// oauth_verifier (access-token call)
    #[arg(long)]
    verifier: Option<String>,

    /// Do not send oauth_version="1.0"
    #[arg(long)]
    no_version: bool,

    /// Read the request as JSON (the test vectors' "inputs"), taken literally; '-' is stdin
    #[arg(long, value_name = "FILE", conflicts_with = "example")]
    request: Option<String>,

    /// Sign the X docs "Creating a signature" example (no credentials needed)
    #[arg(long)]
    example: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SignFormat {
    /// The Authorization header value only (OAuth ...)
    Header,
    /// Every stage as one JSON object, with the test vectors' field names
    Json,
    /// A ready-to-run curl command line
    Curl,
    /// Every stage, for people: the base string broken at each '&'
    Trace,
}

pub(crate) fn sign(args: &SignArgs, given: &dyn Fn(&str) -> bool) -> Result<(), Failure> {
    let (spec, signer) = build(&args.request, given)?;
    let literal = args.request.literal();
    let request = spec.request();

    let out = match args.format {
        SignFormat::Header => {
            let header = signer
                .authorization_header(&request)
                .map_err(|e| library_error(&e, &spec))?;
            header + "\n"
        }
        SignFormat::Curl => {
            let header = signer
                .authorization_header(&request)
                .map_err(|e| library_error(&e, &spec))?;
            curl_line(&spec, &header)
        }
        SignFormat::Json | SignFormat::Trace => {
            let mut trace = signer
                .trace(&request)
                .map_err(|e| library_error(&e, &spec))?;
            // The embedded example is pinned to its published timestamp on
            // purpose: a clock warning is for a timestamp the user pinned.
            if args.request.example && !given("timestamp") {
                trace
                    .warnings
                    .retain(|w| !matches!(w, Warning::TimestampSkew { .. }));
            }
            let shown = Shown::new(&trace, args.show_secrets);
            if args.format == SignFormat::Json {
                stages_json(&trace, &shown)?
            } else {
                stages_text(&spec, &trace, &shown)
            }
        }
    };
    // The request is checked first (errors there point into it), then the credentials.
    if !literal {
        check_credentials(&args.request, signer.method().is_rsa())?;
    }
    emit(out.as_bytes())
}

/// The request and its signer, from the flags or a `--request` file, as
/// `sign` reads them (`explain` reads them the same way).
pub(crate) fn build(
    args: &RequestFlags,
    given: &dyn Fn(&str) -> bool,
) -> Result<(RequestSpec, Signer), Failure> {
    let spec = spec(args, given)?;
    let signer = if args.literal() {
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

/// The request from the flags or a `--request` file (or `--example`), as
/// `sign` reads it; `verify` reads it the same way.
pub(crate) fn spec(
    args: &RequestFlags,
    given: &dyn Fn(&str) -> bool,
) -> Result<RequestSpec, Failure> {
    if !args.literal() {
        return spec_from_flags(args);
    }
    let json = match &args.request {
        Some(path) => read_request(path)?,
        None => EXAMPLE.to_owned(),
    };
    let mut spec = RequestSpec::from_json(&json).map_err(|e| Failure::input(e.to_string()))?;
    override_from_flags(&mut spec, args, given)?;
    Ok(spec)
}

impl RequestFlags {
    /// Whether the request is a JSON file (or the example) taken literally.
    pub(crate) fn literal(&self) -> bool {
        self.request.is_some() || self.example
    }
}

/// Refuses credentials that would sign with a key no server holds: no
/// consumer secret (the key would be "&"), unless asked for; a token secret
/// with no token.
pub(crate) fn check_credentials(args: &RequestFlags, rsa: bool) -> Result<(), Failure> {
    let given = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    if given(&args.tokens.token_secret) && !given(&args.tokens.token) {
        return Err(Failure::input(
            "--token-secret is set but no token: set --token / OAUTH_TOKEN, or drop the token secret",
        ));
    }
    if !rsa && !given(&args.consumer.consumer_secret) && !args.empty_consumer_secret {
        return Err(Failure::input(
            "no consumer secret: pass --consumer-secret SECRET or set OAUTH_CONSUMER_SECRET \
             (--empty-consumer-secret signs with an empty one)",
        ));
    }
    Ok(())
}

/// The request made from the flags alone (and the environment).
fn spec_from_flags(args: &RequestFlags) -> Result<RequestSpec, Failure> {
    let consumer_key = args
        .consumer
        .consumer_key
        .clone()
        .filter(|k| !k.is_empty())
        .ok_or_else(|| {
            Failure::input("no consumer key: pass --consumer-key KEY or set OAUTH_CONSUMER_KEY")
        })?;
    let mut spec = RequestSpec::default();
    spec.method = match (&args.method, &args.data) {
        (Some(m), _) => m.clone(),
        (None, Some(_)) => "POST".into(),
        (None, None) => "GET".into(),
    };
    spec.url = args.url.clone().unwrap_or_default();
    spec.form_body = args.data.clone();
    spec.consumer_key = consumer_key;
    spec.consumer_secret = args.consumer.consumer_secret.clone().map(Secret::new);
    spec.token = args.tokens.token.clone().filter(|t| !t.is_empty());
    spec.token_secret = args.tokens.token_secret.clone().map(Secret::new);
    spec.signature_method = args.signature_method.clone();
    spec.nonce = args.nonce.clone();
    spec.timestamp = args.timestamp.clone();
    spec.version = !args.no_version;
    spec.realm = args.realm.clone();
    spec.callback = args.callback.clone();
    spec.verifier = args.verifier.clone();
    spec.rsa_private_key = args.key.read()?;
    Ok(spec)
}

/// Flags typed on the command line replace the request file's fields; the
/// environment does not (the file is taken literally).
fn override_from_flags(
    spec: &mut RequestSpec,
    args: &RequestFlags,
    given: &dyn Fn(&str) -> bool,
) -> Result<(), Failure> {
    fn set(field: &mut Option<String>, value: &Option<String>, given: bool) {
        if given {
            field.clone_from(value);
        }
    }
    if let (Some(url), true) = (&args.url, given("url")) {
        spec.url.clone_from(url);
    }
    if let (Some(method), true) = (&args.method, given("method")) {
        spec.method.clone_from(method);
    }
    if let (Some(key), true) = (&args.consumer.consumer_key, given("consumer_key")) {
        spec.consumer_key.clone_from(key);
    }
    set(&mut spec.form_body, &args.data, given("data"));
    if given("consumer_secret") {
        spec.consumer_secret = args.consumer.consumer_secret.clone().map(Secret::new);
    }
    set(&mut spec.token, &args.tokens.token, given("token"));
    if given("token_secret") {
        spec.token_secret = args.tokens.token_secret.clone().map(Secret::new);
    }
    set(
        &mut spec.signature_method,
        &args.signature_method,
        given("signature_method"),
    );
    set(&mut spec.nonce, &args.nonce, given("nonce"));
    set(&mut spec.timestamp, &args.timestamp, given("timestamp"));
    set(&mut spec.realm, &args.realm, given("realm"));
    set(&mut spec.callback, &args.callback, given("callback"));
    set(&mut spec.verifier, &args.verifier, given("verifier"));
    if args.no_version {
        spec.version = false;
    }
    if let Some(key) = args.key.read()? {
        spec.rsa_private_key = Some(key);
    }
    Ok(())
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
