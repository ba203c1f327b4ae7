//! `verify`: check one received request's `Authorization` header with the
//! library's verifier, the request given as to `sign` (flags, environment,
//! or `--request FILE`). Exit 0 valid, 1 rejected (with the reason and, for
//! a bad signature, the explainer's diagnosis), 2 malformed input.

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use oauth1_signer::capture::Carried;
use oauth1_signer::verify::{MemoryNonceStore, Reason, Received};
use oauth1_signer::{Part, Provider};
use serde_json::ser::CompactFormatter;

use crate::capture::{answer_json, answer_text, clock, fill_spec, timestamp_of, CaptureFlags};
use crate::caret::{printable, Caret};
use crate::flags::Credentials;
use crate::json::terminal_json;
use crate::spec::{library_error, spec, BodyHashFlags, RequestFlags};
use crate::verdict::{verdict_json, Audience, Checker, Diagnosis, Seen, Verdict};
use crate::{emit, Failure};

pub(crate) const VERIFY_HELP: &str = "\
The request as the client sent it: --curl (a curl command), --har (a HAR file's entry that
carries OAuth 1.0a, or --entry N; checked as of its response's Date unless --now) or --http (a
raw HTTP/1.1 request; --scheme https by default), each TEXT, @FILE or - for stdin. A HAR
entry's response is read too (X's error codes, oauth_problem).

