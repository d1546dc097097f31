#!/usr/bin/env bash
# The artifacts users install without a Rust toolchain (scripts/dist.sh, x86_64 glibc), installed and
# used where there is none: every command below that installs or runs them has `env -i` with a PATH
# of /usr/bin:/bin only (no cargo, rustc or ~/.cargo: checked first) and HOME a fresh directory.
#   - the wheel, pip-installed into a fresh venv: the Python everything-server through the
#     conformance server legs (both scored revisions, as step 41 runs it) and the README's quick
#     start (examples/python/client.py against quickstart.py);
#   - the two npm tarballs (libmcp and libmcp-linux-x64-gnu) npm-installed into a fresh project: the
#     Node everything-server through the same legs; without the platform package, on an
#     unsupported platform and from an unbuilt source checkout, the loader's error says what to do;
#   - the C bundle unpacked: a C program built with pkg-config alone (shared, and static through
#     mcp-static) runs and reports the header's version.
# Also: one version everywhere (the workspace, the packages' manifests, CHANGELOG.md, and what the
# installed wheel, npm package and C library report at run time; `mcp --version` is checked by
# examples/tests/cli_session.rs); `auditwheel show` puts the wheel at manylinux2014
# (manylinux_2_17); `objdump -T` of every shipped .so/.node names no GLIBC_ version above 2.17; the
# wheel and the npm platform package under 8 MB (the sizes of the stripped libraries are printed);
# libmcp.so places the code general traffic runs together (ffi/build.rs: at least 90% of what
# ffi/layout/libmcp.order placed in the build it was made from).
# The build is scripts/dist.sh's own (profile `dist`, what ships; DIST_TEST_PROFILE=release is
# cheaper, thin LTO, for a quick local run). It runs in scripts/test.sh's side lane: its
# --target builds lock nothing the main lane builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
source scripts/lib/common.sh
source scripts/lib/conformance-env.sh
conformance_install

out="$(target_dir)/dist-test"
start=$SECONDS
scripts/dist.sh --profile "${DIST_TEST_PROFILE:-dist}" --out "$out"
echo "--- scripts/dist.sh: $((SECONDS - start)) s"

version=$(cargo metadata --format-version 1 --no-deps --locked | python3 -c \
  'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "libmcp"))')
