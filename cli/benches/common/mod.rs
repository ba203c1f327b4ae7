//! What the CLI's load benches share (`serve.rs`, `proxy.rs`,
//! `axum_layer.rs`): the floor, the load generator, the CPU reader, the
//! report line, and pinning to a core. Each bench takes what it needs.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead as _, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use oauth1_signer::{Credentials, OAuthRequest, Signer};

/// A child process killed when dropped.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Killed {
    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.0.id()
    }
}

/// Starts `command` (stdout piped, stdin and stderr to /dev/null) and
/// reads its base URL from the line it prints when ready
/// (`listening on http://ADDR`), skipping any line before it.
pub fn listening(mut command: Command) -> (Killed, String) {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut out = BufReader::new(child.stdout.take().expect("piped stdout"));
    let child = Killed(child);
    loop {
        let mut line = String::new();
        let read = out
            .read_line(&mut line)
            .expect("the server says where it listens");
        assert!(read > 0, "the server exited before it listened");
        if let Some(base) = line.trim().strip_prefix("listening on ") {
            return (child, base.to_owned());
        }
    }
}

/// The name of the floor's threads (see `cpu_ns`).
pub const FLOOR_THREAD: &str = "floor";

/// The floor: a bare hyper server answering every request 200 with a
/// two-byte body, on the runtime and connection settings of `oauth1 serve`
/// (`cli/src/serve/conn.rs`): a multi-thread runtime of one worker for each
/// core the process may run on, HTTP/1.1 with keep-alive, hyper's timer,
/// the 10-second header read timeout and the 64 KiB header and buffer
/// bounds. No verifying, no logging, no JSON,
/// no write deadline, no connection bound: what serve could reach if
/// answering cost nothing. It runs on threads of its own in this process
/// for as long as the process runs; its base URL is returned.
pub fn floor(port: u16) -> String {
    use hyper::server::conn::http1;
    use hyper_util::rt::{TokioIo, TokioTimer};

    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).expect("the port is free");
    listener.set_nonblocking(true).expect("non-blocking");
    let base = format!("http://{}", listener.local_addr().expect("an address"));
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            // Named, for its CPU time (`cpu_ns`); nothing else differs.
            .thread_name(FLOOR_THREAD)
            .enable_all()
            .build()
            .expect("a runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let service = hyper::service::service_fn(|_request| async {
                    Ok::<_, std::convert::Infallible>(hyper::Response::new(
                        http_body_util::Full::new(hyper::body::Bytes::from_static(b"ok")),
                    ))
                });
                let conn = http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(Duration::from_secs(10))
                    .max_header_size(64 * 1024)
                    .max_buf_size(64 * 1024)
                    .serve_connection(TokioIo::new(stream), service);
                tokio::spawn(conn);
            }
        });
    });
    base
}

/// The floor in a process of its own, so that its CPU is its own and it
/// can be pinned apart from the load generator: this bench started again
/// with `--floor`, which `floor_if_asked` answers.
pub fn floor_process() -> (Killed, String) {
    let mut command = Command::new(std::env::current_exe().expect("the bench's path"));
    command.arg("--floor");
    listening(command)
}

/// In a bench started with `--floor [PORT]` (by `floor_process`, or by
/// `cli/benches/many_core.sh` with the port): serves the floor on 127.0.0.1
/// (at `PORT`, else a free port) and never returns. Otherwise returns at
/// once.
pub fn floor_if_asked() {
    if std::env::args().nth(1).as_deref() == Some("--floor") {
        let port = std::env::args()
            .nth(2)
            .map_or(0, |p| p.parse().expect("--floor PORT"));
        println!("listening on {}", floor(port));
        loop {
            std::thread::park();
        }
    }
}

