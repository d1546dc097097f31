//! `mcp_oauth_config`: OAuth 2.1 authorization of the Streamable HTTP client (`OAuthConfig`), with
//! an authorization callback bridged to the engine's `AuthorizationHandler`, or `AutoRedirect`.

use std::ffi::{c_char, c_void};
use std::sync::Arc;

use libmcp::auth::client::{
    AuthError, AuthorizationHandler, AutoRedirect, ClientCredentials, CredentialStore,
    HandlerFuture, MemoryStore, OAuthConfig, PreRegistered, Tokens,
};

use crate::error::mcp_error;
use crate::handler::{Userdata, mcp_userdata_free_cb};
use crate::runtime::{block_on, mcp_runtime};
use crate::status::mcp_status;
use crate::string::{mcp_string, nul_terminated};

/// The user-interaction step of an authorization: show `authorization_url` (`url_len` bytes of
/// UTF-8, NUL-terminated, valid during the call only) to the user and return the URL the
/// authorization server redirected back to (carrying `code` and `state`) as a string made with
/// `mcp_string_new`; the library takes ownership of it. Return NULL to decline: the request that
/// needed authorization then fails. Called on a library worker thread reserved for blocking work (it
/// may block, e.g. while a browser is open), at most once per authorization; other requests of the
/// connection wait meanwhile. It must not unwind and must not call blocking functions of the client
/// being authorized.
pub type mcp_authorize_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        authorization_url: *const c_char,
        url_len: usize,
    ) -> *mut mcp_string,
>;

/// How a client registers and authorizes with OAuth 2.1 (authorization code with PKCE), starting
/// from: dynamic client registration, refresh tokens (`offline_access`) when the authorization server
/// offers them, the built-in auto-redirect interaction (the authorization URL is fetched and its
/// redirect followed once without a user: for headless servers that redirect at once), and tokens
/// and registrations kept in memory, shared by every client connected with copies of this
/// configuration (`mcp_oauth_config_set_store` keeps them elsewhere). A plain value: use it from one
/// thread at a time; `mcp_client_config_set_oauth` copies it (the callback's `userdata` is shared by
/// the copies and released when the last one goes).
pub struct mcp_oauth_config {
    pub(crate) config: OAuthConfig,
}

/// Bridges `mcp_authorize_cb` to the engine.
struct CallbackHandler {
    cb: unsafe extern "C" fn(*mut c_void, *const c_char, usize) -> *mut mcp_string,
    userdata: Arc<Userdata>,
}

impl AuthorizationHandler for CallbackHandler {
    fn authorize(&self, authorization_url: String) -> HandlerFuture {
        let cb = self.cb;
        let userdata = self.userdata.clone();
        Box::pin(async move {
            let call = move || {
                let url = nul_terminated(authorization_url);
                // The callback may block (mcp_oauth_auto_redirect, a browser round trip).
                let reply = crate::runtime::may_block(|| unsafe {
                    cb(userdata.ptr(), url.as_ptr().cast(), url.len() - 1)
                });
                if reply.is_null() {
                    return None;
                }
                Some(unsafe { Box::from_raw(reply) }.into_text())
            };
            match tokio::task::spawn_blocking(call).await {
                Ok(Some(redirect)) => Ok(redirect),
                Ok(None) => Err(AuthError::Denied(
                    "the authorization callback declined".into(),
                )),
                Err(_) => Err(AuthError::Authorization(
                    "the authorization callback did not return".into(),
                )),
            }
        })
    }
}

