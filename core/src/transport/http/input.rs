//! What one POST hands to the engine: a single message, or a JSON-RPC batch (2025-03-26).

use crate::jsonrpc::{ErrorResponse, Message, RequestId};
use crate::server::{Caller, Session};
use crate::transport::Sink;

/// The body of one POST, parsed.
pub(crate) enum Input {
    One(Message),
    Batch(Vec<Result<Message, ErrorResponse>>),
}

impl Input {
    /// Whether anything in it expects a response (requests; malformed batch entries are answered
    /// too). Without, the POST is answered 202.
    pub(crate) fn has_requests(&self) -> bool {
        match self {
            Input::One(m) => matches!(m, Message::Request(_)),
            Input::Batch(items) => items
                .iter()
                .any(|i| matches!(i, Err(_) | Ok(Message::Request(_)))),
        }
    }

    /// The id of a single request.
    pub(crate) fn request_id(&self) -> Option<RequestId> {
        match self {
            Input::One(Message::Request(r)) => Some(r.id.clone()),
            _ => None,
        }
    }

    /// Hands it to `session`; what it produces goes to `sink` (a batch's responses as one array).
    /// `caller` is what the transport knows of the sender; handlers see it.
    pub(crate) fn feed(self, session: &Session, sink: Sink, caller: Caller) {
        match self {
            Input::One(m) => session.handle_message_from(m, sink, caller),
            Input::Batch(items) => session.handle_batch(items, sink, caller),
        }
    }
}
