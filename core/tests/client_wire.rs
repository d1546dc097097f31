//! The client on the wire: every message it sends validates against the official schema of the
//! revision in use; modern requests carry the required `_meta`; MRTR retries use new ids and echo
//! `requestState` byte for byte; timeouts, progress and cancellation behave as specified.

mod support;

use std::sync::Arc;
use std::time::Duration;

use libmcp::client::{CallOptions, Client, ClientConfig, VersionPreference};
use libmcp::model::CompletionReference;
use libmcp::server::{InputRequired, Reply, Server};
use libmcp::{Era, Error, ProtocolVersion};
use serde_json::{Value, json};
use support::fixture;
use support::tap::tapped;

fn builder() -> libmcp::client::ClientBuilder {
    Client::builder("tap-client", "2.0.0")
        .on_elicitation(|_p: Value| async move { Ok(json!({"action": "accept", "content": {"name": "Ada"}})) })
        .on_sampling(|_p: Value| async move {
            Ok(json!({"role": "assistant", "content": {"type": "text", "text": "4"}, "model": "m", "stopReason": "endTurn"}))
        })
        .roots(vec![json!({"uri": "file:///work", "name": "work"})])
}

#[tokio::test]
async fn modern_client_messages_are_valid_and_carry_meta() {
    let tap = tapped(fixture::server(), "2026-07-28");
    let record = tap.record.clone();
    let client = builder().connect_io(tap.reader, tap.writer).await.unwrap();
    assert_eq!(client.era(), Era::Modern);
    assert_eq!(
        client.server().server_info,
        Some(json!({"name": "fixture", "version": "0.1.0"}))
    );
    client.list_all_tools().await.unwrap();
    assert_eq!(
        client
            .call_tool("ask", json!({}))
            .await
            .unwrap()
            .first_text(),
        Some("Hello, Ada!")
    );
    assert_eq!(
        client
            .call_tool("sample", json!({}))
            .await
            .unwrap()
            .first_text(),
        Some("model said: 4")
    );
    assert_eq!(
        client
            .call_tool("roots", json!({}))
            .await
            .unwrap()
            .first_text(),
        Some("1 roots")
    );
    assert_eq!(
        client
            .read_resource("test://static")
            .await
            .unwrap()
            .contents[0]
            .as_text(),
        Some("static text")
    );
    let r = client
        .get_prompt("greet", json!({"who": "Bo"}))
        .await
        .unwrap();
    assert_eq!(r.messages[0].content.as_text(), Some("Hi Bo"));
    let r = client
        .complete(CompletionReference::prompt("greet"), "who", "b", None)
        .await
        .unwrap();
    assert_eq!(r.completion.values, ["beta"]);
    client.close().await;

    let rec = record.lock();
    let requests: Vec<&Value> = rec
        .from_client
        .iter()
        .filter(|m| m.get("id").is_some())
        .collect();
    assert_eq!(requests[0]["method"], "server/discover");
    let mut ids = std::collections::HashSet::new();
    for r in &requests {
        let meta = &r["params"]["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28",
            "{r}"
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientInfo"],
            json!({"name": "tap-client", "version": "2.0.0"})
        );
        assert_eq!(
            meta["io.modelcontextprotocol/clientCapabilities"],
            json!({"elicitation": {"form": {}}, "sampling": {}, "roots": {}})
        );
        assert_eq!(
            meta["progressToken"], r["id"],
            "every request asks for progress"
        );
        assert!(ids.insert(r["id"].to_string()), "ids are never reused: {r}");
    }
    // The retry of `ask` echoes the sealed state exactly as the server sent it.
    let sent_state = rec
        .from_server
        .iter()
        .find_map(|m| m["result"]["requestState"].as_str())
        .unwrap();
    let retry = requests
        .iter()
        .find(|r| r["params"].get("requestState").is_some())
        .unwrap();
    assert_eq!(retry["params"]["requestState"], sent_state);
    assert_eq!(
        retry["params"]["inputResponses"]["user_name"],
        json!({"action": "accept", "content": {"name": "Ada"}})
    );
    assert!(
        requests
            .iter()
            .filter(|r| r["params"]["name"] == "sample")
            .all(|r| r["params"].get("requestState").is_none())
    );
}

#[tokio::test]
async fn legacy_clients_of_every_revision_are_valid() {
    for v in ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] {
        let tap = tapped(fixture::server(), v);
        let record = tap.record.clone();
        let client = builder()
            .version_preference(VersionPreference::Legacy(ProtocolVersion::new(v)))
            .connect_io(tap.reader, tap.writer)
            .await
            .unwrap();
        assert_eq!(client.era(), Era::Legacy);
        assert_eq!(client.server().version.as_str(), v);
        client.ping().await.unwrap();
        assert_eq!(client.list_all_tools().await.unwrap().len(), 10);
        assert_eq!(
            client
                .call_tool("roots", json!({}))
                .await
                .unwrap()
                .first_text(),
            Some("1 roots"),
            "{v}"
        );
        assert_eq!(
            client
                .call_tool("sample", json!({}))
                .await
                .unwrap()
                .first_text(),
            Some("model said: 4")
        );
        if v >= "2025-06-18" {
            assert_eq!(
                client
                    .call_tool("ask", json!({}))
                    .await
                    .unwrap()
                    .first_text(),
                Some("Hello, Ada!")
            );
        }
        client.close().await;
        let rec = record.lock();
        assert_eq!(rec.from_client[0]["method"], "initialize");
        assert_eq!(
            rec.from_client[1],
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        );
    }
}

