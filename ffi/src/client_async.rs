//! Calls that return at once: the shared machinery of `mcp_client_call_async` and
//! `mcp_client_call_tool_async` (progress, cancellation handle, one completion callback).

use std::ffi::{c_char, c_void};
use std::future::Future;
use std::sync::Arc;

use libmcp::client::{CallOptions, Client};
use serde_json::Value;

use crate::client::{mcp_call, mcp_call_cb, mcp_client, mcp_progress_cb, options};
use crate::error::mcp_error;
use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::status::mcp_status;
use crate::string::{mcp_str, mcp_string, nul_terminated};

/// Starts `op` on the client's runtime: progress goes to `progress`, the outcome to `cb`, both with
/// `userdata`, which is finalized once `cb` has returned (or when the task is dropped unrun).
pub(crate) fn start_call<F, Fut>(
    c: &mcp_client,
    timeout_ms: u64,
    progress: mcp_progress_cb,
    cb: unsafe extern "C" fn(*mut c_void, mcp_status, *mut mcp_string, *mut mcp_error),
    userdata: Userdata,
    call_out: *mut *mut mcp_call,
    op: F,
) where
    F: FnOnce(Client, CallOptions) -> Fut,
    Fut: Future<Output = libmcp::Result<Value>> + Send + 'static,
{
    let userdata = Arc::new(userdata);
    let mut opts = options(timeout_ms);
    if let Some(progress) = progress {
        let ud = userdata.clone();
        opts.on_progress = Some(Arc::new(
            move |p: f64, total: Option<f64>, message: Option<&str>| {
                let message = nul_terminated(message.unwrap_or_default());
                unsafe {
                    progress(
                        ud.ptr(),
                        p,
                        total.is_some(),
                        total.unwrap_or(0.0),
                        mcp_str::of_nul_terminated(&message),
                    )
                }
            },
        ));
    }
    let (cancel_tx, cancel_rx) = tokio::sync::oneshot::channel::<()>();
    if !call_out.is_null() {
        let call = Box::new(mcp_call {
            cancel: parking_lot::Mutex::new(Some(cancel_tx)),
        });
        unsafe { *call_out = Box::into_raw(call) };
    }
    let fut = op(c.client.clone(), opts);
    c.rt.spawn(async move {
        // A freed handle drops the sender: that is not a cancellation, hence the `Ok` pattern.
        let outcome = tokio::select! {
            r = fut => r,
            Ok(()) = cancel_rx => Err(libmcp::Error::Cancelled),
        };
        let (status, result, error) = match outcome {
            Ok(v) => (
                mcp_status::MCP_STATUS_OK,
                mcp_string::new_raw(v.to_string()),
                std::ptr::null_mut(),
            ),
            Err(e) => {
                let err = mcp_error::from_engine(&e);
                (
                    err.status(),
                    std::ptr::null_mut(),
                    Box::into_raw(Box::new(err)),
                )
            }
        };
        unsafe { cb(userdata.ptr(), status, result, error) };
        // The progress closure went with `fut`, so this is the last reference: finalized after `cb`.
        drop(userdata);
    });
}

/// Calls tool `name` with `arguments` (a JSON object, NULL with length 0 for `{}`; copied) and
/// returns at once; input rounds are handled as in `mcp_client_call_tool`. The outcome goes to
/// `cb(userdata, ...)` exactly once, on a runtime thread (see `mcp_call_cb`); `progress` (may be
/// NULL) sees the call's progress notifications first. `timeout_ms` is the idle timeout (0: the
/// client's). When `call_out` is not NULL a handle to cancel the call is written there (free it
/// with `mcp_call_free`). The library owns `userdata` from this call on and calls
/// `userdata_free(userdata)` (may be NULL) exactly once: after `cb` has returned, or at once when
/// this returns an error status (then no callback runs and nothing is written). Any thread, also
/// from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_call_tool_async(
    client: *const mcp_client,
    name: *const c_char,
    name_len: usize,
    arguments: *const c_char,
    arguments_len: usize,
    timeout_ms: u64,
    progress: mcp_progress_cb,
    cb: mcp_call_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
    call_out: *mut *mut mcp_call,
) -> mcp_status {
    let userdata = Userdata::new(userdata, userdata_free);
    ffi_boundary!({
        let c = try_ref!(client);
        let name = try_str!(name, name_len).to_string();
        let args = try_json_or_empty!(arguments, arguments_len);
        if !args.is_object() {
            return mcp_status::MCP_STATUS_INVALID_JSON;
        }
        let Some(cb) = cb else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        start_call(
            c,
            timeout_ms,
            progress,
            cb,
            userdata,
            call_out,
            |cl, opts| async move { cl.call_tool_raw_with(&name, args, &opts).await },
        );
        mcp_status::MCP_STATUS_OK
    })
}
