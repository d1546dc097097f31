//! Change notifications across instances over Redis pub/sub: every change a server announces
//! (`notifications/*/list_changed`, `notifications/resources/updated`) is published on
//! `<prefix>changes`, and every other instance announces it to its own listening clients.

use std::future::poll_fn;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use futures_core::Stream;

use super::{RedisStore, RedisStoreError, unavailable};
use crate::server::{Change, Server, WeakServer};

/// `<origin>\n<kind>\n<uri>`: the instance that announced it, then the change.
fn encode(origin: &str, change: &Change) -> String {
    let (kind, uri) = match change {
        Change::Tools => ("tools", ""),
        Change::Prompts => ("prompts", ""),
        Change::Resources => ("resources", ""),
        Change::ResourceUpdated(uri) => ("resourceUpdated", uri.as_str()),
    };
    format!("{origin}\n{kind}\n{uri}")
}

fn decode(msg: &str) -> Option<(&str, Change)> {
    let mut parts = msg.splitn(3, '\n');
    let origin = parts.next()?;
    let change = match (parts.next()?, parts.next()?) {
        ("tools", _) => Change::Tools,
        ("prompts", _) => Change::Prompts,
        ("resources", _) => Change::Resources,
        ("resourceUpdated", uri) => Change::ResourceUpdated(uri.to_owned()),
        _ => return None,
    };
    Some((origin, change))
}

type Messages = Pin<Box<redis::aio::PubSubStream>>;

async fn subscribe(redis: &RedisStore, channel: &str) -> Result<Messages, RedisStoreError> {
    let mut pubsub = redis.client.get_async_pubsub().await.map_err(unavailable)?;
    pubsub.subscribe(channel).await.map_err(unavailable)?;
    Ok(Box::pin(pubsub.into_on_message()))
}

/// Publishes `server`'s changes and announces the other instances' ones to its clients. Returns
/// once subscribed; then follows the channel (re-subscribing after Redis comes back) while the
/// server lives. Changes announced while Redis is down are not passed on (logged).
pub(super) async fn join(redis: RedisStore, server: &Server) -> Result<(), RedisStoreError> {
    let channel = format!("{}changes", redis.options().prefix);
    let mut raw = [0u8; 8];
    getrandom::fill(&mut raw).map_err(|e| RedisStoreError::Unavailable(e.to_string()))?;
    let origin: Arc<str> = raw
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<String>()
        .into();
    let first = subscribe(&redis, &channel).await?;

    let runtime = tokio::runtime::Handle::current();
    let (publisher, ch, me) = (redis.clone(), channel.clone(), origin.clone());
    server.on_change(Arc::new(move |change: &Change| {
        let (mut conn, ch, msg) = (publisher.conn(), ch.clone(), encode(&me, change));
        runtime.spawn(async move {
            let sent = redis::cmd("PUBLISH")
                .arg(&ch)
                .arg(msg)
                .query_async::<i64>(&mut conn)
                .await;
            if let Err(e) = sent {
                tracing::warn!("Redis fan-out: a change was not passed on: {e}");
            }
        });
    }));

    let weak = server.downgrade();
    tokio::spawn(follow(redis, channel, origin, weak, first));
    Ok(())
}

async fn follow(
    redis: RedisStore,
    channel: String,
    origin: Arc<str>,
    server: WeakServer,
    first: Messages,
) {
    let mut messages = Some(first);
    loop {
        let Some(mut stream) = messages.take() else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if server.upgrade().is_none() {
                return;
            }
            match subscribe(&redis, &channel).await {
                Ok(s) => messages = Some(s),
                Err(e) => tracing::debug!("Redis fan-out: cannot subscribe yet: {e}"),
            }
            continue;
        };
        while let Some(msg) = poll_fn(|cx| stream.as_mut().poll_next(cx)).await {
            let Some(server) = server.upgrade() else {
                return;
            };
            let text = String::from_utf8_lossy(msg.get_payload_bytes()).into_owned();
            match decode(&text) {
                Some((from, change)) if from != &*origin => server.notify_local(change),
                Some(_) => {}
                None => tracing::warn!("Redis fan-out: ignoring an unreadable message"),
            }
        }
        tracing::warn!("Redis fan-out: the subscription ended; subscribing again");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_round_trip() {
        for c in [
            Change::Tools,
            Change::Prompts,
            Change::Resources,
            Change::ResourceUpdated("file:///a\nb".into()),
        ] {
            assert_eq!(decode(&encode("me", &c)), Some(("me", c.clone())));
        }
        assert_eq!(decode("me\nnothing\n"), None);
    }
}
