//! `mcp_server_serve_fds`: one connection over descriptors the host already has (a socket, a pair of
//! pipes, a pseudo-terminal), newline-delimited JSON as over stdio.

use std::sync::Arc;

use parking_lot::{Condvar, Mutex};

use crate::fd_stream::{FdStream, owned_pair};

use crate::runtime::mcp_runtime;
use crate::server::{mcp_serve, mcp_server};
use crate::status::mcp_status;

/// Serves `server` over `read_fd` (requests in) and `write_fd` (answers out) on `runtime`, as
/// `mcp_server_serve_stdio` does over stdin and stdout, and writes the running serve to
/// `*serve_out` (`mcp_serve_stop`, `_wait`, `_free` as for stdio). Both may be the same descriptor
/// (a connected socket). The library owns the descriptors from this call on, also when it fails:
/// it sets `O_NONBLOCK` on them (shared with duplicates of the same open file) and closes them when
/// the serve ends. Descriptors the reactor cannot watch (regular files) are `MCP_STATUS_IO`; a
/// negative one is `MCP_STATUS_INVALID_ARGUMENT`. The serve ends when `read_fd` reaches end of file
/// (after in-flight requests are answered) or on `mcp_serve_stop`. Any thread but a callback's.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_serve_fds(
    server: *const mcp_server,
    runtime: *const mcp_runtime,
    read_fd: i32,
    write_fd: i32,
    serve_out: *mut *mut mcp_serve,
) -> mcp_status {
    // Owned at once, so every failure below closes them.
    let fds = owned_pair(read_fd, write_fd);
    ffi_boundary!({
        let Some((reader, writer)) = fds else {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        };
        let server = try_ref!(server).server.clone();
        let rt = try_ref!(runtime).rt.clone();
        try_out!(serve_out);
        // Registration needs the runtime's reactor.
        let _entered = rt.enter();
        let (Ok(reader), Ok(writer)) = (FdStream::new(reader), FdStream::new(writer)) else {
            return mcp_status::MCP_STATUS_IO;
        };
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let done = Arc::new((Mutex::new(None), Condvar::new()));
        let finished = done.clone();
        rt.spawn(async move {
            let result = libmcp::transport::stdio::serve_until(server, reader, writer, async {
                let _ = stop_rx.await;
            })
            .await;
            *finished.0.lock() = Some(result);
            finished.1.notify_all();
        });
        let serve = Box::new(mcp_serve::new(rt.clone(), stop_tx, done));
        unsafe { *serve_out = Box::into_raw(serve) };
        mcp_status::MCP_STATUS_OK
    })
}
