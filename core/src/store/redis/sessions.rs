//! [`RedisSessionStore`]: legacy session records as JSON strings, one key per session, expiring after
//! the idle timeout; changes are merged under compare-and-set so concurrent writers lose nothing.

use std::fmt;
use std::time::Duration;

use redis::Script;

use super::{RedisStore, ttl_ms};
use crate::transport::http::{SessionRecord, SessionStore, SessionStoreError, StoreFuture};

/// Replaces the value at KEYS[1] by ARGV[2] (with TTL ARGV[3] ms) only if it is still ARGV[1].
const COMPARE_AND_SET: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
";

/// How often an update re-reads and re-merges when other instances keep writing the same record
/// (after each lost race it waits a random moment, growing with the attempts, so that writers in
/// lock step cannot starve one another).
const MAX_ATTEMPTS: u32 = 32;

/// A random wait of up to 250 µs times 2^attempt (at most 64 ms).
async fn back_off(attempt: u32) {
    let mut raw = [0u8; 4];
    let _ = getrandom::fill(&mut raw);
    let cap = 250u64 << attempt.min(8);
    let micros = u64::from(u32::from_le_bytes(raw)) % cap;
    tokio::time::sleep(std::time::Duration::from_micros(micros)).await;
}

/// Legacy session records in Redis under `<prefix>session:<id>`.
///
/// [`update`](SessionStore::update) never loses a concurrent write: it reads the stored record,
/// merges this instance's change into it ([`SessionRecord::merge`]: the fields this instance changed
/// take its values, the others keep what another instance stored, subscriptions merge by URI) and
/// writes the result only if the record is still the one it read (a Lua compare-and-set), else
/// starts again. A record deleted meanwhile (DELETE, expiry) stays deleted.
pub struct RedisSessionStore {
    redis: RedisStore,
    ttl_ms: u64,
    cas: Script,
}

impl RedisSessionStore {
    /// Records expiring `idle` (plus refresh slack) after their last write.
    pub fn new(redis: RedisStore, idle: Duration) -> RedisSessionStore {
        RedisSessionStore {
            redis,
            ttl_ms: ttl_ms(idle),
            cas: Script::new(COMPARE_AND_SET),
        }
    }

    fn key(&self, id: &str) -> String {
        self.redis.key("session", id)
    }

    async fn get_raw(&self, id: &str) -> Result<Option<Vec<u8>>, SessionStoreError> {
        redis::cmd("GET")
            .arg(self.key(id))
            .query_async(&mut self.redis.conn())
            .await
            .map_err(down)
    }
}

impl fmt::Debug for RedisSessionStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisSessionStore")
            .field("ttl_ms", &self.ttl_ms)
            .finish_non_exhaustive()
    }
}

fn down(e: redis::RedisError) -> SessionStoreError {
    SessionStoreError::Unavailable(format!("Redis: {e}"))
}

impl SessionStore for RedisSessionStore {
    fn load<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Result<Option<SessionRecord>, SessionStoreError>> {
        Box::pin(async move {
            match self.get_raw(id).await? {
                Some(bytes) => SessionRecord::from_json(&bytes).map(Some),
                None => Ok(None),
            }
        })
    }

    fn save<'a>(
        &'a self,
        record: &'a SessionRecord,
    ) -> StoreFuture<'a, Result<(), SessionStoreError>> {
        Box::pin(async move {
            redis::cmd("SET")
                .arg(self.key(&record.id))
                .arg(record.to_json())
                .arg("PX")
                .arg(self.ttl_ms)
                .query_async::<()>(&mut self.redis.conn())
                .await
                .map_err(down)
        })
    }

    fn update<'a>(
        &'a self,
        base: &'a SessionRecord,
        record: &'a SessionRecord,
    ) -> StoreFuture<'a, Result<SessionRecord, SessionStoreError>> {
        Box::pin(async move {
            for attempt in 0..MAX_ATTEMPTS {
                if attempt > 0 {
                    back_off(attempt).await;
                }
                let Some(raw) = self.get_raw(&record.id).await? else {
                    // Deleted or expired meanwhile: not brought back.
                    return Ok(record.clone());
                };
                let stored = SessionRecord::from_json(&raw)?;
                let merged = stored.merge(base, record);
                let written: i64 = self
                    .cas
                    .key(self.key(&record.id))
                    .arg(&raw)
                    .arg(merged.to_json())
                    .arg(self.ttl_ms)
                    .invoke_async(&mut self.redis.conn())
                    .await
                    .map_err(down)?;
                if written == 1 {
                    return Ok(merged);
                }
            }
            Err(SessionStoreError::Unavailable(format!(
                "session {:?} kept changing under {MAX_ATTEMPTS} attempts to update it",
                record.id
            )))
        })
    }

    fn remove<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Result<bool, SessionStoreError>> {
        Box::pin(async move {
            let n: i64 = redis::cmd("DEL")
                .arg(self.key(id))
                .query_async(&mut self.redis.conn())
                .await
                .map_err(down)?;
            Ok(n > 0)
        })
    }
}
