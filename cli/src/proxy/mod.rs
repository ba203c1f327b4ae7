//! `proxy`: a verifying reverse proxy. Every request is verified with the
//! library's [`Verifier`]; one that verifies is forwarded to the upstream
//! as received, with the verified identity in two headers (`forward`); any
//! other is answered here, 401 with the OAuth Problem Reporting body, and
//! never reaches the upstream (`handle`). The secrets come from a TOML file
//! re-read on SIGHUP, or the credentials as for `serve` (`secrets`); the
//! connections, limits and stop are `serve`'s (`serve::conn`). Operations:
//! a health path, Prometheus metrics (`metrics`), a log line per request,
//! the likely cause of a bad signature for the operator (`diagnose`). This
//! file: the flags and the start.
//!
//! [`Verifier`]: oauth1_signer::verify::Verifier

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use hyper::header::HeaderName;
use oauth1_signer::pipeline::check_realm;
use oauth1_signer::verify::Verifier;
use oauth1_signer::{RequestSpec, SignatureMethod};

use crate::flags::Credentials;
use crate::serve::conn::{bind, serve_connections, LimitFlags};
use crate::serve::{nonce_store, METHODS};
use crate::Failure;

mod diagnose;
mod forward;
mod handle;
mod metrics;
mod secrets;

use forward::{Family, Rewrite, Upstream};
use handle::{LogFormat, Proxy};
use metrics::Metrics;
use secrets::ProxySecrets;

pub(crate) const PROXY_HELP: &str = "\
Put it in front of an application in any language: a request that verifies reaches --upstream
as received (method, target, headers, body), with the verified consumer key in
X-OAuth1-Consumer-Key and the token in X-OAuth1-Token (absent for a two-legged request;
--consumer-key-header, --token-header rename them). Any copy of those headers the client sent
is removed, in whatever case or number; the hop-by-hop headers and those named in Connection
are removed (RFC 9110 §7.6.1); X-Forwarded-For, -Proto and -Host (or, with --forwarded rfc7239,
a Forwarded element) are appended, naming the scheme and host the request verified against.
Authorization is kept unless --strip-authorization. A request that does not verify is
answered 401 with WWW-Authenticate and the OAuth Problem Reporting body (503 when the nonce
store cannot answer: it fails closed) and never reaches the upstream; the true reason goes to
the log.

Secrets: --secrets FILE (TOML), re-read on SIGHUP (a file that does not read keeps the last
good one, and the log says why):
  [[consumer]]
  key = \"ck\"
  secret = \"cs\"
  [[token]]
  token = \"t\"
  secret = \"ts\"
  consumer = \"ck\"
else the credentials as for `serve`: --profile NAME, the flags, or the environment
(OAUTH_CONSUMER_KEY, OAUTH_CONSUMER_SECRET, OAUTH_TOKEN, OAUTH_TOKEN_SECRET). The HMAC methods
are accepted; PLAINTEXT and RSA are not.

