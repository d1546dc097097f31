//! Every example message of the 2026-07-28 specification (vendored in `tests/spec/2026-07-28/examples`)
//! validates against its schema definition and round-trips through the typed model unchanged.
//!
//! The table below maps each example directory (named after its schema type) to a round trip through
//! the matching Rust type. A directory without an entry fails the test, so coverage cannot shrink
//! silently when examples are added.

mod support;

use std::collections::BTreeMap;

use libmcp::model::completion::CompleteParams;
use libmcp::model::elicitation::{
    BooleanSchema, ElicitRequestFormParams, ElicitRequestUrlParams, NumberSchema, StringSchema,
    TitledMultiSelectEnumSchema, TitledSingleSelectEnumSchema, UntitledMultiSelectEnumSchema,
    UntitledSingleSelectEnumSchema,
};
use libmcp::model::resources::{
    BlobResourceContents, ResourceUpdatedNotificationParams, TextResourceContents,
};
use libmcp::model::sampling::{ModelPreferences, ToolResultContent, ToolUseContent};
use libmcp::model::subscriptions::{SubscriptionsAcknowledgedParams, SubscriptionsListenResult};
use libmcp::model::*;
use libmcp::{RequestId, RpcError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A JSON-RPC request envelope around typed params.
#[derive(Serialize, Deserialize)]
struct Req<P> {
    jsonrpc: String,
    id: RequestId,
    method: String,
    params: P,
}

/// A JSON-RPC notification envelope around typed params.
#[derive(Serialize, Deserialize)]
struct Notif<P> {
    jsonrpc: String,
    method: String,
    // No `default`: serde would then demand `P: Default`; a missing Option is `None` anyway.
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<P>,
}

/// A JSON-RPC result response around a typed result.
#[derive(Serialize, Deserialize)]
struct Resp<R> {
    jsonrpc: String,
    id: RequestId,
    result: R,
}

/// A JSON-RPC error response.
#[derive(Serialize, Deserialize)]
struct ErrResp {
    jsonrpc: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<RequestId>,
    error: RpcError,
}

/// An input request that also carries a JSON-RPC id (the `ListRootsRequest` example does).
#[derive(Serialize, Deserialize)]
struct IdentifiedInputRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    id: Option<RequestId>,
    #[serde(flatten)]
    request: InputRequest,
}

type Check = fn(&Value) -> Result<(), String>;

/// Deserialises `v` as `T`, re-serialises it, and compares; returns the typed value.
fn rt<T: Serialize + DeserializeOwned>(v: &Value) -> Result<T, String> {
    let typed: T = serde_json::from_value(v.clone()).map_err(|e| {
        format!(
            "does not deserialise as {}: {e}",
            std::any::type_name::<T>()
        )
    })?;
    let back = serde_json::to_value(&typed).map_err(|e| format!("does not serialise: {e}"))?;
    if &back != v {
        return Err(format!(
            "round trip through {} changed the JSON:\n  in:  {v}\n  out: {back}",
            std::any::type_name::<T>()
        ));
    }
    Ok(typed)
}

/// [`rt`], then checks the decoded value with `pred` (e.g. which enum variant it became).
fn rt_is<T: Serialize + DeserializeOwned>(
    v: &Value,
    what: &str,
    pred: fn(&T) -> bool,
) -> Result<(), String> {
    let t = rt::<T>(v)?;
    if pred(&t) {
        Ok(())
    } else {
        Err(format!("decoded as the wrong variant (expected {what})"))
    }
}

macro_rules! plain {
    ($t:ty) => {
        (|v| rt::<$t>(v).map(drop)) as Check
    };
}

