#!/usr/bin/env bash
# Miri: the C ABI's pointer-handling entry points (ffi/tests/unsafe_helpers.rs: owned
# strings, borrowed views, out-parameters, the JSON accessors, the config objects) interpreted by
# Miri, which fails on any out-of-bounds access, use after free, double free, invalid alignment or
# leak. Not part of scripts/test.sh (it adds about 3 minutes and a toolchain component); run it
# after changing ffi/src/string.rs, json.rs, macros.rs or the config objects. Installs the nightly
# toolchain's miri and rust-src components when missing.
# Usage: scripts/miri.sh
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup run nightly cargo miri --version > /dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal --component miri,rust-src
fi
cargo +nightly miri test -p libmcp-ffi --test unsafe_helpers
