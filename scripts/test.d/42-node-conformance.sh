#!/usr/bin/env bash
# The official MCP conformance suite (server side) against the Node everything-server
# (examples/node/everything-server.js, on the libmcp Node package) over Streamable HTTP, at both
# scored revisions, then the pending scenarios step 30 runs against the Rust server, with the same
# rules (every check SUCCESS or INFO, none FAILURE or WARNING). Needs the addon built by
# 41-node.sh (built here if missing) and installs Node 22 and the pinned suite into .tools/.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh
conformance_install

if ! ls bindings-node/*.node > /dev/null 2>&1; then
  (cd bindings-node && npm ci --no-audit --no-fund --loglevel=error && npx napi build --platform)
fi

work="$(mktemp -d)"
SERVER_PID=""
trap 'stop_server "$SERVER_PID"; rm -rf "$work"' EXIT
start_http_server "$work/server.log" node examples/node/everything-server.js --http 127.0.0.1:0
url="http://localhost:$SERVER_PORT/mcp"

status=0
conformance_server_legs Node "$url" "$work" || status=1

conformance_pending_scenarios Node "$url" "$work" || status=1
exit "$status"
