//! Tools that need input from the client. Each is written once as a multi round-trip (MRTR) handler:
//! on modern requests the engine returns an `InputRequiredResult`; on legacy sessions it sends the real
//! `elicitation/create`, `sampling/createMessage` or `roots/list` requests and re-invokes the handler
//! with the answers.
//!
//! A retry whose answers are missing or malformed gets the same input requests again (the spec's
//! SHOULD), never an error; extra answers are ignored.

use libmcp::server::{InputRequired, Reply, RequestContext, ServerBuilder};
use serde_json::{Map, Value, json};

use super::no_args;

/// The state `test_input_required_result_request_state` attaches; its final text echoes it.
const REQUEST_STATE: &str = "state-ok";

/// The content of an accepted elicitation answer.
fn accepted<'a>(ctx: &'a RequestContext, key: &str) -> Option<&'a Map<String, Value>> {
    let r = ctx.input_response(key)?;
    if r.get("action").and_then(Value::as_str) != Some("accept") {
        return None;
    }
    r.get("content")?.as_object()
}

/// One string field of an accepted elicitation answer.
fn accepted_str(ctx: &RequestContext, key: &str, field: &str) -> Option<String> {
    accepted(ctx, key)?.get(field)?.as_str().map(str::to_string)
}

/// Wraps a tool handler so that a declined or cancelled elicitation among `keys` ends the request: a
/// refusal is an answer, so the server does not ask again.
fn ends_on_refusal<F>(
    keys: &'static [&'static str],
    f: F,
) -> impl Fn(&RequestContext, &Value) -> Reply + Send + Sync + 'static
where
    F: Fn(&RequestContext, &Value) -> Reply + Send + Sync + 'static,
{
    move |ctx, args| refused(ctx, keys).unwrap_or_else(|| f(ctx, args))
}

/// A completion for a request whose user declined or cancelled one of the elicitations `keys`.
fn refused(ctx: &RequestContext, keys: &[&str]) -> Option<Reply> {
    keys.iter().find_map(|k| {
        let action = ctx.input_response(k)?.get("action")?.as_str()?;
        (action == "decline" || action == "cancel")
            .then(|| Reply::text(format!("The user chose to {action} the question ({k})")))
    })
}

/// `action=…, content=…` of any elicitation answer (accept, decline or cancel).
fn describe_elicitation(answer: &Value) -> String {
    let action = answer
        .get("action")
        .and_then(Value::as_str)
        .unwrap_or("unknown");
    let content = answer.get("content").cloned().unwrap_or_else(|| json!({}));
    format!("action={action}, content={content}")
}

/// The text of a sampling answer (`content` is one block or, since 2025-11-25, an array of blocks).
fn sampled_text(ctx: &RequestContext, key: &str) -> Option<String> {
    let content = ctx.input_response(key)?.get("content")?;
    let block = match content {
        Value::Array(blocks) => blocks
            .iter()
            .find(|b| b.get("type") == Some(&json!("text")))?,
        other => other,
    };
    block.get("text")?.as_str().map(str::to_string)
}

/// The roots of a `roots/list` answer, as `uri (name)` strings.
fn root_list(ctx: &RequestContext, key: &str) -> Option<Vec<String>> {
    let roots = ctx.input_response(key)?.get("roots")?.as_array()?;
    Some(
        roots
            .iter()
            .filter_map(|r| {
                let uri = r.get("uri")?.as_str()?;
                Some(match r.get("name").and_then(Value::as_str) {
                    Some(n) => format!("{uri} ({n})"),
                    None => uri.to_string(),
                })
            })
            .collect(),
    )
}

fn string_form(field: &str, description: &str) -> Value {
    json!({
        "type": "object",
        "properties": {field: {"type": "string", "description": description}},
        "required": [field],
    })
}

fn user_message(text: &str, max_tokens: u32) -> Value {
    json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": text}}],
        "maxTokens": max_tokens,
    })
}

fn ask_name(ir: InputRequired, key: &str) -> InputRequired {
    ir.elicit(key, "What is your name?", string_form("name", "Your name"))
}

fn ask_capital(ir: InputRequired, key: &str) -> InputRequired {
    ir.sample(key, user_message("What is the capital of France?", 100))
}

pub(super) fn register(b: ServerBuilder) -> ServerBuilder {
    let b = legacy_style(b);
    mrtr_tools(b).prompt(
        json!({
            "name": "test_input_required_result_prompt",
            "description": "A prompt that first asks the user for context (MRTR)",
        }),
        |ctx, _args| match accepted_str(ctx, "user_context", "context") {
            None if refused(ctx, &["user_context"]).is_some() => json!({
                "description": "A prompt without user context (the user refused)",
                "messages": [{"role": "user", "content": {"type": "text", "text": "No context was provided."}}],
            })
            .into(),
            Some(context) => json!({
                "description": "A prompt built from user-provided context",
                "messages": [{"role": "user", "content": {"type": "text",
                    "text": format!("Use this context: {context}")}}],
            })
            .into(),
            None => Reply::from(InputRequired::new().elicit(
                "user_context",
                "What context should the prompt use?",
                string_form("context", "Context for the prompt"),
            )),
        },
    )
}

