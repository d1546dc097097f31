//! Compiled schemas: dialect choice, resource bounds, and the canonical content hash the cache is
//! keyed by.

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::compiler;
use super::dialect::Dialect;
use super::error::SchemaError;
use super::eval::Eval;
use super::limits::{MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES};
use super::program::Program;
use super::report::ValidationErrors;

/// A schema compiled once, ready to validate many instances; share it through `Arc`.
pub struct CompiledSchema {
    program: Program,
    dialect: Dialect,
}

impl std::fmt::Debug for CompiledSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledSchema")
            .field("dialect", &self.dialect)
            .finish_non_exhaustive()
    }
}

impl CompiledSchema {
    /// Compiles `schema` without caching (prefer [`SchemaCache::compile`](super::SchemaCache::compile) on hot paths).
    pub fn new(schema: &Value) -> Result<CompiledSchema, SchemaError> {
        check_bounds(schema)?;
        build(schema)
    }

    /// The dialect the schema is validated under.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Whether `instance` satisfies the schema (faster than [`validate`](Self::validate) on failure).
    pub fn is_valid(&self, instance: &Value) -> bool {
        Eval::is_valid(&self.program, instance)
    }

    /// Validates `instance`, listing what is wrong and where when it does not conform.
    pub fn validate(&self, instance: &Value) -> Result<(), ValidationErrors> {
        if self.is_valid(instance) {
            return Ok(());
        }
        Err(ValidationErrors::from_entries(Eval::errors(
            &self.program,
            instance,
        )))
    }
}

/// Rejects schemas that are too deep or too large, before anything recursive touches them.
///
/// The walk is iterative so a hostile, programmatically built `Value` cannot overflow the stack here.
pub(super) fn check_bounds(schema: &Value) -> Result<(), SchemaError> {
    let mut stack: Vec<(&Value, usize)> = vec![(schema, 1)];
    let mut nodes = 0usize;
    while let Some((value, depth)) = stack.pop() {
        nodes += 1;
        if nodes > MAX_SCHEMA_NODES {
            return Err(SchemaError::TooComplex(format!(
                "more than {MAX_SCHEMA_NODES} JSON values in the schema document"
            )));
        }
        if depth > MAX_SCHEMA_DEPTH {
            return Err(SchemaError::TooComplex(format!(
                "nested deeper than {MAX_SCHEMA_DEPTH} levels"
            )));
        }
        match value {
            Value::Object(map) => stack.extend(map.values().map(|v| (v, depth + 1))),
            Value::Array(items) => stack.extend(items.iter().map(|v| (v, depth + 1))),
            _ => {}
        }
    }
    Ok(())
}

/// SHA-256 of a canonical encoding: object keys sorted, strings length-prefixed, so equal schemas
/// hash equally whatever their key order. Call only after [`check_bounds`] (it recurses).
pub(super) fn canonical_hash(schema: &Value) -> [u8; 32] {
    let mut hasher = Sha256::new();
    feed(&mut hasher, schema);
    hasher.finalize().into()
}

fn feed(h: &mut Sha256, value: &Value) {
    match value {
        Value::Null => h.update(b"z"),
        Value::Bool(true) => h.update(b"t"),
        Value::Bool(false) => h.update(b"f"),
        Value::Number(n) => {
            h.update(b"n");
            h.update(n.to_string().as_bytes());
            h.update(b";");
        }
        Value::String(s) => feed_str(h, s),
        Value::Array(items) => {
            h.update(b"[");
            for item in items {
                feed(h, item);
            }
            h.update(b"]");
        }
        Value::Object(map) => {
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
            h.update(b"{");
            for (key, item) in entries {
                feed_str(h, key);
                feed(h, item);
            }
            h.update(b"}");
        }
    }
}

fn feed_str(h: &mut Sha256, s: &str) {
    h.update(b"s");
    h.update((s.len() as u64).to_le_bytes());
    h.update(s.as_bytes());
}

/// Compiles a schema that already passed [`check_bounds`].
pub(super) fn build(schema: &Value) -> Result<CompiledSchema, SchemaError> {
    let dialect = Dialect::of(schema)?;
    let program = compiler::compile(schema, dialect)?;
    Ok(CompiledSchema { program, dialect })
}
