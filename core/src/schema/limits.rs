//! The bounds on schema documents and on the schema cache.

/// Deepest JSON nesting (objects and arrays, root = 1) accepted in a schema document.
pub const MAX_SCHEMA_DEPTH: usize = 64;
/// Most JSON values (objects, arrays and scalars together) accepted in one schema document.
pub const MAX_SCHEMA_NODES: usize = 10_000;
/// Backtracking steps allowed to one `pattern` / `patternProperties` regex match.
pub const REGEX_BACKTRACK_LIMIT: usize = 1_000_000;
/// Default number of compiled schemas kept by [`SchemaCache::default`](super::SchemaCache::default).
pub const DEFAULT_CACHE_CAPACITY: usize = 256;
