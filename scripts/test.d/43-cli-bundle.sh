#!/usr/bin/env bash
# `mcp pack` checked by the official MCP Bundle CLI (@anthropic-ai/mcpb, pinned, installed into
# .tools/mcpb from the npm registry): a bundle of the small standard-library Python server of
# examples/tests/fixtures/pack is unpacked by `mcpb unpack`, its manifest passes `mcpb validate`,
# `mcpb info` reads the archive, and the unpacked server answers `mcp tools` as the bundle's
# manifest starts it. A manifest without its author must fail `mcpb validate` (the check is live).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh

MCPB_VERSION="2.1.2"
tools_dir="$(pwd)/.tools/mcpb"
stamp="$tools_dir/.installed-$MCPB_VERSION"
if [ ! -f "$stamp" ]; then
  mkdir -p "$tools_dir"
  (
    cd "$tools_dir"
    [ -f package.json ] || echo '{"name":"libmcp-mcpb-tools","private":true}' > package.json
    npm install --no-audit --no-fund --loglevel=error "@anthropic-ai/mcpb@$MCPB_VERSION"
  )
  touch "$stamp"
fi
mcpb() { node "$tools_dir/node_modules/@anthropic-ai/mcpb/dist/cli/cli.js" "$@"; }

build_debug_bins
mcp="$(target_dir)/debug/mcp"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp examples/tests/fixtures/pack/weather.py "$work/"
(cd "$work" && USER=ci "$mcp" pack --author "libmcp tests" -- python3 weather.py)
bundle="$work/weather-1.2.0.mcpb"
mcpb info "$bundle"
mcpb unpack "$bundle" "$work/unpacked"
mcpb validate "$work/unpacked/manifest.json"
# The server as the manifest starts it (${__dirname} is the bundle's folder).
command=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); c=m["server"]["mcp_config"]; print(c["command"]); [print(a.replace("${__dirname}", sys.argv[2])) for a in c["args"]]' \
  "$work/unpacked/manifest.json" "$work/unpacked")
mapfile -t argv <<< "$command"
"$mcp" tools -- "${argv[@]}" | tee "$work/tools.txt"
grep -q '^forecast  ' "$work/tools.txt"
# A manifest without its required author is refused: the validator really checks.
python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); del m["author"]; json.dump(m, open(sys.argv[2], "w"))' \
  "$work/unpacked/manifest.json" "$work/no-author.json"
if mcpb validate "$work/no-author.json" > "$work/refused.txt" 2>&1; then
  echo "error: mcpb validate accepted a manifest without an author" >&2
  exit 1
fi
echo "mcp pack: the bundle passes mcpb validate/info/unpack and its server answers; a manifest without an author is refused"
