//! JSON-RPC 2.0 framing: ids, the four message kinds, strict parsing with precise error codes, and
//! serialisation straight to bytes.
//!
//! Parsing never fails silently: a frame that is not JSON gets -32700, a frame that is JSON but not a valid
//! message gets -32600 (with the id when one could be read), so the caller can always answer.

use serde::Serialize;
use serde_json::Value;

use crate::error::RpcError;

mod envelope;
mod message;

pub use message::{ErrorResponse, Message, Notification, Request, RequestId, Response};

/// What one frame held: a single message or a batch (an array, legal only in 2025-03-26).
#[derive(Debug)]
pub enum Frame {
    /// One message.
    Single(Message),
    /// A batch; each entry parsed on its own, so one bad entry does not spoil the rest.
    Batch(Vec<Result<Message, ErrorResponse>>),
}

/// Parses one frame. The error is the response to send back (it carries the id when one was readable).
pub fn parse_frame(bytes: &[u8]) -> Result<Frame, ErrorResponse> {
    match envelope::read(bytes) {
        Some(message) => Ok(Frame::Single(message)),
        None => parse_frame_in_general(bytes),
    }
}

/// [`parse_frame`] without the quick read of plain requests and notifications (`envelope.rs`): the
/// rules every frame is judged by. Public for the fuzz target that checks both reads agree.
#[doc(hidden)]
pub fn parse_frame_in_general(bytes: &[u8]) -> Result<Frame, ErrorResponse> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| ErrorResponse {
        id: None,
        error: RpcError::parse_error(e),
    })?;
    match value {
        Value::Array(items) => {
            if items.is_empty() {
                return Err(ErrorResponse {
                    id: None,
                    error: RpcError::invalid_request("empty batch"),
                });
            }
            Ok(Frame::Batch(
                items.into_iter().map(message_from_value).collect(),
            ))
        }
        other => message_from_value(other).map(Frame::Single),
    }
}

/// Parses one message from bytes, rejecting batches.
pub fn parse_message(bytes: &[u8]) -> Result<Message, ErrorResponse> {
    match parse_frame(bytes)? {
        Frame::Single(m) => Ok(m),
        Frame::Batch(_) => Err(ErrorResponse {
            id: None,
            error: RpcError::invalid_request("batches are not supported by this protocol revision"),
        }),
    }
}

/// Classifies a decoded JSON value as a message.
pub fn message_from_value(value: Value) -> Result<Message, ErrorResponse> {
    let Value::Object(mut obj) = value else {
        return Err(invalid(None, "a message must be a JSON object"));
    };
    // The id is read first so that every later complaint can be addressed to it.
    let id_value = obj.remove("id");
    let id = match &id_value {
        None => None,
        Some(v) => match RequestId::from_value(v) {
            Some(id) => Some(id),
            None => {
                return Err(invalid(
                    None,
                    "id must be a string or an integer, never null",
                ));
            }
        },
    };
    match obj.get("jsonrpc") {
        Some(Value::String(s)) if s == "2.0" => {}
        _ => return Err(invalid(id, "jsonrpc must be \"2.0\"")),
    }
    let method = obj.remove("method");
    let params = obj.remove("params");
    let result = obj.remove("result");
    let error = obj.remove("error");
    if let Some(method) = method {
        let Value::String(method) = method else {
            return Err(invalid(id, "method must be a string"));
        };
        if result.is_some() || error.is_some() {
            return Err(invalid(id, "a request carries no result or error"));
        }
        if let Some(p) = &params
            && !p.is_object()
        {
            return Err(invalid(id, "params must be an object"));
        }
        return Ok(match id {
            Some(id) => Message::Request(Request { id, method, params }),
            None => Message::Notification(Notification { method, params }),
        });
    }
    match (result, error) {
        (Some(result), None) => {
            let Some(id) = id else {
                return Err(invalid(None, "a result response needs an id"));
            };
            let raw = serde_json::value::to_raw_value(&result)
                .map_err(|e| invalid(Some(id.clone()), e))?;
            Ok(Message::Response(Response { id, result: raw }))
        }
        (None, Some(error)) => {
            let error: RpcError = serde_json::from_value(error)
                .map_err(|e| invalid(id.clone(), format!("bad error object: {e}")))?;
            Ok(Message::Error(ErrorResponse { id, error }))
        }
        (Some(_), Some(_)) => Err(invalid(id, "a response carries result or error, not both")),
        (None, None) => Err(invalid(
            id,
            "a message needs a method, a result or an error",
        )),
    }
}

fn invalid(id: Option<RequestId>, detail: impl std::fmt::Display) -> ErrorResponse {
    ErrorResponse {
        id,
        error: RpcError::invalid_request(detail),
    }
}

#[derive(Serialize)]
struct WireRequest<'a> {
    jsonrpc: &'static str,
    id: &'a RequestId,
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<&'a Value>,
}

#[derive(Serialize)]
struct WireNotification<'a> {
    jsonrpc: &'static str,
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<&'a Value>,
}

#[derive(Serialize)]
struct WireResult<'a, T: Serialize + ?Sized> {
    jsonrpc: &'static str,
    id: &'a RequestId,
    result: &'a T,
}

#[derive(Serialize)]
struct WireError<'a> {
    jsonrpc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a RequestId>,
    error: &'a RpcError,
}

fn to_bytes<T: Serialize>(v: &T) -> Vec<u8> {
    // Serialising these shapes cannot fail: keys are strings and values are already JSON.
    sonic_rs::to_vec(v).expect("JSON-RPC envelope serialises")
}

/// Serialises a request.
pub fn encode_request(id: &RequestId, method: &str, params: Option<&Value>) -> Vec<u8> {
    to_bytes(&WireRequest {
        jsonrpc: "2.0",
        id,
        method,
        params,
    })
}

