//! The `requestState` key ring shared in Redis: one hash `<prefix>statekeys` holding the current key,
//! the one it replaced and when, rotated by whichever instance first finds it due.

use std::sync::Weak;
use std::time::{Duration, UNIX_EPOCH};

use parking_lot::RwLock;
use redis::Script;

use super::{RedisStore, RedisStoreError, now_ms, unavailable};
use crate::request_state::{KeyRing, StateSealer};

/// Creates the ring with key ARGV[1] at time ARGV[2] when there is none, or rotates it to ARGV[1]
/// when its key is at least ARGV[3] ms old; returns the current key, the previous one and when the
/// current one was set.
const ROTATE: &str = r"
local cur = redis.call('HGET', KEYS[1], 'cur')
local at = tonumber(redis.call('HGET', KEYS[1], 'at') or '0')
if not cur then
  redis.call('HSET', KEYS[1], 'cur', ARGV[1], 'at', ARGV[2])
elseif tonumber(ARGV[2]) - at >= tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], 'prev', cur, 'cur', ARGV[1], 'at', ARGV[2])
end
return redis.call('HMGET', KEYS[1], 'cur', 'prev', 'at')
";

/// One look at the ring: rotates it if due, and sets `sealer`'s keys to what Redis holds.
async fn sync(
    redis: &RedisStore,
    script: &Script,
    sealer: &StateSealer,
) -> Result<(), RedisStoreError> {
    let o = redis.options();
    let mut fresh = [0u8; 32];
    getrandom::fill(&mut fresh).map_err(|e| RedisStoreError::Unavailable(e.to_string()))?;
    let (cur, prev, at): (Option<Vec<u8>>, Option<Vec<u8>>, Option<u64>) = script
        .key(format!("{}statekeys", o.prefix))
        .arg(&fresh[..])
        .arg(now_ms())
        .arg(u64::try_from(o.key_rotation.as_millis()).unwrap_or(u64::MAX))
        .invoke_async(&mut redis.conn())
        .await
        .map_err(unavailable)?;
    let key = |k: Option<Vec<u8>>| -> Result<Option<[u8; 32]>, RedisStoreError> {
        k.map(|k| {
            <[u8; 32]>::try_from(k.as_slice())
                .map_err(|_| RedisStoreError::Corrupt("a requestState key is not 32 bytes".into()))
        })
        .transpose()
    };
    let Some(current) = key(cur)? else {
        return Err(RedisStoreError::Corrupt(
            "the requestState key ring has no key".into(),
        ));
    };
    let until = UNIX_EPOCH + Duration::from_millis(at.unwrap_or(0)) + o.key_grace;
    sealer.set_keys(current, key(prev)?.map(|p| (p, until)));
    Ok(())
}

/// How often a sealer still awaiting the ring looks for it.
const AWAIT_RING: Duration = Duration::from_secs(1);

/// A sealer on the shared ring, and a task that looks at the ring again a few times per rotation
/// period (and per grace period) for as long as the sealer lives. When Redis cannot be reached now,
/// the sealer [awaits its keys](StateSealer::awaiting_keys) (requests that must seal or open a
/// `requestState` are refused meanwhile) and the task looks every second until Redis answers. Only
/// a ring that Redis holds but that is unreadable is an error.
pub(super) async fn follow(redis: RedisStore) -> Result<StateSealer, RedisStoreError> {
    let script = Script::new(ROTATE);
    let sealer = StateSealer::awaiting_keys();
    match sync(&redis, &script, &sealer).await {
        Ok(()) => {}
        Err(e @ RedisStoreError::Unavailable(_)) => tracing::warn!(
            "requestState keys: {e}; requests that must seal or open a requestState are refused until Redis answers"
        ),
        Err(e) => return Err(e),
    }
    let o = redis.options();
    let every = (o.key_rotation.min(o.key_grace) / 4)
        .clamp(Duration::from_millis(100), Duration::from_secs(60));
    let ring: Weak<RwLock<KeyRing>> = sealer.ring_weak();
    tokio::spawn(async move {
        loop {
            let waiting = StateSealer::from_ring(&ring).is_some_and(|s| !s.is_ready());
            tokio::time::sleep(if waiting {
                AWAIT_RING.min(every)
            } else {
                every
            })
            .await;
            let Some(sealer) = StateSealer::from_ring(&ring) else {
                return;
            };
            match sync(&redis, &script, &sealer).await {
                Ok(()) if waiting => tracing::info!("requestState keys: the shared ring is read"),
                Ok(()) => {}
                Err(_) if waiting => {}
                Err(e) => tracing::warn!("requestState keys: cannot follow the shared ring: {e}"),
            }
        }
    });
    Ok(sealer)
}
