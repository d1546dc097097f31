#!/usr/bin/env bash
# The official MCP conformance suite (server side) against the Python everything-server
# (examples/python/everything_server.py, on the package step 40 installed into .venv) over Streamable
# HTTP, at both scored revisions (--requirements 2025-11-25 and 2026-07-28): every scored scenario
# must pass, as for the Rust and C servers, and so must the pending scenarios step 30 runs. Then the
# Python everything-client
# (examples/python/everything_client.py) through every client scenario of both sets that needs no
# OAuth. Installs Node 22 and the pinned suite into .tools/.
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
status=0
conformance_server_legs Python "http://localhost:$SERVER_PORT/mcp" "$work" || status=1
conformance_pending_scenarios Python "http://localhost:$SERVER_PORT/mcp" "$work" || status=1

# The client scenarios of both requirement sets that need no OAuth (the package has none yet), each
# run on its own: every one must pass (exit code 0: no failed check, no warning).
client=".venv/bin/python examples/python/everything_client.py"
for run in 2025-11-25:initialize 2025-11-25:tools_call 2025-11-25:elicitation-sep1034-client-defaults \
    2025-11-25:sse-retry 2025-11-25:json-schema-2020-12-preservation 2026-07-28:tools_call \
    2026-07-28:request-metadata 2026-07-28:sep-2322-client-request-state 2026-07-28:http-standard-headers \
    2026-07-28:http-custom-headers 2026-07-28:http-invalid-tool-headers 2026-07-28:json-schema-ref-no-deref \
    2026-07-28:json-schema-2020-12-preservation; do
  rev="${run%%:*}" scenario="${run#*:}"
  out="$work/client-$rev-$scenario.txt"
  if conformance client --command "$client" --scenario "$scenario" --spec-version "$rev" --timeout 60000 \
      -o "$work/client-$rev-$scenario" > "$out" 2>&1; then
    echo "ok   $rev $scenario (Python client)"
  else
    echo "FAIL $rev $scenario (Python client):"
    grep -E "FAILURE|WARNING|✗" "$out" || tail -20 "$out"
    status=1
  fi
done
exit "$status"
