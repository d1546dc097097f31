//! `mcp_http_endpoint`: the Streamable HTTP endpoint of a server as a value, for a C or C++
//! program whose own web server (libmicrohttpd, Boost.Beast, an nginx module) routes requests to
//! it; `mcp_http_endpoint_handle` (see `http_exchange.rs`) answers one request.

use std::sync::Arc;

use libmcp::transport::http::{HttpEndpoint, HttpServerConfig};

use crate::error::mcp_error;
use crate::http_config::mcp_http_server_config;
use crate::runtime::{Runtime, block_on, mcp_runtime};
use crate::server::mcp_server;
use crate::status::mcp_status;

/// The MCP endpoint of one server, mounted in the host's own web server: every request the host
/// routes to it (any path: the host picks the mount point) goes to `mcp_http_endpoint_handle`.
/// Both eras, legacy sessions, GET/POST/DELETE, SSE with resumption and the config's limits and
/// checks work as with `mcp_server_serve_http`. Every function on it may be called from any thread
/// except `mcp_http_endpoint_free`.
pub struct mcp_http_endpoint {
    pub(crate) endpoint: HttpEndpoint,
    /// The runtime exchanges run on; kept alive by the endpoint.
    pub(crate) rt: Arc<Runtime>,
}

/// Creates the endpoint of `server` on `runtime` with `config` (NULL: the defaults of
/// `mcp_http_server_config_new_for_mount`, checking no Host or Origin until names are listed; bind address and
/// path are not used) and writes it to `*endpoint_out`. The config is copied; the server and
/// runtime handles may be freed while the endpoint lives. A config the engine refuses is
/// `MCP_STATUS_INVALID_ARGUMENT`, a Redis (`mcp_http_server_config_set_redis`) that does not
/// answer `MCP_STATUS_IO`, with the reason in `*error_out` (may be NULL; written only on failure).
/// Blocks while it connects to Redis, so not from a callback. Free with `mcp_http_endpoint_free`.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_endpoint_new(
    server: *const mcp_server,
    runtime: *const mcp_runtime,
    config: *const mcp_http_server_config,
    endpoint_out: *mut *mut mcp_http_endpoint,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let server = try_ref!(server).server.clone();
        let rt = try_ref!(runtime).rt.clone();
        try_out!(endpoint_out);
        let config = mcp_http_server_config::prepare(config, HttpServerConfig::for_mount());
        let built = block_on(&rt, "mcp_http_endpoint_new", async move {
            let config = config
                .await
                .map_err(|e| mcp_error::new(mcp_status::MCP_STATUS_IO, e))?;
            // Inside the runtime, so the endpoint starts expiring idle sessions at once.
            HttpEndpoint::new(server, config).map_err(|e| mcp_error::from_engine(&e))
        });
        match built.and_then(|r| r) {
            Ok(endpoint) => {
                let h = Box::new(mcp_http_endpoint { endpoint, rt });
                unsafe { *endpoint_out = Box::into_raw(h) };
                mcp_status::MCP_STATUS_OK
            }
            Err(e) => e.store(error_out),
        }
    })
}

/// Ends every legacy session, open stream and subscription of the endpoint now: their exchanges
/// get their `end` callback soon. Requests answered afterwards start afresh (a client of an ended
/// session gets 404). Returns at once; any thread, also a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_endpoint_close(endpoint: *const mcp_http_endpoint) -> mcp_status {
    ffi_boundary!({
        try_ref!(endpoint).endpoint.close();
        mcp_status::MCP_STATUS_OK
    })
}

/// Closes the endpoint (as `mcp_http_endpoint_close`) and frees the handle. Exchanges still
/// running keep what they need and end on their own; their handles must still be freed with
/// `mcp_http_exchange_free`. NULL is ignored. When this releases the last reference to the
/// runtime it waits for the runtime's threads, so not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_endpoint_free(endpoint: *mut mcp_http_endpoint) {
    ffi_boundary!((), {
        if endpoint.is_null() {
            return;
        }
        let h = unsafe { Box::from_raw(endpoint) };
        h.endpoint.close();
    })
}