fail() { echo "error: $*" >&2; exit 1; }
artifact() {
  local found=("$out"/$1)
  [ ${#found[@]} = 1 ] && [ -f "${found[0]}" ] || fail "expected one $1 in $out, found: ${found[*]}"
  echo "${found[0]}"
}
wheel=$(artifact "libmcp-$version-cp310-abi3-*manylinux_2_17_x86_64*.whl")
sdist=$(artifact "libmcp-$version.tar.gz")
npm_main=$(artifact "libmcp-$version.tgz")
npm_platform=$(artifact "libmcp-linux-x64-gnu-$version.tgz")
c_bundle=$(artifact "libmcp-$version-x86_64-linux-gnu.tar.gz")

work=$(mktemp -d)
SERVER_PID=""
trap 'stop_server "$SERVER_PID"; rm -rf "$work"' EXIT
mkdir "$work/home"
clean=(env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 npm_config_update_notifier=false)
for tool in cargo rustc rustup; do
  if "${clean[@]}" sh -c "command -v $tool"; then fail "the clean environment has $tool"; fi
done

echo "--- one version ($version): manifests and CHANGELOG.md"
for manifest in bindings-node/package.json bindings-node/npm/*/package.json; do
  v=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$manifest")
  [ "$v" = "$version" ] || fail "$manifest has version $v, the workspace $version"
done
header=$(sed -n 's/^#define MCP_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' include/mcp.h | paste -sd.)
[ "$header" = "$version" ] || fail "include/mcp.h says $header, the workspace $version"
grep -q "^## $version\b" CHANGELOG.md || fail "CHANGELOG.md has no '## $version' section"
# The crate is publishable: metadata, readme, versioned path dependencies, every file it embeds
# inside it (core/spec/ links the legacy schemas). libmcp-macros, a path dependency of libmcp, is
# packaged with it (crates.io must have it first). `--no-verify`: building the packaged crates
# again (a debug build of the dependency tree in target/package) would add minutes to the step;
# without it, the same command passes (checked by hand when the schemas moved).
cargo package -p libmcp-macros -p libmcp --locked --allow-dirty --no-verify --quiet

echo "--- contents and sizes"
python3 - "$wheel" "$sdist" <<'PY' || exit 1
import sys, tarfile, zipfile
wheel, sdist = sys.argv[1:]
names = zipfile.ZipFile(wheel).namelist()
need = ["libmcp/_native.abi3.so", "LICENSE"]
missing = [n for n in need if not any(x == n or x.endswith("/" + n) for x in names)]
meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
text = zipfile.ZipFile(wheel).read(meta).decode()
if "License-Expression: Apache-2.0" not in text:
    missing.append("License-Expression: Apache-2.0 in METADATA")
if "# libmcp for Python" not in text:
    missing.append("the README as the description in METADATA")
snames = tarfile.open(sdist).getnames()
for n in ["LICENSE", "pyproject.toml", "Cargo.toml", "core/src/lib.rs"]:
    if not any(x.endswith("/" + n) for x in snames):
        missing.append(f"{n} in the sdist")
if missing:
    sys.exit(f"error: missing: {', '.join(missing)}")
PY
mkdir -p "$work/npm-platform" "$work/npm-main" "$work/c"
tar -xzf "$npm_platform" -C "$work/npm-platform"
tar -xzf "$npm_main" -C "$work/npm-main"
tar -xzf "$c_bundle" -C "$work/c"
bundle="$work/c/libmcp-$version-x86_64-linux-gnu"
for f in "$work/npm-platform/package/LICENSE" "$work/npm-main/package/LICENSE" "$bundle/LICENSE" \
  "$bundle/include/mcp.h" "$bundle/lib/libmcp.a" "$bundle/lib/pkgconfig/mcp.pc" \
  "$bundle/lib/cmake/mcp/mcpConfig.cmake"; do
  [ -f "$f" ] || fail "${f#"$work"/} is missing"
done
if ls "$work/npm-main/package/"*.node > /dev/null 2>&1; then fail "the main npm package carries an addon"; fi
node -e '
  const p = require(process.argv[1])
  const want = { [`libmcp-linux-x64-gnu`]: process.argv[2] }
  if (JSON.stringify(p.optionalDependencies) !== JSON.stringify(want)) {
    console.error(`optionalDependencies: ${JSON.stringify(p.optionalDependencies)}, want ${JSON.stringify(want)}`)
    process.exit(1)
  }' "$work/npm-main/package/package.json" "$version"
soname=$(readelf -d "$bundle/lib/libmcp.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libmcp.so.$version" ] || fail "libmcp.so's SONAME is '$soname'"
# The functions general traffic runs are placed together (ffi/build.rs, ffi/layout/libmcp.order,
# whose first line says how much code it placed in the build it was made from). Their exact names
# change with the version, the dependencies and the build command; when many no longer match, the
# section shrinks and the list must be made again.
ordered=$(readelf -SW "$bundle/lib/libmcp.so.$version" \
  | sed -n 's/.* \.text\.libmcp_ordered *PROGBITS *[0-9a-f]* [0-9a-f]* \([0-9a-f]*\) .*/\1/p')
listed=$(sed -n '1s/^# [0-9]* functions, \([0-9]*\) KiB of code$/\1/p' ffi/layout/libmcp.order)
echo "libmcp.so: $((0x${ordered:-0} / 1024)) KiB of code in the order of ffi/layout/libmcp.order (${listed:-?} KiB listed)"
if [ -z "$listed" ]; then
  fail "ffi/layout/libmcp.order does not start with its '# N functions, K KiB of code' line: run ffi/layout/make-order.sh"
elif [ "${DIST_TEST_PROFILE:-dist}" = dist ] && [ $((0x${ordered:-0} / 1024 * 10)) -lt $((listed * 9)) ]; then
  fail "libmcp.so places $((0x${ordered:-0} / 1024)) KiB of code in the order of ffi/layout/libmcp.order, under 90% of the $listed KiB it placed when it was made (its names no longer match the build: version, dependencies or build command changed): run ffi/layout/make-order.sh"
fi
python3 -m zipfile -e "$wheel" "$work/wheel"
shipped=("$work/wheel/libmcp/_native.abi3.so" "$work/npm-platform/package/libmcp.linux-x64-gnu.node"
  "$bundle/lib/libmcp.so.$version")
mb=$((1024 * 1024))
for f in "$wheel" "$npm_platform"; do
  size=$(stat -c %s "$f")
  echo "$(basename "$f"): $((size * 100 / mb / 100)).$((size * 100 / mb % 100)) MB"
  [ "$size" -lt $((8 * mb)) ] || fail "$(basename "$f") is not under 8 MB"
done
for f in "${shipped[@]}"; do
  size=$(stat -c %s "$f")
  echo "$(basename "$f"): $((size * 100 / mb / 100)).$((size * 100 / mb % 100)) MB"
  if readelf -S "$f" | grep -q ' \.symtab '; then fail "$(basename "$f") is not stripped"; fi
done

echo "--- glibc floor 2.17"
.tools/dist-venv/bin/auditwheel show "$wheel" > "$work/auditwheel.txt" 2>&1 || { cat "$work/auditwheel.txt"; fail "auditwheel show failed"; }
grep -Eq 'is consistent with the following platform tag: *"(manylinux_2_17|manylinux2014)_x86_64"' \
  <(tr -s ' \n' ' ' < "$work/auditwheel.txt") || { cat "$work/auditwheel.txt"; fail "auditwheel does not put the wheel at manylinux_2_17"; }
for f in "${shipped[@]}"; do
  newest=$(objdump -T "$f" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
  [ -n "$newest" ] || fail "objdump -T found no GLIBC_ symbol in $(basename "$f")"
  if [ "$(printf '%s\n2.17\n' "$newest" | sort -V | tail -1)" != 2.17 ]; then
    objdump -T "$f" | grep -E "GLIBC_2\.(1[89]|[2-9][0-9])" >&2 || true
    fail "$(basename "$f") needs GLIBC_$newest, above the 2.17 floor"
  fi
  echo "$(basename "$f"): newest glibc symbol version $newest"
done

echo "--- Python: the wheel in a fresh venv, no Rust"
"${clean[@]}" /usr/bin/python3 -m venv "$work/venv"
"${clean[@]}" "$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
py_version=$(cd "$work" && "${clean[@]}" "$work/venv/bin/python" -c 'import libmcp; print(libmcp.__version__)')
[ "$py_version" = "$version" ] || fail "libmcp.__version__ is $py_version"
mkdir "$work/py"
cp examples/python/quickstart.py examples/python/client.py examples/python/everything_server.py "$work/py/"
quick=$(cd "$work/py" && "${clean[@]}" "$work/venv/bin/python" client.py)
echo "$quick"
[ "$(sed -n 3p <<< "$quick")" = "add: 6" ] && [ "$(sed -n 4p <<< "$quick")" = "resource: Hello, Ada!" ] \
  || fail "the quick start printed something else"
status=0
start_http_server "$work/py-server.log" "${clean[@]}" "$work/venv/bin/python" "$work/py/everything_server.py" --http 127.0.0.1:0
conformance_server_legs "Python wheel" "http://localhost:$SERVER_PORT/mcp" "$work" || status=1
stop_server "$SERVER_PID"
SERVER_PID=""

echo "--- Node: the two tarballs in a fresh project, no Rust"
project="$work/node"
mkdir -p "$project/examples/node"
echo '{"name":"uses-libmcp","private":true}' > "$project/package.json"
(cd "$project" && "${clean[@]}" npm install --no-audit --no-fund --loglevel=error "$npm_main" "$npm_platform")
# The everything-server requires ../../bindings-node: here that is the installed package.
ln -s node_modules/libmcp "$project/bindings-node"
cp examples/node/everything-server.js examples/node/everything-tasks.js "$project/examples/node/"
node_version=$(cd "$project" && "${clean[@]}" node -p 'require("libmcp").version')
[ "$node_version" = "$version" ] || fail "require('libmcp').version is $node_version"
start_http_server "$work/node-server.log" "${clean[@]}" node "$project/examples/node/everything-server.js" --http 127.0.0.1:0
conformance_server_legs "Node package" "http://localhost:$SERVER_PORT/mcp" "$work" || status=1
stop_server "$SERVER_PID"
SERVER_PID=""

echo "--- Node: what a user without a matching addon reads"
# expect_load_error DIR NEEDLE... [-- NODE-ARGS]: require('libmcp') from DIR fails, naming each NEEDLE.
expect_load_error() {
  local dir=$1 message
  shift
  if message=$(cd "$dir" && "${clean[@]}" node -e "$PRELUDE; require('libmcp')" 2>&1); then
    fail "require('libmcp') in $dir loaded ($PRELUDE)"
  fi
  for needle in "$@"; do
    grep -qF -- "$needle" <<< "$message" || { echo "$message" >&2; fail "the load error does not say: $needle"; }
  done
  if grep -q "npm has a bug" <<< "$message"; then echo "$message" >&2; fail "napi's generic message leaked"; fi
  grep -A2 -m1 "^Error: libmcp" <<< "$message"
}
mkdir "$work/no-optional"
echo '{"name":"no-optional","private":true}' > "$work/no-optional/package.json"
(cd "$work/no-optional" && "${clean[@]}" npm install --no-audit --no-fund --loglevel=error --omit=optional "$npm_main")
PRELUDE='' expect_load_error "$work/no-optional" "linux-x64-gnu" "libmcp-linux-x64-gnu@$version" "--omit=optional"
PRELUDE="Object.defineProperty(process, 'arch', { value: 'riscv64' })" expect_load_error "$project" \
  "no prebuilt libmcp addon for linux-riscv64-gnu" "libmcp-linux-riscv64-gnu" "prebuilt: linux-x64-gnu" \
  "rustup.rs" "npm run build:release"
# A path install of the source package before any build (no .node next to it).
mkdir -p "$work/source/bindings-node" "$work/from-source"
cp -r bindings-node/package.json bindings-node/Cargo.toml bindings-node/index.js bindings-node/lib "$work/source/bindings-node/"
echo '{"name":"from-source","private":true}' > "$work/from-source/package.json"
(cd "$work/from-source" && "${clean[@]}" npm install --no-audit --no-fund --loglevel=error --ignore-scripts "$work/source/bindings-node")
PRELUDE='' expect_load_error "$work/from-source" "source package" "run \`npm run build\`"

echo "--- C: the bundle, pkg-config only, no Rust"
export_pc="PKG_CONFIG_PATH=$bundle/lib/pkgconfig"
cflags=$("${clean[@]}" env "$export_pc" pkg-config --cflags --libs mcp)
"${clean[@]}" cc -std=c11 -Wall -Wextra -Werror tests/c/version_check.c -o "$work/version_check" $cflags
c_version=$("${clean[@]}" env LD_LIBRARY_PATH="$bundle/lib" "$work/version_check")
[ "$c_version" = "$version" ] || fail "mcp_version() is $c_version"
static_flags=$("${clean[@]}" env "$export_pc" pkg-config --cflags --static --libs mcp-static)
"${clean[@]}" cc -std=c11 -Wall -Wextra -Werror tests/c/version_check.c -o "$work/version_check_static" $static_flags
[ "$("${clean[@]}" "$work/version_check_static")" = "$version" ] || fail "the statically linked program reports another version"
echo "C program (shared and static): mcp_version() = $c_version"

[ "$status" = 0 ] || fail "a conformance leg failed (above)"
echo "dist: the x86_64 glibc artifacts install and run without Rust (wheel, npm, C), version $version everywhere"