/// Serialises a notification.
pub fn encode_notification(method: &str, params: Option<&Value>) -> Vec<u8> {
    to_bytes(&WireNotification {
        jsonrpc: "2.0",
        method,
        params,
    })
}

/// Serialises a result response.
pub fn encode_result<T: Serialize + ?Sized>(id: &RequestId, result: &T) -> Vec<u8> {
    to_bytes(&WireResult {
        jsonrpc: "2.0",
        id,
        result,
    })
}

/// Serialises an error response.
pub fn encode_error(id: Option<&RequestId>, error: &RpcError) -> Vec<u8> {
    to_bytes(&WireError {
        jsonrpc: "2.0",
        id,
        error,
    })
}

impl Message {
    /// Serialises the message.
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Message::Request(r) => encode_request(&r.id, &r.method, r.params.as_ref()),
            Message::Notification(n) => encode_notification(&n.method, n.params.as_ref()),
            Message::Response(r) => encode_result(&r.id, &*r.result),
            Message::Error(e) => encode_error(e.id.as_ref(), &e.error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::code;
    use serde_json::json;

    /// Frames the quick read takes and frames it leaves to the general path, for the test below.
    const FRAMES: [&str; 24] = [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}"#,
        r#"{"jsonrpc":"2.0","id":"a\"b","method":"ping"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"params":{},"method":"m","id":-7,"jsonrpc":"2.0"}"#,
        r#"{"jsonrpc":"2.0","id":9223372036854775807,"method":"m"}"#,
        r#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"m"}"#,
        r#"{"jsonrpc":"2.0","id":1.0,"method":"m"}"#,
        r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#,
        r#"{"jsonrpc":"2.0","id":[1],"method":"m"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"m","params":null}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":7}"#,
        r#"{"jsonrpc":"2\u002e0","id":1,"method":"m"}"#,
        r#"{"jsonrpc":"1.0","id":1,"method":"m"}"#,
        r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"a":2}}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"m","extra":true}"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"m","result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"x":[1,2]}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}"#,
        r#"[{"jsonrpc":"2.0","id":1,"method":"m"}]"#,
        r#"  {"jsonrpc":"2.0","id":1,"method":"m"}  "#,
        r#"{"jsonrpc":"2.0","id":1,"method":"m"} x"#,
        r#"{"jsonrpc":"2.0","id":1,"method":"m""#,
    ];

    #[test]
    fn the_quick_read_judges_every_frame_as_the_general_path_does() {
        let mut quick = 0;
        for frame in FRAMES {
            let bytes = frame.as_bytes();
            quick += usize::from(envelope_reads(bytes));
            assert_eq!(
                format!("{:?}", parse_frame(bytes)),
                format!("{:?}", parse_frame_in_general(bytes)),
                "{frame}"
            );
        }
        // Plain requests and notifications (with an escaped id, members in any order, the
        // largest id, a repeated params member, surrounding blanks) take the quick read.
        assert_eq!(quick, 7);
    }

    fn envelope_reads(bytes: &[u8]) -> bool {
        envelope::read(bytes).is_some()
    }

    fn err_of(bytes: &[u8]) -> ErrorResponse {
        parse_frame(bytes).expect_err("must fail")
    }

    #[test]
    fn parse_errors_get_precise_codes() {
        assert_eq!(err_of(b"{not json").error.code, code::PARSE_ERROR);
        assert_eq!(err_of(b"\"\xff\"").error.code, code::PARSE_ERROR);
        assert_eq!(err_of(b"[]").error.code, code::INVALID_REQUEST);
        assert_eq!(err_of(b"42").error.code, code::INVALID_REQUEST);
        let e = err_of(br#"{"jsonrpc":"2.0","id":null,"method":"x"}"#);
        assert_eq!((e.error.code, e.id), (code::INVALID_REQUEST, None));
        let e = err_of(br#"{"jsonrpc":"1.0","id":7,"method":"x"}"#);
        assert_eq!(
            (e.error.code, e.id),
            (code::INVALID_REQUEST, Some(RequestId::Number(7)))
        );
        let e = err_of(br#"{"jsonrpc":"2.0","id":"a","method":"x","params":[1]}"#);
        assert_eq!(e.id, Some(RequestId::from("a")));
        assert_eq!(
            err_of(br#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#)
                .error
                .code,
            code::INVALID_REQUEST
        );
        assert_eq!(
            err_of(br#"{"jsonrpc":"2.0","id":1,"method":3}"#).error.code,
            code::INVALID_REQUEST
        );
    }

    #[test]
    fn deep_nesting_is_a_parse_error_not_a_crash() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(err_of(deep.as_bytes()).error.code, code::PARSE_ERROR);
    }

    #[test]
    fn classifies_and_round_trips() {
        let cases = [
            json!({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"x"}}),
            json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}),
            json!({"jsonrpc":"2.0","id":"s","result":{"resultType":"complete"}}),
            json!({"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}),
            json!({"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}),
        ];
        for case in cases {
            let bytes = serde_json::to_vec(&case).unwrap();
            let Frame::Single(m) = parse_frame(&bytes).unwrap() else {
                panic!()
            };
            let back: Value = serde_json::from_slice(&m.encode()).unwrap();
            assert_eq!(back, case);
        }
    }

    #[test]
    fn batch_entries_fail_independently() {
        let Frame::Batch(items) =
            parse_frame(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}, 5]"#).unwrap()
        else {
            panic!()
        };
        assert!(items[0].is_ok());
        assert_eq!(
            items[1].as_ref().unwrap_err().error.code,
            code::INVALID_REQUEST
        );
        assert!(parse_message(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#).is_err());
    }
}
