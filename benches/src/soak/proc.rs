//! What the soak samples of a server process: resident memory, open file descriptors and threads,
//! read from `/proc/<pid>` (Linux), and a Node server's own account of its memory
//! ([`super::js_memory`]).

use serde::Serialize;

use super::js_memory::JsMemory;
use crate::driver::proc_status_kib;

/// One reading of a process.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Usage {
    /// Resident set (VmRSS), KiB.
    pub rss_kib: u64,
    /// Entries of `/proc/<pid>/fd`.
    pub fds: u64,
    /// The `Threads:` line of `/proc/<pid>/status`.
    pub threads: u64,
    /// `process.memoryUsage()` of a Node server (none for the others).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub js: Option<JsMemory>,
}

/// The usage of `pid` now; `None` once the process is gone.
pub fn usage(pid: u32) -> Option<Usage> {
    let rss_kib = proc_status_kib(pid, "VmRSS:")?;
    let threads = proc_status_kib(pid, "Threads:")?;
    let fds = std::fs::read_dir(format!("/proc/{pid}/fd")).ok()?.count() as u64;
    Some(Usage {
        rss_kib,
        fds,
        threads,
        js: None,
    })
}
