#!/usr/bin/env bash
# Builds the echo servers and the driver with the `dist` profile (Cargo.toml; link options in
# benches/build.rs) and runs the full benchmark.
# Extra arguments go to mcp-bench (e.g. --rounds 3, --requests 50000, --json).
# The Streamable HTTP benchmark is benches/run-http.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --profile dist -p libmcp-bench --bins
echo "# mcp-bench $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, $(uname -sr)"
echo
exec target/dist/mcp-bench --extras --rounds 3 "$@"