Or the request is given as to `oauth1 sign`: URL, -X and -d, or --request FILE|- (a test vector's
inputs, whose consumer_secret and token_secret are used; the flags, or the environment when the
file has none, fill them in). The credentials the server holds, as for every subcommand:
--profile NAME, else the flags and the environment (OAUTH_CONSUMER_KEY, OAUTH_CONSUMER_SECRET,
OAUTH_TOKEN, OAUTH_TOKEN_SECRET), else the default profile. The protocol parameters come from
--header, or without it from the URL's query or the form body (-d), as received, so verify
takes none of sign's flags that set one (--nonce, --timestamp, ...). Every signature method is
accepted, as the request names it; RSA needs --public-key. Nonces and timestamps are checked by
the rule `oauth1 sign` applies to its --nonce and --timestamp. --provider (or the file's
\"provider\") sets the body-hash rule and the parameter string that provider's clients sign
(Mastercard's official signers write their own: see docs/providers.md).

--now checks the timestamp window (5 minutes each way) as of that instant, so that a recorded
request verifies at its own time. The nonce is checked against this run only.

Exit status: 0 valid, 1 rejected (the reason on stdout, with the explainer's diagnosis of a bad
signature), 2 malformed input (a header that does not parse, at its byte offset) or usage.

Examples:
  oauth1 verify --consumer-key ck --consumer-secret cs --now 1318622958 --curl @copied.txt
  oauth1 verify --consumer-key ck --consumer-secret cs --har @session.har --entry 3
  oauth1 verify --example --now 1318622958 --header \"$(oauth1 sign --example)\"
  oauth1 verify --request vector.json --now 137131201 --header 'OAuth realm=\"Photos\", ...' --format json
  oauth1 verify URL -X POST --body @payload.json --content-type application/json \\
      --provider mastercard --public-key mc.pem --header \"$HEADER\"";

#[derive(Args, Debug)]
pub(crate) struct VerifyArgs {
    /// The Authorization header received (OAuth ...); without it, the protocol parameters are
    /// read from the URL's query or the form body (RFC 5849 §3.5.2-3)
    #[arg(
        long,
        value_name = "HEADER",
        allow_hyphen_values = true,
        conflicts_with_all = ["curl", "har", "http"]
    )]
    header: Option<String>,

    /// The request as the client sent it
    #[command(flatten)]
    capture: CaptureFlags,

    /// The request received
    #[command(flatten)]
    request: RequestFlags,

    /// The credentials the server holds
    #[command(flatten)]
    credentials: Credentials,

    /// A provider whose clients sent the request (x, netsuite, woocommerce, mastercard, lti,
    /// ...): its body-hash rule and its clients' parameter style (Mastercard's), unless given
    #[arg(long, value_name = "NAME")]
    provider: Option<Provider>,

    /// Whether the request must carry oauth_body_hash, and its hash
    #[command(flatten)]
    body_hash: BodyHashFlags,

    /// Check the timestamp as of this instant (seconds since 1970) instead of now
    #[arg(long, value_name = "UNIX_SECONDS")]
    now: Option<u64>,

    /// The consumer's RSA public key or certificate (PEM), for RSA-SHA1 and RSA-SHA256
    #[arg(long, value_name = "FILE")]
    public_key: Option<PathBuf>,

    /// What to print
    #[arg(long, value_enum, default_value_t = VerifyFormat::Text)]
    format: VerifyFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum VerifyFormat {
    /// `valid`, or `invalid: REASON` and the diagnosis
    Text,
    /// {"valid": bool, "reason": ..., "problem": ..., "diagnosis": [...]}
    Json,
}

pub(crate) fn verify(args: &VerifyArgs, given: &dyn Fn(&str) -> bool) -> Result<(), Failure> {
    let read = args.capture.read()?;
    // How the capture was read, said first: an error further on may come of it.
    if let Some(r) = &read {
        let said: String = r.notes.iter().map(|n| format!("note: {n}\n")).collect();
        let _ = std::io::Write::write_all(&mut std::io::stderr(), said.as_bytes());
    }
    let mut notes = String::new();
    let mut spec = spec(&args.request, &args.credentials, None, given)?;
    let mut header = args.header.clone();
    let mut protocol = None;
    if let Some(r) = &read {
        // Where the protocol parameters are: the verifier finds them itself,
        // and refuses what it cannot read, at its offset.
        protocol = fill_spec(&mut spec, &r.captured)?.map(Carried::into_protocol);
        spec.transmission = None;
        if let Some(h) = r.captured.oauth_header() {
            header = Some(h.to_owned());
        }
    }
    // A recorded request is checked as of its answer's Date, unless --now.
    let response = read.as_ref().and_then(|r| r.captured.response());
    let now = match (args.now, response.and_then(|r| r.header("date"))) {
        (Some(now), _) => Some(now),
        (None, Some(date)) => match oauth1_signer::capture::parse_http_date(date) {
            Ok(at) => {
                notes.push_str(&format!(
                    "note: checked as of the recorded answer's Date ({}), as --now {at}\n",
                    printable(date.as_bytes())
                ));
                Some(at)
            }
            Err(_) => None,
        },
        (None, None) => None,
    };
    spec.provider = args.provider.or(spec.provider);
    args.body_hash.fill(&mut spec);
    args.credentials
        .check(args.request.literal(), args.public_key.is_some())?;
    if args.request.literal() && args.credentials.profile.is_none() {
        // A test vector's file may leave the secrets out: the flags, or
        // the environment, fill them in (the server's, not the request's).
        let (consumer, tokens) = (&args.credentials.consumer, &args.credentials.tokens);
        if spec.consumer_secret.is_none() {
            spec.consumer_secret = consumer.consumer_secret.clone().map(Into::into);
        }
        if spec.token_secret.is_none() {
            spec.token_secret = tokens.token_secret.clone().map(Into::into);
        }
    }
    let public_key = crate::flags::public_key(args.public_key.as_deref())?;
    // One check: a store for one nonce; nonces and timestamps by the
    // library's rule, which `sign` applies too.
    let store = Arc::new(MemoryNonceStore::with_capacity(1));
    let checker = Checker::new(
        spec.clone(),
        store,
        None,
        // Every method: a checking tool takes the one the header names.
        &oauth1_signer::SignatureMethod::ALL,
        public_key.as_deref(),
        spec.body_hash_rule(),
        None,
    )?;
    let mut received = Received::new(&spec.method, spec.url.as_str());
    if let Some(header) = &header {
        received = received.authorization_header(header);
    }
    let media = spec
        .content_type
        .as_deref()
        .unwrap_or("application/octet-stream");
    let received = match (&spec.form_body, &spec.body) {
        (Some(body), _) => received.form_body(body.as_bytes()),
        (None, Some(bytes)) => received.body(Some(media), bytes),
        (None, None) => received,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the verifier: {e}")))?;
    let verdict = match runtime.block_on(checker.check(&received, now)) {
        Ok(verified) => Verdict::Valid(verified),
        Err(rejection) => {
            if let Reason::Malformed(e) = rejection.reason() {
                return Err(match e.offset() {
                    Some((Part::Header, at)) => Failure::Input(
                        match args.header.is_some() {
                            true => format!("--header: {e}"),
                            false => format!("the captured Authorization header: {e}"),
                        },
                        header
                            .as_ref()
                            .map(|h| Caret::new(h.as_bytes(), at, e.span_len())),
                    ),
                    _ => library_error(e, &spec),
                });
            }
            let diagnosis = match Seen::of(&received, &rejection) {
                Some(seen) if Checker::diagnosable(&rejection) => {
                    Diagnosis::from(checker.diagnose(&seen, Audience::Owner, None))
                }
                _ => Diagnosis::default(),
            };
            Verdict::Rejected(rejection, diagnosis)
        }
    };
    let answer = response.map(|r| {
        let answer = r.answer();
        let clock = clock(&answer, timestamp_of(protocol.as_ref()), r.header("date"));
        (answer, clock)
    });
    let answer = answer.filter(|(a, _)| !a.is_empty());
    let out = match args.format {
        VerifyFormat::Json => {
            // As a map, for the keys `verify` adds (sorted with the rest).
            let mut json = serde_json::to_value(verdict_json(&verdict, Audience::Owner))
                .map_err(|e| Failure::Io(e.to_string()))?;
            if let Some(map) = json.as_object_mut() {
                map.entry("reason").or_insert(serde_json::Value::Null);
                if let Some((a, c)) = &answer {
                    map.insert("answer".into(), answer_json(a, *c));
                }
            }
            terminal_json(&json, CompactFormatter).map_err(|e| Failure::Io(e.to_string()))?
        }
        VerifyFormat::Text => match &verdict {
            Verdict::Valid(_) => "valid\n".to_owned(),
            Verdict::Rejected(rejection, diagnosis) => {
                let hint = match rejection.reason() {
                    Reason::PublicKeyMissing { .. } => " (give the consumer's --public-key)",
                    _ => "",
                };
                let mut out = format!(
                    "invalid: {}{hint}\n",
                    printable(rejection.reason().to_string().as_bytes())
                );
                if let Some(why) = diagnosis.skipped {
                    out.push_str(&format!("  ({why})\n"));
                }
                for f in &diagnosis.findings {
                    out.push_str(&format!(
                        "  {} ({}): {}\n",
                        f.cause.as_str(),
                        printable(f.component.to_string().as_bytes()),
                        printable(f.detail.as_bytes())
                    ));
                }
                out
            }
        },
    };
    let mut out = out;
    if let (VerifyFormat::Text, Some((a, c))) = (args.format, &answer) {
        out.push_str(&answer_text(a, *c));
    }
    // Whatever was sent in place of a signature may spell the secrets.
    let out = crate::output::without_secrets(out, &spec, false);
    let notes = crate::output::without_secrets(notes, &spec, false);
    let _ = std::io::Write::write_all(&mut std::io::stderr(), notes.as_bytes());
    emit(out.as_bytes())?;
    match verdict {
        Verdict::Valid(_) => Ok(()),
        Verdict::Rejected(..) => Err(Failure::Status),
    }
}
