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
# frontmatter checks refused). Needs the addon built by
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
conformance_task_scenarios Node "$url" "$work" || status=1
conformance_skills_scenarios Node "$url" "$work" || status=1

client="node examples/node/everything-client.js"
conformance_client_legs Node "$client" "$work" || status=1
conformance_client_scenarios Node "$client" "$work" auth/client-credentials-jwt \
  auth/client-credentials-basic auth/enterprise-managed-authorization auth/dpop auth/dpop-nonce \
  auth/wif-jwt-bearer sep-2640-client-no-prefetch sep-2640-client-verify-digest \
  sep-2640-client-verify-size sep-2640-client-verify-frontmatter || status=1
exit "$status"
