use serde_json::json;

use super::*;

#[test]
fn tool_names() {
    let long_ok = "a".repeat(128);
    for ok in [
        "a",
        "get_weather",
        "ns.tool-v2",
        "A.B_c-9",
        long_ok.as_str(),
    ] {
        assert_eq!(validate_tool_name(ok), Ok(()), "{ok}");
    }
    let too_long = "a".repeat(129);
    let table = [
        ("", "must not be empty"),
        (too_long.as_str(), "129 characters"),
        ("get weather", "' '"),
        ("a,b", "','"),
        ("a/b", "'/'"),
        ("café", "'é'"),
        ("tool\n", "'\\n'"),
    ];
    for (bad, why) in table {
        let err = validate_tool_name(bad).unwrap_err();
        assert!(matches!(err, NameError::ToolName { .. }));
        assert!(err.to_string().contains(why), "{bad:?}: {err}");
    }
}

#[test]
fn meta_keys() {
    for ok in [
        "progressToken",
        "traceparent",
        "tracestate",
        "baggage",
        "io.modelcontextprotocol/protocolVersion",
        "com.example/",
        "com.example/a",
        "com.example/a.b-c_d9",
        "a/b",
        "x1.y-2/z",
        "9lives",
    ] {
        assert_eq!(validate_meta_key(ok), Ok(()), "{ok}");
    }
    let table = [
        ("", "must not be empty"),
        ("/name", "prefix before '/' is empty"),
        ("com..example/x", "label 2 (\"\") is empty"),
        ("com./x", "label 2 (\"\") is empty"),
        ("1com/x", "must start with a letter"),
        ("com-/x", "must end with a letter or digit"),
        ("co_m/x", "only letters, digits and '-'"),
        ("com.example/a/b", "only one '/'"),
        ("com.example/-a", "start and end with a letter or digit"),
        ("com.example/a.", "start and end with a letter or digit"),
        ("_private", "start and end with a letter or digit"),
        ("a b", "' ' is not allowed"),
        ("com.example/a:b", "':' is not allowed"),
    ];
    for (bad, why) in table {
        let err = validate_meta_key(bad).unwrap_err();
        assert!(matches!(err, NameError::MetaKey { .. }));
        assert!(err.to_string().contains(why), "{bad:?}: {err}");
    }
}

#[test]
fn reserved_meta_keys() {
    for key in [
        "io.modelcontextprotocol/x",
        "dev.mcp/x",
        "com.mcp.tools/x",
        "io.modelcontextprotocol/",
        "IO.MCP/x",
    ] {
        assert!(is_reserved_meta_key(key), "{key}");
    }
    for key in [
        "com.example.mcp/x",
        "mcp/x",
        "modelcontextprotocol/x",
        "progressToken",
        "traceparent",
        "com.example/mcp",
        "com.mcpx/x",
    ] {
        assert!(!is_reserved_meta_key(key), "{key}");
    }
}

#[test]
fn extension_ids() {
    for ok in [
        "io.modelcontextprotocol/tasks",
        "io.modelcontextprotocol/oauth-client-credentials",
        "com.example/feature-v2",
    ] {
        assert_eq!(validate_extension_id(ok), Ok(()), "{ok}");
    }
    let table = [
        ("tasks", "a prefix is required"),
        ("", "must not be empty"),
        ("/tasks", "prefix before '/' is empty"),
        ("com.example/bad name", "' ' is not allowed"),
    ];
    for (bad, why) in table {
        let err = validate_extension_id(bad).unwrap_err();
        assert!(matches!(err, NameError::ExtensionId { .. }));
        assert!(err.to_string().contains(why), "{bad:?}: {err}");
    }
}

