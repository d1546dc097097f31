//! Large strings of a handler's result, handed over beside its JSON text instead of inside it.
//! `JSON.stringify` checks every character of a string for escapes one at a time (a 64 KiB text
//! costs it about a fifth of a whole echo call on Node 20), and the engine would then read it
//! back from JSON; a string passed as a JS string is copied out with two fast passes instead. The
//! JS layer (`lib/server.js`, `replyWith`) writes each large string as [`marker`] followed by its
//! index in the list, and [`restore`] puts the strings back in place.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::LazyLock;

use napi_derive::napi;
use serde_json::Value;

/// This process's marker: 128 bits from the standard library's random hash keys, so no text a
/// peer or a handler writes can be taken for it by chance.
static MARKER: LazyLock<String> = LazyLock::new(|| {
    let keys = RandomState::new();
    format!(
        "\u{0}libmcp-large-string:{:016x}{:016x}:",
        keys.hash_one(1u8),
        keys.hash_one(2u8)
    )
});

/// The text the JS layer writes in place of a large string, followed by the string's index.
#[napi]
pub fn large_string_marker() -> String {
    MARKER.clone()
}

/// Replaces every string of `value` that is the marker followed by an index into `strings` with
/// that string (each taken once); `false` if some string of the list was not found in place.
pub(crate) fn restore(value: &mut Value, strings: Vec<String>) -> bool {
    let mut slots: Vec<Option<String>> = strings.into_iter().map(Some).collect();
    let mut left = slots.len();
    put_back(value, &mut slots, &mut left);
    left == 0
}

fn put_back(value: &mut Value, slots: &mut [Option<String>], left: &mut usize) {
    if *left == 0 {
        return;
    }
    match value {
        Value::String(s) => {
            let slot = s
                .strip_prefix(MARKER.as_str())
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|i| slots.get_mut(i))
                .and_then(Option::take);
            if let Some(original) = slot {
                *s = original;
                *left -= 1;
            }
        }
        Value::Array(items) => {
            for item in items {
                put_back(item, slots, left);
            }
        }
        Value::Object(members) => {
            for (_, member) in members.iter_mut() {
                put_back(member, slots, left);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn marked(i: usize) -> String {
        format!("{}{i}", MARKER.as_str())
    }

    #[test]
    fn strings_go_back_where_their_markers_are() {
        let mut v = json!({
            "content": [{"type": "text", "text": marked(1)}, {"type": "text", "text": marked(0)}],
            "nested": {"deep": [marked(2), "kept"]},
        });
        let ok = restore(&mut v, vec!["zero".into(), "one".into(), "two".into()]);
        assert!(ok);
        assert_eq!(
            v,
            json!({
                "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "zero"}],
                "nested": {"deep": ["two", "kept"]},
            })
        );
    }

    #[test]
    fn unknown_indexes_and_repeated_markers_are_left_as_they_are() {
        let mut v = json!([
            marked(0),
            marked(0),
            marked(7),
            format!("{}x", MARKER.as_str())
        ]);
        assert!(restore(&mut v, vec!["a".into()]));
        assert_eq!(
            v,
            json!(["a", marked(0), marked(7), format!("{}x", MARKER.as_str())])
        );
    }

    #[test]
    fn a_string_not_found_in_place_is_reported() {
        let mut v = json!({"text": "no marker"});
        assert!(!restore(&mut v, vec!["lost".into()]));
    }

    #[test]
    fn the_marker_is_fixed_in_a_process_around_128_random_bits() {
        assert_eq!(MARKER.as_str(), large_string_marker());
        let hex = MARKER
            .trim_start_matches("\u{0}libmcp-large-string:")
            .trim_end_matches(':');
        assert_eq!(hex.len(), 32);
        assert!(hex.chars().all(|c| c.is_ascii_hexdigit()));
    }
}
