//! This process's stdin and stdout as non-blocking pipes, and wider pipes under stdio. A pipe holds 64 KiB by default, so a message of that size or more
//! crosses it in several writes and reads, each one waking the other side; asking for more room
//! lets most messages cross in one. Best effort: the kernel refuses sizes above
//! `/proc/sys/fs/pipe-max-size` (1 MiB by default) or past the user's pipe quota, and the pipe then
//! keeps the size it had. Only the buffer's size changes, never what is read or written.

#[cfg(target_os = "linux")]
use std::os::fd::RawFd;

#[cfg(target_os = "linux")]
use tokio::io::AsyncWrite;

#[cfg(target_os = "linux")]
use super::stdio_out::DirectPipe;

/// The pipe size asked for: 1 MiB, the most an unprivileged process may set by default.
#[cfg(target_os = "linux")]
const PIPE_BYTES: libc::c_int = 1 << 20;

/// Grows the pipe at `fd` to [`PIPE_BYTES`] when it is a pipe with less room; anything else (a
/// file, a terminal, a socket, a closed descriptor) is left alone.
#[cfg(target_os = "linux")]
pub(crate) fn widen_pipe(fd: RawFd) {
    // SAFETY: F_GETPIPE_SZ and F_SETPIPE_SZ read and set a size; they touch no memory of ours and
    // fail with EBADF on a descriptor that is not a pipe.
    let size = unsafe { libc::fcntl(fd, libc::F_GETPIPE_SZ) };
    if !(0..PIPE_BYTES).contains(&size) {
        return;
    }
    if unsafe { libc::fcntl(fd, libc::F_SETPIPE_SZ, PIPE_BYTES) } < 0 {
        tracing::debug!(
            fd,
            size,
            error = %std::io::Error::last_os_error(),
            "the pipe keeps its size"
        );
    }
}

/// Grows this process's stdin and stdout pipes (see the module comment), for a host that reads or
/// writes them itself (the Node package reads stdin with Node's own stream). The engine's stdio
/// transport does this for itself, and a client for the pipes to the server it starts
/// (`child.rs`).
pub fn widen_process_pipes() {
    #[cfg(target_os = "linux")]
    {
        widen_pipe(0);
        widen_pipe(1);
    }
}

/// Non-blocking handles on this process's stdin and stdout, each when it is a pipe (the usual case
/// under an MCP client): reopened through `/proc/self/fd`, so the flag does not leak to the pipes' other
/// users. Tokio's own stdin/stdout go through a blocking thread pool, a thread hop per read and write,
/// and a read of stdin there cannot be interrupted: a runtime would wait for it at shutdown until the
/// peer writes or closes. Each end is chosen on its own, so a pipe on stdin is read without blocking
/// also when stdout is a terminal or a file. Each pipe is widened ([`widen_pipe`]).
#[cfg(target_os = "linux")]
pub(crate) fn nonblocking_stdin() -> Option<tokio::net::unix::pipe::Receiver> {
    // Fails (and we fall back) when the descriptor is not a pipe.
    let rx = tokio::net::unix::pipe::OpenOptions::new()
        .open_receiver("/proc/self/fd/0")
        .ok()?;
    widen_pipe(std::os::fd::AsRawFd::as_raw_fd(&rx));
    Some(rx)
}

/// The stdout half of [`nonblocking_stdin`].
#[cfg(target_os = "linux")]
pub(crate) fn nonblocking_stdout() -> Option<tokio::net::unix::pipe::Sender> {
    let tx = tokio::net::unix::pipe::OpenOptions::new()
        .open_sender("/proc/self/fd/1")
        .ok()?;
    widen_pipe(std::os::fd::AsRawFd::as_raw_fd(&tx));
    Some(tx)
}

/// Stdout as a pipe shared with the threads that write to it directly: the serving task's writer.
#[cfg(target_os = "linux")]
pub(super) struct SharedPipe(pub(super) DirectPipe);

#[cfg(target_os = "linux")]
impl AsyncWrite for SharedPipe {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        bytes: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        loop {
            std::task::ready!(self.0.poll_write_ready(cx))?;
            match self.0.try_write(bytes) {
                // Readiness was stale (another thread filled the pipe): wait again.
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                r => return std::task::Poll::Ready(r),
            }
        }
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::os::fd::AsRawFd;

    use super::*;

    #[test]
    fn a_pipe_grows_and_other_descriptors_are_left_alone() {
        let (rx, tx) = std::io::pipe().expect("pipe");
        let size = |fd| unsafe { libc::fcntl(fd, libc::F_GETPIPE_SZ) };
        let before = size(rx.as_raw_fd());
        assert!(
            before > 0 && before < PIPE_BYTES,
            "a new pipe has {before} bytes"
        );
        widen_pipe(tx.as_raw_fd());
        let max: libc::c_int = std::fs::read_to_string("/proc/sys/fs/pipe-max-size")
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(PIPE_BYTES);
        // Both ends share one buffer.
        assert_eq!(size(rx.as_raw_fd()), PIPE_BYTES.min(max).max(before));
        // A file is not a pipe: nothing happens, nothing fails.
        let file = std::fs::File::open("/proc/self/status").expect("a file");
        widen_pipe(file.as_raw_fd());
        assert_eq!(size(file.as_raw_fd()), -1);
    }
}
