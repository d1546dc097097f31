//! What the host's middleware established about a mounted request (Express's `req.auth`) stays in
//! the JS layer's table; the request carries only its number through the engine, as an extension
//! (`ExchangeRequest::extension`), and the number is listed as released once the engine dropped its
//! last copy, so that the JS layer can forget it.

use std::sync::{Arc, LazyLock};

use libmcp::server::RequestContext;
use parking_lot::Mutex;

/// Numbers of host requests whose last copy the engine dropped, not yet handed to the JS layer.
static RELEASED: LazyLock<Mutex<Vec<f64>>> = LazyLock::new(Default::default);

/// The number of a request in the JS layer's table of host values, carried through the engine
/// as a request extension; when the engine drops its last copy the number is released.
#[derive(Clone)]
pub(crate) struct HostRequest(Arc<HostNumber>);

struct HostNumber(f64);

impl Drop for HostNumber {
    fn drop(&mut self) {
        RELEASED.lock().push(self.0);
    }
}

impl HostRequest {
    /// The extension for the JS layer's request number `n`.
    pub(crate) fn new(n: f64) -> HostRequest {
        HostRequest(Arc::new(HostNumber(n)))
    }
}

/// The host request number of the HTTP request `ctx` came with, if the host attached one.
pub(crate) fn host_request(ctx: &RequestContext) -> Option<f64> {
    ctx.http_extension::<HostRequest>().map(|h| h.0.0)
}

/// The numbers released since the last call.
pub(crate) fn take_released() -> Vec<f64> {
    std::mem::take(&mut *RELEASED.lock())
}
