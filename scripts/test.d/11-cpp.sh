#!/usr/bin/env bash
# The C++ layer include/mcp.hpp: tests/cpp/roundtrip.cpp (a C++ server and client on the header,
# over Streamable HTTP in both eras and over stdio, handler exceptions answered as tool and JSON-RPC
# errors, async calls, tasks, mcp::json, the refusals of the builder and the configurations)
# compiled with -Wall -Wextra -Wpedantic -Werror as C++17 and C++20, run plainly, under ASan+UBSan
# and under valgrind, against the debug library installed with ffi/install.sh (the installed mcp.hpp, found
# through pkg-config); tests/cpp/endpoint.cpp (mcp::http_endpoint mounted without sockets: a client
# header and the host's principal reach a handler, SSE events through the sink, destroying an
# exchange mid-call cancels the handler) the same way.
# Then the everything-server and everything-client written on the header (examples/cpp/, the same
# programs as examples/c/), checked clean as C++20 and built as C++17 with ASan+UBSan, go through
# the official conformance suite as step 12 runs the C ones: the server at --requirements
# 2025-11-25 and 2026-07-28, the pending, the ten tasks-* and the three sep-2640-skills-*
# scenarios; the client through both full client legs (OAuth included), the 2025-03-26 back-compat
# pair, the six OAuth extension and the four sep-2640-client-* scenarios (the server's and the
# client's legs run side by side in the background while the tests build and run: the suite mostly
# waits). Then the client's demo mode against the server over stdio and over HTTP (2025-11-25: a
# resumed stream), and the server with OAuth required (401 with its challenge without a token; its
# verifier's subject and scopes reach a handler; a tool needing a scope the token lacks gets 403).
# Any sanitizer report fails the step. Installs Node 22 and the pinned suite into .tools/
# (scripts/lib/conformance-env.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
# shellcheck source=scripts/lib/conformance-env.sh
source scripts/lib/conformance-env.sh
ensure_debian_packages pkg-config valgrind
conformance_install

work="$(target_dir)/cpp"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work/bin"
ffi/install.sh "$prefix" debug
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2207
libs=($(pkg-config --cflags --libs mcp) -Wl,-rpath,"$prefix/lib" -lpthread)
flags=(-Wall -Wextra -Wpedantic -Werror -g)
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)

# The everything programs first, built as C++17 with the sanitizers: their conformance legs run in
# the background while the rest of the step builds and runs (the suite mostly waits), the client's
# as soon as the client is built. The sanitizers report to files (the harness swallows the
# programs' stderr), checked at the end.
asan_env=(env "ASAN_OPTIONS=log_path=$work/asan" "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$work/asan")
server="$work/bin/everything-server"
client="$work/bin/everything-client"
SERVER_PID=""
legs=""
# shellcheck disable=SC2086  # legs holds pids
trap 'stop_server "$SERVER_PID"; for pid in $legs; do kill "$pid" 2> /dev/null || true; done' EXIT
g++ -std=c++17 "${flags[@]}" "${san[@]}" examples/cpp/everything-client.cpp -o "$client" "${libs[@]}"
(
  rc=0
  echo "--- conformance client (C++)"
  export ASAN_OPTIONS="log_path=$work/asan"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$work/asan"
  conformance_client_legs C++ "$client" "$work" || rc=1
  conformance_client_extension_scenarios C++ "$client" "$work" || rc=1
  exit "$rc"
) > "$work/client-legs.txt" 2>&1 &
legs=$!
g++ -std=c++17 "${flags[@]}" "${san[@]}" examples/cpp/everything-server.cpp -o "$server" "${libs[@]}"
start_http_server "$work/server.log" "${asan_env[@]}" "$server" --http 127.0.0.1:0
url="http://localhost:$SERVER_PORT/mcp"
(
  rc=0
  conformance_server_legs C++ "$url" "$work" || rc=1
  conformance_pending_scenarios C++ "$url" "$work" || rc=1
  conformance_task_scenarios C++ "$url" "$work" || rc=1
  conformance_skills_scenarios C++ "$url" "$work" || rc=1
  exit "$rc"
) > "$work/server-legs.txt" 2>&1 &
legs="$legs $!"
# The header's wrappers the everything programs use, checked clean as C++20 too.
for p in everything-server everything-client; do
  g++ -std=c++20 "${flags[@]}" -fsyntax-only -I"$prefix/include" "examples/cpp/$p.cpp"
done