fn table() -> BTreeMap<&'static str, Check> {
    use ElicitRequestParams as E;
    use PrimitiveSchemaDefinition as P;
    let mut t: BTreeMap<&'static str, Check> = BTreeMap::new();
    // Content blocks: the struct alone, and the block enum picking the right variant.
    t.insert("TextContent", |v| {
        rt::<TextContent>(v)?;
        rt_is::<ContentBlock>(v, "Text", |b| matches!(b, ContentBlock::Text(_)))
    });
    t.insert("ImageContent", |v| {
        rt::<ImageContent>(v)?;
        rt_is::<ContentBlock>(v, "Image", |b| matches!(b, ContentBlock::Image(_)))
    });
    t.insert("AudioContent", |v| {
        rt::<AudioContent>(v)?;
        rt_is::<ContentBlock>(v, "Audio", |b| matches!(b, ContentBlock::Audio(_)))
    });
    t.insert("ResourceLink", |v| {
        rt::<ResourceLink>(v)?;
        rt_is::<ContentBlock>(v, "ResourceLink", |b| {
            matches!(b, ContentBlock::ResourceLink(_))
        })
    });
    t.insert("EmbeddedResource", |v| {
        rt::<EmbeddedResource>(v)?;
        rt_is::<ContentBlock>(v, "Resource", |b| matches!(b, ContentBlock::Resource(_)))
    });
    t.insert("TextResourceContents", |v| {
        rt::<TextResourceContents>(v)?;
        rt_is::<ResourceContents>(v, "Text", |c| matches!(c, ResourceContents::Text(_)))
    });
    t.insert("BlobResourceContents", |v| {
        rt::<BlobResourceContents>(v)?;
        rt_is::<ResourceContents>(v, "Blob", |c| matches!(c, ResourceContents::Blob(_)))
    });
    t.insert("ToolUseContent", plain!(ToolUseContent));
    t.insert("ToolResultContent", plain!(ToolResultContent));
    // Form field schemas: the struct alone, and the primitive-schema enum picking the right variant.
    t.insert("StringSchema", |v| {
        rt::<StringSchema>(v)?;
        rt_is::<P>(v, "String", |p| matches!(p, P::String(_)))
    });
    t.insert("NumberSchema", |v| {
        rt::<NumberSchema>(v)?;
        rt_is::<P>(v, "Number", |p| matches!(p, P::Number(_)))
    });
    t.insert("BooleanSchema", |v| {
        rt::<BooleanSchema>(v)?;
        rt_is::<P>(v, "Boolean", |p| matches!(p, P::Boolean(_)))
    });
    t.insert("UntitledSingleSelectEnumSchema", |v| {
        rt::<UntitledSingleSelectEnumSchema>(v)?;
        rt_is::<P>(v, "UntitledSingleSelectEnum", |p| {
            matches!(p, P::UntitledSingleSelectEnum(_))
        })
    });
    t.insert("TitledSingleSelectEnumSchema", |v| {
        rt::<TitledSingleSelectEnumSchema>(v)?;
        rt_is::<P>(v, "TitledSingleSelectEnum", |p| {
            matches!(p, P::TitledSingleSelectEnum(_))
        })
    });
    t.insert("UntitledMultiSelectEnumSchema", |v| {
        rt::<UntitledMultiSelectEnumSchema>(v)?;
        rt_is::<P>(v, "UntitledMultiSelectEnum", |p| {
            matches!(p, P::UntitledMultiSelectEnum(_))
        })
    });
    t.insert("TitledMultiSelectEnumSchema", |v| {
        rt::<TitledMultiSelectEnumSchema>(v)?;
        rt_is::<P>(v, "TitledMultiSelectEnum", |p| {
            matches!(p, P::TitledMultiSelectEnum(_))
        })
    });
    // Elicitation.
    t.insert("ElicitRequestFormParams", |v| {
        rt::<ElicitRequestFormParams>(v)?;
        rt_is::<E>(v, "Form", |p| matches!(p, E::Form(_)))
    });
    t.insert("ElicitRequestURLParams", |v| {
        rt::<ElicitRequestUrlParams>(v)?;
        rt_is::<E>(v, "Url", |p| matches!(p, E::Url(_)))
    });
    t.insert("ElicitResult", |v| {
        rt::<ElicitResult>(v)?;
        rt_is::<InputResponse>(v, "Elicit", |r| matches!(r, InputResponse::Elicit(_)))
    });
    // MRTR input requests and responses.
    t.insert("ElicitRequest", |v| {
        rt_is::<InputRequest>(v, "Elicitation", |r| {
            matches!(r, InputRequest::Elicitation { .. })
        })
    });
    t.insert("CreateMessageRequest", |v| {
        rt_is::<InputRequest>(v, "Sampling", |r| {
            matches!(r, InputRequest::Sampling { .. })
        })
    });
    t.insert("ListRootsRequest", |v| {
        rt_is::<IdentifiedInputRequest>(v, "ListRoots", |r| {
            matches!(r.request, InputRequest::ListRoots { .. })
        })
    });
    t.insert("InputRequests", plain!(InputRequests));
    t.insert("InputResponses", plain!(InputResponses));
    t.insert("InputRequiredResult", |v| {
        rt::<InputRequiredResult>(v)?;
        rt_is::<Outcome<CallToolResult>>(v, "InputRequired", |o| {
            matches!(o, Outcome::InputRequired(_))
        })
    });
    // Sampling.
    t.insert("CreateMessageRequestParams", plain!(CreateMessageParams));
    t.insert("CreateMessageResult", |v| {
        rt::<CreateMessageResult>(v)?;
        rt_is::<InputResponse>(v, "CreateMessage", |r| {
            matches!(r, InputResponse::CreateMessage(_))
        })
    });
    t.insert("SamplingMessage", plain!(SamplingMessage));
    t.insert("ModelPreferences", plain!(ModelPreferences));
    // Roots.
    t.insert("Root", plain!(Root));
    t.insert("ListRootsResult", |v| {
        rt::<ListRootsResult>(v)?;
        rt_is::<InputResponse>(v, "ListRoots", |r| matches!(r, InputResponse::ListRoots(_)))
    });
    // Capabilities and discovery.
    t.insert("ClientCapabilities", plain!(ClientCapabilities));
    t.insert("ServerCapabilities", plain!(ServerCapabilities));
    t.insert("DiscoverRequest", plain!(Req<MetaParams>));
    t.insert("DiscoverResult", plain!(DiscoverResult));
    t.insert("DiscoverResultResponse", plain!(Resp<DiscoverResult>));
    // Tools.
    t.insert("Tool", plain!(Tool));
    t.insert("ListToolsRequest", plain!(Req<PaginatedParams>));
    t.insert("ListToolsResult", plain!(ListToolsResult));
    t.insert("ListToolsResultResponse", plain!(Resp<ListToolsResult>));
    t.insert("CallToolRequest", plain!(Req<CallToolParams>));
    t.insert("CallToolRequestParams", plain!(CallToolParams));
    t.insert("CallToolResult", |v| {
        rt::<CallToolResult>(v)?;
        rt_is::<Outcome<CallToolResult>>(v, "Complete", |o| matches!(o, Outcome::Complete(_)))
    });
    t.insert(
        "CallToolResultResponse",
        plain!(Resp<Outcome<CallToolResult>>),
    );
    t.insert("ToolListChangedNotification", plain!(Notif<MetaParams>));
    // Prompts.
    t.insert("ListPromptsRequest", plain!(Req<PaginatedParams>));
    t.insert("ListPromptsResult", plain!(ListPromptsResult));
    t.insert("ListPromptsResultResponse", plain!(Resp<ListPromptsResult>));
    t.insert("GetPromptRequest", plain!(Req<GetPromptParams>));
    t.insert("GetPromptRequestParams", plain!(GetPromptParams));
    t.insert("GetPromptResult", plain!(GetPromptResult));
    t.insert(
        "GetPromptResultResponse",
        plain!(Resp<Outcome<GetPromptResult>>),
    );
    t.insert("PromptListChangedNotification", plain!(Notif<MetaParams>));
    // Resources.
    t.insert("Resource", plain!(Resource));
    t.insert("ListResourcesRequest", plain!(Req<PaginatedParams>));
    t.insert("ListResourcesResult", plain!(ListResourcesResult));
    t.insert(
        "ListResourcesResultResponse",
        plain!(Resp<ListResourcesResult>),
    );
    t.insert("ListResourceTemplatesRequest", plain!(Req<PaginatedParams>));
    t.insert(
        "ListResourceTemplatesResult",
        plain!(ListResourceTemplatesResult),
    );
    t.insert(
        "ListResourceTemplatesResultResponse",
        plain!(Resp<ListResourceTemplatesResult>),
    );
    t.insert("ReadResourceRequest", plain!(Req<ReadResourceParams>));
    t.insert("ReadResourceResult", plain!(ReadResourceResult));
    t.insert(
        "ReadResourceResultResponse",
        plain!(Resp<Outcome<ReadResourceResult>>),
    );
    t.insert("ResourceListChangedNotification", plain!(Notif<MetaParams>));
    t.insert(
        "ResourceUpdatedNotification",
        plain!(Notif<ResourceUpdatedNotificationParams>),
    );
    t.insert(
        "ResourceUpdatedNotificationParams",
        plain!(ResourceUpdatedNotificationParams),
    );
    // Completion.
    t.insert("CompleteRequest", plain!(Req<CompleteParams>));
    t.insert("CompleteRequestParams", plain!(CompleteParams));
    t.insert("CompleteResult", plain!(CompleteResult));
    t.insert("CompleteResultResponse", plain!(Resp<CompleteResult>));
    // Subscriptions.
    t.insert(
        "SubscriptionsListenRequest",
        plain!(Req<SubscriptionsListenParams>),
    );
    t.insert(
        "SubscriptionsAcknowledgedNotification",
        plain!(Notif<SubscriptionsAcknowledgedParams>),
    );
    t.insert(
        "SubscriptionsListenResult",
        plain!(SubscriptionsListenResult),
    );
    t.insert(
        "SubscriptionsListenResultResponse",
        plain!(Resp<SubscriptionsListenResult>),
    );
    // Pagination, progress, cancellation, logging.
    t.insert("PaginatedRequestParams", plain!(PaginatedParams));
    t.insert(
        "ProgressNotification",
        plain!(Notif<ProgressNotificationParams>),
    );
    t.insert(
        "ProgressNotificationParams",
        plain!(ProgressNotificationParams),
    );
    t.insert(
        "CancelledNotification",
        plain!(Notif<CancelledNotificationParams>),
    );
    t.insert(
        "CancelledNotificationParams",
        plain!(CancelledNotificationParams),
    );
    t.insert(
        "LoggingMessageNotification",
        plain!(Notif<LoggingMessageParams>),
    );
    t.insert(
        "LoggingMessageNotificationParams",
        plain!(LoggingMessageParams),
    );
    // Errors: bare error objects and full error responses.
    t.insert("ParseError", plain!(RpcError));
    t.insert("InternalError", plain!(RpcError));
    t.insert("InvalidParamsError", plain!(RpcError));
    t.insert("MethodNotFoundError", plain!(RpcError));
    t.insert("HeaderMismatchError", plain!(ErrResp));
    t.insert("MissingRequiredClientCapabilityError", plain!(ErrResp));
    t.insert("UnsupportedProtocolVersionError", plain!(ErrResp));
    t
}