/// Which load generator sends the requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generator {
    /// reqwest's client (hyper's), as an application would send them.
    Reqwest,
    /// Each request written whole on a kept-alive connection and its answer
    /// read back (status line, `Content-Length`, body), no more: a few
    /// microseconds a request, for a one-core load generator not to be the
    /// limit where reqwest's would be.
    Raw,
    /// As `Raw`, on one thread that never sleeps: non-blocking sockets
    /// polled in turn. On loopback the sender runs the receiver's side of
    /// TCP, and waking a sleeping receiver (an inter-processor interrupt,
    /// a VM exit under KVM) is charged to the sender: a server answering a
    /// load generator that sleeps pays for waking it, the more the more
    /// idle the generator (a slower service, a lighter generator). A
    /// generator that spins is never asleep, so no service pays that, as
    /// none does for a client across a network. Its CPU is always a core;
    /// [`spin_idle`] says how often it found nothing to read.
    Spin,
}

impl Generator {
    /// `--raw` among the arguments: `Raw`; else `Reqwest`.
    pub fn from_args() -> Generator {
        if std::env::args().any(|a| a == "--spin") {
            Generator::Spin
        } else if std::env::args().any(|a| a == "--raw") {
            Generator::Raw
        } else {
            Generator::Reqwest
        }
    }

    /// Its name in the lines printed.
    pub fn name(self) -> &'static str {
        match self {
            Generator::Reqwest => "reqwest",
            Generator::Raw => "raw HTTP/1.1 (--raw)",
            Generator::Spin => "raw HTTP/1.1 on one spinning thread (--spin)",
        }
    }
}

/// `n` GET URLs on `base` and their Authorization headers, each signed
/// with `credentials` and a fresh nonce.
fn signed(base: &str, n: usize, credentials: &Credentials) -> (Vec<String>, Vec<String>) {
    let signer = Signer::new(credentials.clone());
    let urls: Vec<String> = (0..n)
        .map(|i| format!("{base}/1.1/statuses/show.json?id={i}&include_entities=true"))
        .collect();
    let headers: Vec<String> = urls
        .iter()
        .map(|u| {
            signer
                .authorization_header(&OAuthRequest::get(u))
                .expect("signs")
        })
        .collect();
    (urls, headers)
}

/// Latencies of `n` GET requests signed with `credentials` (each with a
/// fresh nonce, all before the clock starts), `concurrency` at a time over
/// kept-alive connections, sent by `generator`, and the wall time. Every
/// answer must be 200.
pub fn load(
    base: &str,
    n: usize,
    concurrency: usize,
    credentials: &Credentials,
    generator: Generator,
) -> (Vec<Duration>, Duration) {
    let (urls, headers) = signed(base, n, credentials);
    match generator {
        Generator::Raw => return raw(base, urls, headers, concurrency),
        Generator::Spin => return spin(base, urls, headers, concurrency),
        Generator::Reqwest => {}
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async move {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(concurrency)
            .build()
            .expect("a client");
        let work = Arc::new((urls, headers));
        let next = Arc::new(AtomicUsize::new(0));
        let start = Instant::now();
        let mut tasks = Vec::new();
        for _ in 0..concurrency {
            let (client, work, next) = (client.clone(), work.clone(), next.clone());
            tasks.push(tokio::spawn(async move {
                let mut times = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(url) = work.0.get(i) else { break };
                    let t = Instant::now();
                    let r = client
                        .get(url)
                        .header("Authorization", &work.1[i])
                        .send()
                        .await
                        .expect("an answer");
                    let status = r.status();
                    let _ = r.bytes().await;
                    assert_eq!(status.as_u16(), 200, "request {i} to {url}");
                    times.push(t.elapsed());
                }
                times
            }));
        }
        let mut all = Vec::with_capacity(n);
        for t in tasks {
            all.extend(t.await.expect("a worker"));
        }
        let wall = start.elapsed();
        all.sort();
        (all, wall)
    })
}

/// The host of `base` and each request whole, as it goes on the wire.
fn wire(base: &str, urls: &[String], headers: &[String]) -> (String, Vec<Vec<u8>>) {
    let host = base
        .strip_prefix("http://")
        .expect("an http:// base")
        .to_owned();
    let requests = urls
        .iter()
        .zip(headers)
        .map(|(url, header)| {
            let target = &url[base.len()..];
            format!("GET {target} HTTP/1.1\r\nhost: {host}\r\nauthorization: {header}\r\n\r\n")
                .into_bytes()
        })
        .collect();
    (host, requests)
}

