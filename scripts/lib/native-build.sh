# The one command that builds the C library (libmcp.so, libmcp.a) and the Node addon for a target,
# shared by scripts/dist.sh (which ships them, stripped with LIBMCP_STRIP=1) and
# ffi/layout/make-order.sh (which runs the same build with its symbols to lay out its code: the
# symbol names depend on the exact command, target, profile and target directory, see
# ffi/build.rs). Needs cargo-zigbuild and zig on PATH (.tools/dist-venv, as scripts/dist.sh
# installs it) and common.sh's target_dir.
#   native_build ZIG_TARGET PROFILE   (e.g. x86_64-unknown-linux-gnu.2.17 dist)
# The outputs are in native_build_dir TRIPLE PROFILE.

native_build() {
  cargo zigbuild --quiet --locked -p libmcp-ffi -p libmcp-node --profile "$2" \
    --target "$1" --target-dir "$(target_dir)/zigbuild"
}

native_build_dir() {
  echo "$(target_dir)/zigbuild/$1/$2"
}
