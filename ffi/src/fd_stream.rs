//! A descriptor the host hands over (a socket, a pipe, a pseudo-terminal) as an async byte stream
//! on the runtime's reactor: what `mcp_server_serve_fds` and `mcp_client_builder_connect_fds` run
//! newline-delimited JSON over.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// Takes ownership of `read_fd` and `write_fd` at once (so every later failure closes them); the
/// same number twice is one descriptor used both ways (a duplicate is made for the writer). `None`
/// for a negative descriptor.
pub(crate) fn owned_pair(read_fd: RawFd, write_fd: RawFd) -> Option<(OwnedFd, OwnedFd)> {
    let own = |fd: RawFd| (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) });
    let reader = own(read_fd);
    let writer = if write_fd == read_fd {
        reader.as_ref().and_then(|r| r.try_clone().ok())
    } else {
        own(write_fd)
    };
    reader.zip(writer)
}

/// A descriptor read and written without blocking, through the runtime's reactor.
pub(crate) struct FdStream(AsyncFd<OwnedFd>);

impl FdStream {
    /// Takes `fd`, makes it non-blocking and registers it; fails for descriptors epoll cannot watch
    /// (regular files).
    pub(crate) fn new(fd: OwnedFd) -> io::Result<FdStream> {
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
