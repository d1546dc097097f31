//! `mcp_client_subscribe` and `mcp_subscription`: change notifications from C, behind one API for
//! both eras (`subscriptions/listen` on modern servers; list_changed notifications plus
//! `resources/subscribe` / `resources/unsubscribe` on legacy sessions).

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use libmcp::client::SubscriptionFilter;
use parking_lot::{Condvar, Mutex};

use crate::client::mcp_client;
use crate::error::mcp_error;
use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::runtime::block_on;
use crate::status::mcp_status;
use crate::string::{mcp_str, mcp_string, nul_terminated};

/// Receives the notifications of one subscription: `method` (e.g.
/// "notifications/tools/list_changed") and `params_json` (the notification's params as JSON, "{}"
/// when it had none), both valid only during the call. Called on a runtime thread, one call at a time,
/// in arrival order. After the last notification it is called exactly once more with an empty
/// `method` (length 0): the subscription has ended (closed by `mcp_subscription_close`, by the server
/// or because the connection closed); `params_json` then holds `{"reason": "..."}`. It must not block
/// for long, make blocking client calls, free the subscription, or unwind.
pub type mcp_subscription_cb =
    Option<unsafe extern "C" fn(userdata: *mut c_void, method: mcp_str, params_json: mcp_str)>;

/// An open subscription. `mcp_subscription_close` may be called from any thread, also from its own
/// callback; `mcp_subscription_free` blocks until delivery has ended, so not from a callback. The
/// handle may outlive its client (the subscription then ends with the connection) and keeps the
/// runtime running until it is freed.
pub struct mcp_subscription {
    /// Keeps the runtime (and so the delivery task) alive until the handle is freed, also when the
    /// client and runtime handles are freed first.
    _runtime: Arc<crate::runtime::Runtime>,
    close: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    /// Set once the final callback has returned and the userdata is finalized.
    done: Arc<(Mutex<bool>, Condvar)>,
}

/// Sends a borrowed method and params to `cb`.
fn deliver(
    cb: unsafe extern "C" fn(*mut c_void, mcp_str, mcp_str),
    ud: &Userdata,
    m: &str,
    p: &str,
) {
    let method = nul_terminated(m);
    let params = nul_terminated(p);
    unsafe {
        cb(
            ud.ptr(),
            mcp_str::of_nul_terminated(&method),
            mcp_str::of_nul_terminated(&params),
        )
    }
}

/// Subscribes to the notifications named by `filter_json`, a JSON object with any of
/// `"toolsListChanged": true`, `"promptsListChanged": true`, `"resourcesListChanged": true`,
/// `"resourceSubscriptions": ["uri", ...]` and `"taskIds": ["id", ...]` (copied; a task's status
/// changes arrive as `notifications/tasks` from a 2026-07-28 server, whose listen request then
/// declares the tasks extension, or as `notifications/tasks/status` from a 2025-11-25 session, the
/// task as params). Blocks until the server has acknowledged
/// (modern: the first frame of the `subscriptions/listen` stream; legacy: every `resources/subscribe`
/// answered), then writes the handle to `*subscription_out` and, when `acknowledged_out` is not NULL,
/// the subset the server agreed to deliver as JSON (free with `mcp_string_free`). Each notification
/// then reaches `cb` (see `mcp_subscription_cb`). The library owns `userdata` from this call on, also
/// when it fails, and calls `userdata_free(userdata)` exactly once, after the final callback (or
/// before returning a failure, when `cb` never runs). Failures: `MCP_STATUS_INVALID_JSON` for a filter
/// that is not such an object, `MCP_STATUS_INVALID_ARGUMENT` for an empty one, and the errors of a
/// request (`MCP_STATUS_RPC_ERROR` when the server refuses, with details in `*error_out`, which may be
/// NULL and is written only on failure). Not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_subscribe(
    client: *const mcp_client,
    filter_json: *const c_char,
    filter_len: usize,
    cb: mcp_subscription_cb,
    userdata: *mut c_void,
    userdata_free: mcp_userdata_free_cb,
    subscription_out: *mut *mut mcp_subscription,
    acknowledged_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let userdata = Userdata::new(userdata, userdata_free);
        let c = try_ref!(client);
        let Some(cb) = cb else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        try_out!(subscription_out);
        let filter: SubscriptionFilter =
            match serde_json::from_value(try_json!(filter_json, filter_len)) {
                Ok(f) => f,
                Err(_) => return mcp_status::MCP_STATUS_INVALID_JSON,
            };
        if filter.is_empty() {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        let cl = c.client.clone();
        let mut sub = match block_on(&c.rt, "mcp_client_subscribe", async move {
            cl.subscribe(filter).await
        }) {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => return mcp_error::from_engine(&e).store(error_out),
            Err(e) => return e.store(error_out),
        };
        let acknowledged = sub.acknowledged().to_string();
        let (close_tx, mut close_rx) = tokio::sync::oneshot::channel::<()>();
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let finished = done.clone();
        c.rt.spawn(async move {
            let reason = loop {
                tokio::select! {
                    n = sub.next() => match n {
                        Some(n) => {
                            let params = n.params.as_ref().map(|p| p.to_string());
                            deliver(cb, &userdata, &n.method, params.as_deref().unwrap_or("{}"));
                        }
                        None => break "the subscription ended",
                    },
                    // A dropped sender (handle freed) closes as well.
                    _ = &mut close_rx => break "closed",
                }
            };
            // Unsubscribing (legacy) or cancelling the listen request (modern) starts here.
            drop(sub);
            let params = serde_json::json!({ "reason": reason }).to_string();
            deliver(cb, &userdata, "", &params);
            drop(userdata);
            *finished.0.lock() = true;
            finished.1.notify_all();
        });
        if !acknowledged_out.is_null() {
            unsafe { *acknowledged_out = mcp_string::new_raw(acknowledged) };
        }
        let s = Box::new(mcp_subscription {
            _runtime: c.rt.clone(),
            close: Mutex::new(Some(close_tx)),
            done,
        });
        unsafe { *subscription_out = Box::into_raw(s) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Ends the subscription: no notification is delivered after the final callback, which follows
/// soon (legacy sessions send `resources/unsubscribe` for the subscribed URIs; modern servers get
/// `notifications/cancelled` for the listen request). Returns at once; idempotent. Any thread, also
/// the subscription's own callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_subscription_close(subscription: *const mcp_subscription) -> mcp_status {
    ffi_boundary!({
        let s = try_ref!(subscription);
        if let Some(tx) = s.close.lock().take() {
            let _ = tx.send(());
        }
        mcp_status::MCP_STATUS_OK
    })
}

/// Closes the subscription if still open, blocks until its final callback has returned and its
/// userdata is finalized, and frees the handle. NULL is ignored. Not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_subscription_free(subscription: *mut mcp_subscription) {
    ffi_boundary!((), {
        if subscription.is_null() {
            return;
        }
        let s = unsafe { Box::from_raw(subscription) };
        if let Some(tx) = s.close.lock().take() {
            let _ = tx.send(());
        }
        let mut done = s.done.0.lock();
        while !*done {
            s.done.1.wait(&mut done);
        }
    })
}
