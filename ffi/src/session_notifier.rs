//! `mcp_session`: a handler's handle on the legacy session its request came in on, taken with
//! `mcp_request_session` and kept after the request is answered, to send that session a server
//! notification later (`libmcp::server::SessionNotifier`).

use std::ffi::c_char;

use libmcp::server::{SessionNotifier, SessionNotifyError};

use crate::error::mcp_error;
use crate::request::mcp_request;
use crate::status::mcp_status;

/// A handle on one legacy session (`mcp_request_session`). Owned by the caller, independent of the
/// request it was taken from; release it with `mcp_session_free`. It does not keep an ended session
/// alive. Any thread.
pub struct mcp_session {
    notifier: SessionNotifier,
}

/// The status and message of a refusal.
fn refused(e: &SessionNotifyError) -> mcp_error {
    let status = match e {
        SessionNotifyError::NoSession(_) => mcp_status::MCP_STATUS_NO_SESSION,
        SessionNotifyError::SessionClosed => mcp_status::MCP_STATUS_TRANSPORT,
        _ => mcp_status::MCP_STATUS_INVALID_ARGUMENT,
    };
    mcp_error::new(status, e.to_string())
}

/// The outcome of a send, as a status (and an error written to `error_out`, which may be NULL).
fn outcome(r: Result<(), SessionNotifyError>, error_out: *mut *mut mcp_error) -> mcp_status {
    match r {
        Ok(()) => mcp_status::MCP_STATUS_OK,
        Err(e) => refused(&e).store(error_out),
    }
}

/// Writes to `*session_out` a handle on the legacy session `request` came in on (stdio, a
/// Streamable HTTP session, a 2024-11-05 HTTP+SSE session), valid after the request is answered and
/// its responder freed. Fails with `MCP_STATUS_NO_SESSION` for a 2026-07-28 request (that revision
/// has no sessions) and for a legacy request served without a session; the `mcp_error` written to
/// `*error_out` (may be NULL) says which. Any thread, while the request is valid.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_session(
    request: *const mcp_request,
    session_out: *mut *mut mcp_session,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let r = try_ref!(request);
        try_out!(session_out);
        match r.ctx.session_notifier() {
            Ok(notifier) => {
                unsafe { *session_out = Box::into_raw(Box::new(mcp_session { notifier })) };
                mcp_status::MCP_STATUS_OK
            }
            Err(e) => refused(&e).store(error_out),
        }
    })
}

/// Sends the server notification `method` to the session, with `params_json` (a JSON object; NULL
/// with length 0 for none). Properties the session's revision does not define are dropped, as from
/// every message the engine sends; then the params must be valid for that revision's schema.
/// Fails with `MCP_STATUS_INVALID_ARGUMENT` when the revision has no server notification `method`
/// or the params do not fit it (the `mcp_error` names the property and the rule),
/// `MCP_STATUS_INVALID_JSON` for params that do not parse, and `MCP_STATUS_TRANSPORT` once the
/// session has ended. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_session_notify(
    session: *const mcp_session,
    method: *const c_char,
    method_len: usize,
    params_json: *const c_char,
    params_len: usize,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let s = try_ref!(session);
        let method = try_str!(method, method_len);
        let params = if params_json.is_null() && params_len == 0 {
            None
        } else {
            Some(try_json!(params_json, params_len))
        };
        outcome(s.notifier.notify(method, params), error_out)
    })
}

/// Sends `notifications/elicitation/complete` for the URL-mode elicitation `elicitation_id`
/// (2025-11-25): the out-of-band interaction it asked for has finished. Fails with
/// `MCP_STATUS_INVALID_ARGUMENT` unless the client declared the `elicitation.url` capability and
/// the session's revision has the notification, and with `MCP_STATUS_TRANSPORT` once the session
/// has ended. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_session_elicitation_complete(
    session: *const mcp_session,
    elicitation_id: *const c_char,
    elicitation_id_len: usize,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let s = try_ref!(session);
        let id = try_str!(elicitation_id, elicitation_id_len);
        outcome(s.notifier.elicitation_complete(id), error_out)
    })
}

/// Whether the session is still open (a later send may still find it ended). False for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_session_is_open(session: *const mcp_session) -> bool {
    ffi_boundary!(false, {
        unsafe { session.as_ref() }.is_some_and(|s| s.notifier.is_open())
    })
}

/// Frees the handle (the session itself is unaffected). NULL is ignored. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_session_free(session: *mut mcp_session) {
    ffi_boundary!((), {
        if !session.is_null() {
            drop(unsafe { Box::from_raw(session) });
        }
    })
}
