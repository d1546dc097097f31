//! `OAuth`: the engine's OAuth 2.1 client ([`libmcp::auth::client`]: discovery, registration, PKCE,
//! step-up, refresh) with its two pluggable parts in Python: the authorization step (shows the URL
//! to the user, returns the URL the authorization server redirected back to) and the credential
//! store. Without an authorization callable the engine's [`AutoRedirect`] is used.

use std::sync::Arc;

use libmcp::auth::client::{
    Assertion, AuthError, AuthorizationHandler, AutoRedirect, ClientAuth, ClientCredentials,
    CredentialStore, EnterpriseManaged, Grant, HandlerFuture, OAuthClient, OAuthConfig,
    PreRegistered, SigningKey, Tokens,
};
use parking_lot::Mutex;
use pyo3::exceptions::PyValueError;
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
    grant: Option<GrantOptions>,
    dpop: bool,
}

/// A grant that needs no user (the Python `ClientCredentials`, `JwtBearer`, `EnterpriseManaged`
/// fill it in; `kind` says which, the fields the others leave are None).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct GrantOptions {
    kind: String,
    client_id: Option<String>,
    client_secret: Option<String>,
    private_key_pem: Option<String>,
    signing_algorithm: Option<String>,
    assertion: Option<String>,
    assertion_file: Option<String>,
    idp_token_endpoint: Option<String>,
    idp_client_id: Option<String>,
    idp_client_secret: Option<String>,
}

fn required(value: Option<String>, what: &str) -> PyResult<String> {
    value.ok_or_else(|| PyValueError::new_err(format!("{what} is required")))
}

/// A literal token or a file read at each use.
fn assertion(value: Option<String>, file: Option<String>, what: &str) -> PyResult<Assertion> {
    match (value, file) {
        (Some(v), None) => Ok(Assertion::Value(v)),
        (None, Some(f)) => Ok(Assertion::File(f.into())),
        _ => Err(PyValueError::new_err(format!(
            "give exactly one of {what} and {what}_file"
        ))),
    }
}

fn grant(g: GrantOptions) -> PyResult<Grant> {
    match g.kind.as_str() {
        "client_credentials" => {
            let client_id = required(g.client_id, "client_id")?;
            let auth = match (g.client_secret, g.private_key_pem) {
                (Some(secret), None) => ClientAuth::Secret(secret),
                (None, Some(pem)) => {
                    let alg = g.signing_algorithm.as_deref().unwrap_or("ES256");
                    let key = SigningKey::from_pkcs8_pem(&pem, alg)
                        .map_err(|e| PyValueError::new_err(e.to_string()))?;
                    ClientAuth::PrivateKeyJwt(key)
                }
                _ => {
                    return Err(PyValueError::new_err(
                        "client credentials need exactly one of client_secret and private_key_pem",
                    ));
                }
            };
            Ok(Grant::ClientCredentials { client_id, auth })
        }
        "jwt_bearer" => Ok(Grant::JwtBearer {
            client_id: g.client_id,
            assertion: assertion(g.assertion, g.assertion_file, "assertion")?,
        }),
        "enterprise_managed" => Ok(Grant::EnterpriseManaged(EnterpriseManaged {
            idp_token_endpoint: required(g.idp_token_endpoint, "idp_token_endpoint")?,
            idp_client_id: required(g.idp_client_id, "idp_client_id")?,
            idp_client_secret: g.idp_client_secret,
            id_token: assertion(g.assertion, g.assertion_file, "id_token")?,
            client: ClientCredentials {
                client_id: required(g.client_id, "client_id")?,
                client_secret: g.client_secret,
                token_endpoint_auth_method: None,
            },
        })),
        other => Err(PyValueError::new_err(format!("unknown grant {other:?}"))),
    }
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
    fn new(
        options: OAuthOptions,
        authorize: Option<Py<PyAny>>,
        store: Option<Py<PyAny>>,
    ) -> PyResult<OAuth> {
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
        if let Some(g) = options.grant {
            config.grant = grant(g)?;
            // A grant without a user gets a new token when the current one ends.
            config.offline_access = false;
        }
        config.dpop = options.dpop;
        Ok(OAuth {
            inner: OAuthClient::new(config),
        })
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
