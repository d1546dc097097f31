#!/usr/bin/env bash
# The artifacts scripts/dist.sh --all makes for the platforms this machine is not (aarch64 glibc,
# x86_64 musl, aarch64 musl), checked for the right machine, C library and dependencies, and run
# where this machine can run them. Not part of the test command: it cross-builds three more
# targets (scripts/test.d/70-dist.sh checks the x86_64 glibc ones, installed and run without Rust).
#   inspected, every target: each wheel (`auditwheel show`: its platform tag), each npm platform
#     package's .node and the aarch64 C bundle's libmcp.so (`readelf`: machine, program interpreter
#     of the libc, NEEDED; glibc targets: no GLIBC_ symbol version above the 2.17 floor);
#   run: benches/c/echo.c, compiled for the target with zig cc (from scripts/dist.sh's tools),
#     answers one tools/call through the target's build of the engine:
#       aarch64 glibc  linked to the C bundle's libmcp.so, under qemu-aarch64 (Debian qemu-user) with
#                      Debian's arm64 cross C library (libc6-arm64-cross, libgcc-s1-arm64-cross);
#       x86_64 musl    linked to the musl libmcp.so, under Debian's musl dynamic loader (musl);
#       aarch64 musl   linked statically to the musl libmcp.a, under qemu-aarch64.
#     The wheels and the .node files of the other targets are inspected only: running them needs
#     an aarch64 or musl Python or Node, which Debian's x86_64 packages do not provide.
# Usage: scripts/dist-cross.sh [--profile PROFILE] [--out DIR] [--no-build]
#   --profile  passed to scripts/dist.sh (default dist, what ships; release builds faster)
#   --out      where the artifacts go (default dist/)
#   --no-build check what is already in --out, built by scripts/dist.sh --all with this profile
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
source scripts/lib/common.sh
source scripts/lib/native-build.sh

profile=dist
out=dist
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile=${2:?--profile needs a cargo profile}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    --no-build) build=0; shift ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "error: unknown argument $1 (usage: scripts/dist-cross.sh [--profile PROFILE] [--out DIR] [--no-build])" >&2; exit 2 ;;
  esac
done

[ "$build" = 0 ] || scripts/dist.sh --all --profile "$profile" --out "$out"
ensure_debian_packages qemu-user libc6-arm64-cross libgcc-s1-arm64-cross musl
export PATH="$root/.tools/dist-venv/bin:$PATH"
version=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c \
  'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "libmcp"))')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
report=()

# check_elf FILE MACHINE LIBC: readelf's machine, the C library it needs, and (glibc) the floor.
check_elf() {
  local f=$1 machine=$2 libc=$3 name
  name=$(basename "$f")
  local got
  got=$(readelf -h "$f" | sed -n 's/^ *Machine: *//p')
  [ "$got" = "$machine" ] || fail "$name: machine '$got', want '$machine'"
  local needed
  needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | paste -sd' ')
  case "$libc" in
    glibc)
      grep -qw "libc.so.6" <<< "$needed" || fail "$name: does not need glibc's libc.so.6 ($needed)"
      local newest
      newest=$(readelf -V "$f" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
      [ -n "$newest" ] || fail "$name: no GLIBC_ symbol version"
      [ "$(printf '%s\n2.17\n' "$newest" | sort -V | tail -1)" = 2.17 ] \
        || fail "$name: needs GLIBC_$newest, above the 2.17 floor"
      echo "  $name: $got, NEEDED $needed, newest glibc symbol version $newest"
      ;;
    musl)
      # musl's C library is NEEDED as libc.so (zig's link) or libc.musl-ARCH.so.1 (Alpine's).
      grep -Eq "(^| )libc\.(so|musl-)" <<< "$needed" || fail "$name: needs no musl libc ($needed)"
      if grep -qw "libc.so.6" <<< "$needed"; then fail "$name: needs glibc's libc.so.6"; fi
      if readelf -V "$f" | grep -q 'GLIBC_'; then fail "$name: has glibc symbol versions"; fi
      echo "  $name: $got, NEEDED $needed, no glibc symbol versions"
      ;;
  esac
}

# check_wheel TRIPLE TAG: auditwheel puts the wheel at TAG; its extension is checked as an ELF.
check_wheel() {
  local tag=$1 machine=$2 libc=$3 arch=$4
  local wheel
  wheel=$(ls "$out"/libmcp-"$version"-cp310-abi3-*"$arch"*.whl 2> /dev/null | grep "${tag%%_*}" | head -1 || true)
  [ -n "$wheel" ] || { fail "no $tag $arch wheel in $out"; return; }
  local shown
  shown=$(auditwheel show "$wheel" 2>&1 | tr -s ' \n' ' ')
  grep -Eq "consistent with the following platform tag: *\"${tag}_$arch\"" <<< "$shown" \
    || fail "$(basename "$wheel"): auditwheel does not put it at ${tag}_$arch: $shown"
  echo "  $(basename "$wheel"): auditwheel: ${tag}_$arch"
  rm -rf "$work/wheel" && python3 -m zipfile -e "$wheel" "$work/wheel"
  check_elf "$work/wheel/libmcp/_native.abi3.so" "$machine" "$libc"
}

