//! Human-readable rendering of results for the `mcp` tool.

use std::fmt::Write as _;

use libmcp::client::ServerDescription;
use serde_json::Value;

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// `info`: server, era, version, the versions a modern server lists, capabilities, instructions;
/// what the server did not send is left out.
pub fn info(d: &ServerDescription) -> String {
    let mut out = String::new();
    if let Some(i) = &d.server_info {
        let _ = write!(
            out,
            "Server:             {} {}",
            s(i, "name"),
            s(i, "version")
        );
        if let Some(t) = i.get("title").and_then(Value::as_str) {
            let _ = write!(out, " ({t})");
        }
        out.push('\n');
    }
    let era = match d.era {
        libmcp::Era::Modern => "modern (stateless, per-request _meta)",
        libmcp::Era::Legacy => "legacy (initialize handshake)",
    };
    let _ = writeln!(out, "Era:                {era}");
    let _ = writeln!(out, "Protocol version:   {}", d.version.as_str());
    if d.era == libmcp::Era::Modern && !d.supported_versions.is_empty() {
        let _ = writeln!(
            out,
            "Supported versions: {}",
            d.supported_versions.join(", ")
        );
    }
    let _ = writeln!(out, "Capabilities:       {}", capabilities(&d.capabilities));
    if let Some(i) = &d.instructions {
        let _ = writeln!(out, "Instructions:       {i}");
    }
    out
}

/// `info --json`: the same fields, absent ones left out.
pub fn info_json(d: &ServerDescription) -> Value {
    let mut v = serde_json::json!({
        "era": format!("{:?}", d.era).to_lowercase(),
        "protocolVersion": d.version.as_str(),
        "capabilities": d.capabilities,
    });
    if d.era == libmcp::Era::Modern && !d.supported_versions.is_empty() {
        v["supportedVersions"] = serde_json::json!(d.supported_versions);
    }
    if let Some(i) = &d.server_info {
        v["serverInfo"] = i.clone();
    }
    if let Some(i) = &d.instructions {
        v["instructions"] = Value::String(i.clone());
    }
    v
}

/// The names of the capabilities the server declares, for messages.
pub fn capability_names(caps: &Value) -> String {
    match caps.as_object() {
        Some(m) if !m.is_empty() => m.keys().cloned().collect::<Vec<_>>().join(", "),
        _ => "none".into(),
    }
}

/// `tools listChanged, resources subscribe listChanged, ...`.
fn capabilities(caps: &Value) -> String {
    let Some(m) = caps.as_object() else {
        return "(none)".into();
    };
    let parts: Vec<String> = m
        .iter()
        .map(|(name, v)| {
            let flags: Vec<&str> = v
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(_, f)| f.as_bool() != Some(false))
                .map(|(k, _)| k.as_str())
                .collect();
            if flags.is_empty() {
                name.clone()
            } else {
                format!("{name} ({})", flags.join(", "))
            }
        })
        .collect();
    if parts.is_empty() {
        "(none)".into()
    } else {
        parts.join(", ")
    }
}

/// The parameters of an input schema: `a: string (required), b: integer`.
fn params(schema: &Value) -> String {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let props: Vec<String> = schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, p)| {
            let ty = p.get("type").and_then(Value::as_str).unwrap_or("any");
            let req = if required.contains(&name.as_str()) {
                ", required"
            } else {
                ""
            };
            format!("{name}: {ty}{req}")
        })
        .collect();
    props.join("; ")
}

/// One line per tool (marked when it supports task-augmented execution, `execution.taskSupport`),
/// with its parameters on an indented line.
pub fn tools(tools: &[Value]) -> String {
    let mut out = String::new();
    for t in tools {
        let _ = write!(out, "{}  {}", s(t, "name"), s(t, "description"));
        match t.pointer("/execution/taskSupport").and_then(Value::as_str) {
            Some(m @ ("required" | "optional")) => {
                let _ = writeln!(out, "  [tasks: {m}]");
            }
            _ => out.push('\n'),
        }
        let p = params(&t["inputSchema"]);
        if !p.is_empty() {
            let _ = writeln!(out, "    args: {p}");
        }
    }
    let _ = write!(out, "({})", count(tools.len(), "tool", "tools"));
    out
}

/// One line per resource: `uri  name (mime)  description`.
pub fn resources(list: &[Value], uri_key: &str) -> String {
    let mut out = String::new();
    for r in list {
        let _ = write!(out, "{}  {}", s(r, uri_key), s(r, "name"));
        if let Some(m) = r.get("mimeType").and_then(Value::as_str) {
            let _ = write!(out, " ({m})");
        }
        let _ = writeln!(out, "  {}", s(r, "description"));
    }
    let n = list.len();
    let counted = if uri_key == "uri" {
        count(n, "resource", "resources")
    } else {
        count(n, "template", "templates")
    };
    let _ = write!(out, "({counted})");
    out
}

/// One line per prompt, with its arguments.
pub fn prompts(list: &[Value]) -> String {
    let mut out = String::new();
    for p in list {
        let _ = writeln!(out, "{}  {}", s(p, "name"), s(p, "description"));
        let args: Vec<String> = p["arguments"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| {
                let req = if a["required"] == true {
                    " (required)"
                } else {
                    ""
                };
                format!("{}{req}", s(a, "name"))
            })
            .collect();
        if !args.is_empty() {
            let _ = writeln!(out, "    args: {}", args.join(", "));
        }
    }
    let _ = write!(out, "({})", count(list.len(), "prompt", "prompts"));
    out
}

