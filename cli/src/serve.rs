//! `serve`: a local verifying server, a stand-in for X in a client's own
//! tests. Every request on every path is verified with the library's
//! [`Verifier`]; a valid one is answered 200 with a JSON echo of what was
//! verified, any other 401 (503 when the nonce store cannot answer) with the
//! reason and, for a bad signature, the explainer's diagnosis. One log line
//! per request goes to standard error, escaped; SIGINT and SIGTERM stop it
//! after the requests in flight are answered.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use http_body_util::{BodyExt as _, Full, LengthLimitError, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use oauth1_signer::verify::{
    MemoryNonceStore, NonceStore, Received, RedisClusterNonceStore, RedisNonceStore, RedisOptions,
};
use oauth1_signer::{is_form_urlencoded, json::RequestSpec, SignatureMethod};
use serde_json::json;

use crate::caret::printable;
use crate::profile::CredentialArgs;
use crate::verdict::{verdict_json, Checker, Seen, Verdict};
use crate::Failure;

pub(crate) const SERVE_HELP: &str = "\
Credentials as for `oauth1 request`: --profile NAME, else the flags and the environment
(OAUTH_CONSUMER_KEY, OAUTH_CONSUMER_SECRET, OAUTH_TOKEN, OAUTH_TOKEN_SECRET), else the default
profile. Requests signed with them are valid; any other consumer key or token is not.

The URL signed is --public-url (scheme, host and port; default http://LISTEN) followed by the
path and query received; the Host header is not trusted. Form bodies
(application/x-www-form-urlencoded) up to 1 MiB are read and their parameters verified; a
larger one is refused with 413.

Answers: 200 {\"valid\": true, \"method\", \"base_string_uri\", \"params\", \"consumer_key\",
\"token\"}; 401 {\"valid\": false, \"reason\", \"problem\", \"diagnosis\"} with WWW-Authenticate
(the diagnosis names the catalogued mistake that reproduces a bad signature, as `oauth1 explain`
does); 503 when the nonce store cannot answer (it fails closed). It prints \"listening on
http://ADDR\" when ready (--listen 127.0.0.1:0 picks a free port), one line per request on
stderr, and stops on SIGINT or SIGTERM.

Nonce stores: memory (default; --nonce-capacity unexpired nonces at most, refused when full),
redis://HOST:PORT (shared by every `serve` using it), redis+cluster://HOST:PORT,HOST:PORT,...

Examples:
  oauth1 serve --listen 127.0.0.1:8080 --consumer-key ck --consumer-secret cs
  oauth1 serve --listen 127.0.0.1:0 --nonce-store redis://127.0.0.1:6379 --profile test";

/// The largest form body read: 1 MiB.
const MAX_BODY: usize = 1 << 20;

/// How long the requests in flight may take to finish after a signal.
const DRAIN: Duration = Duration::from_secs(10);

#[derive(Args, Debug)]
pub(crate) struct ServeArgs {
    /// Where to listen, HOST:PORT (port 0: any free port, printed)
    #[arg(long, value_name = "ADDR")]
    listen: SocketAddr,

    /// memory, redis://HOST:PORT or redis+cluster://HOST:PORT,HOST:PORT,...
    #[arg(long, value_name = "STORE", default_value = "memory")]
    nonce_store: String,

    /// The most unexpired nonces the memory store holds
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    nonce_capacity: usize,

    /// The URL clients sign (scheme://host[:port]) [default: http://LISTEN]
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,

    #[command(flatten)]
    credentials: CredentialArgs,
}

pub(crate) fn serve(args: &ServeArgs) -> Result<(), Failure> {
    let spec = args.credentials.spec()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failure::Io(format!("cannot start the server: {e}")))?;
    runtime.block_on(run(args, spec))
}

async fn run(args: &ServeArgs, spec: RequestSpec) -> Result<(), Failure> {
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| Failure::Io(format!("cannot listen on {}: {e}", args.listen)))?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::Io(format!("cannot listen on {}: {e}", args.listen)))?;
    let public = match &args.public_url {
        Some(url) => url.trim_end_matches('/').to_owned(),
        None => format!("http://{addr}"),
    };
    let store = nonce_store(&args.nonce_store, args.nonce_capacity).await?;
    let checker = Arc::new(Checker::new(
        spec,
        store,
        Some(&public),
        &METHODS,
        None,
        None,
    )?);
    let public: Arc<str> = public.into();
    let mut stop = std::pin::pin!(stop_signal());
    println!("listening on http://{addr}");
    let graceful = GracefulShutdown::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let (stream, peer) = match accepted {
                    Ok(a) => a,
                    // A client that went away mid-accept, or too many open
                    // files for a moment: keep serving the others.
                    Err(e) => {
                        eprintln!("accept failed: {e}");
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    }
                };
                let (checker, public) = (checker.clone(), public.clone());
                let service = hyper::service::service_fn(move |request| {
                    let (checker, public) = (checker.clone(), public.clone());
                    async move {
                        Ok::<_, Infallible>(answer(&checker, &public, peer, request).await)
                    }
                });
                let conn = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service);
                let conn = graceful.watch(conn);
                tokio::spawn(async move {
                    let _ = conn.await;
                });
            }
            signal = &mut stop => {
                eprintln!("{signal}: stopping");
                break;
            }
        }
    }
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        eprintln!("some requests were still open after {DRAIN:?}; stopped all the same");
    }
    Ok(())
}

