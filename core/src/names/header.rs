//! `x-mcp-header` annotations on tool input schemas and the `Mcp-Param-*` / `Mcp-Name` value encoding.

use std::collections::HashMap;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

use super::NameError;

const SENTINEL_START: &str = "=?base64?";
const SENTINEL_END: &str = "?=";
/// Largest integer magnitude a header may carry: 2^53 − 1.
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The JSON type of an `x-mcp-header` argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeaderKind {
    /// `"type": "string"`: sent as-is (or base64 when not plain).
    String,
    /// `"type": "integer"`: sent in decimal, within ±(2^53−1).
    Integer,
    /// `"type": "boolean"`: sent as `true` or `false`.
    Boolean,
}

/// One argument a Streamable HTTP client mirrors into an `Mcp-Param-{header}` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderParam {
    /// The `x-mcp-header` value, the `{Name}` part of `Mcp-Param-{Name}`.
    pub header: String,
    /// Property names from the `inputSchema` root down to the annotated property.
    pub path: Vec<String>,
    /// The property's declared type.
    pub kind: HeaderKind,
}

impl HeaderParam {
    /// The full HTTP header name, `Mcp-Param-{header}`.
    pub fn header_name(&self) -> String {
        format!("Mcp-Param-{}", self.header)
    }

    /// The encoded header value for a call's `arguments`; `None` when the argument is absent or null.
    pub fn value_in(&self, arguments: &Value) -> Result<Option<String>, NameError> {
        let mut at = arguments;
        for name in &self.path {
            match at.get(name) {
                Some(next) => at = next,
                None => return Ok(None),
            }
        }
        let wrong = |what: &str| {
            Err(NameError::HeaderValue(format!(
                "argument /{} for Mcp-Param-{} is {what}",
                self.path.join("/"),
                self.header
            )))
        };
        match (self.kind, at) {
            (_, Value::Null) => Ok(None),
            (HeaderKind::String, Value::String(s)) => Ok(Some(encode_header_value(s))),
            (HeaderKind::Boolean, Value::Bool(b)) => Ok(Some(b.to_string())),
            (HeaderKind::Integer, Value::Number(n)) => {
                let int = n.as_i64().or_else(|| {
                    // 2020-12 counts 5.0 as an integer.
                    n.as_f64()
                        .filter(|f| f.fract() == 0.0 && f.abs() <= MAX_SAFE_INTEGER as f64)
                        .map(|f| f as i64)
                });
                match int {
                    Some(i) if i.unsigned_abs() <= MAX_SAFE_INTEGER as u64 => {
                        Ok(Some(i.to_string()))
                    }
                    _ => wrong("not an integer within ±(2^53−1)"),
                }
            }
            _ => wrong("not of the declared type"),
        }
    }
}

/// Collects the `x-mcp-header` annotations of a tool `inputSchema`, enforcing every rule of 7.
///
/// An annotation must be a non-empty RFC 9110 token, unique ignoring case, on a property typed
/// `integer`, `string` or `boolean` (a type array may add `"null"`, meaning the header is omitted),
/// reached from the root through `properties` only. An annotation anywhere else (under `items`,
/// `anyOf`, `oneOf`, `allOf`, `not`, `if`/`then`/`else`, `$defs` reached by `$ref`, ...) is an error.
pub fn x_mcp_header_params(input_schema: &Value) -> Result<Vec<HeaderParam>, NameError> {
    let mut found = Vec::new();
    let mut seen: HashMap<String, String> = HashMap::new();
    // (schema, JSON Pointer, property chain when reached through `properties` only)
    let mut stack: Vec<(&Value, String, Option<Vec<String>>)> =
        vec![(input_schema, String::new(), Some(Vec::new()))];
    while let Some((node, location, chain)) = stack.pop() {
        let Some(map) = node.as_object() else {
            continue;
        };
        if let Some(annotation) = map.get("x-mcp-header") {
            let fail = |reason: String| NameError::XMcpHeader {
                location: if location.is_empty() {
                    "/".to_owned()
                } else {
                    location.clone()
                },
                reason,
            };
            let path = match &chain {
                Some(path) if !path.is_empty() => path.clone(),
                Some(_) => return Err(fail("not allowed on the root schema".to_owned())),
                None => {
                    return Err(fail(
                        "only properties reached from the root through `properties` may carry it \
                         (not through items, anyOf, oneOf, allOf, not, if/then/else or $ref)"
                            .to_owned(),
                    ));
                }
            };
            let header = check_token(annotation).map_err(fail)?;
            let kind = declared_kind(map.get("type")).map_err(fail)?;
            if let Some(previous) = seen.insert(header.to_ascii_lowercase(), location.clone()) {
                return Err(fail(format!(
                    "{header:?} is also used at {previous} (names are case-insensitive)"
                )));
            }
            found.push(HeaderParam {
                header: header.to_owned(),
                path,
                kind,
            });
        }
        for (keyword, sub) in map {
            let here = format!("{location}/{}", escape(keyword));
            match keyword.as_str() {
                "properties" => {
                    for (name, child) in sub.as_object().into_iter().flatten() {
                        let chain = chain.as_ref().map(|c| {
                            let mut c = c.clone();
                            c.push(name.clone());
                            c
                        });
                        stack.push((child, format!("{here}/{}", escape(name)), chain));
                    }
                }
                other => match crate::schema::subschema_slot(other) {
                    Some(crate::schema::Slot::Direct) => push_schemas(&mut stack, sub, here),
                    Some(crate::schema::Slot::Named) => {
                        for (name, child) in sub.as_object().into_iter().flatten() {
                            push_schemas(&mut stack, child, format!("{here}/{}", escape(name)));
                        }
                    }
                    None => {}
                },
            }
        }
    }
    // The walk order depends on the stack; sort so callers see a stable order.
    found.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(found)
}