/// Creates a configuration for a client called `client_name` (its `client_name` in dynamic
/// registration; UTF-8, not empty) whose authorization server sends the user back to `redirect_uri`
/// (an absolute `http://` or `https://` URL, or another `scheme:` URL for native apps; copied).
/// Anything else is `MCP_STATUS_INVALID_ARGUMENT`. Free with `mcp_oauth_config_free`. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_new(
    client_name: *const c_char,
    client_name_len: usize,
    redirect_uri: *const c_char,
    redirect_uri_len: usize,
    config_out: *mut *mut mcp_oauth_config,
) -> mcp_status {
    ffi_boundary!({
        let name = try_str!(client_name, client_name_len);
        let redirect = try_str!(redirect_uri, redirect_uri_len);
        try_out!(config_out);
        if name.is_empty() || !absolute_url(redirect) {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        let c = Box::new(mcp_oauth_config {
            config: OAuthConfig::new(name, redirect, AutoRedirect),
        });
        unsafe { *config_out = Box::into_raw(c) };
        mcp_status::MCP_STATUS_OK
    })
}

/// `scheme:rest` with an RFC 3986 scheme, no whitespace, and `//host` after `http(s):`.
pub(crate) fn absolute_url(s: &str) -> bool {
    let Some((scheme, rest)) = s.split_once(':') else {
        return false;
    };
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    let web = matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https");
    scheme_ok
        && !rest.is_empty()
        && !s.contains(char::is_whitespace)
        && (!web || rest.len() > 2 && rest.starts_with("//"))
}

/// Frees a configuration. NULL is ignored. Clients connected with a copy keep working.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_free(config: *mut mcp_oauth_config) {
    ffi_boundary!((), {
        if !config.is_null() {
            drop(unsafe { Box::from_raw(config) });
        }
    })
}

/// Interacts through `callback` (see `mcp_authorize_cb`) with `userdata`; `free_userdata` (may be
/// NULL) runs exactly once when the last copy of the configuration goes, also when this call fails
/// or a later call replaces the callback. A NULL `callback` restores the built-in auto-redirect.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_authorize_callback(
    config: *mut mcp_oauth_config,
    callback: mcp_authorize_cb,
    userdata: *mut c_void,
    free_userdata: mcp_userdata_free_cb,
) -> mcp_status {
    let userdata = Userdata::new(userdata, free_userdata);
    ffi_boundary!({
        let c = try_mut!(config);
        c.config.handler = match callback {
            Some(cb) => Arc::new(CallbackHandler {
                cb,
                userdata: Arc::new(userdata),
            }),
            None => Arc::new(AutoRedirect),
        };
        mcp_status::MCP_STATUS_OK
    })
}

/// Uses pre-registered client credentials instead of registering: `client_id` (UTF-8, not empty),
/// `client_secret` (NULL with length 0 for a public client), `token_endpoint_auth_method`
/// ("client_secret_basic", "client_secret_post" or "none"; NULL with length 0 picks one from the
/// secret and the server's metadata) and `issuer` (the authorization server they belong to; NULL with
/// length 0 offers them to any). All copied. An unknown method is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_client_credentials(
    config: *mut mcp_oauth_config,
    client_id: *const c_char,
    client_id_len: usize,
    client_secret: *const c_char,
    client_secret_len: usize,
    token_endpoint_auth_method: *const c_char,
    method_len: usize,
    issuer: *const c_char,
    issuer_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let id = try_str!(client_id, client_id_len);
        let secret = try_str!(client_secret, client_secret_len);
        let method = try_str!(token_endpoint_auth_method, method_len);
        let issuer = try_str!(issuer, issuer_len);
        if id.is_empty()
            || !matches!(
                method,
                "" | "client_secret_basic" | "client_secret_post" | "none"
            )
            || (!issuer.is_empty() && !absolute_url(issuer))
        {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        let some = |s: &str| (!s.is_empty()).then(|| s.to_owned());
        c.config.pre_registered = Some(PreRegistered {
            issuer: some(issuer),
            credentials: ClientCredentials {
                client_id: id.to_owned(),
                client_secret: some(secret),
                token_endpoint_auth_method: some(method),
            },
        });
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets the HTTPS URL (with a path) hosting this client's metadata document, used as its
/// `client_id` with authorization servers that support client ID metadata documents (SEP-991).
/// NULL with length 0 clears it; anything but an `https://` URL with a path is
/// `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_client_metadata_url(
    config: *mut mcp_oauth_config,
    url: *const c_char,
    url_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let url = try_str!(url, url_len);
        if url.is_empty() {
            c.config.client_metadata_url = None;
            return mcp_status::MCP_STATUS_OK;
        }
        let has_path = url
            .strip_prefix("https://")
            .and_then(|rest| rest.split_once('/'))
            .is_some_and(|(host, path)| !host.is_empty() && !path.is_empty());
        if !has_path || url.contains(['#', ' ']) {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        c.config.client_metadata_url = Some(url.to_owned());
        mcp_status::MCP_STATUS_OK
    })
}

