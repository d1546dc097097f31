//! JSON with comments (JSONC, as VS Code, Zed and other hosts read their settings), edited in place:
//! [`set`] puts one value at a path of object keys and leaves every other byte of the file as it was
//! (comments, key order, indentation, trailing commas), so `mcp config --write` changes only the
//! server's entry.
//!
//! The parser takes JSON plus `//` and `/* */` comments and trailing commas in objects and arrays.

use serde_json::Value;

/// A parsed value: where it stands in the text, and its members when it is an object.
#[derive(Debug)]
struct Node {
    start: usize,
    end: usize,
    members: Option<Vec<Member>>,
}

/// One `"key": value` of an object.
#[derive(Debug)]
struct Member {
    key: String,
    /// Where the key's opening quote stands.
    key_start: usize,
    value: Node,
    /// Just past the comma after the value, when there is one.
    comma_end: Option<usize>,
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl Parser<'_> {
    fn fail<T>(&self, what: &str) -> Result<T, String> {
        let line = self.text[..self.at].matches('\n').count() + 1;
        let column = self.at - self.text[..self.at].rfind('\n').map_or(0, |i| i + 1) + 1;
        Err(format!("{what} at line {line}, column {column}"))
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    /// Skips whitespace and comments.
    fn blank(&mut self) -> Result<(), String> {
        let bytes = self.text.as_bytes();
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') if bytes.get(self.at + 1) == Some(&b'/') => {
                    self.at = self.text[self.at..]
                        .find('\n')
                        .map_or(self.text.len(), |i| self.at + i);
                }
                Some(b'/') if bytes.get(self.at + 1) == Some(&b'*') => {
                    match self.text[self.at + 2..].find("*/") {
                        Some(i) => self.at += 2 + i + 2,
                        None => return self.fail("unterminated /* comment"),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self) -> Result<Node, String> {
        self.blank()?;
        let start = self.at;
        match self.peek() {
            Some(b'{') => self.object(),
            Some(b'[') => self.array(),
            Some(b'"') => {
                self.string()?;
                Ok(self.leaf(start))
            }
            Some(_) => {
                let rest = &self.text[self.at..];
                let len = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
                    .unwrap_or(rest.len());
                if len == 0 || serde_json::from_str::<Value>(&rest[..len]).is_err() {
                    return self.fail("expected a JSON value");
                }
                self.at += len;
                Ok(self.leaf(start))
            }
            None => self.fail("unexpected end of the file"),
        }
    }

    fn leaf(&self, start: usize) -> Node {
        Node {
            start,
            end: self.at,
            members: None,
        }
    }

    /// A string; its decoded value.
    fn string(&mut self) -> Result<String, String> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        self.at += 1;
        loop {
            match bytes.get(self.at) {
                Some(b'"') => break,
                Some(b'\\') => self.at += 2,
                Some(b'\n') | None => return self.fail("unterminated string"),
                Some(_) => self.at += 1,
            }
        }
        self.at += 1;
        match serde_json::from_str(&self.text[start..self.at]) {
            Ok(s) => Ok(s),
            Err(_) => self.fail("bad escape in a string"),
        }
    }

    fn object(&mut self) -> Result<Node, String> {
        let start = self.at;
        self.at += 1;
        let mut members = Vec::new();
        loop {
            self.blank()?;
            match self.peek() {
                Some(b'}') => break,
                Some(b'"') => {}
                _ => return self.fail("expected a key or }"),
            }
            let key_start = self.at;
            let key = self.string()?;
            self.blank()?;
            if self.peek() != Some(b':') {
                return self.fail("expected :");
            }
            self.at += 1;
            let value = self.value()?;
            self.blank()?;
            let comma_end = match self.peek() {
                Some(b',') => {
                    self.at += 1;
                    Some(self.at)
                }
                Some(b'}') => None,
                _ => return self.fail("expected , or }"),
            };
            let last = comma_end.is_none();
            members.push(Member {
                key,
                key_start,
                value,
                comma_end,
            });
            if last {
                self.blank()?;
                break;
            }
        }
        self.at += 1;
        Ok(Node {
            start,
            end: self.at,
            members: Some(members),
        })
    }

    fn array(&mut self) -> Result<Node, String> {
        let start = self.at;
        self.at += 1;
        loop {
            self.blank()?;
            if self.peek() == Some(b']') {
                break;
            }
            self.value()?;
            self.blank()?;
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => break,
                _ => return self.fail("expected , or ]"),
            }
        }
        self.at += 1;
        Ok(self.leaf(start))
    }
}

