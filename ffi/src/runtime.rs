//! `mcp_runtime`: the tokio runtime that serves and connects.

use std::future::Future;
use std::sync::Arc;

use crate::status::mcp_status;

/// A multi-threaded runtime. Servers being served and clients keep it alive: freeing the handle while
/// they live is allowed; its threads stop when the last of them is freed.
pub struct mcp_runtime {
    pub(crate) rt: Arc<tokio::runtime::Runtime>,
}

/// Runs `fut` on the runtime and blocks the calling thread until it finishes. Works from any thread
/// that is not one of the runtime's own.
pub(crate) fn block_on<F>(rt: &tokio::runtime::Runtime, fut: F) -> Option<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    rt.spawn(async move {
        let _ = tx.send(fut.await);
    });
    rx.recv().ok()
}

/// Creates a runtime with `worker_threads` threads (0 picks the number of CPUs) and writes it to
/// `*runtime_out`. Fails with `MCP_STATUS_IO` when threads cannot be started. Free it with
/// `mcp_runtime_free`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_runtime_new(
    worker_threads: u32,
    runtime_out: *mut *mut mcp_runtime,
) -> mcp_status {
    ffi_boundary!({
        try_out!(runtime_out);
        let mut b = tokio::runtime::Builder::new_multi_thread();
        b.enable_all().thread_name("mcp-runtime");
        if worker_threads > 0 {
            b.worker_threads(worker_threads as usize);
        }
        match b.build() {
            Ok(rt) => {
                let handle = Box::new(mcp_runtime { rt: Arc::new(rt) });
                unsafe { *runtime_out = Box::into_raw(handle) };
                mcp_status::MCP_STATUS_OK
            }
            Err(_) => mcp_status::MCP_STATUS_IO,
        }
    })
}

/// Releases the caller's reference to the runtime. NULL is ignored. Must not be called from a
/// callback the library runs (those run on the runtime's threads). When this is the last reference,
/// the call blocks until the runtime's threads have stopped.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_runtime_free(runtime: *mut mcp_runtime) {
    ffi_boundary!((), {
        if !runtime.is_null() {
            drop(unsafe { Box::from_raw(runtime) });
        }
    })
}
