//! `serve`'s connections, which `proxy` shares: the limits' flags, the
//! accept loop ([`serve_connections`]), with the write deadline of
//! `deadline` on each connection, the requests in flight
//! (waited for at shutdown), the backoff after a failed accept, and the
//! stop signal.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use clap::Args;
use hyper::body::{Body, Frame, Incoming, SizeHint};
use hyper::header::{HeaderValue, CONNECTION};
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::sync::Semaphore;

use super::deadline::{WriteDeadline, WriteStalled};

/// A connection's peer: its address, and that address as text, written
/// once for all the requests the connection brings (each one's log line
/// starts with it).
#[derive(Clone, Debug)]
pub(crate) struct Peer {
    addr: SocketAddr,
    text: Arc<str>,
}

impl Peer {
    pub(crate) fn new(addr: SocketAddr) -> Peer {
        Peer {
            addr,
            text: addr.to_string().into(),
        }
    }

    /// The address.
    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The address as `SocketAddr` writes it.
    pub(crate) fn as_str(&self) -> &str {
        &self.text
    }
}

impl std::fmt::Display for Peer {
    /// The address as `SocketAddr` writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// How long the requests in flight may take to finish after a signal.
pub(crate) const DRAIN: Duration = Duration::from_secs(10);

/// The most a request's line and headers may hold (431 beyond), and what
/// hyper buffers for one connection, each way: a client that pipelines
/// requests without reading the answers costs this much, not hyper's
/// default 400 KB.
pub(crate) const CONNECTION_BUFFER: usize = 64 * 1024;

/// The name of a server's threads (`top -H`, `/proc/PID/task/*/comm`).
pub(crate) const WORKER_THREAD: &str = "oauth1-worker";

/// The limits of a server's connections, and its threads (`serve`'s and
/// `proxy`'s flags).
#[derive(Args, Debug, Clone)]
pub(crate) struct LimitFlags {
    /// Seconds a request's headers, and its body, may take to arrive
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) read_timeout: u64,

    /// Seconds an answer may wait for the client to read it; past it the connection is closed
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) write_timeout: u64,

    /// The most connections open at once
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=65536))]
    pub(crate) max_connections: u64,

    /// The most requests one connection carries; the last answer says Connection: close
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub(crate) max_requests_per_connection: u64,

    /// Threads answering requests [default: one for each core this process may run on]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub(crate) workers: Option<u16>,
}

impl LimitFlags {
    /// The runtime a server answers on: `--workers` threads, else one for
    /// each core this process may run on (tokio's default, which reads the
    /// process's CPU affinity and cgroup quota): a server pinned to four
    /// cores answers on four, not on a fixed number whatever the machine.
    pub(crate) fn runtime(&self, what: &str) -> Result<tokio::runtime::Runtime, crate::Failure> {
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        if let Some(n) = self.workers {
            builder.worker_threads(usize::from(n));
        }
        builder
            .thread_name(WORKER_THREAD)
            .enable_all()
            .build()
            .map_err(|e| crate::Failure::Io(format!("cannot start the {what}: {e}")))
    }
}

/// Binds `listen`: the listener, the address bound (port 0 picks one), and
/// the public base URL clients sign for: `public_url` without its trailing
/// `/`, or `http://` and the address bound.
pub(crate) async fn bind(
    listen: SocketAddr,
    public_url: Option<&str>,
) -> Result<(tokio::net::TcpListener, SocketAddr, String), crate::Failure> {
    let cannot = |e: io::Error| crate::Failure::Io(format!("cannot listen on {listen}: {e}"));
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(cannot)?;
    let addr = listener.local_addr().map_err(cannot)?;
    let public = match public_url {
        Some(url) => url.trim_end_matches('/').to_owned(),
        None => format!("http://{addr}"),
    };
    Ok((listener, addr, public))
}

