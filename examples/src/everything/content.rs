//! Tools that need nothing from the client: content types, errors, logging, progress, schemas and the
//! capability check.

use std::time::Duration;

use libmcp::RpcError;
use libmcp::model::logging::LoggingLevel;
use libmcp::server::{Reply, ServerBuilder};
use serde_json::{Value, json};

use super::{PNG_BASE64, SIMPLE_TEXT, WAV_BASE64, no_args};

/// Pause between the notifications of the logging and progress tools.
const STEP: Duration = Duration::from_millis(50);

fn image_block() -> Value {
    json!({"type": "image", "data": PNG_BASE64, "mimeType": "image/png"})
}

pub(super) fn register(b: ServerBuilder) -> ServerBuilder {
    b.tool(
        no_args("test_simple_text", "Returns a simple text response"),
        |_ctx, _args| Reply::text(SIMPLE_TEXT),
    )
    .tool(
        no_args("test_image_content", "Returns an image (a 1x1 PNG)"),
        |_ctx, _args| json!({"content": [image_block()]}),
    )
    .tool(
        no_args("test_audio_content", "Returns audio (a short WAV)"),
        |_ctx, _args| {
            json!({"content": [{"type": "audio", "data": WAV_BASE64, "mimeType": "audio/wav"}]})
        },
    )
    .tool(
        no_args("test_embedded_resource", "Returns an embedded text resource"),
        |_ctx, _args| {
            json!({"content": [{"type": "resource", "resource": {
                "uri": "test://embedded-resource",
                "mimeType": "text/plain",
                "text": "This is an embedded resource content.",
            }}]})
        },
    )
    .tool(
        no_args(
            "test_multiple_content_types",
            "Returns text, an image and an embedded resource",
        ),
        |_ctx, _args| {
            json!({"content": [
                {"type": "text", "text": "Multiple content types test:"},
                image_block(),
                {"type": "resource", "resource": {
                    "uri": "test://mixed-content-resource",
                    "mimeType": "application/json",
                    "text": "{\"test\":\"data\",\"value\":123}",
                }},
            ]})
        },
    )
    .tool(
        no_args(
            "test_error_handling",
            "Always fails with a tool error (isError), not a protocol error",
        ),
        |_ctx, _args| Reply::tool_error("This tool intentionally returns an error for testing"),
    )
    .tool_async(
        no_args(
            "test_tool_with_logging",
            "Sends three info log messages about 50 ms apart, then returns",
        ),
        |ctx| async move {
            let messages = [
                "Tool execution started",
                "Tool processing data",
                "Tool execution completed",
            ];
            for (i, m) in messages.into_iter().enumerate() {
                if i > 0 {
                    tokio::time::sleep(STEP).await;
                }
                ctx.log(LoggingLevel::Info, None, json!(m));
            }
            Reply::text("Tool with logging executed successfully")
        },
    )
    .tool_async(
        no_args(
            "test_tool_with_progress",
            "Reports progress 0, 50 and 100 of 100 about 50 ms apart (when a progressToken is given)",
        ),
        |ctx| async move {
            for (i, p) in [0.0, 50.0, 100.0].into_iter().enumerate() {
                if i > 0 {
                    tokio::time::sleep(STEP).await;
                }
                ctx.notify_progress(p, Some(100.0), None);
            }
            Reply::text("Tool with progress executed successfully")
        },
    )
    .tool(
        no_args(
            "test_logging_tool",
            "Logs at debug, info and warning; the modern era only delivers them when the request names a logLevel",
        ),
        |ctx, _args| {
            // The engine applies the era's rule: per-request `_meta` logLevel (modern) or the
            // session level (legacy). Without a requested level a modern request gets no messages.
            let sent = [
                (LoggingLevel::Debug, "test_logging_tool: debug message"),
                (LoggingLevel::Info, "test_logging_tool: info message"),
                (LoggingLevel::Warning, "test_logging_tool: warning message"),
            ]
            .into_iter()
            .filter(|(level, text)| ctx.log(*level, Some("test_logging_tool"), json!(text)))
            .count();
            Reply::text(format!("Logging test completed: {sent} message(s) sent"))
        },
    )
    .tool(
        no_args(
            "test_missing_capability",
            "Needs the client's sampling capability: fails with -32021 when the request does not declare it",
        ),
        |ctx, _args| {
            if ctx.has_client_capability(&["sampling"]) {
                Reply::text("Success")
            } else {
                Reply::Error(RpcError::missing_capability(json!({"sampling": {}})))
            }
        },
    )
    .tool(json_schema_2020_12_tool(), |_ctx, args| {
        Reply::text(format!("json_schema_2020_12_tool received: {args}"))
    })
}

/// A tool whose input schema uses JSON Schema 2020-12 keywords; it must be listed verbatim.
fn json_schema_2020_12_tool() -> Value {
    json!({
        "name": "json_schema_2020_12_tool",
        "description": "Tool with a JSON Schema 2020-12 input schema ($defs, $anchor, $ref, allOf/anyOf, if/then/else)",
        "inputSchema": {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": {
                        "street": {"type": "string"},
                        "city": {"type": "string"},
                        "postalCode": {"type": "string"}
                    },
                    "required": ["street", "city"]
                }
            },
            "properties": {
                "name": {"type": "string", "description": "The contact's name"},
                "address": {"$ref": "#/$defs/address"},
                "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                "phone": {"type": "string"},
                "email": {"type": "string", "format": "email"}
            },
            "allOf": [
                {"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}
            ],
            "if": {
                "properties": {"contactMethod": {"const": "phone"}},
                "required": ["contactMethod"]
            },
            "then": {"required": ["phone"]},
            "else": {"required": ["email"]},
            "additionalProperties": false
        }
    })
}
