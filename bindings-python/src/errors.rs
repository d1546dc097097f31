//! The one place where engine errors become Python exceptions (classes defined in `libmcp.errors`).

use libmcp::Error;
use libmcp::server::SessionNotifyError;
use pyo3::prelude::*;

use crate::convert::to_py;

pyo3::import_exception!(libmcp.errors, McpError);
pyo3::import_exception!(libmcp.errors, ProtocolError);
pyo3::import_exception!(libmcp.errors, ProtocolViolation);
pyo3::import_exception!(libmcp.errors, TransportError);
pyo3::import_exception!(libmcp.errors, ConnectionClosed);
pyo3::import_exception!(libmcp.errors, RequestTimeout);
pyo3::import_exception!(libmcp.errors, Cancelled);
pyo3::import_exception!(libmcp.errors, AuthError);
pyo3::import_exception!(libmcp.errors, InvalidArgument);
pyo3::import_exception!(libmcp.errors, DefinitionError);
pyo3::import_exception!(libmcp.errors, NoSessionError);

/// The exception for an engine error.
pub fn to_pyerr(py: Python<'_>, error: Error) -> PyErr {
    let detail = error.detail();
    match error {
        Error::Rpc(e) => {
            let data = match &e.data {
                Some(d) => match to_py(py, d) {
                    Ok(d) => d.unbind(),
                    Err(err) => return err,
                },
                None => py.None(),
            };
            ProtocolError::new_err((e.code, e.message, data))
        }
        Error::Transport(_) => TransportError::new_err(detail),
        Error::Closed => ConnectionClosed::new_err(detail),
        Error::Timeout(d) => RequestTimeout::new_err((detail, d.as_secs_f64())),
        Error::Cancelled => Cancelled::new_err(detail),
        Error::Protocol(_) | Error::Negotiation(_) => ProtocolViolation::new_err(detail),
        Error::Authorization(_) => AuthError::new_err(detail),
        Error::InvalidDefinitions(_) | Error::InvalidConfig(_) => DefinitionError::new_err(detail),
        Error::InvalidArgument(_) => InvalidArgument::new_err(detail),
        other => McpError::new_err(other.to_string()),
    }
}

/// The exception for a refusal of a session notifier: no session (`NoSessionError`), the session
/// ended (`ConnectionClosed`), or a bad method, params or undeclared capability (`InvalidArgument`).
pub fn session_error(e: &SessionNotifyError) -> PyErr {
    match e {
        SessionNotifyError::NoSession(_) => NoSessionError::new_err(e.to_string()),
        SessionNotifyError::SessionClosed => ConnectionClosed::new_err(e.to_string()),
        _ => InvalidArgument::new_err(e.to_string()),
    }
}
