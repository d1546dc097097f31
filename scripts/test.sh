#!/usr/bin/env bash
# Runs every test of the project. Installs what it needs itself (a Python venv, npm packages, Node 22,
# cbindgen, cargo-fuzz, a nightly toolchain, redis-server).
# Usage: scripts/test.sh
#
# Two lanes run at once, because many steps use one core of two (valgrind, the conformance suite,
# the fuzzers): the side lane runs the fuzz step (scripts/test.d/50-fuzz.sh, a nightly workspace with
# its own target directory in fuzz/), then the distribution step (70-dist.sh: builds for an explicit
# --target, whose directory the main lane never locks; the conformance suite it shares with the main
# lane is installed under a lock), then the C ABI step (10-c-abi.sh: valgrind and sanitizers; its
# cargo builds wait for the main lane's at cargo's lock, it installs nothing the main lane does, and
# its release leg runs on the C bundle step 70 built); the main lane runs the lints, `cargo test` and every other step, in order. The Debian
# packages of all steps are installed first, once. The side lane's output is kept in
# target/test-logs/side.log and printed once it ends, each line prefixed "[side]"; the run fails if
# either lane failed.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step's header names the time spent so far (the whole run must stay well under CI's limit).
step() { printf '\n==> %s   [%dm%02ds]\n' "$*" $((SECONDS / 60)) $((SECONDS % 60)); }

# Runs one scripts/test.d step, stopped (with its whole process group) if it runs past
# STEP_TIMEOUT (30 minutes; on this 2-core machine the slowest step takes about 3 warm, and the
# whole run from a fresh clone 31): a hung test then fails the run, naming the step, instead of
# holding it until CI's own limit.
run_step() {
  local limit=${STEP_TIMEOUT:-30m} status=0
  timeout -k 30s "$limit" bash "$1" || status=$?
  if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    echo "error: $1 ran past $limit and was stopped (a hung test?)" >&2
  fi
  return "$status"
}

step "cargo fmt --check"
cargo fmt --all -- --check

step "Debian packages of the steps (apt-get, when missing)"
source scripts/lib/common.sh
ensure_debian_packages pkg-config cmake valgrind redis-server

logs=target/test-logs
mkdir -p "$logs"
side_log="$logs/side.log"
side_steps=(scripts/test.d/50-fuzz.sh scripts/test.d/70-dist.sh scripts/test.d/10-c-abi.sh)
side_lane() {
  local extra bundle
  for extra in "${side_steps[@]}"; do
    step "$extra (side lane)"
    if [ "$extra" = scripts/test.d/10-c-abi.sh ]; then
      # The C ABI step's release leg runs on the C bundle the distribution step has just built
      # (one release build of the library instead of two).
      bundle=$(ls "$(target_dir)"/dist-test/libmcp-*-x86_64-linux-gnu.tar.gz 2> /dev/null) \
        || { echo "error: no C bundle from scripts/test.d/70-dist.sh"; return 1; }
      C_ABI_RELEASE_BUNDLE="$bundle" run_step "$extra" || { echo "error: $extra failed"; return 1; }
      continue
    fi
    run_step "$extra" || { echo "error: $extra failed"; return 1; }
  done
  step "side lane done"
}
# Job control gives the side lane a process group of its own, so that one kill stops all of it.
set -m
side_lane > "$side_log" 2>&1 &
side_pid=$!
set +m
# A failure or an interrupt of the main lane stops the side lane too (its fuzzers included). Each
# step runs under `timeout`, which puts itself and the step in a process group of their own: the
# `timeout` is signalled first (it passes the signal on to its step's group), then the lane.
trap 'pkill -TERM -P "$side_pid" -x timeout 2> /dev/null; kill -- -$side_pid 2> /dev/null || true' EXIT

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
  [[ " ${side_steps[*]} " == *" $extra "* ]] && continue
  step "$extra"
  run_step "$extra"
done

step "waiting for the side lane"
side_status=0
wait "$side_pid" || side_status=$?
trap - EXIT
sed 's/^/[side] /' "$side_log"
if [ "$side_status" != 0 ]; then
  echo "error: the side lane failed (exit $side_status); its output is above and in $side_log" >&2
  exit 1
fi
echo
echo "all test steps passed in $((SECONDS / 60)) min $((SECONDS % 60)) s"
