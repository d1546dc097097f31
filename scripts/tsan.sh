#!/usr/bin/env bash
# ThreadSanitizer: libmcp.so built with -Zsanitizer=thread on a nightly toolchain, the
# standard library rebuilt the same way (-Zbuild-std, so its atomics and fences are instrumented
# too), and the C tests whose threads call into it concurrently compiled with gcc -fsanitize=thread
# and linked with the nightly toolchain's own TSan runtime (GCC 12's libtsan lacks entry points that
# LLVM now emits, such as __tsan_memmove): any data race report fails. scripts/tsan.supp holds the
# one suppression (tokio's epoll hand-off) and why. Not part of scripts/test.sh (the instrumented build of the
# standard library and every dependency takes 10+ minutes here); run it after changing how the C
# ABI shares state between threads. Installs the nightly toolchain's rust-src when missing.
# Usage: scripts/tsan.sh [TEST...]   (default: the C tests that run callbacks and calls on several
# threads, and the C client driving the C server over stdio, both instrumented)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup +nightly component list --installed 2> /dev/null | grep -q '^rust-src'; then
  rustup toolchain install nightly --profile minimal --component rust-src
fi
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(unit http tasks multi_instance faults resource_server oauth log server client)
host=$(rustc -vV | sed -n 's/^host: //p')
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c \
  'import json, sys; print(json.load(sys.stdin)["target_directory"])')
out="$target_dir/tsan"
RUSTFLAGS="-Zsanitizer=thread" cargo +nightly build -Zbuild-std --target "$host" \
  --target-dir "$out" -p libmcp-ffi --locked
lib="$out/$host/debug"
# The library's SONAME (ffi/build.rs) names the versioned file that ffi/install.sh makes.
version=$(grep -m1 '^version' Cargo.toml | cut -d'"' -f2)
ln -sf libmcp.so "$lib/libmcp.so.$version"
runtime="$(rustc +nightly --print sysroot)/lib/rustlib/$host/lib/librustc-nightly_rt.tsan.a"
work="$out/c"
mkdir -p "$work"
status=0
for t in "${tests[@]}"; do
  gcc -std=c11 -Wall -Wextra -Wpedantic -Werror -g -fsanitize=thread -Iinclude -c "tests/c/$t.c" \
    -o "$work/$t.o"
  gcc "$work/$t.o" -o "$work/$t" -Wl,--whole-archive "$runtime" -Wl,--no-whole-archive \
    -L"$lib" -lmcp -Wl,-rpath,"$lib" -lpthread -ldl -lm -lrt -lstdc++
  # tests/c/server.c is the peer that tests/c/client.c spawns (run below), not a test of its own.
  [ "$t" = server ] && continue
  args=()
  [ "$t" = client ] && args=("$work/server")
  echo "--- $t under ThreadSanitizer"
  if ! TSAN_OPTIONS="halt_on_error=1 suppressions=$PWD/scripts/tsan.supp" "$work/$t" "${args[@]}"; then
    echo "error: $t failed under ThreadSanitizer" >&2
    status=1
  fi
done
# Negative control: a deliberate race, built and linked the same way, must be reported.
cat > "$work/race.c" <<'C'
#include <pthread.h>
static int counter;
static void *bump(void *arg) { (void)arg; for (int i = 0; i < 100000; i++) counter++; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, bump, 0);
  pthread_create(&b, 0, bump, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  return counter == 0;
}
C
gcc -g -fsanitize=thread -c "$work/race.c" -o "$work/race.o"
gcc "$work/race.o" -o "$work/race" -Wl,--whole-archive "$runtime" -Wl,--no-whole-archive \
  -lpthread -ldl -lm -lrt -lstdc++
if TSAN_OPTIONS="halt_on_error=1" "$work/race" 2> "$work/race.log" || ! grep -q "data race" "$work/race.log"; then
  echo "error: the deliberate race was not reported: ThreadSanitizer is not working here" >&2
  status=1
else
  echo "--- negative control: the deliberate race was reported"
fi
exit "$status"
