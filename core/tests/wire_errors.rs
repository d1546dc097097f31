//! Bad input never kills the connection: each malformed message gets the right error, and the next
//! valid request is served as if nothing happened.

mod support;

use libmcp::server::ServerConfig;
use serde_json::{Value, json};
use support::fixture;
use support::harness::{Wire, modern};

const REV: &str = "2026-07-28";

async fn still_alive(w: &mut Wire, id: i64) {
    let r = w
        .request(
            json!(id),
            "tools/call",
            modern(json!({"name": "echo", "arguments": {"text": "alive"}})),
        )
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "alive");
}

async fn error_for(w: &mut Wire, bytes: &[u8]) -> Value {
    w.send_raw(bytes).await;
    let r = w.recv().await;
    assert!(r.get("error").is_some(), "expected an error, got {r}");
    r
}

#[tokio::test]
async fn malformed_messages_get_precise_errors() {
    let mut w = Wire::start(fixture::server(), REV);
    let cases: Vec<(&[u8], i64, Value)> = vec![
        (b"{not json", -32700, Value::Null),
        (b"\"\xff\xfe\"", -32700, Value::Null),
        (b"[]", -32600, Value::Null),
        (b"42", -32600, Value::Null),
        (
            br#"{"jsonrpc":"2.0","id":null,"method":"tools/list"}"#,
            -32600,
            Value::Null,
        ),
        (
            br#"{"jsonrpc":"1.0","id":5,"method":"tools/list"}"#,
            -32600,
            json!(5),
        ),
        (br#"{"jsonrpc":"2.0","id":6,"method":7}"#, -32600, json!(6)),
        (
            br#"{"jsonrpc":"2.0","id":"p","method":"tools/list","params":[1,2]}"#,
            -32600,
            json!("p"),
        ),
        (br#"{"jsonrpc":"2.0","id":8}"#, -32600, json!(8)),
    ];
    for (i, (bytes, code, id)) in cases.into_iter().enumerate() {
        let r = error_for(&mut w, bytes).await;
        assert_eq!(
            r["error"]["code"],
            code,
            "case {i}: {}",
            String::from_utf8_lossy(bytes)
        );
        assert_eq!(r.get("id").cloned().unwrap_or(Value::Null), id, "case {i}");
        still_alive(&mut w, 100 + i as i64).await;
    }
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(
        error_for(&mut w, deep.as_bytes()).await["error"]["code"],
        -32700
    );
    let deep_params = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{{"a":{}1{}}}}}"#,
        "[".repeat(5000),
        "]".repeat(5000)
    );
    assert_eq!(
        error_for(&mut w, deep_params.as_bytes()).await["error"]["code"],
        -32700
    );
    still_alive(&mut w, 200).await;
    w.finish().await;
}

#[tokio::test]
async fn oversized_messages_are_refused_without_buffering_them() {
    let config = ServerConfig {
        max_message_bytes: 4096,
        ..ServerConfig::default()
    };
    let mut w = Wire::start(fixture::server_with(config), REV);
    let huge = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": modern(json!({"name": "echo", "arguments": {"text": "x".repeat(1 << 20)}}))});
    let r = error_for(&mut w, huge.to_string().as_bytes()).await;
    assert_eq!(r["error"]["code"], -32600);
    assert!(r["error"]["message"].as_str().unwrap().contains("4096"));
    still_alive(&mut w, 2).await;
    w.finish().await;
}

#[tokio::test]
async fn duplicate_in_flight_ids_are_refused() {
    let mut w = Wire::start(fixture::server(), REV);
    let slow = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": modern(json!({"name": "slow"}))});
    w.send(slow.clone()).await;
    w.send(slow).await;
    let dup = w.recv().await;
    assert_eq!(dup["error"]["code"], -32600);
    assert_eq!(dup["id"], 1);
    let done = w.response_to(&json!(1)).await;
    assert_eq!(done["result"]["content"][0]["text"], "done");
    still_alive(&mut w, 1).await;
    w.finish().await;
}

