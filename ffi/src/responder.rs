//! `mcp_responder`: how a server handler answers, now or later, from any thread.

use std::ffi::c_char;

use libmcp::RpcError;
use libmcp::host::{ToolResult, answer_tool};
use libmcp::model::logging::LoggingLevel;
use libmcp::server::{InputRequired, Reply, RequestContext, Responder};
use parking_lot::Mutex;
use serde_json::Value;

use crate::error::mcp_error;
use crate::request::mcp_request;
use crate::status::mcp_status;

/// The answer channel of one request. Owned by the handler that received it: answer it once with
/// `mcp_responder_result`, `_tool_error`, `_error` or `_input_required`, then free it with
/// `mcp_responder_free`. A responder freed without an answer answers with an internal error. Every
/// function may be called from any thread, also concurrently.
pub struct mcp_responder {
    pub(crate) request: mcp_request,
    inner: Mutex<Option<Responder>>,
    /// The runtime the handler was called on, for the cancellation watcher.
    pub(crate) runtime: Option<tokio::runtime::Handle>,
    /// Dropped when the responder answers or is freed: ends the cancellation watcher.
    pub(crate) answered: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    /// Whether `mcp_responder_on_cancel` was called.
    pub(crate) watching: Mutex<bool>,
}

impl mcp_responder {
    pub(crate) fn new(ctx: RequestContext, responder: Responder) -> mcp_responder {
        mcp_responder {
            request: mcp_request::new(ctx),
            inner: Mutex::new(Some(responder)),
            runtime: tokio::runtime::Handle::try_current().ok(),
            answered: Mutex::new(None),
            watching: Mutex::new(false),
        }
    }

    /// Whether an answer went out.
    pub(crate) fn answered_already(&self) -> bool {
        self.inner.lock().is_none()
    }

    /// Runs the request as a task if it may (see `mcp_responder_start_task`); whether it now runs as
    /// one, or `MCP_STATUS_ALREADY_USED` after an answer.
    pub(crate) fn start_task(&self) -> Result<bool, mcp_status> {
        let mut slot = self.inner.lock();
        let Some(responder) = slot.take() else {
            return Err(mcp_status::MCP_STATUS_ALREADY_USED);
        };
        if self.request.ctx.can_run_as_task() {
            // The engine stores the task and answers on a runtime: the handler's, from any thread.
            let _entered = self.runtime.as_ref().map(|h| h.enter());
            *slot = Some(responder.start_task());
        } else {
            *slot = Some(responder);
        }
        Ok(self.request.ctx.task_id().is_some())
    }

    /// `MCP_STATUS_ALREADY_USED` with its reason when an answer went out before; checked before a
    /// call's input, so a used responder is reported as used whatever it is given.
    fn unused(&self) -> Result<(), mcp_error> {
        if self.answered_already() {
            return Err(already_answered());
        }
        Ok(())
    }

    /// Answers with `f`, or `MCP_STATUS_ALREADY_USED` when an answer went out before.
    fn answer(&self, f: impl FnOnce(Responder)) -> mcp_status {
        self.answer_checked(|r| {
            f(r);
            Ok(())
        })
        .map_or_else(|e| e.status(), |()| mcp_status::MCP_STATUS_OK)
    }

    /// Answers with `f` and reports the engine's verdict on the answer: `MCP_STATUS_INVALID_RESULT`
    /// with the reason when it rejected the result (the client got an internal error instead).
    fn answer_checked(
        &self,
        f: impl FnOnce(Responder) -> Result<(), RpcError>,
    ) -> Result<(), mcp_error> {
        match self.inner.lock().take() {
            Some(r) => {
                self.answered.lock().take();
                // An answer into a task is applied on a runtime: the handler's, from any thread.
                let _entered = self.runtime.as_ref().map(|h| h.enter());
                f(r).map_err(|e| mcp_error::new(mcp_status::MCP_STATUS_INVALID_RESULT, e.message))
            }
            None => Err(already_answered()),
        }
    }
}

impl mcp_responder {
    /// Answers a tool call with a host outcome (`core/src/host/tool_result.rs`): OK, or
    /// `MCP_STATUS_INVALID_RESULT` when the engine refused it, `MCP_STATUS_ALREADY_USED`.
    fn answer_tool(&self, result: ToolResult) -> mcp_status {
        match self.answer_checked(|x| answer_tool(x, result)) {
            Ok(()) => mcp_status::MCP_STATUS_OK,
            Err(e) => e.status(),
        }
    }
}

fn already_answered() -> mcp_error {
    mcp_error::new(
        mcp_status::MCP_STATUS_ALREADY_USED,
        "the responder has answered already",
    )
}

/// The request this responder answers; valid until `mcp_responder_free(responder)`. NULL for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_request(responder: *const mcp_responder) -> *const mcp_request {
    ffi_boundary!(std::ptr::null(), {
        match unsafe { responder.as_ref() } {
            Some(r) => &r.request as *const mcp_request,
            None => std::ptr::null(),
        }
    })
}

