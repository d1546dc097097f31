#!/usr/bin/env bash
# The C ABI: checks that include/mcp.h matches what cbindgen 0.29.4 generates from ffi/src,
# installs libmcp into a prefix with ffi/install.sh (debug build), then builds the C tests in tests/c
# with -std=c11 -Wall -Wextra -Wpedantic -Werror through pkg-config and runs them plainly, under
# ASan+UBSan and under valgrind (a C client spawning a C server over stdio, both checked), links the
# unit test statically, runs examples/c (C client against C server, over stdio and over HTTP in both
# eras), compiles and runs the C++ example, and builds the unit test with CMake's find_package(mcp).
# tests/c/config.c (config handles, JSON helpers) and tests/c/http.c (HTTP server and client in one
# process: subscriptions, cancellation callbacks, stop from another thread) and tests/c/oauth.c (OAuth
# and TLS setters, the grant and DPoP setters, the authorization callback and the grants that need
# no user against an in-process OAuth-protected mock) run
# plainly, under ASan+UBSan and under valgrind too, and so do tests/c/stdio_faults.c (SIGPIPE when
# the client closes its read end mid-call, prompt stop while stdin stays open), tests/c/faults.c
# (blocking calls from callbacks, duplicate names, malformed results) and tests/c/log.c (the log
# callback, a child's stderr) and tests/c/serve_fds.c (serving a socket and a pipe pair) and
# tests/c/resource_server.c (OAuth resource server with a token verifier in C) and tests/c/connect_fds.c
# (a client over a socket and a pipe pair) and tests/c/multi_instance.c (two HTTP instances sharing a
# session store and an event store written in C, resumption across them) and tests/c/tasks.c (tools run
# as tasks in both eras: created, polled, cancelled, failed, input inside a task) and tests/c/skills.c
# (the skills extension: a C server's skill read and verified by a C client in both eras, bad
# SKILL.md texts and paths refused with their reasons) and tests/c/redis.c
# (the Redis selection: bad URL; Redis down in the plain run only, see the file; its two-instance part
# runs in step 60) and tests/c/hosts.c (the C side of the cross-host test: the cases of
# tests/hosts/expectations.json answered through the C ABI as written there) and tests/c/endpoint.c
# (the endpoint mounted in a host's own web server, driven through mcp_http_endpoint_handle: a
# client header and the host's principal reach a handler, SSE chunks through the callbacks,
# abandoning mid-call cancels the handler, bad inputs) and tests/c/statuses.c (every status a call
# returns, each provoked by a real call, printed as the header's examples print it) and
# tests/c/session.c (a handler's handle on its legacy session: notifications after the answer,
# exact on the wire, and each refusal) and tests/c/methods.c (request methods the host answers
# itself, custom and owned tools/list and tools/call, in both eras exact on the wire: the schema's
# -32602 before the handler, -32603 for a result that breaks it, each refusal of registration with
# its status and message). Then the
# release library (built here, or scripts/dist.sh's C bundle named by C_ABI_RELEASE_BUNDLE): the C tests under valgrind with its default flags (no suppressions; "possibly
# lost" counts). Installs cbindgen into .tools/cargo, and pkg-config, cmake and valgrind (apt), only
# when missing.
# Usage: scripts/test.d/10-c-abi.sh [--regen]   (--regen rewrites include/mcp.h instead of diffing)
set -euo pipefail
cd "$(dirname "$0")/../.."
step() { printf -- '--- %s\n' "$*"; }
source scripts/lib/common.sh

# pkg-config, cmake and valgrind come from Debian; a fresh machine may lack them (and its package
# lists), so install what is missing once.
ensure_debian_packages pkg-config cmake valgrind

cbindgen_version=0.29.4
cbindgen=""
for c in "$(command -v cbindgen || true)" .tools/cargo/bin/cbindgen; do
  if [ -n "$c" ] && [ -x "$c" ] && "$c" --version | grep -qF "$cbindgen_version"; then
    cbindgen=$c
    break
  fi
done
if [ -z "$cbindgen" ]; then
  step "installing cbindgen $cbindgen_version into .tools/cargo"
  cargo install "cbindgen@$cbindgen_version" --locked --root .tools/cargo --quiet
  cbindgen=.tools/cargo/bin/cbindgen
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
step "include/mcp.h drift check"
"$cbindgen" -q --config ffi/cbindgen.toml --output "$tmp/mcp.h" ffi
if [ "${1:-}" = --regen ]; then
  cp "$tmp/mcp.h" include/mcp.h
  echo "include/mcp.h regenerated"
elif ! diff -u include/mcp.h "$tmp/mcp.h"; then
  echo "error: include/mcp.h is stale; run scripts/test.d/10-c-abi.sh --regen and commit it" >&2
  exit 1
fi

