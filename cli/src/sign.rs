//! `sign`: one request, from flags (and the environment) or from a JSON
//! file, signed and printed as a header, every stage as JSON, a curl command
//! line, or a trace for people.

use clap::{Args, ValueEnum};
use oauth1_signer::outgoing::Lint;
use oauth1_signer::provider::echo::EchoHeaders;
use oauth1_signer::{RequestSpec, Secret, Transmission, Warning};

use crate::flags::Credentials;
use crate::output::{sent_text, stages_json, stages_text, Shown, HIDDEN};
use crate::spec::{library_error, signed, RequestFlags, SigningFlags};
use crate::{emit, Failure};

pub(crate) const SIGN_HELP: &str = "\
Without --request or --example, the request is made from the flags: the nonce and the timestamp
are fresh unless pinned, oauth_version=\"1.0\" is sent unless --no-version, and the four
credentials may come from the environment.

With --request FILE (or --example), the JSON is taken literally, as in the test vectors: a field
that is absent is not sent (no \"nonce\": no oauth_nonce; no \"version\": no oauth_version), and
the environment is not read. Flags typed on the command line override the file's fields.

Credentials, as for every subcommand: --profile NAME, else the flags and the environment
(OAUTH_CONSUMER_KEY, OAUTH_CONSUMER_SECRET, OAUTH_TOKEN, OAUTH_TOKEN_SECRET), else the default
profile. From the flags, a consumer secret is required except for RSA; --empty-consumer-secret
signs with an empty one on purpose. An empty token (--token '' or OAUTH_TOKEN=) counts as no
token, and a token secret without a token is refused. Secrets may start with '-'
(--token-secret -abc). A pinned --nonce or --timestamp follows the rule `oauth1 verify` (and the
library's verifier) checks: a nonce of 1 to 64 letters, digits and -._~+/=, a timestamp that is
a positive integer.

Secrets: the signing key is printed only with --show-secrets. A PLAINTEXT signature is the
signing key, so --format json and trace hide it too; header and curl print it, since it is
what is sent.

--base-string TEXT|@FILE signs that exact base string and prints its signature (base64, not
percent-encoded), nothing else: to check a base string a provider echoed, or a peer's test
vector. Only the secrets and the method are used: --consumer-secret and --token-secret (or
OAUTH_CONSUMER_SECRET and OAUTH_TOKEN_SECRET; no key or token is needed, the base string holds
them), --private-key for RSA, else --profile NAME or the default profile; --signature-method
(default HMAC-SHA1). @FILE reads the file (@- standard input) and drops one final line ending,
which no base string holds; every other byte is signed as it is. A PLAINTEXT signature is the
signing key: it is printed only with --show-secrets (else a placeholder saying so).

Examples:
  oauth1 sign --example --format trace
  OAUTH_CONSUMER_KEY=... OAUTH_CONSUMER_SECRET=... oauth1 sign -d 'status=hi' https://api.x.com/1.1/statuses/update.json
  oauth1 sign --request vector.json --format json
  oauth1 sign --profile you --format echo https://api.x.com/1.1/account/verify_credentials.json
  oauth1 sign --base-string @base.txt --consumer-secret CS --token-secret TS";

#[derive(Args, Debug)]
pub(crate) struct SignArgs {
    /// The request
    #[command(flatten)]
    pub(crate) request: RequestFlags,

    /// Its credentials
    #[command(flatten)]
    pub(crate) credentials: Credentials,

    /// Its protocol parameters, the provider, where they are sent, and the body hash
    #[command(flatten)]
    pub(crate) signing: SigningFlags,

    /// What to print
    #[arg(long, value_enum, default_value_t = SignFormat::Header)]
    format: SignFormat,

    /// Also print the signing key (and a PLAINTEXT signature) in json and trace output, and
    /// a PLAINTEXT signature with --base-string
    #[arg(long)]
    show_secrets: bool,

    /// Sign this exact base string (TEXT, or @FILE, @- for stdin) with the secrets and
    /// --signature-method, and print only its signature
    #[arg(
        long,
        value_name = "TEXT|@FILE",
        conflicts_with_all = [
            "url", "method", "data", "body", "content_type", "request", "example", "nonce",
            "timestamp", "realm", "callback", "oauth_verifier", "no_version", "provider",
            "transmission", "format",
        ]
    )]
    base_string: Option<String>,
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
    /// The two headers of an OAuth Echo of GET URL (X's
    /// https://api.x.com/1.1/account/verify_credentials.json), for a delegator to forward
    Echo,
}

