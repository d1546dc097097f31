#!/usr/bin/env bash
# The official MCP conformance suite against the C examples: examples/c/everything-server.c
# served over Streamable HTTP at --requirements 2025-11-25 and 2026-07-28 (every scored scenario must
# pass), the four pending, the ten tasks-* and the three sep-2640-skills-* extension scenarios as
# step 30 runs them (a skipped check fails), then the same legs with OAuth required (a token verifier in C;
# tests/c/bearer_proxy.py adds the token the suite cannot send), the official Python SDK's OAuth
# client against it (tests/interop/test_oauth_sdk.py, venv .venv as step 20 makes it), and
# examples/c/everything-client.c through the full client --requirements legs at both revisions
# (every scored scenario, OAuth included) plus the 2025-03-26 OAuth back-compat pair, then the six
# OAuth extension and the four sep-2640-client-* skills scenarios one by one, as step 31 runs the
# Rust everything-client (each must pass). The same server mounted in a libmicrohttpd application of
# its own (examples/c/mhd-server.c, through mcp_http_endpoint; Debian libmicrohttpd-dev) goes
# through the server legs, the pending scenarios (server-sse-polling: resumption with Last-Event-ID
# through the mount), the tasks and skills scenarios, with its /health route polled during the run
# and after; a handler there reads the principal its middleware set and a header the client sent,
# and a client that hangs up mid-call cancels the handler. The C programs are built against libmcp
# installed into a scratch prefix with ffi/install.sh (debug), through pkg-config, with ASan+UBSan:
# any sanitizer report (including a leak at exit) fails the step. Installs Node 22 and the pinned
# suite into .tools/ (scripts/lib/conformance-env.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
# shellcheck source=scripts/lib/conformance-env.sh
source scripts/lib/conformance-env.sh
conformance_install

work="$(target_dir)/c-conformance"
rm -rf "$work"
mkdir -p "$work/bin"
ffi/install.sh "$work/prefix" debug > /dev/null
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2207
libs=($(pkg-config --cflags --libs mcp) -Wl,-rpath,"$work/prefix/lib" -lpthread)
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
for p in everything-server everything-client; do
  gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -g "${san[@]}" "examples/c/$p.c" -o "$work/bin/$p" "${libs[@]}"
done
# Reports go to files (the harness swallows the programs' stderr); checked at the end.
export ASAN_OPTIONS="log_path=$work/asan"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$work/asan"

SERVER_PID=""
# shellcheck disable=SC2086  # SERVER_PID may hold two pids
trap 'for pid in $SERVER_PID; do stop_server "$pid"; done' EXIT
start_http_server "$work/server.log" "$work/bin/everything-server" --http 127.0.0.1:0
url="http://localhost:$SERVER_PORT/mcp"

# Stops the processes PID... (SIGTERM, the server last) and checks that the server, logging to LOG,
# exited cleanly. Usage: stop_checked LOG PID...
stop_checked() {
  local log="$1" pid
  shift
  for pid in "$@"; do stop_server "$pid"; done
  SERVER_PID=""
  grep -q "everything-server: clean exit" "$log" || {
    cat "$log" >&2
    echo "error: the C everything-server ($log) did not exit cleanly on SIGTERM" >&2
    status=1
  }
}

status=0
conformance_server_legs C "$url" "$work" || status=1
conformance_pending_scenarios C "$url" "$work" || status=1
conformance_task_scenarios C "$url" "$work" || status=1
conformance_skills_scenarios C "$url" "$work" || status=1
stop_checked "$work/server.log" "$SERVER_PID"

# The same server mounted in a libmicrohttpd application (/health beside /mcp).
echo "--- the C everything-server mounted in libmicrohttpd (examples/c/mhd-server.c)"
mhd_started=$SECONDS
ensure_debian_packages libmicrohttpd-dev
# shellcheck disable=SC2207
mhd_libs=($(pkg-config --cflags --libs libmicrohttpd))
gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -g "${san[@]}" examples/c/mhd-server.c \
  -o "$work/bin/mhd-server" "${libs[@]}" "${mhd_libs[@]}"
mkdir -p "$work/mhd"
start_http_server "$work/mhd.log" "$work/bin/mhd-server" 127.0.0.1:0
mhd_pid=$SERVER_PID
mhd="http://localhost:$SERVER_PORT"
# The application's own route, once a second while the suite runs.
(while kill -0 "$mhd_pid" 2> /dev/null; do
  curl -s -o /dev/null -w '%{http_code}\n' --max-time 5 "$mhd/health" >> "$work/mhd/health.txt" || true
  sleep 1
done) &
health_pid=$!
conformance_server_legs "C, libmicrohttpd" "$mhd/mcp" "$work/mhd" || status=1
conformance_pending_scenarios "C, libmicrohttpd" "$mhd/mcp" "$work/mhd" || status=1
conformance_task_scenarios "C, libmicrohttpd" "$mhd/mcp" "$work/mhd" || status=1
conformance_skills_scenarios "C, libmicrohttpd" "$mhd/mcp" "$work/mhd" || status=1
kill "$health_pid" 2> /dev/null || true
wait "$health_pid" 2> /dev/null || true
polls=$(wc -l < "$work/mhd/health.txt")
bad_polls=$(grep -vc '^200$' "$work/mhd/health.txt" || true)
after=$(curl -s --max-time 5 "$mhd/health" || true)
echo "/health during the run: $polls polls, $bad_polls not 200; after: ${after:-no answer}"
if [ "$polls" -eq 0 ] || [ "$bad_polls" -ne 0 ] || [ "$after" != ok ]; then
  echo "error: the libmicrohttpd application's /health route did not keep answering" >&2
  status=1
