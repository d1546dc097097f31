//! A server of this process served over an in-memory pipe with the stdio transport's framing (one
//! JSON-RPC message a line), whose other end Python writes and reads message by message: for a
//! server run on another library's transport, as the official SDK's low-level
//! `Server.run(read_stream, write_stream, ...)` is (`python/libmcp/lowlevel.py`). One connection
//! per pipe, through the engine as over stdio.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyBytes;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::sync::Mutex;

use crate::server::Server;
use crate::task::{Task, spawn_py};

/// The pipe's buffer in each direction (a larger message waits for the reader).
const PIPE_BYTES: usize = 1 << 20;

/// The Python end of a pipe the engine serves.
#[pyclass(module = "libmcp._native", frozen)]
pub struct Pipe {
    writer: Arc<Mutex<Option<WriteHalf<DuplexStream>>>>,
    reader: Arc<Mutex<BufReader<ReadHalf<DuplexStream>>>>,
}

#[pymethods]
impl Pipe {
    /// Sends one message (JSON text, no newline) to the server; `done(ok, None)`.
    fn send(&self, done: Py<PyAny>, message: Vec<u8>) -> PyResult<Task> {
        let writer = self.writer.clone();
        spawn_py(
            done,
            async move {
                let mut guard = writer.lock().await;
                let Some(w) = guard.as_mut() else {
                    return Err(libmcp::Error::from(std::io::Error::new(
                        std::io::ErrorKind::BrokenPipe,
                        "the pipe to the server is closed",
                    )));
                };
                w.write_all(&message).await?;
                w.write_all(b"\n").await?;
                w.flush().await?;
                Ok(())
            },
            |py, ()| Ok(py.None()),
        )
    }

    /// The server's next message as bytes; `done(ok, bytes | None)`, None once the server has
    /// ended the connection.
    fn recv(&self, done: Py<PyAny>) -> PyResult<Task> {
        let reader = self.reader.clone();
        spawn_py(
            done,
            async move {
                let mut r = reader.lock().await;
                let mut line = Vec::new();
                loop {
                    line.clear();
                    if r.read_until(b'\n', &mut line).await? == 0 {
                        return Ok(None);
                    }
                    while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                        line.pop();
                    }
                    if !line.is_empty() {
                        return Ok(Some(line));
                    }
                }
            },
            |py, line: Option<Vec<u8>>| {
                Ok(match line {
                    Some(l) => PyBytes::new(py, &l).into_any().unbind(),
                    None => py.None(),
                })
            },
        )
    }

    /// Ends the server's input: it finishes what it is answering and ends the connection (then
    /// `recv` reports None).
    fn close(&self, done: Py<PyAny>) -> PyResult<Task> {
        let writer = self.writer.clone();
        spawn_py(
            done,
            async move {
                if let Some(mut w) = writer.lock().await.take() {
                    w.shutdown().await?;
                }
                Ok(())
            },
            |py, ()| Ok(py.None()),
        )
    }
}

/// Serves `server` over a new in-memory pipe and returns its Python end.
#[pyfunction]
pub fn serve_pipe(server: PyRef<'_, Server>) -> PyResult<Pipe> {
    let server = server.engine().clone();
    let (python_io, server_io) = tokio::io::duplex(PIPE_BYTES);
    let (sr, sw) = tokio::io::split(server_io);
    crate::runtime::spawn(async move {
        if let Err(e) = libmcp::transport::stdio::serve(server, sr, sw).await {
            tracing::debug!(error = %e, "a piped connection ended");
        }
    })?;
    let (pr, pw) = tokio::io::split(python_io);
    Ok(Pipe {
        writer: Arc::new(Mutex::new(Some(pw))),
        reader: Arc::new(Mutex::new(BufReader::new(pr))),
    })
}
