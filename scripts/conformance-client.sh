#!/usr/bin/env bash
# The full client conformance runs against libmcp's everything-client: `--requirements 2025-11-25`
# and `--requirements 2026-07-28` (every scored scenario, OAuth included, no baseline), then the
# 2025-03-26 OAuth back-compat scenarios (conformance_client_legs in scripts/lib/conformance-env.sh),
# then the not-scored extension scenarios one by one, each of which must pass too: the OAuth
# extensions (client credentials with a JWT assertion and with a secret, enterprise-managed
# authorization, DPoP with and without nonces, workload identity JWT bearer) and the skills extension
# (no file read before a skill is loaded; files failing digest, size or frontmatter checks refused).
# scripts/test.d/31-conformance-client.sh runs this.
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

status=0
conformance_client_legs Rust "$client" "$out" || status=1
conformance_client_extension_scenarios Rust "$client" "$out" || status=1
if [ "$status" -ne 0 ]; then
  echo "conformance (client): failures above (logs in $out when a directory was given)" >&2
  exit 1
fi
