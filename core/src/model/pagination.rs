//! Cursor-based pagination of the list methods.

use serde::{Deserialize, Serialize};

use super::common::Meta;

/// An opaque pagination cursor; an empty string is a valid cursor.
pub type Cursor = String;

/// Params of a paginated list request (`tools/list`, `prompts/list`, `resources/list`, ...).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaginatedParams {
    /// Where to continue; absent for the first page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<Cursor>,
    /// Request metadata (required in 2026-07-28).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

impl PaginatedParams {
    /// Params asking for the page at `cursor`.
    pub fn at(cursor: impl Into<Cursor>) -> Self {
        PaginatedParams {
            cursor: Some(cursor.into()),
            meta: None,
        }
    }
}
