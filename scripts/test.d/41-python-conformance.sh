#!/usr/bin/env bash
# The official MCP conformance suite (server side) against the Python everything-server
# (examples/python/everything_server.py, on the package step 40 installed into .venv) over Streamable
# HTTP, at both scored revisions (--requirements 2025-11-25 and 2026-07-28): every scored scenario
# must pass, as for the Rust and C servers, and so must the pending scenarios and the ten tasks and
# three skills extension scenarios step 30 runs (a skip fails those too). The same server legs and
# scenarios again against the same server mounted in a FastAPI app under uvicorn
# (examples/python/everything_asgi.py: the endpoint at /mcp beside the app's own route and
# middleware), whose own route must answer during and after the run. Then the
# Python everything-client (examples/python/everything_client.py) through the full client requirement
# sets of both revisions, OAuth (auth/*) included, the 2025-03-26 OAuth back-compat scenarios and the
# six OAuth extension scenarios (client credentials, enterprise-managed authorization, DPoP, workload
# identity) and the four skills client scenarios, as step 31 runs the Rust one. Installs Node 22 and the pinned suite into .tools/.
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
HEALTH_PID=""
trap 'stop_server "$SERVER_PID"; rm -rf "$work"' EXIT
start_http_server "$work/server.log" .venv/bin/python examples/python/everything_server.py --http 127.0.0.1:0
status=0
conformance_server_legs Python "http://localhost:$SERVER_PORT/mcp" "$work" || status=1
conformance_pending_scenarios Python "http://localhost:$SERVER_PORT/mcp" "$work" || status=1
conformance_task_scenarios Python "http://localhost:$SERVER_PORT/mcp" "$work" || status=1
conformance_skills_scenarios Python "http://localhost:$SERVER_PORT/mcp" "$work" || status=1
stop_server "$SERVER_PID"
SERVER_PID=""

# The endpoint mounted in the application's own web server (server.asgi_app() in FastAPI, uvicorn).
start_http_server "$work/asgi.log" .venv/bin/python examples/python/everything_asgi.py 127.0.0.1:0
base="http://localhost:$SERVER_PORT"
# The app's own route, polled throughout the run: every answer must be a 200.
(while :; do curl -s -o /dev/null -w '%{http_code}\n' --max-time 5 "$base/health" || echo 000; sleep 1; done) \
  > "$work/health.txt" 2>/dev/null &
HEALTH_PID=$!
trap 'stop_server "$HEALTH_PID"; stop_server "$SERVER_PID"; rm -rf "$work"' EXIT
mounted="Python mounted in FastAPI/uvicorn"
conformance_server_legs "$mounted" "$base/mcp" "$work" || status=1
conformance_pending_scenarios "$mounted" "$base/mcp" "$work" || status=1
conformance_task_scenarios "$mounted" "$base/mcp" "$work" || status=1
conformance_skills_scenarios "$mounted" "$base/mcp" "$work" || status=1
stop_server "$HEALTH_PID"
HEALTH_PID=""
polls="$(wc -l < "$work/health.txt")"
bad_polls="$(grep -vc '^200$' "$work/health.txt" || true)"
after="$(curl -s --max-time 5 "$base/health" || true)"
echo "the app's own route during the run: $polls polls, $bad_polls not 200; after it: $after"
seen="$(sed -n 's/.*"requests":\([0-9]*\).*/\1/p' <<< "$after")"
if [ "$polls" -eq 0 ] || [ "$bad_polls" -ne 0 ] || [ "${seen:-0}" -le "$polls" ]; then
  echo "the app's own route did not keep answering beside the mounted MCP endpoint, or its" \
    "middleware did not see the MCP requests" >&2
  status=1
fi

# The client legs, as step 31 runs them for the Rust everything-client: the full requirement sets
# (every scored scenario, OAuth included, no baseline) and the 2025-03-26 OAuth back-compat scenarios.
client=".venv/bin/python examples/python/everything_client.py"
conformance_client_legs Python "$client" "$work" || status=1
# The extension scenarios (not scored: OAuth extensions, skills), one by one as step 31 runs them.
conformance_client_scenarios Python "$client" "$work" auth/client-credentials-jwt \
  auth/client-credentials-basic auth/enterprise-managed-authorization auth/dpop auth/dpop-nonce \
  auth/wif-jwt-bearer sep-2640-client-no-prefetch sep-2640-client-verify-digest \
  sep-2640-client-verify-size sep-2640-client-verify-frontmatter || status=1
exit "$status"