/// Sets the `client_uri` sent in dynamic registration (an absolute URL, copied); NULL with length 0
/// clears it. Anything else is `MCP_STATUS_INVALID_ARGUMENT`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_client_uri(
    config: *mut mcp_oauth_config,
    uri: *const c_char,
    uri_len: usize,
) -> mcp_status {
    ffi_boundary!({
        let c = try_mut!(config);
        let uri = try_str!(uri, uri_len);
        if uri.is_empty() {
            c.config.client_uri = None;
        } else if absolute_url(uri) {
            c.config.client_uri = Some(uri.to_owned());
        } else {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        mcp_status::MCP_STATUS_OK
    })
}

/// Whether to ask for `offline_access` (refresh tokens) when the authorization server lists it
/// (default on).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_offline_access(
    config: *mut mcp_oauth_config,
    on: bool,
) -> mcp_status {
    ffi_boundary!({
        try_mut!(config).config.offline_access = on;
        mcp_status::MCP_STATUS_OK
    })
}

impl mcp_oauth_config {
    /// The engine configuration.
    pub(crate) fn config(&self) -> &OAuthConfig {
        &self.config
    }
}

/// The built-in auto-redirect interaction, for an `mcp_authorize_cb` that wants to log, check or
/// decide first: fetches `authorization_url` (UTF-8, copied) on `runtime` without following
/// redirects and writes the `Location` it redirects to to `*redirect_out` (free with
/// `mcp_string_free`). Blocks; call it from an `mcp_authorize_cb` or any thread that is not one of
/// `runtime`'s. On failure writes the reason to `*error_out` (may be NULL): `MCP_STATUS_TRANSPORT`
/// when the endpoint cannot be reached, `MCP_STATUS_PROTOCOL` when it answers without redirecting.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_auto_redirect(
    runtime: *const mcp_runtime,
    authorization_url: *const c_char,
    url_len: usize,
    redirect_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let rt = try_ref!(runtime).rt.clone();
        let url = try_str!(authorization_url, url_len).to_owned();
        try_out!(redirect_out);
        if !absolute_url(&url) {
            return mcp_status::MCP_STATUS_INVALID_ARGUMENT;
        }
        match block_on(&rt, "mcp_oauth_auto_redirect", async move {
            AutoRedirect.authorize(url).await
        }) {
            Ok(Ok(redirect)) => {
                unsafe { *redirect_out = mcp_string::new_raw(redirect) };
                mcp_status::MCP_STATUS_OK
            }
            Ok(Err(e)) => {
                let status = match e {
                    AuthError::Http(_) => mcp_status::MCP_STATUS_TRANSPORT,
                    _ => mcp_status::MCP_STATUS_PROTOCOL,
                };
                mcp_error::new(status, e.to_string()).store(error_out)
            }
            Err(e) => e.store(error_out),
        }
    })
}

/// What an `mcp_credential_store` entry holds.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum mcp_credential_kind {
    /// A client registration at an authorization server (`resource` is empty), as JSON
    /// `{"client_id": "...", "client_secret": "..."|null, "token_endpoint_auth_method": "..."|null}`.
    MCP_CREDENTIAL_CLIENT = 0,
    /// Tokens an authorization server issued for a resource, as JSON `{"access_token": "...",
    /// "refresh_token": "..."|null, "expires_at": UNIX-SECONDS|null, "scope": "..."|null}`.
    MCP_CREDENTIAL_TOKENS = 1,
}

/// Loads the entry of `kind` for `issuer` (and `resource`, for tokens; views valid during the call)
/// as a JSON string made with `mcp_string_new` (the library takes it), or NULL when there is none.
/// Text that is not such JSON counts as none. Called on a runtime thread: it must be quick (no
/// network) and must not unwind.
pub type mcp_credential_load_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        kind: mcp_credential_kind,
        issuer: crate::string::mcp_str,
        resource: crate::string::mcp_str,
    ) -> *mut mcp_string,
>;

/// Stores the entry of `kind` for `issuer` (and `resource`) as the JSON `json` (a view valid during
/// the call), replacing any; an empty `json` (length 0) means forget it (tokens that stopped
/// working). Called on a runtime thread: it must be quick and must not unwind.
pub type mcp_credential_save_cb = Option<
    unsafe extern "C" fn(
        userdata: *mut c_void,
        kind: mcp_credential_kind,
        issuer: crate::string::mcp_str,
        resource: crate::string::mcp_str,
        json: crate::string::mcp_str,
    ),
