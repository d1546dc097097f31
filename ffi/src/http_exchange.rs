//! `mcp_http_endpoint_handle` and `mcp_http_exchange`: one HTTP request answered by an endpoint,
//! its response delivered through the host's callbacks from a runtime thread, and abandoned when
//! the host's client goes away.

use std::cell::Cell;
use std::ffi::{c_char, c_void};
use std::sync::Arc;

use libmcp::transport::http::ExchangeRequest;
use parking_lot::ReentrantMutex;

use crate::client_http::mcp_header;
use crate::http_endpoint::mcp_http_endpoint;
use crate::request_http::{HostContext, mcp_http_host_context};
use crate::status::mcp_status;
use crate::string::{mcp_str, nul_terminated};

/// Receives the response head: the HTTP status and the `n_headers` headers (names lowercase; both
/// views NUL-terminated, valid during the call only). Called once, first.
pub type mcp_http_head_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        status: u16,
        headers: *const mcp_header,
        n_headers: usize,
    ),
>;

/// Receives the next piece of the body (`len` bytes, valid during the call only: copy them): the
/// whole JSON body at once, or each SSE event (and keep-alive comment) as the engine produces it.
pub type mcp_http_body_cb =
    Option<unsafe extern "C" fn(userdata: *mut c_void, data: *const u8, len: usize)>;

/// Says the response is complete: send the end of the body (e.g. the last chunk of a chunked
/// response) and let the connection go on. Called once, last.
pub type mcp_http_end_cb = Option<unsafe extern "C" fn(userdata: *mut c_void)>;

/// Where `mcp_http_endpoint_handle` delivers the response. All three are required. They run on a
/// runtime thread, one at a time per exchange and in order: `head` once, `body` zero or more times,
/// `end` once. They must not block for long (append to the host's buffer and wake its connection)
/// and must not unwind. On these threads blocking library functions fail with
/// `MCP_STATUS_WRONG_THREAD`; `mcp_http_exchange_abandon` and `mcp_http_exchange_free` of the
/// callback's own exchange are allowed (no further callback of it then runs). After
/// `mcp_http_exchange_abandon` none of them runs any more. If the runtime stops while the exchange
/// runs, `end` comes without the rest (possibly without `head`: answer 503 then).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct mcp_http_response_callbacks {
    /// The status and headers.
    pub head: mcp_http_head_cb,
    /// A piece of the body.
    pub body: mcp_http_body_cb,
    /// The end of the response.
    pub end: mcp_http_end_cb,
}

/// One request being answered. The host owns the handle and frees it with `mcp_http_exchange_free`
/// exactly once, after `end` or to give up on the exchange. Every function on it may be called from
/// any thread.
pub struct mcp_http_exchange {
    state: Arc<Delivery>,
    task: tokio::task::AbortHandle,
}

/// Where an exchange stands, as far as the host's callbacks go.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Running,
    Ended,
    Abandoned,
}

/// The host's callbacks and how far the exchange got. A callback runs while `phase` is locked, so
/// abandoning from another thread waits for it; the lock is reentrant so that a callback may
/// abandon its own exchange.
struct Delivery {
    phase: ReentrantMutex<Cell<Phase>>,
    head: unsafe extern "C" fn(*mut c_void, u16, *const mcp_header, usize),
    body: unsafe extern "C" fn(*mut c_void, *const u8, usize),
    end: unsafe extern "C" fn(*mut c_void),
    userdata: *mut c_void,
}

// The C contract: the callbacks and their userdata may be used from any thread.
unsafe impl Send for Delivery {}
unsafe impl Sync for Delivery {}

impl Delivery {
    /// Runs `call` unless the exchange was abandoned (or ended); whether it ran.
    fn deliver(&self, call: impl FnOnce(&Delivery)) -> bool {
        let phase = self.phase.lock();
        if phase.get() != Phase::Running {
            return false;
        }
        call(self);
        phase.get() == Phase::Running
    }

    /// Calls `head` with the headers as NUL-terminated views (see [`Delivery::deliver`]).
    fn deliver_head(&self, status: u16, headers: &[(String, String)]) -> bool {
        let values: Vec<(String, String)> = headers
            .iter()
            .map(|(n, v)| (nul_terminated(n.as_str()), nul_terminated(v.as_str())))
            .collect();
        let views: Vec<mcp_header> = values
            .iter()
            .map(|(n, v)| mcp_header {
                name: mcp_str::of_nul_terminated(n),
                value: mcp_str::of_nul_terminated(v),
            })
            .collect();
        self.deliver(|d| unsafe { (d.head)(d.userdata, status, views.as_ptr(), views.len()) })
    }

    /// Calls `end` unless the exchange was abandoned or already ended.
    fn finish(&self) {
        let phase = self.phase.lock();
        if phase.get() == Phase::Running {
            phase.set(Phase::Ended);
            unsafe { (self.end)(self.userdata) };
        }
    }

    /// Marks the exchange abandoned (waiting for a callback running on another thread); whether it
    /// was abandoned already.
    fn abandon(&self) -> bool {
        let phase = self.phase.lock();
        let before = phase.get();
        if before == Phase::Running {
            phase.set(Phase::Abandoned);
        }
        before == Phase::Abandoned
    }
}

/// Owned by the exchange's task: however the task ends (completed, aborted, dropped by a runtime
/// that stops), the host hears `end` unless it abandoned the exchange.
struct EndGuard(Arc<Delivery>);

impl Drop for EndGuard {
    fn drop(&mut self) {
        self.0.finish();
    }
}

