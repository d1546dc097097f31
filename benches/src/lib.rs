//! Shared pieces of the stdio benchmark: non-blocking stdio for the servers, and the driver itself
//! (a raw newline-delimited JSON-RPC client that spawns a server and measures `tools/call`).

pub mod driver;
pub mod report;

/// Reopens stdin and stdout as non-blocking pipes on the tokio reactor when both are FIFOs.
///
/// Reopening through `/proc/self/fd` gives this process its own open file descriptions, so
/// `O_NONBLOCK` never leaks to the parent that shares the original pipe ends.
#[cfg(target_os = "linux")]
pub fn reopen_stdio_pipes() -> Option<(
    tokio::net::unix::pipe::Receiver,
    tokio::net::unix::pipe::Sender,
)> {
    use tokio::net::unix::pipe::OpenOptions;
    let r = OpenOptions::new().open_receiver("/proc/self/fd/0").ok()?;
    let w = OpenOptions::new().open_sender("/proc/self/fd/1").ok()?;
    Some((r, w))
}
