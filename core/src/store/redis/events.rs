//! [`RedisEventStore`]: the SSE event log of each legacy session as a Redis list with a hash of
//! per-stream marks, bounded per session, expiring after the idle timeout, replayable by any instance
//! (the shared half of a [`LocalCopyEventStore`]).

use std::fmt;
use std::time::Duration;

use bytes::Bytes;
use redis::Script;
use tokio::sync::mpsc;

use super::{RedisStore, ttl_ms};
use crate::transport::OutKind;
use crate::transport::http::{
    EventStore, LocalCopyEventStore, MemoryEventStore, ReplayError, SharedEventLog, StoreFuture,
    StoredEvent,
};

/// Appends one entry (ARGV[3], which starts `<stream>:<seq>:`) to the log KEYS[1] and updates the
/// marks in KEYS[2]: `l<stream>` the last seq, `e<stream>` the highest seq dropped (or skipped: a
/// gap left by an append that never arrived reads as dropped, never as silently missing), `b` the
/// bytes kept, `f` the highest stream all of whose events were dropped. Then drops the oldest
/// entries beyond ARGV[4] entries or ARGV[5] bytes, and sets both TTLs to ARGV[6] ms.
const APPEND: &str = r"
local stream, seq = ARGV[1], tonumber(ARGV[2])
local last = tonumber(redis.call('HGET', KEYS[2], 'l' .. stream) or '0')
if seq ~= last + 1 then
  redis.call('HSET', KEYS[2], 'e' .. stream, seq - 1)
