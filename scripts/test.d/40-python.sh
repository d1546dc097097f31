#!/usr/bin/env bash
# The Python package (bindings-python): builds the extension with maturin in debug mode into the
# workspace's target directory (no separate release build of the dependency tree), installs it into
# the venv at .venv (editable), then runs its pytest suite (both eras over stdio and HTTP, MRTR, errors,
# cancellation, concurrency, exit and fork, OAuth client and resource server against the test
# authorization server, the official SDK as a client and as a server, the Rust
# everything-server as a server), `mypy.stubtest` on the
# native module's stubs and `mypy --strict` on the package and examples/python.
# Creates or reuses .venv and installs bindings-python/tests/requirements.txt into it. Needs python3
# (with venv) and access to PyPI on the first run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh

venv=.venv
ensure_venv "$venv" bindings-python/tests/requirements.txt

# maturin finds the venv through VIRTUAL_ENV; the build lands in $(target_dir)/debug like cargo's own.
VIRTUAL_ENV="$PWD/$venv" PATH="$PWD/$venv/bin:$PATH" \
  "$venv/bin/maturin" develop --quiet --locked -m bindings-python/Cargo.toml
# The Rust everything-server, a peer of the Python client in test_client_peers.py.
build_debug_bins
bin_dir="$(target_dir)/debug"

# pytest exits 5 when it collects no tests; that is a failure here, as is any other non-zero status.
LIBMCP_BIN_DIR="$bin_dir" "$venv/bin/python" -m pytest -q -p no:cacheprovider bindings-python/tests
"$venv/bin/python" -m mypy.stubtest libmcp._native
"$venv/bin/python" -m mypy --strict --no-incremental bindings-python/python/libmcp examples/python