/// The tools of the 2025 scenarios (sampling, elicitation, SEP-1034 defaults, SEP-1330 enums), which a
/// legacy session serves with real server-to-client requests.
fn legacy_style(b: ServerBuilder) -> ServerBuilder {
    b.tool(
        json!({
            "name": "test_sampling",
            "description": "Asks the client's LLM to answer a prompt (sampling/createMessage)",
            "inputSchema": {"type": "object", "properties": {"prompt": {"type": "string", "description": "The prompt to send"}}, "required": ["prompt"]},
        }),
        |ctx, args| match sampled_text(ctx, "sample") {
            Some(text) => Reply::text(format!("LLM response: {text}")),
            None => {
                let prompt = args["prompt"].as_str().unwrap_or_default();
                InputRequired::new().sample("sample", user_message(prompt, 100)).into()
            }
        },
    )
    .tool(
        json!({
            "name": "test_elicitation",
            "description": "Asks the user for input (elicitation/create)",
            "inputSchema": {"type": "object", "properties": {"message": {"type": "string", "description": "The message to show the user"}}, "required": ["message"]},
        }),
        |ctx, args| match ctx.input_response("response") {
            Some(answer) => Reply::text(format!("User response: {}", describe_elicitation(answer))),
            None => InputRequired::new()
                .elicit("response", args["message"].as_str().unwrap_or_default(), string_form("response", "Your response"))
                .into(),
        },
    )
    .tool(
        no_args("test_elicitation_sep1034_defaults", "Elicitation whose form fields carry default values (SEP-1034)"),
        |ctx, _args| match ctx.input_response("defaults") {
            Some(answer) => Reply::text(format!("Elicitation completed: {}", describe_elicitation(answer))),
            None => InputRequired::new()
                .elicit("defaults", "Please review and update the form fields with defaults", json!({
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "description": "User name", "default": "John Doe"},
                        "age": {"type": "integer", "description": "User age", "default": 30},
                        "score": {"type": "number", "description": "User score", "default": 95.5},
                        "status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"], "default": "active"},
                        "verified": {"type": "boolean", "description": "Verification status", "default": true},
                    },
                }))
                .into(),
        },
    )
    .tool(
        no_args("test_elicitation_sep1330_enums", "Elicitation with the five enum variants of SEP-1330"),
        |ctx, _args| match ctx.input_response("enums") {
            Some(answer) => Reply::text(format!("Elicitation completed: {}", describe_elicitation(answer))),
            None => InputRequired::new().elicit("enums", "Please select options from the enum fields", enum_form()).into(),
        },
    )
    .tool(
        no_args("test_streaming_elicitation", "Elicitation without server-to-client requests in the modern era: progress, then an input_required result"),
        |ctx, _args| {
            ctx.notify_progress(0.0, Some(1.0), Some("asking the user"));
            match ctx.input_response("confirmation") {
                Some(answer) => Reply::text(format!("Streaming elicitation completed: {}", describe_elicitation(answer))),
                None => InputRequired::new()
                    .elicit("confirmation", "Please confirm to continue", string_form("confirmation", "Type anything to confirm"))
                    .into(),
            }
        },
    )
}

fn enum_form() -> Value {
    let titled = json!([
        {"const": "value1", "title": "First Option"},
        {"const": "value2", "title": "Second Option"},
        {"const": "value3", "title": "Third Option"},
    ]);
    json!({
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "description": "Untitled single-select", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {"type": "string", "description": "Titled single-select", "oneOf": titled},
            "legacyEnum": {"type": "string", "description": "Legacy titled enum", "enum": ["opt1", "opt2", "opt3"], "enumNames": ["Option One", "Option Two", "Option Three"]},
            "untitledMulti": {"type": "array", "description": "Untitled multi-select", "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
            "titledMulti": {"type": "array", "description": "Titled multi-select", "items": {"anyOf": titled}},
        },
    })
}

