//! The everything-server in process: notifications (progress, logging, list changes) in both eras.

use std::sync::{Arc, Mutex};

use libmcp::ProtocolVersion;
use libmcp::client::{CallOptions, Client, SubscriptionFilter, VersionPreference};
use libmcp_examples::everything::build_server;
use serde_json::{Value, json};

type Seen = Arc<Mutex<Vec<(String, Value)>>>;
/// Progress reports seen: (progress, total).
type Progress = Arc<Mutex<Vec<(f64, Option<f64>)>>>;

async fn connect(pref: VersionPreference) -> (Client, Seen) {
    let (client_io, server_io) = tokio::io::duplex(1 << 20);
    let (sr, sw) = tokio::io::split(server_io);
    tokio::spawn(async move { libmcp::transport::stdio::serve(build_server(), sr, sw).await });
    let (cr, cw) = tokio::io::split(client_io);
    let seen: Seen = Arc::default();
    let s = seen.clone();
    let client = Client::builder("test", "1.0.0")
        .version_preference(pref)
        .on_notification(move |m, p| s.lock().unwrap().push((m.to_string(), p.clone())))
        .connect_io(cr, cw)
        .await
        .unwrap();
    (client, seen)
}

fn eras() -> [VersionPreference; 2] {
    [
        VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
        VersionPreference::Modern(ProtocolVersion::V2026_07_28),
    ]
}

#[tokio::test]
async fn progress_is_0_50_100_of_100() {
    for pref in eras() {
        let (client, _) = connect(pref.clone()).await;
        let got: Progress = Arc::default();
        let g = got.clone();
        let opts = CallOptions {
            timeout: None,
            on_progress: Some(Arc::new(move |p, t, _| g.lock().unwrap().push((p, t)))),
        };
        let r = client
            .call_tool_with("test_tool_with_progress", json!({}), &opts)
            .await
            .unwrap();
        assert_eq!(
            r.first_text(),
            Some("Tool with progress executed successfully")
        );
        let total = Some(100.0);
        assert_eq!(
            *got.lock().unwrap(),
            [(0.0, total), (50.0, total), (100.0, total)],
            "{pref:?}"
        );
        client.close().await;
    }
}

#[tokio::test]
async fn legacy_logging_tool_sends_three_info_messages() {
    let (client, seen) = connect(eras()[0].clone()).await;
    client
        .call_tool("test_tool_with_logging", json!({}))
        .await
        .unwrap();
    let logs: Vec<Value> = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|(m, _)| m == "notifications/message")
        .map(|(_, p)| p.clone())
        .collect();
    assert_eq!(
        logs,
        [
            json!({"level": "info", "data": "Tool execution started"}),
            json!({"level": "info", "data": "Tool processing data"}),
            json!({"level": "info", "data": "Tool execution completed"}),
        ]
    );
    client.close().await;
}

#[tokio::test]
async fn modern_logging_tool_is_silent_without_a_log_level() {
    let (client, seen) = connect(eras()[1].clone()).await;
    let r = client
        .call_tool("test_logging_tool", json!({}))
        .await
        .unwrap();
    assert_eq!(
        r.first_text(),
        Some("Logging test completed: 0 message(s) sent")
    );
    assert!(
        seen.lock()
            .unwrap()
            .iter()
            .all(|(m, _)| m != "notifications/message")
    );
    client.close().await;
}

#[tokio::test]
async fn trigger_tools_announce_list_changes_and_keep_the_lists() {
    for pref in eras() {
        let (client, _) = connect(pref.clone()).await;
        let before = client.list_all_tools().await.unwrap();
        let filter = SubscriptionFilter {
            tools_list_changed: Some(true),
            prompts_list_changed: Some(true),
            ..Default::default()
        };
        let mut sub = client.subscribe(filter).await.unwrap();
        client
            .call_tool("test_trigger_tool_change", json!({}))
            .await
            .unwrap();
        let n = sub.next().await.unwrap();
        assert_eq!(n.method, "notifications/tools/list_changed", "{pref:?}");
        client
            .call_tool("test_trigger_prompt_change", json!({}))
            .await
            .unwrap();
        // Each trigger adds and removes a temporary entry: two notifications, the list unchanged.
        let mut methods = vec![];
        for _ in 0..3 {
            methods.push(sub.next().await.unwrap().method);
        }
        assert_eq!(
            methods,
            [
                "notifications/tools/list_changed",
                "notifications/prompts/list_changed",
                "notifications/prompts/list_changed"
            ],
            "{pref:?}"
        );
        assert_eq!(client.list_all_tools().await.unwrap(), before);
        client.close().await;
    }
}

/// The everything-server over Streamable HTTP, and a libmcp client connected to it.
async fn connect_http(
    pref: VersionPreference,
) -> (Client, libmcp::transport::http::HttpServerHandle) {
    use libmcp::transport::http::{HttpServerConfig, serve_http};
    let config = HttpServerConfig {
        bind: "127.0.0.1:0".parse().unwrap(),
        sse_retry: std::time::Duration::from_millis(50),
        ..HttpServerConfig::default()
    };
    let handle = serve_http(build_server(), config).await.unwrap();
    let url = format!("http://{}/mcp", handle.local_addr());
    let client = Client::builder("test", "1.0.0")
        .version_preference(pref)
        .connect_http(&url)
        .await
        .unwrap();
    (client, handle)
}

#[tokio::test]
async fn test_reconnection_delivers_its_result_on_the_resumed_stream() {
    let (client, handle) =
        connect_http(VersionPreference::Legacy(ProtocolVersion::V2025_11_25)).await;
    let r = client
        .call_tool("test_reconnection", json!({}))
        .await
        .unwrap();
    assert_eq!(
        r.first_text(),
        Some("Reconnection test completed: the result was delivered on the resumed stream")
    );
    client.close().await;
    handle.shutdown().await;

    // Over stdio there is no stream to close: the tool says so and answers in place.
    let (client, _) = connect(VersionPreference::Legacy(ProtocolVersion::V2025_11_25)).await;
    let r = client
        .call_tool("test_reconnection", json!({}))
        .await
        .unwrap();
    assert_eq!(
        r.first_text(),
        Some(
            "Reconnection test completed: this transport cannot close the stream, so it stayed open"
        )
    );
    client.close().await;
}

#[tokio::test]
async fn test_x_mcp_header_echoes_the_region_it_was_sent_in_a_header() {
    let (client, handle) =
        connect_http(VersionPreference::Modern(ProtocolVersion::V2026_07_28)).await;
    // The typed stream stops at the first match without fetching further pages.
    let mut tools = client.list_tools();
    let tool = loop {
        let t = tools.next().await.expect("listed").unwrap();
        if t.name == "test_x_mcp_header" {
            break t;
        }
    };
    assert_eq!(
        tool.input_schema["properties"]["region"]["x-mcp-header"],
        "Region"
    );
    for region in ["eu-west", "Zürich"] {
        let r = client
            .call_tool("test_x_mcp_header", json!({"region": region}))
            .await
            .unwrap();
        assert_eq!(r.first_text(), Some(&*format!("region={region}")));
    }
    client.close().await;
    handle.shutdown().await;
}
