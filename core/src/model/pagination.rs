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

/// Defines the result of a paginated list method (`tools/list`, `resources/list`,
/// `resources/templates/list`, `prompts/list`): the page's items under their own key, the cursor of
/// the next page, the 2026-07-28 `resultType` and cache hints (`ttlMs`, `cacheScope`), and `_meta`,
/// with a `new` for a complete single page. One definition for the four results, which differ only
/// in the items' key and type.
macro_rules! paginated_result {
    ($(#[$doc:meta])* $name:ident { $field:ident: Vec<$item:ty> }, $what:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            /// `complete` from 2026-07-28 servers; absent from legacy ones.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub result_type: Option<super::mrtr::ResultType>,
            #[doc = concat!("This page of ", $what, ".")]
            pub $field: Vec<$item>,
            /// The cursor of the next page; absent on the last page.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub next_cursor: Option<super::pagination::Cursor>,
            /// Freshness lifetime in milliseconds (required from 2026-07-28 servers).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub ttl_ms: Option<u64>,
            /// Who may reuse the cached result (required from 2026-07-28 servers).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub cache_scope: Option<super::cache::CacheScope>,
            /// Result metadata.
            #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
            pub meta: Option<super::common::Meta>,
        }

        impl $name {
            #[doc = concat!("A complete, single-page list of `", stringify!($field), "` without cache hints.")]
            pub fn new($field: Vec<$item>) -> Self {
                $name {
                    result_type: Some(super::mrtr::ResultType::Complete),
                    $field,
                    next_cursor: None,
                    ttl_ms: None,
                    cache_scope: None,
                    meta: None,
                }
            }
        }
    };
}

pub(crate) use paginated_result;

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::model::{
        ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    };

    #[test]
    fn each_paginated_result_keeps_its_own_key() {
        assert_eq!(
            serde_json::to_value(ListToolsResult::new(vec![])).unwrap(),
            json!({"resultType": "complete", "tools": []})
        );
        assert_eq!(
            serde_json::to_value(ListPromptsResult::new(vec![])).unwrap(),
            json!({"resultType": "complete", "prompts": []})
        );
        assert_eq!(
            serde_json::to_value(ListResourcesResult::new(vec![])).unwrap(),
            json!({"resultType": "complete", "resources": []})
        );
        let templates: ListResourceTemplatesResult = serde_json::from_value(json!({
            "resourceTemplates": [], "nextCursor": "c2", "ttlMs": 5, "_meta": {"k": 1}
        }))
        .unwrap();
        assert_eq!(templates.next_cursor.as_deref(), Some("c2"));
        assert_eq!(templates.ttl_ms, Some(5));
        assert_eq!(templates.result_type, None);
        assert!(templates.meta.is_some());
    }
}
