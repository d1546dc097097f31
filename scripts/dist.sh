#!/usr/bin/env bash
# Builds what users install without a Rust toolchain, into dist/:
#   libmcp-VERSION-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl   (CPython 3.10+)
#   libmcp-VERSION.tar.gz                                 the sdist (builds with maturin, needs Rust)
#   libmcp-VERSION.tgz                                    the npm package (JS, types, loader)
#   libmcp-linux-x64-gnu-VERSION.tgz                      its addon for x86_64 glibc
#   libmcp-VERSION-x86_64-linux-gnu.tar.gz                the C library: lib/ (libmcp.so.VERSION with
#                                                         its SONAME, libmcp.a), include/mcp.h,
#                                                         lib/pkgconfig (relocatable), lib/cmake/mcp
# every one with LICENSE, its native code linked against glibc 2.17 (zig's libc stubs: the wheel's
# manylinux2014 floor) and stripped.
# Usage: scripts/dist.sh [--all] [--profile PROFILE] [--out DIR]
#   --all      also aarch64 glibc (wheel, npm package, C bundle) and x86_64/aarch64 musl (wheel
#              musllinux_1_2, npm package); macOS and Windows are not built (see NOT_BUILT below).
#              Not run by the test command (which builds and checks x86_64 glibc only).
#   --profile  the cargo profile (default dist: fat LTO, one codegen unit, as the benchmarks ship;
#              `release` builds faster, with thin LTO)
#   --out      the output directory (default dist/)
# Installs maturin, ziglang, cargo-zigbuild and auditwheel into .tools/dist-venv (PyPI) and the
# Rust targets it needs (rustup). Needs npm for `npm pack`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source scripts/lib/common.sh
source scripts/lib/native-build.sh

all=0
profile=dist
out=dist
while [ $# -gt 0 ]; do
  case "$1" in
    --all) all=1; shift ;;
    --profile) profile=${2:?--profile needs a cargo profile}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument $1 (usage: scripts/dist.sh [--all] [--profile PROFILE] [--out DIR])" >&2; exit 2 ;;
  esac
done

# The targets: Rust triple, zig's target (a glibc version pins the floor), wheel platform tag,
# napi-rs platform name, C bundle name (glibc only: a C program on musl links statically anyway).
targets=("x86_64-unknown-linux-gnu x86_64-unknown-linux-gnu.2.17 manylinux2014 linux-x64-gnu x86_64-linux-gnu")
if [ "$all" = 1 ]; then
  targets+=(
    "aarch64-unknown-linux-gnu aarch64-unknown-linux-gnu.2.17 manylinux2014 linux-arm64-gnu aarch64-linux-gnu"
    "x86_64-unknown-linux-musl x86_64-unknown-linux-musl musllinux_1_2 linux-x64-musl -"
    "aarch64-unknown-linux-musl aarch64-unknown-linux-musl musllinux_1_2 linux-arm64-musl -"
  )
fi
# napi-rs platforms of the npm package that are not built here: no macOS SDK or MSVC libraries
# on a Linux machine (zig links neither a napi addon for macOS nor for Windows MSVC), so their users
# get lib/native.js's "no prebuilt addon" error, which says how to build from source.
NOT_BUILT="darwin-x64 darwin-arm64 win32-x64-msvc win32-arm64-msvc"

venv=.tools/dist-venv
ensure_venv "$venv" scripts/dist-requirements.txt
# maturin and cargo-zigbuild find zig as `python3 -m ziglang` on this PATH.
export PATH="$root/$venv/bin:$PATH"
installed=$(rustup target list --installed)
for t in "${targets[@]}"; do
  set -- $t
  grep -qx "$1" <<< "$installed" || rustup target add "$1"
done

version=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c \
  'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "libmcp"))')
# Rust's musl targets link statically by default, which rules out a cdylib.
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="-C target-feature=-crt-static"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="-C target-feature=-crt-static"

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/libmcp-*
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

timed() {
  local label=$1 start=$SECONDS
  shift
  "$@"
  echo "--- $label: $((SECONDS - start)) s"
}

# The npm main package: napi's loader and lib/ (no addon: that comes from the platform packages,
# each an optional dependency at exactly this version).
# zig links a musl library against `libc.so`, a name the musllinux policy does not allow (auditwheel:
# "dependencies will need to be eliminated: libc.so"); Alpine's musl is `libc.musl-ARCH.so.1`. Musl's
# loader takes any `libc.` name as itself, so the library runs either way: the wheel's extension is
# given the policy's name (patchelf), and the wheel packed again with its RECORD (`wheel pack`).
musl_libc_in_wheel() {
  local whl=$1 arch=$2 dir
  dir=$(mktemp -d)
  python3 -m wheel unpack --dest "$dir" "$whl" > /dev/null
  patchelf --replace-needed libc.so "libc.musl-$arch.so.1" "$dir"/libmcp-*/libmcp/_native.abi3.so
  rm "$whl"
  python3 -m wheel pack --dest-dir "$(dirname "$whl")" "$dir"/libmcp-* > /dev/null
  rm -rf "$dir"
}

