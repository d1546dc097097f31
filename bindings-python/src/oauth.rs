//! `OAuth`: the engine's OAuth 2.1 client ([`libmcp::auth::client`]: discovery, registration, PKCE,
//! step-up, refresh) with its two pluggable parts in Python: the authorization step (shows the URL
//! to the user, returns the URL the authorization server redirected back to) and the credential
//! store. Without an authorization callable the engine's [`AutoRedirect`] is used.

use std::sync::Arc;

use libmcp::auth::client::{
    AuthError, AuthorizationHandler, AutoRedirect, ClientCredentials, CredentialStore,
    HandlerFuture, OAuthClient, OAuthConfig, PreRegistered, Tokens,
};
use parking_lot::Mutex;
use pyo3::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::oneshot;

use crate::convert::{from_py, to_py};

/// How the client registers and authorizes (the Python `libmcp.auth.OAuth` fills it in).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct OAuthOptions {
    client_name: String,
    redirect_uri: String,
    client_id: Option<String>,
    client_secret: Option<String>,
    issuer: Option<String>,
    client_metadata_url: Option<String>,
    client_uri: Option<String>,
    offline_access: bool,
}

/// An OAuth client; pass it to `connect_http`. Its tokens outlive connections.
#[pyclass(module = "libmcp._native", frozen)]
pub struct OAuth {
    pub(crate) inner: OAuthClient,
}

#[pymethods]
impl OAuth {
    /// `authorize(url, reply)` runs the user interaction and answers through `reply`; `store` has
    /// `client`, `save_client`, `tokens`, `save_tokens` and `forget_tokens` (dicts in, dicts out).
    #[new]
    #[pyo3(signature = (options, authorize=None, store=None))]
    fn new(options: OAuthOptions, authorize: Option<Py<PyAny>>, store: Option<Py<PyAny>>) -> OAuth {
        let mut config = match authorize {
            Some(f) => OAuthConfig::new(
                options.client_name,
                options.redirect_uri,
                PyAuthorize(Arc::new(f)),
            ),
            None => OAuthConfig::new(options.client_name, options.redirect_uri, AutoRedirect),
        };
        if let Some(s) = store {
            config.store = Arc::new(PyStore(s));
        }
        if let Some(client_id) = options.client_id {
            config.pre_registered = Some(PreRegistered {
                issuer: options.issuer,
                credentials: ClientCredentials {
                    client_id,
                    client_secret: options.client_secret,
                    token_endpoint_auth_method: None,
                },
            });
        }
        config.client_metadata_url = options.client_metadata_url;
        config.client_uri = options.client_uri;
        config.offline_access = options.offline_access;
        OAuth {
            inner: OAuthClient::new(config),
        }
    }

    /// The access token in use, or None before the first authorization.
    #[getter]
    fn access_token(&self) -> Option<String> {
        self.inner.access_token()
    }
}

/// The answer slot of one authorization step: `send(redirect_url)` or `fail(message, denied)`, once.
#[pyclass(module = "libmcp._native", frozen)]
pub struct AuthorizationReply {
    tx: Mutex<Option<oneshot::Sender<Result<String, AuthError>>>>,
}

#[pymethods]
impl AuthorizationReply {
    /// Answers with the URL the authorization server redirected the user to.
    fn send(&self, redirect_url: String) {
        if let Some(tx) = self.tx.lock().take() {
            let _ = tx.send(Ok(redirect_url));
        }
    }

    /// Ends the flow: `denied` when the user declined, else the step failed.
    #[pyo3(signature = (message, denied=false))]
    fn fail(&self, message: String, denied: bool) {
        let e = if denied {
            AuthError::Denied(message)
        } else {
            AuthError::Authorization(message)
        };
        if let Some(tx) = self.tx.lock().take() {
            let _ = tx.send(Err(e));
        }
    }
}

/// The authorization step in Python: `invoke(url, reply)`.
struct PyAuthorize(Arc<Py<PyAny>>);

impl AuthorizationHandler for PyAuthorize {
    fn authorize(&self, authorization_url: String) -> HandlerFuture {
        let invoke = self.0.clone();
        Box::pin(async move {
            let (tx, rx) = oneshot::channel();
            let reply = AuthorizationReply {
                tx: Mutex::new(Some(tx)),
            };
            // A sync callable may block for minutes, waiting for the browser.
            crate::task::call_blocking(invoke, authorization_url, reply)
                .await
                .map_err(|e| AuthError::Authorization(format!("the authorization handler {e}")))?;
            rx.await.unwrap_or_else(|_| {
                Err(AuthError::Authorization(
                    "the authorization handler did not answer".into(),
                ))
            })
        })
    }
}

/// A credential store in Python. Its methods take and return dicts with the fields of
/// [`ClientCredentials`] and [`Tokens`]; a failing method counts as "nothing stored" (the Python
/// side logs it).
struct PyStore(Py<PyAny>);

impl PyStore {
    fn get<T: DeserializeOwned>(&self, method: &str, args: (&str, Option<&str>)) -> Option<T> {
        Python::attach(|py| {
            let found = match args {
                (a, None) => self.0.call_method1(py, method, (a,)),
                (a, Some(b)) => self.0.call_method1(py, method, (a, b)),
            }
            .ok()?;
            let value = from_py(found.bind(py)).ok()?;
            serde_json::from_value(value).ok()
        })
    }

    fn put<T: Serialize>(&self, method: &str, issuer: &str, resource: Option<&str>, value: &T) {
        Python::attach(|py| {
            let Ok(json) = serde_json::to_value(value) else {
                return;
            };
            let Ok(obj) = to_py(py, &json) else {
                return;
            };
            let _ = match resource {
                None => self.0.call_method1(py, method, (issuer, obj)),
                Some(r) => self.0.call_method1(py, method, (issuer, r, obj)),
            };
        });
    }
}

impl CredentialStore for PyStore {
    fn client(&self, issuer: &str) -> Option<ClientCredentials> {
        self.get("client", (issuer, None))
    }
    fn save_client(&self, issuer: &str, client: ClientCredentials) {
        self.put("save_client", issuer, None, &client);
    }
    fn tokens(&self, issuer: &str, resource: &str) -> Option<Tokens> {
        self.get("tokens", (issuer, Some(resource)))
    }
    fn save_tokens(&self, issuer: &str, resource: &str, tokens: Tokens) {
        self.put("save_tokens", issuer, Some(resource), &tokens);
    }
    fn forget_tokens(&self, issuer: &str, resource: &str) {
        Python::attach(|py| {
            let _ = self.0.call_method1(py, "forget_tokens", (issuer, resource));
        });
    }
}