/// The SEP-2322 tools (§4.4 of the conformance notes).
fn mrtr_tools(b: ServerBuilder) -> ServerBuilder {
    b.tool(
        no_args("test_input_required_result_elicitation", "MRTR: asks for the user's name, then greets them"),
        ends_on_refusal(&["user_name"], |ctx, _args| match accepted_str(ctx, "user_name", "name") {
            Some(name) => Reply::text(format!("Hello, {name}!")),
            None => ask_name(InputRequired::new(), "user_name").into(),
        },)
    )
    .tool(
        no_args("test_input_required_result_sampling", "MRTR: asks the client's LLM for the capital of France"),
        |ctx, _args| match sampled_text(ctx, "capital_question") {
            Some(text) => Reply::text(format!("Sampling result: {text}")),
            None => ask_capital(InputRequired::new(), "capital_question").into(),
        },
    )
    .tool(
        no_args("test_input_required_result_list_roots", "MRTR: asks for the client's roots"),
        |ctx, _args| match root_list(ctx, "client_roots") {
            Some(roots) => Reply::text(format!("Client roots: {}", roots.join(", "))),
            None => InputRequired::new().list_roots("client_roots").into(),
        },
    )
    .tool(
        no_args("test_input_required_result_request_state", "MRTR: asks for a confirmation and carries a requestState"),
        ends_on_refusal(&["confirm"], |ctx, _args| {
            let confirmed = accepted(ctx, "confirm").and_then(|c| c.get("ok")).and_then(Value::as_bool);
            match (confirmed, ctx.request_state()) {
                (Some(ok), Some(REQUEST_STATE)) => Reply::text(format!("Request state verified: {REQUEST_STATE} (ok={ok})")),
                _ => InputRequired::new()
                    .elicit("confirm", "Please confirm", json!({"type": "object", "properties": {"ok": {"type": "boolean", "description": "Confirm"}}, "required": ["ok"]}))
                    .with_state(REQUEST_STATE)
                    .into(),
            }
        },)
    )
    .tool(
        no_args("test_input_required_result_multiple_inputs", "MRTR: asks for a name, a sampled greeting and the roots at once"),
        ends_on_refusal(&["user_name"], |ctx, _args| {
            let name = accepted_str(ctx, "user_name", "name");
            let greeting = sampled_text(ctx, "greeting");
            let roots = root_list(ctx, "client_roots");
            match (name, greeting, roots, ctx.request_state()) {
                (Some(n), Some(g), Some(r), Some("multiple-inputs")) => {
                    Reply::text(format!("Hello, {n}! Greeting: {g}. Roots: {}", r.join(", ")))
                }
                _ => ask_name(InputRequired::new(), "user_name")
                    .sample("greeting", user_message("Write a short greeting.", 50))
                    .list_roots("client_roots")
                    .with_state("multiple-inputs")
                    .into(),
            }
        },)
    )
    .tool(
        no_args("test_input_required_result_multi_round", "MRTR: asks for a name, then in a second round for a favourite colour"),
        ends_on_refusal(&["step1", "step2"], |ctx, _args| multi_round(ctx),)
    )
    .tool(
        no_args("test_input_required_result_tampered_state", "MRTR: carries an integrity-protected requestState; a modified one is rejected with -32602"),
        ends_on_refusal(&["user_name"], |ctx, _args| match (accepted_str(ctx, "user_name", "name"), ctx.request_state()) {
            (Some(name), Some("untampered")) => Reply::text(format!("State verified, hello {name}!")),
            _ => ask_name(InputRequired::new(), "user_name").with_state("untampered").into(),
        },)
    )
    .tool(
        no_args("test_input_required_result_capabilities", "MRTR: asks only for the kinds of input the client declared"),
        ends_on_refusal(&["user_name"], |ctx, _args| capabilities(ctx),)
    )
}

fn multi_round(ctx: &RequestContext) -> Reply {
    let step1 = || {
        ask_name(InputRequired::new(), "step1")
            .with_state("round-1")
            .into()
    };
    match ctx.request_state() {
        Some("round-1") => match accepted_str(ctx, "step1", "name") {
            Some(name) => InputRequired::new()
                .elicit(
                    "step2",
                    "Step 2: What is your favorite color?",
                    string_form("color", "Your favorite color"),
                )
                .with_state(format!("round-2:{name}"))
                .into(),
            None => step1(),
        },
        Some(s) if s.starts_with("round-2:") => {
            let name = &s["round-2:".len()..];
            match accepted_str(ctx, "step2", "color") {
                Some(color) => {
                    Reply::text(format!("Hello, {name}! Your favorite color is {color}."))
                }
                None => InputRequired::new()
                    .elicit(
                        "step2",
                        "Step 2: What is your favorite color?",
                        string_form("color", "Your favorite color"),
                    )
                    .with_state(s.to_string())
                    .into(),
            }
        }
        _ => step1(),
    }
}

fn capabilities(ctx: &RequestContext) -> Reply {
    let elicit = ctx.has_client_capability(&["elicitation", "form"]);
    let sample = ctx.has_client_capability(&["sampling"]);
    let roots = ctx.has_client_capability(&["roots"]);
    if !(elicit || sample || roots) {
        return Reply::text("The client declared no input capability: nothing to ask");
    }
    let mut parts = Vec::new();
    let mut missing = false;
    if elicit {
        match accepted_str(ctx, "user_name", "name") {
            Some(n) => parts.push(format!("name={n}")),
            None => missing = true,
        }
    }
    if sample {
        match sampled_text(ctx, "capital_question") {
            Some(t) => parts.push(format!("sampling={t}")),
            None => missing = true,
        }
    }
    if roots {
        match root_list(ctx, "client_roots") {
            Some(r) => parts.push(format!("roots={}", r.join(", "))),
            None => missing = true,
        }
    }
    if !missing {
        return Reply::text(format!("Received: {}", parts.join("; ")));
    }
    let mut ir = InputRequired::new();
    if elicit {
        ir = ask_name(ir, "user_name");
    }
    if sample {
        ir = ask_capital(ir, "capital_question");
    }
    if roots {
        ir = ir.list_roots("client_roots");
    }
    ir.into()
}
