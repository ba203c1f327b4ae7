//! `serve`: a local verifying server, a stand-in for X in a client's own
//! tests. Every request on every path is verified with the library's
//! [`Verifier`]; a valid one is answered 200 with a JSON echo of what was
//! verified, any other 401 (503 when the nonce store cannot answer) with the
//! reason and, for a bad signature, the explainer's diagnosis (`answer`).
//! X's three legs (`/oauth/request_token`, `/oauth/authorize`,
//! `/oauth/access_token`) issue tokens (`legs`; the temporary ones expire
//! and are bounded: `temporary`), and each access token issued verifies on
//! every other path. One log line per request goes to
//! standard error, escaped, written in batches by a thread of its own
//! (`log`, which `proxy` shares); SIGINT and SIGTERM stop it after the requests
//! in flight are answered (`conn`: write deadlines, requests in flight, the
//! stop signal). This file: the flags, the listener and its loop.
//!
//! [`Verifier`]: oauth1_signer::verify::Verifier

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use oauth1_signer::verify::{
    MemoryNonceStore, NonceStore, RedisClusterNonceStore, RedisNonceStore, RedisOptions,
};
use oauth1_signer::{text::redact_url, BodyHash, Provider, RequestSpec, SignatureMethod};

use crate::caret::printable;
use crate::flags::{Credentials, MethodFlags};
use crate::spec::BodyHashFlags;
use crate::verdict::Checker;
use crate::Failure;

mod answer;
pub(crate) mod conn;
mod deadline;
mod legs;
pub(crate) mod log;
mod store;
mod temporary;

use answer::Server;
use conn::{bind, serve_connections, LimitFlags};
use legs::Legs;

