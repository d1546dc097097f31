#!/usr/bin/env bash
# The official MCP conformance suite (server side) against everything-server over Streamable HTTP,
# at both scored revisions: --requirements 2025-11-25 and --requirements 2026-07-28. Fails if any
# scored scenario fails (the suite's exit code). Then the pending (not yet scored) scenarios the
# server implements, one by one, which must pass every check with no warning (a warning is how
# server-sse-polling reports a server that did not resume). Installs Node 22 and the pinned suite
# into .tools/.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=scripts/lib/conformance-env.sh
source scripts/lib/conformance-env.sh
conformance_install

cargo build -p libmcp-examples --bin everything-server --locked --quiet
bin="$(cargo metadata --format-version 1 --no-deps | node -e \
  'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')/debug/everything-server"

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

: > "$work/server.log"   # exists before the server starts, so the port loop can read it
"$bin" --http 127.0.0.1:0 2> "$work/server.log" &
server_pid=$!
port=""
for _ in $(seq 1 300); do
  port="$(sed -n 's#^listening on http://127\.0\.0\.1:\([0-9]*\)/mcp$#\1#p' "$work/server.log")"
  [ -n "$port" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "everything-server did not report its port" >&2; exit 1; }
url="http://localhost:$port/mcp"

status=0
for rev in 2025-11-25 2026-07-28; do
  echo "--- conformance server --requirements $rev ($url)"
  if conformance server --url "$url" --requirements "$rev" -o "$work/results-$rev" > "$work/out-$rev.txt" 2>&1; then
    rc=0
  else
    rc=$?
  fi
  # The summary block, then the scored counts (scenarios not listed under "Not scored").
  sed -n '/=== SUMMARY ===/,$p' "$work/out-$rev.txt"
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
    echo "conformance ($rev) failed with exit code $rc; failed checks:"
    grep -E "FAILURE|✗" "$work/out-$rev.txt" || true
    status=1
  fi
done

# Pending scenarios: every check SUCCESS (or INFO), none FAILURE or WARNING, at least one SUCCESS.
for scenario in server-sse-polling http-header-validation http-custom-header-server-validation json-schema-2020-12; do
  out="$work/pending-$scenario.txt"
  if conformance server --url "$url" --scenario "$scenario" --verbose > "$out" 2>&1; then rc=0; else rc=$?; fi
  ok="$(grep -c '"status": "SUCCESS"' "$out" || true)"
  bad="$(grep -cE '"status": "(FAILURE|WARNING)"' "$out" || true)"
  echo "pending scenario $scenario: $ok checks passed, $bad failed or warned (exit code $rc)"
  if [ "$rc" -ne 0 ] || [ "$bad" -ne 0 ] || [ "$ok" -eq 0 ]; then
    grep -B3 -A3 -E '"status": "(FAILURE|WARNING)"' "$out" || tail -20 "$out"
    status=1
  fi
done
exit "$status"
