//! Roots (deprecated, still normative): the filesystem boundaries a client exposes.

use serde::{Deserialize, Serialize};

use super::common::Meta;

/// A root: a `file://` URI with an optional name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Root {
    /// The root URI (currently always `file://`).
    pub uri: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Root metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl Root {
    /// A root at `uri`.
    pub fn new(uri: impl Into<String>) -> Self {
        Root {
            uri: uri.into(),
            name: None,
            meta: None,
        }
    }

    /// A root for the absolute directory `path`, its URI percent-encoded ([`crate::file_uri`]).
    pub fn from_path(path: &std::path::Path) -> Result<Self, crate::file_uri::FileUriError> {
        crate::file_uri::from_path(path).map(Root::new)
    }

    /// The local path this root names (its URI percent-decoded), for a server checking access.
    pub fn path(&self) -> Result<std::path::PathBuf, crate::file_uri::FileUriError> {
        crate::file_uri::to_path(&self.uri)
    }
}

/// Params of `roots/list` (only `_meta`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ListRootsParams {
    /// Request metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// Result of `roots/list` (a bare object inside `inputResponses` in 2026-07-28).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListRootsResult {
    /// The roots.
    pub roots: Vec<Root>,
    /// Result metadata (legacy revisions).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl ListRootsResult {
    /// A result listing `roots`.
    pub fn new(roots: Vec<Root>) -> Self {
        ListRootsResult { roots, meta: None }
    }
}
