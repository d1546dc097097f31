//! The HTTP responses every part of the server transport builds: an empty status, a JSON body, a
//! JSON-RPC error, an SSE stream, and the rule for errors that answer no request.

use bytes::Bytes;
use hyper::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue};
use hyper::{HeaderMap, Response, StatusCode};

use super::body::{HttpBody, SseBody};
use super::headers::{self, PROTOCOL_VERSION};
use crate::error::RpcError;
use crate::jsonrpc::{self, RequestId};
use crate::version::ProtocolVersion;

/// A response of the server transport.
pub(crate) type Resp = Response<HttpBody>;

pub(crate) fn plain(status: StatusCode) -> Resp {
    let mut r = Response::new(HttpBody::empty());
    *r.status_mut() = status;
    r
}

pub(crate) fn json(status: StatusCode, bytes: Vec<u8>) -> Resp {
    let mut r = Response::new(HttpBody::bytes(Bytes::from(bytes)));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    r
}

pub(crate) fn rpc_error(status: StatusCode, id: Option<&RequestId>, e: &RpcError) -> Resp {
    json(status, jsonrpc::encode_error(id, e))
}

pub(crate) fn sse(body: SseBody) -> Resp {
    let mut r = Response::new(HttpBody::Sse(Box::new(body)));
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    r
}

/// The message of the 404 for an unknown, deleted or expired session.
pub(crate) const SESSION_NOT_FOUND: &str =
    "unknown or expired Mcp-Session-Id: initialize a new session";

/// A GET or DELETE (or a POST of a notification, a response or a batch) answers no one JSON-RPC
/// request, so its error body has no `id`; before 2025-11-25
/// (the `MCP-Protocol-Version` header) the schema requires one, so such an error goes out as its
/// bare HTTP status (a client that deleted its session and still had a GET on the way sees 404).
pub(crate) fn without_idless_error(r: Resp, headers: &HeaderMap) -> Resp {
    let old = headers::text(headers, PROTOCOL_VERSION)
        .ok()
        .flatten()
        .map(ProtocolVersion::new)
        .is_some_and(|v| v.is_known() && !v.errors_may_omit_id());
    if old && r.status().is_client_error() {
        return plain(r.status());
    }
    r
}
