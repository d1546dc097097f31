# Sourced by the test steps: helpers every step needs once.
#   target_dir                         the workspace's cargo target directory
#   start_http_server LOG CMD [ARGS]   starts CMD in the background with stderr to LOG and waits until it
#                                      prints "listening on http://127.0.0.1:PORT/mcp"; sets SERVER_PID
#                                      and SERVER_PORT (returns non-zero, with the log on stderr, if the
#                                      server exits first or says nothing within 30 s)
#   stop_server PID                    SIGTERM, then waits for it (silent if it is gone already)
#   ensure_venv VENV REQUIREMENTS      creates the venv VENV if missing (with $PYTHON, python3 by
#                                      default) and installs REQUIREMENTS into it, again only when that
#                                      file changed since its last install
#   build_debug_bins                   builds the workspace's binaries (debug) the way scripts/test.sh's
#                                      `cargo test --workspace` builds them, with the same feature set
#                                      (WORKSPACE_FEATURES),
#                                      so that right after that command it builds nothing (a
#                                      `cargo build -p X` would rebuild much of the dependency tree
#                                      with X's own features)
#   ensure_debian_packages PKG...      installs (apt-get) each package that is missing: neither a
#                                      command of the same name (pkg-config, valgrind) nor installed
#                                      according to dpkg (libraries: libmicrohttpd-dev); fails when
#                                      that needs root and apt-get and there are none

target_dir() {
  cargo metadata --format-version 1 --no-deps | python3 -c \
    'import json, sys; print(json.load(sys.stdin)["target_directory"])'
}

start_http_server() {
  local log="$1"
  shift
  : > "$log"   # exists before the server starts, so the port loop can read it
  "$@" 2> "$log" &
  SERVER_PID=$!
  SERVER_PORT=""
  for _ in $(seq 1 300); do
    SERVER_PORT="$(sed -n 's#^listening on http://127\.0\.0\.1:\([0-9]*\)/mcp$#\1#p' "$log")"
    [ -n "$SERVER_PORT" ] && return 0
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "error: $1 exited before it reported its port:" >&2
      cat "$log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "error: $1 did not report its port within 30 s:" >&2
  cat "$log" >&2
  kill "$SERVER_PID" 2>/dev/null || true
  return 1
}

stop_server() {
  [ -n "${1:-}" ] || return 0
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

ensure_venv() {
  local venv="$1" requirements="$2"
  local stamp="$venv/.$(echo "$requirements" | tr '/' '_').sha256"
  if [ ! -x "$venv/bin/python" ]; then
    "${PYTHON:-python3}" -m venv "$venv" || {
      echo "error: could not create $venv (on Debian/Ubuntu: apt-get install python3-venv)" >&2
      return 1
    }
  fi
  local want
  want=$(sha256sum "$requirements" | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    echo "$want" > "$stamp"
  fi
}

# The one feature selection of the workspace's debug builds: `cargo test --workspace` (scripts/test.sh)
# and build_debug_bins both build with it, so no step rebuilds the dependency tree with another
# (`libmcp-examples/redis` gives the everything-server its `--redis`, scripts/test.d/60-redis.sh;
# the libmcp crate has `redis` already, through the bindings that depend on it).
WORKSPACE_FEATURES=(--features libmcp-examples/redis)

build_debug_bins() {
  cargo build --workspace --tests --locked --quiet "${WORKSPACE_FEATURES[@]}"
}

ensure_debian_packages() {
  local missing=() pkg
  for pkg in "$@"; do
    command -v "$pkg" > /dev/null && continue
    [ "$(dpkg-query -W -f '${db:Status-Status}' "$pkg" 2> /dev/null)" = installed ] && continue
    missing+=("$pkg")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo > /dev/null || {
      echo "error: ${missing[*]} missing and cannot be installed (need root or sudo, and apt-get)" >&2
      return 1
    }
    sudo=sudo
  fi
  command -v apt-get > /dev/null || {
    echo "error: ${missing[*]} missing and cannot be installed (no apt-get)" >&2
    return 1
  }
  echo "--- installing ${missing[*]} (apt-get)"
  # The lock timeout lets two installs (two test lanes) wait for each other instead of failing.
  $sudo apt-get -o DPkg::Lock::Timeout=600 update -qq > /dev/null
  DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
    --no-install-recommends "${missing[@]}" > /dev/null
}
