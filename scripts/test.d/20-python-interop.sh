#!/usr/bin/env bash
# Interop with the official MCP Python SDK (tests/interop): the SDK's client against libmcp's
# everything-server, and libmcp's `mcp` CLI against a server written with the SDK, both eras, over stdio
# and Streamable HTTP (every HTTP message schema-checked through tests/interop/http_tap.py), plus the
# CLI against the SDK's 2024-11-05 HTTP+SSE server through the client's fallback, and the SDK's HTTP+SSE
# client (mcp.client.sse) against everything-server --http --http-sse, and the SDK's OAuth client
# (OAuthClientProvider) against the auth-server example; and the CLI against a Python SDK 1.x server
# (FastMCP on mcp 1.30, legacy era only) over stdio, Streamable HTTP and HTTP+SSE.
# Creates or reuses a venv at .venv, installs tests/interop/requirements.txt into it, builds the example
# binaries and runs pytest. Needs python3 (with venv) and access to PyPI on the first run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh

venv=.venv
ensure_venv "$venv" tests/interop/requirements.txt
# The Python SDK 1.x (most deployed servers) cannot share a venv with 2.x: tests/interop/test_sdk1.py
# runs its server on this one.
ensure_venv .venv-sdk1 tests/interop/sdk1/requirements.txt

build_debug_bins
bin_dir="$(target_dir)/debug"

# pytest exits 5 when it collects no tests; that is a failure here, as is any other non-zero status.
LIBMCP_BIN_DIR="$bin_dir" LIBMCP_SDK1_PYTHON="$PWD/.venv-sdk1/bin/python" "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/interop