pub(crate) const SERVE_HELP: &str = "\
Credentials as for `oauth1 request`: --profile NAME, else the flags and the environment
(OAUTH_CONSUMER_KEY, OAUTH_CONSUMER_SECRET, OAUTH_TOKEN, OAUTH_TOKEN_SECRET), else the default
profile. Requests signed with them are valid; any other consumer key or token is not. The HMAC
methods are accepted, and with --public-key (the consumer's RSA key, PEM) RSA-SHA1 and
RSA-SHA256; PLAINTEXT never is. --provider NAME stands in for that provider: its body-hash rule
and the parameter string its clients sign (Mastercard's official signers write their own).

The URL signed is --public-url (scheme, host and port; default http://LISTEN) followed by the
path and query received; the Host header is not trusted. Form bodies
(application/x-www-form-urlencoded), and the body of a request that carries oauth_body_hash,
are read up to 1 MiB and verified (a larger one is refused with 413); any other body is read
and discarded, whatever its size.

Answers: 200 {\"valid\": true, \"method\", \"base_string_uri\", \"params\", \"consumer_key\",
\"token\"}; 401 {\"valid\": false, \"reason\", \"problem\", \"diagnosis\", \"diagnosis_skipped\"} with
WWW-Authenticate; 503 when the nonce store cannot answer (it fails closed).

A timestamp more than 5 minutes from the server's clock is refused (401, problem
oauth_problem=timestamp_refused&oauth_acceptable_timestamps=FIRST-LAST). --clock-offset SECONDS
runs that clock SECONDS off the system's (negative: behind), and every answer's Date header
says its time, as a provider whose clock is off would: to try a client's clock correction
(`oauth1 request --fix-clock`, the library's OAuth1Middleware::with_clock_skew_correction).

The three legs of X's flow (RFC 5849 §2), for a client's login to run against it:
  POST /oauth/request_token   signed with the consumer key alone, with oauth_callback: answers
                              oauth_token=...&oauth_token_secret=...&oauth_callback_confirmed=true
  GET  /oauth/authorize?oauth_token=T
                              approves at once: a redirect (302) to the callback with
                              oauth_token and oauth_verifier added (for oob, 200 with them as a form)
  POST /oauth/access_token    signed with the temporary token and its secret, with oauth_verifier:
                              answers oauth_token=...&oauth_token_secret=...&user_id=...&screen_name=...
Each access token issued then verifies on every other path. A callback is oob, an absolute
http or https URL (no user information), or a URI of a scheme named by --callback-scheme
(repeatable; javascript, data, vbscript and file never are), 2048 bytes at most; any other is
refused (parameter_rejected, oauth_callback; none at all is parameter_absent). A wrong verifier
is refused (parameter_rejected), a temporary token serves one exchange (token_used) and expires
--temporary-token-lifetime seconds after it is issued (600; 0 expires it at once): its exchange
is then token_expired. The temporary tokens held are bounded (100000, and 32 MiB of tokens and
callbacks; the expired ones are dropped as new ones are issued, and a full store answers 503
until the oldest expires); access tokens live as long as the server (100000 at most). Tokens,
secrets and verifiers are 128 bits from the operating system's generator, and the log names
tokens, never a secret or a verifier (oauth_signature, oauth_verifier and oauth_callback in a
logged query are <redacted>).

What a 401 shows: anyone who can reach the server reads it, so it holds nothing computed with
the secrets and no key or token the client did not send, and it looks the same whichever keys
exist. An unknown consumer key or token is answered as a bad signature (\"the signature does
not match the request\"). The diagnosis names the catalogued mistake that reproduces the
client's signature (as `oauth1 explain` does), which only a client holding the secrets can
have made, with no values of either side; for a signature nothing reproduces (an unknown key
among them) it says so. It is skipped for a request over 16 KiB or 256 parameters, and while
another diagnosis runs. `oauth1 verify`, run by the key's owner, shows both sides.

Limits: a request's headers, and its body, must each arrive within --read-timeout (an idle
keep-alive connection is closed after it too), and its line and headers hold 64 KiB at most
(431 beyond); the client must take each answer within --write-timeout of the last byte it
took, or the connection is closed (a client that pipelines requests and never reads the
answers cannot hold one); a connection carries at most --max-requests-per-connection requests
(the last answer says Connection: close); at most --max-connections connections are open
(others wait to be accepted).

It prints \"listening on http://ADDR\" when ready (--listen 127.0.0.1:0 picks a free port), one
line per request on stderr (the true reason, for you), and stops on SIGINT or SIGTERM, within
10 seconds.

Nonce stores: memory (default; --nonce-capacity unexpired nonces at most, refused when full),
redis://HOST:PORT (shared by every `serve` using it; its maxmemory-policy must be noeviction,
read at start and with every request: 503 naming it while it is not),
redis+cluster://HOST:PORT,HOST:PORT,...

Examples:
  oauth1 serve --listen 127.0.0.1:8080 --consumer-key ck --consumer-secret cs
  oauth1 serve --listen 127.0.0.1:0 --nonce-store redis://127.0.0.1:6379 --profile test
  oauth1 serve --listen 127.0.0.1:8080 --provider mastercard --consumer-key ck --public-key mc.pem";

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

    /// Timeouts and bounds of the connections
    #[command(flatten)]
    limits: LimitFlags,

    #[command(flatten)]
    credentials: Credentials,

    #[command(flatten)]
    signature: MethodFlags,

    /// The consumer's RSA public key or certificate (PEM): RSA-SHA1 and RSA-SHA256 are
    /// accepted too
    #[arg(long, value_name = "FILE")]
    public_key: Option<PathBuf>,

    /// A provider to stand in for (x, netsuite, woocommerce, mastercard, lti, ...): its
    /// body-hash rule and its clients' parameter style (Mastercard's), unless given
    #[arg(long, value_name = "NAME")]
    provider: Option<Provider>,

    /// Whether requests must carry oauth_body_hash, and its hash
    #[command(flatten)]
    body_hash: BodyHashFlags,

    /// Run the server's clock SECONDS off the system's (negative: behind), for its timestamp
    /// window and its Date header: a provider whose clock is off, to test a client's correction
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    clock_offset: i64,

    /// The three legs' temporary tokens and callbacks
    #[command(flatten)]
    flow: FlowFlags,
}

/// The flags of the three legs (`legs`).
#[derive(Args, Debug)]
pub(crate) struct FlowFlags {
    /// Seconds a temporary token lives after it is issued, exchanged or not (0: it expires at
    /// once, to test a client's handling of token_expired)
    #[arg(long, value_name = "SECS", default_value_t = 600, value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub(crate) temporary_token_lifetime: u64,

    /// An app's own callback scheme to accept beside oob, http and https (myapp for
    /// myapp://done); repeatable
    #[arg(long, value_name = "SCHEME")]
    pub(crate) callback_scheme: Vec<String>,
}

pub(crate) fn serve(args: &ServeArgs) -> Result<(), Failure> {
    crate::clock::set_offset(args.clock_offset);
    let public_key = crate::flags::public_key(args.public_key.as_deref())?;
    let mut spec =
        crate::flags::credentials_spec(&args.credentials, &args.signature, public_key.is_some())?;
    spec.provider = args.provider;
    // The body-hash flags as given, else the provider's rule (else never).
    args.body_hash.fill(&mut spec);
    let body_hash = spec.body_hash_rule();
    let runtime = args.limits.runtime("server")?;
    runtime.block_on(run(args, spec, body_hash, public_key.as_deref()))
}

async fn run(
    args: &ServeArgs,
    spec: RequestSpec,
    body_hash: BodyHash,
    public_key: Option<&str>,
) -> Result<(), Failure> {
    let (listener, addr, public) = bind(args.listen, args.public_url.as_deref()).await?;
    let store = nonce_store(&args.nonce_store, args.nonce_capacity).await?;
    let methods: Vec<SignatureMethod> = METHODS
        .into_iter()
        .filter(|m| public_key.is_some() || !m.is_rsa())
        .collect();
    // The legs verify with the same store: a nonce is used once on any path.
    let legs = Legs::new(
        &spec,
        store.clone(),
        &public,
        &methods,
        public_key,
        body_hash,
        &args.flow,
    )?;
    // Every path but the legs' verifies with the credentials given and the
    // access tokens the legs issue, in one lookup.
    let checker = Checker::new(
        spec,
        store,
        Some(&public),
        &methods,
        public_key,
        body_hash,
        Some(legs.access_tokens()),
    )?;
    let read_timeout = Duration::from_secs(args.limits.read_timeout);
    let (log, writer) = log::start();
    let server = Arc::new(Server::new(checker, legs, read_timeout, log));
    if args.clock_offset != 0 {
        eprintln!(
            "the clock is {} seconds off the system's (--clock-offset)",
            args.clock_offset
        );
    }
    serve_connections(listener, addr, &args.limits, move |peer, request| {
        server.clone().answer(peer, request)
    })
    .await;
    writer.finish();
    Ok(())
}

/// The store `--nonce-store` names (`proxy`'s too).
pub(crate) async fn nonce_store(
    name: &str,
    capacity: usize,
) -> Result<Arc<dyn NonceStore>, Failure> {
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
            .map_err(|e| Failure::Io(format!("--nonce-store: {}", crate::failure::chain(&e))))?;
        return Ok(Arc::new(store));
    }
    if name.starts_with("redis://") {
        let store = RedisNonceStore::connect(name, options)
            .await
            .map_err(|e| Failure::Io(format!("--nonce-store: {}", crate::failure::chain(&e))))?;
        return Ok(Arc::new(store));
    }
    // Never the password of a URL (`rediss://:PASSWORD@host`).
    Err(Failure::input(format!(
        "--nonce-store {}: expected memory, redis://HOST:PORT or redis+cluster://HOST:PORT,...",
        printable(redact_url(name).as_bytes())
    )))
}

/// The signature methods `serve` accepts: the HMAC ones, and with
/// `--public-key` the RSA ones; never PLAINTEXT, whose signature is the
/// secrets themselves.
pub(crate) const METHODS: [SignatureMethod; 5] = [
    SignatureMethod::HmacSha1,
    SignatureMethod::HmacSha256,
    SignatureMethod::HmacSha512,
    SignatureMethod::RsaSha1,
    SignatureMethod::RsaSha256,
];
