//! `mcp_request`: what a server handler is asked, as borrowed JSON views.

use std::sync::OnceLock;

use libmcp::server::RequestContext;
use libmcp::version::Era;
use serde_json::Value;

use crate::string::{mcp_str, nul_terminated};

/// The protocol era of a request.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum mcp_era {
    /// The `initialize` handshake era (2025-11-25 and before).
    MCP_ERA_LEGACY = 0,
    /// Per-request `_meta` era (no handshake).
    MCP_ERA_MODERN = 1,
}

/// One incoming request (tools/call, resources/read, prompts/get, completion/complete, or a method
/// the host answers itself: `mcp_server_builder_set_method_handler`). Owned by the library; valid
/// until its responder is freed. Accessors may be called from any thread.
pub struct mcp_request {
    pub(crate) ctx: RequestContext,
    cache: [OnceLock<String>; FIELDS],
    /// The task id, NUL-terminated, once the request runs as a task (set at most once).
    task: OnceLock<String>,
    /// HTTP headers looked up so far (by lowercase name), for `mcp_request_http_header`.
    pub(crate) http_headers: NamedViews,
    /// String arguments looked up so far (by name), for `mcp_request_argument_string`.
    pub(crate) string_arguments: NamedViews,
}

/// Values looked up by name, each copied NUL-terminated on first use and kept until the request is
/// dropped: append-only, so the views handed out stay valid.
#[derive(Default)]
pub(crate) struct NamedViews(parking_lot::Mutex<Vec<(String, String)>>);

impl NamedViews {
    /// The view of `name`'s value; `make` gives the value (not yet NUL-terminated) the first time.
    pub(crate) fn view<E>(
        &self,
        name: &str,
        make: impl FnOnce() -> Result<String, E>,
    ) -> Result<mcp_str, E> {
        let mut cache = self.0.lock();
        if let Some((_, v)) = cache.iter().find(|(n, _)| n == name) {
            return Ok(mcp_str::of_nul_terminated(v));
        }
        let value = nul_terminated(make()?);
        let view = mcp_str::of_nul_terminated(&value);
        cache.push((name.to_owned(), value));
        Ok(view)
    }
}

const FIELDS: usize = 19;

#[derive(Clone, Copy)]
enum Field {
    Method,
    Name,
    Uri,
    Arguments,
    Params,
    Meta,
    ProgressToken,
    ClientCapabilities,
    ProtocolVersion,
    InputResponses,
    RequestState,
    TemplateVars,
    Id,
    ClientInfo,
    Auth,
    AuthSubject,
    AuthClientId,
    AuthScopes,
    AuthClaims,
}

impl mcp_request {
    pub(crate) fn new(ctx: RequestContext) -> mcp_request {
        mcp_request {
            ctx,
            cache: Default::default(),
            task: OnceLock::new(),
            http_headers: Default::default(),
            string_arguments: Default::default(),
        }
    }

    /// The id of the task the request runs as; empty before it starts one (or if it never does).
    pub(crate) fn task_id(&self) -> mcp_str {
        match self.ctx.task_id() {
            Some(id) => mcp_str::of_nul_terminated(self.task.get_or_init(|| nul_terminated(id))),
            None => mcp_str::empty(),
        }
    }

