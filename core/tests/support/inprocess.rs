//! A client connected to a server in the same process over an in-memory pipe, answering every
//! elicitation by accepting the name "Ada".

use libmcp::client::{Client, VersionPreference};
use libmcp::server::Server;
use serde_json::{Value, json};

/// Serves `server` over stdio on a pipe and connects a client named `client_name` to it.
pub async fn connect(server: Server, client_name: &str, pref: VersionPreference) -> Client {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(async move { libmcp::transport::stdio::serve(server, sr, sw).await });
    let (cr, cw) = tokio::io::split(client_io);
    Client::builder(client_name, "1.0.0")
        .version_preference(pref)
        .on_elicitation(|_params: Value| async move {
            Ok(json!({"action": "accept", "content": {"name": "Ada"}}))
        })
        .connect_io(cr, cw)
        .await
        .unwrap()
}
