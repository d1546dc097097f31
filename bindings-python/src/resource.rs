//! The HTTP server's OAuth 2.1 resource-server mode with a token verifier in Python. The engine
//! ([`libmcp::auth::ResourceServerConfig`]) checks expiry, audience and scopes, serves the protected
//! resource metadata and writes the challenges; Python only turns a bearer token into the
//! principal's fields, through `verify(token, reply)`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use libmcp::auth::{AuthInfo, ResourceServerConfig, TokenRejection};
use parking_lot::Mutex;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::convert::{from_py, to_py};

pyo3::import_exception!(libmcp.errors, DefinitionError);

/// The resource-server options of `serve_http` (the Python `libmcp.auth.ResourceServer` fills it in).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct ResourceOptions {
    resource: String,
    authorization_servers: Vec<String>,
    verify: Py<PyAny>,
    scopes_supported: Option<Vec<String>>,
    required_scopes: Vec<String>,
    tool_scopes: BTreeMap<String, Vec<String>>,
    resource_name: Option<String>,
    resource_documentation: Option<String>,
    metadata: Option<Py<PyAny>>,
    check_audience: bool,
    verify_timeout: Option<f64>,
}

type Verdict = Result<AuthInfo, TokenRejection>;

/// The answer slot of one token check: `accept(...)`, `reject(message)` or `unavailable(message)`,
/// once.
#[pyclass(module = "libmcp._native", frozen)]
pub struct VerifyReply {
    tx: Mutex<Option<oneshot::Sender<Verdict>>>,
}

impl VerifyReply {
    fn answer(&self, verdict: Verdict) {
        if let Some(tx) = self.tx.lock().take() {
            let _ = tx.send(verdict);
        }
    }
}

#[pymethods]
impl VerifyReply {
    /// The token is valid and stands for this principal.
    #[pyo3(signature = (subject=None, client_id=None, scopes=Vec::new(), expires_at=None,
        audience=Vec::new(), claims=None))]
    fn accept(
        &self,
        subject: Option<String>,
        client_id: Option<String>,
        scopes: Vec<String>,
        expires_at: Option<u64>,
        audience: Vec<String>,
        claims: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut info = AuthInfo::new().scopes(scopes).audience(audience);
        if let Some(s) = subject {
            info = info.subject(s);
        }
        if let Some(c) = client_id {
            info = info.client_id(c);
        }
        if let Some(e) = expires_at {
            info = info.expires_at(e);
        }
        if let Some(c) = claims {
            let Value::Object(map) = from_py(c)? else {
                return Err(PyValueError::new_err("claims must be a dict"));
            };
            for (k, v) in map {
                info = info.claim(k, v);
            }
        }
        self.answer(Ok(info));
        Ok(())
    }

    /// The token is invalid (401 `invalid_token`, the message as `error_description`).
    fn reject(&self, message: String) {
        self.answer(Err(TokenRejection::Invalid(message)));
    }

    /// The verifier could not decide (503).
    fn unavailable(&self, message: String) {
        self.answer(Err(TokenRejection::Unavailable(message)));
    }
}

/// The verifier: `verify(token, reply)` on a blocking engine thread (it may do I/O).
fn verifier(
    invoke: Arc<Py<PyAny>>,
) -> impl Fn(String) -> std::pin::Pin<Box<dyn Future<Output = Verdict> + Send>> + Send + Sync + 'static
{
    move |token: String| {
        let invoke = invoke.clone();
        Box::pin(async move {
            let (tx, rx) = oneshot::channel();
            let reply = VerifyReply {
                tx: Mutex::new(Some(tx)),
            };
            if let Err(e) = crate::task::call_blocking(invoke, token, reply).await {
                return Err(TokenRejection::Unavailable(format!(
                    "the token verifier {e}"
                )));
            }
            rx.await.unwrap_or_else(|_| {
                Err(TokenRejection::Unavailable(
                    "the token verifier did not answer".into(),
                ))
            })
        })
    }
}

/// The engine's configuration for these options; a refused one is a `DefinitionError`.
pub fn config(py: Python<'_>, o: ResourceOptions) -> PyResult<Arc<ResourceServerConfig>> {
    let mut b = ResourceServerConfig::builder(o.resource, verifier(Arc::new(o.verify)));
    for s in o.authorization_servers {
        b = b.authorization_server(s);
    }
    if let Some(s) = o.scopes_supported {
        b = b.scopes_supported(s);
    }
    b = b.required_scopes(o.required_scopes);
    for (tool, scopes) in o.tool_scopes {
        b = b.tool_scopes(tool, scopes);
    }
    if let Some(n) = o.resource_name {
        b = b.resource_name(n);
    }
    if let Some(d) = o.resource_documentation {
        b = b.resource_documentation(d);
    }
    if let Some(m) = o.metadata {
        let Value::Object(members) = from_py(m.bind(py))? else {
            return Err(PyValueError::new_err("metadata must be a dict"));
        };
        for (k, v) in members {
            b = b.metadata_member(k, v);
        }
    }
    b = b.check_audience(o.check_audience);
    if let Some(t) = o.verify_timeout {
        let t = Duration::try_from_secs_f64(t).map_err(|_| {
            PyValueError::new_err("verify_timeout must be a non-negative number of seconds")
        })?;
        b = b.verify_timeout(t);
    }
    b.build()
        .map(Arc::new)
        .map_err(|e| DefinitionError::new_err(e.to_string()))
}

/// The principal of a verified token as a dict (`Request.auth`).
pub fn principal(py: Python<'_>, info: &AuthInfo) -> PyResult<Py<PyAny>> {
    let v = json!({
        "subject": info.subject,
        "client_id": info.client_id,
        "scopes": info.scopes,
        "expires_at": info.expires_at,
        "audience": info.audience,
        "claims": Value::Object(info.claims.clone()),
    });
    Ok(to_py(py, &v)?.unbind())
}
