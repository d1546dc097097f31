//! The stdio transport, server side: newline-delimited JSON on stdin/stdout. Nothing but protocol
//! messages is ever written to stdout; diagnostics are `tracing` events (the library prints nothing).
//!
//! One task reads, dispatches and writes: a synchronous handler's answer is queued and written by the
//! same task on its next turn, with no hop to another thread. Everything queued is written with one
//! `write` call, and reading goes on while a write waits, so a peer that writes a lot before it reads
//! cannot deadlock the connection.

use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use super::lines::{Line, LineReader};
use super::{OutKind, Outgoing, Sink};
use crate::error::RpcError;
use crate::jsonrpc;
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
    mut writer: W,
    shutdown: S,
) -> crate::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
    S: std::future::Future<Output = ()>,
{
    tokio::pin!(shutdown);
    let (sink, mut rx) = Sink::channel();
    let session = server.session(sink.clone());
    let max = server.config().max_message_bytes;
    let mut lines = LineReader::new(BufReader::with_capacity(64 * 1024, reader), max);
    let mut out = OutBuf::default();
    let mut eof_at: Option<Instant> = None;
    let mut read_error = None;
    loop {
        // Read before the queue is drained: once nothing is in flight, every answer is queued
        // (Session::inflight counts answers on their way), so the drain below takes them all.
        let drained = eof_at.is_some() && session.inflight() == 0;
        out.take_queued(&mut rx);
        if let Some(at) = eof_at
            && out.is_empty()
            && (drained || at.elapsed() >= server.config().shutdown_grace)
        {
            break;
        }
        tokio::select! {
            biased;
            written = writer.write(out.pending()), if !out.is_empty() => {
                match written {
                    Ok(0) => return Err(std::io::Error::from(std::io::ErrorKind::WriteZero).into()),
                    Ok(n) => out.advance(n),
                    Err(e) => return Err(e.into()),
                }
            }
            msg = rx.recv() => {
                if let Some(m) = msg {
                    out.push(&m);
                }
            }
            // Reading pauses while the peer is not reading what we write (backpressure).
            line = lines.next(), if eof_at.is_none() && out.pending().len() < HIGH_WATER => match line {
                Ok(Line::Frame(bytes)) => session.handle_bytes(bytes),
                Ok(Line::TooLong) => {
                    let e = RpcError::invalid_request(format!("message exceeds the limit of {max} bytes"));
                    out.push(&Outgoing { kind: OutKind::Error(e.code), bytes: jsonrpc::encode_error(None, &e) });
                }
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
    }
    session.close();
    writer.flush().await?;
    writer.shutdown().await?;
    read_error.map_or(Ok(()), |e| Err(e.into()))
}

/// Above this many unwritten bytes the server stops reading new requests.
const HIGH_WATER: usize = 16 << 20;

/// Serialised messages waiting for the writer, newline-terminated, written from `pos` on.
#[derive(Default)]
struct OutBuf {
    bytes: Vec<u8>,
    pos: usize,
}

impl OutBuf {
    fn push(&mut self, m: &Outgoing) {
        // Written bytes at the front are dropped before the buffer grows, so a writer that never quite
        // catches up does not make the buffer hold everything ever written.
        if self.pos > 0 && self.pos >= self.bytes.len() / 2 {
            self.bytes.drain(..self.pos);
            self.pos = 0;
        }
        self.bytes.extend_from_slice(&m.bytes);
        self.bytes.push(b'\n');
    }

    fn take_queued(&mut self, rx: &mut mpsc::UnboundedReceiver<Outgoing>) {
        while let Ok(m) = rx.try_recv() {
            self.push(&m);
        }
    }

    fn is_empty(&self) -> bool {
        self.pos == self.bytes.len()
    }

    fn pending(&self) -> &[u8] {
        &self.bytes[self.pos..]
    }

    fn advance(&mut self, n: usize) {
        self.pos += n;
        if self.pos == self.bytes.len() {
            self.bytes.clear();
            self.pos = 0;
            if self.bytes.capacity() > 1 << 20 {
                self.bytes.shrink_to(1 << 20);
            }
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
    let mut out = OutBuf::default();
    loop {
        let first = tokio::select! {
            biased;
            m = rx.recv() => m,
            _ = &mut stop => {
                out.take_queued(&mut rx);
                writer.write_all(out.pending()).await?;
                break;
            }
        };
        let Some(first) = first else { break };
        out.push(&first);
        out.take_queued(&mut rx);
        writer.write_all(out.pending()).await?;
        out.advance(out.pending().len());
    }
    writer.flush().await?;
    writer.shutdown().await
}

/// Non-blocking handles on this process's stdin and stdout, each when it is a pipe (the usual case
/// under an MCP client): reopened through `/proc/self/fd`, so the flag does not leak to the pipes' other
/// users. Tokio's own stdin/stdout go through a blocking thread pool, a thread hop per read and write,
/// and a read of stdin there cannot be interrupted: a runtime would wait for it at shutdown until the
/// peer writes or closes. Each end is chosen on its own, so a pipe on stdin is read without blocking
/// also when stdout is a terminal or a file.
#[cfg(target_os = "linux")]
pub(crate) fn nonblocking_stdin() -> Option<tokio::net::unix::pipe::Receiver> {
    // Fails (and we fall back) when the descriptor is not a pipe.
    tokio::net::unix::pipe::OpenOptions::new()
        .open_receiver("/proc/self/fd/0")
        .ok()
}

/// The stdout half of [`nonblocking_stdin`].
#[cfg(target_os = "linux")]
pub(crate) fn nonblocking_stdout() -> Option<tokio::net::unix::pipe::Sender> {
    tokio::net::unix::pipe::OpenOptions::new()
        .open_sender("/proc/self/fd/1")
        .ok()
}

/// Serves this process's stdin and stdout until stdin closes or `shutdown` resolves.
pub async fn serve_process_stdio<S: std::future::Future<Output = ()>>(
    server: Server,
    shutdown: S,
) -> crate::Result<()> {
    #[cfg(target_os = "linux")]
    match (nonblocking_stdin(), nonblocking_stdout()) {
        (Some(rx), Some(tx)) => return serve_until(server, rx, tx, shutdown).await,
        (Some(rx), None) => return serve_until(server, rx, tokio::io::stdout(), shutdown).await,
        (None, Some(tx)) => return serve_until(server, tokio::io::stdin(), tx, shutdown).await,
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
