//! A connection's write deadline (`serve`'s and `proxy`'s): a client that
//! never reads its answers cannot hold a connection, and one that reads,
//! however slowly, is never cut off.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// A connection whose writes must make progress: a write (or flush) that
/// has waited `timeout` for the peer to take a byte fails with
/// [`io::ErrorKind::TimedOut`], and hyper closes the connection. Any
/// progress starts the wait afresh, so a slow reader that keeps reading
/// is never cut off, however long the answer.
pub(crate) struct WriteDeadline<S> {
    inner: S,
    timeout: Duration,
    /// Armed by the first write that waits; reset by one that progresses.
    stalled: Pin<Box<Sleep>>,
    armed: bool,
}

/// The error of a write past its deadline (inside an `io::Error`).
#[derive(Debug)]
pub(crate) struct WriteStalled(Duration);

impl std::fmt::Display for WriteStalled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the peer read nothing for {:?}", self.0)
    }
}

impl std::error::Error for WriteStalled {}

impl WriteStalled {
    /// Whether a connection ended because a write passed its deadline.
    pub(crate) fn ended(e: &hyper::Error) -> bool {
        let mut source = std::error::Error::source(e);
        while let Some(cause) = source {
            if let Some(io) = cause.downcast_ref::<io::Error>() {
                return io.get_ref().is_some_and(|inner| inner.is::<WriteStalled>());
            }
            source = cause.source();
        }
        false
    }
}

impl<S> WriteDeadline<S> {
    pub(crate) fn new(inner: S, timeout: Duration) -> WriteDeadline<S> {
        WriteDeadline {
            inner,
            timeout,
            stalled: Box::pin(tokio::time::sleep(timeout)),
            armed: false,
        }
    }

    /// `poll`, a write's outcome, with the deadline applied: a write that
    /// waits arms it (once), and fails once it has passed.
    fn deadline<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.armed = false;
            return poll;
        }
        if !self.armed {
            self.armed = true;
            let at = tokio::time::Instant::now() + self.timeout;
            self.stalled.as_mut().reset(at);
        }
        match self.stalled.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                WriteStalled(self.timeout),
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for WriteDeadline<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for WriteDeadline<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.inner).poll_write(cx, buf);
        this.deadline(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.inner).poll_write_vectored(cx, bufs);
        this.deadline(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.inner).poll_flush(cx);
        this.deadline(cx, poll)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.inner).poll_shutdown(cx);
        this.deadline(cx, poll)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// A connected pair on 127.0.0.1: ours, behind a write deadline, and
    /// the peer's.
    async fn pair(
        timeout: Duration,
    ) -> (WriteDeadline<tokio::net::TcpStream>, std::net::TcpStream) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let peer = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (ours, _) = listener.accept().await.unwrap();
        (WriteDeadline::new(ours, timeout), peer)
    }

    async fn write(
        ours: &mut WriteDeadline<tokio::net::TcpStream>,
        buf: &[u8],
    ) -> io::Result<usize> {
        std::future::poll_fn(|cx| Pin::new(&mut *ours).poll_write(cx, buf)).await
    }

    #[tokio::test]
    async fn a_write_the_peer_never_takes_fails_once_the_deadline_passes() {
        let (mut ours, _peer) = pair(Duration::from_millis(200)).await;
        let chunk = vec![b'x'; 64 * 1024];
        let written = tokio::time::timeout(Duration::from_secs(20), async {
            loop {
                if let Err(e) = write(&mut ours, &chunk).await {
                    return e;
                }
            }
        })
        .await
        .expect("the kernel's buffers fill, and the deadline ends the write");
        assert_eq!(written.kind(), io::ErrorKind::TimedOut);
        assert!(written.get_ref().is_some_and(|e| e.is::<WriteStalled>()));
    }

    #[tokio::test]
    async fn a_peer_that_keeps_reading_is_never_cut_off() {
        // 24 MiB read at about 10 MB/s in pauses of 50 ms: the writes wait
        // for the reader over and over, far longer than the deadline in
        // all, never as long at once.
        const TOTAL: usize = 24 << 20;
        let (mut ours, mut peer) = pair(Duration::from_secs(1)).await;
        let reader = std::thread::spawn(move || {
            let mut buf = vec![0u8; 512 * 1024];
            let mut read = 0;
            while read < TOTAL {
                std::thread::sleep(Duration::from_millis(50));
                match std::io::Read::read(&mut peer, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => read += n,
                }
            }
            read
        });
        let chunk = vec![b'x'; 64 * 1024];
        let mut sent = 0;
        while sent < TOTAL {
            let n = write(&mut ours, &chunk[..chunk.len().min(TOTAL - sent)])
                .await
                .unwrap_or_else(|e| panic!("cut off after {sent} bytes: {e}"));
            sent += n;
        }
        assert_eq!(
            tokio::task::spawn_blocking(move || reader.join().unwrap())
                .await
                .unwrap(),
            TOTAL
        );
    }
}
