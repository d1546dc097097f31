//! The JSON-RPC 2.0 messages: ids, requests, notifications, responses and errors, as the parsers
//! (`mod.rs`, `envelope.rs`) produce them.

use std::sync::Arc;

use serde::de::{self, Deserializer};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::error::RpcError;

/// A request id: a string or an integer, never null.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(Arc<str>),
}

impl RequestId {
    /// The id as a JSON value (type preserved).
    pub fn to_value(&self) -> Value {
        match self {
            RequestId::Number(n) => Value::from(*n),
            RequestId::String(s) => Value::String(s.to_string()),
        }
    }

    /// Reads an id from JSON; `None` for null, floats, and every other type.
    pub fn from_value(v: &Value) -> Option<RequestId> {
        match v {
            Value::Number(n) => n.as_i64().map(RequestId::Number),
            Value::String(s) => Some(RequestId::String(s.as_str().into())),
            _ => None,
        }
    }
}

impl std::fmt::Display for RequestId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

impl From<i64> for RequestId {
    fn from(n: i64) -> Self {
        RequestId::Number(n)
    }
}

impl From<&str> for RequestId {
    fn from(s: &str) -> Self {
        RequestId::String(s.into())
    }
}

impl Serialize for RequestId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RequestId::Number(n) => s.serialize_i64(*n),
            RequestId::String(v) => s.serialize_str(v),
        }
    }
}

impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        RequestId::from_value(&v)
            .ok_or_else(|| de::Error::custom("id must be a string or an integer"))
    }
}

/// A request: `{jsonrpc, id, method, params?}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The id, unique among the sender's outstanding requests.
    pub id: RequestId,
    /// The method name.
    pub method: String,
    /// The params (an object when present).
    pub params: Option<Value>,
}

/// A notification: `{jsonrpc, method, params?}`.
#[derive(Clone, Debug, PartialEq)]
pub struct Notification {
    /// The method name.
    pub method: String,
    /// The params (an object when present).
    pub params: Option<Value>,
}

/// A successful response: `{jsonrpc, id, result}`; the result is kept as raw JSON until someone reads it.
#[derive(Clone, Debug)]
pub struct Response {
    /// The id of the request answered.
    pub id: RequestId,
    /// The result object, unparsed.
    pub result: Box<RawValue>,
}

/// An error response: `{jsonrpc, id?, error}`.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorResponse {
    /// The id of the request answered; absent when the request could not be read.
    pub id: Option<RequestId>,
    /// The error.
    pub error: RpcError,
}

/// One JSON-RPC message.
#[derive(Clone, Debug)]
pub enum Message {
    /// A request.
    Request(Request),
    /// A notification.
    Notification(Notification),
    /// A successful response.
    Response(Response),
    /// An error response.
    Error(ErrorResponse),
}
