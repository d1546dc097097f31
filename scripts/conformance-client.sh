#!/usr/bin/env bash
# The full client conformance runs against libmcp's everything-client: `--requirements 2025-11-25`
# and `--requirements 2026-07-28` (every scored scenario, OAuth included, no baseline), then the
# 2025-03-26 OAuth back-compat scenarios. The not-scored json-schema-2020-12-preservation must pass
# too; the other not-scored ones are OAuth extensions (client credentials, EMA, DPoP, WIF) this client
# does not implement. Prints the suite's per-scenario summary for each run and exits non-zero when a
# scored scenario fails. scripts/test.d/31-conformance-client.sh runs this.
# Usage: scripts/conformance-client.sh [output-dir]
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/conformance-env.sh
conformance_install

cargo build -p libmcp-examples --bin everything-client --locked --quiet || exit 1
target_dir="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
client="$target_dir/debug/everything-client"
if [ $# -ge 1 ]; then
  out="$1"
else
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

status=0
for rev in 2025-11-25 2026-07-28; do
  echo "== conformance client --requirements $rev"
  if conformance client --command "$client" --requirements "$rev" --timeout 60000 -o "$out/$rev" \
      > "$out/$rev.log" 2>&1; then
    result=passed
  else
    result=FAILED
    status=1
  fi
  # The suite's per-scenario lines ("✓ name: n passed, m failed"), then its totals.
  grep -E '^(✓|✗) ' "$out/$rev.log" | sed 's/^/  /'
  grep -E '^(Total:|Not scored)' "$out/$rev.log" | sed 's/^/  /'
  # Not scored by the suite, but a behaviour this client has: keep it from regressing.
  if grep -qE '^ *✗ json-schema-2020-12-preservation' "$out/$rev.log"; then
    echo "  json-schema-2020-12-preservation failed"
    result=FAILED
    status=1
  fi
  echo "  requirements $rev: $result"
done

for scenario in auth/2025-03-26-oauth-metadata-backcompat auth/2025-03-26-oauth-endpoint-fallback; do
  if conformance client --command "$client" --scenario "$scenario" --spec-version 2025-03-26 \
      --timeout 60000 -o "$out/backcompat" > "$out/backcompat.log" 2>&1; then
    echo "ok   2025-03-26 $scenario"
  else
    echo "FAIL 2025-03-26 $scenario"
    grep -E 'FAILURE|WARNING|Passed:' "$out/backcompat.log" | sed 's/^/     /' || true
    status=1
  fi
done

if [ $status -ne 0 ]; then
  echo "conformance (client): failures above (logs in $out when a directory was given)" >&2
fi
exit $status
