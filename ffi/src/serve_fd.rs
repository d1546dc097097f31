//! `mcp_server_serve_fds`: one connection over descriptors the host already has (a socket, a pair of
//! pipes, a pseudo-terminal), newline-delimited JSON as over stdio.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use parking_lot::{Condvar, Mutex};
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::runtime::mcp_runtime;
use crate::server::{mcp_serve, mcp_server};
use crate::status::mcp_status;

/// A descriptor read and written without blocking, through the runtime's reactor.
struct FdStream(AsyncFd<OwnedFd>);

impl FdStream {
    /// Takes `fd`, makes it non-blocking and registers it; fails for descriptors epoll cannot watch
    /// (regular files).
    fn new(fd: OwnedFd) -> io::Result<FdStream> {
        let raw = fd.as_raw_fd();
        unsafe {
            let flags = libc::fcntl(raw, libc::F_GETFL);
            if flags < 0 || libc::fcntl(raw, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        // SAFETY: the OwnedFd moves into the AsyncFd, which closes it when dropped, and its
        // as_raw_fd never changes.
        unsafe { AsyncFd::register(fd) }
            .map(FdStream)
            .map_err(|e| e.into_parts().1)
    }
}

impl AsyncRead for FdStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            let mut guard = ready!(self.0.poll_read_ready(cx))?;
            let unfilled = buf.initialize_unfilled();
            match guard.try_io(|fd| {
                let n = unsafe {
                    libc::read(fd.as_raw_fd(), unfilled.as_mut_ptr().cast(), unfilled.len())
                };
                if n < 0 {
                    Err(io::Error::last_os_error())
                } else {
                    Ok(n as usize)
                }
            }) {
                Ok(Ok(n)) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                Ok(Err(e)) => return Poll::Ready(Err(e)),
                Err(_would_block) => continue,
            }
        }
    }
}

impl AsyncWrite for FdStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            let mut guard = ready!(self.0.poll_write_ready(cx))?;
            match guard.try_io(|fd| {
                // Runtime threads block SIGPIPE, so a reader that left is EPIPE here.
                let n = unsafe { libc::write(fd.as_raw_fd(), data.as_ptr().cast(), data.len()) };
                if n < 0 {
                    Err(io::Error::last_os_error())
                } else {
                    Ok(n as usize)
                }
            }) {
                Ok(result) => return Poll::Ready(result),
                Err(_would_block) => continue,
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        // A socket tells the peer we are done writing; other descriptors close when dropped.
        unsafe { libc::shutdown(self.0.as_raw_fd(), libc::SHUT_WR) };
        Poll::Ready(Ok(()))
    }
}

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
    let own = |fd: RawFd| (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) });
    let reader = own(read_fd);
    let writer = if write_fd == read_fd {
        reader.as_ref().and_then(|r| r.try_clone().ok())
    } else {
        own(write_fd)
    };
    ffi_boundary!({
        let (Some(reader), Some(writer)) = (reader, writer) else {
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