end
redis.call('RPUSH', KEYS[1], ARGV[3])
redis.call('HSET', KEYS[2], 'l' .. stream, seq)
local bytes = redis.call('HINCRBY', KEYS[2], 'b', #ARGV[3])
local n = redis.call('LLEN', KEYS[1])
while n > tonumber(ARGV[4]) or (bytes > tonumber(ARGV[5]) and n > 1) do
  local old = redis.call('LPOP', KEYS[1])
  bytes = redis.call('HINCRBY', KEYS[2], 'b', -#old)
  n = n - 1
  local s, q = string.match(old, '^(%d+):(%d+):')
  if redis.call('HGET', KEYS[2], 'l' .. s) == q then
    redis.call('HDEL', KEYS[2], 'l' .. s, 'e' .. s)
    local f = redis.call('HGET', KEYS[2], 'f')
    if not f or tonumber(s) > tonumber(f) then
      redis.call('HSET', KEYS[2], 'f', s)
    end
  else
    redis.call('HSET', KEYS[2], 'e' .. s, q)
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return n
";

/// The marks of stream ARGV[1] (`l`, `e`, `f`, empty when absent), then its entries (those of the
/// log KEYS[1] starting with ARGV[2], `<stream>:`), read atomically.
const REPLAY: &str = r"
local l = redis.call('HGET', KEYS[2], 'l' .. ARGV[1])
local out = {l or '', redis.call('HGET', KEYS[2], 'e' .. ARGV[1]) or '',
  redis.call('HGET', KEYS[2], 'f') or ''}
if l then
  for _, v in ipairs(redis.call('LRANGE', KEYS[1], 0, -1)) do
    if string.sub(v, 1, #ARGV[2]) == ARGV[2] then
      table.insert(out, v)
    end
  end
end
return out
";

/// Appends waiting for the writer at most; beyond that an event is not recorded in Redis (logged,
/// and the gap it leaves makes a resumption across it a clear 410 instead of a silent loss).
const QUEUE: usize = 65_536;

/// How many times, 20 ms apart, a replay looks again when it names an event not yet in Redis, or
/// when the stream has not ended and the last two reads differ: the instance that sent the events
/// records them asynchronously, in order, and may be a moment behind.
const CATCH_UP_TRIES: u32 = 10;

enum Op {
    Append(String, StoredEvent),
    Remove(String),
}

/// SSE event logs in Redis under `<prefix>events:<session>` (a list) and
/// `<prefix>eventmarks:<session>` (a hash).
///
/// A [`LocalCopyEventStore`] over Redis: [`append`](EventStore::append) must not block, so it
/// records the event in the local copy (which serves resumptions of streams still open on this
/// instance) and queues it for a background writer that appends it to Redis in order.
/// Resumptions of other streams ([`replay_shared`](EventStore::replay_shared)) read Redis. Per
/// session at most [`max_events_per_session`](super::RedisOptions::max_events_per_session) events
/// and [`max_event_bytes_per_session`](super::RedisOptions::max_event_bytes_per_session) bytes are
/// kept, in Redis and in the local copy (the oldest are dropped first, and a resumption before
/// them gets 410); both keys expire after the idle timeout without a new event, and the local
/// copy of a session is dropped a little later.
pub struct RedisEventStore(LocalCopyEventStore<RedisEventLog>);

impl RedisEventStore {
    /// A store whose logs expire `idle` (plus refresh slack) after their last event. Spawns the
    /// writer on the current tokio runtime; it ends when the store is dropped.
    pub fn new(redis: RedisStore, idle: Duration) -> RedisEventStore {
        let (queue, rx) = mpsc::channel(QUEUE);
        let o = redis.options();
        let local = MemoryEventStore::new(o.max_events_per_session, o.max_event_bytes_per_session);
        tokio::spawn(write(redis.clone(), ttl_ms(idle), rx));
        let log = RedisEventLog {
            redis,
            queue,
            replay: Script::new(REPLAY),
        };
        RedisEventStore(LocalCopyEventStore::new(log, local).forget_idle_after(idle + idle / 8))
    }
}

/// The shared half of a [`RedisEventStore`]: the writer's queue and the replay script.
struct RedisEventLog {
    redis: RedisStore,
    queue: mpsc::Sender<Op>,
    replay: Script,
}

impl RedisEventLog {
    fn enqueue(&self, op: Op) {
        if self.queue.try_send(op).is_err() {
            tracing::error!("Redis event store: the write queue is full; an event is not shared");
        }
    }

    async fn replay_once(
        &self,
        session: &str,
        stream: u64,
        after: u64,
    ) -> Result<Vec<StoredEvent>, ReplayError> {
        let (log, marks) = keys(&self.redis, session);
        let raw: Vec<Vec<u8>> = self
            .replay
            .key(log)
            .key(marks)
            .arg(stream)
            .arg(format!("{stream}:"))
            .invoke_async(&mut self.redis.conn())
            .await
            .map_err(|e| {
                tracing::warn!("Redis event store: replay failed: {e}");
                ReplayError::Unavailable
            })?;
        let num = |b: &[u8]| {
            std::str::from_utf8(b)
                .ok()
                .and_then(|s| s.parse::<u64>().ok())
        };
        let (last, evicted, forgotten) = match raw.get(..3) {
            Some([l, e, f]) => (num(l), num(e).unwrap_or(0), num(f)),
            _ => return Err(ReplayError::Unavailable),
        };
        let Some(last) = last else {
            return match (forgotten.is_some_and(|f| stream <= f), after) {
                (true, _) => Err(ReplayError::Evicted),
                (false, 0) => Ok(Vec::new()),
                (false, _) => Err(ReplayError::Unknown),
            };
        };
        if after > last {
            return Err(ReplayError::Unknown);
        }
        if after < evicted {
            return Err(ReplayError::Evicted);
        }
        Ok(raw[3..]
            .iter()
            .filter_map(|e| decode(e))
            .filter(|e| e.stream == stream && e.seq > after)
            .collect())
    }
}

impl fmt::Debug for RedisEventStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisEventStore")
            .field("local", self.0.local())
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for RedisEventLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisEventLog").finish_non_exhaustive()
    }
}

fn keys(redis: &RedisStore, session: &str) -> (String, String) {
    (
        redis.key("events", session),
        redis.key("eventmarks", session),
    )
}

/// `<stream>:<seq>:<kind>:<data>`, kind `r` (result), `n`, `q` (request) or `e<code>`.
fn encode(e: &StoredEvent) -> Vec<u8> {
    let kind = match e.kind {
        OutKind::Result => "r".to_owned(),
        OutKind::Notification => "n".to_owned(),
        OutKind::Request => "q".to_owned(),
        OutKind::Error(code) => format!("e{code}"),
    };
    let mut out = format!("{}:{}:{kind}:", e.stream, e.seq).into_bytes();
    out.extend_from_slice(&e.data);
    out
}

fn decode(raw: &[u8]) -> Option<StoredEvent> {
    let mut parts = raw.splitn(4, |b| *b == b':');
    fn field(p: Option<&[u8]>) -> Option<&str> {
        std::str::from_utf8(p?).ok()
    }
    let stream = field(parts.next())?.parse().ok()?;
    let seq = field(parts.next())?.parse().ok()?;
    let kind = match field(parts.next())? {
        "r" => OutKind::Result,
        "n" => OutKind::Notification,
        "q" => OutKind::Request,
        k => OutKind::Error(k.strip_prefix('e')?.parse().ok()?),
    };
    Some(StoredEvent {
        stream,
        seq,
        kind,
        data: Bytes::copy_from_slice(parts.next()?),
    })
}

/// The background writer: applies queued operations to Redis in order until the store is dropped.
async fn write(redis: RedisStore, ttl_ms: u64, mut rx: mpsc::Receiver<Op>) {
    let append = Script::new(APPEND);
    let o = redis.options().clone();
    while let Some(op) = rx.recv().await {
        let mut conn = redis.conn();
        let result = match op {
            Op::Append(session, event) => {
                let (log, marks) = keys(&redis, &session);
                append
                    .key(log)
                    .key(marks)
                    .arg(event.stream)
                    .arg(event.seq)
                    .arg(encode(&event))
                    .arg(o.max_events_per_session)
                    .arg(o.max_event_bytes_per_session)
                    .arg(ttl_ms)
                    .invoke_async::<i64>(&mut conn)
                    .await
                    .map(drop)
            }
            Op::Remove(session) => {
                let (log, marks) = keys(&redis, &session);
                redis::cmd("DEL")
                    .arg(log)
                    .arg(marks)
                    .query_async::<i64>(&mut conn)
                    .await
                    .map(drop)
            }
        };
        if let Err(e) = result {
            tracing::warn!("Redis event store: a write failed (not shared): {e}");
        }
    }
}

impl SharedEventLog for RedisEventLog {
    fn append(&self, session: &str, event: &StoredEvent) {
        self.enqueue(Op::Append(session.to_owned(), event.clone()));
    }

    fn replay<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        after: u64,
    ) -> StoreFuture<'a, Result<Vec<StoredEvent>, ReplayError>> {
        Box::pin(async move {
            let mut tries = 0;
            let mut previous: Option<Vec<StoredEvent>> = None;
            loop {
                let r = self.replay_once(session, stream, after).await;
                let settled = match &r {
                    Err(ReplayError::Unknown) => false,
                    Err(_) => true,
                    // A stream that has not ended yet may have events on their way from the
                    // instance that sent them: read until two reads agree.
                    Ok(v) => {
                        v.last()
                            .is_some_and(|e| matches!(e.kind, OutKind::Result | OutKind::Error(_)))
                            || previous.as_ref() == Some(v)
                    }
                };
                if settled || tries >= CATCH_UP_TRIES {
                    return r;
                }
                previous = r.ok();
                tries += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
    }

    fn remove_session(&self, session: &str) {
        self.enqueue(Op::Remove(session.to_owned()));
    }
}

impl EventStore for RedisEventStore {
    fn append(&self, session: &str, event: StoredEvent) {
        self.0.append(session, event);
    }

    fn replay(
        &self,
        session: &str,
        stream: u64,
        after: u64,
    ) -> Result<Vec<StoredEvent>, ReplayError> {
        self.0.replay(session, stream, after)
    }

    fn replay_shared<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        after: u64,
    ) -> StoreFuture<'a, Result<Vec<StoredEvent>, ReplayError>> {
        self.0.replay_shared(session, stream, after)
    }

    fn remove_session(&self, session: &str) {
        self.0.remove_session(session);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_garbage_is_skipped() {
        for kind in [
            OutKind::Result,
            OutKind::Notification,
            OutKind::Request,
            OutKind::Error(-32603),
        ] {
            let e = StoredEvent {
                stream: 1 << 40,
                seq: 7,
                kind,
                data: Bytes::from_static(b"{\"a\":\"b:c\"}"),
            };
            assert_eq!(decode(&encode(&e)), Some(e));
        }
        assert_eq!(decode(b"1:2"), None);
        assert_eq!(decode(b"1:x:n:{}"), None);
        assert_eq!(decode(b"1:2:z:{}"), None);
    }
}