#[tokio::test]
async fn unknown_notifications_and_stray_responses_are_ignored() {
    let mut w = Wire::start(fixture::server(), REV);
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/whatever", "params": {"x": 1}}))
        .await;
    w.send(json!({"jsonrpc": "2.0", "id": 999, "result": {}}))
        .await;
    w.send(json!({"jsonrpc": "2.0", "id": 998, "error": {"code": 1, "message": "m"}}))
        .await;
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 12345}})).await;
    w.expect_silence(100).await;
    still_alive(&mut w, 1).await;
    w.finish().await;
}

#[tokio::test]
async fn a_request_sent_just_before_eof_is_still_answered() {
    let mut w = Wire::start(fixture::server(), REV);
    w.send(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": modern(json!({"name": "slow"}))})).await;
    // finish() closes our end at once; the server answers in-flight work before it exits.
    let r = w.response_to(&json!(1)).await;
    assert_eq!(r["result"]["content"][0]["text"], "done");
    w.finish().await;
}

#[tokio::test]
async fn shutdown_answers_in_flight_requests_then_returns() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (ours, theirs) = tokio::io::duplex(1 << 16);
    let (sr, sw) = tokio::io::split(theirs);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(libmcp::transport::stdio::serve_until(
        fixture::server(),
        sr,
        sw,
        async {
            let _ = stop_rx.await;
        },
    ));
    let (r, mut w) = tokio::io::split(ours);
    let slow = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": modern(json!({"name": "slow"}))});
    w.write_all(format!("{slow}\n").as_bytes()).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    stop_tx.send(()).unwrap();
    let mut lines = BufReader::new(r).lines();
    let mut answered = false;
    while let Some(line) = lines.next_line().await.unwrap() {
        let m: Value = serde_json::from_str(&line).unwrap();
        if m["id"] == 1 {
            assert_eq!(m["result"]["content"][0]["text"], "done");
            answered = true;
        }
    }
    assert!(answered, "the request in flight at shutdown was answered");
    tokio::time::timeout(std::time::Duration::from_secs(5), task)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
}

/// `_meta` that is not an object and progress tokens that are neither strings nor integers are
/// -32602 in both eras, and the connection goes on.
#[tokio::test]
async fn wrongly_typed_meta_is_invalid_params_in_both_eras() {
    let bad_metas = [
        (json!("x"), "params._meta must be an object, not a string"),
        (json!([]), "params._meta must be an object, not an array"),
        (
            json!({"progressToken": 1.5}),
            "params._meta.progressToken must be a string or an integer, not a fractional number",
        ),
        (
            json!({"progressToken": null}),
            "params._meta.progressToken must be a string or an integer, not null",
        ),
    ];
    // Modern: the bad field replaces or joins the request's own `_meta`.
    let mut w = Wire::start(fixture::server(), REV);
    for (i, (bad, message)) in bad_metas.iter().enumerate() {
        let mut params = modern(json!({"name": "echo", "arguments": {"text": "x"}}));
        match bad {
            Value::Object(fields) => params["_meta"]
                .as_object_mut()
                .unwrap()
                .extend(fields.clone()),
            other => params["_meta"] = other.clone(),
        }
        let r = w.request(json!(100 + i), "tools/call", params).await;
        assert_eq!(r["error"]["code"], -32602, "{bad}: {r}");
        assert_eq!(r["error"]["message"], format!("Invalid params: {message}"));
        still_alive(&mut w, 200 + i as i64).await;
    }
    w.finish().await;

    // Legacy: after the handshake, on a plain request.
    let mut w = Wire::start(fixture::server(), "2025-11-25");
    let init = w
        .request(
            json!(0),
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    assert_eq!(init["result"]["protocolVersion"], "2025-11-25");
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    for (i, (bad, message)) in bad_metas.iter().enumerate() {
        let params = json!({"name": "echo", "arguments": {"text": "x"}, "_meta": bad});
        let r = w.request(json!(300 + i), "tools/call", params).await;
        assert_eq!(r["error"]["code"], -32602, "{bad}: {r}");
        assert_eq!(r["error"]["message"], format!("Invalid params: {message}"));
        let ok = w
            .request(
                json!(400 + i),
                "tools/call",
                json!({"name": "echo", "arguments": {"text": "alive"}, "_meta": {"progressToken": "p"}}),
            )
            .await;
        assert_eq!(ok["result"]["content"][0]["text"], "alive");
    }
    w.finish().await;
}
