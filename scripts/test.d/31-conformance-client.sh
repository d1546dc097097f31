#!/usr/bin/env bash
# The official conformance suite against libmcp's everything-client over Streamable HTTP: every scored
# client scenario that needs no OAuth, one by one, at both revisions (2025-11-25 and 2026-07-28), plus
# the not-yet-scored json-schema-2020-12-preservation. The full `--requirements` runs (which include the
# OAuth scenarios this client does not implement yet) are in scripts/conformance-client.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/conformance-env.sh
conformance_install

cargo build -p libmcp-examples --bin everything-client --locked --quiet
target_dir="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
client="$target_dir/debug/everything-client"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

legacy=(initialize tools_call elicitation-sep1034-client-defaults sse-retry json-schema-2020-12-preservation)
modern=(tools_call request-metadata http-standard-headers http-custom-headers http-invalid-tool-headers
        sep-2322-client-request-state json-schema-ref-no-deref json-schema-2020-12-preservation)

failed=()
run() {
  local scenario=$1 rev=$2
  if conformance client --command "$client" --scenario "$scenario" --spec-version "$rev" \
      --timeout 60000 -o "$out" > "$out/log.txt" 2>&1; then
    echo "ok   $rev $scenario"
  else
    echo "FAIL $rev $scenario"
    grep -E 'FAILURE|WARNING|Passed:' "$out/log.txt" | sed 's/^/     /' || true
    failed+=("$rev:$scenario")
  fi
}
for s in "${legacy[@]}"; do run "$s" 2025-11-25; done
for s in "${modern[@]}"; do run "$s" 2026-07-28; done

if [ ${#failed[@]} -gt 0 ]; then
  echo "conformance (client): ${#failed[@]} scenario(s) failed: ${failed[*]}" >&2
  exit 1
fi
echo "conformance (client): $(( ${#legacy[@]} + ${#modern[@]} )) scenario runs passed"
