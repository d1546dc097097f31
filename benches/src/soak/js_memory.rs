//! A Node server's own account of its memory, beside the RSS read from `/proc`: the soak gives every
//! server it starts `MCP_SOAK_MEMORY_DIR`, and a Node server that loads `benches/soak/node_memory.js`
//! writes `process.memoryUsage()` to `<dir>/<pid>.json` there once a second. How much of the RSS is
//! V8's heap and how much the rest (the addon's native allocations, code, stacks) is what tells a
//! growing heap from a native leak. Other servers write nothing and have no such reading.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The environment variable naming the directory.
pub const ENV: &str = "MCP_SOAK_MEMORY_DIR";

/// `process.memoryUsage()` of one Node process, KiB.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct JsMemory {
    /// `rss` as Node reads it.
    pub rss_kib: u64,
    /// `heapTotal`: V8's heap, reserved.
    pub heap_total_kib: u64,
    /// `heapUsed`: V8's heap, in use.
    pub heap_used_kib: u64,
    /// `external`: memory of C++ objects bound to JS objects (buffers among them).
    pub external_kib: u64,
    /// `arrayBuffers`: the part of `external` held by ArrayBuffers and Buffers.
    pub array_buffers_kib: u64,
}

/// The file as Node writes it (bytes).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Written {
    rss: u64,
    heap_total: u64,
    heap_used: u64,
    external: u64,
    array_buffers: u64,
}

/// Where the soak's servers write: `MCP_SOAK_MEMORY_DIR` when the soak was given one (a server
/// started elsewhere writes there too), else a directory of this run's own that
/// [`MemoryDir::drop`] removes.
pub struct MemoryDir {
    path: PathBuf,
    own: bool,
}

impl MemoryDir {
    /// The directory, created if it is this run's own.
    pub fn new() -> Result<Self, String> {
        if let Some(dir) = std::env::var_os(ENV) {
            return Ok(MemoryDir {
                path: dir.into(),
                own: false,
            });
        }
        let path = std::env::temp_dir().join(format!("mcp-soak-memory-{}", std::process::id()));
        std::fs::create_dir_all(&path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(MemoryDir { path, own: true })
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The latest reading of process `pid`, if it writes one.
    pub fn read(&self, pid: u32) -> Option<JsMemory> {
        parse(&std::fs::read(self.path.join(format!("{pid}.json"))).ok()?)
    }
}

impl Drop for MemoryDir {
    fn drop(&mut self) {
        if self.own {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// A file's reading; `None` if it is not what node_memory.js writes.
fn parse(bytes: &[u8]) -> Option<JsMemory> {
    let w: Written = serde_json::from_slice(bytes).ok()?;
    Some(JsMemory {
        rss_kib: w.rss / 1024,
        heap_total_kib: w.heap_total / 1024,
        heap_used_kib: w.heap_used / 1024,
        external_kib: w.external / 1024,
        array_buffers_kib: w.array_buffers / 1024,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_is_what_node_wrote_in_kib() {
        let file = br#"{"rss":64561152,"heapTotal":6660096,"heapUsed":4631456,"external":1482682,"arrayBuffers":10511}"#;
        assert_eq!(
            parse(file),
            Some(JsMemory {
                rss_kib: 63048,
                heap_total_kib: 6504,
                heap_used_kib: 4522,
                external_kib: 1447,
                array_buffers_kib: 10,
            })
        );
        assert_eq!(parse(br#"{"rss":1}"#), None);
        assert_eq!(parse(b""), None);
    }
}