#[test]
fn header_params_collected() {
    let schema = json!({
        "type": "object",
        "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "limit": {"type": "integer", "x-mcp-header": "Limit"},
            "dry": {"type": ["boolean", "null"], "x-mcp-header": "Dry-Run"},
            "plain": {"type": "string"},
            "nested": {
                "type": "object",
                "properties": {"id": {"type": "string", "x-mcp-header": "Tenant_Id!"}}
            },
            "enumish": {"type": "string", "enum": [{"x-mcp-header": "data, not schema"}]}
        }
    });
    let params = x_mcp_header_params(&schema).unwrap();
    let got: Vec<(&str, Vec<&str>, HeaderKind)> = params
        .iter()
        .map(|p| {
            (
                p.header.as_str(),
                p.path.iter().map(String::as_str).collect(),
                p.kind,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("Dry-Run", vec!["dry"], HeaderKind::Boolean),
            ("Limit", vec!["limit"], HeaderKind::Integer),
            ("Tenant_Id!", vec!["nested", "id"], HeaderKind::String),
            ("Region", vec!["region"], HeaderKind::String),
        ]
    );
    assert_eq!(params[0].header_name(), "Mcp-Param-Dry-Run");
    assert_eq!(x_mcp_header_params(&json!({"type": "object"})), Ok(vec![]));
}

#[test]
fn header_params_rejected() {
    let prop = |p: serde_json::Value| json!({"type": "object", "properties": {"p": p}});
    let table = [
        (
            prop(json!({"type": "string", "x-mcp-header": ""})),
            "/properties/p",
            "must not be empty",
        ),
        (
            prop(json!({"type": "string", "x-mcp-header": "A\r\nB"})),
            "/properties/p",
            "control character",
        ),
        (
            prop(json!({"type": "string", "x-mcp-header": "A\u{7f}"})),
            "/properties/p",
            "control character",
        ),
        (
            prop(json!({"type": "string", "x-mcp-header": "A B"})),
            "/properties/p",
            "RFC 9110 token",
        ),
        (
            prop(json!({"type": "string", "x-mcp-header": "A:B"})),
            "/properties/p",
            "RFC 9110 token",
        ),
        (
            prop(json!({"type": "string", "x-mcp-header": "Ä"})),
            "/properties/p",
            "RFC 9110 token",
        ),
        (
            prop(json!({"type": "string", "x-mcp-header": 5})),
            "/properties/p",
            "must be a string",
        ),
        (
            prop(json!({"type": "number", "x-mcp-header": "N"})),
            "/properties/p",
            "\"number\" is not allowed",
        ),
        (
            prop(json!({"type": "object", "x-mcp-header": "N"})),
            "/properties/p",
            "\"object\" is not allowed",
        ),
        (
            prop(json!({"type": ["string", "integer"], "x-mcp-header": "N"})),
            "/properties/p",
            "must be one of",
        ),
        (
            prop(json!({"x-mcp-header": "N"})),
            "/properties/p",
            "must declare \"type\"",
        ),
        (
            json!({"type": "object", "x-mcp-header": "Root"}),
            "/",
            "root schema",
        ),
        (
            json!({"type": "object", "properties": {
                "a": {"type": "string", "x-mcp-header": "Same"},
                "b": {"type": "string", "x-mcp-header": "sAME"}}}),
            "/properties/",
            "case-insensitive",
        ),
    ];
    for (schema, location, why) in table {
        let err = x_mcp_header_params(&schema).unwrap_err();
        let NameError::XMcpHeader {
            location: at,
            reason,
        } = &err
        else {
            panic!("{err:?}");
        };
        assert!(at.starts_with(location), "{schema}: {err}");
        assert!(reason.contains(why), "{schema}: {err}");
    }
}

#[test]
fn header_params_only_through_properties() {
    let annotated = json!({"type": "string", "x-mcp-header": "X"});
    let table = [
        ("items", json!({"type": "array", "items": annotated})),
        ("prefixItems", json!({"prefixItems": [annotated]})),
        ("anyOf", json!({"anyOf": [{"type": "object"}, annotated]})),
        ("oneOf", json!({"oneOf": [annotated]})),
        ("allOf", json!({"allOf": [annotated]})),
        ("not", json!({"not": annotated})),
        ("if", json!({"if": annotated})),
        ("then", json!({"then": annotated})),
        ("else", json!({"else": annotated})),
        (
            "$defs",
            json!({"$defs": {"d": annotated}, "properties": {"p": {"$ref": "#/$defs/d"}}}),
        ),
        ("definitions", json!({"definitions": {"d": annotated}})),
        (
            "additionalProperties",
            json!({"additionalProperties": annotated}),
        ),
        (
            "patternProperties",
            json!({"patternProperties": {"^x": annotated}}),
        ),
        (
            "properties/p/anyOf",
            json!({"properties": {"p": {"anyOf": [annotated]}}}),
        ),
        (
            "properties/p/items/properties/q",
            json!({"properties": {"p": {"items": {"properties": {"q": annotated}}}}}),
        ),
    ];
    for (via, property_schema) in table {
        let schema = json!({"type": "object", "properties": {"outer": property_schema}});
        let err = x_mcp_header_params(&schema).unwrap_err();
        let NameError::XMcpHeader { location, reason } = &err else {
            panic!("{err:?}");
        };
        assert!(location.starts_with("/properties/outer/"), "{via}: {err}");
        assert!(reason.contains("through `properties`"), "{via}: {err}");
    }
}

