//! Typed tools: arguments deserialised into a Rust type whose JSON Schema becomes the tool's
//! `inputSchema`, and results built from the handler's return type, whose schema (for [`Json`]
//! outputs) becomes the `outputSchema`. Schemas are derived with `schemars` (JSON Schema 2020-12, the
//! default dialect of MCP tool schemas).

use std::fmt::Display;
use std::future::Future;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::context::Reply;
use super::handlers::{async_handler, sync_handler};
use super::state::{Handler, RequestContext};
use crate::error::{DefinitionError, DefinitionKind};
use crate::model::{CallToolResult, Tool};

/// A structured tool result: `T` is sent as `structuredContent` (with its JSON as a text block, for
/// clients that read only `content`), and `T`'s schema is the tool's `outputSchema`. `T` must
/// serialise to a JSON object.
#[derive(Clone, Debug, PartialEq)]
pub struct Json<T>(pub T);

/// What a typed tool may return.
pub trait ToolOutput {
    /// The JSON Schema of the `structuredContent` this type produces, if it produces one.
    fn output_schema() -> Option<Value> {
        None
    }

    /// The handler's answer.
    fn into_reply(self) -> Reply;
}

impl ToolOutput for String {
    fn into_reply(self) -> Reply {
        Reply::text(self)
    }
}

impl ToolOutput for &'static str {
    fn into_reply(self) -> Reply {
        Reply::text(self)
    }
}

impl ToolOutput for CallToolResult {
    fn into_reply(self) -> Reply {
        self.into()
    }
}

/// Any reply, including a protocol error or a request for input.
impl ToolOutput for Reply {
    fn into_reply(self) -> Reply {
        self
    }
}

impl<T: Serialize + schemars::JsonSchema> ToolOutput for Json<T> {
    fn output_schema() -> Option<Value> {
        Some(derive_schema::<T>())
    }

    fn into_reply(self) -> Reply {
        match serde_json::to_value(self.0) {
            Ok(v @ Value::Object(_)) => CallToolResult::structured(v).into(),
            Ok(other) => Reply::Error(crate::RpcError::internal(format!(
                "structured tool output must be a JSON object, got {other}"
            ))),
            Err(e) => Reply::Error(crate::RpcError::internal(e)),
        }
    }
}

/// `Err` is a tool failure the model reads (`isError: true` with the error's text), not a
/// protocol error; return a [`Reply`] for the latter.
impl<T: ToolOutput, E: Display> ToolOutput for std::result::Result<T, E> {
    fn output_schema() -> Option<Value> {
        T::output_schema()
    }

    fn into_reply(self) -> Reply {
        match self {
            Ok(v) => v.into_reply(),
            Err(e) => Reply::tool_error(e.to_string()),
        }
    }
}

/// The JSON Schema of `T` for a tool definition: 2020-12, without the `$schema` and `title` keys that
/// only repeat the dialect and the Rust type name.
pub fn derive_schema<T: schemars::JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    if let Some(obj) = schema.as_object_mut() {
        obj.remove("$schema");
        obj.remove("title");
    }
    schema
}

/// A tool definition with its handler, ready to register ([`super::ServerBuilder::register`],
/// [`super::Server::register`]). Made by [`ToolDef::sync_fn`], [`ToolDef::async_fn`] or the
/// `#[tool]` attribute.
pub struct ToolDef {
    definition: Tool,
    handler: Handler,
    problem: Option<String>,
}

impl std::fmt::Debug for ToolDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolDef")
            .field("definition", &self.definition)
            .finish_non_exhaustive()
    }
}

impl ToolDef {
    /// A tool from a synchronous function of the context and the arguments `A`: `inputSchema` is
    /// derived from `A`, `outputSchema` from `R` (when `R` is a [`Json`] output, possibly in a
    /// `Result`), replacing what `definition` had.
    pub fn sync_fn<A, R, F>(definition: impl Into<Tool>, f: F) -> ToolDef
    where
        A: DeserializeOwned + schemars::JsonSchema,
        R: ToolOutput,
        F: Fn(&RequestContext, A) -> R + Send + Sync + 'static,
    {
        let handler = sync_handler(move |ctx| match A::deserialize(ctx.arguments()) {
            Ok(args) => f(ctx, args).into_reply(),
            Err(e) => invalid_arguments(e),
        });
        ToolDef::new::<A, R>(definition.into(), handler)
    }

    /// A tool from an async function of the context and the arguments `A`; schemas as in
    /// [`ToolDef::sync_fn`]. Each call runs as a task on the current tokio runtime and is dropped if
    /// the request is cancelled.
    pub fn async_fn<A, R, F, Fut>(definition: impl Into<Tool>, f: F) -> ToolDef
    where
        A: DeserializeOwned + schemars::JsonSchema,
        R: ToolOutput + Send + 'static,
        F: Fn(RequestContext, A) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = R> + Send + 'static,
    {
        let f = std::sync::Arc::new(f);
        let handler = async_handler(move |ctx: RequestContext| {
            let call = A::deserialize(ctx.arguments()).map(|args| f(ctx.clone(), args));
            async move {
                match call {
                    Ok(fut) => fut.await.into_reply(),
                    Err(e) => invalid_arguments(e),
                }
            }
        });
        ToolDef::new::<A, R>(definition.into(), handler)
    }

    fn new<A: schemars::JsonSchema, R: ToolOutput>(mut definition: Tool, handler: Handler) -> Self {
        definition.input_schema = derive_schema::<A>();
        let mut problem = None;
        if let Some(schema) = R::output_schema() {
            if schema.get("type") != Some(&json!("object")) {
                problem = Some(format!(
                    "tool {}: the output type's schema is not an object schema \
                     (structuredContent is a JSON object; wrap the value in a struct): {schema}",
                    definition.name
                ));
            }
            definition.output_schema = Some(schema);
        }
        ToolDef {
            definition,
            handler,
            problem,
        }
    }

    /// The definition that `tools/list` will show.
    pub fn definition(&self) -> &Tool {
        &self.definition
    }

    /// The definition and handler, or why they cannot be registered.
    pub fn into_parts(self) -> std::result::Result<(Tool, Handler), DefinitionError> {
        match self.problem {
            Some(p) => Err(DefinitionError::new(
                DefinitionKind::Tool,
                self.definition.name,
                p,
            )),
            None => Ok((self.definition, self.handler)),
        }
    }
}

/// Arguments that passed the input schema but do not fit the Rust type (a schema the derive could not
/// express exactly): a tool error the model can correct, like a schema failure.
fn invalid_arguments(e: serde_json::Error) -> Reply {
    Reply::tool_error(format!("Input validation error: {e}"))
}
