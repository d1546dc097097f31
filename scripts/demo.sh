#!/usr/bin/env bash
# Demo: the `mcp` command-line tool against the everything-server, in both protocol eras.
#
# Elicitation in this demo is answered non-interactively: stdin is redirected from /dev/null, so `mcp`
# fills each form from its `--answer KEY=VALUE` flags plus the schema's defaults (and would decline a
# form whose required fields stayed empty).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release -p libmcp-examples --quiet
BIN=target/release
SERVER=("$BIN/everything-server")

run() {
    echo
    echo "\$ mcp $*"
    "$BIN/mcp" "$@" </dev/null
}

for ERA in "--legacy 2025-11-25" "--modern 2026-07-28"; do
    echo
    echo "================ mcp $ERA ================"
    # shellcheck disable=SC2086 # ERA is two words on purpose
    run $ERA info -- "${SERVER[@]}"
    run $ERA tools -- "${SERVER[@]}"
    run $ERA call test_simple_text -- "${SERVER[@]}"
    run $ERA --answer name=Ada call test_input_required_result_elicitation -- "${SERVER[@]}"
    run $ERA read test://static-text -- "${SERVER[@]}"
    run $ERA prompt test_prompt_with_arguments '{"arg1":"hello","arg2":"world"}' -- "${SERVER[@]}"
done
echo
echo "demo finished"
