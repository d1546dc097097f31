//! Destinations that carry part of what a request sends, for exchanges that have no room for the
//! rest: one JSON body ([`HttpServerConfig::json_response`]) carries only the response; a legacy
//! request served without a session ([`HttpServerConfig::legacy_stateless`]) cannot be sent
//! requests to the client, as their answers would reach no session.
//!
//! [`HttpServerConfig::json_response`]: super::HttpServerConfig::json_response
//! [`HttpServerConfig::legacy_stateless`]: super::HttpServerConfig::legacy_stateless

use std::sync::Arc;

use crate::outgoing::{OutKind, Outbound, Outgoing, Sink};

/// Passes what `notifications` allows to the sink it wraps: responses always, notifications when
/// `notifications` is set (dropped otherwise). Requests to the client are refused, so such a
/// request fails at once instead of waiting for an answer that cannot come.
struct Narrowed {
    sink: Sink,
    notifications: bool,
}

impl Outbound for Narrowed {
    fn send(&self, msg: Outgoing) -> bool {
        match msg.kind {
            OutKind::Result | OutKind::Error(_) => self.sink.send(msg),
            OutKind::Notification if self.notifications => self.sink.send(msg),
            OutKind::Notification => true,
            OutKind::Request => false,
        }
    }
}

/// `sink`, narrowed to the response of the request whose messages go into it.
pub(crate) fn json_only(sink: Sink) -> Sink {
    Sink::new(Arc::new(Narrowed {
        sink,
        notifications: false,
    }))
}

/// `sink`, refusing requests to the client.
pub(crate) fn without_requests(sink: Sink) -> Sink {
    Sink::new(Arc::new(Narrowed {
        sink,
        notifications: true,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn responses_pass_requests_are_refused_notifications_as_chosen() {
        for (narrow, notifications) in [
            (json_only as fn(Sink) -> Sink, false),
            (without_requests, true),
        ] {
            let (sink, mut rx) = Sink::channel();
            let narrowed = narrow(sink);
            let out = |kind| Outgoing {
                kind,
                bytes: b"{}".to_vec(),
            };
            assert!(narrowed.send(out(OutKind::Notification)));
            assert!(!narrowed.send(out(OutKind::Request)));
            assert!(narrowed.send(out(OutKind::Error(-32603))));
            assert!(narrowed.send(out(OutKind::Result)));
            if notifications {
                assert_eq!(rx.try_recv().unwrap().kind, OutKind::Notification);
            }
            assert_eq!(rx.try_recv().unwrap().kind, OutKind::Error(-32603));
            assert_eq!(rx.try_recv().unwrap().kind, OutKind::Result);
            assert!(rx.try_recv().is_err());
        }
    }
}
