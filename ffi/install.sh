#!/usr/bin/env bash
# Installs the C library into a prefix:
#   PREFIX/lib/libmcp.so.VERSION (SONAME libmcp.so.VERSION), libmcp.so -> it, libmcp.a
#   PREFIX/include/mcp.h, mcp.hpp (the C++ layer)
#   PREFIX/lib/pkgconfig/mcp.pc               (pkg-config --cflags --libs mcp)
#   PREFIX/lib/pkgconfig/mcp-static.pc        (pkg-config --static --libs mcp-static: libmcp.a)
#   PREFIX/lib/cmake/mcp/mcpConfig*.cmake     (find_package(mcp CONFIG) -> mcp::mcp, mcp::mcp_static)
# Usage: ffi/install.sh [--from DIR] [--relocatable] PREFIX [debug|release]
#   default: builds with cargo first (release unless `debug`), the .pc files name PREFIX;
#   --from DIR: installs the libmcp.so and libmcp.a already in DIR (built elsewhere, e.g. by
#   scripts/dist.sh for another target) without building;
#   --relocatable: the .pc files find the prefix from their own place (`${pcfiledir}/../..`), as
#   the CMake files always do, so the tree can be unpacked anywhere (scripts/dist.sh's C bundle).
set -euo pipefail
cd "$(dirname "$0")/.."
from=""
relocatable=0
while [ $# -gt 0 ]; do
  case "$1" in
    --from) from=${2:?--from needs a directory}; shift 2 ;;
    --relocatable) relocatable=1; shift ;;
    -*) echo "error: unknown option $1 (usage: ffi/install.sh [--from DIR] [--relocatable] PREFIX [debug|release])" >&2; exit 2 ;;
    *) break ;;
  esac
done
prefix=${1:?usage: ffi/install.sh [--from DIR] [--relocatable] PREFIX [debug|release]}
profile=${2:-release}
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

if [ -n "$from" ]; then
  out=$from
  for f in libmcp.so libmcp.a; do
    [ -f "$out/$f" ] || { echo "error: --from $out has no $f" >&2; exit 1; }
  done
else
  flags=(--locked -p libmcp-ffi)
  [ "$profile" = release ] && flags+=(--release)
  cargo build "${flags[@]}" --quiet
  target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c \
    'import json, sys; print(json.load(sys.stdin)["target_directory"])')
  out="$target_dir/$profile"
fi
version=$(cargo metadata --format-version 1 --no-deps | python3 -c \
  'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "libmcp-ffi"))')
# What a program linking libmcp.a also needs (from `--print native-static-libs` on glibc).
native_libs="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
pc_prefix=$prefix
# pkg-config sets pcfiledir to the directory of the .pc file it reads (pkg-config(1)).
[ "$relocatable" = 1 ] && pc_prefix='${pcfiledir}/../..'

install -d "$prefix/lib/pkgconfig" "$prefix/lib/cmake/mcp" "$prefix/include"
install -m 0755 "$out/libmcp.so" "$prefix/lib/libmcp.so.$version"
ln -sf "libmcp.so.$version" "$prefix/lib/libmcp.so"
install -m 0644 "$out/libmcp.a" "$prefix/lib/libmcp.a"
install -m 0644 include/mcp.h "$prefix/include/mcp.h"
install -m 0644 include/mcp.hpp "$prefix/include/mcp.hpp"
subst() {
  sed -e "s|@PREFIX@|$3|g" -e "s|@VERSION@|$version|g" -e "s|@NATIVE_LIBS@|$native_libs|g" "$1" > "$2"
}
subst ffi/pkg/mcp.pc.in "$prefix/lib/pkgconfig/mcp.pc" "$pc_prefix"
subst ffi/pkg/mcp-static.pc.in "$prefix/lib/pkgconfig/mcp-static.pc" "$pc_prefix"
subst ffi/pkg/mcpConfig.cmake.in "$prefix/lib/cmake/mcp/mcpConfig.cmake" "$prefix"
subst ffi/pkg/mcpConfigVersion.cmake.in "$prefix/lib/cmake/mcp/mcpConfigVersion.cmake" "$prefix"
echo "installed libmcp $version (${from:-$profile}) into $prefix"
