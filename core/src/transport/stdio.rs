//! The stdio transport, server side: newline-delimited JSON on stdin/stdout. Nothing but protocol
//! messages is ever written to stdout; diagnostics go to stderr. Writes are batched: the writer drains
//! everything queued before it flushes.

use std::time::Instant;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};
use tokio::sync::mpsc;

use super::lines::{Line, LineReader};
use super::{OutKind, Outgoing, Sink};
use crate::error::RpcError;
use crate::jsonrpc;
use crate::server::Server;

/// Serves one connection over a byte stream pair until the reader reaches EOF, then waits (up to the
/// configured grace period) for in-flight requests, ends listen streams, and flushes.
pub async fn serve<R, W>(server: Server, reader: R, writer: W) -> std::io::Result<()>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (sink, rx) = Sink::channel();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let writer_task = tokio::spawn(write_loop(writer, rx, stop_rx));
    let session = server.session(sink.clone());
    let max = server.config().max_message_bytes;
    let mut lines = LineReader::new(BufReader::with_capacity(64 * 1024, reader), max);
    let read_result = loop {
        match lines.next().await {
            Ok(Line::Frame(bytes)) => session.handle_bytes(&bytes),
            Ok(Line::TooLong) => {
                let e =
                    RpcError::invalid_request(format!("message exceeds the limit of {max} bytes"));
                sink.send(Outgoing {
                    kind: OutKind::Error(e.code),
                    bytes: jsonrpc::encode_error(None, &e),
                });
            }
            Ok(Line::Eof) => break Ok(()),
            Err(e) => break Err(e),
        }
    };
    // Stdin closed: listen streams end, other requests get a grace period to answer.
    server.close_subscriptions();
    let deadline = Instant::now() + server.config().shutdown_grace;
    while session.inflight() > 0 && Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    session.close();
    let _ = stop_tx.send(());
    let write_result = writer_task.await.map_err(std::io::Error::other)?;
    read_result.and(write_result)
}

/// Writes queued messages, one per line, flushing only when the queue is empty.
pub(crate) async fn write_loop<W: AsyncWrite + Unpin>(
    writer: W,
    mut rx: mpsc::UnboundedReceiver<Outgoing>,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) -> std::io::Result<()> {
    let mut out = BufWriter::with_capacity(64 * 1024, writer);
    loop {
        let first = tokio::select! {
            biased;
            m = rx.recv() => m,
            _ = &mut stop => {
                // Drain what is already queued, then finish.
                while let Ok(m) = rx.try_recv() {
                    write_one(&mut out, &m).await?;
                }
                break;
            }
        };
        let Some(first) = first else { break };
        write_one(&mut out, &first).await?;
        while let Ok(m) = rx.try_recv() {
            write_one(&mut out, &m).await?;
        }
        out.flush().await?;
    }
    out.flush().await?;
    out.shutdown().await
}

async fn write_one<W: AsyncWrite + Unpin>(
    out: &mut BufWriter<W>,
    m: &Outgoing,
) -> std::io::Result<()> {
    out.write_all(&m.bytes).await?;
    out.write_all(b"\n").await
}
