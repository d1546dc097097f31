//! Content blocks carried by tool results, prompt messages and embedded resources, with their
//! annotations.
//!
//! Each block struct writes its own `type` tag (`#[serde(tag = "type")]` on the struct), so a
//! `TextContent` serialised on its own is a complete block; [`ContentBlock`] dispatches on that tag
//! when reading. Decoding a block struct directly does not check its tag (serde ignores a struct's
//! own tag on input), so decode untrusted input through [`ContentBlock`].

use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use super::annotations::{Annotations, Role};
use super::common::{Meta, from_value, str_field};
use super::implementation::Icon;
use super::resource_contents::ResourceContents;

/// `{"type":"text"}`: text for or from a model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "text", rename_all = "camelCase")]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Display and audience hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Block metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl TextContent {
    /// A text block.
    pub fn new(text: impl Into<String>) -> Self {
        TextContent {
            text: text.into(),
            annotations: None,
            meta: None,
        }
    }
}

/// `{"type":"image"}`: a base64-encoded image.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "image", rename_all = "camelCase")]
pub struct ImageContent {
    /// Base64-encoded image data.
    pub data: String,
    /// The image MIME type.
    pub mime_type: String,
    /// Display and audience hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Block metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ImageContent {
    /// An image block from base64 `data` of type `mime_type`.
    pub fn new(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        ImageContent {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        }
    }
}

/// `{"type":"audio"}`: base64-encoded audio.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "audio", rename_all = "camelCase")]
pub struct AudioContent {
    /// Base64-encoded audio data.
    pub data: String,
    /// The audio MIME type.
    pub mime_type: String,
    /// Display and audience hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Block metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl AudioContent {
    /// An audio block from base64 `data` of type `mime_type`.
    pub fn new(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        AudioContent {
            data: data.into(),
            mime_type: mime_type.into(),
            annotations: None,
            meta: None,
        }
    }
}

/// `{"type":"resource_link"}`: a reference to a resource the client may read (a `Resource` plus the tag).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "resource_link", rename_all = "camelCase")]
pub struct ResourceLink {
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
    /// Block metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ResourceLink {
    /// A link to `uri` named `name`.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ResourceLink {
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
}

/// `{"type":"resource"}`: resource contents embedded in the message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "resource", rename_all = "camelCase")]
pub struct EmbeddedResource {
    /// The embedded text or blob contents.
    pub resource: ResourceContents,
    /// Display and audience hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Block metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl EmbeddedResource {
    /// Embeds `resource`.
    pub fn new(resource: ResourceContents) -> Self {
        EmbeddedResource {
            resource,
            annotations: None,
            meta: None,
        }
    }
}

/// Any content block, told apart by its `type`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ContentBlock {
    /// `text`.
    Text(TextContent),
    /// `image`.
    Image(ImageContent),
    /// `audio`.
    Audio(AudioContent),
    /// `resource_link`.
    ResourceLink(ResourceLink),
    /// `resource`.
    Resource(EmbeddedResource),
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text(TextContent::new(text))
    }

    /// An image block.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        ContentBlock::Image(ImageContent::new(data, mime_type))
    }

    /// An audio block.
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        ContentBlock::Audio(AudioContent::new(data, mime_type))
    }

    /// A resource-link block.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Self {
        ContentBlock::ResourceLink(ResourceLink::new(uri, name))
    }

    /// An embedded-resource block.
    pub fn resource(resource: ResourceContents) -> Self {
        ContentBlock::Resource(EmbeddedResource::new(resource))
    }

    /// The text, if this is a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            ContentBlock::Text(t) => Some(&t.text),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        match str_field(&v, "type") {
            Some("text") => from_value(v).map(ContentBlock::Text),
            Some("image") => from_value(v).map(ContentBlock::Image),
            Some("audio") => from_value(v).map(ContentBlock::Audio),
            Some("resource_link") => from_value(v).map(ContentBlock::ResourceLink),
            Some("resource") => from_value(v).map(ContentBlock::Resource),
            Some(other) => Err(serde::de::Error::custom(format!(
                "unknown content block type {other:?}"
            ))),
            None => Err(serde::de::Error::missing_field("type")),
        }
    }
}

impl From<TextContent> for ContentBlock {
    fn from(t: TextContent) -> Self {
        ContentBlock::Text(t)
    }
}
