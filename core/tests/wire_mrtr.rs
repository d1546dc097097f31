//! Multi round-trip requests on the wire, modern era: sealed state, retries, and every failure rule.

mod support;

use std::time::Duration;

use libmcp::server::ServerConfig;
use serde_json::{Value, json};
use support::fixture;
use support::harness::{Wire, modern};

const REV: &str = "2026-07-28";

async fn first_round(w: &mut Wire, id: i64) -> Value {
    let r = w
        .request(
            json!(id),
            "tools/call",
            modern(json!({"name": "ask", "arguments": {}})),
        )
        .await;
    let result = r["result"].clone();
    assert_eq!(result["resultType"], "input_required");
    assert_eq!(
        result["inputRequests"],
        json!({"user_name": {"method": "elicitation/create", "params": {"mode": "form", "message": "What is your name?",
            "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}})
    );
    assert!(result["requestState"].is_string());
    result
}

fn retry(state: &Value, responses: Value) -> Value {
    modern(
        json!({"name": "ask", "arguments": {}, "inputResponses": responses, "requestState": state}),
    )
}

#[tokio::test]
async fn round_trip_with_sealed_state() {
    let mut w = Wire::start(fixture::server(), REV);
    let first = first_round(&mut w, 1).await;
    let answer = json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}, "extra_key": {"ignored": true}});
    let r = w
        .request(
            json!(2),
            "tools/call",
            retry(&first["requestState"], answer),
        )
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "Hello, Ada!");
    assert_eq!(r["result"]["resultType"], "complete");
    w.finish().await;
}

#[tokio::test]
async fn missing_or_wrong_answers_get_a_fresh_input_request() {
    let mut w = Wire::start(fixture::server(), REV);
    let first = first_round(&mut w, 1).await;
    let r = w
        .request(
            json!(2),
            "tools/call",
            retry(
                &first["requestState"],
                json!({"other": {"action": "accept"}}),
            ),
        )
        .await;
    assert_eq!(r["result"]["resultType"], "input_required");
    let r = w
        .request(
            json!(3),
            "tools/call",
            retry(
                &first["requestState"],
                json!({"user_name": {"action": "decline"}}),
            ),
        )
        .await;
    assert_eq!(r["result"]["resultType"], "input_required");
    w.finish().await;
}

#[tokio::test]
async fn an_accepted_answer_that_does_not_match_the_schema_is_invalid_params() {
    // The fixture reads its answer with `elicitation_answer`, giving the schema it asked with.
    let mut w = Wire::start(fixture::server(), REV);
    let first = first_round(&mut w, 1).await;
    for (id, answer, names) in [
        (
            2,
            json!({"action": "accept", "content": {"name": 7}}),
            "/name",
        ),
        (3, json!({"action": "accept", "content": {}}), "\"name\""),
        (4, json!({"action": "accept"}), "\"name\""),
        (5, json!({"action": "maybe"}), "action \"maybe\""),
    ] {
        let r = w
            .request(
                json!(id),
                "tools/call",
                retry(&first["requestState"], json!({ "user_name": answer })),
            )
            .await;
        assert_eq!(r["error"]["code"], -32602, "{r}");
        let m = r["error"]["message"].as_str().unwrap();
        assert!(
            m.starts_with("Invalid params: the answer to the form elicitation \"user_name\" "),
            "{m}"
        );
        assert!(m.contains(names), "{m}");
    }
    // The same state still serves a retry whose answer matches.
    let answer = json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}});
    let r = w
        .request(
            json!(6),
            "tools/call",
            retry(&first["requestState"], answer),
        )
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "Hello, Ada!");
    w.finish().await;
}

#[tokio::test]
async fn tampered_foreign_and_malformed_state_is_rejected() {
    let mut w = Wire::start(fixture::server(), REV);
    let first = first_round(&mut w, 1).await;
    let token = first["requestState"].as_str().unwrap();
    let mut bytes = token.as_bytes().to_vec();
    let last = bytes.len() - 3;
    bytes[last] = if bytes[last] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    let answer = json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}});
    let r = w
        .request(
            json!(2),
            "tools/call",
            retry(&json!(tampered), answer.clone()),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602);
    // Valid state, but bound to other params.
    let p = modern(
        json!({"name": "ask", "arguments": {"x": 1}, "inputResponses": answer, "requestState": token}),
    );
    assert_eq!(
        w.request(json!(3), "tools/call", p).await["error"]["code"],
        -32602
    );
    // Shape errors.
    let p = modern(json!({"name": "ask", "inputResponses": {"user_name": 5}}));
    assert_eq!(
        w.request(json!(4), "tools/call", p).await["error"]["code"],
        -32602
    );
    let p = modern(json!({"name": "ask", "requestState": 12}));
    assert_eq!(
        w.request(json!(5), "tools/call", p).await["error"]["code"],
        -32602
    );
    // A state from another server (another key) is rejected too.
    let mut other = Wire::start(fixture::server(), REV);
    let foreign = first_round(&mut other, 1).await;
    other.finish().await;
    let r = w
        .request(
            json!(6),
            "tools/call",
            retry(&foreign["requestState"], answer),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602);
    w.finish().await;
}

#[tokio::test]
async fn expired_state_is_rejected() {
    let config = ServerConfig {
        state_ttl: Duration::from_millis(1),
        ..ServerConfig::default()
    };
    let mut w = Wire::start(fixture::server_with(config), REV);
    let first = first_round(&mut w, 1).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let answer = json!({"user_name": {"action": "accept", "content": {"name": "Ada"}}});
    let r = w
        .request(
            json!(2),
            "tools/call",
            retry(&first["requestState"], answer),
        )
        .await;
    assert_eq!(r["error"]["code"], -32602);
    assert!(
        r["error"]["message"].as_str().unwrap().contains("expired"),
        "{r}"
    );
    w.finish().await;
}

#[tokio::test]
async fn sampling_and_roots_rounds() {
    let mut w = Wire::start(fixture::server(), REV);
    let r = w
        .request(json!(1), "tools/call", modern(json!({"name": "sample"})))
        .await;
    assert_eq!(
        r["result"]["inputRequests"]["answer"]["method"],
        "sampling/createMessage"
    );
    assert!(r["result"].get("requestState").is_none());
    let reply = json!({"answer": {"role": "assistant", "content": {"type": "text", "text": "4"}, "model": "m", "stopReason": "endTurn"}});
    let r = w
        .request(
            json!(2),
            "tools/call",
            modern(json!({"name": "sample", "inputResponses": reply})),
        )
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "model said: 4");
    let r = w
        .request(json!(3), "tools/call", modern(json!({"name": "roots"})))
        .await;
    assert_eq!(
        r["result"]["inputRequests"],
        json!({"r": {"method": "roots/list"}})
    );
    let reply = json!({"r": {"roots": [{"uri": "file:///a"}, {"uri": "file:///b", "name": "b"}]}});
    let r = w
        .request(
            json!(4),
            "tools/call",
            modern(json!({"name": "roots", "inputResponses": reply})),
        )
        .await;
    assert_eq!(r["result"]["content"][0]["text"], "2 roots");
    w.finish().await;
}

#[tokio::test]
async fn invalid_input_requests_never_leave_the_server() {
    let mut w = Wire::start(fixture::server(), REV);
    let r = w
        .request(json!(1), "tools/call", modern(json!({"name": "bad_form"})))
        .await;
    assert_eq!(r["error"]["code"], -32603);
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("requestedSchema"),
        "{r}"
    );
    w.finish().await;
}
