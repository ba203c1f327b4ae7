//! The request log of `serve` and `proxy`: one line a request on standard
//! error, written by a thread of its own so that no request waits on a
//! `write`.
//!
//! A connection's task appends its formatted line to the lines waiting
//! ([`RequestLog::line`]: a lock held for a copy, no system call) and goes
//! on. The writer sleeps until a line arrives (only the first line after a
//! write wakes it), lets the lines of a busy server gather for
//! [`GATHER`], then takes every line waiting and writes them with one
//! `write`, in the order they were handed over: a quiet server's line is
//! written within a millisecond or so, a busy one's with hundreds of others
//! for one wake-up and one system call. No line is dropped or reordered;
//! if standard error blocks (a full pipe nobody reads) the lines waiting
//! grow to [`WAITING`] and then a request's line waits for room, as a
//! direct write would have. [`LogWriter::finish`] waits until every line
//! handed over before it is written, and the servers call it as they stop.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use hyper::StatusCode;
use oauth1_signer::text::escape_controls_into;

use super::conn::Peer;

/// How long the writer lets lines gather after the first wakes it: long
/// enough for a busy server's lines to share a wake-up and a `write`, short
/// enough that a line is on standard error about when its answer is sent.
const GATHER: Duration = Duration::from_millis(1);

/// The most bytes waiting to be written before a line waits for room.
const WAITING: usize = 1 << 20;

/// How long [`LogWriter::finish`] waits for the lines before it: a standard
/// error that blocks (a full pipe nobody reads) cannot hold the exit.
const FINISH: Duration = Duration::from_secs(5);

/// A request's line in the text log, with its newline: `PEER METHOD
/// TARGET STATUS DETAIL`, then each of `extra` as ` name=value`. The
/// method, the target, the detail and the values come from outside, and
/// have their control characters escaped. `serve`'s lines and `proxy`'s
/// (`--log-format text`), built in one `String`.
pub(crate) fn text_line(
    peer: &Peer,
    method: &str,
    target: &str,
    status: StatusCode,
    detail: &str,
    extra: &[(&str, &str)],
) -> String {
    let mut line = String::with_capacity(64 + target.len() + detail.len());
    line.push_str(peer.as_str());
    for text in [method, target] {
        line.push(' ');
        escape_controls_into(&mut line, text.as_bytes(), &[]);
    }
    line.push(' ');
    line.push_str(status.as_str());
    line.push(' ');
    escape_controls_into(&mut line, detail.as_bytes(), &[]);
    for (name, value) in extra {
        line.push(' ');
        line.push_str(name);
        line.push('=');
        escape_controls_into(&mut line, value.as_bytes(), &[]);
    }
    line.push('\n');
    line
}

/// What the servers hand over and the writer takes.
#[derive(Default)]
struct Waiting {
    /// The lines not yet written, in the order they came.
    text: String,
    /// How many flushes have been asked for, and how many the writer has
    /// done (each after writing every line before it was asked).
    asked: u64,
    done: u64,
}

struct Shared {
    waiting: Mutex<Waiting>,
    /// The writer waits here for a line or a flush.
    arrived: Condvar,
    /// A line waits here for room, and [`LogWriter::finish`] for its flush.
    written: Condvar,
}

