#!/usr/bin/env bash
# The official MCP conformance suite (server side) against the Node everything-server
# (examples/node/everything-server.js, on the libmcp Node package) over Streamable HTTP, at both
# scored revisions, then the pending scenarios step 30 runs against the Rust server, with the same
# rules (every check SUCCESS or INFO, none FAILURE or WARNING), and the ten tasks and the three
# skills extension scenarios (sep-2640-skills-*) as step 30 runs them (a skip fails too). Then the Node everything-client
# (examples/node/everything-client.js) through the full client requirement sets of both revisions,
# OAuth (auth/*) included, and the 2025-03-26 OAuth back-compat scenarios, exactly as step 31 runs
# the Rust one, and the not-scored extension scenarios one by one, each of which must pass: the six
# OAuth extensions (client credentials with a JWT assertion and with a secret, enterprise-managed
# authorization, DPoP with and without nonces, workload identity JWT bearer) and the four skills
# client scenarios (no file read before a skill is loaded; files failing digest, size or
# frontmatter checks refused). The server legs and scenarios run again against the same server
# mounted in an Express app and in a Hono app (examples/node/everything-mounted.js), whose own
# route must still answer after them. Needs the addon built by
# 41-node.sh (built here if missing) and installs Node 22 and the pinned suite into .tools/.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh
conformance_install

# The mounted runs need Express and Hono, dev dependencies of the package.
if [ ! -d bindings-node/node_modules/express ] || [ ! -d bindings-node/node_modules/hono ]; then
  (cd bindings-node && npm ci --no-audit --no-fund --loglevel=error)
fi
if ! ls bindings-node/*.node > /dev/null 2>&1; then
  (cd bindings-node && npx napi build --platform)
fi

work="$(mktemp -d)"
SERVER_PID=""
trap 'stop_server "$SERVER_PID"; rm -rf "$work"' EXIT
start_http_server "$work/server.log" node examples/node/everything-server.js --http 127.0.0.1:0
url="http://localhost:$SERVER_PORT/mcp"

status=0
conformance_server_legs Node "$url" "$work" || status=1

conformance_pending_scenarios Node "$url" "$work" || status=1
conformance_task_scenarios Node "$url" "$work" || status=1
conformance_skills_scenarios Node "$url" "$work" || status=1
stop_server "$SERVER_PID"
SERVER_PID=""

# The same server legs and scenarios against the everything-server mounted in an Express app and
# in a Hono app (examples/node/everything-mounted.js); the app's own route answers after the run.
for app in express hono; do
  start_http_server "$work/server-$app.log" node examples/node/everything-mounted.js "$app" 127.0.0.1:0
  url="http://localhost:$SERVER_PORT/mcp"
  conformance_server_legs "Node in $app" "$url" "$work" || status=1
  conformance_pending_scenarios "Node in $app" "$url" "$work" || status=1
  conformance_task_scenarios "Node in $app" "$url" "$work" || status=1
  conformance_skills_scenarios "Node in $app" "$url" "$work" || status=1
  health="$(curl -sS --max-time 10 "http://127.0.0.1:$SERVER_PORT/health" || true)"
  if [ "$health" = ok ]; then
    echo "the $app app's own route answered after the run"
  else
    echo "FAIL the $app app's own route answered ${health:-nothing} after the run"
    status=1
  fi
  stop_server "$SERVER_PID"
  SERVER_PID=""
done

client="node examples/node/everything-client.js"
conformance_client_legs Node "$client" "$work" || status=1
conformance_client_scenarios Node "$client" "$work" auth/client-credentials-jwt \
  auth/client-credentials-basic auth/enterprise-managed-authorization auth/dpop auth/dpop-nonce \
  auth/wif-jwt-bearer sep-2640-client-no-prefetch sep-2640-client-verify-digest \
  sep-2640-client-verify-size sep-2640-client-verify-frontmatter || status=1
exit "$status"