work="$(target_dir)/c-abi"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work/bin"
step "install into $prefix"
ffi/install.sh "$prefix" debug
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
test "$(pkg-config --modversion mcp)" = "$(grep -m1 '^version' Cargo.toml | cut -d'"' -f2)"
readelf -d "$prefix/lib/libmcp.so" | grep -q "SONAME.*libmcp.so.$(pkg-config --modversion mcp)"

cflags=(-std=c11 -Wall -Wextra -Wpedantic -Werror -g)
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
# shellcheck disable=SC2207
libs=($(pkg-config --cflags --libs mcp) -Wl,-rpath,"$prefix/lib" -lpthread)
step "compile C tests (plain and ASan+UBSan)"
for t in unit config http oauth server client stdio_faults faults log serve_fds resource_server connect_fds multi_instance tasks skills redis hosts endpoint statuses session methods; do
  gcc "${cflags[@]}" "tests/c/$t.c" -o "$work/bin/$t" "${libs[@]}"
  gcc "${cflags[@]}" "${san[@]}" "tests/c/$t.c" -o "$work/bin/$t-asan" "${libs[@]}"
done

# Runs the client against the server; the server's stderr reaches ours through the client, and it
# prints "server: clean exit" only after freeing everything with every finalizer run once.
round_trip() {
  local log="$1"
  shift
  "$@" 2> "$log" || { cat "$log" >&2; return 1; }
  grep -q "server: clean exit" "$log" || { cat "$log" >&2; echo "error: the server did not exit cleanly" >&2; return 1; }
}

step "run plain"
"$work/bin/unit"
"$work/bin/config"
"$work/bin/http"
"$work/bin/oauth"
"$work/bin/stdio_faults"
"$work/bin/faults"
"$work/bin/log"
"$work/bin/serve_fds"
"$work/bin/resource_server"
"$work/bin/connect_fds"
"$work/bin/statuses"
"$work/bin/session"
"$work/bin/methods"
"$work/bin/multi_instance"
"$work/bin/tasks"
"$work/bin/skills"
"$work/bin/redis" --down
"$work/bin/hosts" tests/hosts/expectations.json
"$work/bin/endpoint"
round_trip "$work/plain.err" "$work/bin/client" "$work/bin/server"
# The legacy era: initialize handshake, elicitation as a server-to-client request.
round_trip "$work/plain-legacy.err" env MCP_TEST_VERSION=2025-11-25 "$work/bin/client" "$work/bin/server"

step "run under ASan+UBSan"
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
"$work/bin/unit-asan"
"$work/bin/config-asan"
"$work/bin/http-asan"
"$work/bin/oauth-asan"
"$work/bin/stdio_faults-asan"
"$work/bin/faults-asan"
"$work/bin/log-asan"
"$work/bin/serve_fds-asan"
"$work/bin/resource_server-asan"
"$work/bin/connect_fds-asan"
"$work/bin/statuses-asan"
"$work/bin/session-asan"
"$work/bin/methods-asan"
"$work/bin/multi_instance-asan"
"$work/bin/tasks-asan"
"$work/bin/skills-asan"
"$work/bin/redis-asan"
"$work/bin/hosts-asan" tests/hosts/expectations.json
"$work/bin/endpoint-asan"
round_trip "$work/asan.err" env ASAN_OPTIONS="log_path=$work/asan-server" \
  "$work/bin/client-asan" "$work/bin/server-asan"
round_trip "$work/asan-legacy.err" env ASAN_OPTIONS="log_path=$work/asan-server" \
  MCP_TEST_VERSION=2025-11-25 "$work/bin/client-asan" "$work/bin/server-asan"
if ls "$work"/asan-server.* > /dev/null 2>&1; then
  cat "$work"/asan-server.* >&2
  echo "error: a sanitizer reported errors" >&2
  exit 1
fi

step "run under valgrind"
# Leaks that fail: definite and indirect. (valgrind 3.19 warns about pidfd_open, syscall 434; std
# falls back to waitpid.) "Possibly lost" blocks are std's per-thread data of threads
# that are still exiting; they are not reported.
vg=(valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect
  --show-leak-kinds=definite,indirect --child-silent-after-fork=yes)
"${vg[@]}" -q --error-exitcode=1 "$work/bin/unit"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/config"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/http"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/oauth"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/stdio_faults"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/faults"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/log"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/serve_fds"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/resource_server"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/connect_fds"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/statuses"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/session"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/methods"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/multi_instance"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/tasks"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/skills"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/redis"
"${vg[@]}" -q --error-exitcode=1 "$work/bin/hosts" tests/hosts/expectations.json
"${vg[@]}" -q --error-exitcode=1 "$work/bin/endpoint"
# The server under valgrind writes its report to a file (its exit status does not reach us).
# The version is pinned: a server starting under valgrind can miss the 5 s era probe (then the client
# would fall back to the legacy era).
round_trip "$work/valgrind.err" env MCP_TEST_VERSION=2026-07-28 \
  "${vg[@]}" -q --error-exitcode=1 "$work/bin/client" \
  "${vg[@]}" --log-file="$work/valgrind-server.log" "$work/bin/server"