/// A content block: text as is, binary as a summary line.
pub fn content_block(b: &Value) -> String {
    match s(b, "type") {
        "text" => s(b, "text").to_string(),
        "image" | "audio" => format!(
            "[{} {}, {} base64 chars]",
            s(b, "type"),
            s(b, "mimeType"),
            s(b, "data").len()
        ),
        "resource" => resource_contents(&b["resource"]),
        "resource_link" => format!("[link {} {}]", s(b, "uri"), s(b, "name")),
        other => format!("[{other} block] {b}"),
    }
}

/// One entry of `contents` (resources/read) or an embedded resource.
pub fn resource_contents(c: &Value) -> String {
    let head = format!("[resource {} {}]", s(c, "uri"), s(c, "mimeType"));
    match (c.get("text"), c.get("blob")) {
        (Some(Value::String(t)), _) => format!("{head}\n{t}"),
        (_, Some(Value::String(b))) => format!("{head} blob, {} base64 chars", b.len()),
        _ => head,
    }
}

/// A CallToolResult: its content blocks, then structured content if any.
pub fn call_result(r: &Value) -> String {
    let mut parts: Vec<String> = r["content"]
        .as_array()
        .into_iter()
        .flatten()
        .map(content_block)
        .collect();
    if let Some(sc) = r.get("structuredContent") {
        parts.push(format!(
            "structuredContent: {}",
            serde_json::to_string_pretty(sc).unwrap_or_default()
        ));
    }
    parts.join("\n")
}

/// A ReadResourceResult.
pub fn read_result(r: &Value) -> String {
    r["contents"]
        .as_array()
        .into_iter()
        .flatten()
        .map(resource_contents)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A GetPromptResult: `role: content` per message.
pub fn prompt_result(r: &Value) -> String {
    let mut out = String::new();
    if let Some(d) = r.get("description").and_then(Value::as_str) {
        let _ = writeln!(out, "# {d}");
    }
    let messages: Vec<String> = r["messages"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| format!("{}: {}", s(m, "role"), content_block(&m["content"])))
        .collect();
    out.push_str(&messages.join("\n"));
    out
}

/// `1 tool`, `0 tools`, `2 tools`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A progress or log notification from the server as one line for the terminal, or `None` for other
/// notifications: `progress 3/10: message`, `[warning] logger: data`.
pub fn notification(method: &str, params: &Value) -> Option<String> {
    // Whole numbers without a fraction (`3`, not `3.0`, as a server in any language may send them).
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 && n.is_f64() => format!("{f:.0}"),
            _ => n.to_string(),
        },
        other => other.to_string(),
    };
    match method {
        "notifications/progress" => {
            let mut line = format!("progress {}", text(&params["progress"]));
            if let Some(total) = params.get("total") {
                let _ = write!(line, "/{}", text(total));
            }
            if let Some(m) = params.get("message").and_then(Value::as_str) {
                let _ = write!(line, ": {m}");
            }
            Some(line)
        }
        "notifications/message" => {
            let mut line = format!("[{}] ", s(params, "level"));
            if let Some(l) = params.get("logger").and_then(Value::as_str) {
                let _ = write!(line, "{l}: ");
            }
            line.push_str(&text(&params["data"]));
            Some(line)
        }
        _ => None,
    }
}

/// A CompleteResult: one value per line, or `(no completions)`.
pub fn completion(r: &Value) -> String {
    let c = &r["completion"];
    let mut lines: Vec<String> = c["values"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    if lines.is_empty() {
        return "(no completions)".into();
    }
    if c["hasMore"] == true {
        lines.push(match c["total"].as_u64() {
            Some(total) => format!("(more available; {total} in all)"),
            None => "(more available)".into(),
        });
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn counts_are_singular_for_one() {
        assert_eq!(tools(&[]), "(0 tools)");
        let one = tools(&[json!({"name": "t", "description": "d"})]);
        assert_eq!(one, "t  d\n(1 tool)");
        assert!(resources(&[json!({"uri": "u", "name": "n"})], "uri").ends_with("(1 resource)"));
        assert!(resources(&[], "uriTemplate").ends_with("(0 templates)"));
        assert!(prompts(&[json!({"name": "p"})]).ends_with("(1 prompt)"));
    }

    #[test]
    fn progress_and_log_notifications_are_one_line_each() {
        let progress = |p: Value| notification("notifications/progress", &p);
        assert_eq!(
            progress(json!({"progressToken": 1, "progress": 3, "total": 10, "message": "step"}))
                .as_deref(),
            Some("progress 3/10: step")
        );
        assert_eq!(
            progress(json!({"progressToken": 1, "progress": 0.5})).as_deref(),
            Some("progress 0.5")
        );
        assert_eq!(
            progress(json!({"progressToken": 1, "progress": 50.0, "total": 100.0})).as_deref(),
            Some("progress 50/100")
        );
        let log = |p: Value| notification("notifications/message", &p);
        assert_eq!(
            log(json!({"level": "warning", "logger": "db", "data": "slow query"})).as_deref(),
            Some("[warning] db: slow query")
        );
        assert_eq!(
            log(json!({"level": "info", "data": {"n": 1}})).as_deref(),
            Some("[info] {\"n\":1}")
        );
        assert_eq!(
            notification("notifications/tools/list_changed", &json!({})),
            None
        );
    }
}
