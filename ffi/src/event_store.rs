//! The event store of a multi-instance C server: three C callbacks (append, replay, remove) as the
//! core's `EventStore`, which keeps the SSE events of legacy sessions for resumption with
//! `Last-Event-ID`; set with `mcp_http_server_config_set_event_store`.

use std::ffi::{c_char, c_void};
use std::fmt;

use libmcp::transport::OutKind;
use libmcp::transport::http::{EventStore, ReplayError, StoredEvent};

use crate::handler::Userdata;
use crate::status::mcp_status;
use crate::string::nul_terminated;

/// What a recorded event carries (`kind` of the event callbacks).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum mcp_event_kind {
    /// A result response (it ends the POST stream it answers).
    MCP_EVENT_RESULT = 0,
    /// An error response; `error_code` holds its JSON-RPC code.
    MCP_EVENT_ERROR = 1,
    /// A notification.
    MCP_EVENT_NOTIFICATION = 2,
    /// A server-to-client request.
    MCP_EVENT_REQUEST = 3,
}

/// How a replay went (the value `mcp_event_replay_cb` returns).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum mcp_replay {
    /// The events after `after` were pushed (none is fine: nothing followed yet).
    MCP_REPLAY_OK = 0,
    /// Some of them were dropped to keep within the store's bounds (the client gets 404 and
    /// starts over).
    MCP_REPLAY_EVICTED = 1,
    /// The store never recorded event `after` on that stream.
    MCP_REPLAY_UNKNOWN = 2,
}

/// Records one event: the `seq`-th message (from 1) on stream `stream` of session `session` (both
/// views NUL-terminated and valid during the call), `kind` an `mcp_event_kind` value (`error_code`
/// set for errors, else 0), `data` the serialised JSON-RPC message. Calls for one stream come in
/// `seq` order. Called on a runtime thread for every SSE event a legacy session sends, under that
/// stream's lock: it must be quick and must not block or call blocking library functions.
pub type mcp_event_append_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        session: *const c_char,
        session_len: usize,
        stream: u64,
        seq: u64,
        kind: u32,
        error_code: i32,
        data: *const c_char,
        data_len: usize,
    ),
>;

/// Hands back the events of `stream` in `session` that follow `after` (a `seq`; 0: the whole
/// stream), in order, each with `mcp_event_list_push(events, ...)`, and returns an `mcp_replay`
/// value. `events` is valid only during the call. Threads as for `mcp_event_append_cb`.
pub type mcp_event_replay_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        session: *const c_char,
        session_len: usize,
        stream: u64,
        after: u64,
        events: *mut mcp_event_list,
    ) -> u32,
>;

/// Forgets every event of `session` (it ended or expired). Threads as for `mcp_event_append_cb`.
pub type mcp_event_remove_cb =
    Option<unsafe extern "C" fn(userdata: *mut c_void, session: *const c_char, session_len: usize)>;

/// The events a replay hands back (see `mcp_event_replay_cb`).
pub struct mcp_event_list {
    stream: u64,
    events: Vec<StoredEvent>,
}

type AppendFn = unsafe extern "C" fn(
    *mut c_void,
    *const c_char,
    usize,
    u64,
    u64,
    u32,
    i32,
    *const c_char,
    usize,
);
type ReplayFn =
    unsafe extern "C" fn(*mut c_void, *const c_char, usize, u64, u64, *mut mcp_event_list) -> u32;
type RemoveFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize);

/// The C callbacks as the core's store.
pub(crate) struct CEventStore {
    pub(crate) append: AppendFn,
    pub(crate) replay: ReplayFn,
    pub(crate) remove: RemoveFn,
    pub(crate) userdata: Userdata,
}

impl fmt::Debug for CEventStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CEventStore")
    }
}

impl EventStore for CEventStore {
    fn append(&self, session: &str, event: StoredEvent) {
        let (kind, code) = match event.kind {
            OutKind::Result => (mcp_event_kind::MCP_EVENT_RESULT, 0),
            OutKind::Error(code) => (mcp_event_kind::MCP_EVENT_ERROR, code),
            OutKind::Notification => (mcp_event_kind::MCP_EVENT_NOTIFICATION, 0),
            OutKind::Request => (mcp_event_kind::MCP_EVENT_REQUEST, 0),
        };
        let s = nul_terminated(session);
        let mut data = event.data.to_vec();
        data.push(0);
        unsafe {
            (self.append)(
                self.userdata.ptr(),
                s.as_ptr().cast(),
                session.len(),
                event.stream,
                event.seq,
                kind as u32,
                code,
                data.as_ptr().cast(),
                event.data.len(),
            )
        }
    }

    fn replay(
        &self,
        session: &str,
        stream: u64,
        after: u64,
    ) -> Result<Vec<StoredEvent>, ReplayError> {
        let s = nul_terminated(session);
        let mut list = mcp_event_list {
            stream,
            events: Vec::new(),
        };
        let ptr = self.userdata.ptr();
        let outcome = unsafe {
            (self.replay)(
                ptr,
                s.as_ptr().cast(),
                session.len(),
                stream,
                after,
                &mut list,
            )
        };
        match outcome {
            0 => Ok(list.events),
            1 => Err(ReplayError::Evicted),
            _ => Err(ReplayError::Unknown),
        }
    }

    fn remove_session(&self, session: &str) {
        let s = nul_terminated(session);
        unsafe { (self.remove)(self.userdata.ptr(), s.as_ptr().cast(), session.len()) }
    }
}

/// Adds one event to a replay's list: its `seq` (each above the one pushed before), `kind` (an
/// `mcp_event_kind` value, with `error_code` for errors) and `data` (`data_len` bytes, copied), as
/// `mcp_event_append_cb` received them. An unknown kind, a `seq` not above the last one pushed, or
/// data that is not UTF-8 is refused (`MCP_STATUS_INVALID_ARGUMENT` / `_INVALID_UTF8`). Only during
/// the `mcp_event_replay_cb` call that received `events`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_event_list_push(
    events: *mut mcp_event_list,
    seq: u64,
    kind: u32,
    error_code: i32,
    data: *const c_char,
    data_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let list = try_mut!(events);
        let data = try_str!(data, data_len);
        let kind = match kind {
            0 => OutKind::Result,
            1 => OutKind::Error(error_code),
            2 => OutKind::Notification,
            3 => OutKind::Request,
            _ => return mcp_status::MCP_STATUS_INVALID_ARGUMENT,
        };
        if list.events.last().is_some_and(|e| e.seq >= seq) {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        list.events.push(StoredEvent {
            stream: list.stream,
            seq,
            kind,
            data: data.as_bytes().to_vec().into(),
        });
        mcp_status::MCP_STATUS_OK
    })
}