/// (type directory, file name, parsed JSON) for every example.
fn examples() -> Vec<(String, String, Value)> {
    let root = support::wire::spec_dir().join("2026-07-28/examples");
    let mut out = Vec::new();
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let ty = dir.file_name().unwrap().to_string_lossy().into_owned();
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files
            .into_iter()
            .filter(|f| f.extension().is_some_and(|x| x == "json"))
        {
            let text = std::fs::read_to_string(&file).unwrap();
            let value: Value = serde_json::from_str(&text)
                .unwrap_or_else(|e| panic!("{} is not JSON: {e}", file.display()));
            out.push((
                ty.clone(),
                file.file_name().unwrap().to_string_lossy().into_owned(),
                value,
            ));
        }
    }
    out
}

#[test]
fn every_example_type_has_a_rust_mapping() {
    let table = table();
    let types: std::collections::BTreeSet<String> =
        examples().into_iter().map(|(t, _, _)| t).collect();
    let missing: Vec<_> = types
        .iter()
        .filter(|t| !table.contains_key(t.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "example types with no Rust mapping: {missing:?}"
    );
    let stale: Vec<_> = table.keys().filter(|k| !types.contains(**k)).collect();
    assert!(
        stale.is_empty(),
        "mappings for example types that no longer exist: {stale:?}"
    );
    assert!(
        types.len() >= 88,
        "expected at least 88 example types, found {}",
        types.len()
    );
}

#[test]
fn every_example_round_trips_through_the_model() {
    let table = table();
    let mut failures = Vec::new();
    let mut count = 0;
    for (ty, file, value) in examples() {
        let Some(check) = table.get(ty.as_str()) else {
            continue;
        };
        count += 1;
        if let Err(e) = check(&value) {
            failures.push(format!("{ty}/{file}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} examples failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(count >= 129, "only {count} examples checked");
}

#[test]
fn every_example_validates_against_its_schema_definition() {
    let schemas = support::wire::schema_for("2026-07-28");
    let mut failures = Vec::new();
    for (ty, file, value) in examples() {
        if !schemas.has(&ty) {
            failures.push(format!("{ty}/{file}: no definition {ty} in the schema"));
        } else if let Err(errors) = schemas.validate(&ty, &value) {
            failures.push(format!("{ty}/{file}: {}", errors.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "examples failing their schema definition:\n{}",
        failures.join("\n")
    );
}