pub(crate) fn sign(args: &SignArgs, given: &dyn Fn(&str) -> bool) -> Result<(), Failure> {
    if let Some(base_string) = &args.base_string {
        return sign_base_string(args, base_string);
    }
    let (spec, signer) = signed(&args.request, &args.credentials, &args.signing, given)?;
    // oauth_body_hash, if the spec says so, among the protocol parameters.
    let params = spec
        .protocol_params()
        .map_err(|e| library_error(&e, &spec))?;
    let request = spec.request(&params);
    let out = match args.format {
        SignFormat::Echo => {
            let plain_get = spec.method.eq_ignore_ascii_case("GET")
                && spec.form_body.is_none()
                && spec.body.is_none()
                && params.is_empty()
                && spec.transmission() == Transmission::Header;
            if !plain_get {
                return Err(Failure::input(
                    "--format echo signs a GET of the provider's identity URL, its parameters in \
                     the header, with no body or body hash (X's: \
                     https://api.x.com/1.1/account/verify_credentials.json)",
                ));
            }
            let echo =
                EchoHeaders::sign(&signer, &spec.url).map_err(|e| library_error(&e, &spec))?;
            echo.headers()
                .iter()
                .map(|(name, value)| format!("{name}: {value}\n"))
                .collect()
        }
        SignFormat::Header | SignFormat::Curl => {
            let signed = signer
                .sign(&request)
                .map_err(|e| library_error(&e, &spec))?;
            let sent = spec.sent(&signed).map_err(|e| library_error(&e, &spec))?;
            match (args.format, spec.transmission()) {
                (SignFormat::Curl, _) => {
                    let command = sent
                        .curl(&spec.method)
                        .map_err(|e| library_error(&e, &spec))?;
                    format!("{command}\n")
                }
                (_, Transmission::Query) => sent.url + "\n",
                (_, Transmission::FormBody) => {
                    String::from_utf8_lossy(&sent.body.unwrap_or_default()).into_owned() + "\n"
                }
                _ => sent.authorization.unwrap_or_default() + "\n",
            }
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
            let sent = spec
                .sent_shown(&trace.signed, shown.mask())
                .map_err(|e| library_error(&e, &spec))?;
            if args.format == SignFormat::Json {
                stages_json(&trace, &shown, Some(&sent))?
            } else {
                stages_text(&spec, &trace, &shown) + &sent_text(&sent, spec.transmission())
            }
        }
    };
    // The request is checked first (errors there point into it), then the credentials.
    let rsa = signer.method().is_rsa();
    args.credentials.check(args.request.literal(), rsa)?;
    // What is likely a slip, though it signs: the library's lints, which the
    // page shows too; said for a request that signs, not beside an error,
    // and an empty consumer secret not when it was asked for.
    let asked =
        |lint: &Lint| *lint == Lint::EmptyConsumerSecret && args.credentials.empty_consumer_secret;
    for lint in spec.lints().iter().filter(|l| !asked(l)) {
        eprintln!("warning: {lint}");
    }
    emit(out.as_bytes())
}

/// `--base-string`: the signature of exactly those bytes, by the key the
/// secrets (or the RSA key) and the method make, as the signer makes it
/// (`SigningKey::sign_bytes`).
fn sign_base_string(args: &SignArgs, text: &str) -> Result<(), Failure> {
    let base_string = base_string_bytes(text)?;
    let mut spec = RequestSpec::default();
    args.signing.method.fill(&mut spec, false, &|_| false)?;
    let rsa = spec.rsa_private_key.is_some() || spec.method().is_ok_and(|m| m.is_rsa());
    let credentials = &args.credentials;
    let from_flags = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
    let secrets_given = from_flags(&credentials.consumer.consumer_secret)
        || from_flags(&credentials.tokens.token_secret)
        || credentials.empty_consumer_secret;
    if credentials.profile.is_none() && (secrets_given || rsa) {
        // The secrets alone: the base string holds the key and the token.
        if !rsa
            && !from_flags(&credentials.consumer.consumer_secret)
            && !credentials.empty_consumer_secret
        {
            return Err(Failure::input(
                "no consumer secret: pass --consumer-secret SECRET or set OAUTH_CONSUMER_SECRET \
                 (--empty-consumer-secret signs with an empty one)",
            ));
        }
        spec.consumer_secret = credentials
            .consumer
            .consumer_secret
            .clone()
            .map(Secret::new);
        spec.token_secret = credentials.tokens.token_secret.clone().map(Secret::new);
    } else {
        // --profile NAME, or the default profile.
        credentials
            .fill(&mut spec, false, &|_| false)
            .map_err(|e| match e {
                Failure::Input(message, caret) if credentials.profile.is_none() => Failure::Input(
                    format!(
                        "--base-string needs the secrets: pass --consumer-secret SECRET (and \
                         --token-secret SECRET), or --profile NAME ({message})"
                    ),
                    caret,
                ),
                other => other,
            })?;
    }
    let signer = spec
        .signer()
        .map_err(|e| Failure::input(format!("cannot sign the base string: {e}")))?;
    let signature = signer
        .signing_key()
        .sign_bytes(&base_string)
        .map_err(|e| Failure::input(format!("cannot sign the base string: {e}")))?;
    // The one rule `sign` hides a PLAINTEXT signature by: it is the key.
    let shown = if signature.is_secret() && !args.show_secrets {
        HIDDEN
    } else {
        signature.as_str()
    };
    crate::emit(format!("{shown}\n").as_bytes())
}

/// The bytes of `--base-string`: the text as given, or a file's (`@-`:
/// standard input) without one final line ending (a base string holds no
/// line break: every part of it is percent-encoded).
fn base_string_bytes(text: &str) -> Result<Vec<u8>, Failure> {
    let Some(path) = text.strip_prefix('@') else {
        return Ok(text.as_bytes().to_vec());
    };
    let mut bytes = if path == "-" {
        crate::read_stdin()?
    } else {
        std::fs::read(path)
            .map_err(|e| Failure::input(format!("cannot read --base-string file {path:?}: {e}")))?
    };
    if bytes.ends_with(b"\n") {
        bytes.pop();
        if bytes.ends_with(b"\r") {
            bytes.pop();
        }
    }
    Ok(bytes)
}