The URL signed is --public-url (scheme, host and port, as clients reach the load balancer;
default http://LISTEN) followed by the path and query received; with --forwarded x-forwarded
or rfc7239 the scheme and host are read from the headers the proxy in front writes instead.

Bodies: a form (application/x-www-form-urlencoded), or any body of a request that carries
oauth_body_hash, is read up to --body-limit (413 beyond), verified, then sent; any other body
streams through unread. Upstream: pooled keep-alive connections; no answer head within
--upstream-timeout of sending the request (a streamed upload included) is 504, a connection
refused or broken is 502.

Operations: --health-path PATH is answered 200 without a signature; --metrics-listen ADDR
serves Prometheus text (oauth1_proxy_requests_total by outcome, the latency histogram,
oauth1_proxy_upstream_errors_total); one line per request on stderr (--log-format json: one
JSON object a line), never a secret, a signature or a verifier; --diagnose N names the likely
cause of a bad signature in that line, N a second at most. SIGHUP re-reads --secrets; SIGINT
or SIGTERM stops accepting, lets the requests in flight finish (10 seconds at most), and exits.

The limits and nonce stores are `serve`'s (`oauth1 serve --help`).

Example:
  oauth1 proxy --listen 127.0.0.1:8080 --upstream http://127.0.0.1:3000 \\
      --public-url https://api.example.com --secrets /etc/oauth1-proxy/secrets.toml \\
      --nonce-store redis://127.0.0.1:6379 --health-path /healthz --metrics-listen 127.0.0.1:9100";

#[derive(Args, Debug)]
pub(crate) struct ProxyArgs {
    /// Where to listen, HOST:PORT (port 0: any free port, printed)
    #[arg(long, value_name = "ADDR")]
    listen: SocketAddr,

    /// The application: http://HOST:PORT[/PREFIX]
    #[arg(long, value_name = "URL")]
    upstream: String,

    /// The URL clients sign (scheme://host[:port]) [default: http://LISTEN]
    #[arg(long, value_name = "URL")]
    public_url: Option<String>,

    /// The consumers and tokens (TOML), re-read on SIGHUP; else the credentials flags
    #[arg(long, value_name = "FILE")]
    secrets: Option<PathBuf>,

    #[command(flatten)]
    credentials: Credentials,

    /// memory, redis://HOST:PORT or redis+cluster://HOST:PORT,HOST:PORT,... (a URL with a
    /// password is best given in the environment, out of the process list)
    #[arg(
        long,
        value_name = "STORE",
        default_value = "memory",
        env = "OAUTH1_PROXY_NONCE_STORE",
        hide_env_values = true
    )]
    nonce_store: String,

    /// The most unexpired nonces the memory store holds
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    nonce_capacity: usize,

    /// Timeouts and bounds of the connections
    #[command(flatten)]
    limits: LimitFlags,

    /// The forwarded headers the proxy in front writes, read for the scheme and host, and
    /// the family appended for the upstream
    #[arg(long, value_name = "FAMILY", value_enum, default_value_t = Family::Ignore)]
    forwarded: Family,

    /// The header the upstream reads the verified consumer key from
    #[arg(long, value_name = "NAME", default_value = "X-OAuth1-Consumer-Key")]
    consumer_key_header: HeaderName,

    /// The header the upstream reads the verified token from (absent: two-legged)
    #[arg(long, value_name = "NAME", default_value = "X-OAuth1-Token")]
    token_header: HeaderName,

    /// Remove the Authorization header before forwarding
    #[arg(long)]
    strip_authorization: bool,

    /// Seconds the upstream may take to answer (504 beyond)
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    upstream_timeout: u64,

    /// The largest signed body read (a form, or one under oauth_body_hash), in bytes
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20)]
    body_limit: usize,

    /// The realm of WWW-Authenticate [default: --public-url]
    #[arg(long, value_name = "REALM")]
    realm: Option<String>,

    /// A path answered 200 "ok" without a signature, never forwarded
    #[arg(long, value_name = "PATH")]
    health_path: Option<String>,

    /// Where to serve the Prometheus metrics, HOST:PORT
    #[arg(long, value_name = "ADDR")]
    metrics_listen: Option<SocketAddr>,

    /// text (as `serve` writes) or json (one object a line)
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,

    /// Name the likely cause of a bad signature in the log, at most N a second (0: never)
    #[arg(long, value_name = "N", default_value_t = 0)]
    diagnose: u32,
}

/// The flag ids that give credentials without `--secrets`.
const CREDENTIAL_FLAGS: [&str; 5] = [
    "profile",
    "consumer_key",
    "consumer_secret",
    "token",
    "token_secret",
];

