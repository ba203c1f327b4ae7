//! `request`: sign one request and send it, like X's `twurl`.
//!
//! The URL is read as a user types it into curl (`reqwest::Url` escapes a
//! space or non-ASCII text); a path alone (`/2/users/me`) goes to
//! `https://api.x.com`. It is signed exactly as it is then sent, through the
//! library's reqwest edge. Exit codes: 0 for a 2xx answer, 1 for any other
//! (the body is still printed: X's error JSON is what the user needs), 2 for
//! bad input or a request that could not be sent.

use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Duration;

use clap::Args;
use oauth1_signer::{trace_reqwest_request, HttpOptions, RequestSpec};

use crate::output::{stages_text, Shown};
use crate::profile::CredentialArgs;
use crate::{emit, Failure};

pub(crate) const REQUEST_HELP: &str = "\
Credentials: --profile NAME (saved by `oauth1 authorize`), else the flags and the environment
(OAUTH_CONSUMER_KEY, OAUTH_CONSUMER_SECRET, OAUTH_TOKEN, OAUTH_TOKEN_SECRET), else the default
profile.

The query is always signed; a -d body (application/x-www-form-urlencoded) is signed; a --json
body is not (as the X API v2 expects). Exit status: 0 for a 2xx answer, 1 for any other (the
body is printed all the same), 2 for bad input or a network error.

Examples:
  oauth1 request /2/users/me
  oauth1 request -X POST --json '{\"text\":\"hello\"}' https://api.x.com/2/tweets
  oauth1 request -d 'status=hello%20world' https://api.x.com/1.1/statuses/update.json
  oauth1 request -i --trace 'https://api.x.com/2/tweets?ids=1460323737035677698'";

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

    /// An extra header, 'Name: value' (repeatable)
    #[arg(short = 'H', long = "header", value_name = "HEADER")]
    headers: Vec<String>,

    /// Print the status line and the response headers too
    #[arg(short = 'i', long)]
    include: bool,

    /// Print every signing stage (no secrets) to stderr before sending
    #[arg(long)]
    trace: bool,

    /// Give up after this many seconds
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    timeout: u64,

    #[command(flatten)]
    credentials: CredentialArgs,
}

/// The base for a URL given as a path, as twurl does.
const X_API: &str = "https://api.x.com";

pub(crate) fn request(args: &RequestArgs) -> Result<(), Failure> {
    let signer = args.credentials.signer()?;
    let url = if args.url.starts_with('/') {
        format!("{X_API}{}", args.url)
    } else {
        args.url.clone()
    };
    let url = reqwest::Url::parse(&url)
        .map_err(|e| Failure::input(format!("not a URL: {:?}: {e}", args.url)))?;
    let form = (!args.data.is_empty()).then(|| args.data.join("&"));
    let body = form.clone().or_else(|| args.json.clone());
    let method = match (&args.method, &body) {
        (Some(m), _) => m.to_ascii_uppercase(),
        (None, Some(_)) => "POST".into(),
        (None, None) => "GET".into(),
    };
    let method = reqwest::Method::from_bytes(method.as_bytes())
        .map_err(|_| Failure::input(format!("not an HTTP method: {method:?}")))?;

    let mut request = reqwest::Request::new(method, url);
    let headers = request.headers_mut();
    let content_type = if form.is_some() {
        Some("application/x-www-form-urlencoded")
    } else {
        args.json.as_ref().map(|_| "application/json")
    };
    if let Some(ct) = content_type {
        headers.insert(
            reqwest::header::CONTENT_TYPE,
            reqwest::header::HeaderValue::from_static(ct),
        );
    }
    for header in &args.headers {
        let (name, value) = parse_header(header)?;
        headers.insert(name, value);
    }
    if let Some(body) = body {
        *request.body_mut() = Some(body.into());
    }

    let trace = trace_reqwest_request(&signer, &mut request, HttpOptions::new())
        .map_err(|e| Failure::input(e.to_string()))?;
    if args.trace {
        let mut spec = RequestSpec::default();
        spec.method = request.method().to_string();
        spec.url = request.url().to_string();
        spec.form_body = form;
        let text = stages_text(&spec, &trace, &Shown::new(&trace, false));
        let _ = std::io::stderr().write_all(format!("{text}\n").as_bytes());
    }

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the HTTP client: {e}")))?;
    let (head, status, body) = runtime.block_on(async {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(args.timeout))
            .build()
            .map_err(|e| network_error(&e))?;
        let response = client
            .execute(request)
            .await
            .map_err(|e| network_error(&e))?;
        let status = response.status();
        let mut head = format!("{:?} {status}\n", response.version());
        for (name, value) in response.headers() {
            let _ = writeln!(
                head,
                "{name}: {}",
                String::from_utf8_lossy(value.as_bytes())
            );
        }
        let body = response.bytes().await.map_err(|e| network_error(&e))?;
        Ok::<_, Failure>((head, status, body))
    })?;
    if args.include {
        emit(format!("{head}\n").as_bytes())?;
    }
    emit(&body)?;
    if !body.is_empty()
        && !body.ends_with(b"\n")
        && std::io::IsTerminal::is_terminal(&std::io::stdout())
    {
        emit(b"\n")?;
    }
    if status.is_success() {
        Ok(())
    } else {
        Err(Failure::Status)
    }
}

/// One line: the error and its causes (reqwest's own says only "error
/// sending request"; the cause says "connection refused").
fn network_error(e: &reqwest::Error) -> Failure {
    let mut line = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let _ = write!(line, ": {s}");
        source = s.source();
    }
    Failure::input(line)
}

fn parse_header(
    text: &str,
) -> Result<(reqwest::header::HeaderName, reqwest::header::HeaderValue), Failure> {
    let bad = || Failure::input(format!("not a header (expected 'Name: value'): {text:?}"));
    let (name, value) = text.split_once(':').ok_or_else(bad)?;
    let name =
        reqwest::header::HeaderName::from_bytes(name.trim().as_bytes()).map_err(|_| bad())?;
    if name == reqwest::header::AUTHORIZATION {
        return Err(Failure::input(
            "-H Authorization: the request is signed, so it carries its own Authorization header",
        ));
    }
    let value = reqwest::header::HeaderValue::from_str(value.trim()).map_err(|_| bad())?;
    Ok((name, value))
}