/// An answer's head read from the start of `buf`: where its body starts,
/// the body's length (`Content-Length`), and whether the server closes the
/// connection after it (`oauth1 serve`'s and the proxy's 1000th answer).
/// `None` until the head is whole; a panic for anything but a 200.
fn answer_head(buf: &[u8], i: usize) -> Option<(usize, usize, bool)> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&buf[..end]).expect("an ASCII head");
    assert!(
        head.starts_with("HTTP/1.1 200 "),
        "request {i}: {}",
        head.lines().next().unwrap_or("")
    );
    let header = |wanted: &str| {
        head.lines().find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case(wanted).then(|| value.trim())
        })
    };
    let length = header("content-length")
        .and_then(|v| v.parse::<usize>().ok())
        .expect("a Content-Length");
    let close = header("connection").is_some_and(|v| v.eq_ignore_ascii_case("close"));
    Some((end + 4, length, close))
}

/// `load` by `Generator::Raw`: on a two-worker runtime as reqwest's, one
/// connection per request in flight.
fn raw(
    base: &str,
    urls: Vec<String>,
    headers: Vec<String>,
    concurrency: usize,
) -> (Vec<Duration>, Duration) {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    let (host, requests) = wire(base, &urls, &headers);
    let n = requests.len();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    rt.block_on(async move {
        let work = Arc::new(requests);
        let next = Arc::new(AtomicUsize::new(0));
        let mut streams = Vec::new();
        for _ in 0..concurrency {
            let stream = tokio::net::TcpStream::connect(&host)
                .await
                .expect("connects");
            stream.set_nodelay(true).expect("no delay");
            streams.push(stream);
        }
        let start = Instant::now();
        let mut tasks = Vec::new();
        for mut stream in streams {
            let (work, next, host) = (work.clone(), next.clone(), host.clone());
            tasks.push(tokio::spawn(async move {
                let mut times = Vec::new();
                let mut buf = vec![0_u8; 16 * 1024];
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(request) = work.get(i) else { break };
                    let t = Instant::now();
                    stream.write_all(request).await.expect("sends");
                    // The head, then the rest of a Content-Length body.
                    let mut have = 0;
                    let (head_end, length, close) = loop {
                        let read = stream.read(&mut buf[have..]).await.expect("an answer");
                        assert!(read > 0, "request {i}: the connection closed");
                        have += read;
                        if let Some(head) = answer_head(&buf[..have], i) {
                            break head;
                        }
                        assert!(have < buf.len(), "request {i}: a head over 16 KiB");
                    };
                    while have < head_end + length {
                        let read = stream.read(&mut buf[have..]).await.expect("the body");
                        assert!(read > 0, "request {i}: the connection closed");
                        have += read;
                    }
                    times.push(t.elapsed());
                    if close {
                        stream = tokio::net::TcpStream::connect(host.as_str())
                            .await
                            .expect("connects");
                        stream.set_nodelay(true).expect("no delay");
                    }
                }
                times
            }));
        }
        let mut all = Vec::with_capacity(n);
        for t in tasks {
            all.extend(t.await.expect("a worker"));
        }
        let wall = start.elapsed();
        all.sort();
        (all, wall)
    })
}

/// The share of the last `Generator::Spin` run's reads that found nothing
/// to read (as `f64` bits): near 0, every answer was waiting when its
/// connection's turn came, and the generator was the limit; near 1, it
/// waited on the service.
static SPIN_IDLE: AtomicU64 = AtomicU64::new(0);

/// The share of the last spinning run's reads that found nothing.
pub fn spin_idle() -> f64 {
    f64::from_bits(SPIN_IDLE.load(Ordering::Relaxed))
}