/// Answers with a result object (`json`, `len`: a JSON object such as a CallToolResult). Fails with
/// `MCP_STATUS_INVALID_JSON` (nothing sent, the responder can still answer) or
/// `MCP_STATUS_ALREADY_USED` (checked first, here and in every answering function: a responder that
/// has answered says so whatever it is given). The text is copied. When the engine rejects the result (a tool's
/// `content` that is not an array, `structuredContent` missing or against the tool's
/// `outputSchema`, a shape the legacy revision does not allow) the client is answered with an
/// internal error (-32603) carrying the reason, the engine logs it (see `mcp_set_log_callback`),
/// and this returns `MCP_STATUS_INVALID_RESULT`; the responder is used up either way.
/// `mcp_responder_result_checked` also gives the reason.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_result(
    responder: *const mcp_responder,
    json: *const c_char,
    len: usize,
) -> mcp_status {
    mcp_responder_result_checked(responder, json, len, std::ptr::null_mut())
}

/// Like `mcp_responder_result`, and when it returns `MCP_STATUS_INVALID_RESULT` or
/// `MCP_STATUS_ALREADY_USED` it writes an `mcp_error` holding the reason to `*error_out` (may be
/// NULL; written only on those failures; the caller frees it with `mcp_error_free`). The message is
/// the one the client received. Any thread, like every responder function.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_result_checked(
    responder: *const mcp_responder,
    json: *const c_char,
    len: usize,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        // The handle's state before its input: a used responder says so whatever it is given.
        if let Err(e) = r.unused() {
            return e.store(error_out);
        }
        let value = try_json!(json, len);
        if !value.is_object() {
            return mcp_status::MCP_STATUS_INVALID_JSON;
        }
        match r.answer_checked(|x| x.try_reply(Reply::Result(value))) {
            Ok(()) => mcp_status::MCP_STATUS_OK,
            Err(e) => e.store(error_out),
        }
    })
}

/// Answers a tool call with a tool error (`isError: true` with one text block, the text as given:
/// the engine's one form of a failed tool on every host). The text is copied.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_tool_error(
    responder: *const mcp_responder,
    text: *const c_char,
    len: usize,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        if let Err(e) = r.unused() {
            return e.status();
        }
        let text = try_str!(text, len).to_string();
        r.answer(|x| x.reply(ToolResult::Error(text).into_reply()))
    })
}

/// Answers a tool call with one text block, `{"content": [{"type": "text", "text": TEXT}]}`, the
/// text as given (UTF-8, copied): the commonest tool result with no JSON to build, quote or parse
/// (what Python's `str` and JS's `string` results are). Fails with `MCP_STATUS_INVALID_UTF8` or
/// `MCP_STATUS_NULL_PARAMETER` (nothing sent, the responder can still answer) or
/// `MCP_STATUS_ALREADY_USED`. A tool with an `outputSchema` is answered with an internal error
/// instead (the result has no `structuredContent`): `MCP_STATUS_INVALID_RESULT`, as
/// `mcp_responder_result` reports it.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_text(
    responder: *const mcp_responder,
    text: *const c_char,
    len: usize,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        if let Err(e) = r.unused() {
            return e.status();
        }
        let text = try_str!(text, len).to_owned();
        r.answer_tool(ToolResult::Text(text))
    })
}

/// Answers a tool call whose handler has nothing to return: a result with no content
/// (`{"content": []}`), what every host of the engine answers for a tool that returns nothing
/// (Python's `None`, JS's `null`). A tool with an `outputSchema` is answered with an internal
/// error instead (the result has no `structuredContent`): `MCP_STATUS_INVALID_RESULT`, as
/// `mcp_responder_result` reports it.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_nothing(responder: *const mcp_responder) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        if let Err(e) = r.unused() {
            return e.status();
        }
        r.answer_tool(ToolResult::Nothing)
    })
}

/// Answers with a JSON-RPC error: `code`, `message`, and optional `data` JSON (`data` NULL and
/// `data_len` 0 for none). Strings are copied.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_error(
    responder: *const mcp_responder,
    code: i32,
    message: *const c_char,
    message_len: usize,
    data: *const c_char,
    data_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        if let Err(e) = r.unused() {
            return e.status();
        }
        let mut error = RpcError::new(code, try_str!(message, message_len));
        if !data.is_null() {
            error = error.with_data(try_json!(data, data_len));
        }
        r.answer(|x| x.error(error))
    })
}

/// Answers with an input request (MRTR): `requests` is a JSON object mapping keys to
/// `{"method": "elicitation/create" | "sampling/createMessage" | "roots/list", "params": {...}}`;
/// `state` (may be NULL with length 0) comes back with the retried request, readable with
/// `mcp_request_state`, and the answers with `mcp_request_input_responses`. Strings are copied.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_input_required(
    responder: *const mcp_responder,
    requests: *const c_char,
    requests_len: usize,
    state: *const c_char,
    state_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        if let Err(e) = r.unused() {
            return e.status();
        }
        let Value::Object(requests) = try_json!(requests, requests_len) else {
            return mcp_status::MCP_STATUS_INVALID_JSON;
        };
        let state = try_str!(state, state_len);
        let mut input = InputRequired::new();
        input.requests = requests;
        if !state.is_empty() {
            input = input.with_state(state);
        }
        r.answer(|x| x.input_required(input))
    })
}

