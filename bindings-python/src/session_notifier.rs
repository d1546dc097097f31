//! `SessionNotifier`: a handler's handle on the legacy session of its request
//! (`Request.session_notifier()`), kept after the request is answered to send that session a
//! server notification (the engine's [`libmcp::server::SessionNotifier`]; the checks are the
//! engine's).

use libmcp::server::SessionNotifier as Engine;
use pyo3::prelude::*;

use crate::convert::from_py;
use crate::errors::session_error;

/// A handle on one legacy session.
#[pyclass(module = "libmcp._native", frozen)]
pub struct SessionNotifier(pub Engine);

#[pymethods]
impl SessionNotifier {
    /// The protocol revision negotiated on the session.
    #[getter]
    fn protocol_version(&self) -> &str {
        self.0.protocol_version().as_str()
    }

    /// Whether the session is still open.
    #[getter]
    fn is_open(&self) -> bool {
        self.0.is_open()
    }

    /// Sends the server notification `method` with `params` (a dict, or None for none).
    #[pyo3(signature = (method, params=None))]
    fn notify(&self, method: &str, params: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let params = params.filter(|p| !p.is_none()).map(from_py).transpose()?;
        self.0.notify(method, params).map_err(|e| session_error(&e))
    }

    /// Sends `notifications/elicitation/complete` for the URL-mode elicitation `elicitation_id`.
    fn elicitation_complete(&self, elicitation_id: &str) -> PyResult<()> {
        self.0
            .elicitation_complete(elicitation_id)
            .map_err(|e| session_error(&e))
    }
}
