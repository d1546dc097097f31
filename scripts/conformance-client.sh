#!/usr/bin/env bash
# The full client conformance runs, `--requirements 2025-11-25` and `--requirements 2026-07-28`, against
# libmcp's everything-client. Not part of scripts/test.sh: the scored sets include the OAuth (auth/*)
# scenarios, which this client does not implement yet, so these runs are expected to fail on those.
# Prints the suite's summary for each revision and exits with the suite's status.
# Usage: scripts/conformance-client.sh [output-dir]
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/conformance-env.sh
conformance_install

cargo build -p libmcp-examples --bin everything-client --locked --quiet || exit 1
target_dir="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
client="$target_dir/debug/everything-client"
out="${1:-$(mktemp -d)}"
mkdir -p "$out"

status=0
for rev in 2025-11-25 2026-07-28; do
  echo "== conformance client --requirements $rev (results in $out/$rev)"
  conformance client --command "$client" --requirements "$rev" --timeout 60000 -o "$out/$rev" \
    > "$out/$rev.log" 2>&1 || status=1
  # The suite's per-scenario lines ("✓ name: n passed, m failed"), then its totals.
  grep -E '^(✓|✗) ' "$out/$rev.log" | sed 's/^/  /'
  pass=$(grep -cE '^✓ ' "$out/$rev.log" || true)
  fail=$(grep -cE '^✗ ' "$out/$rev.log" || true)
  echo "  scenarios: $pass passed, $fail failed"
  grep -E '^(Total:|Not scored)' "$out/$rev.log" | sed 's/^/  /'
done
exit $status