/// Sends a progress notification when the client asked for progress: `progress` must grow from one
/// call to the next; `total` is sent when `has_total`; `message` may be NULL with length 0. Writes
/// whether it was sent to `*sent_out` (may be NULL). Valid only before the responder answers
/// (afterwards `MCP_STATUS_ALREADY_USED`).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_progress(
    responder: *const mcp_responder,
    progress: f64,
    has_total: bool,
    total: f64,
    message: *const c_char,
    message_len: usize,
    sent_out: *mut bool,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        let message = try_str!(message, message_len);
        let guard = r.inner.lock();
        if guard.is_none() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        let message = (!message.is_empty()).then_some(message);
        let sent = r
            .request
            .ctx
            .notify_progress(progress, has_total.then_some(total), message);
        if !sent_out.is_null() {
            unsafe { *sent_out = sent };
        }
        mcp_status::MCP_STATUS_OK
    })
}

/// Log severities, least to most severe (RFC 5424).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum mcp_log_level {
    /// Debugging detail.
    MCP_LOG_DEBUG = 0,
    /// Information.
    MCP_LOG_INFO = 1,
    /// Normal but significant.
    MCP_LOG_NOTICE = 2,
    /// Warning.
    MCP_LOG_WARNING = 3,
    /// Error.
    MCP_LOG_ERROR = 4,
    /// Critical.
    MCP_LOG_CRITICAL = 5,
    /// Action must be taken at once.
    MCP_LOG_ALERT = 6,
    /// The system is unusable.
    MCP_LOG_EMERGENCY = 7,
}

/// The engine level of an `mcp_log_level` value.
pub(crate) fn log_level(level: u32) -> Option<LoggingLevel> {
    Some(match level {
        0 => LoggingLevel::Debug,
        1 => LoggingLevel::Info,
        2 => LoggingLevel::Notice,
        3 => LoggingLevel::Warning,
        4 => LoggingLevel::Error,
        5 => LoggingLevel::Critical,
        6 => LoggingLevel::Alert,
        7 => LoggingLevel::Emergency,
        _ => return None,
    })
}

/// Sends a log message (`notifications/message`) tied to this request, if the client's level lets it
/// through. `level` is an `mcp_log_level` value (others: `MCP_STATUS_INVALID_ARGUMENT`); `logger` may
/// be NULL with length 0; `data_json` is any JSON value. Writes whether it was sent to `*sent_out` (may
/// be NULL). Valid only before the responder answers.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_log(
    responder: *const mcp_responder,
    level: u32,
    logger: *const c_char,
    logger_len: usize,
    data_json: *const c_char,
    data_len: usize,
    sent_out: *mut bool,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        let Some(level) = log_level(level) else {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        };
        let logger = try_str!(logger, logger_len);
        let data = try_json!(data_json, data_len);
        let guard = r.inner.lock();
        if guard.is_none() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        let sent = r
            .request
            .ctx
            .log(level, (!logger.is_empty()).then_some(logger), data);
        if !sent_out.is_null() {
            unsafe { *sent_out = sent };
        }
        mcp_status::MCP_STATUS_OK
    })
}

/// Closes the response stream this request's messages travel on while the request keeps running
/// (SEP-1699 polling): on a resumable Streamable HTTP session (2025-11-25) the client reconnects with
/// `Last-Event-ID` and receives what the handler sends afterwards, the answer included. Writes to
/// `*closed_out` (may be NULL) whether a stream was closed: false, and nothing done, on transports
/// that cannot resume (stdio, stateless 2026-07-28 requests, batches). Valid only before the
/// responder answers (`MCP_STATUS_ALREADY_USED` after). Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_close_stream(
    responder: *const mcp_responder,
    closed_out: *mut bool,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(responder);
        let guard = r.inner.lock();
        if guard.is_none() {
            return mcp_status::MCP_STATUS_ALREADY_USED;
        }
        let closed = r.request.ctx.close_stream();
        if !closed_out.is_null() {
            unsafe { *closed_out = closed };
        }
        mcp_status::MCP_STATUS_OK
    })
}

/// Whether the client cancelled the request (the answer will then be dropped). False for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_is_cancelled(responder: *const mcp_responder) -> bool {
    ffi_boundary!(false, {
        match unsafe { responder.as_ref() } {
            Some(r) => r.request.ctx.is_cancelled(),
            None => false,
        }
    })
}

/// Frees the responder; if it was not answered, the client gets an internal error. NULL is ignored.
/// Invalidates the request and every view taken from it. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_responder_free(responder: *mut mcp_responder) {
    ffi_boundary!((), {
        if !responder.is_null() {
            drop(unsafe { Box::from_raw(responder) });
        }
    })
}
