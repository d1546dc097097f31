#!/usr/bin/env bash
# The official MCP conformance suite against the C examples (issue 4): examples/c/everything-server.c
# served over Streamable HTTP at --requirements 2025-11-25 and 2026-07-28 (every scored scenario must
# pass), and examples/c/everything-client.c through the full client --requirements legs at both
# revisions (every scored scenario, OAuth included) plus the 2025-03-26 OAuth back-compat pair. The C programs are
# built against libmcp installed into a scratch prefix with ffi/install.sh (debug), through
# pkg-config, with ASan+UBSan: any sanitizer report (including a leak at exit) fails the step. Installs Node 22 and the pinned suite into .tools/ (scripts/lib/conformance-env.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
# shellcheck source=scripts/lib/conformance-env.sh
source scripts/lib/conformance-env.sh
conformance_install

work="$(target_dir)/c-conformance"
rm -rf "$work"
mkdir -p "$work/bin"
ffi/install.sh "$work/prefix" debug > /dev/null
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2207
libs=($(pkg-config --cflags --libs mcp) -Wl,-rpath,"$work/prefix/lib" -lpthread)
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
for p in everything-server everything-client; do
  gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -g "${san[@]}" "examples/c/$p.c" -o "$work/bin/$p" "${libs[@]}"
done
# Reports go to files (the harness swallows the programs' stderr); checked at the end.
export ASAN_OPTIONS="log_path=$work/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$work/asan"

SERVER_PID=""
trap 'stop_server "$SERVER_PID"' EXIT
start_http_server "$work/server.log" "$work/bin/everything-server" --http 127.0.0.1:0
url="http://localhost:$SERVER_PORT/mcp"

status=0
conformance_server_legs C "$url" "$work" || status=1
stop_server "$SERVER_PID"
SERVER_PID=""
grep -q "everything-server: clean exit" "$work/server.log" || {
  cat "$work/server.log" >&2
  echo "error: the C everything-server did not exit cleanly on SIGTERM" >&2
  status=1
}

# The client: the full --requirements legs at both revisions (every scored scenario, OAuth included,
# no baseline), then the 2025-03-26 OAuth back-compat pair, as scripts/conformance-client.sh does for
# the Rust everything-client.
echo "--- conformance client (C)"
conformance_client_legs C "$work/bin/everything-client" "$work" || status=1
if ls "$work"/asan.* > /dev/null 2>&1; then
  cat "$work"/asan.* >&2
  echo "error: a sanitizer reported errors in the C examples" >&2
  status=1
fi
exit "$status"
