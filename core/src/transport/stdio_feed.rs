//! A stdio connection whose input the host reads on its own event loop and hands in
//! ([`StdioFeed::feed`]), for hosts that already watch stdin (Node reads it on the JS thread): the
//! requests are framed and dispatched on the host's thread, and no engine thread wakes per read.
//! Output goes as in [`super::stdio::serve`]: written directly by the thread that answers while
//! nothing waits to be written ([`super::stdio_out`]), otherwise by a writer task.

use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::Notify;

use super::lines::{Line, LineSplitter};
use super::stdio_out::{DirectPipe, OutBuf, StdioOut, StdioSink};
use super::stdio_queue::write_queued;
use super::{OutKind, Outgoing, Sink};
use crate::error::RpcError;
use crate::jsonrpc;
use crate::server::{Server, Session};

/// Above this many unwritten bytes the host should stop reading (see [`StdioFeed::feed`]).
pub const HIGH_WATER: usize = 16 << 20;

/// One stdio connection fed by the host. Made inside a tokio runtime (its writer is a task).
pub struct StdioFeed {
    session: Session,
    sink: Sink,
    out: Arc<StdioOut>,
    lines: LineSplitter,
    max: usize,
    grace: Duration,
    /// Signalled by the writer after each write, for [`StdioFeed::writable`].
    wrote: Arc<Notify>,
    writer: Option<tokio::task::JoinHandle<io::Result<()>>>,
    ended: bool,
}

impl StdioFeed {
    /// Serves `server` with output to this process's stdout: written without blocking, and
    /// directly by answering threads, when stdout is a pipe.
    pub fn process_stdout(server: &Server) -> StdioFeed {
        #[cfg(target_os = "linux")]
        if let Some(tx) = super::stdio_pipes::nonblocking_stdout() {
            let tx = Arc::new(tx);
            return StdioFeed::start(server, super::stdio_pipes::SharedPipe(tx.clone()), Some(tx));
        }
        StdioFeed::start(server, tokio::io::stdout(), None)
    }

    /// Serves `server` with output to `writer`.
    pub fn new<W: AsyncWrite + Unpin + Send + 'static>(server: &Server, writer: W) -> StdioFeed {
        StdioFeed::start(server, writer, None)
    }

    fn start<W: AsyncWrite + Unpin + Send + 'static>(
        server: &Server,
        writer: W,
        direct: Option<DirectPipe>,
    ) -> StdioFeed {
        let out = StdioOut::new(direct);
        let sink = Sink::new(Arc::new(StdioSink(out.clone())));
        let wrote = Arc::new(Notify::new());
        let writer = tokio::spawn(write_out(out.clone(), writer, wrote.clone()));
        StdioFeed {
            session: server.session(sink.clone()),
            sink,
            out,
            lines: LineSplitter::new(server.config().max_message_bytes),
            max: server.config().max_message_bytes,
            grace: server.config().shutdown_grace,
            wrote,
            writer: Some(writer),
            ended: false,
        }
    }

    /// Handles the bytes read from stdin: every message they complete is dispatched now, on this
    /// thread (a partial line waits for the rest). Returns how many bytes wait to be written; above
    /// [`HIGH_WATER`] the host should pause reading until [`writable`](Self::writable) resolves (the
    /// peer is not reading what it is sent). Fails with a transport error once output has failed,
    /// and with [`Error::Closed`](crate::Error::Closed) after [`end`](Self::end).
    pub fn feed(&mut self, bytes: &[u8]) -> crate::Result<usize> {
        if self.ended {
            return Err(crate::Error::Closed);
        }
        if let Some(e) = self.out.failure() {
            return Err(e.into());
        }
        let (session, sink, max) = (&self.session, &self.sink, self.max);
        self.lines
            .push(bytes, |line| dispatch(session, sink, max, line));
        Ok(self.out.unwritten())
    }

    /// Stdin closed (or the host stops serving): a final unterminated line is still handled, listen
    /// streams end with their final result, and requests waiting on the client fail (no answer can
    /// arrive). Then [`finish`](Self::finish).
    pub fn end(&mut self) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        let (session, sink, max) = (&self.session, &self.sink, self.max);
        self.lines.finish(|line| dispatch(session, sink, max, line));
        self.session.end_subscriptions();
        self.session.close_answers();
    }

    /// Resolves once fewer than [`HIGH_WATER`] bytes wait to be written (or output failed). The
    /// future does not borrow the connection, so a host may hold it while feeding on.
    pub fn writable(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let (out, wrote) = (self.out.clone(), self.wrote.clone());
        async move {
            loop {
                let notified = wrote.notified();
                tokio::pin!(notified);
                // Registered before the check, so a write between the two is not missed.
                notified.as_mut().enable();
                if out.unwritten() < HIGH_WATER || out.is_closed() {
                    return;
                }
                notified.await;
            }
        }
    }

    /// Ends the input if [`end`](Self::end) was not called, gives in-flight requests the configured
    /// grace period to answer, writes everything, and closes. The output's failure, if any, is the
    /// error.
    pub async fn finish(mut self) -> crate::Result<()> {
        self.end();
        let started = Instant::now();
        while self.session.inflight() > 0 && started.elapsed() < self.grace {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        // Nothing sent from here on is written (as when the connection is gone).
        self.out.close();
        self.session.close();
        let writer = self.writer.take().expect("finish runs once");
        match writer.await {
            Ok(result) => result.map_err(Into::into),
            Err(e) => Err(io::Error::other(e).into()),
        }
    }
}

impl Drop for StdioFeed {
    /// Dropped without [`finish`](StdioFeed::finish): in-flight requests are cancelled and what was
    /// queued is still written.
    fn drop(&mut self) {
        if self.writer.is_some() {
            self.out.close();
            self.session.close();
        }
    }
}

/// Handles one frame of input; an oversized line is answered with -32600.
pub(super) fn dispatch(session: &Session, sink: &Sink, max: usize, line: Line<'_>) {
    match line {
        Line::Frame(bytes) => session.handle_bytes(bytes),
        Line::TooLong => {
            let e = RpcError::invalid_request(format!("message exceeds the limit of {max} bytes"));
            sink.send(Outgoing {
                kind: OutKind::Error(e.code),
                bytes: jsonrpc::encode_error(None, &e),
            });
        }
        Line::Eof => {}
    }
}

/// Writes what is queued whenever woken, until the output is closed and everything is written.
async fn write_out<W: AsyncWrite + Unpin>(
    out: Arc<StdioOut>,
    mut writer: W,
    wrote: Arc<Notify>,
) -> io::Result<()> {
    let mut buf = OutBuf::default();
    loop {
        let failed = out.take(&mut buf);
        // What waits is counted anew by `take`: tell `writable` waiters.
        wrote.notify_waiters();
        if let Some(e) = failed {
            return Err(e);
        }
        if buf.is_empty() {
            if out.is_closed() {
                break;
            }
            out.woken().await;
            continue;
        }
        let written = write_queued(&mut writer, &buf).await;
        let result = match written {
            Ok(0) => Err(io::Error::from(io::ErrorKind::WriteZero)),
            Ok(n) => {
                buf.advance(n);
                Ok(())
            }
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            out.fail_with(e.kind());
            wrote.notify_waiters();
            return Err(e);
        }
    }
    writer.flush().await?;
    writer.shutdown().await
}
