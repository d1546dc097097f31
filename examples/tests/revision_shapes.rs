//! Old revisions get old shapes: the everything-server driven at each revision through every tool,
//! resource, template, prompt, completion and the elicitation, sampling and roots requests they make,
//! with every message it sends checked against that revision's schema and for properties the
//! schema does not define for that object (`_meta` aside).

#[path = "../../core/tests/support/strict.rs"]
mod strict;
#[path = "../../core/tests/support/wire.rs"]
#[allow(dead_code)]
mod wire;

#[path = "revision_support/raw.rs"]
mod raw;

use std::collections::BTreeMap;

use raw::{Raw, answer};
use serde_json::{Value, json};

/// What each tool, prompt and read answered: `Ok(result)` or `Err(error)`, keyed by name or URI.
type Outcomes = BTreeMap<String, Result<Value, Value>>;

/// Arguments for the tools that need some.
fn tool_args(name: &str) -> Value {
    match name {
        "test_sampling" => json!({"prompt": "What is the capital of France?"}),
        "test_elicitation" => json!({"message": "Your name?"}),
        "json_schema_2020_12_tool" => {
            json!({"name": "Ada", "contactMethod": "email", "email": "ada@example.com"})
        }
        _ => json!({}),
    }
}

fn prompt_args(name: &str) -> Value {
    match name {
        "test_prompt_with_arguments" => json!({"arg1": "a", "arg2": "b"}),
        "test_prompt_with_embedded_resource" => json!({"resourceUri": "test://embedded"}),
        _ => json!({}),
    }
}

/// A request, with the modern era's input rounds answered (`inputResponses` + `requestState`).
async fn call(raw: &mut Raw, method: &str, params: Value) -> Result<Value, Value> {
    let mut outcome = raw.request(method, params.clone()).await;
    for _ in 0..5 {
        let Ok(r) = &outcome else { break };
        if r["resultType"] != "input_required" {
            break;
        }
        let mut retry = params.clone();
        let requests = r["inputRequests"].as_object().cloned().unwrap_or_default();
        retry["inputResponses"] = requests
            .iter()
            .map(|(k, q)| {
                (
                    k.clone(),
                    answer(q["method"].as_str().unwrap(), &q["params"]),
                )
            })
            .collect();
        if let Some(s) = r.get("requestState") {
            retry["requestState"] = s.clone();
        }
        outcome = raw.request(method, retry).await;
    }
    outcome
}

/// Every name (or URI) listed by a paginated list method.
async fn list(raw: &mut Raw, method: &str, key: &str, id: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut cursor: Option<Value> = None;
    loop {
        let params = cursor.map_or_else(|| json!({}), |c| json!({"cursor": c}));
        let page = raw.request(method, params).await.expect(method);
        names.extend(
            page[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i[id].as_str().unwrap().to_owned()),
        );
        match page.get("nextCursor") {
            Some(c) => cursor = Some(c.clone()),
            None => return names,
        }
    }
}

/// Drives the everything-server through everything it offers at `revision`.
async fn drive(revision: &'static str) -> (Raw, Value, Outcomes) {
    let mut raw = Raw::connect(revision);
    let init = if raw.modern() {
        raw.request("server/discover", json!({}))
            .await
            .expect("discover")
    } else {
        let caps = raw.capabilities();
        let init = raw
            .request(
                "initialize",
                json!({"protocolVersion": revision, "capabilities": caps,
                "clientInfo": {"name": "raw", "version": "1"}}),
            )
            .await
            .expect("initialize");
        assert_eq!(init["protocolVersion"], revision);
        raw.notify("notifications/initialized", json!({})).await;
        raw.request("logging/setLevel", json!({"level": "debug"}))
            .await
            .expect("setLevel");
        raw.request("ping", json!({})).await.expect("ping");
        init
    };
    let mut out = Outcomes::new();
    for name in list(&mut raw, "tools/list", "tools", "name").await {
        let params = json!({"name": name, "arguments": tool_args(&name)});
        out.insert(name, call(&mut raw, "tools/call", params).await);
    }
    let mut uris = list(&mut raw, "resources/list", "resources", "uri").await;
    let templates = list(
        &mut raw,
        "resources/templates/list",
        "resourceTemplates",
        "uriTemplate",
    )
    .await;
    assert_eq!(templates, ["test://template/{id}/data"]);
    uris.push("test://template/42/data".into());
    for uri in uris {
        out.insert(
            uri.clone(),
            call(&mut raw, "resources/read", json!({"uri": uri})).await,
        );
    }
    if !raw.modern() {
        let watched = json!({"uri": "test://watched-resource"});
        raw.request("resources/subscribe", watched.clone())
            .await
            .expect("subscribe");
        raw.request("resources/unsubscribe", watched)
            .await
            .expect("unsubscribe");
    }
    for name in list(&mut raw, "prompts/list", "prompts", "name").await {
        let params = json!({"name": name, "arguments": prompt_args(&name)});
        out.insert(name, call(&mut raw, "prompts/get", params).await);
    }
    let complete = json!({"ref": {"type": "ref/prompt", "name": "test_prompt_with_arguments"},
                          "argument": {"name": "arg1", "value": "h"}});
    let c = raw
        .request("completion/complete", complete)
        .await
        .expect("complete");
    assert_eq!(c["completion"]["values"], json!(["hello", "help"]));
    (raw, init, out)
}