grep -q "ERROR SUMMARY: 0 errors" "$work/valgrind-server.log" || {
  cat "$work/valgrind-server.log" >&2
  echo "error: valgrind reported errors in the server" >&2
  exit 1
}

step "negative control: a deliberate leak fails under ASan and valgrind"
gcc "${cflags[@]}" tests/c/leak.c -o "$work/bin/leak" "${libs[@]}"
gcc "${cflags[@]}" "${san[@]}" tests/c/leak.c -o "$work/bin/leak-asan" "${libs[@]}"
if "$work/bin/leak-asan" 2> /dev/null; then
  echo "error: ASan did not catch the deliberate leak" >&2
  exit 1
fi
if "${vg[@]}" -q --error-exitcode=1 "$work/bin/leak" 2> /dev/null; then
  echo "error: valgrind did not catch the deliberate leak" >&2
  exit 1
fi

step "release library under valgrind with its default flags"
# What a C user runs: the release build, `valgrind --leak-check=full --error-exitcode=1`, nothing
# else. sonic-rs's `sanitize` feature keeps its SIMD serializer inside each string (no 32-byte reads
# past the end of the allocation).
# C_ABI_RELEASE_BUNDLE names a C bundle of scripts/dist.sh (scripts/test.sh passes the one its
# distribution step built just before, so the release library is not built twice); without it the
# library is built here with ffi/install.sh.
release="$work/release"
if [ -n "${C_ABI_RELEASE_BUNDLE:-}" ]; then
  mkdir -p "$release"
  tar -xzf "$C_ABI_RELEASE_BUNDLE" -C "$release" --strip-components=1
  cmp -s "$release/include/mcp.h" include/mcp.h \
    || { echo "error: $C_ABI_RELEASE_BUNDLE holds another mcp.h than include/mcp.h (stale bundle?)" >&2; exit 1; }
  echo "(the release library of $C_ABI_RELEASE_BUNDLE)"
else
  ffi/install.sh "$release" release
fi
# shellcheck disable=SC2207
rlibs=($(PKG_CONFIG_PATH="$release/lib/pkgconfig" pkg-config --cflags --libs mcp) -Wl,-rpath,"$release/lib" -lpthread)
for t in http faults server client; do
  gcc "${cflags[@]}" "tests/c/$t.c" -o "$work/bin/$t-release" "${rlibs[@]}"
done
user_vg=(valgrind --leak-check=full --error-exitcode=1)
"${user_vg[@]}" -q "$work/bin/http-release"
"${user_vg[@]}" -q "$work/bin/faults-release"
round_trip "$work/valgrind-release.err" env MCP_TEST_VERSION=2026-07-28 \
  "${user_vg[@]}" -q "$work/bin/client-release" \
  "${user_vg[@]}" --log-file="$work/valgrind-release-server.log" "$work/bin/server-release"
grep -q "ERROR SUMMARY: 0 errors" "$work/valgrind-release-server.log" || {
  cat "$work/valgrind-release-server.log" >&2
  echo "error: valgrind reported errors in the release server" >&2
  exit 1
}

step "static link"
# shellcheck disable=SC2046
gcc "${cflags[@]}" tests/c/unit.c -o "$work/bin/unit-static" $(pkg-config --cflags --static --libs mcp-static)
if readelf -d "$work/bin/unit-static" | grep -q 'NEEDED.*libmcp'; then
  echo "error: pkg-config --static --libs mcp-static linked the shared library" >&2
  exit 1
fi
"$work/bin/unit-static"

step "examples/c: everything-client against everything-server (stdio, then HTTP in both eras)"
for p in everything-server everything-client; do
  gcc "${cflags[@]}" "examples/c/$p.c" -o "$work/bin/$p" "${libs[@]}"
done
"$work/bin/everything-client" "$work/bin/everything-server" > "$work/everything.out"
grep -q "everything worked" "$work/everything.out"
start_http_server "$work/http-server.log" "$work/bin/everything-server" --http 127.0.0.1:0
http_pid=$SERVER_PID
port=$SERVER_PORT
for v in 2026-07-28 2025-11-25; do
  MCP_TEST_VERSION=$v "$work/bin/everything-client" "http://localhost:$port/mcp" > "$work/everything-http.out" \
    || { kill "$http_pid"; cat "$work/everything-http.out"; exit 1; }
  grep -q "everything worked" "$work/everything-http.out"
done
kill -TERM "$http_pid"
wait "$http_pid"
grep -q "everything-server: clean exit" "$work/http-server.log"

step "C++ example against the same header"
g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror examples/c/hello.cpp -o "$work/bin/hello-cpp" "${libs[@]}"
"$work/bin/hello-cpp"

step "CMake find_package(mcp)"
cmake -S tests/c/cmake -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" > /dev/null
cmake --build "$work/cmake" > /dev/null
"$work/cmake/unit_cmake"
echo "C ABI checks passed"
