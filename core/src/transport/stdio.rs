//! The stdio transport, server side: newline-delimited JSON on stdin/stdout. Nothing but protocol
//! messages is ever written to stdout; diagnostics are `tracing` events (the library prints nothing).
//!
//! One task reads, dispatches and writes: a synchronous handler's answer is written by the same task
//! as it dispatches, with no hop to another thread. An answer given on another thread is written by
//! that thread when stdout is a pipe with nothing waiting (`stdio_out.rs`); otherwise it is
//! queued and the task writes everything queued with one `write` call. Reading goes on while a write
//! waits, so a peer that writes a lot before it reads cannot deadlock the connection.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use super::lines::{Line, LineReader};
use super::stdio_feed::dispatch;
pub use super::stdio_feed::{HIGH_WATER, StdioFeed};
pub use super::stdio_out::batched;
use super::stdio_out::{DirectPipe, OutBuf, StdioOut, StdioSink};
pub use super::stdio_pipes::widen_process_pipes;
#[cfg(target_os = "linux")]
use super::stdio_pipes::{SharedPipe, nonblocking_stdin, nonblocking_stdout};
use super::stdio_queue::write_queued;
use super::{Outgoing, Sink};
use crate::server::Server;

/// Serves one connection over a byte stream pair until the reader reaches EOF, then waits (up to the
/// configured grace period) for in-flight requests, ends listen streams, and flushes.
pub async fn serve<R, W>(server: Server, reader: R, writer: W) -> crate::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    serve_until(server, reader, writer, std::future::pending()).await
}

/// Like [`serve`], and `shutdown` resolving acts like EOF: no new requests are read, listen streams
/// end with their final result, in-flight requests get the grace period to answer, then it returns.
pub async fn serve_until<R, W, S>(
    server: Server,
    reader: R,
    writer: W,
    shutdown: S,
) -> crate::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
    S: std::future::Future<Output = ()>,
{
    serve_with(server, reader, writer, None, shutdown).await
}

/// The serving loop. With `direct` (the pipe `writer` writes to), threads that answer write to it
/// themselves while nothing waits to be written (see [`super::stdio_out`]).
async fn serve_with(
    server: Server,
    reader: impl AsyncRead + Unpin,
    mut writer: impl AsyncWrite + Unpin,
    direct: Option<DirectPipe>,
    shutdown: impl std::future::Future<Output = ()>,
) -> crate::Result<()> {
    tokio::pin!(shutdown);
    let out = StdioOut::new(direct);
    let sink = Sink::new(Arc::new(StdioSink(out.clone())));
    let session = server.session(sink.clone());
    let max = server.config().max_message_bytes;
    let mut lines = LineReader::new(BufReader::with_capacity(64 * 1024, reader), max);
    let mut buf = OutBuf::default();
    let mut eof_at: Option<Instant> = None;
    let mut read_error = None;
    let result: crate::Result<()> = loop {
        // Read before the queue is taken: once nothing is in flight, every answer is written or
        // queued (Session::inflight counts answers on their way), so the take below has them all.
        let drained = eof_at.is_some() && session.inflight() == 0;
        if let Some(e) = out.take(&mut buf) {
            break Err(e.into());
        }
        if let Some(at) = eof_at
            && buf.is_empty()
            && (drained || at.elapsed() >= server.config().shutdown_grace)
        {
            break Ok(());
        }
        tokio::select! {
            biased;
            written = write_queued(&mut writer, &buf), if !buf.is_empty() => {
                match written {
                    Ok(0) => break Err(std::io::Error::from(std::io::ErrorKind::WriteZero).into()),
                    Ok(n) => buf.advance(n),
                    Err(e) => break Err(e.into()),
                }
            }
            () = out.woken() => {}
            // Reading pauses while the peer is not reading what we write (backpressure).
            line = lines.next(), if eof_at.is_none() && buf.len() < HIGH_WATER => match line {
                Ok(line @ (Line::Frame(_) | Line::TooLong)) => dispatch(&session, &sink, max, line),
                Ok(Line::Eof) | Err(_) => {
                    if let Err(e) = line {
                        read_error = Some(e);
                    }
                    // Stdin closed: listen streams end, requests waiting on the client fail (no
                    // answer can arrive), the others get a grace period to answer.
                    session.end_subscriptions();
                    session.close_answers();
                    eof_at = Some(Instant::now());
                }
            },
            _ = &mut shutdown, if eof_at.is_none() => {
                session.end_subscriptions();
                session.close_answers();
                eof_at = Some(Instant::now());
            }
            _ = tokio::time::sleep(Duration::from_millis(10)), if eof_at.is_some() => {}
        }
    };
    // Nothing sent from here on is written (as when the connection is gone).
    out.close();
    session.close();
    result?;
    writer.flush().await?;
    writer.shutdown().await?;
    read_error.map_or(Ok(()), |e| Err(e.into()))
}