fn parse(text: &str) -> Result<Node, String> {
    let mut p = Parser { text, at: 0 };
    let root = p.value()?;
    p.blank()?;
    if p.at != text.len() {
        return p.fail("unexpected text after the value");
    }
    Ok(root)
}

/// Checks that `text` is JSONC and reads it as JSON (comments dropped).
pub fn read(text: &str) -> Result<Value, String> {
    let root = parse(text)?;
    Ok(to_value(text, &root))
}

fn to_value(text: &str, node: &Node) -> Value {
    match &node.members {
        Some(members) => Value::Object(
            members
                .iter()
                .map(|m| (m.key.clone(), to_value(text, &m.value)))
                .collect(),
        ),
        None => {
            let slice = &text[node.start..node.end];
            serde_json::from_str(slice).unwrap_or_else(|_| {
                // An array (it may hold comments or trailing commas): read its items again.
                read_array(slice)
            })
        }
    }
}

fn read_array(slice: &str) -> Value {
    let mut p = Parser { text: slice, at: 1 };
    let mut items = Vec::new();
    loop {
        if p.blank().is_err() || p.peek() == Some(b']') || p.peek().is_none() {
            break;
        }
        let Ok(node) = p.value() else { break };
        items.push(to_value(slice, &node));
        let _ = p.blank();
        if p.peek() == Some(b',') {
            p.at += 1;
        }
    }
    Value::Array(items)
}

/// The whitespace that starts the line holding `at`.
fn indent_at(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// Whether `a` and `b` stand on the same line.
fn same_line(text: &str, a: usize, b: usize) -> bool {
    !text[a.min(b)..a.max(b)].contains('\n')
}

/// The file's indentation step: the indentation of the first member of the root object when it
/// stands on a line of its own, else two spaces.
fn indent_unit(text: &str, root: &Node) -> String {
    root.members
        .as_ref()
        .and_then(|m| m.first())
        .filter(|m| !same_line(text, root.start, m.key_start))
        .map(|m| indent_at(text, m.key_start).to_string())
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| "  ".into())
}

/// Keys first in this order when a value is rendered; the rest after them, alphabetically.
const KEY_ORDER: [&str; 32] = [
    "$schema",
    "manifest_version",
    "name",
    "display_name",
    "title",
    "version",
    "description",
    "author",
    "homepage",
    "websiteUrl",
    "server",
    "registryType",
    "identifier",
    "type",
    "entry_point",
    "mcp_config",
    "source",
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "httpUrl",
    "serverUrl",
    "headers",
    "runtimeHint",
    "packageArguments",
    "environmentVariables",
    "transport",
    "packages",
    "remotes",
    "tools",
];

fn ordered(map: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut entries: Vec<(&String, &Value)> = map.iter().collect();
    entries.sort_by_key(|(k, _)| {
        (
            KEY_ORDER
                .iter()
                .position(|o| o == k)
                .unwrap_or(KEY_ORDER.len()),
            (*k).clone(),
        )
    });
    entries
}

/// `value` as JSON text: objects one member a line at `indent` plus `unit` per level, arrays of
/// plain values on one line.
pub fn render(value: &Value, indent: &str, unit: &str) -> String {
    match value {
        Value::Object(map) if !map.is_empty() => {
            let inner = format!("{indent}{unit}");
            let lines: Vec<String> = ordered(map)
                .into_iter()
                .map(|(k, v)| format!("{inner}{}: {}", quote(k), render(v, &inner, unit)))
                .collect();
            format!("{{\n{}\n{indent}}}", lines.join(",\n"))
        }
        Value::Array(items) if items.iter().any(|v| v.is_object() || v.is_array()) => {
            let inner = format!("{indent}{unit}");
            let lines: Vec<String> = items
                .iter()
                .map(|v| format!("{inner}{}", render(v, &inner, unit)))
                .collect();
            format!("[\n{}\n{indent}]", lines.join(",\n"))
        }
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(Value::to_string).collect();
            format!("[{}]", parts.join(", "))
        }
        other => other.to_string(),
    }
}

