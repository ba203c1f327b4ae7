//! The request log of `serve` and `proxy`: one line a request on standard
//! error, written by a thread of its own so that no request waits on a
//! `write`.
//!
//! A connection's task hands its formatted line over ([`RequestLog::line`])
//! and goes on; the writer takes every line waiting and writes them with
//! one `write`, in the order they were handed over, as soon as it can: a
//! quiet server's line is written at once (the writer is idle, so nothing
//! waits behind it), a busy one's in batches of up to 64 KiB. No line is
//! dropped or reordered; [`LogWriter::finish`] waits until every line
//! handed over before it is written, and the servers call it as they stop.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// The most bytes written at once.
const BATCH: usize = 64 * 1024;

/// How long [`LogWriter::finish`] waits for the lines before it: a standard
/// error that blocks (a full pipe nobody reads) cannot hold the exit.
const FINISH: Duration = Duration::from_secs(5);

enum Message {
    Line(String),
    /// Answered once every line before it is written.
    Flush(mpsc::SyncSender<()>),
}

/// Where a request's line goes: a handle on the writer, cloned into each
/// connection's task.
#[derive(Clone)]
pub(crate) struct RequestLog {
    to_writer: mpsc::Sender<Message>,
}

/// The thread that writes the lines, for [`finish`](LogWriter::finish).
pub(crate) struct LogWriter {
    to_writer: mpsc::Sender<Message>,
}

/// Starts the writer on standard error: the handle to log through, and the
/// writer to finish.
pub(crate) fn start() -> (RequestLog, LogWriter) {
    start_on(std::io::stderr)
}

/// [`start`], writing each batch to what `out` opens (standard error's
/// lock, or a test's buffer).
fn start_on<W: std::io::Write>(out: impl Fn() -> W + Send + 'static) -> (RequestLog, LogWriter) {
    let (to_writer, from_servers) = mpsc::channel();
    // A thread that cannot be started leaves the lines unwritten; the
    // servers go on (`line` ignores a closed channel).
    let _ = thread::Builder::new()
        .name("oauth1-log".into())
        .spawn(move || write_lines(&from_servers, out));
    (
        RequestLog {
            to_writer: to_writer.clone(),
        },
        LogWriter { to_writer },
    )
}

impl RequestLog {
    /// Hands one line (ending with `\n`) to the writer.
    pub(crate) fn line(&self, line: String) {
        let _ = self.to_writer.send(Message::Line(line));
    }
}

impl LogWriter {
    /// Returns once every line handed over before this call is written (or
    /// after [`FINISH`], when standard error does not take them).
    pub(crate) fn finish(self) {
        let (done, wait) = mpsc::sync_channel(1);
        if self.to_writer.send(Message::Flush(done)).is_ok() {
            let _ = wait.recv_timeout(FINISH);
        }
    }
}

/// The writer's loop: waits for a line, takes every other one waiting (up to
/// [`BATCH`] bytes), writes them at once, answers the flushes among them.
fn write_lines<W: std::io::Write>(from_servers: &mpsc::Receiver<Message>, out: impl Fn() -> W) {
    let mut batch = String::new();
    let mut flushed = Vec::new();
    while let Ok(first) = from_servers.recv() {
        let mut next = Some(first);
        while let Some(message) = next.take() {
            match message {
                Message::Line(line) => batch.push_str(&line),
                Message::Flush(done) => flushed.push(done),
            }
            if batch.len() < BATCH {
                next = from_servers.try_recv().ok();
            }
        }
        if !batch.is_empty() {
            // A standard error that cannot be written to loses its lines,
            // as `eprint!` would have (without stopping the server).
            let mut out = out();
            let _ = out.write_all(batch.as_bytes());
            let _ = out.flush();
            batch.clear();
        }
        for done in flushed.drain(..) {
            let _ = done.send(());
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A buffer the writer's thread appends to.
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Shared {
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
        let (log, writer) = start_on(move || Shared(to.clone()));
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
}
