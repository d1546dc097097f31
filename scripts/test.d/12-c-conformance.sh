#!/usr/bin/env bash
# The official MCP conformance suite against the C examples (issue 4): examples/c/everything-server.c
# served over Streamable HTTP at --requirements 2025-11-25 and 2026-07-28 (every scored scenario must
# pass), and examples/c/everything-client.c through the full client --requirements legs at both
# revisions (every scored scenario, OAuth included) plus the 2025-03-26 OAuth back-compat pair. The C programs are
# built against libmcp installed into a scratch prefix with ffi/install.sh (debug), through
# pkg-config, with ASan+UBSan: any sanitizer report (including a leak at exit) fails the step. Installs Node 22 and the pinned suite into .tools/ (scripts/lib/conformance-env.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/lib/conformance-env.sh
source scripts/lib/conformance-env.sh
conformance_install

target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c \
  'import json, sys; print(json.load(sys.stdin)["target_directory"])')
work="$target_dir/c-conformance"
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

server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

: > "$work/server.log"   # exists before the server starts, so the port loop can read it
"$work/bin/everything-server" --http 127.0.0.1:0 2> "$work/server.log" &
server_pid=$!
port=""
for _ in $(seq 1 300); do
  port="$(sed -n 's#^listening on http://127\.0\.0\.1:\([0-9]*\)/mcp$#\1#p' "$work/server.log")"
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "the C everything-server did not report its port" >&2; exit 1; }
url="http://localhost:$port/mcp"

status=0
for rev in 2025-11-25 2026-07-28; do
  echo "--- conformance server (C) --requirements $rev ($url)"
  if conformance server --url "$url" --requirements "$rev" -o "$work/results-$rev" > "$work/out-$rev.txt" 2>&1; then
    rc=0
  else
    rc=$?
  fi
  # The scored counts: summary lines minus the scenarios listed under "Not scored".
  awk '
    /=== SUMMARY ===/ { on = 1; next }
    on && /^Total:/ { on = 0 }
    on && /^(✓|✗) / { name = $2; sub(/:$/, "", name); ok[name] = ($1 == "✓") }
    /^Not scored/ { ns = 1; next }
    ns && /^  (✓|✗) / { delete ok[$2] }
    END {
      p = 0; f = 0; failed = ""
      for (n in ok) { if (ok[n]) p++; else { f++; failed = failed " " n } }
      printf "scored scenarios (%s): %d passed, %d failed%s\n", rev, p, f, (f ? ":" failed : "")
    }' rev="$rev" "$work/out-$rev.txt"
  if [ "$rc" -ne 0 ]; then
    echo "conformance server (C, $rev) failed with exit code $rc; failed checks:"
    grep -E "FAILURE|✗" "$work/out-$rev.txt" || true
    status=1
  fi
done
kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=""
grep -q "everything-server: clean exit" "$work/server.log" || {
  cat "$work/server.log" >&2
  echo "error: the C everything-server did not exit cleanly on SIGTERM" >&2
  status=1
}

# The client: the full --requirements legs at both revisions (every scored scenario, OAuth included,
# no baseline), then the 2025-03-26 OAuth back-compat pair, as scripts/conformance-client.sh does for
# the Rust everything-client.
echo "--- conformance client (C)"
for rev in 2025-11-25 2026-07-28; do
  if conformance client --command "$work/bin/everything-client" --requirements "$rev" --timeout 60000 \
      -o "$work/client-$rev" > "$work/client-$rev.txt" 2>&1; then
    result=passed
  else
    result=FAILED
    status=1
  fi
  grep -E '^(✓|✗) ' "$work/client-$rev.txt" | sed 's/^/  /' || true
  grep -E '^(Total:|Not scored)' "$work/client-$rev.txt" | sed 's/^/  /' || true
  echo "conformance client (C) --requirements $rev: $result"
  [ "$result" = passed ] || grep -E 'FAILURE|✗' "$work/client-$rev.txt" | sed 's/^/     /' || true
done
for scenario in auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback; do
  if conformance client --command "$work/bin/everything-client" --scenario "$scenario" \
      --spec-version 2025-03-26 --timeout 60000 -o "$work/client-backcompat" \
      > "$work/client-backcompat.txt" 2>&1; then
    echo "ok   2025-03-26 $scenario"
  else
    echo "FAIL 2025-03-26 $scenario"
    grep -E 'FAILURE|WARNING|Passed:' "$work/client-backcompat.txt" | sed 's/^/     /' || true
    status=1
  fi
done
if ls "$work"/asan.* > /dev/null 2>&1; then
  cat "$work"/asan.* >&2
  echo "error: a sanitizer reported errors in the C examples" >&2
  status=1
fi
exit "$status"
