//! [`RedisTaskStore`]: task records as JSON strings expiring with their TTL, and a sorted set of ids
//! by creation time for `tasks/list` and the bound on how many are kept.

use std::fmt;

use redis::Script;

use super::RedisStore;
use crate::server::tasks::{TaskFuture, TaskRecord, TaskStore, TaskStoreError};

/// Creates task KEYS[1] (ARGV[1], TTL ARGV[2] ms) and indexes it in KEYS[2] by creation time
/// (ARGV[3]) under id ARGV[4], unless the index holds ARGV[5] ids already (returns 0). Ids created
/// more than ARGV[6] ms ago (the longest TTL) are dropped from the index first.
const CREATE: &str = r"
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[6])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1
";

/// Tasks in Redis under `<prefix>task:<id>`, indexed in `<prefix>tasks`. A record expires with its
/// own TTL, or after [`max_task_ttl`](super::RedisOptions::max_task_ttl) when it has none (and
/// never later); at most [`max_tasks`](super::RedisOptions::max_tasks) are kept.
pub struct RedisTaskStore {
    redis: RedisStore,
    create: Script,
}

impl RedisTaskStore {
    /// A task store on `redis`.
    pub fn new(redis: RedisStore) -> RedisTaskStore {
        RedisTaskStore {
            redis,
            create: Script::new(CREATE),
        }
    }

    fn index(&self) -> String {
        format!("{}tasks", self.redis.options().prefix)
    }

    /// Milliseconds `r` still has to live (at least 1), capped by the longest TTL.
    fn remaining_ms(&self, r: &TaskRecord, now: u64) -> u64 {
        let max = u64::try_from(self.redis.options().max_task_ttl.as_millis()).unwrap_or(u64::MAX);
        let left = r.expires_ms().map_or(max, |e| e.saturating_sub(now));
        left.min(max.saturating_sub(now.saturating_sub(r.created_ms)))
            .max(1)
    }

    /// Drops from the index the ids whose records are gone.
    async fn prune(&self) -> Result<(), TaskStoreError> {
        self.list_all().await.map(drop)
    }

    async fn list_all(&self) -> Result<Vec<TaskRecord>, TaskStoreError> {
        let mut conn = self.redis.conn();
        let ids: Vec<String> = redis::cmd("ZRANGE")
            .arg(self.index())
            .arg(0)
            .arg(-1)
            .query_async(&mut conn)
            .await
            .map_err(down)?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = ids.iter().map(|id| self.redis.key("task", id)).collect();
        let raw: Vec<Option<Vec<u8>>> = redis::cmd("MGET")
            .arg(&keys)
            .query_async(&mut conn)
            .await
            .map_err(down)?;
        let now = super::now_ms();
        let mut out = Vec::new();
        let mut gone = Vec::new();
        for (id, r) in ids.iter().zip(raw) {
            match r.map(|b| TaskRecord::from_json(&b)).transpose()? {
                Some(r) if !r.is_expired(now) => out.push(r),
                _ => gone.push(id.clone()),
            }
        }
        if !gone.is_empty() {
            redis::cmd("ZREM")
                .arg(self.index())
                .arg(&gone)
                .query_async::<i64>(&mut conn)
                .await
                .map_err(down)?;
        }
        out.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        Ok(out)
    }

    async fn try_create(&self, record: &TaskRecord, now: u64) -> Result<bool, TaskStoreError> {
        let o = self.redis.options();
        let oldest = now.saturating_sub(u64::try_from(o.max_task_ttl.as_millis()).unwrap_or(0));
        let created: i64 = self
            .create
            .key(self.redis.key("task", &record.id))
            .key(self.index())
            .arg(record.to_json())
            .arg(self.remaining_ms(record, now))
            .arg(record.created_ms)
            .arg(&record.id)
            .arg(o.max_tasks)
            .arg(oldest)
            .invoke_async(&mut self.redis.conn())
            .await
            .map_err(down)?;
        Ok(created == 1)
    }
}

impl fmt::Debug for RedisTaskStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisTaskStore").finish_non_exhaustive()
    }
}

fn down(e: redis::RedisError) -> TaskStoreError {
    TaskStoreError::Backend(format!("Redis: {e}"))
}

impl TaskStore for RedisTaskStore {
    fn create(&self, record: TaskRecord) -> TaskFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(async move {
            let now = super::now_ms();
            if self.try_create(&record, now).await? {
                return Ok(());
            }
            // Full by the index: drop the ids of expired records, then look again.
            self.prune().await?;
            if self.try_create(&record, now).await? {
                Ok(())
            } else {
                Err(TaskStoreError::Full(self.redis.options().max_tasks))
            }
        })
    }

    fn put(&self, record: TaskRecord) -> TaskFuture<'_, Result<(), TaskStoreError>> {
        Box::pin(async move {
            let now = super::now_ms();
            if record.is_expired(now) {
                return Ok(());
            }
            // XX: a record that expired meanwhile stays gone.
            redis::cmd("SET")
                .arg(self.redis.key("task", &record.id))
                .arg(record.to_json())
                .arg("PX")
                .arg(self.remaining_ms(&record, now))
                .arg("XX")
                .query_async::<Option<String>>(&mut self.redis.conn())
                .await
                .map(drop)
                .map_err(down)
        })
    }

    fn get<'a>(
        &'a self,
        id: &'a str,
    ) -> TaskFuture<'a, Result<Option<TaskRecord>, TaskStoreError>> {
        Box::pin(async move {
            let raw: Option<Vec<u8>> = redis::cmd("GET")
                .arg(self.redis.key("task", id))
                .query_async(&mut self.redis.conn())
                .await
                .map_err(down)?;
            let now = super::now_ms();
            Ok(raw
                .map(|b| TaskRecord::from_json(&b))
                .transpose()?
                .filter(|r| !r.is_expired(now)))
        })
    }

    fn list(&self) -> TaskFuture<'_, Result<Vec<TaskRecord>, TaskStoreError>> {
        Box::pin(self.list_all())
    }
}