    /// The field as NUL-terminated text, computed once; "" (len 0) when absent.
    fn field(&self, f: Field) -> mcp_str {
        let s = self.cache[f as usize].get_or_init(|| {
            let c = &self.ctx;
            let json = |v: Option<&Value>| v.map(Value::to_string).unwrap_or_default();
            nul_terminated(match f {
                Field::Method => c.method().to_string(),
                Field::Name => c.name().unwrap_or_default().to_string(),
                Field::Uri => c.uri().unwrap_or_default().to_string(),
                Field::Arguments => c.arguments().to_string(),
                Field::Params => c.params().to_string(),
                Field::Meta => c
                    .meta()
                    .map(|m| Value::Object(m.clone()).to_string())
                    .unwrap_or_default(),
                Field::ProgressToken => json(c.progress_token()),
                Field::ClientCapabilities => c.client_capabilities().to_string(),
                Field::ProtocolVersion => c.protocol_version().as_str().to_string(),
                Field::InputResponses => c
                    .input_responses()
                    .map(|m| Value::Object(m.clone()).to_string())
                    .unwrap_or_default(),
                Field::RequestState => c.request_state().unwrap_or_default().to_string(),
                Field::TemplateVars => c
                    .template_vars()
                    .map(|m| Value::Object(m.clone()).to_string())
                    .unwrap_or_default(),
                Field::Id => c.id().to_value().to_string(),
                Field::ClientInfo => json(c.client_info()),
                Field::Auth => c
                    .auth()
                    .and_then(|a| serde_json::to_string(a).ok())
                    .unwrap_or_default(),
                Field::AuthSubject => c.auth().and_then(|a| a.subject.clone()).unwrap_or_default(),
                Field::AuthClientId => c
                    .auth()
                    .and_then(|a| a.client_id.clone())
                    .unwrap_or_default(),
                Field::AuthScopes => c.auth().map(|a| a.scopes.join(" ")).unwrap_or_default(),
                Field::AuthClaims => c
                    .auth()
                    .map(|a| Value::Object(a.claims.clone()).to_string())
                    .unwrap_or_default(),
            })
        });
        mcp_str::of_nul_terminated(s)
    }
}

fn view(request: *const mcp_request, f: Field) -> mcp_str {
    ffi_boundary!(mcp_str::empty(), {
        match unsafe { request.as_ref() } {
            Some(r) => r.field(f),
            None => mcp_str::empty(),
        }
    })
}

/// The JSON-RPC method ("tools/call", "resources/read", "acme/search", ...). Views returned by `mcp_request_*`
/// accessors are valid until the request's responder is freed; each is empty when `request` is NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_method(request: *const mcp_request) -> mcp_str {
    view(request, Field::Method)
}

/// `params.name` (tool or prompt name), or empty.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_name(request: *const mcp_request) -> mcp_str {
    view(request, Field::Name)
}

/// `params.uri` (resource reads), or empty.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_uri(request: *const mcp_request) -> mcp_str {
    view(request, Field::Uri)
}

/// `params.arguments` as a JSON object (`{}` when absent).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_arguments(request: *const mcp_request) -> mcp_str {
    view(request, Field::Arguments)
}

/// All of `params` as JSON.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_params(request: *const mcp_request) -> mcp_str {
    view(request, Field::Params)
}

/// `params._meta` as JSON, or empty when absent.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_meta(request: *const mcp_request) -> mcp_str {
    view(request, Field::Meta)
}

/// The progress token as JSON (a string or a number), or empty when the client asked for no
/// progress.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_progress_token(request: *const mcp_request) -> mcp_str {
    view(request, Field::ProgressToken)
}

/// The client's capabilities as JSON (`{}` when it declared none).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_client_capabilities(request: *const mcp_request) -> mcp_str {
    view(request, Field::ClientCapabilities)
}

/// The protocol version of the request ("2025-11-25", ...).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_protocol_version(request: *const mcp_request) -> mcp_str {
    view(request, Field::ProtocolVersion)
}

/// The answers to an earlier input request (MRTR) as a JSON object keyed like the request, or empty
/// on a first round.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_input_responses(request: *const mcp_request) -> mcp_str {
    view(request, Field::InputResponses)
}

/// The state the handler attached to its input request, or empty.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_state(request: *const mcp_request) -> mcp_str {
    view(request, Field::RequestState)
}

/// The era of the request; `MCP_ERA_MODERN` when `request` is NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_era(request: *const mcp_request) -> mcp_era {
    ffi_boundary!(mcp_era::MCP_ERA_MODERN, {
        match unsafe { request.as_ref() }.map(|r| r.ctx.era()) {
            Some(Era::Legacy) => mcp_era::MCP_ERA_LEGACY,
            _ => mcp_era::MCP_ERA_MODERN,
        }
    })
}