check_npm() {
  local napi=$1 machine=$2 libc=$3
  local tgz="$out/libmcp-$napi-$version.tgz"
  [ -f "$tgz" ] || { fail "no $(basename "$tgz") in $out"; return; }
  rm -rf "$work/npm" && mkdir "$work/npm" && tar -xzf "$tgz" -C "$work/npm"
  check_elf "$work/npm/package/libmcp.$napi.node" "$machine" "$libc"
}

# run_echo WHAT COMMAND...: COMMAND (an echo server) answers one tools/call with its text.
run_echo() {
  local what=$1
  shift
  local call='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"ran on '"$what"'"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
  local answer
  answer=$(printf '%s\n' "$call" | timeout 120 "$@" 2> "$work/run.err") || true
  if grep -qF "\"text\":\"ran on $what\"" <<< "$answer"; then
    echo "  ran: echo answered on $what"
    return 0
  fi
  fail "$what: the echo server did not answer: ${answer:-nothing} $(head -c 600 "$work/run.err")"
  return 1
}

zig_cc() { python3 -m ziglang cc "$@"; }

echo "=== aarch64 glibc (manylinux2014, linux-arm64-gnu, C bundle)"
check_wheel manylinux_2_17 AArch64 glibc aarch64
check_npm linux-arm64-gnu AArch64 glibc
bundle="$work/c/libmcp-$version-aarch64-linux-gnu"
mkdir -p "$work/c" && tar -xzf "$out/libmcp-$version-aarch64-linux-gnu.tar.gz" -C "$work/c"
check_elf "$bundle/lib/libmcp.so.$version" AArch64 glibc
soname=$(readelf -d "$bundle/lib/libmcp.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libmcp.so.$version" ] || fail "the aarch64 libmcp.so's SONAME is '$soname'"
zig_cc -target aarch64-linux-gnu.2.17 -std=c11 -O2 -Wall -Wextra -Werror benches/c/echo.c \
  -o "$work/echo-aarch64-gnu" $(PKG_CONFIG_PATH="$bundle/lib/pkgconfig" pkg-config --cflags --libs mcp)
if run_echo "aarch64 glibc" env LD_LIBRARY_PATH="$bundle/lib" qemu-aarch64 -L /usr/aarch64-linux-gnu "$work/echo-aarch64-gnu"; then
  report+=("aarch64 glibc: wheel, npm package and C bundle inspected; the C bundle ran (qemu-aarch64)")
else
  report+=("aarch64 glibc: inspected; the run FAILED")
fi

echo "=== x86_64 musl (musllinux_1_2, linux-x64-musl)"
check_wheel musllinux_1_2 "Advanced Micro Devices X86-64" musl x86_64
check_npm linux-x64-musl "Advanced Micro Devices X86-64" musl
musl_dir=$(native_build_dir x86_64-unknown-linux-musl "$profile")
check_elf "$musl_dir/libmcp.so" "Advanced Micro Devices X86-64" musl
mkdir -p "$work/musl-lib" && cp "$musl_dir/libmcp.so" "$work/musl-lib/"
# The program needs the library by its SONAME (libmcp.so.VERSION), as an installed one is named.
ln -sf libmcp.so "$work/musl-lib/libmcp.so.$version"
zig_cc -target x86_64-linux-musl -std=c11 -O2 -Wall -Wextra -Werror -Iinclude benches/c/echo.c \
  -o "$work/echo-x86_64-musl" -L"$work/musl-lib" -lmcp
if run_echo "x86_64 musl" env LD_LIBRARY_PATH="$work/musl-lib" "$work/echo-x86_64-musl"; then
  report+=("x86_64 musl: wheel and npm package inspected; the musl libmcp.so ran (Debian's musl loader)")
else
  report+=("x86_64 musl: inspected; the run FAILED")
fi

echo "=== aarch64 musl (musllinux_1_2, linux-arm64-musl)"
check_wheel musllinux_1_2 AArch64 musl aarch64
check_npm linux-arm64-musl AArch64 musl
# A static link takes the unwinder Rust's std needs from the toolchain (zig's libunwind): the
# archive does not carry one (without it: undefined _Unwind_* symbols).
zig_cc -target aarch64-linux-musl -static -std=c11 -O2 -Wall -Wextra -Werror -Iinclude benches/c/echo.c \
  -o "$work/echo-aarch64-musl" "$(native_build_dir aarch64-unknown-linux-musl "$profile")/libmcp.a" -lunwind
if run_echo "aarch64 musl" qemu-aarch64 "$work/echo-aarch64-musl"; then
  report+=("aarch64 musl: wheel and npm package inspected; the musl libmcp.a ran, linked statically (qemu-aarch64)")
else
  report+=("aarch64 musl: inspected; the run FAILED")
fi

echo
echo "=== libmcp $version ($profile), $out"
printf '%s\n' "${report[@]}"
echo "not built (npm platforms without a cross toolchain here): darwin-x64 darwin-arm64 win32-x64-msvc win32-arm64-msvc"
[ "$failures" = 0 ] || { echo "error: $failures check(s) failed (FAIL above)" >&2; exit 1; }
