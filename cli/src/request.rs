//! `request`: sign one request and send it, like X's `twurl`.
//!
//! The URL is read as a user types it into curl (`reqwest::Url` escapes a
//! space or non-ASCII text); a path alone (`/2/users/me`) goes to
//! `https://api.x.com`. It is signed exactly as it is then sent, through the
//! library's reqwest edge; each redirect to the same origin is signed afresh
//! (`oauth1_signer::client::Redirects`), one to another origin is not followed.
//! Exit codes: 0 for a 2xx answer, 1 for any other (the body is still
//! printed: X's error JSON is what the user needs) and for a redirect not
//! followed, 2 for bad input or a request that could not be sent.

use std::io::Write as _;
use std::time::Duration;

use clap::Args;
use oauth1_signer::{
    capture::read_answer,
    client::HttpOptions,
    client::{trace_reqwest_request, Redirects},
    flow::FlowError,
    pipeline::is_form_urlencoded,
    Name, Protocol, RequestSpec, Signer,
};

use crate::flags::{credentials_spec, Credentials, MethodFlags};
use crate::multipart::multipart;
use crate::output::{sent_text, stages_text, Shown};
use crate::response::{head, Output};
use crate::spec::SendFlags;
use crate::Failure;

pub(crate) const REQUEST_HELP: &str = "\
Credentials: --profile NAME (saved by `oauth1 authorize`), else the flags and the environment
(OAUTH_CONSUMER_KEY, OAUTH_CONSUMER_SECRET, OAUTH_TOKEN, OAUTH_TOKEN_SECRET), else the default
profile. RSA-SHA1 and RSA-SHA256 sign with --private-key FILE (PEM, as `sign` takes it) and
need no consumer secret.

The query is always signed; a -d body (application/x-www-form-urlencoded) is signed; a --json
body is not (as the X API v2 expects). A 401 or 403 answer is read, and what it means is said
on stderr: X's error codes (32 the signature, 89 the token, 135 the timestamp, with how many
seconds the clock is off by the answer's Date, 215 the header, 415 the callback, 416 the app),
its v2 problem objects, and OAuth Problem Reporting's oauth_problem. Exit status: 0 for a 2xx answer, 1 for any other (the
body is printed all the same) and for a redirect not followed, 2 for bad input or a network
error.

