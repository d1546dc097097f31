//! The server of the session-notifier tests: its `pay` tool keeps the notifier of its request's
//! session and answers at once, or answers why there is none to take.

use std::sync::Arc;

use libmcp::server::{Reply, Server, SessionNotifier};
use parking_lot::Mutex;
use serde_json::json;

/// Where `pay` keeps the notifier it took.
pub type Slot = Arc<Mutex<Option<SessionNotifier>>>;

/// The server, keeping notifiers in `slot`.
pub fn server(slot: Slot) -> Server {
    Server::builder("notify-test", "1.0.0")
        .tool(json!({"name": "pay"}), move |ctx, _args| {
            match ctx.session_notifier() {
                Ok(n) => {
                    *slot.lock() = Some(n);
                    Reply::text("started")
                }
                Err(e) => Reply::tool_error(e.to_string()),
            }
        })
        .build()
        .unwrap()
}
