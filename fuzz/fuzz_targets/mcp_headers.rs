//! `Mcp-*` and `x-mcp-header` decoding: header values round-trip through the encoding, annotations
//! are collected from any schema, and the 2026-07-28 header checks (version, method, name, params),
//! the media-type check and the Host/Origin allow-list take any header block. Input: NUL-separated
//! header value, tool input schema, call arguments, then `name: value` header lines.
#![no_main]

use hyper::header::{HeaderMap, HeaderName, HeaderValue};
use libfuzzer_sys::fuzz_target;
use libmcp::jsonrpc::{Request, RequestId};
use libmcp::names::{decode_header_value, encode_header_value, x_mcp_header_params};
use libmcp::transport::http::HttpServerConfig;
use serde_json::{Value, json};

fuzz_target!(|data: &[u8]| {
    let parts = libmcp_fuzz::split_nul(data, 4);
    let value = libmcp_fuzz::text(parts[0]);
    let encoded = encode_header_value(&value);
    assert_eq!(decode_header_value(&encoded).as_deref(), Ok(value.as_str()));
    assert!(
        HeaderValue::from_str(&encoded).is_ok(),
        "{encoded:?} is no header value"
    );
    if let Ok(decoded) = decode_header_value(&value) {
        assert_eq!(
            decode_header_value(&encode_header_value(&decoded)),
            Ok(decoded)
        );
    }

    let schema: Value = parts
        .get(1)
        .and_then(|b| serde_json::from_slice(b).ok())
        .unwrap_or(Value::Null);
    let args: Value = parts
        .get(2)
        .and_then(|b| serde_json::from_slice(b).ok())
        .unwrap_or(Value::Null);
    if let Ok(params) = x_mcp_header_params(&schema) {
        for p in &params {
            assert!(HeaderName::from_bytes(p.header_name().as_bytes()).is_ok());
            if let Ok(Some(v)) = p.value_in(&args) {
                assert!(decode_header_value(&v).is_ok(), "{v:?} does not decode");
            }
        }
    }

    let mut headers = HeaderMap::new();
    for line in parts
        .get(3)
        .copied()
        .unwrap_or_default()
        .split(|&b| b == b'\n')
    {
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            continue;
        };
        let (Ok(name), Ok(v)) = (
            HeaderName::from_bytes(&line[..colon]),
            HeaderValue::from_bytes(line[colon + 1..].trim_ascii()),
        ) else {
            continue;
        };
        headers.append(name, v);
    }
    let server = libmcp_fuzz::server();
    for method in ["tools/call", "resources/read", "prompts/get", "tools/list"] {
        let req = Request {
            id: RequestId::Number(1),
            method: method.into(),
            params: Some(json!({"name": value, "uri": value, "arguments": args})),
        };
        let _ = libmcp::fuzzing::check_modern_headers(&server, &headers, "2026-07-28", &req);
    }
    if let Err((status, message)) = libmcp::fuzzing::check_post_media(&headers) {
        assert!(status == 415 || status == 406);
        assert!(!message.is_empty());
    }
    let _ = libmcp::fuzzing::check_host_origin(&HttpServerConfig::default(), &headers);
    if let Some(id) = libmcp::fuzzing::parse_event_id(&value) {
        let again = format!("{}.{}-{}", id.0, id.1, id.2);
        assert_eq!(libmcp::fuzzing::parse_event_id(&again), Some(id));
    }
});