/// `load` by `Generator::Spin`: one thread, non-blocking connections, one
/// per request in flight, polled in turn and never waited on.
fn spin(
    base: &str,
    urls: Vec<String>,
    headers: Vec<String>,
    concurrency: usize,
) -> (Vec<Duration>, Duration) {
    use std::io::{ErrorKind, Read as _, Write as _};
    use std::net::TcpStream;

    struct Conn {
        stream: TcpStream,
        /// The request in flight, when one is.
        at: Option<usize>,
        sent: usize,
        have: usize,
        head: Option<(usize, usize, bool)>,
        started: Instant,
    }
    let connect = |host: &str| {
        let stream = TcpStream::connect(host).expect("connects");
        stream.set_nodelay(true).expect("no delay");
        stream.set_nonblocking(true).expect("non-blocking");
        stream
    };
    let (host, requests) = wire(base, &urls, &headers);
    let n = requests.len();
    let mut conns: Vec<Conn> = (0..concurrency)
        .map(|_| Conn {
            stream: connect(&host),
            at: None,
            sent: 0,
            have: 0,
            head: None,
            started: Instant::now(),
        })
        .collect();
    let mut buf = vec![0_u8; 16 * 1024];
    let mut bufs: Vec<Vec<u8>> = vec![Vec::new(); concurrency];
    let (mut next, mut times) = (0, Vec::with_capacity(n));
    let (mut reads, mut empty) = (0_u64, 0_u64);
    let start = Instant::now();
    while times.len() < n {
        for (conn, kept) in conns.iter_mut().zip(&mut bufs) {
            let i = match conn.at {
                Some(i) => i,
                None if next < n => {
                    (conn.at, conn.sent, conn.have, conn.head) = (Some(next), 0, 0, None);
                    conn.started = Instant::now();
                    kept.clear();
                    next += 1;
                    next - 1
                }
                None => continue,
            };
            let request = &requests[i];
            if conn.sent < request.len() {
                match conn.stream.write(&request[conn.sent..]) {
                    Ok(k) => conn.sent += k,
                    Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                    Err(e) => panic!("request {i}: {e}"),
                }
                if conn.sent < request.len() {
                    continue;
                }
            }
            reads += 1;
            match conn.stream.read(&mut buf) {
                Ok(0) => panic!("request {i}: the connection closed"),
                Ok(k) => {
                    kept.extend_from_slice(&buf[..k]);
                    conn.have += k;
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    empty += 1;
                    continue;
                }
                Err(e) => panic!("request {i}: {e}"),
            }
            if conn.head.is_none() {
                conn.head = answer_head(kept, i);
            }
            match conn.head {
                Some((head_end, length, close)) if conn.have >= head_end + length => {
                    times.push(conn.started.elapsed());
                    conn.at = None;
                    if close {
                        conn.stream = connect(&host);
                    }
                }
                _ => {}
            }
        }
    }
    let wall = start.elapsed();
    SPIN_IDLE.store((empty as f64 / reads as f64).to_bits(), Ordering::Relaxed);
    times.sort();
    (times, wall)
}

/// A process's resident memory in KiB (Linux), to see that it stays flat.
pub fn rss_kib(child: &Killed) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.0.id())).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The CPU time, in nanoseconds, that the threads of process `pid` have
/// run (Linux: `/proc/PID/task/*/schedstat`), only those named `name` if
/// given: what a server spent, whatever else shared the cores meanwhile.
pub fn cpu_ns(pid: u32, name: Option<&str>) -> Option<u64> {
    let mut total = 0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let dir = task.ok()?.path();
        if let Some(name) = name {
            let comm = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
            if comm.trim() != name {
                continue;
            }
        }
        let stat = std::fs::read_to_string(dir.join("schedstat")).unwrap_or_default();
        total += stat
            .split_whitespace()
            .next()
            .and_then(|ns| ns.parse::<u64>().ok())
            .unwrap_or(0);
    }
    Some(total)
}

/// A run: each request's latency (sorted) and the wall time, and the
/// server's CPU time a request in microseconds, if read.
pub type Run = ((Vec<Duration>, Duration), Option<f64>);

/// `load`, and the server's CPU time a request in microseconds (read with
/// `cpu`) while it ran.
pub fn timed_load(
    base: &str,
    n: usize,
    concurrency: usize,
    credentials: &Credentials,
    generator: Generator,
    cpu: impl Fn() -> Option<u64>,
) -> Run {
    let before = cpu();
    let run = load(base, n, concurrency, credentials, generator);
    let per_request = match (before, cpu()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a) as f64 / 1e3 / n as f64),
        _ => None,
    };
    (run, per_request)
}

