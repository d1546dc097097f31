//! [`RedisRelay`]: the [`MessageRelay`] over Redis pub/sub, so that a client's answer to an
//! elicitation, sampling or roots request may reach any instance.

use std::fmt;
use std::sync::Arc;

use parking_lot::Mutex;

use super::pubsub::{self, Messages};
use super::{RedisStore, RedisStoreError};
use crate::transport::http::{Deliver, MessageRelay};

/// Forwards answers on `<prefix>answers` as `<session>\n<message>`; every instance that attached
/// gives each one to its session of that id, where a request waits for it (the others ignore it).
/// An answer forwarded while Redis is down is lost (logged), and the waiting request times out as
/// it would without an answer.
pub struct RedisRelay {
    redis: RedisStore,
    channel: String,
    runtime: tokio::runtime::Handle,
    /// The subscription made when the relay was created (`Some(None)`: Redis could not be reached
    /// then), taken when a server attaches.
    first: Mutex<Option<Option<Messages>>>,
}

impl RedisRelay {
    /// Subscribes (so that nothing forwarded from now on is missed) and returns the relay; when Redis
    /// cannot be reached, returns it at once and it subscribes once Redis answers.
    pub(super) async fn new(redis: RedisStore) -> Result<Arc<RedisRelay>, RedisStoreError> {
        let channel = format!("{}answers", redis.options().prefix);
        let first =
            pubsub::subscribe_or_later(&redis, &channel, "answers to server requests").await?;
        Ok(Arc::new(RedisRelay {
            redis,
            channel,
            runtime: tokio::runtime::Handle::current(),
            first: Mutex::new(Some(first)),
        }))
    }
}

impl fmt::Debug for RedisRelay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisRelay")
            .field("channel", &self.channel)
            .finish_non_exhaustive()
    }
}

impl MessageRelay for RedisRelay {
    fn forward(&self, session: &str, message: Vec<u8>) {
        let mut payload = Vec::with_capacity(session.len() + 1 + message.len());
        payload.extend_from_slice(session.as_bytes());
        payload.push(b'\n');
        payload.extend_from_slice(&message);
        pubsub::publish(&self.runtime, &self.redis, &self.channel, payload);
    }

    fn attach(&self, deliver: Deliver) {
        let first = self.first.lock().take();
        let Some(first) = first else {
            tracing::error!("Redis relay: attached twice; give each server its own relay");
            return;
        };
        self.runtime.spawn(pubsub::follow(
            self.redis.clone(),
            self.channel.clone(),
            first,
            || true,
            move |payload| {
                let Some(split) = payload.iter().position(|b| *b == b'\n') else {
                    return true;
                };
                match std::str::from_utf8(&payload[..split]) {
                    Ok(session) => deliver(session, &payload[split + 1..]),
                    Err(_) => true,
                }
            },
        ));
    }
}
