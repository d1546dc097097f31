#!/usr/bin/env bash
# The Python package's benchmark: a release build of libmcp for Python in the venv .venv-bench
# (with the official `mcp` SDK beside it), the Rust echo server and the `mcp-bench-python` driver
# in release mode, then the driver against the libmcp Python echo server (sync and `async def`
# handlers), the official SDK's MCPServer echo server and the Rust echo-libmcp: stdio and
# Streamable HTTP, 1 and 32 in flight, both eras, with ratios.
# Extra arguments go to mcp-bench-python (e.g. --rounds 1, --requests 5000, --phase-time 10, --json).
set -euo pipefail
cd "$(dirname "$0")/../.."
source benches/python/bench-venv.sh
cargo build --release --locked -p libmcp-bench --bin echo-libmcp --bin mcp-bench-python
bin="$(target_dir)/release"

# The driver starts each server as one program (`PROG` or `PROG --http ADDR`).
wrappers="$work"
wrap() {
  printf '#!/bin/sh\nexec %q %q %s "$@"\n' "$PWD/$venv/bin/python" "$PWD/benches/python/$2" "${3:-}" \
    > "$wrappers/$1"
  chmod +x "$wrappers/$1"
}
wrap sync echo_libmcp.py
wrap async echo_libmcp.py --async
wrap sdk echo_sdk.py

echo "# mcp-bench-python $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, $(uname -sr)"
echo
"$bin/mcp-bench-python" --sync "$wrappers/sync" --async "$wrappers/async" --sdk "$wrappers/sdk" \
  --rust "$bin/echo-libmcp" --rounds 3 "$@"
