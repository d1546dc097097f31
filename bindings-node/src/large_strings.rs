//! Large strings of params and results (a server's handlers and a client's calls), handed between
//! the engine and JS beside their JSON text instead of inside it. Writing a string as JSON and reading it back
//! checks every character for escapes (`JSON.stringify` one at a time: a 64 KiB text costs it
//! about a fifth of a whole echo call on Node 20); a string handed over as a JS string is copied
//! with two fast passes. Each such string is written as [`large_string_marker`] followed by its
//! index in the list that goes beside the text. [`write_json`] writes the params JS parses that
//! way (`lib/large_strings.js` puts the strings back); `lib/large_strings.js` writes the result
//! that way and [`restore`] puts its strings back here. Every string that starts with the marker
//! goes apart too, so each marker in a text is one written by this scheme.

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

/// Strings of this many bytes or more are handed over apart.
const LARGE: usize = 4096;

fn goes_apart(s: &str) -> bool {
    s.len() >= LARGE || s.starts_with(MARKER.as_str())
}

/// Whether `value` holds a string that goes apart.
fn any_apart(value: &Value) -> bool {
    match value {
        Value::String(s) => goes_apart(s),
        Value::Array(items) => items.iter().any(any_apart),
        Value::Object(members) => members.values().any(any_apart),
        Value::Null | Value::Bool(_) | Value::Number(_) => false,
    }
}

/// Writes `value` as JSON text to `out`, each string that goes apart written as the marker and
/// its index in `strings` (where it is pushed).
pub(crate) fn write_json(out: &mut Vec<u8>, value: &Value, strings: &mut Vec<String>) {
    // Writing into memory cannot fail, and a `Value`'s keys are strings.
    if !any_apart(value) {
        serde_json::to_writer(&mut *out, value).expect("JSON into memory");
        return;
    }
    match value {
        Value::String(s) if goes_apart(s) => {
            let marked = format!("{}{}", MARKER.as_str(), strings.len());
            serde_json::to_writer(&mut *out, &marked).expect("JSON into memory");
            strings.push(s.clone());
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_json(out, item, strings);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            out.push(b'{');
            for (i, (key, member)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut *out, key).expect("JSON into memory");
                out.push(b':');
                write_json(out, member, strings);
            }
            out.push(b'}');
        }
        // Not reached: a value with nothing apart was written whole above.
        other => serde_json::to_writer(&mut *out, other).expect("JSON into memory"),
    }
}

/// `value` as JSON text with its large strings apart (see [`write_json`]), `None` when there are
/// none.
pub(crate) fn to_json(value: &Value) -> (String, Option<Vec<String>>) {
    let mut text = Vec::new();
    let mut strings = Vec::new();
    write_json(&mut text, value, &mut strings);
    // serde_json writes UTF-8, and so does `write_json` around it.
    let text = String::from_utf8(text).expect("JSON text is UTF-8");
    (text, (!strings.is_empty()).then_some(strings))
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
                .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
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
        let signed = format!("{}+1", MARKER.as_str());
        let odd = format!("{}x", MARKER.as_str());
        let mut v = json!([signed, marked(0), marked(0), marked(7), odd]);
        // "b" (index 1) has no marker in place: reported.
        assert!(!restore(&mut v, vec!["a".into(), "b".into()]));
        assert_eq!(v, json!([signed, "a", marked(0), marked(7), odd]));
    }

    #[test]
    fn written_apart_and_restored_is_the_same_value() {
        let big = "q\"\\\n\u{0}é😀".repeat(1000);
        let v = json!({
            "name": "echo",
            "arguments": {"text": big, "small": "s", "list": [1, big.clone(), null, true, marked(0)]},
            "_meta": {"k": 1.5},
        });
        let mut out = Vec::new();
        let mut strings = Vec::new();
        write_json(&mut out, &v, &mut strings);
        // The two large strings and the marker-like one went apart.
        assert_eq!(strings.len(), 3);
        assert!(out.len() < 1000, "{}", String::from_utf8_lossy(&out));
        let mut back: Value = serde_json::from_slice(&out).unwrap();
        assert!(restore(&mut back, strings));
        assert_eq!(back, v);
    }

    #[test]
    fn a_value_with_nothing_apart_is_written_as_serde_json_writes_it() {
        let v = json!({"text": "x".repeat(LARGE - 1), "n": [1, 2], "o": {}});
        let mut out = Vec::new();
        let mut strings = Vec::new();
        write_json(&mut out, &v, &mut strings);
        assert!(strings.is_empty());
        assert_eq!(out, serde_json::to_vec(&v).unwrap());
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
