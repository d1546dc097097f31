#!/usr/bin/env bash
# The Python package (bindings-python): builds the extension with maturin in debug mode into the
# workspace's target directory (no separate release build of the dependency tree), installs it into
# the venv at .venv (editable), then runs its pytest suite (both eras over stdio and HTTP, MRTR, errors,
# cancellation, concurrency, exit and fork, trio, OAuth client and resource server against the test
# authorization server, the official SDK as a client and as a server, the Rust
# everything-server as a server, pydantic validation, the SDK's FastMCP/MCPServer signatures,
# the SDK's own example servers compared on the SDK and on libmcp (those that need a service with a
# PostgreSQL server with pgvector, an Xvfb display, and without the OpenAI and SMS APIs this machine
# cannot reach), and the MCP Inspector's CLI as a
# client), `mypy.stubtest` on the native module's stubs and `mypy --strict` on the package and
# examples/python; then the pytest suite again on CPython 3.10 when the machine has it (in .venv-py310).
# Creates or reuses .venv and installs bindings-python/tests/requirements.txt into it. Needs python3
# (with venv), node and npm, and access to PyPI and the npm registry on the first run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh

venv=.venv
ensure_venv "$venv" bindings-python/tests/requirements.txt

# The MCP Inspector's command line (test_inspector.py): @modelcontextprotocol/inspector-cli from the
# npm registry, installed once into target/inspector-cli (in the background while the builds run);
# it runs on the machine's node.
inspector="$(target_dir)/inspector-cli"
inspector_cli="$inspector/node_modules/@modelcontextprotocol/inspector-cli/build/index.js"
inspector_install=""
if [ ! -f "$inspector_cli" ]; then
  mkdir -p "$inspector"
  [ -f "$inspector/package.json" ] || echo '{"name":"libmcp-inspector-cli","private":true}' > "$inspector/package.json"
  (cd "$inspector" && npm install --no-audit --no-fund --loglevel=error @modelcontextprotocol/inspector-cli@1.0.3) \
    > "$inspector/install.log" 2>&1 &
  inspector_install=$!
fi

# maturin finds the venv through VIRTUAL_ENV; the build lands in $(target_dir)/debug like cargo's own.
VIRTUAL_ENV="$PWD/$venv" PATH="$PWD/$venv/bin:$PATH" \
  "$venv/bin/maturin" develop --quiet --locked -m bindings-python/Cargo.toml
# The Rust everything-server, a peer of the Python client in test_client_peers.py.
build_debug_bins
bin_dir="$(target_dir)/debug"

# The official SDK's example servers (test_sdk_examples.py): the sdists of mcp 1.30 (FastMCP) and
# mcp 2.3 (MCPServer), fetched once into target/sdk-sdists, and the SDK 1.x venv of step 20
# (.venv-sdk1) with this build of libmcp (maturin only installs it: the extension is built above).
sdists="$(target_dir)/sdk-sdists"
for sdk in mcp-1.30.0 mcp-2.3.0; do
  if [ ! -d "$sdists/$sdk/examples" ]; then
    mkdir -p "$sdists"
    "$venv/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
      "${sdk/-/==}" -d "$sdists"
    tar -xzf "$sdists/$sdk.tar.gz" -C "$sdists" "$sdk/examples"
  fi
done
ensure_venv .venv-sdk1 tests/interop/sdk1/requirements.txt
# The example servers that need a service (test_sdk_example_services.py): their packages in both
# SDK venvs (pgserver's PostgreSQL with pgvector among them), an X server without a screen and the
# screenshot program pyautogui uses on X11 (apt, when missing).
ensure_venv "$venv" bindings-python/tests/sdk_examples/requirements.txt
ensure_venv .venv-sdk1 bindings-python/tests/sdk_examples/requirements.txt
ensure_debian_packages xvfb scrot
VIRTUAL_ENV="$PWD/.venv-sdk1" PATH="$PWD/.venv-sdk1/bin:$PATH" \
  "$venv/bin/maturin" develop --quiet --locked -m bindings-python/Cargo.toml

if [ -n "$inspector_install" ] && ! wait "$inspector_install"; then
  cat "$inspector/install.log" >&2
  echo "error: installing @modelcontextprotocol/inspector-cli failed" >&2
  exit 1
fi

# pytest exits 5 when it collects no tests; that is a failure here, as is any other non-zero status.
LIBMCP_SDK_SDISTS="$sdists" LIBMCP_BIN_DIR="$bin_dir" LIBMCP_INSPECTOR_CLI="$inspector_cli" \
  "$venv/bin/python" -m pytest -q -p no:cacheprovider \
  bindings-python/tests
"$venv/bin/python" -m mypy.stubtest libmcp._native
"$venv/bin/python" -m mypy --strict --no-incremental bindings-python/python/libmcp examples/python

# CPython 3.10, the oldest the abi3 extension supports, when the machine has it (on PATH or under
# pyenv): the same suite in a venv of its own, on the extension built above (maturin finds it
# fresh and only installs it).
py310=""
for candidate in "$(command -v python3.10 || true)" "$HOME"/.pyenv/versions/3.10.*/bin/python3.10; do
  if [ -n "$candidate" ] && [ -x "$candidate" ] \
    && "$candidate" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 10))' 2> /dev/null; then
    py310=$candidate
    break
  fi
done
if [ -n "$py310" ]; then
  echo "--- the pytest suite on $("$py310" --version)"
  PYTHON="$py310" ensure_venv .venv-py310 bindings-python/tests/requirements.txt
  VIRTUAL_ENV="$PWD/.venv-py310" PATH="$PWD/.venv-py310/bin:$PATH" \
    .venv-py310/bin/maturin develop --quiet --locked -m bindings-python/Cargo.toml
  # The comparisons with the SDK's examples ran above (their servers run in their own venvs), and so
  # did the Inspector's calls (the JSON-text arguments they send are test_pydantic.py's on 3.10 too).
  LIBMCP_BIN_DIR="$bin_dir" .venv-py310/bin/python -m pytest -q -p no:cacheprovider bindings-python/tests \
    --ignore bindings-python/tests/test_sdk_examples.py --ignore bindings-python/tests/test_sdk_example_services.py \
    --ignore bindings-python/tests/test_inspector.py
else
  echo "--- no CPython 3.10 on this machine: the suite ran on $("$venv/bin/python" --version) only"
fi
