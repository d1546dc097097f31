//! A client connected to a server of the same process over an in-memory pipe: the stdio transport's
//! framing on a pair of tokio duplex streams, through the engine on both sides (both eras), for
//! tests and for a server calling its own tools.

use pyo3::prelude::*;

use crate::client::{Options, builder, wrap};
use crate::server::Server;
use crate::task::{Task, spawn_py};

/// The pipe's buffer in each direction (messages larger than this simply wait for the reader).
const PIPE_BYTES: usize = 1 << 20;

/// Connects a client (`options` as for `connect_stdio`) to `server` in this process; `done(ok,
/// Client)`. The server serves the pipe until the client closes it.
#[pyfunction]
pub fn connect_memory(
    done: Py<PyAny>,
    options: Options,
    server: PyRef<'_, Server>,
) -> PyResult<Task> {
    let b = builder(options)?;
    let server = server.engine().clone();
    spawn_py(
        done,
        async move {
            let (client_io, server_io) = tokio::io::duplex(PIPE_BYTES);
            let (sr, sw) = tokio::io::split(server_io);
            tokio::spawn(async move {
                if let Err(e) = libmcp::transport::stdio::serve(server, sr, sw).await {
                    tracing::debug!(error = %e, "in-memory connection ended");
                }
            });
            let (cr, cw) = tokio::io::split(client_io);
            b.connect_io(cr, cw).await
        },
        wrap,
    )
}
