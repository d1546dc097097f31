//! Server-side callbacks: a C function plus `userdata`, wrapped as an engine `Handler`.

use std::ffi::c_void;
use std::sync::Arc;

use libmcp::server::Handler;

use crate::request::mcp_request;
use crate::responder::mcp_responder;

/// A request handler. Called on a runtime thread, possibly on several threads at once for different
/// requests. `request` stays valid until `responder` is freed; the callee owns `responder` and must
/// answer it (now or later, from any thread) and then free it with `mcp_responder_free`. It must not
/// unwind (no C++ exceptions or longjmp out of it).
pub type mcp_handler_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        request: *const mcp_request,
        responder: *mut mcp_responder,
    ),
>;

/// Releases `userdata` when the library drops a callback: called exactly once, on whichever thread
/// drops the last reference (the thread freeing the owner, or a runtime thread). May be NULL.
pub type mcp_userdata_free_cb = Option<unsafe extern "C" fn(userdata: *mut c_void)>;

/// C's `userdata` with its finalizer, which runs exactly once when this drops.
pub(crate) struct Userdata {
    pub(crate) ptr: *mut c_void,
    free: mcp_userdata_free_cb,
}

// The C contract: userdata registered with the library must be usable from any thread.
unsafe impl Send for Userdata {}
unsafe impl Sync for Userdata {}

impl Userdata {
    pub(crate) fn new(ptr: *mut c_void, free: mcp_userdata_free_cb) -> Userdata {
        Userdata { ptr, free }
    }

    /// The pointer (a method, so closures capture the whole `Userdata`, which is `Send + Sync`).
    pub(crate) fn ptr(&self) -> *mut c_void {
        self.ptr
    }
}

impl Drop for Userdata {
    fn drop(&mut self) {
        if let Some(f) = self.free {
            unsafe { f(self.ptr) }
        }
    }
}

/// The engine handler that calls `cb` with a fresh responder per request.
pub(crate) fn handler(
    cb: unsafe extern "C" fn(*mut c_void, *const mcp_request, *mut mcp_responder),
    userdata: Userdata,
) -> Handler {
    let userdata = Arc::new(userdata);
    Arc::new(move |ctx, responder| {
        let r = Box::into_raw(Box::new(mcp_responder::new(ctx, responder)));
        let request = unsafe { &(*r).request as *const mcp_request };
        unsafe { cb(userdata.ptr, request, r) }
    })
}
