#!/usr/bin/env bash
# Rebuilds ffi/layout/libmcp.order: the functions of libmcp.so that general traffic runs, for the
# linker to place together (ffi/build.rs). The traffic is the official conformance suite's server
# scenarios at both revisions (Streamable HTTP) and a stdio session of both eras against
# examples/c/everything-server.c, the library under callgrind (valgrind), built by the very command
# scripts/dist.sh ships it with for x86_64 glibc (scripts/lib/native-build.sh), symbols kept: the
# list names functions exactly, and a Rust function's name carries a hash of the crate's version,
# target, profile and features (ffi/build.rs). Not the benchmarks' own echo calls: the order is what
# any server runs. Run it after changes that rename or add functions on the serving path, and
# after changing the version or a dependency (scripts/test.d/70-dist.sh fails when the list
# matches too little of the build); a stale list still links, it only leaves more code resident.
# Needs valgrind, nm and Node 22 for the suite (installed into .tools/ as step 30 does), and
# scripts/dist.sh's tools (.tools/dist-venv). About ten minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh
source scripts/lib/native-build.sh
conformance_install

ensure_venv .tools/dist-venv scripts/dist-requirements.txt
PATH="$(pwd)/.tools/dist-venv/bin:$PATH" native_build x86_64-unknown-linux-gnu.2.17 dist
built=$(native_build_dir x86_64-unknown-linux-gnu dist)
lib="$built/libmcp.so"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ffi/install.sh --from "$built" "$work/prefix" release > /dev/null
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
                           ("prompts/get", {"name": "test_prompt_with_arguments",
                                            "arguments": {"arg1": "one", "arg2": "two"}}),
                           ("ping", None)]:
        ask(i, method, None if params is None else {**params, **extra})
        i += 1
    if era_meta is not None:
        ask(i, "server/discover", {"_meta": era_meta})
        i += 1
p.stdin.close()
p.wait()
PY

# The stdio session's functions first: they are what every server runs (start, handshake, lists,
# calls), so a stdio server's code fills the front of the ordered section and the functions only
# HTTP needs come after them.
python3 ffi/layout/order.py "$lib" "$work/stdio.out" "$work/http.out" > ffi/layout/libmcp.order.new
mv ffi/layout/libmcp.order.new ffi/layout/libmcp.order
wc -l ffi/layout/libmcp.order