--fix-clock: a clock that is off is the one cause a client can mend by itself. When the answer
refuses the timestamp (X's error code 135, or oauth_problem=timestamp_refused) and carries a
Date header, the request is signed again, once, with a fresh nonce and the timestamp moved by
the offset that Date gives, and sent again; stderr says the offset and the answer it came from.
No other refusal is sent again, nor a refusal without a Date or over 64 KiB. -i shows both
answers; the body printed and the exit status are the second's.

Redirects (301, 302, 303, 307, 308) to the same origin are followed, up to 10, each signed
afresh for its own URL (301 and 302 turn a POST into a GET without a body, 303 any method;
307 and 308 keep both); -i shows every hop. A redirect to another origin (scheme, host or
port) is not followed: the command stops, names the Location, and exits 1.

-F sends a multipart/form-data body (curl's -F: name=value, or name=@file for a file's
content); its fields are never signed, only the query is (RFC 5849 §3.4.1.3.1), as X's media
upload APPEND expects.

-H may not set the headers the signer or the client owns: Host (the URL's, which is signed),
Content-Length, Transfer-Encoding, Authorization; nor Content-Type with --json or -F, or with
-d unless it is application/x-www-form-urlencoded (then it replaces the default, to add a
charset, say).

The body is written as it arrives. Into a pipe or a file it is written byte for byte; on a
terminal, control characters other than newline and tab are escaped.

Examples:
  oauth1 request /2/users/me
  oauth1 request -X POST --json '{\"text\":\"hello\"}' https://api.x.com/2/tweets
  oauth1 request -d 'status=hello%20world' https://api.x.com/1.1/statuses/update.json
  oauth1 request -i --trace 'https://api.x.com/2/tweets?ids=1460323737035677698'
  oauth1 request -F segment_index=0 -F media=@chunk0 https://api.x.com/2/media/upload/ID/append
  oauth1 request --signature-method RSA-SHA256 --private-key key.pem --consumer-key KEY \\
    --token TOKEN https://api.example.com/1/me";

#[derive(Args, Debug)]
pub(crate) struct RequestArgs {
    // Not a doc comment: rustdoc would want the URL as a link, clap prints it.
    #[arg(help = "The URL (a path alone goes to https://api.x.com); its query is signed")]
    url: String,

    /// HTTP method [default: GET, or POST with a body]
    #[arg(short = 'X', long)]
    method: Option<String>,

    /// application/x-www-form-urlencoded body, signed; repeat to join with '&'
    #[arg(short = 'd', long, value_name = "FORM", conflicts_with = "json")]
    data: Vec<String>,

    /// A JSON body, sent as application/json and not signed
    #[arg(long, value_name = "BODY")]
    json: Option<String>,

    /// A multipart/form-data field, 'name=value' or 'name=@file' (repeatable); not signed
    #[arg(short = 'F', long = "form", value_name = "FIELD", conflicts_with_all = ["data", "json"])]
    form: Vec<String>,

    /// An extra header, 'Name: value' (repeatable)
    #[arg(short = 'H', long = "header", value_name = "HEADER")]
    headers: Vec<String>,

    /// Print the status line and the response headers too (of every redirect hop)
    #[arg(short = 'i', long)]
    include: bool,

    /// Print every signing stage (no secrets) to stderr before sending
    #[arg(long)]
    trace: bool,

    /// Give up after this many seconds
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    timeout: u64,

    /// When the provider refuses the timestamp (X's 135, timestamp_refused), sign again once
    /// with the clock set by the answer's Date
    #[arg(long)]
    fix_clock: bool,

    #[command(flatten)]
    credentials: Credentials,

    #[command(flatten)]
    signature: MethodFlags,

    #[command(flatten)]
    send: SendFlags,
}

/// The base for a URL given as a path, as twurl does.
const X_API: &str = "https://api.x.com";

pub(crate) fn request(args: &RequestArgs, given: &dyn Fn(&str) -> bool) -> Result<(), Failure> {
    let url = if args.url.starts_with('/') {
        format!("{X_API}{}", args.url)
    } else {
        args.url.clone()
    };
    // The credentials, the method, and the provider's defaults (its realm
    // is the URL's).
    let mut spec = credentials_spec(&args.credentials, &args.signature, false)?;
    args.send.fill(&mut spec, false, given);
    spec.url.clone_from(&url);
    let signer = spec
        .fresh_signer()
        .map_err(|e| Failure::input(e.to_string()))?;
    let options = HttpOptions::new()
        .with_transmission(spec.transmission())
        .with_body_hash(spec.body_hash_rule());
    let url = reqwest::Url::parse(&url)
        // Not quoted back: the user has it, and it may be 64 KiB long.
        .map_err(|e| Failure::input(format!("the URL given is not a URL: {e}")))?;
    let body = body(args)?;
    let method = match (&args.method, &body) {
        (Some(m), _) => m.to_ascii_uppercase(),
        (None, Some(_)) => "POST".into(),
        (None, None) => "GET".into(),
    };
    let method = reqwest::Method::from_bytes(method.as_bytes())
        .map_err(|_| Failure::input(format!("not an HTTP method: {method:?}")))?;

    let mut request = reqwest::Request::new(method, url);
    let headers = request.headers_mut();
    let kind = body.as_ref().map(|(kind, _, _)| *kind);
    if let Some((_, content_type, _)) = &body {
        let value = reqwest::header::HeaderValue::from_str(content_type)
            .map_err(|_| Failure::input(format!("not a Content-Type: {content_type:?}")))?;
        headers.insert(reqwest::header::CONTENT_TYPE, value);
    }
    for header in &args.headers {
        let (name, value) = parse_header(header, kind)?;
        headers.insert(name, value);
    }
    if let Some((_, _, bytes)) = body {
        *request.body_mut() = Some(bytes.into());
    }

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the HTTP client: {e}")))?;
    runtime.block_on(send(signer, request, options, args))
}

/// What kind of body the command sends, and so who owns its Content-Type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BodyKind {
    /// `-d`: form-encoded, its parameters signed.
    Form,
    /// `--json`: not signed.
    Json,
    /// `-F`: multipart, not signed.
    Multipart,
}

/// The body of `-d`, `--json` or `-F` (clap allows one of them), its
/// Content-Type and its bytes.
fn body(args: &RequestArgs) -> Result<Option<(BodyKind, String, Vec<u8>)>, Failure> {
    if !args.data.is_empty() {
        let form = args.data.join("&").into_bytes();
        let ct = "application/x-www-form-urlencoded".to_owned();
        return Ok(Some((BodyKind::Form, ct, form)));
    }
    if let Some(json) = &args.json {
        let ct = "application/json".to_owned();
        return Ok(Some((BodyKind::Json, ct, json.clone().into_bytes())));
    }
    if !args.form.is_empty() {
        let m = multipart(&args.form)?;
        return Ok(Some((BodyKind::Multipart, m.content_type, m.body)));
    }
    Ok(None)
}

/// Signs `request` (each hop afresh) and, with `--trace`, prints its stages.
fn sign(
    signer: &Signer,
    request: &mut reqwest::Request,
    options: HttpOptions,
    trace: bool,
) -> Result<(), Failure> {
    // The request as given, before the protocol parameters join it.
    let mut spec = RequestSpec::default();
    if trace {
        spec.method = request.method().to_string();
        spec.url = request.url().to_string();
        spec.form_body = request
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .filter(|ct| is_form_urlencoded(ct) == Ok(true))
            .and_then(|_| request.body()?.as_bytes())
            .map(|b| String::from_utf8_lossy(b).into_owned());
        spec.transmission = Some(options.transmission());
    }
    let stages = trace_reqwest_request(signer, request, options)
        .map_err(|e| Failure::input(crate::failure::chain(&e)))?;
    if trace {
        let shown = Shown::new(&stages, false);
        // What was sent, as shown: the library's writer, the request as
        // given, a PLAINTEXT signature hidden as it is written.
        let sent = spec
            .sent_shown(&stages.signed, shown.mask())
            .map_err(|e| Failure::input(crate::failure::chain(&e)))?;
        let text = stages_text(&spec, &stages, &shown) + &sent_text(&sent, options.transmission());
        let _ = std::io::stderr().write_all(format!("{text}\n").as_bytes());
    }
    Ok(())
}

/// Sends `request`, follows redirects to the same origin (each signed
/// afresh), and writes the answer as it arrives.
async fn send(
    mut signer: Signer,
    mut request: reqwest::Request,
    options: HttpOptions,
    args: &RequestArgs,
) -> Result<(), Failure> {
    let client = oauth1_signer::client::client_builder()
        .timeout(Duration::from_secs(args.timeout))
        .build()
        .map_err(network_error)?;
    let mut out = Output::stdout();
    let mut redirects = Redirects::new();
    let mut timestamp;
    // --fix-clock corrects the clock once, redirects included.
    let mut fix_clock = args.fix_clock;
    let (mut response, held) = loop {
        // Each hop signed afresh from the request as given: its protocol
        // parameters (in the header, the query or the body) are this hop's.
        let unsigned = request.try_clone();
        sign(&signer, &mut request, options, args.trace)?;
        timestamp = signed_timestamp(&request);
        let sent_url = request.url().clone();
        let response = client.execute(request).await.map_err(network_error)?;
        if args.include {
            out.write(head(&response).as_bytes())?;
        }
        if fix_clock && refusal_to_read(&response) {
            fix_clock = false;
            let (response, body) = read_whole(response).await?;
            let status = response.status().as_u16();
            let answer = read_answer(Some(status), &body);
            let date = response
                .headers()
                .get(reqwest::header::DATE)
                .and_then(|v| v.to_str().ok());
            // The timestamp sent (in the form body, the local clock's, moved
            // as the signer moves it).
            let sent = timestamp.or_else(|| {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .ok()?;
                now.as_secs().checked_add_signed(signer.clock_offset())
            });
            let clock =
                crate::capture::clock(&answer, sent, date).filter(|c| c.from_date && c.offset != 0);
            match (answer.time_error(), clock, unsigned) {
                (Some(error), Some(clock), Some(again)) => {
                    // The clock was `clock.offset` seconds ahead of the
                    // provider's, with the signer's offset applied.
                    let offset = signer.clock_offset().saturating_sub(clock.offset);
                    eprintln!(
                        "the provider refused the timestamp ({}, HTTP {status}): {}; signing \
                         again with the clock moved by {offset:+} seconds (--fix-clock)",
                        error.key, clock
                    );
                    signer = signer.with_clock_offset(offset);
                    request = again;
                    continue;
                }
                _ => break (response, Some(body)),
            }
        }
        let hop = match unsigned {
            Some(mut sent) => {
                *sent.url_mut() = sent_url;
                redirects
                    .follow(sent, &response)
                    .map_err(|e| Failure::Io(e.to_string()))?
            }
            None => None,
        };
        match hop {
            Some(hop) => request = hop,
            None => break (response, None),
        }
    };
    let status = response.status();
    let date = response
        .headers()
        .get(reqwest::header::DATE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    // A 401 or 403 is read for what it means (its first 64 KiB: an error
    // answer is a few hundred bytes); every byte is printed as it comes.
    let refused = matches!(status.as_u16(), 401 | 403);
    let mut kept = Vec::new();
    if let Some(body) = held {
        // Read whole for --fix-clock already: at most ANSWER_KEPT bytes.
        out.write(&body)?;
        kept = body;
    }
    while let Some(chunk) = response.chunk().await.map_err(network_error)? {
        if refused && kept.len() < ANSWER_KEPT {
            kept.extend_from_slice(&chunk[..chunk.len().min(ANSWER_KEPT - kept.len())]);
        }
        out.write(&chunk)?;
    }
    out.finish()?;
    if refused {
        let answer = read_answer(Some(status.as_u16()), &kept);
        let clock = crate::capture::clock(&answer, timestamp, date.as_deref());
        let said = crate::capture::answer_text(&answer, clock);
        let _ = std::io::stderr().write_all(said.trim_start().as_bytes());
    }
    if status.is_success() {
        Ok(())
    } else {
        Err(Failure::Status)
    }
}

/// How much of a 401 or 403 answer is kept to be read.
const ANSWER_KEPT: usize = 64 << 10;

/// Whether `--fix-clock` reads `response` whole to tell whether it refuses
/// the timestamp: a 400, 401 or 403 with a `Date` and a body of known
/// length within [`ANSWER_KEPT`].
fn refusal_to_read(response: &reqwest::Response) -> bool {
    matches!(response.status().as_u16(), 400 | 401 | 403)
        && response.headers().contains_key(reqwest::header::DATE)
        && response
            .content_length()
            .is_some_and(|n| n <= ANSWER_KEPT as u64)
}

/// `response` read to its end: its head (the body spent) and its bytes.
async fn read_whole(
    mut response: reqwest::Response,
) -> Result<(reqwest::Response, Vec<u8>), Failure> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(network_error)? {
        body.extend_from_slice(&chunk);
    }
    Ok((response, body))
}

/// The `oauth_timestamp` a signed request carries, in its header or its
/// query (the form body transmission's is in the body, not read here).
fn signed_timestamp(request: &reqwest::Request) -> Option<u64> {
    let from_header = request
        .headers()
        .get(reqwest::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|h| Protocol::from_header(h).ok())
        .and_then(|p| p.get(Name::Timestamp)?.parse().ok());
    from_header.or_else(|| {
        request
            .url()
            .query_pairs()
            .find(|(n, _)| n == "oauth_timestamp")
            .and_then(|(_, v)| v.parse().ok())
    })
}

/// One line: the error and its causes (reqwest's own says only "error
/// sending request"; the cause says "connection refused").
fn network_error(e: reqwest::Error) -> Failure {
    // The server by its origin, then every cause once (reqwest's own text is
    // only "error sending request"); never the whole URL, which may be long.
    let origin = e.url().map(|u| u.origin().ascii_serialization());
    let causes = match FlowError::transport(&e.without_url()) {
        FlowError::Transport { message } => message,
        other => other.to_string(),
    };
    Failure::input(match origin {
        Some(origin) => format!("cannot reach {origin}: {causes}"),
        None => causes,
    })
}

/// A `-H 'Name: value'`, refused if it sets a header the signer or the
/// client owns: what is sent must be what is signed.
fn parse_header(
    text: &str,
    body: Option<BodyKind>,
) -> Result<(reqwest::header::HeaderName, reqwest::header::HeaderValue), Failure> {
    use reqwest::header::{AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE, HOST, TRANSFER_ENCODING};
    let bad = || Failure::input(format!("not a header (expected 'Name: value'): {text:?}"));
    let (name, value) = text.split_once(':').ok_or_else(bad)?;
    let name =
        reqwest::header::HeaderName::from_bytes(name.trim().as_bytes()).map_err(|_| bad())?;
    let value = reqwest::header::HeaderValue::from_str(value.trim()).map_err(|_| bad())?;
    let owned = |why: &str| Err(Failure::input(format!("-H {}: {why}", name.as_str())));
    if name == AUTHORIZATION {
        return owned("the request is signed, so it carries its own Authorization header");
    }
    if name == HOST {
        return owned("the host is the URL's, which is what is signed; put it in the URL");
    }
    if name == CONTENT_LENGTH || name == TRANSFER_ENCODING {
        return owned("the client frames the body itself, so that it is the body signed");
    }
    if name == CONTENT_TYPE {
        let form = match value.to_str().map(is_form_urlencoded) {
            Ok(Ok(form)) => form,
            Ok(Err(e)) => return owned(&e.to_string()),
            Err(_) => false,
        };
        match body {
            Some(BodyKind::Json) => {
                return owned("--json sends application/json (its body is not signed)")
            }
            Some(BodyKind::Multipart) => {
                return owned("-F sends multipart/form-data with its own boundary")
            }
            Some(BodyKind::Form) if !form => {
                return owned(
                    "-d sends application/x-www-form-urlencoded, and its parameters are \
                     signed; another type would send them unsigned",
                )
            }
            _ => {}
        }
    }
    Ok((name, value))
}