/// Says `listening on http://ADDR` on standard output once SIGINT and
/// SIGTERM are handled (a signal sent on that line stops the server
/// cleanly), accepts connections on `listener` (bound to `addr`) within
/// `limits` and answers each request with `handler` until one of them;
/// then stops accepting and waits (up to [`DRAIN`]) for the requests in
/// flight, their answers' bodies included, to finish.
pub(crate) async fn serve_connections<H, F, B>(
    listener: tokio::net::TcpListener,
    addr: SocketAddr,
    limits: &LimitFlags,
    handler: H,
) where
    H: Fn(Peer, Request<Incoming>) -> F + Clone + Send + Sync + 'static,
    F: Future<Output = Response<B>> + Send + 'static,
    B: Body + Unpin + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let read_timeout = Duration::from_secs(limits.read_timeout);
    let write_timeout = Duration::from_secs(limits.write_timeout);
    let max_requests = limits.max_requests_per_connection;
    let connections = Arc::new(Semaphore::new(
        usize::try_from(limits.max_connections).unwrap_or(usize::MAX),
    ));
    let mut stop = std::pin::pin!(stop_signal());
    println!("listening on http://{addr}");
    let graceful = GracefulShutdown::new();
    let in_flight = InFlight::default();
    let mut backoff = Backoff::default();
    loop {
        // A free place first: at the bound, new connections wait in the
        // listen backlog instead of costing a file each.
        let permit = tokio::select! {
            permit = connections.clone().acquire_owned() => match permit {
                Ok(p) => p,
                Err(_) => break,
            },
            signal = &mut stop => {
                eprintln!("{signal}: stopping");
                break;
            }
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            signal = &mut stop => {
                eprintln!("{signal}: stopping");
                break;
            }
        };
        let (stream, peer) = match accepted {
            Ok(a) => {
                backoff.reset();
                a
            }
            // Too many open files, or a client gone mid-accept: wait, longer
            // each time it fails again, and say so once per wait.
            Err(e) => {
                let wait = backoff.next();
                eprintln!("accept failed: {e}; waiting {wait:?}");
                tokio::select! {
                    () = tokio::time::sleep(wait) => {}
                    signal = &mut stop => {
                        eprintln!("{signal}: stopping");
                        break;
                    }
                }
                continue;
            }
        };
        let (handler, in_flight) = (handler.clone(), in_flight.clone());
        let served = AtomicU64::new(0);
        let logged_as = Peer::new(peer);
        let service = hyper::service::service_fn(move |request| {
            let (handler, guard, peer) = (handler.clone(), in_flight.enter(), logged_as.clone());
            // Pipelined requests are answered one by one, in order: the
            // count is this connection's, and its last answer closes it.
            let last = served.fetch_add(1, Ordering::Relaxed).saturating_add(1) >= max_requests;
            async move {
                let mut response = handler(peer, request).await;
                if last {
                    response
                        .headers_mut()
                        .insert(CONNECTION, HeaderValue::from_static("close"));
                }
                // In flight until the answer's body is written too.
                Ok::<_, Infallible>(response.map(|body| Guarded {
                    body,
                    _guard: guard,
                }))
            }
        });
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            // Each request's head (and an idle keep-alive connection's next
            // one) within the read timeout, or the connection is closed.
            .header_read_timeout(read_timeout)
            .max_header_size(CONNECTION_BUFFER)
            .max_buf_size(CONNECTION_BUFFER)
            // hyper reads no more requests while an answer waits to be
            // written, so only a write deadline frees a connection whose
            // client never reads.
            .serve_connection(
                TokioIo::new(WriteDeadline::new(stream, write_timeout)),
                service,
            );
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            if let Err(e) = conn.await {
                if WriteStalled::ended(&e) {
                    eprintln!(
                        "{peer} closed: an answer was not read within {write_timeout:?} \
                         (--write-timeout)"
                    );
                }
            }
            drop(permit);
        });
    }
    drop(listener);
    // Requests in flight are answered; a connection with none (idle, or
    // a head still arriving) is closed, not waited for.
    let drained = async {
        tokio::select! {
            () = graceful.shutdown() => {}
            () = in_flight.none() => {}
        }
    };
    if tokio::time::timeout(DRAIN, drained).await.is_err() {
        eprintln!("some requests were still open after {DRAIN:?}; stopped all the same");
    }
}

/// An answer's body, which holds its request in flight until it is
/// written (or dropped).
pub(crate) struct Guarded<B> {
    body: B,
    _guard: Entered,
}

impl<B: Body + Unpin> Body for Guarded<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// The requests being answered, to wait for at shutdown.
#[derive(Clone, Default)]
pub(crate) struct InFlight(Arc<(std::sync::atomic::AtomicUsize, tokio::sync::Notify)>);

/// One request being answered; its drop says it is done.
pub(crate) struct Entered(InFlight);

impl InFlight {
    pub(crate) fn enter(&self) -> Entered {
        self.0 .0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Entered(self.clone())
    }

    /// Resolves once no request is being answered.
    pub(crate) async fn none(&self) {
        loop {
            let notified = self.0 .1.notified();
            if self.0 .0.load(std::sync::atomic::Ordering::SeqCst) == 0 {
                return;
            }
            notified.await;
        }
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        let (count, done) = &*self.0 .0;
        if count.fetch_sub(1, std::sync::atomic::Ordering::SeqCst) == 1 {
            done.notify_waiters();
        }
    }
}

/// How long to wait after a failed accept: 10 ms, doubling up to a second,
/// back to 10 ms after an accept succeeds.
#[derive(Debug, Default)]
pub(crate) struct Backoff {
    failures: u32,
}

impl Backoff {
    const FIRST: Duration = Duration::from_millis(10);
    const MOST: Duration = Duration::from_secs(1);

    pub(crate) fn next(&mut self) -> Duration {
        let wait = Self::FIRST.saturating_mul(1 << self.failures.min(10));
        self.failures = self.failures.saturating_add(1);
        wait.min(Self::MOST)
    }

    pub(crate) fn reset(&mut self) {
        self.failures = 0;
    }
}

/// Resolves on SIGINT or SIGTERM, naming it. The handlers are installed
/// here, before the future is first polled, so that a signal sent as soon
/// as "listening" is printed is not the default (an abrupt exit).
pub(crate) fn stop_signal() -> impl std::future::Future<Output = &'static str> {
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
