#!/usr/bin/env bash
# The full client conformance runs against libmcp's everything-client: `--requirements 2025-11-25`
# and `--requirements 2026-07-28` (every scored scenario, OAuth included, no baseline), then the
# 2025-03-26 OAuth back-compat scenarios (conformance_client_legs in scripts/lib/conformance-env.sh).
# The not-scored OAuth extension scenarios (client credentials, EMA, DPoP, WIF) run too but do not
# decide the exit code. scripts/test.d/31-conformance-client.sh runs this.
# Usage: scripts/conformance-client.sh [output-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh
conformance_install

cargo build -p libmcp-examples --bin everything-client --locked --quiet
client="$(target_dir)/debug/everything-client"
if [ $# -ge 1 ]; then
  out="$1"
else
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

if ! conformance_client_legs Rust "$client" "$out"; then
  echo "conformance (client): failures above (logs in $out when a directory was given)" >&2
  exit 1
fi
