//! `sign`: one request, from flags (and the environment) or from a JSON
//! file, signed and printed as a header, every stage as JSON, a curl command
//! line, or a trace for people.

use clap::{Args, ValueEnum};
use oauth1_signer::provider::echo::EchoHeaders;
use oauth1_signer::{Transmission, Warning};

use crate::flags::Credentials;
use crate::output::{curl_sent, sent_text, stages_json, stages_text, Shown};
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

Examples:
  oauth1 sign --example --format trace
  OAUTH_CONSUMER_KEY=... OAUTH_CONSUMER_SECRET=... oauth1 sign -d 'status=hi' https://api.x.com/1.1/statuses/update.json
  oauth1 sign --request vector.json --format json
  oauth1 sign --profile you --format echo https://api.x.com/1.1/account/verify_credentials.json";

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

    /// Also print the signing key (and a PLAINTEXT signature) in json and trace output
    #[arg(long)]
    show_secrets: bool,
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
                (SignFormat::Curl, _) => curl_sent(&spec.method, &sent),
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
            let sent = spec
                .sent(&trace.signed)
                .map_err(|e| library_error(&e, &spec))?;
            let shown = Shown::new(&trace, args.show_secrets);
            if args.format == SignFormat::Json {
                stages_json(&trace, &shown, Some(&sent))?
            } else {
                stages_text(&spec, &trace, &shown)
                    + &sent_text(&sent.url, sent.body.as_deref(), &shown, spec.transmission())
            }
        }
    };
    // The request is checked first (errors there point into it), then the credentials.
    let rsa = signer.method().is_rsa();
    args.credentials.check(args.request.literal(), rsa)?;
    emit(out.as_bytes())
}
