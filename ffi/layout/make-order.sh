#!/usr/bin/env bash
# Rebuilds ffi/layout/libmcp.order: the functions of libmcp.so that general traffic runs, for the
# linker to place together (ffi/build.rs). The traffic is the official conformance suite's server
# scenarios at both revisions (Streamable HTTP) and a stdio session of both eras against
# examples/c/everything-server.c, the library under callgrind (valgrind) with the `dist` profile,
# the one scripts/dist.sh ships. Not the benchmarks' own echo calls: the order is what any server
# runs. Run it after changes that rename or add functions on the serving path; a stale list still
# links (names that no longer exist match no section), it only leaves more of the code resident.
# Needs valgrind, nm and Node 22 for the suite (installed into .tools/ as step 30 does). About ten
# minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh
conformance_install

cargo build --profile dist --locked -p libmcp-ffi
lib="$(target_dir)/dist/libmcp.so"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffi/install.sh --from "$(target_dir)/dist" "$work/prefix" release > /dev/null
# shellcheck disable=SC2046 # pkg-config's flags are words
cc -std=c11 -O2 examples/c/everything-server.c -o "$work/server" \
  $(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs mcp) -Wl,-rpath,"$work/prefix/lib"
grind=(valgrind -q --tool=callgrind --demangle=no)

# Streamable HTTP: the suite's server scenarios (their verdicts do not matter here; under valgrind
# some time out).
start_http_server "$work/http.log" "${grind[@]}" --callgrind-out-file="$work/http.out" "$work/server" --http 127.0.0.1:0
url="http://localhost:$SERVER_PORT/mcp"
for rev in 2025-11-25 2026-07-28; do
  echo "--- conformance server --requirements $rev under callgrind"
  conformance server --url "$url" --requirements "$rev" -o "$work/results-$rev" > "$work/suite-$rev.txt" 2>&1 || true
  conformance_scored_summary "$rev, under callgrind" "$work/suite-$rev.txt"
done
stop_server "$SERVER_PID"

# stdio: a legacy session and 2026-07-28 requests.
echo "--- a stdio session under callgrind"
python3 - "${grind[@]}" --callgrind-out-file="$work/stdio.out" "$work/server" <<'PY'
import json, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def ask(i, method, params=None):
    m = {"jsonrpc": "2.0", "id": i, "method": method}
    if params is not None:
        m["params"] = params
    p.stdin.write((json.dumps(m) + "\n").encode()); p.stdin.flush()
    while True:
        answer = json.loads(p.stdout.readline())
        if answer.get("id") == i:
            return answer
meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "order", "version": "1"}}
ask(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "order", "version": "1"}})
p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'); p.stdin.flush()
i = 2
for era_meta in (None, meta):
    extra = {} if era_meta is None else {"_meta": era_meta}
    for method, params in [("tools/list", {}), ("resources/list", {}), ("prompts/list", {}),
                           ("tools/call", {"name": "test_simple_text", "arguments": {}}),
                           ("tools/call", {"name": "test_multiple_content_types", "arguments": {}}),
                           ("tools/call", {"name": "test_error_handling", "arguments": {}}),
                           ("tools/call", {"name": "no_such_tool", "arguments": {}}),
                           ("prompts/get", {"name": "test_simple_prompt", "arguments": {}}),
                           ("ping", None)]:
        ask(i, method, None if params is None else {**params, **extra})
        i += 1
    if era_meta is not None:
        ask(i, "server/discover", {"_meta": era_meta})
        i += 1
p.stdin.close()
p.wait()
PY

python3 ffi/layout/order.py "$lib" "$work/http.out" "$work/stdio.out" > ffi/layout/libmcp.order.new
mv ffi/layout/libmcp.order.new ffi/layout/libmcp.order
wc -l ffi/layout/libmcp.order
