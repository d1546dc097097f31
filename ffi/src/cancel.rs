//! `mcp_responder_on_cancel`: telling a C handler that its request was cancelled.

use std::ffi::c_void;

use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::responder::mcp_responder;
use crate::status::mcp_status;

/// Learns that a request was cancelled: by the client (`notifications/cancelled`), because its
/// connection or stream closed, or because the server is shutting down. Called at most once, on a
/// runtime thread, possibly while the handler still runs on another thread; a call that races with
/// an answer may still happen just after the answer went out (the answer is then dropped by the
/// engine). It should make the work stop soon and then answer (any answer will do) and free the
/// responder as usual; it may call `mcp_responder_*` functions but not free the responder unless the
/// handler has handed it over. Must not block for long or unwind.
pub type mcp_cancel_cb = Option<unsafe extern "C" fn(userdata: *mut c_void)>;

/// Registers `cb(userdata)` to run when the request of `responder` is cancelled (see
/// `mcp_cancel_cb`); when it already is, `cb` runs soon on a runtime thread. The watch ends when the
/// responder answers or is freed; `userdata_free(userdata)` then runs exactly once (after `cb`, if it
/// ran). The library owns `userdata` from this call on, also when it fails. At most one registration
/// per responder (`MCP_STATUS_ALREADY_USED` on a second, and after an answer); from a responder that
/// was not created by the library on its runtime, `MCP_STATUS_INVALID_ARGUMENT`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_on_cancel(
    responder: *const mcp_responder,
    cb: mcp_cancel_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
) -> mcp_status {
    ffi_boundary!({
        let userdata = Userdata::new(userdata, userdata_free);
        let r = try_ref!(responder);
        let Some(cb) = cb else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        let Some(rt) = r.runtime.clone() else {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        };
        {
            let mut watching = r.watching.lock();
            if *watching || r.answered_already() {
                return mcp_status::MCP_STATUS_ALREADY_USED;
            }
            *watching = true;
        }
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        *r.answered.lock() = Some(tx);
        // The answer may have gone out between the check and storing the sender.
        if r.answered_already() {
            r.answered.lock().take();
        }
        let flag = r.request.ctx.cancel_flag().clone();
        rt.spawn(async move {
            let userdata = userdata;
            tokio::select! {
                biased;
                _ = flag.cancelled() => unsafe { cb(userdata.ptr()) },
                _ = rx => {}
            }
        });
        mcp_status::MCP_STATUS_OK
    })
}
