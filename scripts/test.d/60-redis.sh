#!/usr/bin/env bash
# Many instances on shared Redis state: installs the Debian package redis-server when
# missing, starts one on a free loopback port (no persistence; its data dir is removed afterwards),
# and runs the Redis integration tests (core/tests/redis_cluster.rs, feature `redis`) against it:
# libmcp instances behind a round-robin proxy, and a Redis restart (on a second server the test
# starts and stops itself). REDIS_URL is always set here, so none of those tests skips. Then
# tests/c/redis.c with REDIS_URL: two C servers on the Redis, a legacy session continued across them
# (mcp_redis_connect, mcp_server_builder_set_redis, mcp_http_server_config_set_redis). Then three
# everything-servers (`--redis`) behind a round-robin proxy (scripts/lib/round_robin_proxy.py, every
# request to the next instance) through the official conformance suite's server legs, both
# --requirements (2025-11-25 and 2026-07-28), and the official Python SDK client's HTTP interop tests
# (tests/interop/test_interop.py, the http-* connections, both eras) through the same proxy. Last,
# the Python and Node packages' own Redis tests (bindings-python/tests/test_redis.py,
# bindings-node/test/redis.test.js): two servers of each on the Redis.
set -euo pipefail
cd "$(dirname "$0")/../.."
step() { printf -- '--- %s\n' "$*"; }
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh

ensure_debian_packages redis-server

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
dir=$(mktemp -d)
step "redis-server on 127.0.0.1:$port"
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" \
  --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
PIDS=()
stop() {
  for pid in "${PIDS[@]}"; do stop_server "$pid"; done
  if [ -f "$dir/redis.pid" ]; then
    # Not our child (it daemonized): wait until it has exited, so that it writes no more into $dir.
    redis_pid=$(cat "$dir/redis.pid")
    kill "$redis_pid" 2> /dev/null || true
    while kill -0 "$redis_pid" 2> /dev/null; do sleep 0.1; done
  fi
  rm -rf "$dir"
}
trap stop EXIT
for _ in $(seq 100); do
  if redis-cli -p "$port" ping 2> /dev/null | grep -q PONG; then break; fi
  sleep 0.1
done
redis-cli -p "$port" ping | grep -q PONG

# The workspace's own build (build_debug_bins' features, as `cargo test --workspace` built it), not
# `-p libmcp --features redis`, whose other feature set would build libmcp and its tests again.
step "cargo test --workspace --test redis_cluster"
REDIS_URL="redis://127.0.0.1:$port/0" cargo test --workspace --locked "${WORKSPACE_FEATURES[@]}" --test redis_cluster

step "C ABI: two C servers on Redis (tests/c/redis.c)"
ffi/install.sh "$dir/c-prefix" debug > /dev/null
# shellcheck disable=SC2046
gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -g tests/c/redis.c -o "$dir/redis-c" \
  $(PKG_CONFIG_PATH="$dir/c-prefix/lib/pkgconfig" pkg-config --cflags --libs mcp) \
  -Wl,-rpath,"$dir/c-prefix/lib" -lpthread
REDIS_URL="redis://127.0.0.1:$port/2" "$dir/redis-c" --down | grep -q "all checks passed"

step "conformance server legs through a round-robin proxy over three everything-servers on Redis"
conformance_install
build_debug_bins
bin="$(target_dir)/debug/everything-server"
ports=()
for i in 1 2 3; do
  start_http_server "$dir/server-$i.log" "$bin" --http 127.0.0.1:0 --redis "redis://127.0.0.1:$port/1"
  PIDS+=("$SERVER_PID")
  ports+=("$SERVER_PORT")
done
start_http_server "$dir/proxy.log" python3 scripts/lib/round_robin_proxy.py "${ports[@]}"
proxy_pid="$SERVER_PID"
proxy_port="$SERVER_PORT"
PIDS+=("$proxy_pid")
status=0
conformance_server_legs "Rust, 3 instances on Redis" "http://localhost:$proxy_port/mcp" "$dir" || status=1

step "the official Python SDK client (tests/interop, http-* connections) through the proxy"
ensure_venv .venv tests/interop/requirements.txt
LIBMCP_BIN_DIR="$(target_dir)/debug" LIBMCP_EVERYTHING_HTTP_UPSTREAM="http://127.0.0.1:$proxy_port" \
  .venv/bin/python -m pytest -q -p no:cacheprovider tests/interop/test_interop.py -k "http-" || status=1
stop_server "$proxy_pid"
grep "requests per backend" "$dir/proxy.log" || true

# Python (bindings-python/tests/test_redis.py): two Python servers on this Redis continue one legacy
# session; on the package step 40 installed into .venv.
step "the Python package's Server(redis=...) (bindings-python/tests/test_redis.py)"
REDIS_URL="redis://127.0.0.1:$port/2" .venv/bin/python -m pytest -q -p no:cacheprovider \
  bindings-python/tests/test_redis.py || status=1

# Node (bindings-node/test/redis.test.js): two Node servers (`new Server(info, {redis})`) continue one
# legacy session, and a tool added on one reaches the listeners of the other (a 2026-07-28 listen
# stream, a legacy GET stream); on the addon step 41 built (built here if missing).
step "the Node package's new Server(info, {redis}) (bindings-node/test/redis.test.js)"
if ! ls bindings-node/*.node > /dev/null 2>&1; then
  (cd bindings-node && npm ci --no-audit --no-fund --loglevel=error && npx napi build --platform)
fi
(cd bindings-node && REDIS_URL="redis://127.0.0.1:$port/3" node --test test/redis.test.js) || status=1
exit "$status"