pub(crate) fn proxy(args: &ProxyArgs, given: &dyn Fn(&str) -> bool) -> Result<(), Failure> {
    let secrets = match &args.secrets {
        Some(path) => {
            if let Some(flag) = CREDENTIAL_FLAGS.iter().find(|f| given(f)) {
                return Err(Failure::input(format!(
                    "--secrets and --{} both give credentials: give one",
                    flag.replace('_', "-")
                )));
            }
            if let Some(warning) = secrets::readable_by_others(path) {
                eprintln!("{warning}");
            }
            ProxySecrets::from_file(path).map_err(|e| Failure::input(format!("--secrets {e}")))?
        }
        None => {
            let mut spec = RequestSpec::default();
            args.credentials.fill(&mut spec, false, &|_| false)?;
            args.credentials.check(false, false)?;
            ProxySecrets::given(&spec.credentials()).map_err(Failure::input)?
        }
    };
    let runtime = args.limits.runtime("proxy")?;
    runtime.block_on(run(args, Arc::new(secrets)))
}

async fn run(args: &ProxyArgs, secrets: Arc<ProxySecrets>) -> Result<(), Failure> {
    let (listener, addr, public) = bind(args.listen, args.public_url.as_deref()).await?;
    let realm = args.realm.clone().unwrap_or_else(|| public.clone());
    check_realm(&realm).map_err(|e| Failure::input(format!("--realm: {e}")))?;
    let upstream = Upstream::new(&args.upstream, Duration::from_secs(args.upstream_timeout))
        .map_err(Failure::input)?;
    if let Some(path) = &args.health_path {
        if !path.starts_with('/') {
            return Err(Failure::input(format!(
                "--health-path {}: expected a path starting with /",
                crate::caret::printable(path.as_bytes())
            )));
        }
    }
    let rewrite = Rewrite {
        consumer_header: args.consumer_key_header.clone(),
        token_header: args.token_header.clone(),
        strip_authorization: args.strip_authorization,
        family: args.forwarded,
    };
    rewrite.check().map_err(Failure::input)?;
    let store = nonce_store(&args.nonce_store, args.nonce_capacity).await?;
    let methods: Vec<SignatureMethod> = METHODS.into_iter().filter(|m| !m.is_rsa()).collect();
    let verifier = Verifier::builder(secrets.clone(), store)
        .public_base_url(public.as_str())
        .forwarded(args.forwarded.read())
        .methods(&methods)
        .build()
        .map_err(|e| Failure::input(format!("--public-url: {}", crate::failure::chain(&e))))?;
    let metrics = Arc::new(Metrics::default());
    if let Some(at) = args.metrics_listen {
        let listener = tokio::net::TcpListener::bind(at)
            .await
            .map_err(|e| Failure::Io(format!("cannot listen on {at} (--metrics-listen): {e}")))?;
        let bound = listener
            .local_addr()
            .map_err(|e| Failure::Io(format!("cannot listen on {at}: {e}")))?;
        println!("metrics on http://{bound}");
        tokio::spawn(metrics::serve_metrics(listener, metrics.clone()));
    }
    let (log, writer) = crate::serve::log::start();
    let proxy = Arc::new(Proxy {
        verifier,
        secrets: secrets.clone(),
        upstream,
        rewrite,
        realm,
        health_path: args.health_path.clone(),
        body_limit: args.body_limit,
        read_timeout: Duration::from_secs(args.limits.read_timeout),
        metrics,
        log_format: args.log_format,
        log,
        diagnoses: (args.diagnose > 0).then(|| diagnose::Diagnoses::new(args.diagnose)),
    });
    reload_on_hangup(secrets)?;
    serve_connections(listener, addr, &args.limits, move |peer, request| {
        proxy.clone().answer(peer, request)
    })
    .await;
    writer.finish();
    Ok(())
}

/// Re-reads the secrets on each SIGHUP, saying how it went.
fn reload_on_hangup(secrets: Arc<ProxySecrets>) -> Result<(), Failure> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut hangup = signal(SignalKind::hangup())
            .map_err(|e| Failure::Io(format!("cannot watch SIGHUP: {e}")))?;
        tokio::spawn(async move {
            while hangup.recv().await.is_some() {
                let line = secrets.reload();
                eprintln!("{line}");
            }
        });
    }
    #[cfg(not(unix))]
    let _ = secrets;
    Ok(())
}