#[test]
fn header_param_values() {
    let p = |kind, path: &[&str]| HeaderParam {
        header: "H".into(),
        path: path.iter().map(|s| s.to_string()).collect(),
        kind,
    };
    let args = json!({"s": "héllo", "i": 42, "f": 7.0, "big": 9007199254740992i64, "min": i64::MIN, "neg": -9007199254740991i64,
                      "b": false, "n": null, "o": {"t": "plain"}});
    let table = [
        (
            p(HeaderKind::String, &["o", "t"]),
            Ok(Some("plain".to_owned())),
        ),
        (
            p(HeaderKind::String, &["s"]),
            Ok(Some("=?base64?aMOpbGxv?=".to_owned())),
        ),
        (p(HeaderKind::Integer, &["i"]), Ok(Some("42".to_owned()))),
        (p(HeaderKind::Integer, &["f"]), Ok(Some("7".to_owned()))),
        (
            p(HeaderKind::Integer, &["neg"]),
            Ok(Some("-9007199254740991".to_owned())),
        ),
        (p(HeaderKind::Boolean, &["b"]), Ok(Some("false".to_owned()))),
        (p(HeaderKind::String, &["n"]), Ok(None)),
        (p(HeaderKind::String, &["missing"]), Ok(None)),
        (p(HeaderKind::String, &["o", "missing"]), Ok(None)),
    ];
    for (param, want) in table {
        assert_eq!(param.value_in(&args), want, "{:?}", param.path);
    }
    for (kind, key) in [
        (HeaderKind::Integer, "big"),
        (HeaderKind::Integer, "min"),
        (HeaderKind::Integer, "s"),
        (HeaderKind::Boolean, "i"),
        (HeaderKind::String, "b"),
    ] {
        assert!(
            matches!(
                p(kind, &[key]).value_in(&args),
                Err(NameError::HeaderValue(_))
            ),
            "{key}"
        );
    }
}

#[test]
fn header_value_encoding() {
    let table = [
        ("abc", "abc"),
        ("a b\tc", "a b\tc"),
        ("", ""),
        ("!~", "!~"),
        (" lead", "=?base64?IGxlYWQ=?="),
        ("trail\t", "=?base64?dHJhaWwJ?="),
        ("line\nbreak", "=?base64?bGluZQpicmVhaw==?="),
        ("héllo", "=?base64?aMOpbGxv?="),
        ("=?base64?YQ==?=", "=?base64?PT9iYXNlNjQ/WVE9PT89?="),
        ("=?BASE64?x?=", "=?BASE64?x?="),
        ("=?base64?", "=?base64?"),
    ];
    for (raw, wire) in table {
        assert_eq!(encode_header_value(raw), wire, "{raw:?}");
        assert_eq!(decode_header_value(wire).as_deref(), Ok(raw), "{wire:?}");
    }
    for s in ["x", "ünï", "  ", "\u{0}", "=?base64?=", "a?=", "日本"] {
        assert_eq!(
            decode_header_value(&encode_header_value(s)).as_deref(),
            Ok(s),
            "{s:?}"
        );
    }
}

#[test]
fn header_value_decoding_errors() {
    for bad in [
        "=?base64?!!!?=",
        "=?base64?YQ?=",
        "=?base64?/w==?=",
        "caf\u{e9}",
        "a\nb",
        " lead",
        "trail ",
    ] {
        assert!(
            matches!(decode_header_value(bad), Err(NameError::HeaderValue(_))),
            "{bad:?}"
        );
    }
}
