//! Change notifications across instances over Redis pub/sub: every change a server announces
//! (`notifications/*/list_changed`, `notifications/resources/updated`) is published on
//! `<prefix>changes`, and every other instance announces it to its own listening clients.

use std::sync::Arc;

use super::{RedisStore, RedisStoreError, pubsub};
use crate::server::{Change, Server};

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

/// Publishes `server`'s changes and announces the other instances' ones to its clients. Returns
/// once subscribed, or at once when Redis cannot be reached (logged; it subscribes when Redis
/// answers); then follows the channel (re-subscribing after Redis comes back) while the server
/// lives. Changes announced while Redis is down are not passed on (logged).
pub(super) async fn join(redis: RedisStore, server: &Server) -> Result<(), RedisStoreError> {
    let channel = format!("{}changes", redis.options().prefix);
    let origin: Arc<str> = instance_id()?.into();
    let first = pubsub::subscribe_or_later(&redis, &channel, "list changes").await?;

    let runtime = tokio::runtime::Handle::current();
    let (publisher, ch, me) = (redis.clone(), channel.clone(), origin.clone());
    server.on_change(Arc::new(move |change: &Change| {
        pubsub::publish(&runtime, &publisher, &ch, encode(&me, change).into_bytes());
    }));

    let weak = server.downgrade();
    let alive = weak.clone();
    tokio::spawn(pubsub::follow(
        redis,
        channel,
        first,
        move || alive.upgrade().is_some(),
        move |payload| {
            let Some(server) = weak.upgrade() else {
                return false;
            };
            match std::str::from_utf8(payload).ok().and_then(decode) {
                Some((from, change)) if from != &*origin => server.notify_local(change),
                Some(_) => {}
                None => tracing::warn!("Redis fan-out: ignoring an unreadable message"),
            }
            true
        },
    ));
    Ok(())
}

/// 64 random bits in hex: which instance published a message.
pub(super) fn instance_id() -> Result<String, RedisStoreError> {
    let mut raw = [0u8; 8];
    getrandom::fill(&mut raw).map_err(|e| RedisStoreError::Unavailable(e.to_string()))?;
    Ok(raw.iter().map(|b| format!("{b:02x}")).collect())
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