/// Pushes one schema, or each schema of an array, as not reachable through `properties` alone.
fn push_schemas<'a>(
    stack: &mut Vec<(&'a Value, String, Option<Vec<String>>)>,
    sub: &'a Value,
    here: String,
) {
    match sub {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                stack.push((item, format!("{here}/{i}"), None));
            }
        }
        other => stack.push((other, here, None)),
    }
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn check_token(annotation: &Value) -> Result<&str, String> {
    let Some(value) = annotation.as_str() else {
        return Err(format!("the value must be a string, got {annotation}"));
    };
    if value.is_empty() {
        return Err("the value must not be empty".to_owned());
    }
    if let Some(c) = value.chars().find(|c| c.is_control()) {
        return Err(format!(
            "the value contains the control character {c:?} (CR, LF and controls are forbidden)"
        ));
    }
    if let Some(c) = value.chars().find(|&c| !is_tchar(c)) {
        return Err(format!(
            "the value must be an RFC 9110 token; {c:?} is not a token character"
        ));
    }
    Ok(value)
}

/// RFC 9110 `tchar`.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

fn declared_kind(ty: Option<&Value>) -> Result<HeaderKind, String> {
    let single = |name: &str| match name {
        "string" => Ok(HeaderKind::String),
        "integer" => Ok(HeaderKind::Integer),
        "boolean" => Ok(HeaderKind::Boolean),
        "number" => {
            Err("type \"number\" is not allowed; use integer, string or boolean".to_owned())
        }
        other => Err(format!(
            "type {other:?} is not allowed; only integer, string or boolean"
        )),
    };
    match ty {
        Some(Value::String(name)) => single(name),
        Some(Value::Array(names)) => {
            let non_null: Vec<&Value> = names
                .iter()
                .filter(|n| n.as_str() != Some("null"))
                .collect();
            match non_null.as_slice() {
                [Value::String(name)] => single(name),
                _ => Err(format!(
                    "type {} must be one of integer, string or boolean (optionally with \"null\")",
                    Value::Array(names.clone())
                )),
            }
        }
        Some(other) => Err(format!("\"type\" must be a string, got {other}")),
        None => Err("the property must declare \"type\": integer, string or boolean".to_owned()),
    }
}

/// Whether a string can go into a header as-is; otherwise it takes the base64 sentinel form.
fn is_plain(value: &str) -> bool {
    let visible = |c: u8| (0x21..=0x7e).contains(&c);
    let bytes = value.as_bytes();
    bytes.iter().all(|&c| visible(c) || c == b' ' || c == b'\t')
        && bytes.first().is_none_or(|&c| visible(c))
        && bytes.last().is_none_or(|&c| visible(c))
        && !(value.starts_with(SENTINEL_START) && value.ends_with(SENTINEL_END))
}

/// Encodes a string for `Mcp-Name` / `Mcp-Param-*`: as-is when plain visible ASCII (space and tab
/// only inside), else `=?base64?<standard base64 of the UTF-8>?=` (also when it looks like that form).
pub fn encode_header_value(value: &str) -> String {
    if is_plain(value) {
        value.to_owned()
    } else {
        format!("{SENTINEL_START}{}{SENTINEL_END}", STANDARD.encode(value))
    }
}

/// Decodes a received `Mcp-Name` / `Mcp-Param-*` value, reversing [`encode_header_value`].
///
/// A plain value with control or non-ASCII characters, or with leading or trailing whitespace, is an
/// error: a conforming sender would have base64-encoded it.
pub fn decode_header_value(value: &str) -> Result<String, NameError> {
    if let Some(inner) = value
        .strip_prefix(SENTINEL_START)
        .and_then(|rest| rest.strip_suffix(SENTINEL_END))
    {
        let bytes = STANDARD.decode(inner).map_err(|e| {
            NameError::HeaderValue(format!(
                "bad base64 in {SENTINEL_START}…{SENTINEL_END}: {e}"
            ))
        })?;
        return String::from_utf8(bytes)
            .map_err(|_| NameError::HeaderValue("base64 content is not valid UTF-8".to_owned()));
    }
    if let Some(c) = value
        .chars()
        .find(|&c| !(c == ' ' || c == '\t' || c.is_ascii_graphic()))
    {
        return Err(NameError::HeaderValue(format!(
            "character {c:?} must be sent base64-encoded"
        )));
    }
    if value.starts_with([' ', '\t']) || value.ends_with([' ', '\t']) {
        return Err(NameError::HeaderValue(
            "leading or trailing whitespace must be sent base64-encoded".to_owned(),
        ));
    }
    Ok(value.to_owned())
}
