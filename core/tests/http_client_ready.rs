//! A legacy Streamable HTTP connection is handed to the caller with its GET stream open: a server
//! message sent the moment `connect_http` returns (here a tool list change) reaches the client,
//! instead of being dropped by a server that has no stream to put it on yet.
#![cfg(feature = "http")]

use std::time::Duration;

use libmcp::ProtocolVersion;
use libmcp::client::{Client, SubscriptionFilter, VersionPreference};
use libmcp::server::{Reply, Server};
use libmcp::transport::http::{HttpServerConfig, serve_http};
use serde_json::json;

#[tokio::test]
async fn a_change_right_after_connect_reaches_a_legacy_client() {
    for version in [
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_03_26,
    ] {
        let server = Server::builder("ready-test", "1.0.0")
            .tool(
                json!({"name": "echo", "inputSchema": {"type": "object"}}),
                |_c, _a| Reply::text("echo"),
            )
            .build()
            .unwrap();
        let config = HttpServerConfig::with_bind("127.0.0.1:0".parse().unwrap());
        let handle = serve_http(server.clone(), config).await.unwrap();
        let url = format!("http://{}/mcp", handle.local_addr());
        let client = Client::builder("ready-test-client", "1.0.0")
            .version_preference(VersionPreference::Legacy(version.clone()))
            .connect_http(&url)
            .await
            .unwrap();
        let filter = SubscriptionFilter {
            tools_list_changed: Some(true),
            ..SubscriptionFilter::default()
        };
        let mut sub = client.subscribe(filter).await.unwrap();
        assert!(server.remove_tool("echo"));
        let n = tokio::time::timeout(Duration::from_secs(10), sub.next())
            .await
            .unwrap_or_else(|_| panic!("{}: the list change never arrived", version.as_str()))
            .expect("the subscription is open");
        assert_eq!(n.method, "notifications/tools/list_changed");
        drop(sub);
        client.close().await;
        handle.shutdown().await;
    }
}
