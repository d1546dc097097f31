//! Answers to server-to-client requests across instances: the [`MessageRelay`] seam. A legacy
//! session's handler waiting for the client's answer (elicitation, sampling, roots) runs on the
//! instance that sent the request; when the client POSTs the answer to another instance, that one
//! hands it to the relay, which delivers it to every instance sharing the relay, and the one still
//! waiting for it takes it.

use std::fmt;
use std::sync::Arc;

/// Delivers a forwarded message (a JSON-RPC response or error, as bytes) to session `id` here;
/// `false` once the server has stopped (the relay may stop following then).
pub type Deliver = Arc<dyn Fn(&str, &[u8]) -> bool + Send + Sync>;

/// Passes answers between instances (see the module docs). The Redis store's relay
/// (`libmcp::store::redis`, feature `redis`) is one, over pub/sub.
pub trait MessageRelay: Send + Sync + fmt::Debug {
    /// Sends `message`, an answer for session `session` that no request on this instance waits
    /// for, to the other instances. Must not block.
    fn forward(&self, session: &str, message: Vec<u8>);

    /// Called once by the server when it starts: `deliver` takes messages other instances forward.
    fn attach(&self, deliver: Deliver);
}
