//! Calls that return at once: `mcp_client_call_async`, `mcp_client_call_tool_async` and their
//! `mcp_call` handle (progress, cancellation, one completion callback).

use std::ffi::{c_char, c_void};
use std::future::Future;
use std::sync::Arc;

use libmcp::client::{CallOptions, Client};
use serde_json::Value;

use crate::client::{mcp_client, options};
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

/// Receives the outcome of `mcp_client_call_async` or `mcp_client_call_tool_async`: exactly once, on a
/// runtime thread. On success
/// `status` is `MCP_STATUS_OK`, `result` the JSON result and `error` NULL; on failure `result` is
/// NULL and `error` says why. The callee owns both (free with `mcp_string_free` / `mcp_error_free`).
/// It must not unwind; blocking client calls from it fail with `MCP_STATUS_WRONG_THREAD` (start
/// another call with `mcp_client_call_tool_async`, or hand the work to a thread of your own).
pub type mcp_call_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        status: mcp_status,
        result: *mut mcp_string,
        error: *mut mcp_error,
    ),
>;

/// Sees the progress notifications of one call made with `mcp_client_call_async`: `progress`, then
/// `total` when `has_total`, and `message` (empty when none; valid only during the call). Called on
/// a runtime thread, never concurrently for one call, always before that call's `mcp_call_cb`. Must
/// not unwind.
pub type mcp_progress_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        progress: f64,
        has_total: bool,
        total: f64,
        message: mcp_str,
    ),
>;

/// One call in flight, returned by `mcp_client_call_async` when asked for: lets the caller cancel it.
/// Free it with `mcp_call_free` (which does not cancel). Any thread.
pub struct mcp_call {
    pub(crate) cancel: parking_lot::Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
}

/// Cancels the call: the server is told (`notifications/cancelled`) and the call's `mcp_call_cb` runs
/// with `MCP_STATUS_CANCELLED`, unless the outcome was already on its way. Idempotent. Any thread,
/// also from the call's own callbacks.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_call_cancel(call: *const mcp_call) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(call);
        if let Some(tx) = c.cancel.lock().take() {
            let _ = tx.send(());
        }
        mcp_status::MCP_STATUS_OK
    })
}

/// Frees a call handle without cancelling the call. NULL is ignored. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_call_free(call: *mut mcp_call) {
    ffi_boundary!((), {
        if !call.is_null() {
            drop(unsafe { Box::from_raw(call) });
        }
    })
}

/// Like `mcp_client_call`, but returns at once and delivers the outcome to `cb(userdata, ...)`.
/// When `progress` is not NULL the request asks for progress and each notification reaches
/// `progress(userdata, ...)` (and restarts the idle timeout). Arguments are copied before return.
/// When `call_out` is not NULL, a handle to cancel the call is written there (free it with
/// `mcp_call_free`). When this returns an error status, neither callback is ever called and nothing
/// is written; `userdata` must stay valid until `cb` has run.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_call_async(
    client: *const mcp_client,
    method: *const c_char,
    method_len: usize,
    params: *const c_char,
    params_len: usize,
    timeout_ms: u64,
    progress: mcp_progress_cb,
    cb: mcp_call_cb,
    userdata: *mut c_void,
    call_out: *mut *mut mcp_call,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        let method = try_str!(method, method_len).to_string();
        let params = try_json_or_empty!(params, params_len);
        let Some(cb) = cb else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        // No finalizer: `userdata` stays the caller's (see above).
        crate::client_async::start_call(
            c,
            timeout_ms,
            progress,
            cb,
            Userdata::new(userdata, None),
            call_out,
            |cl, opts| async move { cl.call(&method, params, &opts).await },
        );
        mcp_status::MCP_STATUS_OK
    })
}
