//! Answering `elicitation/create` form requests from the command line: interactively on a terminal, or
//! from `--answer KEY=VALUE` values and schema defaults.

use std::io::{BufRead, Write};

use serde_json::{Map, Value, json};

/// Converts typed text to a value of the property's type.
pub fn convert(prop: &Value, text: &str) -> Result<Value, String> {
    let t = text.trim();
    match prop["type"].as_str() {
        Some("integer") => t
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| format!("{t:?} is not an integer")),
        Some("number") => t
            .parse::<f64>()
            .ok()
            .and_then(|f| serde_json::Number::from_f64(f).map(Value::Number))
            .ok_or_else(|| format!("{t:?} is not a number")),
        Some("boolean") => match t.to_ascii_lowercase().as_str() {
            "true" | "yes" | "y" | "1" => Ok(json!(true)),
            "false" | "no" | "n" | "0" => Ok(json!(false)),
            _ => Err(format!("{t:?} is not a boolean (true/false)")),
        },
        Some("array") => Ok(Value::Array(
            t.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| json!(s))
                .collect(),
        )),
        _ => Ok(json!(text)),
    }
}

fn properties(params: &Value) -> Vec<(String, Value)> {
    params["requestedSchema"]["properties"]
        .as_object()
        .map(|m| m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .unwrap_or_default()
}

fn required(params: &Value) -> Vec<String> {
    params["requestedSchema"]["required"]
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn decline() -> Value {
    json!({"action": "decline"})
}

/// Fills the form from `answers` and the schema's defaults. Accepts only if every required field has a
/// value; otherwise declines. Keys the form does not have are ignored. Returns the ElicitResult and
/// notes for the user (why it declined).
pub fn from_answers(params: &Value, answers: &[(String, String)]) -> (Value, Vec<String>) {
    let mut notes = Vec::new();
    if params["mode"] == "url" {
        notes.push("declined a URL-mode elicitation (needs a browser)".to_string());
        return (decline(), notes);
    }
    let props = properties(params);
    let mut content = Map::new();
    for (name, prop) in &props {
        if let Some(d) = prop.get("default") {
            content.insert(name.clone(), d.clone());
        }
    }
    // The answers are a pool for every form of the run (multi-round tools ask one field at a time),
    // so keys this form does not have are skipped, not an error.
    for (k, v) in answers {
        let Some((_, prop)) = props.iter().find(|(name, _)| name == k) else {
            continue;
        };
        match convert(prop, v) {
            Ok(value) => {
                content.insert(k.clone(), value);
            }
            Err(e) => {
                notes.push(format!("declined: --answer {k}: {e}"));
                return (decline(), notes);
            }
        }
    }
    let missing: Vec<String> = required(params)
        .into_iter()
        .filter(|r| !content.contains_key(r))
        .collect();
    if !missing.is_empty() {
        notes.push(format!(
            "declined: no value for required field(s) {} (give --answer KEY=VALUE)",
            missing.join(", ")
        ));
        return (decline(), notes);
    }
    (json!({"action": "accept", "content": content}), notes)
}

/// Asks the user on `out`, reading answers from `input`. An empty line keeps the default (or leaves an
/// optional field out); `!decline` or `!cancel` at any prompt ends the form with that action.
pub fn interactive(
    params: &Value,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> std::io::Result<Value> {
    let message = params["message"]
        .as_str()
        .unwrap_or("The server asks for input");
    writeln!(out, "\n{message}")?;
    if params["mode"] == "url" {
        writeln!(out, "(open {} in a browser; declining here)", params["url"])?;
        return Ok(decline());
    }
    writeln!(
        out,
        "(empty line: default or skip; !decline or !cancel to refuse)"
    )?;
    let required = required(params);
    let mut content = Map::new();
    for (name, prop) in properties(params) {
        loop {
            let mut label = name.clone();
            if let Some(d) = prop.get("description").and_then(Value::as_str) {
                label.push_str(&format!(" - {d}"));
            }
            if let Some(options) = prop.get("enum") {
                label.push_str(&format!(" {options}"));
            }
            if let Some(d) = prop.get("default") {
                label.push_str(&format!(" [{d}]"));
            }
            if required.contains(&name) {
                label.push_str(" (required)");
            }
            write!(out, "{label}: ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                return Ok(json!({"action": "cancel"}));
            }
            let line = line.trim_end_matches(['\r', '\n']);
            match line {
                "!decline" => return Ok(decline()),
                "!cancel" => return Ok(json!({"action": "cancel"})),
                "" => {
                    if let Some(d) = prop.get("default") {
                        content.insert(name.clone(), d.clone());
                    } else if required.contains(&name) {
                        writeln!(out, "a value is required")?;
                        continue;
                    }
                    break;
                }
                text => match convert(&prop, text) {
                    Ok(v) => {
                        content.insert(name.clone(), v);
                        break;
                    }
                    Err(e) => writeln!(out, "{e}")?,
                },
            }
        }
    }
    Ok(json!({"action": "accept", "content": content}))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> Value {
        json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
            "name": {"type": "string"}, "age": {"type": "integer", "default": 30},
            "ok": {"type": "boolean"}}, "required": ["name"]}})
    }

    #[test]
    fn answers_and_defaults() {
        let (r, notes) = from_answers(
            &form(),
            &[("name".into(), "Ada".into()), ("x".into(), "1".into())],
        );
        assert_eq!(
            r,
            json!({"action": "accept", "content": {"name": "Ada", "age": 30}})
        );
        assert!(notes.is_empty());
        let (r, _) = from_answers(&form(), &[]);
        assert_eq!(r, json!({"action": "decline"}));
        let (r, _) = from_answers(
            &form(),
            &[("name".into(), "A".into()), ("age".into(), "old".into())],
        );
        assert_eq!(r, json!({"action": "decline"}));
    }

    #[test]
    fn interactive_form() {
        let mut input = std::io::Cursor::new("\n\nAda\nmaybe\nyes\n");
        let mut out = Vec::new();
        let r = interactive(&form(), &mut input, &mut out).unwrap();
        assert_eq!(
            r,
            json!({"action": "accept", "content": {"name": "Ada", "age": 30, "ok": true}})
        );
        let mut input = std::io::Cursor::new("!decline\n");
        assert_eq!(
            interactive(&form(), &mut input, &mut Vec::new()).unwrap(),
            json!({"action": "decline"})
        );
    }
}
