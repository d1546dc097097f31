#!/usr/bin/env bash
# Builds the echo servers and the driver with the `dist` profile (Cargo.toml; link options in
# benches/build.rs) and runs the Streamable HTTP benchmark:
# 1 and 32 keep-alive sessions, 64 B and 64 KiB echoes, legacy and 2026-07-28 eras, and the memory
# of 1,000 and 5,000 idle legacy sessions, for libmcp and rmcp.
# Extra arguments go to `mcp-bench --http` (e.g. --rounds 1, --requests 5000, --json, --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --profile dist -p libmcp-bench --bins
echo "# mcp-bench --http $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, $(uname -sr)"
echo
exec target/dist/mcp-bench --http --rounds 3 "$@"
