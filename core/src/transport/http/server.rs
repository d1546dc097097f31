//! The listener: accepts connections, serves each with hyper's HTTP/1.1, expires idle sessions, and
//! stops on request.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinSet;

use super::config::HttpServerConfig;
use super::sessions::Sessions;
use super::state::State;
use crate::server::Server;

/// A running HTTP server; see [`serve_http`].
#[derive(Debug)]
pub struct HttpServerHandle {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl HttpServerHandle {
    /// The address actually bound (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting, ends every session and open stream, and waits until that is done.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }

    /// Waits until the server stops (it runs until [`shutdown`](Self::shutdown)).
    pub async fn wait(mut self) {
        let _ = (&mut self.task).await;
    }
}

/// Binds `config.bind` and serves `server` on the Streamable HTTP transport (both eras on one
/// endpoint) in a background task on the current tokio runtime. A config that
/// [`HttpServerConfig::validate`] refuses is [`Error::InvalidConfig`](crate::Error::InvalidConfig),
/// before anything is bound.
pub async fn serve_http(
    server: Server,
    config: HttpServerConfig,
) -> crate::Result<HttpServerHandle> {
    config.validate()?;
    let listener = TcpListener::bind(config.bind).await?;
    let addr = listener.local_addr()?;
    let state = Arc::new(State {
        server,
        config,
        sessions: Sessions::default(),
        sse_sessions: Sessions::default(),
    });
    if let Some(relay) = &state.config.relay {
        let weak = Arc::downgrade(&state);
        relay.attach(Arc::new(move |id: &str, bytes: &[u8]| {
            let state = weak.upgrade();
            if let Some(state) = &state {
                state.deliver_forwarded(id, bytes);
            }
            state.is_some()
        }));
    }
    let (stop, stopped) = oneshot::channel();
    let task = tokio::spawn(accept_loop(listener, state, stopped));
    Ok(HttpServerHandle {
        addr,
        stop: Some(stop),
        task,
    })
}

async fn accept_loop(listener: TcpListener, state: Arc<State>, mut stopped: oneshot::Receiver<()>) {
    let mut conns = JoinSet::new();
    let sweep_every = (state.config.session_idle_timeout / 4)
        .clamp(Duration::from_millis(100), Duration::from_secs(30));
    let mut sweep = tokio::time::interval(sweep_every);
    // The store sweep of the previous tick, if it is still running.
    let mut sweeping: Option<tokio::task::JoinHandle<()>> = None;
    loop {
        tokio::select! {
            _ = &mut stopped => break,
            _ = sweep.tick() => {
                state.sse_sessions.expire(state.config.session_idle_timeout);
                // The store may be slow: sweep beside the accept loop, not in it, one at a time.
                if sweeping.as_ref().is_none_or(|t| t.is_finished()) {
                    let state = state.clone();
                    sweeping = Some(tokio::spawn(async move { state.sweep().await }));
                }
            }
            Some(_) = conns.join_next(), if !conns.is_empty() => {}
            accepted = listener.accept() => {
                let Ok((stream, _peer)) = accepted else {
                    // Out of descriptors or similar: back off briefly instead of spinning.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let state = state.clone();
                let (head_bytes, headers) =
                    (state.config.max_header_bytes, state.config.max_headers);
                conns.spawn(async move {
                    let service = service_fn(move |req| {
                        let state = state.clone();
                        async move { Ok::<_, Infallible>(state.handle(req).await) }
                    });
                    // The timer enables hyper's request-head timeout (30 s), so a peer that
                    // trickles its headers cannot hold a connection forever. A head beyond the
                    // buffer or the header count gets 431 from hyper, and the connection ends.
                    let _ = http1::Builder::new()
                        .timer(TokioTimer::new())
                        .keep_alive(true)
                        .max_buf_size(head_bytes)
                        .max_headers(headers)
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        }
    }
    if let Some(t) = sweeping {
        t.abort();
    }
    state.server.close_subscriptions();
    // Records and event logs stay: other instances sharing the stores may still serve them.
    state.sessions.clear(false);
    state.sse_sessions.clear(true);
    conns.abort_all();
    while conns.join_next().await.is_some() {}
}