/// The variables of the resource template that matched the URI of a `resources/read`, as a JSON
/// object (`{"id": "123"}` for `test://template/{id}/data`), or empty for other requests.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_template_vars(request: *const mcp_request) -> mcp_str {
    view(request, Field::TemplateVars)
}

/// Whether the client declared the capability at `path`, object keys joined by `/` (UTF-8, read
/// during the call): "sampling", "elicitation/form" (also true for a bare `elicitation: {}`, form
/// mode being the default), "elicitation/url", "roots". False for NULL arguments or bad UTF-8. Any
/// thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_has_client_capability(
    request: *const mcp_request,
    path: *const std::ffi::c_char,
    path_len: usize,
) -> bool {
    ffi_boundary!(false, {
        let Some(r) = (unsafe { request.as_ref() }) else {
            return false;
        };
        let Ok(path) = (unsafe { crate::string::str_from_raw(path, path_len) }) else {
            return false;
        };
        if path.is_empty() {
            return false;
        }
        let keys: Vec<&str> = path.split('/').collect();
        r.ctx.has_client_capability(&keys)
    })
}

/// The JSON-RPC id of the request as JSON: a number (`7`) or a string (`"a1"`). On a legacy
/// connection each input round is a new request with its own id.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_id(request: *const mcp_request) -> mcp_str {
    view(request, Field::Id)
}

/// The client's self-description (`{"name", "version", ...}`: `clientInfo` of `initialize` on a
/// legacy connection, the `_meta` client info of a modern request) as JSON, or empty when unknown.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_client_info(request: *const mcp_request) -> mcp_str {
    view(request, Field::ClientInfo)
}

/// Who the request's verified access token stands for, as JSON `{"subject", "clientId", "scopes",
/// "expiresAt", "audience", "claims"}` (`subject`, `clientId` and `expiresAt` may be null), or empty
/// when the transport does not authenticate (stdio, HTTP without OAuth).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_auth(request: *const mcp_request) -> mcp_str {
    view(request, Field::Auth)
}

/// How many input rounds preceded this invocation of the handler on a legacy connection, where the
/// engine itself asks the client (elicitation, sampling, roots) and calls the handler again: 0 on
/// the first call. A modern client retries with a new request, so there it is always 0 (the answers
/// are in `mcp_request_input_responses`). 0 for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_round(request: *const mcp_request) -> u32 {
    ffi_boundary!(0, {
        match unsafe { request.as_ref() } {
            Some(r) => r.ctx.round(),
            None => 0,
        }
    })
}

/// The subject (`sub`, the end user) of the request's verified access token, or empty when the token
/// names none or the transport does not authenticate.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_auth_subject(request: *const mcp_request) -> mcp_str {
    view(request, Field::AuthSubject)
}

/// The OAuth client the request's access token was issued to, or empty.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_auth_client_id(request: *const mcp_request) -> mcp_str {
    view(request, Field::AuthClientId)
}

/// The scopes granted to the request's access token, space-separated ("mcp:read mcp:admin"), or
/// empty.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_auth_scopes(request: *const mcp_request) -> mcp_str {
    view(request, Field::AuthScopes)
}

/// The further claims the token verifier attached (`claims` of `mcp_token_responder_accept`) as a
/// JSON object (`{}` when none), or empty when the request is not authenticated.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_auth_claims(request: *const mcp_request) -> mcp_str {
    view(request, Field::AuthClaims)
}

/// Whether the request's access token was granted the scope `scope` (UTF-8, read during the call).
/// False for NULL arguments, bad UTF-8 and unauthenticated requests. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_request_has_scope(
    request: *const mcp_request,
    scope: *const std::ffi::c_char,
    scope_len: usize,
) -> bool {
    ffi_boundary!(false, {
        let Some(r) = (unsafe { request.as_ref() }) else {
            return false;
        };
        let Ok(scope) = (unsafe { crate::string::str_from_raw(scope, scope_len) }) else {
            return false;
        };
        r.ctx.auth().is_some_and(|a| a.has_scopes(&[scope]))
    })
}