/// Panics with every failure of the revision's checks; returns what the server answered.
async fn checked(revision: &'static str) -> (Raw, Value, Outcomes) {
    let (raw, init, out) = drive(revision).await;
    assert!(
        raw.failures.is_empty(),
        "{} failure(s) at {revision}:\n{}",
        raw.failures.len(),
        raw.failures.join("\n\n")
    );
    assert!(out.len() >= 30, "{revision}: only {} calls", out.len());
    (raw, init, out)
}

fn text(out: &Outcomes, key: &str) -> String {
    let r = out[key].as_ref().unwrap_or_else(|e| panic!("{key}: {e}"));
    let content = &r["content"][0];
    let block = if content.is_null() {
        &r["messages"][0]["content"]
    } else {
        content
    };
    block["text"].as_str().unwrap_or_default().to_owned()
}

fn error(out: &Outcomes, key: &str) -> (i64, String) {
    let e = out[key].as_ref().expect_err(key);
    (
        e["code"].as_i64().unwrap(),
        e["message"].as_str().unwrap().to_owned(),
    )
}

/// The SEP-1330 form (all five enum kinds) went out and was answered.
fn assert_enums_accepted(out: &Outcomes) {
    let t = text(out, "test_elicitation_sep1330_enums");
    assert!(t.starts_with("Elicitation completed: action=accept"), "{t}");
}

/// The elicitation requests the server sent.
fn elicitations(raw: &Raw) -> Vec<&Value> {
    raw.received
        .iter()
        .filter(|m| m["method"] == "elicitation/create")
        .collect()
}

#[tokio::test]
async fn revision_2024_11_05() {
    let (raw, init, out) = checked("2024-11-05").await;
    assert_eq!(
        init["serverInfo"],
        json!({"name": "libmcp-everything-server", "version": env!("CARGO_PKG_VERSION")})
    );
    assert!(init["capabilities"].get("completions").is_none());
    assert_eq!(
        text(&out, "test_audio_content"),
        "[audio content omitted: protocol revision 2024-11-05 cannot carry it; mimeType audio/wav]"
    );
    assert_eq!(text(&out, "test_sampling"), "LLM response: Paris");
    // No elicitation in this revision: the client cannot declare it, so the tool fails the
    // capability check first (-32602 naming the missing capability) before any shape is fitted.
    assert_eq!(error(&out, "test_elicitation").0, -32602);
    assert!(elicitations(&raw).is_empty());
    let progress = raw
        .received
        .iter()
        .filter(|m| m["method"] == "notifications/progress");
    assert!(progress.clone().count() >= 3);
    assert!(
        progress
            .into_iter()
            .all(|p| p["params"].get("message").is_none())
    );
}

#[tokio::test]
async fn revision_2025_03_26() {
    let (raw, init, out) = checked("2025-03-26").await;
    assert!(init["serverInfo"].get("title").is_none());
    assert_eq!(init["capabilities"]["completions"], json!({}));
    let audio = &out["test_audio_content"].as_ref().unwrap()["content"][0];
    assert_eq!(audio["type"], "audio");
    assert_eq!(error(&out, "test_elicitation").0, -32602);
    assert!(elicitations(&raw).is_empty());
}

#[tokio::test]
async fn revision_2025_06_18() {
    let (raw, init, out) = checked("2025-06-18").await;
    assert_eq!(init["serverInfo"]["title"], "libmcp everything server");
    assert_eq!(
        text(&out, "test_elicitation"),
        "User response: action=accept, content={\"response\":\"Ada\"}"
    );
    // Multi-select fields have no form in 2025-06-18: the tool fails and nothing is sent.
    let (code, message) = error(&out, "test_elicitation_sep1330_enums");
    assert_eq!(code, -32603);
    assert_eq!(
        message,
        "Internal error: input request \"enums\": the request elicitation/create cannot be expressed in \
         protocol revision 2025-06-18: requestedSchema.properties.titledMulti: type \"array\" matches \
         none of the forms this revision defines here (StringSchema, NumberSchema, BooleanSchema, EnumSchema)"
    );
    let sent = elicitations(&raw);
    assert!(sent.iter().all(|e| e["params"].get("mode").is_none()));
    let defaults = sent
        .iter()
        .find(|e| {
            e["params"]["message"] == "Please review and update the form fields with defaults"
        })
        .expect("the SEP-1034 form");
    let fields = &defaults["params"]["requestedSchema"]["properties"];
    assert!(
        fields["name"].get("default").is_none(),
        "StringSchema has no default in 2025-06-18"
    );
    assert_eq!(fields["verified"]["default"], true, "BooleanSchema has one");
}

#[tokio::test]
async fn revision_2025_11_25() {
    let (raw, _init, out) = checked("2025-11-25").await;
    assert_enums_accepted(&out);
    let enums = elicitations(&raw)
        .into_iter()
        .find(|e| e["params"]["message"] == "Please select options from the enum fields")
        .expect("the SEP-1330 form");
    let fields = &enums["params"]["requestedSchema"]["properties"];
    assert_eq!(fields["untitledMulti"]["type"], "array");
    assert_eq!(fields["titledSingle"]["oneOf"][0]["title"], "First Option");
}

#[tokio::test]
async fn revision_2026_07_28() {
    let (raw, _discover, out) = checked("2026-07-28").await;
    assert_enums_accepted(&out);
    assert_eq!(
        text(&out, "test_input_required_result_multi_round"),
        "Hello, Ada! Your favorite color is Ada."
    );
    // The modern era has no server-to-client requests: every input travelled in results.
    assert!(
        raw.received
            .iter()
            .all(|m| m.get("method").is_none() || m.get("id").is_none())
    );
}
