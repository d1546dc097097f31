#!/usr/bin/env bash
# Runs every test of the project. Installs what it needs itself (a Python venv for interop tests).
# Usage: scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's header names the time spent so far (the whole run must stay well under CI's limit).
step() { printf '\n==> %s   [%dm%02ds]\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

step "cargo fmt --check"
cargo fmt --all -- --check

step "cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings

# Every feature combination core documents builds warning-free, tests included (the default set is
# covered above).
for features in "" http schemars macros tls fuzzing redis; do
  step "cargo clippy -p libmcp --no-default-features ${features:+--features $features}"
  cargo clippy -p libmcp --no-default-features ${features:+--features "$features"} --tests --locked -- -D warnings
done
step "cargo clippy -p libmcp-examples --features redis (everything-server --redis)"
cargo clippy -p libmcp-examples --features redis --all-targets --locked -- -D warnings

step "cargo doc (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet

step "cargo test"
cargo test --workspace --locked

for extra in scripts/test.d/*.sh; do
  [ -e "$extra" ] || continue
  step "$extra"
  bash "$extra"
done
echo
echo "all test steps passed in $((SECONDS / 60)) min $((SECONDS % 60)) s"