impl Shared {
    /// The lines waiting, locked. A task that panicked holding the lock
    /// left whole lines (a push is all it does under it): go on with them.
    fn lock(&self) -> MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Where a request's line goes: a handle on the writer, cloned into each
/// connection's task.
#[derive(Clone)]
pub(crate) struct RequestLog {
    shared: Arc<Shared>,
}

/// The thread that writes the lines, for [`finish`](LogWriter::finish).
pub(crate) struct LogWriter {
    shared: Arc<Shared>,
}

/// The request log on standard error: the handle the servers log through,
/// and the writer to finish at stop.
pub(crate) fn start() -> (RequestLog, LogWriter) {
    start_on(std::io::stderr)
}

fn start_on<W: std::io::Write>(out: impl Fn() -> W + Send + 'static) -> (RequestLog, LogWriter) {
    let shared = Arc::new(Shared {
        waiting: Mutex::new(Waiting::default()),
        arrived: Condvar::new(),
        written: Condvar::new(),
    });
    let writer = shared.clone();
    // A thread that cannot start leaves the lines waiting: the servers go
    // on until the room is full, and finish gives up after FINISH.
    let _ = thread::Builder::new()
        .name("oauth1-log".into())
        .spawn(move || write_lines(&writer, out));
    (
        RequestLog {
            shared: shared.clone(),
        },
        LogWriter { shared },
    )
}

impl RequestLog {
    /// Hands a line (with its newline) over to be written.
    pub(crate) fn line(&self, line: String) {
        let shared = &self.shared;
        let mut waiting = shared.lock();
        while waiting.text.len() >= WAITING {
            waiting = shared
                .written
                .wait(waiting)
                .unwrap_or_else(PoisonError::into_inner);
        }
        let first = waiting.text.is_empty();
        waiting.text.push_str(&line);
        drop(waiting);
        // Only the first line after a write wakes the writer; it takes the
        // others with it.
        if first {
            shared.arrived.notify_one();
        }
    }
}

impl LogWriter {
    /// Waits (up to [`FINISH`]) until every line handed over before this
    /// call is written.
    pub(crate) fn finish(self) {
        let shared = &self.shared;
        let mut waiting = shared.lock();
        waiting.asked += 1;
        let mine = waiting.asked;
        shared.arrived.notify_one();
        let deadline = Instant::now() + FINISH;
        while waiting.done < mine {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            waiting = shared
                .written
                .wait_timeout(waiting, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// The writer's loop: wait for a line, let others gather, write them all.
fn write_lines<W: std::io::Write>(shared: &Shared, out: impl Fn() -> W) {
    let mut text = String::new();
    loop {
        let mut waiting = shared.lock();
        while waiting.text.is_empty() && waiting.done == waiting.asked {
            waiting = shared
                .arrived
                .wait(waiting)
                .unwrap_or_else(PoisonError::into_inner);
        }
        if waiting.done == waiting.asked {
            drop(waiting);
            thread::sleep(GATHER);
            waiting = shared.lock();
        }
        // Every line waiting now, and the flushes asked before them.
        std::mem::swap(&mut text, &mut waiting.text);
        let asked = waiting.asked;
        drop(waiting);
        if !text.is_empty() {
            let mut out = out();
            let _ = out.write_all(text.as_bytes());
            let _ = out.flush();
            text.clear();
        }
        shared.lock().done = asked;
        shared.written.notify_all();
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc;

    #[test]
    fn a_text_line_escapes_what_came_from_outside() {
        let peer = Peer::new("127.0.0.1:5000".parse().unwrap());
        assert_eq!(
            text_line(&peer, "GET", "/r?a=1", StatusCode::OK, "valid", &[]),
            "127.0.0.1:5000 GET /r?a=1 200 valid\n"
        );
        // A target, a detail and a token holding an ANSI escape, a line
        // break, a C1 control and DEL: each escaped, so that no line can be
        // forged nor a terminal driven.
        assert_eq!(
            text_line(
                &peer,
                "GET",
                "/r\x1b[2J",
                StatusCode::UNAUTHORIZED,
                "bad\nline \u{9b}",
                &[("consumer_key", "ck"), ("token", "t\u{7f}k")],
            ),
            "127.0.0.1:5000 GET /r\\u{1b}[2J 401 bad\\nline \\u{9b} consumer_key=ck token=t\\u{7f}k\n"
        );
    }

    /// A buffer the writer's thread appends to.
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_line_is_written_in_order_before_finish_returns() {
        let written = Arc::new(Mutex::new(Vec::new()));
        let to = written.clone();
        let (log, writer) = start_on(move || Buffer(to.clone()));
        let lines: Vec<String> = (0..20_000).map(|i| format!("{i:0>100}\n")).collect();
        // From four tasks at once: each one's lines in its order.
        thread::scope(|s| {
            for part in lines.chunks(5_000) {
                let log = log.clone();
                s.spawn(move || part.iter().for_each(|l| log.line(l.clone())));
            }
        });
        writer.finish();
        let written = String::from_utf8(written.lock().unwrap().clone()).unwrap();
        let got: Vec<usize> = written.lines().map(|l| l.parse().unwrap()).collect();
        assert_eq!(got.len(), lines.len(), "every line, none twice");
        for k in 0..4 {
            let part = k * 5_000..(k + 1) * 5_000;
            let mine: Vec<usize> = got.iter().copied().filter(|i| part.contains(i)).collect();
            assert_eq!(
                mine,
                part.collect::<Vec<_>>(),
                "one task's lines in its order"
            );
        }
    }

    /// A standard error that blocks until the test lets it go: the first
    /// write says it has begun, then waits.
    struct Blocked {
        written: Arc<Mutex<Vec<u8>>>,
        begun: mpsc::SyncSender<()>,
        go: Arc<Mutex<mpsc::Receiver<()>>>,
    }

    impl std::io::Write for Blocked {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            let _ = self.begun.try_send(());
            let _ = self.go.lock().unwrap().recv();
            self.written.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_blocked_standard_error_holds_lines_back_within_the_room_and_loses_none() {
        let written = Arc::new(Mutex::new(Vec::new()));
        let (begun, has_begun) = mpsc::sync_channel(1);
        let (go, gone) = mpsc::channel();
        let gone = Arc::new(Mutex::new(gone));
        let to = written.clone();
        let (log, writer) = start_on(move || Blocked {
            written: to.clone(),
            begun: begun.clone(),
            go: gone.clone(),
        });
        // The first line's write blocks.
        log.line("first\n".to_owned());
        has_begun.recv().unwrap();
        // 4 MiB of lines behind it: the room (1 MiB) fills, then the
        // handing over stops there, however long the writer is blocked.
        let line = format!("{}\n", "x".repeat(1023));
        let lines = 4 * 1024;
        let handed = Arc::new(AtomicUsize::new(0));
        let producer = {
            let (log, line, handed) = (log.clone(), line.clone(), handed.clone());
            thread::spawn(move || {
                for _ in 0..lines {
                    log.line(line.clone());
                    handed.fetch_add(1, Ordering::SeqCst);
                }
            })
        };
        let full = || log.shared.lock().text.len() >= WAITING;
        while !full() {
            thread::sleep(Duration::from_millis(1));
        }
        let held = handed.load(Ordering::SeqCst);
        assert!(held <= WAITING / line.len() + 1, "{held} lines handed over");
        assert!(!producer.is_finished());
        // Let every write go: every line is written, in order, none twice.
        for _ in 0..lines + 1 {
            go.send(()).unwrap();
        }
        producer.join().unwrap();
        drop(go);
        writer.finish();
        let written = String::from_utf8(written.lock().unwrap().clone()).unwrap();
        assert!(written.starts_with("first\n"));
        assert_eq!(written.matches(line.as_str()).count(), lines);
        assert_eq!(written.len(), "first\n".len() + lines * line.len());
    }
}