/// Serialised messages waiting for the client-side writer, newline-terminated.
#[derive(Default)]
struct ClientBuf {
    bytes: Vec<u8>,
}

impl ClientBuf {
    /// Forgets what was written, keeping at most 1 MiB of capacity for the next batch.
    fn clear(&mut self) {
        self.bytes.clear();
        if self.bytes.capacity() > 1 << 20 {
            self.bytes.shrink_to(1 << 20);
        }
    }

    fn push(&mut self, m: &Outgoing) {
        self.bytes.extend_from_slice(&m.bytes);
        self.bytes.push(b'\n');
    }

    fn take_queued(&mut self, rx: &mut mpsc::UnboundedReceiver<Outgoing>) {
        while let Ok(m) = rx.try_recv() {
            self.push(&m);
        }
    }
}

/// Writes queued messages, one per line, each batch in as few writes as possible (client side, where
/// many tasks send).
pub(crate) async fn write_loop<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut rx: mpsc::UnboundedReceiver<Outgoing>,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) -> std::io::Result<()> {
    let mut out = ClientBuf::default();
    loop {
        let first = tokio::select! {
            biased;
            m = rx.recv() => m,
            _ = &mut stop => {
                out.take_queued(&mut rx);
                writer.write_all(&out.bytes).await?;
                break;
            }
        };
        let Some(first) = first else { break };
        out.push(&first);
        out.take_queued(&mut rx);
        writer.write_all(&out.bytes).await?;
        out.clear();
    }
    writer.flush().await?;
    writer.shutdown().await
}

/// Serves this process's stdin and stdout until stdin closes or `shutdown` resolves.
pub async fn serve_process_stdio<S: std::future::Future<Output = ()>>(
    server: Server,
    shutdown: S,
) -> crate::Result<()> {
    #[cfg(target_os = "linux")]
    match (nonblocking_stdin(), nonblocking_stdout()) {
        (Some(rx), Some(tx)) => {
            let tx = Arc::new(tx);
            return serve_with(server, rx, SharedPipe(tx.clone()), Some(tx), shutdown).await;
        }
        (Some(rx), None) => return serve_until(server, rx, tokio::io::stdout(), shutdown).await,
        (None, Some(tx)) => {
            let tx = Arc::new(tx);
            let stdin = tokio::io::stdin();
            return serve_with(server, stdin, SharedPipe(tx.clone()), Some(tx), shutdown).await;
        }
        (None, None) => {}
    }
    serve_until(server, tokio::io::stdin(), tokio::io::stdout(), shutdown).await
}

/// Serving on this process's own stdin and stdout. These methods live with the transport, not the
/// engine, so that `server` does not depend on its transports.
impl Server {
    /// Serves this process's stdin and stdout until stdin closes.
    pub async fn serve_stdio(self) -> crate::Result<()> {
        serve_process_stdio(self, std::future::pending()).await
    }

    /// Serves this process's stdin and stdout until stdin closes or `shutdown` resolves; either way
    /// in-flight requests are answered first (within the configured grace period).
    pub async fn serve_stdio_until(
        self,
        shutdown: impl std::future::Future<Output = ()>,
    ) -> crate::Result<()> {
        serve_process_stdio(self, shutdown).await
    }
}

#[cfg(all(test, target_os = "linux"))]
mod direct_tests;
