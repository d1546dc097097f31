//! Following one Redis pub/sub channel: subscribe, hand every message to a callback, and subscribe
//! again after the connection is lost, until the callback says to stop.

use std::future::poll_fn;
use std::pin::Pin;
use std::time::Duration;

use futures_core::Stream;

use super::{RedisStore, RedisStoreError, unavailable};

/// A subscription's messages.
pub(super) type Messages = Pin<Box<redis::aio::PubSubStream>>;

/// Subscribes to `channel` on a connection of its own, within the store's command timeout (a Redis
/// host that drops packets would otherwise hold the caller, a server being set up, indefinitely).
pub(super) async fn subscribe(
    redis: &RedisStore,
    channel: &str,
) -> Result<Messages, RedisStoreError> {
    let limit = redis.options().timeout;
    let subscribed = tokio::time::timeout(limit, async {
        let mut pubsub = redis.client.get_async_pubsub().await.map_err(unavailable)?;
        pubsub.subscribe(channel).await.map_err(unavailable)?;
        Ok(Box::pin(pubsub.into_on_message()) as Messages)
    })
    .await;
    subscribed.unwrap_or_else(|_| {
        Err(RedisStoreError::Unavailable(format!(
            "no answer to SUBSCRIBE {channel} within {limit:?}"
        )))
    })
}

/// Subscribes to `channel` now, or, when Redis cannot be reached, says so (naming `what` is not
/// shared meanwhile) and returns `None`: [`follow`] then subscribes once Redis answers.
pub(super) async fn subscribe_or_later(
    redis: &RedisStore,
    channel: &str,
    what: &str,
) -> Result<Option<Messages>, RedisStoreError> {
    match subscribe(redis, channel).await {
        Ok(m) => Ok(Some(m)),
        Err(e @ RedisStoreError::Unavailable(_)) => {
            tracing::warn!("{what} stay local to this instance until Redis answers: {e}");
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Hands every payload on `channel` to `on_message` (from `first`, then from new subscriptions
/// whenever one ends, or first of all when there is none yet) until it returns `false`; `alive` is
/// asked before each new subscription.
pub(super) async fn follow(
    redis: RedisStore,
    channel: String,
    first: Option<Messages>,
    alive: impl Fn() -> bool,
    mut on_message: impl FnMut(&[u8]) -> bool,
) {
    let mut messages = first;
    let mut lost = messages.is_none();
    loop {
        let Some(mut stream) = messages.take() else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if !alive() {
                return;
            }
            match subscribe(&redis, &channel).await {
                Ok(s) => {
                    if lost {
                        tracing::info!("Redis pub/sub: subscribed to {channel}");
                        lost = false;
                    }
                    messages = Some(s);
                }
                Err(e) => tracing::debug!("Redis pub/sub: cannot subscribe yet: {e}"),
            }
            continue;
        };
        while let Some(msg) = poll_fn(|cx| stream.as_mut().poll_next(cx)).await {
            if !on_message(msg.get_payload_bytes()) {
                return;
            }
        }
        tracing::warn!("Redis pub/sub: the subscription to {channel} ended; subscribing again");
        lost = true;
    }
}

/// Sends `payload` on `channel` in the background (a failure is logged: the message is lost).
pub(super) fn publish(
    runtime: &tokio::runtime::Handle,
    redis: &RedisStore,
    channel: &str,
    payload: Vec<u8>,
) {
    let (mut conn, channel) = (redis.conn(), channel.to_owned());
    runtime.spawn(async move {
        let sent = redis::cmd("PUBLISH")
            .arg(&channel)
            .arg(payload)
            .query_async::<i64>(&mut conn)
            .await;
        if let Err(e) = sent {
            tracing::warn!("Redis pub/sub: a message on {channel} was not sent: {e}");
        }
    });
}
