//! `mcp_client`: a connected client, its blocking calls and closing it (calls that return at once:
//! `client_async.rs`).

use std::ffi::c_char;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use libmcp::Era;
use libmcp::client::{CallOptions, Client};
use serde_json::Value;

use crate::error::mcp_error;
use crate::request::mcp_era;
use crate::runtime::block_on;
use crate::status::mcp_status;
use crate::string::mcp_string;

/// A connected client. Calls may be made from any thread, also concurrently, except from the
/// library's own callbacks (blocking calls there would stall the runtime).
pub struct mcp_client {
    pub(crate) client: Client,
    pub(crate) rt: Arc<crate::runtime::Runtime>,
}

/// The era in use; `MCP_ERA_MODERN` for NULL.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_era(client: *const mcp_client) -> mcp_era {
    ffi_boundary!(mcp_era::MCP_ERA_MODERN, {
        match unsafe { client.as_ref() }.map(|c| c.client.era()) {
            Some(Era::Legacy) => mcp_era::MCP_ERA_LEGACY,
            _ => mcp_era::MCP_ERA_MODERN,
        }
    })
}

/// What the client learned when it connected, as a JSON object `{"era", "protocolVersion",
/// "supportedVersions", "capabilities", "serverInfo", "instructions"}` (every key present, the last
/// two `null` when the server sent none; the binding kit's description, the same on every host)
/// written to `*json_out` (free with `mcp_string_free`).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_server_info(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        try_out!(json_out);
        let json = libmcp::host::server_description(&c.client.server()).to_string();
        unsafe { *json_out = mcp_string::new_raw(json) };
        mcp_status::MCP_STATUS_OK
    })
}

/// Runs one client operation on `client` to completion and stores its JSON result in `*out` or its
/// error in `*error_out`: the body of every blocking call.
pub(crate) fn run<F, Fut>(
    client: *const mcp_client,
    out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
    op: F,
) -> mcp_status
where
    F: FnOnce(Client) -> Fut,
    Fut: Future<Output = libmcp::Result<Value>> + Send + 'static,
{
    let c = try_ref!(client);
    try_out!(out);
    match block_on(&c.rt, "a client call", op(c.client.clone())) {
        Ok(Ok(v)) => {
            unsafe { *out = mcp_string::new_raw(v.to_string()) };
            mcp_status::MCP_STATUS_OK
        }
        Ok(Err(e)) => mcp_error::from_engine(&e).store(error_out),
        Err(e) => e.store(error_out),
    }
}

/// Every item of the paginated list `method`, as a JSON array.
fn list(
    client: *const mcp_client,
    method: &'static str,
    out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    run(client, out, error_out, move |cl| async move {
        cl.list_all_raw(method).await.map(Value::from)
    })
}

pub(crate) fn options(timeout_ms: u64) -> CallOptions {
    CallOptions {
        timeout: (timeout_ms > 0).then(|| Duration::from_millis(timeout_ms)),
        on_progress: None,
    }
}

/// Lists every tool (following pagination) and writes the JSON array of tool definitions to
/// `*json_out`. Blocking calls (`mcp_client_list_*`, `_call_tool`, `_read_resource`, `_get_prompt`,
/// `_complete`, `_call`) share one contract: on success the result JSON goes to `*json_out` (free with
/// `mcp_string_free`); on failure the status says why and `*error_out` (may be NULL) gets the details,
/// with code, message and data for `MCP_STATUS_RPC_ERROR`. Not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_list_tools(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({ list(client, "tools/list", json_out, error_out) })
}

/// Lists every resource: a JSON array. See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_list_resources(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({ list(client, "resources/list", json_out, error_out) })
}

/// Lists every resource template: a JSON array. See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_list_resource_templates(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({ list(client, "resources/templates/list", json_out, error_out) })
}

/// Lists every prompt: a JSON array. See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_list_prompts(
    client: *const mcp_client,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({ list(client, "prompts/list", json_out, error_out) })
}

