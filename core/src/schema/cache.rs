//! A bounded, thread-safe cache of compiled schemas keyed by canonical content.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use serde_json::Value;

use super::check_object_shape;
use super::compile::CompiledSchema;
use super::compile::{build, canonical_hash, check_bounds};
use super::error::SchemaError;
use super::limits::DEFAULT_CACHE_CAPACITY;

/// Compiled schemas shared by content; cloning shares the same cache.
///
/// Bounded by entry count: when full, the least recently used entry is evicted. Failed compilations
/// are not cached. Two threads missing on the same schema at once may both compile it; one result wins.
#[derive(Clone)]
pub struct SchemaCache {
    inner: Arc<Mutex<Inner>>,
}

struct Inner {
    capacity: usize,
    tick: u64,
    entries: HashMap<[u8; 32], Entry>,
}

struct Entry {
    schema: Arc<CompiledSchema>,
    last_used: u64,
}

impl Default for SchemaCache {
    fn default() -> Self {
        SchemaCache::new(DEFAULT_CACHE_CAPACITY)
    }
}

impl std::fmt::Debug for SchemaCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let inner = self.inner.lock();
        f.debug_struct("SchemaCache")
            .field("capacity", &inner.capacity)
            .field("len", &inner.entries.len())
            .finish()
    }
}

impl SchemaCache {
    /// A cache holding at most `capacity` compiled schemas (at least one).
    pub fn new(capacity: usize) -> Self {
        let capacity = capacity.max(1);
        SchemaCache {
            inner: Arc::new(Mutex::new(Inner {
                capacity,
                tick: 0,
                entries: HashMap::with_capacity(capacity.min(1024)),
            })),
        }
    }

    /// Compiles `schema`, or returns the compiled schema already cached for equal content.
    pub fn compile(&self, schema: &Value) -> Result<Arc<CompiledSchema>, SchemaError> {
        // Bounds first: hashing recurses, and must not run on a hostile document.
        check_bounds(schema)?;
        let key = canonical_hash(schema);
        if let Some(hit) = self.lookup(&key) {
            return Ok(hit);
        }
        // Compile outside the lock so a slow schema does not stall other threads.
        let compiled = Arc::new(build(schema)?);
        Ok(self.insert(key, compiled))
    }

    /// [`check_tool_input_schema`](super::check_tool_input_schema) that keeps the compiled schema.
    pub fn compile_tool_input_schema(
        &self,
        schema: &Value,
    ) -> Result<Arc<CompiledSchema>, SchemaError> {
        check_object_shape(schema)?;
        self.compile(schema)
    }

    /// Number of compiled schemas currently cached.
    pub fn len(&self) -> usize {
        self.inner.lock().entries.len()
    }

    /// Whether the cache holds no compiled schema.
    pub fn is_empty(&self) -> bool {
        self.inner.lock().entries.is_empty()
    }

    /// The most entries this cache keeps.
    pub fn capacity(&self) -> usize {
        self.inner.lock().capacity
    }

    /// Drops every cached schema (schemas handed out stay alive through their `Arc`).
    pub fn clear(&self) {
        self.inner.lock().entries.clear();
    }

    fn lookup(&self, key: &[u8; 32]) -> Option<Arc<CompiledSchema>> {
        let mut inner = self.inner.lock();
        inner.tick += 1;
        let tick = inner.tick;
        let entry = inner.entries.get_mut(key)?;
        entry.last_used = tick;
        Some(Arc::clone(&entry.schema))
    }

    fn insert(&self, key: [u8; 32], compiled: Arc<CompiledSchema>) -> Arc<CompiledSchema> {
        let mut inner = self.inner.lock();
        inner.tick += 1;
        let tick = inner.tick;
        if let Some(existing) = inner.entries.get_mut(&key) {
            // Another thread compiled the same content meanwhile; keep one copy.
            existing.last_used = tick;
            return Arc::clone(&existing.schema);
        }
        if inner.entries.len() >= inner.capacity {
            // A linear scan is fine at the capacities in use (hundreds) and compiling costs far more.
            let oldest = inner
                .entries
                .iter()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(k, _)| *k);
            if let Some(oldest) = oldest {
                inner.entries.remove(&oldest);
            }
        }
        inner.entries.insert(
            key,
            Entry {
                schema: Arc::clone(&compiled),
                last_used: tick,
            },
        );
        compiled
    }
}
