#!/usr/bin/env bash
# The mounted-endpoint benchmark: a release build of libmcp for Python in the venv .venv-bench
# (with the official `mcp` SDK, FastAPI and uvicorn with its standard extras, httptools and uvloop,
# beside it) and the `mcp-bench-mount` driver, then the driver against the libmcp echo server
# mounted in a FastAPI app under uvicorn (echo_mounted.py), the same server on its own port
# (echo_libmcp.py) and the official SDK's app mounted in a FastAPI app under uvicorn
# (echo_sdk_mounted.py): 32 sessions, 64 B echoes, both eras, with ratios.
# Not part of the test command. Extra arguments go to mcp-bench-mount (--rounds, --requests,
# --phase-time, --quick, --json).
set -euo pipefail
cd "$(dirname "$0")/../.."
source benches/python/bench-venv.sh
cargo build --release --locked -p libmcp-bench --bin mcp-bench-mount
bin="$(target_dir)/release"

wrap() {
  printf '#!/bin/sh\nexec %q %q "$@"\n' "$PWD/$venv/bin/python" "$PWD/benches/python/$2" > "$work/$1"
  chmod +x "$work/$1"
}
wrap mounted echo_mounted.py
wrap own echo_libmcp.py
wrap sdk echo_sdk_mounted.py

echo "# mcp-bench-mount $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, $(uname -sr)"
echo
"$bin/mcp-bench-mount" --mounted "$work/mounted" --own "$work/own" --sdk "$work/sdk" --rounds 3 "$@"