/// Answers one HTTP request the host's web server routed to `endpoint`: `method` ("POST", "GET",
/// "DELETE", ...), `target` (the path and query as received, e.g. "/mcp" or "/mcp/messages?x=1"),
/// `n_headers` `headers` (NULL when 0; a value's leading and trailing spaces and tabs are not part of
/// it and are dropped), and the whole request body (`body` may be NULL when
/// `body_len` is 0); all UTF-8 and copied during the call. `host` (may be NULL) attaches what the
/// host's middleware established, which handlers read with `mcp_request_http_principal` and
/// `mcp_request_http_userdata`; the library owns its userdata from this call on, also when it
/// fails. Returns at once with the exchange in `*exchange_out`; the response then arrives through
/// `callbacks` (see `mcp_http_response_callbacks`) with `userdata`, from a runtime thread. The
/// endpoint answers protocol errors itself with their HTTP status: a method, target, header name
/// or value that HTTP does not allow gets 400 naming it, a body above the config's
/// `max_body_bytes` 413. `MCP_STATUS_NULL_PARAMETER` for a NULL endpoint, callbacks, callback or
/// out pointer (or a NULL string with a non-zero length), `MCP_STATUS_INVALID_UTF8` for text that
/// is not UTF-8; nothing is called back then. When the host's client goes away before `end`, call
/// `mcp_http_exchange_abandon` (or `mcp_http_exchange_free`): the request's handler is cancelled.
/// Any thread, also a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_endpoint_handle(
    endpoint: *const mcp_http_endpoint,
    method: *const c_char,
    method_len: usize,
    target: *const c_char,
    target_len: usize,
    headers: *const mcp_header,
    n_headers: usize,
    body: *const u8,
    body_len: usize,
    host: *const mcp_http_host_context,
    callbacks: *const mcp_http_response_callbacks,
    userdata: *mut c_void,
    exchange_out: *mut *mut mcp_http_exchange,
) -> mcp_status {
    ffi_boundary!({
        let host = match unsafe { host.as_ref() } {
            Some(h) => match unsafe { HostContext::new(h) } {
                Ok(h) => Some(h),
                Err(status) => return status,
            },
            None => None,
        };
        let e = try_ref!(endpoint);
        let cb = try_ref!(callbacks);
        let (Some(head), Some(body_cb), Some(end)) = (cb.head, cb.body, cb.end) else {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        };
        try_out!(exchange_out);
        let mut req =
            ExchangeRequest::new(try_str!(method, method_len), try_str!(target, target_len));
        if n_headers > 0 && headers.is_null() {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        }
        let headers = if n_headers == 0 {
            &[][..]
        } else {
            unsafe { std::slice::from_raw_parts(headers, n_headers) }
        };
        for h in headers {
            // RFC 9110 §5.5: whitespace around a field value is not part of it; not every host's
            // parser drops it (libmicrohttpd keeps trailing whitespace).
            let value = try_str!(h.value.data, h.value.len).trim_matches([' ', '\t']);
            req = req.header(try_str!(h.name.data, h.name.len), value);
        }
        if body_len > 0 && body.is_null() {
            return mcp_status::MCP_STATUS_NULL_PARAMETER;
        }
        if body_len > 0 {
            req = req.body(unsafe { std::slice::from_raw_parts(body, body_len) }.to_vec());
        }
        if let Some(host) = host {
            req = req.extension(host);
        }
        let state = Arc::new(Delivery {
            phase: ReentrantMutex::new(Cell::new(Phase::Running)),
            head,
            body: body_cb,
            end,
            userdata,
        });
        let guard = EndGuard(state.clone());
        let endpoint = e.endpoint.clone();
        let task = e.rt.spawn(async move {
            let guard = guard;
            let exchange = endpoint.exchange(req).await;
            if !guard.0.deliver_head(exchange.status, &exchange.headers) {
                return;
            }
            let mut body = exchange.body;
            while let Some(chunk) = body.next_chunk().await {
                if !guard
                    .0
                    .deliver(|d| unsafe { (d.body)(d.userdata, chunk.as_ptr(), chunk.len()) })
                {
                    // Abandoned: dropping the body ends the exchange (and cancels its request).
                    return;
                }
            }
        });
        let h = Box::new(mcp_http_exchange {
            state,
            task: task.abort_handle(),
        });
        unsafe { *exchange_out = Box::into_raw(h) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Gives up on the exchange because the host's client went away (or the host no longer wants the
/// response): no callback of it runs after this returns (one running on another thread is waited
/// for, so do not hold a lock your callbacks take), and the exchange ends, which cancels a
/// 2026-07-28 request whose handler has not answered yet (its `mcp_cancel_cb` runs) and closes the
/// stream of a legacy session (whose client may resume it with `Last-Event-ID`). `MCP_STATUS_OK`
/// also when the exchange had ended already (`end` ran or is running: the race with completion is
/// harmless); `MCP_STATUS_ALREADY_USED` when it was abandoned before. The handle stays to be freed.
/// Any thread, also the exchange's own callbacks.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_exchange_abandon(exchange: *const mcp_http_exchange) -> mcp_status {
    ffi_boundary!({
        let x = try_ref!(exchange);
        if x.state.abandon() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        x.task.abort();
        mcp_status::MCP_STATUS_OK
    })
}

/// Frees the exchange, abandoning it first if it has not ended (see `mcp_http_exchange_abandon`):
/// the one call a host needs when its connection is done, whether the response completed or the
/// client went away, whatever the race between the two. No callback of the exchange runs after this
/// returns. NULL is ignored. Any thread, also the exchange's own callbacks.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_exchange_free(exchange: *mut mcp_http_exchange) {
    ffi_boundary!((), {
        if exchange.is_null() {
            return;
        }
        let x = unsafe { Box::from_raw(exchange) };
        x.state.abandon();
        x.task.abort();
    })
}
