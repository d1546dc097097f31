#!/usr/bin/env bash
# The official conformance suite against libmcp's everything-client: the full client requirement
# sets, `--requirements 2025-11-25` (18 scored scenarios) and `--requirements 2026-07-28` (32), OAuth
# (auth/*) scenarios included, with no expected-failures baseline; the two 2025-03-26 OAuth back-compat
# scenarios, which no requirement set includes; then the not-scored extension scenarios (client
# credentials, enterprise-managed authorization, DPoP, WIF; the four skills client scenarios) one by
# one, each of which must pass.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec scripts/conformance-client.sh
