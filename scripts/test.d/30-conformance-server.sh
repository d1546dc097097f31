#!/usr/bin/env bash
# The official MCP conformance suite (server side) against everything-server over Streamable HTTP,
# at both scored revisions: --requirements 2025-11-25 and --requirements 2026-07-28. Fails if any
# scored scenario fails (the suite's exit code). Then the pending (not yet scored) scenarios the
# server implements, one by one, which must pass every check with no warning (a warning is how
# server-sse-polling reports a server that did not resume), and the ten tasks and three skills
# extension scenarios likewise (a skip fails those too). The same legs again against everything-axum,
# the same server mounted as one route of an axum application (HttpEndpoint), whose own route
# (/health) and middleware must keep answering. Installs Node 22 and the pinned suite into .tools/.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh
conformance_install

build_debug_bins
bin="$(target_dir)/debug/everything-server"

work="$(mktemp -d)"
SERVER_PID=""
trap 'stop_server "$SERVER_PID"; rm -rf "$work"' EXIT
start_http_server "$work/server.log" "$bin" --http 127.0.0.1:0
url="http://localhost:$SERVER_PORT/mcp"

status=0
conformance_server_legs Rust "$url" "$work" || status=1

conformance_pending_scenarios Rust "$url" "$work" || status=1
conformance_task_scenarios Rust "$url" "$work" || status=1
conformance_skills_scenarios Rust "$url" "$work" || status=1
stop_server "$SERVER_PID"

# Mounted in axum: every leg through the application's router and middleware.
mounted="$work/axum"
mkdir -p "$mounted"
start_http_server "$mounted/server.log" "$(target_dir)/debug/everything-axum" 127.0.0.1:0
url="http://localhost:$SERVER_PORT/mcp"
conformance_server_legs Rust/axum "$url" "$mounted" || status=1
conformance_pending_scenarios Rust/axum "$url" "$mounted" || status=1
conformance_task_scenarios Rust/axum "$url" "$mounted" || status=1
conformance_skills_scenarios Rust/axum "$url" "$mounted" || status=1
check_app_route Rust/axum "http://127.0.0.1:$SERVER_PORT/health" || status=1
exit "$status"