g++ -std=c++17 "${flags[@]}" tests/cpp/roundtrip.cpp -o "$work/bin/roundtrip" "${libs[@]}"
g++ -std=c++20 "${flags[@]}" tests/cpp/roundtrip.cpp -o "$work/bin/roundtrip-20" "${libs[@]}"
g++ -std=c++17 "${flags[@]}" "${san[@]}" tests/cpp/roundtrip.cpp -o "$work/bin/roundtrip-asan" "${libs[@]}"
g++ -std=c++17 "${flags[@]}" tests/cpp/endpoint.cpp -o "$work/bin/endpoint" "${libs[@]}"
g++ -std=c++20 "${flags[@]}" tests/cpp/endpoint.cpp -o "$work/bin/endpoint-20" "${libs[@]}"
g++ -std=c++17 "${flags[@]}" "${san[@]}" tests/cpp/endpoint.cpp -o "$work/bin/endpoint-asan" "${libs[@]}"
"$work/bin/roundtrip"
"$work/bin/roundtrip-20"
"$work/bin/roundtrip-asan"
"$work/bin/endpoint"
"$work/bin/endpoint-20"
"$work/bin/endpoint-asan"
# valgrind 3.19 warns about pidfd_open (syscall 434), which std uses to reap children; the warning
# is not an error. Leaks that fail: definite and indirect (the debug library keeps thread-local
# caches that count as "possibly lost").
valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect \
  --show-leak-kinds=definite,indirect --child-silent-after-fork=yes -q --error-exitcode=1 \
  "$work/bin/roundtrip" 2> "$work/valgrind.log" || { cat "$work/valgrind.log" >&2; exit 1; }
valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect \
  --show-leak-kinds=definite,indirect -q --error-exitcode=1 \
  "$work/bin/endpoint" 2> "$work/valgrind-endpoint.log" || { cat "$work/valgrind-endpoint.log" >&2; exit 1; }

status=0
for pid in $legs; do wait "$pid" || status=1; done
legs=""
cat "$work/server-legs.txt" "$work/client-legs.txt"
echo "--- the C++ everything-client's demo against the C++ everything-server (stdio, HTTP 2025-11-25)"
"${asan_env[@]}" "$client" "$server" > "$work/demo-stdio.txt" 2>&1 || status=1
"${asan_env[@]}" MCP_TEST_VERSION=2025-11-25 "$client" "$url" > "$work/demo-http.txt" 2>&1 || status=1
for demo in stdio http; do
  grep -q '^everything worked$' "$work/demo-$demo.txt" || {
    cat "$work/demo-$demo.txt" >&2
    echo "error: the C++ everything-client's demo ($demo) failed" >&2
    status=1
  }
done
stop_server "$SERVER_PID"
SERVER_PID=""

# OAuth required: the verifier accepts one token (scope mcp:read); `admin` needs mcp:admin too.
start_http_server "$work/server-oauth.log" "${asan_env[@]}" "$server" --http 127.0.0.1:0 \
  --oauth-token "cpp-token=carol:mcp:read" --oauth-resource http://localhost:1/mcp
oauth_url="http://127.0.0.1:$SERVER_PORT/mcp"
oauth_call() {  # TOOL [CURL-ARGS...]: a 2026-07-28 tools/call; prints the answer, then the status
  local tool="$1"
  shift
  curl -sS --max-time 10 -w '\n%{http_code}' "$oauth_url" "$@" -H 'content-type: application/json' \
    -H 'accept: application/json, text/event-stream' -H 'mcp-protocol-version: 2026-07-28' \
    -H 'mcp-method: tools/call' -H "mcp-name: $tool" --data \
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"'"$tool"'","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
}
anonymous=$(oauth_call whoami -D - || true)
whoami=$(oauth_call whoami -H 'authorization: Bearer cpp-token' || true)
admin=$(oauth_call admin -D - -H 'authorization: Bearer cpp-token' || true)
echo "OAuth: without a token $(tail -1 <<< "$anonymous"), whoami $(tail -1 <<< "$whoami"), admin $(tail -1 <<< "$admin")"
if ! grep -qi '^www-authenticate: Bearer resource_metadata=' <<< "$anonymous" \
  || [ "$(tail -1 <<< "$anonymous")" != 401 ] || ! grep -q 'subject carol with scopes mcp:read' <<< "$whoami" \
  || [ "$(tail -1 <<< "$admin")" != 403 ] || ! grep -qi '^www-authenticate: Bearer .*insufficient_scope' <<< "$admin"; then
  printf '%s\n---\n%s\n---\n%s\n' "$anonymous" "$whoami" "$admin" >&2
  echo "error: the C++ everything-server with OAuth required did not answer as configured" >&2
  status=1
fi
stop_server "$SERVER_PID"
SERVER_PID=""
for log in server server-oauth; do
  grep -q "everything-server: clean exit" "$work/$log.log" || {
    cat "$work/$log.log" >&2
    echo "error: the C++ everything-server ($log.log) did not exit cleanly on SIGTERM" >&2
    status=1
  }
done
if ls "$work"/asan.* > /dev/null 2>&1; then
  cat "$work"/asan.* >&2
  echo "error: a sanitizer reported errors in the C++ everything programs" >&2
  status=1
fi
[ "$status" = 0 ] || exit 1
echo "mcp.hpp checks passed (C++17, C++20, ASan+UBSan, valgrind; the C++ everything programs' conformance legs)"