/// The store `--nonce-store` names.
async fn nonce_store(name: &str, capacity: usize) -> Result<Arc<dyn NonceStore>, Failure> {
    let options = RedisOptions::default();
    if name == "memory" {
        return Ok(Arc::new(MemoryNonceStore::with_capacity(capacity)));
    }
    if let Some(nodes) = name.strip_prefix("redis+cluster://") {
        let urls: Vec<String> = nodes
            .split(',')
            .map(|n| format!("redis://{}", n.trim()))
            .collect();
        let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
        let store = RedisClusterNonceStore::connect(&urls, options)
            .await
            .map_err(|e| Failure::Io(format!("--nonce-store: {e}")))?;
        return Ok(Arc::new(store));
    }
    if name.starts_with("redis://") {
        let store = RedisNonceStore::connect(name, options)
            .await
            .map_err(|e| Failure::Io(format!("--nonce-store: {e}")))?;
        return Ok(Arc::new(store));
    }
    Err(Failure::input(format!(
        "--nonce-store {}: expected memory, redis://HOST:PORT or redis+cluster://HOST:PORT,...",
        printable(name.as_bytes())
    )))
}

/// Resolves on SIGINT or SIGTERM, naming it. The handlers are installed
/// here, before the future is first polled, so that a signal sent as soon
/// as "listening" is printed is not the default (an abrupt exit).
fn stop_signal() -> impl std::future::Future<Output = &'static str> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let int = signal(SignalKind::interrupt());
        let term = signal(SignalKind::terminate());
        async move {
            match (int, term) {
                (Ok(mut int), Ok(mut term)) => tokio::select! {
                    _ = int.recv() => "SIGINT",
                    _ = term.recv() => "SIGTERM",
                },
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                    "SIGINT"
                }
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}

/// The signature methods `serve` accepts: the HMAC ones (a PLAINTEXT
/// signature is the secrets themselves, and RSA needs a public key).
const METHODS: [SignatureMethod; 3] = [
    SignatureMethod::HmacSha1,
    SignatureMethod::HmacSha256,
    SignatureMethod::HmacSha512,
];

/// Verifies one request and answers it; logs one line.
async fn answer(
    checker: &Checker,
    public: &str,
    peer: SocketAddr,
    request: Request<Incoming>,
) -> Response<Full<Bytes>> {
    let (parts, body) = request.into_parts();
    let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let (status, json) = match Limited::new(body, MAX_BODY).collect().await {
        Err(e) if e.is::<LengthLimitError>() => (
            StatusCode::PAYLOAD_TOO_LARGE,
            json!({"valid": false, "reason": format!("the body is over {MAX_BODY} bytes")}),
        ),
        // The client went away or broke the framing mid-body.
        Err(_) => (
            StatusCode::BAD_REQUEST,
            json!({"valid": false, "reason": "the body could not be read"}),
        ),
        Ok(collected) => {
            let body = collected.to_bytes();
            let verdict = match Received::from_parts(&parts, &body) {
                Ok(received) => {
                    let text = |name| {
                        parts
                            .headers
                            .get(name)
                            .and_then(|v: &HeaderValue| v.to_str().ok())
                    };
                    let form = text(CONTENT_TYPE).is_some_and(is_form_urlencoded);
                    let seen = Seen {
                        method: parts.method.as_str(),
                        url: format!("{public}{target}"),
                        authorization: text(AUTHORIZATION),
                        form_body: form.then_some(&body[..]),
                    };
                    checker.check(&received, &seen, None).await
                }
                Err(rejection) => Verdict::Rejected(rejection, Vec::new()),
            };
            let status = match &verdict {
                Verdict::Valid(_) => StatusCode::OK,
                Verdict::Rejected(r, _) => {
                    StatusCode::from_u16(r.status()).unwrap_or(StatusCode::UNAUTHORIZED)
                }
            };
            (status, verdict_json(&verdict))
        }
    };
    let why = json["reason"].as_str().unwrap_or("valid");
    eprintln!(
        "{peer} {} {} {} {}",
        printable(parts.method.as_str().as_bytes()),
        printable(target.as_bytes()),
        status.as_u16(),
        printable(why.as_bytes())
    );
    let mut response = Response::new(Full::new(Bytes::from(json.to_string() + "\n")));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if status == StatusCode::UNAUTHORIZED {
        headers.insert(
            WWW_AUTHENTICATE,
            HeaderValue::from_static("OAuth realm=\"oauth1 serve\""),
        );
    }
    response
}
