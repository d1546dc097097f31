//! Client-side input callbacks (elicitation, sampling, roots) and `mcp_input_reply`.

use std::ffi::{c_char, c_void};
use std::future::Future;
use std::sync::Arc;

use libmcp::RpcError;
use parking_lot::Mutex;
use serde_json::Value;
use tokio::sync::oneshot;

use crate::handler::Userdata;
use crate::status::mcp_status;
use crate::string::{mcp_str, nul_terminated};

/// Answers a server's input request (`elicitation/create`, `sampling/createMessage`, `roots/list`).
/// Called on a runtime thread, possibly concurrently for different requests. `params_json` is the
/// request's params as JSON, valid only during the call (copy it to keep it). The callee owns `reply`:
/// answer it once (now or later, any thread) with `mcp_input_reply_result` or `_error`, then free it
/// with `mcp_input_reply_free`. Must not unwind.
pub type mcp_input_cb = Option<
    unsafe extern "C" fn(userdata: *mut c_void, params_json: mcp_str, reply: *mut mcp_input_reply),
>;

/// The answer channel of one input request. A reply freed unanswered answers with an internal error.
pub struct mcp_input_reply {
    tx: Mutex<Option<oneshot::Sender<Result<Value, RpcError>>>>,
}

type InputFuture = std::pin::Pin<Box<dyn Future<Output = Result<Value, RpcError>> + Send>>;

/// The engine input handler that calls `cb` once per request.
pub(crate) fn input_handler(
    cb: unsafe extern "C" fn(*mut c_void, mcp_str, *mut mcp_input_reply),
    userdata: Userdata,
) -> impl Fn(Value) -> InputFuture + Send + Sync + 'static {
    let userdata = Arc::new(userdata);
    move |params: Value| {
        let (tx, rx) = oneshot::channel();
        let reply = Box::into_raw(Box::new(mcp_input_reply {
            tx: Mutex::new(Some(tx)),
        }));
        let text = nul_terminated(params.to_string());
        unsafe { cb(userdata.ptr, mcp_str::of_nul_terminated(&text), reply) };
        Box::pin(async move {
            rx.await
                .unwrap_or_else(|_| Err(RpcError::internal("the input callback dropped its reply")))
        })
    }
}

impl mcp_input_reply {
    fn send(&self, v: Result<Value, RpcError>) -> mcp_status {
        match self.tx.lock().take() {
            Some(tx) => {
                let _ = tx.send(v);
                mcp_status::MCP_STATUS_OK
            }
            None => mcp_status::MCP_STATUS_ALREADY_USED,
        }
    }
}

/// Answers with a result object (an ElicitResult, CreateMessageResult or ListRootsResult as JSON,
/// copied). `MCP_STATUS_INVALID_JSON` leaves the reply unanswered; `MCP_STATUS_ALREADY_USED` after an
/// answer. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_input_reply_result(
    reply: *const mcp_input_reply,
    json: *const c_char,
    len: usize,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(reply);
        let v = try_json!(json, len);
        if !v.is_object() {
            return mcp_status::MCP_STATUS_INVALID_JSON;
        }
        r.send(Ok(v))
    })
}

/// Answers with a JSON-RPC error (`message` copied). Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_input_reply_error(
    reply: *const mcp_input_reply,
    code: i32,
    message: *const c_char,
    message_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(reply);
        let message = try_str!(message, message_len);
        r.send(Err(RpcError::new(code, message)))
    })
}

/// Frees a reply (answering with an internal error if unanswered). NULL is ignored. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_input_reply_free(reply: *mut mcp_input_reply) {
    ffi_boundary!((), {
        if !reply.is_null() {
            drop(unsafe { Box::from_raw(reply) });
        }
    })
}
