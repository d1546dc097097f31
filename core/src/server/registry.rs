//! What a server offers: tools, resources, templates and prompts, each a JSON definition plus a handler
//! (the entry types are defined with the rest of the server's data in `state`), kept in registration
//! order (lists are deterministic) with a by-name index for the hot path, and listed in pages.

use std::collections::HashMap;
use std::sync::Arc;

use base64::Engine as _;
use serde_json::{Map, Value};

use crate::error::RpcError;

pub use super::state::{Handler, PromptEntry, Registry, ResourceEntry, TemplateEntry, ToolEntry};

/// Validates a JSON instance; the error is a readable description of what is wrong.
pub type Validator = Arc<dyn Fn(&Value) -> Result<(), String> + Send + Sync>;

/// Matches a concrete URI against a resource template, yielding its variables.
pub type UriMatcher = Arc<dyn Fn(&str) -> Option<Map<String, Value>> + Send + Sync>;

/// An insertion-ordered map of named entries.
#[derive(Clone)]
pub struct Ordered<T> {
    items: Vec<(String, Arc<T>)>,
    index: HashMap<String, usize>,
}

impl<T> Default for Ordered<T> {
    fn default() -> Self {
        Ordered {
            items: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<T> Ordered<T> {
    /// Inserts or replaces (a replaced entry keeps its position).
    pub fn insert(&mut self, key: String, value: T) {
        let value = Arc::new(value);
        match self.index.get(&key) {
            Some(&i) => self.items[i].1 = value,
            None => {
                self.index.insert(key.clone(), self.items.len());
                self.items.push((key, value));
            }
        }
    }

    /// Removes an entry; `true` if it existed.
    pub fn remove(&mut self, key: &str) -> bool {
        let Some(i) = self.index.remove(key) else {
            return false;
        };
        self.items.remove(i);
        for (_, idx) in self.index.iter_mut() {
            if *idx > i {
                *idx -= 1;
            }
        }
        true
    }

    /// Whether an entry has this key.
    pub fn contains(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    /// Looks an entry up by key.
    pub fn get(&self, key: &str) -> Option<&Arc<T>> {
        self.index.get(key).map(|&i| &self.items[i].1)
    }

    /// Entries in registration order.
    pub fn iter(&self) -> impl Iterator<Item = &Arc<T>> {
        self.items.iter().map(|(_, v)| v)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

const CURSOR_PREFIX: &str = "mcp-offset:";

/// One page of `items` starting at `cursor`, with the cursor of the next page.
pub fn paginate<'a, T>(
    items: impl ExactSizeIterator<Item = &'a T>,
    cursor: Option<&str>,
    page_size: usize,
) -> Result<(Vec<&'a T>, Option<String>), RpcError>
where
    T: 'a,
{
    let total = items.len();
    let start = match cursor {
        None => 0,
        Some(c) => decode_cursor(c)
            .filter(|&o| o <= total)
            .ok_or_else(|| RpcError::invalid_params("invalid cursor"))?,
    };
    let page: Vec<&T> = items.skip(start).take(page_size).collect();
    let end = start + page.len();
    let next = (end < total).then(|| encode_cursor(end));
    Ok((page, next))
}

/// Refuses a cursor this engine did not make (-32602), as [`paginate`] does; whether its offset
/// is within the list is known only with the list.
pub(crate) fn checked_cursor(cursor: Option<&str>) -> Result<(), RpcError> {
    match cursor {
        Some(c) if decode_cursor(c).is_none() => Err(RpcError::invalid_params("invalid cursor")),
        _ => Ok(()),
    }
}

fn encode_cursor(offset: usize) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("{CURSOR_PREFIX}{offset}"))
}

fn decode_cursor(cursor: &str) -> Option<usize> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(cursor)
        .ok()?;
    let text = std::str::from_utf8(&bytes).ok()?;
    text.strip_prefix(CURSOR_PREFIX)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_keeps_order_and_index() {
        let mut o = Ordered::default();
        for k in ["a", "b", "c"] {
            o.insert(k.into(), k.to_uppercase());
        }
        o.insert("b".into(), "B2".into());
        assert!(o.remove("a"));
        assert!(!o.remove("a"));
        assert_eq!(
            o.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            ["B2", "C"]
        );
        assert_eq!(o.get("c").map(|s| s.as_str()), Some("C"));
    }

    #[test]
    fn pagination_walks_every_item_once() {
        let items: Vec<u32> = (0..7).collect();
        let mut cursor = None;
        let mut seen = vec![];
        loop {
            let (page, next) = paginate(items.iter(), cursor.as_deref(), 3).unwrap();
            seen.extend(page.into_iter().copied());
            match next {
                Some(n) => cursor = Some(n),
                None => break,
            }
        }
        assert_eq!(seen, items);
        for bad in ["", "zzz", "bWNwLW9mZnNldDo5OQ"] {
            assert_eq!(
                paginate(items.iter(), Some(bad), 3).unwrap_err().code,
                crate::error::code::INVALID_PARAMS,
                "{bad}"
            );
        }
    }
}
