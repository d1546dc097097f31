#!/usr/bin/env bash
# Fuzzing: a short run of every cargo-fuzz target in fuzz/ (FUZZ_SECONDS each, 20 by
# default) from the seed corpora fuzz/seed_corpora.py writes; any crash, hang or out-of-memory
# fails the step. Installs a minimal nightly toolchain with rustup and cargo-fuzz (into
# .tools/cargo) when missing. The seed is fixed (FUZZ_SEED, 1 by default) so that a result here
# can be reproduced from a fresh clone; exploring further is for longer runs with a random seed:
# fuzz/run.sh SECONDS [TARGET...]. The build here is unoptimized (FUZZ_PROFILE=dev, about half the
# build time of the optimized one); set FUZZ_PROFILE=release for the build long runs use.
set -euo pipefail
cd "$(dirname "$0")/../.."
step() { printf -- '--- %s\n' "$*"; }

if ! rustup run nightly cargo fmt --version > /dev/null 2>&1; then
  step "installing the nightly toolchain (rustup, minimal profile with rustfmt)"
  rustup toolchain install nightly --profile minimal --component rustfmt
fi
cargo_fuzz_version=0.13.2
export PATH="$PWD/.tools/cargo/bin:$PATH"
if ! cargo fuzz --version 2> /dev/null | grep -qF "$cargo_fuzz_version"; then
  step "installing cargo-fuzz $cargo_fuzz_version into .tools/cargo"
  cargo install "cargo-fuzz@$cargo_fuzz_version" --locked --root .tools/cargo --quiet
fi

step "fuzz targets: cargo fmt --check"
(cd fuzz && cargo +nightly fmt --check)

# From the seeds alone, in a corpus of its own: with the fixed seed the step then tries the same
# inputs on every machine (a corpus grown by long runs in fuzz/corpus would change them, and its
# first pass alone can outlast the step).
corpus="$PWD/target/fuzz-step-corpus"
rm -rf "$corpus"
step "every fuzz target for ${FUZZ_SECONDS:-20} s, from the seeds"
FUZZ_CORPUS="$corpus" FUZZ_LOGS="$PWD/target/fuzz-step-logs" FUZZ_SEED="${FUZZ_SEED:-1}" \
  FUZZ_PROFILE="${FUZZ_PROFILE:-dev}" fuzz/run.sh "${FUZZ_SECONDS:-20}"