fi
# A handler sees the principal the middleware set (X-User) and a header the client sent; a client
# that hangs up mid-call (the connection suspended, waiting) cancels the handler.
python3 - "$SERVER_PORT" "$work/mhd.log" <<'PY' || status=1
import json, socket, sys, time, urllib.request
port, log = int(sys.argv[1]), sys.argv[2]
def call(name, rid):
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}
    body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                       "params": {"name": name, "arguments": {}, "_meta": meta}}).encode()
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream",
               "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name,
               "x-user": "carol", "x-client-tag": "from-python", "host": f"localhost:{port}",
               "content-length": str(len(body))}
    return body, headers
body, headers = call("http_whoami", 1)
req = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=body, headers=headers)
text = urllib.request.urlopen(req, timeout=10).read().decode()
print("http_whoami:", text)
if "principal=carol tag=from-python" not in text:
    sys.exit("error: the handler did not see the principal and the client's header")
body, headers = call("wait_until_cancelled", 2)
s = socket.create_connection(("127.0.0.1", port))
head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
s.sendall(f"POST /mcp HTTP/1.1\r\n{head}\r\n".encode() + body)
time.sleep(1)
s.close()
for _ in range(100):
    if "wait_until_cancelled was cancelled" in open(log).read():
        print("hanging up mid-call cancelled the handler")
        break
    time.sleep(0.1)
else:
    sys.exit("error: hanging up mid-call did not cancel the handler")
PY
stop_server "$mhd_pid"
grep -q "mhd-server: clean exit" "$work/mhd.log" || {
  cat "$work/mhd.log" >&2
  echo "error: examples/c/mhd-server.c did not exit cleanly on SIGTERM" >&2
  status=1
}
echo "the libmicrohttpd mount took $((SECONDS - mhd_started)) s"

# The same server legs with OAuth required: the server's token verifier (C) accepts one token, and
# tests/c/bearer_proxy.py adds it to every request of the suite (which cannot send one itself).
# A request without the token must get 401 from the server, so the legs did pass through OAuth.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port=$(free_port)
proxy_port=$(free_port)
url="http://localhost:$proxy_port/mcp"
start_http_server "$work/server-oauth.log" "$work/bin/everything-server" --http "127.0.0.1:$port" \
  --oauth-resource "$url" --oauth-token "conformance-token=conformance:mcp:read"
oauth_pid=$SERVER_PID
start_http_server "$work/proxy.log" python3 tests/c/bearer_proxy.py "$proxy_port" "$port" conformance-token
proxy_pid=$SERVER_PID
SERVER_PID="$oauth_pid $proxy_pid"
unauthenticated=$(python3 - "$port" <<'PY'
import sys, urllib.error, urllib.request
req = urllib.request.Request(f"http://127.0.0.1:{sys.argv[1]}/mcp", data=b"{}", method="POST",
                             headers={"content-type": "application/json"})
try:
    urllib.request.urlopen(req)
    print(200)
except urllib.error.HTTPError as e:
    print(e.code, e.headers.get("www-authenticate"))
PY
)
echo "without the token: $unauthenticated"
case "$unauthenticated" in
  "401 Bearer resource_metadata=\"http://localhost:$proxy_port/.well-known/oauth-protected-resource/mcp\""*) ;;
  *) echo "error: the OAuth-protected C server did not answer 401 with its challenge" >&2; status=1 ;;
esac
mkdir -p "$work/oauth"
conformance_server_legs "C, OAuth" "$url" "$work/oauth" || status=1
stop_checked "$work/server-oauth.log" "$proxy_pid" "$oauth_pid"

# The official Python SDK's OAuth client (tests/interop/test_oauth_sdk.py: discovery, registration,
# PKCE, the bearer token, step-up to a tool's scope) against the C everything-server with OAuth.
echo "--- Python SDK OAuth client against the C everything-server"
ensure_venv .venv tests/interop/requirements.txt
LIBMCP_C_EVERYTHING_SERVER="$work/bin/everything-server" .venv/bin/python -m pytest -q \
  -p no:cacheprovider tests/interop/test_oauth_sdk.py || status=1

# The client: the full --requirements legs at both revisions (every scored scenario, OAuth included,
# no baseline), then the 2025-03-26 OAuth back-compat pair, as scripts/conformance-client.sh does for
# the Rust everything-client.
echo "--- conformance client (C)"
conformance_client_legs C "$work/bin/everything-client" "$work" || status=1
# The not-scored extension scenarios (client credentials with a JWT and with a secret,
# enterprise-managed authorization, DPoP with and without nonces, WIF; the skills client scenarios).
conformance_client_extension_scenarios C "$work/bin/everything-client" "$work" || status=1
if ls "$work"/asan.* > /dev/null 2>&1; then
  cat "$work"/asan.* >&2
  echo "error: a sanitizer reported errors in the C examples" >&2
  status=1
fi
exit "$status"
