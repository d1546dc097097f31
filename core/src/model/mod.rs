//! Typed protocol shapes, split by domain. The engine routes raw JSON; these types are for users who
//! build or read messages, and they round-trip every example message of the specification unchanged.
//!
//! Conventions: fields are camelCase on the wire; optional fields are skipped when `None`; `_meta` is a
//! [`Meta`] map; schema fields typed "any JSON" (tool schemas, `structuredContent`) are kept as
//! [`serde_json::Value`] verbatim. Fields that only some revisions have are optional, so one type reads
//! every revision. `resultType` is a [`ResultType`] (open enum: core values plus extension strings);
//! constructors of results set it to `complete`.

mod annotations;
pub mod cache;
pub mod cancellation;
pub mod capabilities;
pub mod common;
pub mod completion;
pub mod content;
pub mod discover;
pub mod elicitation;
pub mod form_schema;
pub mod implementation;
pub mod logging;
pub mod meta_keys;
pub mod mrtr;
pub mod pagination;
pub mod progress;
pub mod prompts;
mod resource_contents;
pub mod resources;
mod result_type;
pub mod roots;
pub mod sampling;
pub mod subscriptions;
pub mod tasks;
mod tool;
pub mod tools;

pub use cache::CacheScope;
pub use cancellation::CancelledNotificationParams;
pub use capabilities::{ClientCapabilities, ServerCapabilities};
pub use common::{EmptyResult, JsonObject, Meta, MetaParams};
pub use completion::{CompleteParams, CompleteResult, CompletionReference};
pub use content::{
    Annotations, AudioContent, ContentBlock, EmbeddedResource, ImageContent, ResourceLink, Role,
    TextContent,
};
pub use discover::DiscoverResult;
pub use elicitation::{ElicitAction, ElicitRequestParams, ElicitResult, PrimitiveSchemaDefinition};
pub use implementation::{Icon, Implementation};
pub use logging::{LoggingLevel, LoggingMessageParams};
pub use mrtr::{
    InputRequest, InputRequests, InputRequiredResult, InputResponse, InputResponses, Outcome,
    ResultType,
};
pub use pagination::{Cursor, PaginatedParams};
pub use progress::{ProgressNotificationParams, ProgressToken};
pub use prompts::{
    GetPromptParams, GetPromptResult, ListPromptsResult, Prompt, PromptArgument, PromptMessage,
};
pub use resources::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceParams, ReadResourceResult,
    Resource, ResourceContents, ResourceTemplate,
};
pub use roots::{ListRootsResult, Root};
pub use sampling::{CreateMessageParams, CreateMessageResult, SamplingMessage};
pub use subscriptions::{SubscriptionFilter, SubscriptionsListenParams};
pub use tasks::{Task, TaskStatus};
pub use tools::{CallToolParams, CallToolResult, ListToolsResult, Tool, ToolAnnotations};