fn quote(key: &str) -> String {
    Value::String(key.to_string()).to_string()
}

/// `{"a": {"b": value}}` for the path `[a, b]`.
fn nest(path: &[&str], value: &Value) -> Value {
    path.iter().rev().fold(value.clone(), |v, k| {
        let mut m = serde_json::Map::new();
        m.insert((*k).to_string(), v);
        Value::Object(m)
    })
}

/// `text` (a JSONC object, or empty for a new file) with the member at `path` (object keys from the
/// root) set to `value`: replaced where it exists, else added after the last member of the deepest
/// object that exists, with the objects missing on the way. Nothing else in the text changes.
pub fn set(text: &str, path: &[&str], value: &Value) -> Result<String, String> {
    let (last, parents) = path.split_last().ok_or("an empty path")?;
    if text.trim().is_empty() {
        return Ok(render(&nest(path, value), "", "  ") + "\n");
    }
    let root = parse(text)?;
    let unit = indent_unit(text, &root);
    let mut node = &root;
    for (depth, key) in parents.iter().enumerate() {
        let members = node
            .members
            .as_ref()
            .ok_or_else(|| not_object(path, depth))?;
        match members.iter().find(|m| m.key == *key) {
            Some(m) => node = &m.value,
            None => {
                return Ok(insert(
                    text,
                    node,
                    key,
                    &nest(&path[depth + 1..], value),
                    &unit,
                ));
            }
        }
    }
    let members = node
        .members
        .as_ref()
        .ok_or_else(|| not_object(path, parents.len()))?;
    Ok(match members.iter().find(|m| m.key == *last) {
        Some(m) => {
            let indent = indent_at(text, m.key_start);
            let rendered = render(value, indent, &unit);
            format!(
                "{}{rendered}{}",
                &text[..m.value.start],
                &text[m.value.end..]
            )
        }
        None => insert(text, node, last, value, &unit),
    })
}

fn not_object(path: &[&str], depth: usize) -> String {
    if depth == 0 {
        "it does not hold a JSON object".into()
    } else {
        format!("its {} is not an object", path[..depth].join("."))
    }
}

/// Adds `"key": value` to the object `obj` of `text`.
fn insert(text: &str, obj: &Node, key: &str, value: &Value, unit: &str) -> String {
    let members = obj.members.as_deref().unwrap_or_default();
    let obj_indent = indent_at(text, obj.start);
    let compact = members
        .first()
        .is_some_and(|m| same_line(text, obj.start, m.key_start));
    if compact {
        // `{"a": 1}` stays on one line.
        let last = members.last().expect("compact means a member");
        let member = format!("{}: {value}", quote(key));
        return match last.comma_end {
            Some(at) => format!("{} {member},{}", &text[..at], &text[at..]),
            None => format!(
                "{}, {member}{}",
                &text[..last.value.end],
                &text[last.value.end..]
            ),
        };
    }
    let indent = match members.first() {
        Some(m) => indent_at(text, m.key_start).to_string(),
        None => format!("{obj_indent}{unit}"),
    };
    let member = format!("{indent}{}: {}", quote(key), render(value, &indent, unit));
    let Some(last) = members.last() else {
        let inner = &text[obj.start + 1..obj.end - 1];
        if inner.trim().is_empty() {
            return format!(
                "{}{{\n{member}\n{obj_indent}}}{}",
                &text[..obj.start],
                &text[obj.end..]
            );
        }
        // Only comments inside: the member goes first, the comments stay after it.
        return format!(
            "{}\n{member}{}",
            &text[..obj.start + 1],
            &text[obj.start + 1..]
        );
    };
    match last.comma_end {
        // A trailing comma stays a trailing comma, after the new member too.
        Some(at) => {
            let at = line_end(text, at);
            format!("{}\n{member},{}", &text[..at], &text[at..])
        }
        None => {
            let at = line_end(text, last.value.end);
            let end = last.value.end;
            format!(
                "{},{}\n{member}{}",
                &text[..end],
                &text[end..at],
                &text[at..]
            )
        }
    }
}

