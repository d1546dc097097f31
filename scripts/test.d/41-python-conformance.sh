#!/usr/bin/env bash
# The official MCP conformance suite (server side) against the Python everything-server
# (examples/python/everything_server.py, on the package step 40 installed into .venv) over Streamable
# HTTP, at both scored revisions (--requirements 2025-11-25 and 2026-07-28): every scored scenario
# must pass, as for the Rust and C servers. Installs Node 22 and the pinned suite into .tools/.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh
conformance_install

if ! .venv/bin/python -c "import libmcp" 2>/dev/null; then
  echo "error: libmcp is not installed in .venv (scripts/test.d/40-python.sh installs it)" >&2
  exit 1
fi

work="$(mktemp -d)"
SERVER_PID=""
trap 'stop_server "$SERVER_PID"; rm -rf "$work"' EXIT
start_http_server "$work/server.log" .venv/bin/python examples/python/everything_server.py --http 127.0.0.1:0
conformance_server_legs Python "http://localhost:$SERVER_PORT/mcp" "$work"
