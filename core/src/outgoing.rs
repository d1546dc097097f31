//! What the engines send: one serialised JSON-RPC message ([`Outgoing`]) with its [`OutKind`], put
//! into a [`Sink`] for one connection, one request stream, or one batch. Transports
//! ([`crate::transport`], [`crate::client`]) provide the sinks; the engines write into them. This
//! module sits below both.

use std::sync::Arc;

use tokio::sync::mpsc;

/// What an outgoing message is, so a transport can pick framing and status codes without parsing it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutKind {
    /// A result response (ends the request it answers).
    Result,
    /// An error response with its code (ends the request it answers).
    Error(i32),
    /// A notification.
    Notification,
    /// A request (legacy server-to-client, or any client request).
    Request,
}

/// One serialised JSON-RPC message on its way out.
#[derive(Clone, Debug)]
pub struct Outgoing {
    /// What the message is.
    pub kind: OutKind,
    /// The serialised message, without a trailing newline.
    pub bytes: Vec<u8>,
}

impl Outgoing {
    /// Whether this message is a response.
    pub fn is_response(&self) -> bool {
        matches!(self.kind, OutKind::Result | OutKind::Error(_))
    }
}

/// Where outgoing messages go. Implemented by channels and by batch collectors.
pub trait Outbound: Send + Sync {
    /// Queues one message; `false` when the destination is gone.
    fn send(&self, msg: Outgoing) -> bool;

    /// Ends the response stream these messages travel on early, leaving the request running; what
    /// it sends later is kept for the client to fetch by resuming the stream (Streamable HTTP
    /// polling, SEP-1699). `false` (the default) when this destination cannot do that.
    fn close_stream(&self) -> bool {
        false
    }
}

/// A cloneable handle to an [`Outbound`].
#[derive(Clone)]
pub struct Sink(Arc<dyn Outbound>);

impl Sink {
    /// Wraps an outbound.
    pub fn new(out: Arc<dyn Outbound>) -> Sink {
        Sink(out)
    }

    /// A sink backed by an unbounded channel, and the receiving end.
    pub fn channel() -> (Sink, mpsc::UnboundedReceiver<Outgoing>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (Sink(Arc::new(ChannelOutbound(tx))), rx)
    }

    /// A sink that accepts every message and drops it: the connection of a stateless exchange,
    /// which has nobody to deliver connection-level messages to. One shared instance, so taking it
    /// costs no allocation.
    pub fn discard() -> Sink {
        static DISCARD: std::sync::OnceLock<Sink> = std::sync::OnceLock::new();
        DISCARD.get_or_init(|| Sink(Arc::new(Discard))).clone()
    }

    /// Queues one message; `false` when the destination is gone.
    pub fn send(&self, msg: Outgoing) -> bool {
        self.0.send(msg)
    }

    /// Whether this is [`Sink::discard`]: nothing sent here reaches anyone.
    pub(crate) fn discards(&self) -> bool {
        Arc::ptr_eq(&self.0, &Sink::discard().0)
    }

    /// See [`Outbound::close_stream`].
    pub fn close_stream(&self) -> bool {
        self.0.close_stream()
    }
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sink")
    }
}

struct Discard;

impl Outbound for Discard {
    fn send(&self, _msg: Outgoing) -> bool {
        true
    }
}

struct ChannelOutbound(mpsc::UnboundedSender<Outgoing>);

impl Outbound for ChannelOutbound {
    fn send(&self, msg: Outgoing) -> bool {
        self.0.send(msg).is_ok()
    }
}

/// Collects the responses of one JSON-RPC batch (2025-03-26) into a single array frame, passing
/// notifications and requests straight through.
pub(crate) struct BatchCollector {
    inner: parking_lot::Mutex<(usize, Vec<Vec<u8>>)>,
    out: Sink,
}

impl BatchCollector {
    /// A collector expecting `expected` responses.
    pub(crate) fn new(expected: usize, out: Sink) -> Arc<BatchCollector> {
        Arc::new(BatchCollector {
            inner: parking_lot::Mutex::new((expected, Vec::new())),
            out,
        })
    }
}

impl Outbound for BatchCollector {
    fn send(&self, msg: Outgoing) -> bool {
        if !msg.is_response() {
            return self.out.send(msg);
        }
        let done = {
            let mut g = self.inner.lock();
            g.1.push(msg.bytes);
            g.0 = g.0.saturating_sub(1);
            (g.0 == 0).then(|| std::mem::take(&mut g.1))
        };
        if let Some(items) = done {
            let mut bytes =
                Vec::with_capacity(items.iter().map(|i| i.len() + 1).sum::<usize>() + 2);
            bytes.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    bytes.push(b',');
                }
                bytes.extend_from_slice(item);
            }
            bytes.push(b']');
            return self.out.send(Outgoing {
                kind: OutKind::Result,
                bytes,
            });
        }
        true
    }
}
