//! The wire-schema validator accepts valid messages and rejects invalid ones, per revision.

mod support;

use serde_json::{Value, json};
use support::wire::{REVISIONS, Side, assert_valid_message, schema_for};

fn rejects(revision: &str, msg: &Value, side: Side, method: Option<&str>) -> String {
    schema_for(revision)
        .check_message(msg, side, method)
        .expect_err("message should be rejected")
}

fn modern_meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

#[test]
fn every_revision_compiles_with_method_tables() {
    for rev in REVISIONS {
        let s = schema_for(rev);
        assert!(
            s.request_definition(Side::Client, "tools/call").is_some(),
            "{rev}"
        );
        assert_eq!(
            s.request_definition(Side::Client, "tools/list"),
            Some("ListToolsRequest")
        );
    }
    assert_eq!(schema_for("2024-11-05").defs_key, "definitions");
    assert_eq!(schema_for("2026-07-28").defs_key, "$defs");
    assert_eq!(
        schema_for("2025-06-18").request_definition(Side::Server, "elicitation/create"),
        Some("ElicitRequest")
    );
    // 2026-07-28 servers send no requests; elicitation travels inside InputRequiredResult.
    assert_eq!(
        schema_for("2026-07-28").request_definition(Side::Server, "elicitation/create"),
        None
    );
}

#[test]
fn modern_2026_accepts_valid_messages() {
    let rev = "2026-07-28";
    let call = json!({"jsonrpc":"2.0","id":1,"method":"tools/call",
        "params":{"_meta": modern_meta(),"name":"echo","arguments":{"text":"hi"}}});
    assert_valid_message(rev, &call, Side::Client, None);
    let result = json!({"jsonrpc":"2.0","id":1,"result":{"resultType":"complete",
        "content":[{"type":"text","text":"hi"}]}});
    assert_valid_message(rev, &result, Side::Server, Some("tools/call"));
    let input = json!({"jsonrpc":"2.0","id":1,"result":{"resultType":"input_required",
        "inputRequests":{"k":{"method":"roots/list"}},"requestState":"s"}});
    assert_valid_message(rev, &input, Side::Server, Some("tools/call"));
    let discover = json!({"jsonrpc":"2.0","id":"d","result":{"resultType":"complete",
        "supportedVersions":["2026-07-28"],"capabilities":{},"ttlMs":0,"cacheScope":"public"}});
    assert_valid_message(rev, &discover, Side::Server, Some("server/discover"));
    let err = json!({"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version",
        "data":{"supported":["2026-07-28"],"requested":"1999-01-01"}}});
    assert_valid_message(rev, &err, Side::Server, None);
    let cancelled =
        json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}});
    assert_valid_message(rev, &cancelled, Side::Client, None);
}

#[test]
fn modern_2026_rejects_invalid_messages() {
    let rev = "2026-07-28";
    // params._meta is required in 2026-07-28.
    let call = json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}});
    let e = rejects(rev, &call, Side::Client, None);
    assert!(
        e.contains("2026-07-28") && e.contains("CallToolRequest"),
        "{e}"
    );
    // tools/list results must carry the cache hints.
    let list = json!({"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","tools":[]}});
    let e = rejects(rev, &list, Side::Server, Some("tools/list"));
    assert!(e.contains("ListToolsResult") && e.contains("ttlMs"), "{e}");
    // input_required is only allowed on tools/call, prompts/get and resources/read.
    let input =
        json!({"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required","requestState":"s"}});
    assert!(rejects(rev, &input, Side::Server, Some("tools/list")).contains("not allowed"));
    // -32022 must carry {supported, requested}.
    let err = json!({"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"nope"}});
    assert!(rejects(rev, &err, Side::Server, None).contains("UnsupportedProtocolVersionError"));
    // ping no longer exists.
    let ping = json!({"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta": modern_meta()}});
    rejects(rev, &ping, Side::Client, None);
}

#[test]
#[should_panic(expected = "revision 2026-07-28")]
fn assert_valid_message_panics_with_revision() {
    let msg = json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}});
    assert_valid_message("2026-07-28", &msg, Side::Client, None);
}

#[test]
fn legacy_2025_11_25_accepts_and_rejects() {
    let rev = "2025-11-25";
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}});
    assert_valid_message(rev, &init, Side::Client, None);
    let init_result = json!({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25",
        "capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}});
    assert_valid_message(rev, &init_result, Side::Server, Some("initialize"));
    let ping = json!({"jsonrpc":"2.0","id":"p","result":{}});
    assert_valid_message(rev, &ping, Side::Client, Some("ping"));
    let elicit = json!({"jsonrpc":"2.0","id":5,"method":"elicitation/create","params":{
        "mode":"url","message":"m","url":"https://example.com","elicitationId":"e1"}});
    assert_valid_message(rev, &elicit, Side::Server, None);

    let bad_result =
        json!({"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{}}});
    let e = rejects(rev, &bad_result, Side::Server, Some("initialize"));
    assert!(
        e.contains("InitializeResult") && e.contains("serverInfo"),
        "{e}"
    );
    // Clients do not send server notifications.
    let changed = json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed"});
    rejects(rev, &changed, Side::Client, None);
    assert_valid_message(rev, &changed, Side::Server, None);
}

#[test]
fn legacy_2024_11_05_accepts_and_rejects() {
    let rev = "2024-11-05";
    let call = json!({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{}}});
    assert_valid_message(rev, &call, Side::Client, None);
    let result = json!({"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}});
    assert_valid_message(rev, &result, Side::Server, Some("tools/call"));
    let set_level = json!({"jsonrpc":"2.0","id":8,"result":{}});
    assert_valid_message(rev, &set_level, Side::Server, Some("logging/setLevel"));

    // 2024-11-05 has no audio content.
    let audio = json!({"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"audio","data":"AA==","mimeType":"audio/wav"}]}});
    let e = rejects(rev, &audio, Side::Server, Some("tools/call"));
    assert!(
        e.contains("2024-11-05") && e.contains("CallToolResult"),
        "{e}"
    );
    // A request without a method name it knows.
    let unknown = json!({"jsonrpc":"2.0","id":9,"method":"server/discover","params":{}});
    rejects(rev, &unknown, Side::Client, None);
    // jsonrpc must be "2.0".
    let wrong = json!({"jsonrpc":"1.0","id":9,"method":"ping"});
    assert!(rejects(rev, &wrong, Side::Client, None).contains("JSONRPCRequest"));
}
