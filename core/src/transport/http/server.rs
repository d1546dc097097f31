//! The listener: accepts connections and serves each with hyper's HTTP/1.1 through the same
//! [`HttpEndpoint`] an application mounts in its own web server; stops on request.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinSet;

use super::config::HttpServerConfig;
use super::endpoint::HttpEndpoint;
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
/// endpoint, `config.path`) in a background task on the current tokio runtime. A config that
/// [`HttpServerConfig::validate`] refuses is [`Error::InvalidConfig`](crate::Error::InvalidConfig),
/// before anything is bound. To serve MCP as one route of an application's own web server, mount an
/// [`HttpEndpoint`] instead.
pub async fn serve_http(
    server: Server,
    config: HttpServerConfig,
) -> crate::Result<HttpServerHandle> {
    config.validate()?;
    let listener = TcpListener::bind(config.bind).await?;
    let addr = listener.local_addr()?;
    let endpoint = HttpEndpoint::build(server, config, false);
    let (stop, stopped) = oneshot::channel();
    let task = tokio::spawn(accept_loop(listener, endpoint, stopped));
    Ok(HttpServerHandle {
        addr,
        stop: Some(stop),
        task,
    })
}

async fn accept_loop(
    listener: TcpListener,
    endpoint: HttpEndpoint,
    mut stopped: oneshot::Receiver<()>,
) {
    let mut conns = JoinSet::new();
    let (head_bytes, headers) = (
        endpoint.config().max_header_bytes,
        endpoint.config().max_headers,
    );
    loop {
        tokio::select! {
            _ = &mut stopped => break,
            Some(_) = conns.join_next(), if !conns.is_empty() => {}
            accepted = listener.accept() => {
                let Ok((stream, _peer)) = accepted else {
                    // Out of descriptors or similar: back off briefly instead of spinning.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let _ = stream.set_nodelay(true);
                let endpoint = endpoint.clone();
                conns.spawn(async move {
                    let service = service_fn(move |req| {
                        let endpoint = endpoint.clone();
                        async move { Ok::<_, Infallible>(endpoint.handle(req).await) }
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
    endpoint.close();
    conns.abort_all();
    while conns.join_next().await.is_some() {}
}