npm_platforms=()
for t in "${targets[@]}"; do
  set -- $t
  triple=$1 zig_target=$2 wheel_tag=$3 napi_name=$4 c_name=$5
  echo "=== $triple ($profile)"
  # Symbols are stripped at link time (LIBMCP_STRIP, see ffi/build.rs: cargo's own `strip` would
  # rename every function and leave ffi/layout/libmcp.order, made by ffi/layout/make-order.sh
  # from this very command, matching nothing). The C library and the Node addon are built by one
  # cargo command, so that their dependencies are built once, with one feature set, in a target
  # directory of their own: maturin's zig wrappers are other linker paths than cargo-zigbuild's,
  # and a shared directory would have each build invalidate the other's dependencies.
  timed "wheel $wheel_tag" maturin build --quiet --locked --strip -m bindings-python/Cargo.toml \
    --profile "$profile" --zig --target "$triple" --compatibility "$wheel_tag" -o "$out"
  if [ "$wheel_tag" = musllinux_1_2 ]; then
    timed "wheel $wheel_tag: musl's C library by its own name" \
      musl_libc_in_wheel "$out/libmcp-$version-cp310-abi3-${wheel_tag}_${triple%%-*}.whl" "${triple%%-*}"
  fi
  LIBMCP_STRIP=1 timed "libmcp.so, libmcp.a and the Node addon" native_build "$zig_target" "$profile"
  built=$(native_build_dir "$triple" "$profile")

  # The npm platform package.
  pkg="$work/npm/$napi_name"
  mkdir -p "$pkg"
  cp "bindings-node/npm/$napi_name/package.json" LICENSE "$pkg/"
  cp "$built/liblibmcp_node.so" "$pkg/libmcp.$napi_name.node"
  (cd "$pkg" && npm pack --silent --pack-destination "$out" > /dev/null)
  npm_platforms+=("$napi_name")

  # The C bundle: ffi/install.sh's tree, relocatable, with the static library's debug sections
  # (the precompiled standard library's) removed.
  if [ "$c_name" != - ]; then
    bundle="libmcp-$version-$c_name"
    ffi/install.sh --from "$built" --relocatable "$work/c/$bundle" > /dev/null
    cp LICENSE "$work/c/$bundle/"
    if [ "$triple" = "$(rustc -vV | sed -n 's/^host: //p')" ]; then
      strip --strip-debug "$work/c/$bundle/lib/libmcp.a"
    else
      "$(rustc --print sysroot)"/lib/rustlib/*/bin/rust-objcopy --strip-debug \
        "$work/c/$bundle/lib/libmcp.a" 2> /dev/null \
        || echo "--- note: $bundle/lib/libmcp.a keeps its debug sections (no rust-objcopy: rustup component add llvm-tools)"
    fi
    tar -C "$work/c" -czf "$out/$bundle.tar.gz" "$bundle"
  fi
done

timed "sdist" maturin sdist -m bindings-python/Cargo.toml -o "$out"

main="$work/npm/libmcp"
mkdir -p "$main"
cp -r bindings-node/index.js bindings-node/index.d.ts bindings-node/lib bindings-node/README.md LICENSE "$main/"
node - "$root/bindings-node/package.json" "$main/package.json" "$version" "${npm_platforms[@]}" <<'JS'
const fs = require('node:fs')
const [source, dest, version, ...platforms] = process.argv.slice(2)
const p = JSON.parse(fs.readFileSync(source, 'utf8'))
if (p.version !== version) throw new Error(`bindings-node/package.json has ${p.version}, the workspace ${version}`)
delete p.devDependencies
delete p.scripts
p.files = ['index.js', 'index.d.ts', 'lib/', 'README.md', 'LICENSE']
p.optionalDependencies = Object.fromEntries(platforms.map((n) => [`${p.name}-${n}`, version]))
fs.writeFileSync(dest, JSON.stringify(p, null, 2) + '\n')
JS
(cd "$main" && npm pack --silent --pack-destination "$out" > /dev/null)

echo
echo "=== $out (libmcp $version, profile $profile)"
(cd "$out" && ls -l libmcp-* | awk '{printf "%10.2f MB  %s\n", $5 / 1048576, $9}')
for t in "${targets[@]}"; do
  set -- $t
  stat -c '%s' "$(native_build_dir "$1" "$profile")/libmcp.so" \
    | awk -v t="$1" '{printf "%10.2f MB  libmcp.so (%s, stripped, in the C bundle)\n", $1 / 1048576, t}'
done
echo "not built (npm platforms without a cross toolchain here): $NOT_BUILT"