>;

type LoadFn = unsafe extern "C" fn(
    *mut c_void,
    mcp_credential_kind,
    crate::string::mcp_str,
    crate::string::mcp_str,
) -> *mut mcp_string;
type SaveFn = unsafe extern "C" fn(
    *mut c_void,
    mcp_credential_kind,
    crate::string::mcp_str,
    crate::string::mcp_str,
    crate::string::mcp_str,
);

/// Bridges the C callbacks to the engine's `CredentialStore`.
struct CallbackStore {
    load: LoadFn,
    save: SaveFn,
    userdata: Userdata,
}

impl CallbackStore {
    fn load(&self, kind: mcp_credential_kind, issuer: &str, resource: &str) -> Option<String> {
        let (issuer, resource) = (nul_terminated(issuer), nul_terminated(resource));
        let reply = unsafe {
            (self.load)(
                self.userdata.ptr(),
                kind,
                crate::string::mcp_str::of_nul_terminated(&issuer),
                crate::string::mcp_str::of_nul_terminated(&resource),
            )
        };
        if reply.is_null() {
            return None;
        }
        Some(unsafe { Box::from_raw(reply) }.into_text())
    }

    fn save(&self, kind: mcp_credential_kind, issuer: &str, resource: &str, json: String) {
        let (issuer, resource, json) = (
            nul_terminated(issuer),
            nul_terminated(resource),
            nul_terminated(json),
        );
        unsafe {
            (self.save)(
                self.userdata.ptr(),
                kind,
                crate::string::mcp_str::of_nul_terminated(&issuer),
                crate::string::mcp_str::of_nul_terminated(&resource),
                crate::string::mcp_str::of_nul_terminated(&json),
            )
        }
    }
}

impl CredentialStore for CallbackStore {
    fn client(&self, issuer: &str) -> Option<ClientCredentials> {
        let json = self.load(mcp_credential_kind::MCP_CREDENTIAL_CLIENT, issuer, "")?;
        serde_json::from_str(&json).ok()
    }
    fn save_client(&self, issuer: &str, client: ClientCredentials) {
        let json = serde_json::to_string(&client).unwrap_or_default();
        self.save(mcp_credential_kind::MCP_CREDENTIAL_CLIENT, issuer, "", json);
    }
    fn tokens(&self, issuer: &str, resource: &str) -> Option<Tokens> {
        let json = self.load(mcp_credential_kind::MCP_CREDENTIAL_TOKENS, issuer, resource)?;
        serde_json::from_str(&json).ok()
    }
    fn save_tokens(&self, issuer: &str, resource: &str, tokens: Tokens) {
        let json = serde_json::to_string(&tokens).unwrap_or_default();
        self.save(
            mcp_credential_kind::MCP_CREDENTIAL_TOKENS,
            issuer,
            resource,
            json,
        );
    }
    fn forget_tokens(&self, issuer: &str, resource: &str) {
        self.save(
            mcp_credential_kind::MCP_CREDENTIAL_TOKENS,
            issuer,
            resource,
            String::new(),
        );
    }
}

/// Keeps registrations and tokens through `load` and `save` (see `mcp_credential_load_cb` and
/// `mcp_credential_save_cb`; both needed) instead of in memory, e.g. so tokens outlive the process.
/// `free_userdata` (may be NULL) runs exactly once when the last copy of the configuration goes,
/// also when this call fails or a later call replaces the store. Both NULL restores the in-memory
/// store; only one NULL is `MCP_STATUS_NULL_PARAMETER`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_oauth_config_set_store(
    config: *mut mcp_oauth_config,
    load: mcp_credential_load_cb,
    save: mcp_credential_save_cb,
    userdata: *mut c_void,
    free_userdata: mcp_userdata_free_cb,
) -> mcp_status {
    let userdata = Userdata::new(userdata, free_userdata);
    ffi_boundary!({
        let c = try_mut!(config);
        c.config.store = match (load, save) {
            (Some(load), Some(save)) => Arc::new(CallbackStore {
                load,
                save,
                userdata,
            }),
            (None, None) => Arc::new(MemoryStore::default()),
            _ => return mcp_status::MCP_STATUS_NULL_PARAMETER,
        };
        mcp_status::MCP_STATUS_OK
    })
}
