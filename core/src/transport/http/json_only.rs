//! The destination of a request answered with one JSON body ([`HttpServerConfig::json_response`]):
//! only its response goes on; there is no stream for anything else.
//!
//! [`HttpServerConfig::json_response`]: super::HttpServerConfig::json_response

use std::sync::Arc;

use crate::outgoing::{OutKind, Outbound, Outgoing, Sink};

/// Passes responses to the sink it wraps; drops notifications (progress, log messages: a JSON
/// answer has no room for them) and refuses requests to the client, so that one fails at once
/// instead of waiting for an answer the client was never asked for.
struct JsonOnly(Sink);

impl Outbound for JsonOnly {
    fn send(&self, msg: Outgoing) -> bool {
        match msg.kind {
            OutKind::Result | OutKind::Error(_) => self.0.send(msg),
            OutKind::Notification => true,
            OutKind::Request => false,
        }
    }
}

/// `sink`, narrowed to the response of the request whose messages go into it.
pub(crate) fn json_only(sink: Sink) -> Sink {
    Sink::new(Arc::new(JsonOnly(sink)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_responses_pass() {
        let (sink, mut rx) = Sink::channel();
        let narrowed = json_only(sink);
        let out = |kind| Outgoing {
            kind,
            bytes: b"{}".to_vec(),
        };
        assert!(narrowed.send(out(OutKind::Notification)));
        assert!(!narrowed.send(out(OutKind::Request)));
        assert!(narrowed.send(out(OutKind::Error(-32603))));
        assert!(narrowed.send(out(OutKind::Result)));
        assert_eq!(rx.try_recv().unwrap().kind, OutKind::Error(-32603));
        assert_eq!(rx.try_recv().unwrap().kind, OutKind::Result);
        assert!(rx.try_recv().is_err());
    }
}
