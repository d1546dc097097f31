#!/usr/bin/env bash
# Measures what users install, the x86_64 glibc artifacts scripts/dist.sh writes to dist/ (made
# first when dist/ has none), beside a plain `release` build of the same code:
#   C       benches/c/echo.c built with pkg-config from the unpacked C bundle (its stripped `.so`),
#           and the same program on the `release` libmcp.so, each driven by mcp-bench (stdio, 32 in
#           flight) and mcp-bench --http (32 sessions) beside rmcp and the minimal loop;
#   Python  the shipped wheel in the bench venv (benches/python/run.sh with LIBMCP_WHEEL), sync and
#           async handlers beside the official SDK and the Rust echo server, then the same with a
#           wheel built by `maturin build --release`;
#   Node    the shipped npm packages installed into a project of their own (mcp-bench --node with
#           LIBMCP_NODE_PACKAGE) beside the official SDK and the Rust echo server.
# Each benchmark prints its own table (64 B and 64 KiB, peak RSS, ratios). Arguments go to every
# driver (e.g. --rounds 1, --requests 20000). Not part of the test command: it runs for a long time
# and its figures mean something only on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source scripts/lib/common.sh

dist=${DIST:-dist}
ls "$dist"/libmcp-*-x86_64-linux-gnu.tar.gz > /dev/null 2>&1 || scripts/dist.sh --out "$dist"
version=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c \
  'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "libmcp"))')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cargo build --profile dist --locked -p libmcp-bench --bins
cargo build --release --locked -p libmcp-ffi
bin="$(target_dir)/dist"

# The C echo server twice: on the bundle as a user unpacks it, and on the release build.
tar -C "$work" -xzf "$dist/libmcp-$version-x86_64-linux-gnu.tar.gz"
ffi/install.sh --from "$(target_dir)/release" --relocatable "$work/release" > /dev/null
for build in bundle release; do
  prefix="$work/release"
  [ "$build" = bundle ] && prefix="$work/libmcp-$version-x86_64-linux-gnu"
  # shellcheck disable=SC2046 # pkg-config's flags are words
  cc -std=c11 -O2 -Wall -Wextra -Werror benches/c/echo.c -o "$work/echo-c-$build" \
    $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs mcp) -Wl,-rpath,"$prefix/lib"
done
echo "# artifacts of libmcp $version ($dist) $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores, $(uname -sr)"
ls -l "$dist"/libmcp-* | awk '{printf "#   %8.2f MB  %s\n", $5 / 1048576, $9}'
stat -c '%s %n' "$work/libmcp-$version-x86_64-linux-gnu/lib/libmcp.so.$version" "$work/release/lib/libmcp.so.$version" \
  | awk '{printf "#   %8.2f MB  %s\n", $1 / 1048576, $2}'
for build in bundle release; do
  echo
  echo "## C echo server on the $build libmcp.so: stdio"
  "$bin/mcp-bench" --libmcp "$work/echo-c-$build" "$@"
  echo
  echo "## C echo server on the $build libmcp.so: Streamable HTTP"
  "$bin/mcp-bench" --http --libmcp "$work/echo-c-$build" "$@"
done

echo
echo "## Python: the shipped wheel"
LIBMCP_WHEEL=$(ls "$dist"/libmcp-"$version"-cp310-abi3-manylinux2014_x86_64*.whl) benches/python/run.sh "$@"
echo
echo "## Python: a wheel built with maturin build --release"
benches/python/run.sh "$@"

echo
echo "## Node: the shipped npm packages"
# The official SDK's echo server (benches/node/echo-sdk.js) loads the SDK from bindings-node's dev dependencies.
[ -d bindings-node/node_modules/@modelcontextprotocol/sdk ] || (cd bindings-node && npm ci --silent --no-audit --no-fund)
mkdir -p "$work/npm"
(cd "$work/npm" && npm init -y > /dev/null && npm install --silent --no-audit --no-fund \
  "$root/$dist/libmcp-$version.tgz" "$root/$dist/libmcp-linux-x64-gnu-$version.tgz")
LIBMCP_NODE_PACKAGE="$work/npm/node_modules/libmcp" "$bin/mcp-bench" --node "$@"