/// One server's run: requests a second, p50 and p99 in milliseconds, and
/// the server's CPU a request in microseconds (if read).
#[derive(Clone, Copy, Debug)]
pub struct Figures {
    pub rate: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub cpu_us: Option<f64>,
}

/// The figures of one server's run, and the line printed for it.
pub fn report(name: &str, ((times, wall), cpu): Run) -> Figures {
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q) as usize];
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let rate = times.len() as f64 / wall.as_secs_f64();
    let shown = cpu.map_or_else(|| "     -".to_owned(), |us| format!("{us:>6.1}"));
    println!(
        "{name:<28} {rate:>8.0} req/s   server CPU {shown} µs/req   p50 {:>6.2} ms   p90 {:>6.2} ms   p99 {:>6.2} ms   max {:>7.2} ms",
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(at(1.0)),
    );
    Figures {
        rate,
        p50_ms: ms(at(0.5)),
        p99_ms: ms(at(0.99)),
        cpu_us: cpu,
    }
}

/// The median of some figures (NaN for none).
pub fn median(mut figures: Vec<f64>) -> f64 {
    figures.sort_by(f64::total_cmp);
    figures.get(figures.len() / 2).copied().unwrap_or(f64::NAN)
}

/// `--shared-cores` among the arguments: the servers and the load generator
/// are not pinned apart, so that each server's runtime has a worker for
/// every core and the load generator runs on the same cores. On a machine
/// of two cores this gives the two-server-core figures it can give (with
/// the load generator's CPU taken from those cores); on a larger machine
/// `../shared/bench/` pins a server to 4 or 8 cores of its own instead.
pub fn shared_cores() -> bool {
    std::env::args().any(|a| a == "--shared-cores")
}

/// How the servers were placed, for the line a bench prints first: `apart`
/// when they were pinned away from the load generator.
pub fn placement(pinned: bool, apart: &'static str) -> &'static str {
    if pinned {
        apart
    } else if shared_cores() {
        "servers and load generator sharing every core (--shared-cores)"
    } else {
        "not pinned"
    }
}

/// Pins every thread of this process to the cores `cpus` (`taskset`'s
/// list, `"0"` or `"1"`); the processes it starts afterwards inherit them.
/// False (and a line saying so) when `taskset` cannot.
pub fn pin_self(cpus: &str) -> bool {
    let pinned = Command::new("taskset")
        .args(["-a", "-p", "-c", cpus, &std::process::id().to_string()])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !pinned {
        println!("(could not pin this process to CPU {cpus}: taskset missing or refused)");
    }
    pinned
}

/// The machine's cores (online, whatever this process is pinned to), and
/// its load average (`/proc/loadavg`'s first three).
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cores = cpuinfo
        .lines()
        .filter(|l| l.starts_with("processor"))
        .count();
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load: Vec<&str> = load.split_whitespace().take(3).collect();
    format!("{cores} cores, load average {}", load.join(" "))
}

/// The CPU time this process has used, in seconds, its threads that have
/// exited included (`/proc/self/stat`'s utime and stime, in clock ticks):
/// the load generator's runtime lives only as long as each `load`.
fn process_cpu_s() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // After the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are the stat's fields 14 and 15 (11 and 12 after the name).
    (ticks(11) + ticks(12)) as f64 / clock_ticks()
}

/// Clock ticks a second (`getconf CLK_TCK`; 100 if it cannot say).
fn clock_ticks() -> f64 {
    static TICKS: std::sync::OnceLock<f64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        Command::new("getconf")
            .arg("CLK_TCK")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(100.0)
    })
}

/// The CPU this process used while `f` ran, as a share of one core over
/// the wall time (1.0: one core busy throughout), and what `f` gave. It
/// includes signing the requests before the clock starts (a few per cent
/// of a run).
pub fn busy<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let (t, before) = (Instant::now(), process_cpu_s());
    let out = f();
    ((process_cpu_s() - before) / t.elapsed().as_secs_f64(), out)
}
