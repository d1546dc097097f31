//! The quick read of the commonest frame: one request or notification whose members are exactly
//! `jsonrpc`, `id`, `method` and `params`, deserialised straight into its fields, without building
//! a JSON object for the envelope and taking its members out again (about a third of the cost of
//! reading a small request). Whatever this read does not take (a batch, a response, a member the
//! envelope does not define or a repeated one, a wrong type, text that is not JSON) is read again by
//! [`super::parse_frame`]'s general path, which accepts exactly what it accepted before and gives the
//! precise error, so this changes only how fast a frame is read, never how it is judged.

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use serde_json::{Map, Value};

use super::{Message, Notification, Request, RequestId};

/// A request or notification with nothing but the JSON-RPC members.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Envelope<'a> {
    /// Borrowed: a version written with escapes is left to the general path.
    #[serde(borrow)]
    jsonrpc: &'a str,
    #[serde(default, deserialize_with = "present_id")]
    id: Option<RequestId>,
    method: String,
    #[serde(default, deserialize_with = "present_params")]
    params: Option<Map<String, Value>>,
}

/// Reads `bytes` as a request or notification; `None` when the general path must read them.
pub(super) fn read(bytes: &[u8]) -> Option<Message> {
    let e: Envelope = serde_json::from_slice(bytes).ok()?;
    if e.jsonrpc != "2.0" {
        return None;
    }
    let params = e.params.map(Value::Object);
    Some(match e.id {
        Some(id) => Message::Request(Request {
            id,
            method: e.method,
            params,
        }),
        None => Message::Notification(Notification {
            method: e.method,
            params,
        }),
    })
}

/// An `id` member that is present: a string or an integer that fits `i64`. Null, a float and every
/// other type fail (`Option` alone would take null for an absent id).
fn present_id<'de, D: Deserializer<'de>>(d: D) -> Result<Option<RequestId>, D::Error> {
    struct Id;
    impl Visitor<'_> for Id {
        type Value = RequestId;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string or an integer")
        }

        fn visit_i64<E: de::Error>(self, n: i64) -> Result<RequestId, E> {
            Ok(RequestId::Number(n))
        }

        fn visit_u64<E: de::Error>(self, n: u64) -> Result<RequestId, E> {
            i64::try_from(n)
                .map(RequestId::Number)
                .map_err(|_| E::custom("integer id out of range"))
        }

        fn visit_str<E: de::Error>(self, s: &str) -> Result<RequestId, E> {
            Ok(RequestId::String(s.into()))
        }
    }
    d.deserialize_any(Id).map(Some)
}

/// A `params` member that is present: an object (null fails, as `Option` alone would take it for
/// absent params).
fn present_params<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Map<String, Value>>, D::Error> {
    Map::deserialize(d).map(Some)
}
