#!/usr/bin/env bash
# Runs every test of the project. Installs what it needs itself (a Python venv, npm packages, Node 22,
# cbindgen, cargo-fuzz, a nightly toolchain, redis-server).
# Usage: scripts/test.sh
#
# Three lanes run at once, because most steps use one core of two or less (valgrind, the conformance
# suite, the fuzzers, test suites waiting on their servers):
#   - the side lane starts at once: the fuzz step (scripts/test.d/50-fuzz.sh, a nightly workspace with
#     its own target directory in fuzz/), then the distribution step (70-dist.sh: builds for an
#     explicit --target, whose directory the main lane never locks; the conformance suite it shares
#     with the other lanes is installed under a lock), then the C ABI step (10-c-abi.sh: valgrind
#     and sanitizers; its cargo builds wait for the main lane's at cargo's lock, it installs nothing
#     the main lane does, and its release leg runs on the C bundle step 70 built);
#   - the main lane runs the lints and `cargo test`, then the Python steps (20, 40, 41-python-...:
#     they share the venvs, which step 40 installs the package into), while
#   - the beside lane, started once `cargo test` has built everything and the shared venvs exist,
#     runs the C conformance, Rust conformance, Node, bundle and C++ steps (`beside_steps`: none of
#     them writes a venv; each has its own scratch directory), taking them from a queue that the
#     main lane also takes from once its Python steps are done;
#   - the steps that use the Python, Node and C builds together (44, 45, 60: `last_steps`) run last,
#     once the beside lane has ended: 44 in a lane of its own ("mounts") beside 45 and 60.
# The Debian packages of all steps are installed first, once. The side and beside lanes' output is
# kept in target/test-logs/{side,beside}.log and printed once each ends, each line prefixed "[side]"
# or "[beside]"; the run fails if any lane failed.
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
# Runs steps one after the other, each headed "STEP (NAME lane)"; the first that fails ends the lane.
# Usage: lane_steps NAME STEP...
lane_steps() {
  local name=$1 extra
  shift
  for extra in "$@"; do
    step "$extra ($name lane)"
    run_step "$extra" || { echo "error: $extra failed"; return 1; }
  done
}
side_steps=(scripts/test.d/50-fuzz.sh scripts/test.d/70-dist.sh scripts/test.d/10-c-abi.sh)
side_lane() {
  lane_steps side "${side_steps[@]:0:2}" || return 1
  # The C ABI step's release leg runs on the C bundle the distribution step has just built
  # (one release build of the library instead of two).
  C_ABI_RELEASE_BUNDLE=$(ls "$(target_dir)"/dist-test/libmcp-*-x86_64-linux-gnu.tar.gz 2> /dev/null) \
    || { echo "error: no C bundle from scripts/test.d/70-dist.sh"; return 1; }
  export C_ABI_RELEASE_BUNDLE
  lane_steps side scripts/test.d/10-c-abi.sh || return 1
  step "side lane done"
}
# Job control gives the side lane a process group of its own, so that one kill stops all of it.
set -m
side_lane > "$side_log" 2>&1 &
side_pid=$!
set +m
# A failure or an interrupt of the main lane stops the other lanes too (the fuzzers included). Each
# step runs under `timeout`, which puts itself and the step in a process group of their own: the
# `timeout` is signalled first (it passes the signal on to its step's group), then the lane.
beside_pid=""
mounts_pid=""
stop_lane() {
  [ -n "$1" ] || return 0
  pkill -TERM -P "$1" -x timeout 2> /dev/null || true
  kill -- -"$1" 2> /dev/null || true
}
trap 'stop_lane "$side_pid"; stop_lane "$beside_pid"; stop_lane "$mounts_pid"
  echo "(the other lanes were stopped; their output so far is in $logs/side.log and beside.log)" >&2' EXIT

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
cargo test --workspace --locked "${WORKSPACE_FEATURES[@]}"

# The venvs the main lane's Python steps and the beside lane's step 12 share, made before the two
# lanes start so that neither installs into them while the other reads them.
step "the shared venvs (.venv, .venv-sdk1)"
ensure_venv .venv tests/interop/requirements.txt
ensure_venv .venv bindings-python/tests/requirements.txt
ensure_venv .venv-sdk1 tests/interop/sdk1/requirements.txt

# The beside steps form a queue that two lanes take from: the beside lane at once, and the main lane
# once its Python steps are done, so that neither lane waits idle for the other. Each line is one
# item, run by one lane step after step (42 uses the addon 41-node builds); the longest come first.
beside_steps=(scripts/test.d/41-node.sh scripts/test.d/42-node-conformance.sh scripts/test.d/12-c-conformance.sh
  scripts/test.d/31-conformance-client.sh scripts/test.d/11-cpp.sh scripts/test.d/30-conformance-server.sh
  scripts/test.d/43-cli-bundle.sh)
queue="$logs/beside-queue"
printf '%s\n' "${beside_steps[0]} ${beside_steps[1]}" "${beside_steps[@]:2}" > "$queue"
rm -f "$logs/beside-failed"
# Prints the queue's next item and removes it (nothing once the queue is empty, or once a step of
# either lane has failed).
next_item() {
  (
    flock 9
    [ -e "$logs/beside-failed" ] || head -n 1 "$queue"
    sed -i 1d "$queue"
  ) 9> "$queue.lock"
}
# Usage: queue_lane NAME (runs the queue's items until it is empty; the first failure ends it)
queue_lane() {
  local item
  while item=$(next_item) && [ -n "$item" ]; do
    # shellcheck disable=SC2086
    lane_steps "$1" $item || { touch "$logs/beside-failed"; return 1; }
  done
}
last_steps=(scripts/test.d/44-mount-interop.sh scripts/test.d/45-soak-hosts.sh scripts/test.d/60-redis.sh)
beside_log="$logs/beside.log"
beside_lane() {
  queue_lane beside || return 1
  step "beside lane done"
}
set -m
beside_lane > "$beside_log" 2>&1 &
beside_pid=$!
set +m

listed() { local item=$1; shift; [[ " $* " == *" $item "* ]]; }
for extra in scripts/test.d/*.sh; do
  listed "$extra" "${side_steps[@]}" "${beside_steps[@]}" "${last_steps[@]}" && continue
  step "$extra"
  run_step "$extra"
done
queue_lane main

step "waiting for the beside lane"
beside_status=0
wait "$beside_pid" || beside_status=$?
sed 's/^/[beside] /' "$beside_log"
beside_pid=""
if [ "$beside_status" != 0 ]; then
  echo "error: the beside lane failed (exit $beside_status); its output is above and in $beside_log" >&2
  exit 1
fi

# Step 44 (the mounts, two at a time) runs beside 45 and 60: they share nothing but the builds,
# which are done by now, and each server listens on a free port of its own.
mounts_log="$logs/mounts.log"
set -m
lane_steps mounts "${last_steps[0]}" > "$mounts_log" 2>&1 &
mounts_pid=$!
set +m
for extra in "${last_steps[@]:1}"; do
  step "$extra"
  run_step "$extra"
done
step "waiting for the mounts lane (${last_steps[0]})"
mounts_status=0
wait "$mounts_pid" || mounts_status=$?
mounts_pid=""
sed 's/^/[mounts] /' "$mounts_log"
if [ "$mounts_status" != 0 ]; then
  echo "error: ${last_steps[0]} failed (exit $mounts_status); its output is above and in $mounts_log" >&2
  exit 1
fi

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