#[tokio::test]
async fn auto_probe_falls_back_to_initialize_on_a_legacy_only_server() {
    let legacy_only = Server::builder("old", "1")
        .versions(vec![ProtocolVersion::V2025_06_18])
        .tool(json!({"name": "t"}), |_c, _a| Reply::text("ok"))
        .build()
        .unwrap();
    let tap = tapped(legacy_only, "2025-06-18");
    let client = builder().connect_io(tap.reader, tap.writer).await.unwrap();
    assert_eq!(client.era(), Era::Legacy);
    assert_eq!(client.server().version, ProtocolVersion::V2025_06_18);
    assert_eq!(
        client.call_tool("t", json!({})).await.unwrap().first_text(),
        Some("ok")
    );
    client.close().await;
}

#[tokio::test]
async fn input_rounds_are_bounded() {
    let greedy = Server::builder("greedy", "1")
        .tool(json!({"name": "never"}), |_c, _a| {
            InputRequired::new().list_roots("again").with_state("x")
        })
        .build()
        .unwrap();
    let tap = tapped(greedy, "2026-07-28");
    let config = ClientConfig {
        max_input_rounds: 3,
        ..ClientConfig::default()
    };
    let client = builder()
        .config(config)
        .connect_io(tap.reader, tap.writer)
        .await
        .unwrap();
    match client.call_tool("never", json!({})).await {
        Err(Error::Protocol(m)) => assert!(m.contains("3 rounds"), "{m}"),
        other => panic!("expected a protocol error, got {other:?}"),
    }
    let calls = tap
        .record
        .lock()
        .from_client
        .iter()
        .filter(|m| m["method"] == "tools/call")
        .count();
    assert_eq!(calls, 4, "the first call plus three retries");
    client.close().await;
}

#[tokio::test]
async fn progress_resets_the_timeout_and_silence_cancels() {
    let tap = tapped(fixture::server(), "2026-07-28");
    let record = tap.record.clone();
    let config = ClientConfig {
        request_timeout: Duration::from_millis(150),
        ..ClientConfig::default()
    };
    let client = builder()
        .config(config)
        .connect_io(tap.reader, tap.writer)
        .await
        .unwrap();
    let seen = Arc::new(parking_lot::Mutex::new(Vec::new()));
    let sink = seen.clone();
    let opts = CallOptions {
        timeout: None,
        on_progress: Some(Arc::new(move |p, total, _m| sink.lock().push((p, total)))),
    };
    let r = client
        .call_tool_with("slow", json!({}), &opts)
        .await
        .unwrap();
    assert_eq!(r.first_text(), Some("done"));
    assert_eq!(
        *seen.lock(),
        vec![(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))]
    );
    let quick = CallOptions {
        timeout: Some(Duration::from_millis(50)),
        on_progress: None,
    };
    match client.call_tool_with("later", json!({}), &quick).await {
        Err(Error::Timeout(d)) => assert_eq!(d, Duration::from_millis(50)),
        other => panic!("expected a timeout, got {other:?}"),
    }
    // Past the moment the handler answers: the server must have dropped that answer.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let rec = record.lock();
    let cancel = rec
        .from_client
        .iter()
        .find(|m| m["method"] == "notifications/cancelled")
        .expect("a cancel was sent");
    let later_id = rec
        .from_client
        .iter()
        .find(|m| m["params"]["name"] == "later")
        .unwrap()["id"]
        .clone();
    assert_eq!(cancel["params"]["requestId"], later_id);
    assert!(
        rec.from_server.iter().all(|m| m["id"] != later_id),
        "the server answers nothing after a cancel"
    );
}

#[tokio::test]
async fn subscriptions_in_both_eras() {
    use libmcp::client::SubscriptionFilter;
    for pref in [
        VersionPreference::Auto,
        VersionPreference::Legacy(ProtocolVersion::V2025_11_25),
    ] {
        let server = fixture::server();
        let rev = if pref == VersionPreference::Auto {
            "2026-07-28"
        } else {
            "2025-11-25"
        };
        let tap = tapped(server.clone(), rev);
        let client = builder()
            .version_preference(pref)
            .connect_io(tap.reader, tap.writer)
            .await
            .unwrap();
        let filter = SubscriptionFilter {
            tools_list_changed: Some(true),
            resource_subscriptions: Some(vec!["test://static".into()]),
            ..Default::default()
        };
        let mut sub = client.subscribe(filter).await.unwrap();
        assert_eq!(sub.acknowledged()["toolsListChanged"], true);
        server.remove_tool("echo");
        let n = tokio::time::timeout(Duration::from_secs(5), sub.next())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(n.method, "notifications/tools/list_changed");
        server.notify(libmcp::server::Change::ResourceUpdated(
            "test://static".into(),
        ));
        let n = tokio::time::timeout(Duration::from_secs(5), sub.next())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(n.method, "notifications/resources/updated");
        drop(sub);
        client.close().await;
    }
}
