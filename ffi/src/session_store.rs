//! The session store of a multi-instance C server: three C callbacks (load, save, remove) as the
//! core's `SessionStore`, set on the HTTP config with `mcp_http_server_config_set_session_store`.
//! Records cross the boundary as the core's JSON form of `SessionRecord`.

use std::ffi::{c_char, c_void};
use std::fmt;
use std::sync::Arc;

use libmcp::transport::http::{SessionRecord, SessionStore, SessionStoreError, StoreFuture};

use crate::handler::Userdata;
use crate::string::{mcp_string, nul_terminated};

/// Loads the record of session `id` (`id_len` bytes, NUL-terminated, valid during the call): on
/// success return true and write the record's JSON, exactly as `mcp_session_save_cb` received it,
/// to `*record_out` as an `mcp_string` the library takes over (`mcp_string_new`), or leave it NULL
/// when there is no such session. Return false when the store cannot answer (the request gets
/// 503). Called on a blocking-pool thread, possibly on several at once: it may block (a network
/// store) and may call blocking library functions. Must not unwind.
pub type mcp_session_load_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        id: *const c_char,
        id_len: usize,
        record_out: *mut *mut mcp_string,
    ) -> bool,
>;

/// Creates or replaces the record of session `id`: `record_json` (`record_len` bytes,
/// NUL-terminated, valid during the call) is the JSON to keep and hand back on load. Return false
/// when it could not be kept (the request gets 503). Threads as for `mcp_session_load_cb`.
pub type mcp_session_save_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        id: *const c_char,
        id_len: usize,
        record_json: *const c_char,
        record_len: usize,
    ) -> bool,
>;

/// Deletes the record of session `id` (it was deleted or expired) and writes whether there was one
/// to `*removed_out`. Return false when the store cannot answer. Threads as for
/// `mcp_session_load_cb`.
pub type mcp_session_remove_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        id: *const c_char,
        id_len: usize,
        removed_out: *mut bool,
    ) -> bool,
>;

type LoadFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize, *mut *mut mcp_string) -> bool;
type SaveFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize, *const c_char, usize) -> bool;
type RemoveFn = unsafe extern "C" fn(*mut c_void, *const c_char, usize, *mut bool) -> bool;

/// The C callbacks as the core's store.
pub(crate) struct CSessionStore {
    load: LoadFn,
    save: SaveFn,
    remove: RemoveFn,
    userdata: Arc<Userdata>,
}

impl CSessionStore {
    pub(crate) fn new(
        load: LoadFn,
        save: SaveFn,
        remove: RemoveFn,
        userdata: Userdata,
    ) -> CSessionStore {
        CSessionStore {
            load,
            save,
            remove,
            userdata: Arc::new(userdata),
        }
    }
}

impl fmt::Debug for CSessionStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CSessionStore")
    }
}

/// Runs `call(userdata, id, id_len)` on a blocking-pool thread, where C may block; a failed or
/// lost call is `Unavailable` naming `what`.
async fn on_blocking_thread<T: Send + 'static>(
    userdata: &Arc<Userdata>,
    id: &str,
    what: &'static str,
    call: impl FnOnce(*mut c_void, *const c_char, usize) -> Option<T> + Send + 'static,
) -> Result<T, SessionStoreError> {
    let ud = userdata.clone();
    let id = nul_terminated(id);
    let run =
        move || crate::runtime::may_block(|| call(ud.ptr(), id.as_ptr().cast(), id.len() - 1));
    match tokio::task::spawn_blocking(run).await {
        Ok(Some(v)) => Ok(v),
        _ => Err(SessionStoreError::Unavailable(format!(
            "the {what} callback failed"
        ))),
    }
}

impl SessionStore for CSessionStore {
    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Result<Option<SessionRecord>, SessionStoreError>> {
        let load = self.load;
        Box::pin(async move {
            let json = on_blocking_thread(&self.userdata, id, "session load", move |ud, p, n| {
                let mut out: *mut mcp_string = std::ptr::null_mut();
                let ok = unsafe { load(ud, p, n, &mut out) };
                let text = (!out.is_null()).then(|| unsafe { Box::from_raw(out) }.into_text());
                ok.then_some(text)
            })
            .await?;
            json.map(|j| SessionRecord::from_json(j.as_bytes()))
                .transpose()
        })
    }

    fn save<'a>(
        &'a self,
        record: &'a SessionRecord,
    ) -> StoreFuture<'a, Result<(), SessionStoreError>> {
        let save = self.save;
        let json = nul_terminated(String::from_utf8_lossy(&record.to_json()));
        Box::pin(async move {
            on_blocking_thread(
                &self.userdata,
                &record.id,
                "session save",
                move |ud, p, n| {
                    let ok = unsafe { save(ud, p, n, json.as_ptr().cast(), json.len() - 1) };
                    ok.then_some(())
                },
            )
            .await
        })
    }

    fn remove<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Result<bool, SessionStoreError>> {
        let remove = self.remove;
        Box::pin(async move {
            on_blocking_thread(&self.userdata, id, "session remove", move |ud, p, n| {
                let mut removed = false;
                let ok = unsafe { remove(ud, p, n, &mut removed) };
                ok.then_some(removed)
            })
            .await
        })
    }
}