/// Calls tool `name` with `arguments` (a JSON object; NULL with length 0 means `{}`), fulfilling
/// input requests with the registered handlers; the CallToolResult goes to `*json_out` (a tool error
/// is a success with `"isError": true`). See `mcp_client_list_tools` for the contract.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_call_tool(
    client: *const mcp_client,
    name: *const c_char,
    name_len: usize,
    arguments: *const c_char,
    arguments_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let name = try_str!(name, name_len).to_string();
        let args = try_json_or_empty!(arguments, arguments_len);
        run(client, json_out, error_out, |cl| async move {
            cl.call_tool_raw(&name, args).await
        })
    })
}

/// Reads resource `uri`; the ReadResourceResult goes to `*json_out`. See `mcp_client_list_tools`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_read_resource(
    client: *const mcp_client,
    uri: *const c_char,
    uri_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let uri = try_str!(uri, uri_len).to_string();
        run(client, json_out, error_out, |cl| async move {
            cl.read_resource_raw(&uri).await
        })
    })
}

/// Gets prompt `name` with `arguments` (a JSON object of strings; NULL with length 0 means `{}`); the
/// GetPromptResult goes to `*json_out`. See `mcp_client_list_tools`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_get_prompt(
    client: *const mcp_client,
    name: *const c_char,
    name_len: usize,
    arguments: *const c_char,
    arguments_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let name = try_str!(name, name_len).to_string();
        let args = try_json_or_empty!(arguments, arguments_len);
        run(client, json_out, error_out, |cl| async move {
            cl.get_prompt_raw(&name, args).await
        })
    })
}

/// Asks for completions of argument `argument` (typed so far: `value`) of `reference` (JSON:
/// `{"type": "ref/prompt", "name": ...}` or `{"type": "ref/resource", "uri": ...}`); the
/// CompleteResult goes to `*json_out`. See `mcp_client_list_tools`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_complete(
    client: *const mcp_client,
    reference: *const c_char,
    reference_len: usize,
    argument: *const c_char,
    argument_len: usize,
    value: *const c_char,
    value_len: usize,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let reference = try_json!(reference, reference_len);
        let argument = try_str!(argument, argument_len).to_string();
        let value = try_str!(value, value_len).to_string();
        run(client, json_out, error_out, |cl| async move {
            cl.complete_raw(reference, &argument, &value, None).await
        })
    })
}

/// Sends any request `method` with `params` (a JSON object; NULL with length 0 means `{}`), fulfilling
/// input requests; `timeout_ms` overrides the idle timeout when non-zero. See
/// `mcp_client_list_tools`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_call(
    client: *const mcp_client,
    method: *const c_char,
    method_len: usize,
    params: *const c_char,
    params_len: usize,
    timeout_ms: u64,
    json_out: *mut *mut mcp_string,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let method = try_str!(method, method_len).to_string();
        let params = try_json_or_empty!(params, params_len);
        run(client, json_out, error_out, |cl| async move {
            cl.call(&method, params, &options(timeout_ms)).await
        })
    })
}

/// Closes the connection: the server's stdin is closed, then the process is stopped. Calls in flight
/// fail with `MCP_STATUS_TRANSPORT`. Idempotent; blocks until the process is gone. Not from a
/// callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_close(client: *const mcp_client) -> mcp_status {
    ffi_boundary!({
        let c = try_ref!(client);
        let cl = c.client.clone();
        match block_on(&c.rt, "mcp_client_close", async move { cl.close().await }) {
            Ok(()) => mcp_status::MCP_STATUS_OK,
            Err(e) => e.status(),
        }
    })
}

/// Closes (see `mcp_client_close`) and frees the client. NULL is ignored. Not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_client_free(client: *mut mcp_client) {
    ffi_boundary!((), {
        if client.is_null() {
            return;
        }
        let c = unsafe { Box::from_raw(client) };
        let cl = c.client;
        let close = async move {
            cl.close().await;
            drop(cl);
        };
        if crate::runtime::wrong_thread("mcp_client_free").is_some() {
            // From a callback: closing cannot be waited for here, so it finishes on its own.
            c.rt.spawn(close);
            return;
        }
        let _ = block_on(&c.rt, "mcp_client_free", close);
    })
}
