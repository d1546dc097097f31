//! A handler's handle on its legacy session (`RequestContext::session_notifier`) over stdio: a
//! notification sent after the request was answered, exact on the wire and valid for the revision,
//! and every refusal (no session in 2026-07-28, a method the revision lacks, invalid params, an
//! undeclared capability, a closed session).

mod support;

use libmcp::server::SessionNotifyError;
use serde_json::{Value, json};
use support::harness::{Wire, modern};
use support::notifier::{Slot, server};
use support::wire::assert_valid;

async fn init(w: &mut Wire, version: &str, caps: Value) {
    let r = w
        .request(
            json!(0),
            "initialize",
            json!({"protocolVersion": version, "capabilities": caps,
            "clientInfo": {"name": "t", "version": "1"}}),
        )
        .await;
    assert_eq!(r["result"]["protocolVersion"], version);
    w.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
}

async fn pay(w: &mut Wire, id: i64) -> Value {
    let r = w
        .request(
            json!(id),
            "tools/call",
            json!({"name": "pay", "arguments": {}}),
        )
        .await;
    r["result"].clone()
}

#[tokio::test]
async fn elicitation_complete_reaches_the_session_after_the_request_was_answered() {
    let slot = Slot::default();
    let mut w = Wire::start(server(slot.clone()), "2025-11-25");
    init(&mut w, "2025-11-25", json!({"elicitation": {"url": {}}})).await;
    assert_eq!(
        pay(&mut w, 1).await,
        json!({"content": [{"type": "text", "text": "started"}]})
    );
    let n = slot.lock().take().unwrap();
    assert!(n.is_open());
    assert_eq!(n.protocol_version().as_str(), "2025-11-25");
    // From another thread, after the request was answered.
    let sender = n.clone();
    std::thread::spawn(move || sender.elicitation_complete("pay-1"))
        .join()
        .unwrap()
        .unwrap();
    let m = w.recv().await;
    let expected = json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete",
                          "params": {"elicitationId": "pay-1"}});
    assert_eq!(m, expected);
    assert_eq!(
        m.to_string(),
        r#"{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"pay-1"}}"#
    );
    assert_valid("2025-11-25", "ElicitationCompleteNotification", &m);

    // Any server notification of the revision; what the revision does not define is dropped.
    n.notify(
        "notifications/message",
        Some(json!({"level": "info", "data": {"paid": true}, "undefined": 1})),
    )
    .unwrap();
    let m = w.recv().await;
    assert_eq!(
        m,
        json!({"jsonrpc": "2.0", "method": "notifications/message",
               "params": {"level": "info", "data": {"paid": true}}})
    );
    assert_valid("2025-11-25", "LoggingMessageNotification", &m);
    n.notify("notifications/tools/list_changed", None).unwrap();
    let m = w.recv().await;
    assert_eq!(
        m,
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    );
    assert_valid("2025-11-25", "ToolListChangedNotification", &m);

    w.finish().await;
    assert!(!n.is_open());
    assert_eq!(
        n.elicitation_complete("pay-1"),
        Err(SessionNotifyError::SessionClosed)
    );
    assert_eq!(
        n.notify("notifications/tools/list_changed", None)
            .unwrap_err()
            .to_string(),
        "the session has ended: no notification can reach it"
    );
}

#[tokio::test]
async fn bad_methods_and_params_are_refused_and_nothing_is_sent() {
    let slot = Slot::default();
    let mut w = Wire::start(server(slot.clone()), "2025-11-25");
    init(&mut w, "2025-11-25", json!({"elicitation": {"url": {}}})).await;
    pay(&mut w, 1).await;
    let n = slot.lock().take().unwrap();
    assert_eq!(
        n.notify("notifications/nope", None)
            .unwrap_err()
            .to_string(),
        "notifications/nope is not a server notification of protocol revision 2025-11-25"
    );
    // A client notification is not a server one.
    assert!(matches!(
        n.notify("notifications/initialized", None),
        Err(SessionNotifyError::UnknownNotification { .. })
    ));
    assert_eq!(
        n.notify("notifications/message", None)
            .unwrap_err()
            .to_string(),
        "invalid params: the notification notifications/message cannot be expressed in protocol \
         revision 2025-11-25: it has required params, and none were given"
    );
    assert_eq!(
        n.notify("notifications/message", Some(json!([1])))
            .unwrap_err()
            .to_string(),
        "invalid params: the notification notifications/message cannot be expressed in protocol \
         revision 2025-11-25: params: params must be an object"
    );
    assert_eq!(
        n.notify(
            "notifications/message",
            Some(json!({"level": "loud", "data": 1}))
        )
        .unwrap_err()
        .to_string(),
        "invalid params: the notification notifications/message cannot be expressed in protocol \
         revision 2025-11-25: params.level: must be one of [\"alert\",\"critical\",\"debug\",\"emergency\",\"error\",\"info\",\"notice\",\"warning\"]"
    );
    assert_eq!(
        n.notify(
            "notifications/elicitation/complete",
            Some(json!({"elicitationId": 7}))
        )
        .unwrap_err()
        .to_string(),
        "invalid params: the notification notifications/elicitation/complete cannot be expressed \
         in protocol revision 2025-11-25: params.elicitationId: must be of type string, not number"
    );
    assert_eq!(
        n.notify("notifications/elicitation/complete", Some(json!({})))
            .unwrap_err()
            .to_string(),
        "invalid params: the notification notifications/elicitation/complete cannot be expressed \
         in protocol revision 2025-11-25: params: lacks the required \"elicitationId\""
    );
    w.expect_silence(200).await;
    w.finish().await;
}

#[tokio::test]
async fn elicitation_complete_needs_the_url_capability_and_2025_11_25() {
    // Declared form mode only.
    let slot = Slot::default();
    let mut w = Wire::start(server(slot.clone()), "2025-11-25");
    init(&mut w, "2025-11-25", json!({"elicitation": {}})).await;
    pay(&mut w, 1).await;
    let n = slot.lock().take().unwrap();
    assert_eq!(
        n.elicitation_complete("e").unwrap_err().to_string(),
        "the client did not declare the elicitation.url capability"
    );
    w.expect_silence(200).await;
    w.finish().await;

    // 2025-06-18 has no such notification (nor URL-mode elicitation).
    let mut w = Wire::start(server(slot.clone()), "2025-06-18");
    init(&mut w, "2025-06-18", json!({"elicitation": {"url": {}}})).await;
    pay(&mut w, 1).await;
    let n = slot.lock().take().unwrap();
    assert_eq!(
        n.elicitation_complete("e"),
        Err(SessionNotifyError::UnknownNotification {
            method: "notifications/elicitation/complete".into(),
            revision: "2025-06-18".into()
        })
    );
    w.expect_silence(200).await;
    w.finish().await;
}

#[tokio::test]
async fn a_2026_07_28_request_has_no_session() {
    let slot = Slot::default();
    let mut w = Wire::start(server(slot.clone()), "2026-07-28");
    let r = w
        .request(
            json!(1),
            "tools/call",
            modern(json!({"name": "pay", "arguments": {}})),
        )
        .await;
    assert_eq!(
        r["result"]["content"][0]["text"],
        "no session to notify: protocol revision 2026-07-28 has no sessions; a request's \
         notifications travel only in its own response stream"
    );
    assert_eq!(r["result"]["isError"], true);
    assert!(slot.lock().is_none());
    w.finish().await;
}
