#!/usr/bin/env bash
# Installs the C library into a prefix:
#   PREFIX/lib/libmcp.so.VERSION (SONAME libmcp.so.VERSION), libmcp.so -> it, libmcp.a
#   PREFIX/include/mcp.h
#   PREFIX/lib/pkgconfig/mcp.pc               (pkg-config --cflags --libs mcp)
#   PREFIX/lib/pkgconfig/mcp-static.pc        (pkg-config --static --libs mcp-static: libmcp.a)
#   PREFIX/lib/cmake/mcp/mcpConfig*.cmake     (find_package(mcp CONFIG) -> mcp::mcp, mcp::mcp_static)
# Usage: ffi/install.sh PREFIX [debug|release]   (default release; builds with cargo first)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:?usage: ffi/install.sh PREFIX [debug|release]}
profile=${2:-release}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

flags=(--locked -p libmcp-ffi)
[ "$profile" = release ] && flags+=(--release)
cargo build "${flags[@]}" --quiet
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c \
  'import json, sys; print(json.load(sys.stdin)["target_directory"])')
out="$target_dir/$profile"
version=$(cargo metadata --format-version 1 --no-deps | python3 -c \
  'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "libmcp-ffi"))')
# What a program linking libmcp.a also needs (from `--print native-static-libs` on glibc).
native_libs="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"

install -d "$prefix/lib/pkgconfig" "$prefix/lib/cmake/mcp" "$prefix/include"
install -m 0755 "$out/libmcp.so" "$prefix/lib/libmcp.so.$version"
ln -sf "libmcp.so.$version" "$prefix/lib/libmcp.so"
install -m 0644 "$out/libmcp.a" "$prefix/lib/libmcp.a"
install -m 0644 include/mcp.h "$prefix/include/mcp.h"
subst() {
  sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" -e "s|@NATIVE_LIBS@|$native_libs|g" "$1" > "$2"
}
subst ffi/pkg/mcp.pc.in "$prefix/lib/pkgconfig/mcp.pc"
subst ffi/pkg/mcp-static.pc.in "$prefix/lib/pkgconfig/mcp-static.pc"
subst ffi/pkg/mcpConfig.cmake.in "$prefix/lib/cmake/mcp/mcpConfig.cmake"
subst ffi/pkg/mcpConfigVersion.cmake.in "$prefix/lib/cmake/mcp/mcpConfigVersion.cmake"
echo "installed libmcp $version ($profile) into $prefix"
