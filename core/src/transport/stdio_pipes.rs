//! Wider pipes under stdio. A pipe holds 64 KiB by default, so a message of that size or more
//! crosses it in several writes and reads, each one waking the other side; asking for more room
//! lets most messages cross in one. Best effort: the kernel refuses sizes above
//! `/proc/sys/fs/pipe-max-size` (1 MiB by default) or past the user's pipe quota, and the pipe then
//! keeps the size it had. Only the buffer's size changes, never what is read or written.

#[cfg(target_os = "linux")]
use std::os::fd::RawFd;

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
