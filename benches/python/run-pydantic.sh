#!/usr/bin/env bash
# pydantic as the gate of a tool's arguments, on and off: the libmcp echo servers of run.sh (a sync
# handler and an `async def` one, pydantic validating the one `str` argument) against the same
# servers with an explicit input schema (`echo_libmcp.py --no-pydantic`: the engine checks the
# arguments, pydantic is not called), all release builds, driven by `mcp-bench-python` (stdio and
# Streamable HTTP, 1 and 32 in flight, both eras, 64 B and 64 KiB). The driver runs the pydantic-off
# server in its comparison role, so its "vs the official SDK" ratio is on/off here; the table printed
# at the end says so. Two driver runs (sync, then async); the Rust echo server runs in each as the
# driver needs it. Extra arguments go to mcp-bench-python (e.g. --rounds 1, --phase-time 10).
set -euo pipefail
cd "$(dirname "$0")/../.."
source benches/python/bench-venv.sh
cargo build --release --locked -p libmcp-bench --bin echo-libmcp --bin mcp-bench-python
bin="$(target_dir)/release"

wrap() {
  printf '#!/bin/sh\nexec %q %q %s "$@"\n' "$PWD/$venv/bin/python" "$PWD/benches/python/echo_libmcp.py" "$2" \
    > "$work/$1"
  chmod +x "$work/$1"
}
wrap sync ""
wrap async "--async"
wrap sync-off "--no-pydantic"
wrap async-off "--async --no-pydantic"

echo "# pydantic on/off, mcp-bench-python $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, $(uname -sr)"
for kind in sync async; do
  "$bin/mcp-bench-python" --sync "$work/sync" --async "$work/async" --sdk "$work/$kind-off" \
    --rust "$bin/echo-libmcp" --json "$@" > "$work/$kind.json"
done
"$venv/bin/python" - "$work/sync.json" "$work/async.json" <<'PY'
import json, sys

print("\n| handler | transport | era | in flight | payload | pydantic on (calls/s) | off (calls/s) | on/off |")
print("|---|---|---|--:|--:|--:|--:|--:|")
for kind, path in zip(("sync", "async"), sys.argv[1:]):
    report = json.load(open(path))
    rows = report["rows"]
    on = {(r["transport"], r["mode"], r["concurrency"], r["payload"]): r["throughput"]
          for r in rows if r["server"] == f"libmcp {kind}"}
    for r in rows:
        key = (r["transport"], r["mode"], r["concurrency"], r["payload"])
        if r["server"] == "official SDK" and key in on:  # the pydantic-off server's role
            ratio = on[key] / r["throughput"] if r["throughput"] else float("nan")
            print(f"| {kind} | {key[0]} | {key[1]} | {key[2]} | {key[3]} | {on[key]:,.0f} | {r['throughput']:,.0f} "
                  f"| {ratio:.2f}x |")
    for failure in report["failures"]:
        print(f"failure ({kind}): {failure}")
PY
