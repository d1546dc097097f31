//! `mcp_server_serve_http` and `mcp_http_server`: serving a server over Streamable HTTP (both eras on
//! one endpoint), reporting the bound address, stopping from any thread.

use std::sync::Arc;

use libmcp::transport::http::{HttpServerConfig, serve_http};
use parking_lot::{Condvar, Mutex};

use crate::error::mcp_error;
use crate::http_config::mcp_http_server_config;
use crate::runtime::{block_on, mcp_runtime};
use crate::server::mcp_server;
use crate::status::mcp_status;
use crate::string::{mcp_str, nul_terminated};

/// A running HTTP server. Every function on it may be called from any thread, except
/// `mcp_http_server_wait` and `mcp_http_server_free`, which block and so must not be called from a
/// handler callback.
pub struct mcp_http_server {
    /// Keeps the runtime running while the server lives.
    _runtime: Arc<crate::runtime::Runtime>,
    /// "IP:PORT" with a NUL, for `mcp_http_server_local_addr`.
    addr: String,
    port: u16,
    stop: Mutex<Option<tokio::sync::oneshot::Sender<()>>>,
    /// Set once the server has stopped and every session has ended.
    done: Arc<(Mutex<bool>, Condvar)>,
}

impl mcp_http_server {
    fn request_stop(&self) {
        if let Some(stop) = self.stop.lock().take() {
            let _ = stop.send(());
        }
    }

    fn wait_stopped(&self) {
        let mut done = self.done.0.lock();
        while !*done {
            self.done.1.wait(&mut done);
        }
    }
}

/// Why serving did not start.
enum Start {
    /// The address, and why it cannot be bound.
    Listen(std::net::SocketAddr, libmcp::Error),
    Redis(String),
}

/// Binds the address of `config` (NULL: the defaults, 127.0.0.1:3000) and serves `server` there on
/// `runtime` over Streamable HTTP: modern (2026-07-28) requests statelessly and legacy sessions on
/// the same endpoint. Blocks until the socket is bound, then writes the running server to
/// `*http_out` and returns; requests are served on runtime threads. Fails with `MCP_STATUS_IO` when
/// the address cannot be bound (the reason in `*error_out`, which may be NULL and is written only
/// on failure); a Redis set with `mcp_http_server_config_set_redis` need not be up. The config is
/// copied; the server and runtime handles may be freed while it serves.
/// Stop with `mcp_http_server_stop` / `_free`. Not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_server_serve_http(
    server: *const mcp_server,
    runtime: *const mcp_runtime,
    config: *const mcp_http_server_config,
    http_out: *mut *mut mcp_http_server,
    error_out: *mut *mut mcp_error,
) -> mcp_status {
    ffi_boundary!({
        let server = try_ref!(server).server.clone();
        let rt = try_ref!(runtime).rt.clone();
        try_out!(http_out);
        let config = mcp_http_server_config::prepare(config, HttpServerConfig::default());
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let finished = done.clone();
        let started = block_on(&rt, "mcp_server_serve_http", async move {
            let config = config.await.map_err(Start::Redis)?;
            let bind = config.bind;
            let handle = serve_http(server, config)
                .await
                .map_err(|e| Start::Listen(bind, e))?;
            let addr = handle.local_addr();
            tokio::spawn(async move {
                // A dropped handle (mcp_http_server freed) also stops the server.
                let _ = stop_rx.await;
                handle.shutdown().await;
                *finished.0.lock() = true;
                finished.1.notify_all();
            });
            Ok::<_, Start>(addr)
        });
        match started {
            Ok(Ok(addr)) => {
                let h = Box::new(mcp_http_server {
                    _runtime: rt,
                    addr: nul_terminated(addr.to_string()),
                    port: addr.port(),
                    stop: Mutex::new(Some(stop_tx)),
                    done,
                });
                unsafe { *http_out = Box::into_raw(h) };
                mcp_status::MCP_STATUS_OK
            }
            Ok(Err(Start::Listen(bind, e))) => mcp_error::new(
                mcp_status::MCP_STATUS_IO,
                format!("cannot listen on {bind}: {}", e.detail()),
            )
            .store(error_out),
            Ok(Err(Start::Redis(e))) => mcp_error::new(
                mcp_status::MCP_STATUS_IO,
                format!("mcp_server_serve_http: {e}"),
            )
            .store(error_out),
            Err(e) => e.store(error_out),
        }
    })
}

/// The address actually bound, as "IP:PORT" (e.g. "127.0.0.1:41234"); the view lives as long as the
/// handle. Empty for NULL. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_local_addr(http: *const mcp_http_server) -> mcp_str {
    ffi_boundary!(mcp_str::empty(), {
        match unsafe { http.as_ref() } {
            Some(h) => mcp_str::of_nul_terminated(&h.addr),
            None => mcp_str::empty(),
        }
    })
}

/// The port actually bound; 0 for NULL. Any thread.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_port(http: *const mcp_http_server) -> u16 {
    ffi_boundary!(0, {
        match unsafe { http.as_ref() } {
            Some(h) => h.port,
            None => 0,
        }
    })
}

/// Asks the server to stop: it stops accepting, ends every session and open stream (listen streams
/// get their final result), and then counts as stopped. Returns at once; idempotent. Any thread, also
/// a handler callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_stop(http: *const mcp_http_server) -> mcp_status {
    ffi_boundary!({
        try_ref!(http).request_stop();
        mcp_status::MCP_STATUS_OK
    })
}

/// Blocks until the server has stopped (after `mcp_http_server_stop` from another thread). May be
/// called from several threads. Not from a callback (there: `MCP_STATUS_WRONG_THREAD` at once).
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_wait(http: *const mcp_http_server) -> mcp_status {
    ffi_boundary!({
        let h = try_ref!(http);
        if let Some(e) = crate::runtime::wrong_thread("mcp_http_server_wait") {
            return e.status();
        }
        h.wait_stopped();
        mcp_status::MCP_STATUS_OK
    })
}

/// Stops the server if it still runs, waits until it has stopped, and frees the handle (and the
/// address view). NULL is ignored. No other call on the handle may be running. Not from a callback.
#[unsafe(no_mangle)]
pub extern "C" fn mcp_http_server_free(http: *mut mcp_http_server) {
    ffi_boundary!((), {
        if http.is_null() {
            return;
        }
        let h = unsafe { Box::from_raw(http) };
        h.request_stop();
        h.wait_stopped();
    })
}
