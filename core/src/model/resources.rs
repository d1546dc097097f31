//! Resources: listing, templates, reading, contents and the `updated` notification.

use serde::{Deserialize, Serialize};

use super::annotations::Annotations;
use super::cache::CacheScope;
use super::common::{Meta, optional_setters};
use super::implementation::Icon;
use super::mrtr::{InputResponses, ResultType};
use super::pagination::paginated_result;
pub use super::resource_contents::{BlobResourceContents, ResourceContents, TextResourceContents};

/// A resource the server can read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Resource {
    /// The resource URI.
    pub uri: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the resource is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Size in bytes, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Icons a client may display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Display and audience hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Resource metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl Resource {
    /// A resource at `uri` named `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        Resource {
            uri: uri.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            icons: None,
            annotations: None,
            meta: None,
        }
    }

    optional_setters! {
        "The same resource with a display name." title: String,
        "The same resource with a description." description: String,
        "The same resource with a MIME type." mime_type: String,
        "The same resource with icons." icons: Vec<Icon>,
        "The same resource with annotations." annotations: Annotations,
        "The same resource with `_meta`." meta: Meta,
    }

    /// The same resource with its size in bytes.
    pub fn size(mut self, bytes: u64) -> Self {
        self.size = Some(bytes);
        self
    }
}

/// A family of resources described by an RFC 6570 URI template.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate {
    /// The URI template.
    pub uri_template: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the resources are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type shared by all matching resources, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Icons a client may display.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Display and audience hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Template metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ResourceTemplate {
    /// A template `uri_template` named `name`.
    pub fn new(uri_template: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceTemplate {
            uri_template: uri_template.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            icons: None,
            annotations: None,
            meta: None,
        }
    }

    optional_setters! {
        "The same template with a display name." title: String,
        "The same template with a description." description: String,
        "The same template with a MIME type." mime_type: String,
        "The same template with icons." icons: Vec<Icon>,
        "The same template with annotations." annotations: Annotations,
        "The same template with `_meta`." meta: Meta,
    }
}

paginated_result!(
    /// Result of `resources/list`.
    ListResourcesResult { resources: Vec<Resource> },
    "resources"
);

paginated_result!(
    /// Result of `resources/templates/list`.
    ListResourceTemplatesResult { resource_templates: Vec<ResourceTemplate> },
    "templates"
);

/// Params of `resources/read` (and, for `uri` and `_meta`, of the legacy `resources/subscribe`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadResourceParams {
    /// The resource to read.
    pub uri: String,
    /// Answers to the previous round's input requests (MRTR retry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<InputResponses>,
    /// The previous round's `requestState`, echoed unchanged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<String>,
    /// Request metadata (required in 2026-07-28).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ReadResourceParams {
    /// Reads `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        ReadResourceParams {
            uri: uri.into(),
            input_responses: None,
            request_state: None,
            meta: None,
        }
    }
}

/// The complete result of `resources/read`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadResourceResult {
    /// `complete` from 2026-07-28 servers; absent from legacy ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType>,
    /// The contents (never empty: a missing resource is an error).
    pub contents: Vec<ResourceContents>,
    /// Freshness lifetime in milliseconds (required from 2026-07-28 servers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may reuse the cached result (required from 2026-07-28 servers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// Result metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ReadResourceResult {
    /// A complete result with `contents` and no cache hints.
    pub fn new(contents: Vec<ResourceContents>) -> Self {
        ReadResourceResult {
            result_type: Some(ResultType::Complete),
            contents,
            ttl_ms: None,
            cache_scope: None,
            meta: None,
        }
    }
}

/// Params of `notifications/resources/updated`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceUpdatedNotificationParams {
    /// The resource that changed.
    pub uri: String,
    /// Notification metadata (carries the subscription id on a listen stream).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}
