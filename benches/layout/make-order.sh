#!/usr/bin/env bash
# Rebuilds benches/layout/echo-libmcp.order (see order.py) from the echo-libmcp server built with
# the `dist` profile, the one the benchmarks run. Needs valgrind and nm. Run it after changes that
# rename or add functions on the serving path; a stale list still links (unknown names are
# skipped), it only leaves more of the code resident. The next `benches/run.sh` relinks every
# benchmark binary (a few minutes: each is optimised as a whole program).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --profile dist -p libmcp-bench --bin echo-libmcp
python3 benches/layout/order.py target/dist/echo-libmcp > benches/layout/echo-libmcp.order.new
mv benches/layout/echo-libmcp.order.new benches/layout/echo-libmcp.order
wc -l benches/layout/echo-libmcp.order