/// Where the line of `at` ends when what follows `at` on it is only blanks and comments (a comment
/// on the last member's line stays with it); `at` itself otherwise.
fn line_end(text: &str, at: usize) -> usize {
    let mut p = Parser { text, at };
    let line = text[at..].find('\n').map_or(text.len(), |i| at + i);
    loop {
        match p.peek() {
            Some(b' ' | b'\t' | b'\r') => p.at += 1,
            Some(b'/') if text[p.at..].starts_with("//") => return line,
            Some(b'/') if text[p.at..].starts_with("/*") => match text[p.at + 2..].find("*/") {
                Some(i) if p.at + 2 + i + 2 <= line => p.at += 2 + i + 2,
                _ => return at,
            },
            Some(b'\n') | None => return p.at,
            Some(_) => return at,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_new_file_is_the_nested_object() {
        let out = set(
            "",
            &["servers", "s"],
            &json!({"command": "/bin/x", "args": []}),
        )
        .unwrap();
        assert_eq!(
            out,
            "{\n  \"servers\": {\n    \"s\": {\n      \"command\": \"/bin/x\",\n      \"args\": []\n    }\n  }\n}\n"
        );
    }

    #[test]
    fn comments_order_and_indentation_are_kept() {
        let old = "// my settings\n{\n    \"zeta\": 1, // last letter\n    \"alpha\": [1, 2,],\n    /* servers */\n    \"servers\": {\n        \"a\": {\"command\": \"/a\"}\n    }\n}\n";
        let out = set(old, &["servers", "b"], &json!({"url": "http://h/mcp"})).unwrap();
        assert_eq!(
            out,
            "// my settings\n{\n    \"zeta\": 1, // last letter\n    \"alpha\": [1, 2,],\n    /* servers */\n    \"servers\": {\n        \"a\": {\"command\": \"/a\"},\n        \"b\": {\n            \"url\": \"http://h/mcp\"\n        }\n    }\n}\n"
        );
        assert_eq!(
            read(&out).unwrap(),
            json!({"zeta": 1, "alpha": [1, 2], "servers": {"a": {"command": "/a"}, "b": {"url": "http://h/mcp"}}})
        );
    }

    #[test]
    fn an_existing_entry_is_replaced_in_place() {
        let old = "{\n  \"servers\": {\n    \"a\": {\"command\": \"/old\"}, // keep me\n    \"b\": 2\n  }\n}";
        let out = set(old, &["servers", "a"], &json!({"command": "/new"})).unwrap();
        assert_eq!(
            out,
            "{\n  \"servers\": {\n    \"a\": {\n      \"command\": \"/new\"\n    }, // keep me\n    \"b\": 2\n  }\n}"
        );
    }

    #[test]
    fn missing_objects_are_added_after_the_last_member() {
        let old = "{\n\t\"theme\": \"dark\" // the look\n}\n";
        let out = set(old, &["mcpServers", "s"], &json!({"command": "/s"})).unwrap();
        assert_eq!(
            out,
            "{\n\t\"theme\": \"dark\", // the look\n\t\"mcpServers\": {\n\t\t\"s\": {\n\t\t\t\"command\": \"/s\"\n\t\t}\n\t}\n}\n"
        );
        let trailing = "{\n  \"a\": 1,\n}";
        assert_eq!(
            set(trailing, &["b"], &json!(2)).unwrap(),
            "{\n  \"a\": 1,\n  \"b\": 2,\n}"
        );
        assert_eq!(
            set("{\"a\": 1}", &["b"], &json!({"c": 3})).unwrap(),
            "{\"a\": 1, \"b\": {\"c\":3}}"
        );
        assert_eq!(set("{}", &["b"], &json!(1)).unwrap(), "{\n  \"b\": 1\n}");
        assert_eq!(
            set("{ // nothing yet\n}", &["b"], &json!(1)).unwrap(),
            "{\n  \"b\": 1 // nothing yet\n}"
        );
    }

    #[test]
    fn bad_files_are_named_with_their_position() {
        assert_eq!(
            set("{oops", &["a"], &json!(1)).unwrap_err(),
            "expected a key or } at line 1, column 2"
        );
        assert_eq!(
            set("[1]", &["a"], &json!(1)).unwrap_err(),
            "it does not hold a JSON object"
        );
        assert_eq!(
            set("{\"servers\": 3}", &["servers", "a"], &json!(1)).unwrap_err(),
            "its servers is not an object"
        );
        assert!(read("{\"a\": /* open").is_err());
        assert!(read("{\"a\": 1} x").is_err());
    }
}
