#!/usr/bin/env bash
# The C++ layer include/mcp.hpp: tests/cpp/roundtrip.cpp (a C++ server and client on the header,
# over Streamable HTTP in both eras and over stdio, handler exceptions answered as tool and JSON-RPC
# errors, async calls, the builder's refusals) compiled with -Wall -Wextra -Wpedantic -Werror as
# C++17 and C++20, run plainly, under ASan+UBSan and under valgrind, against the debug library
# installed with ffi/install.sh (the installed mcp.hpp, found through pkg-config); tests/cpp/endpoint.cpp
# (mcp::http_endpoint mounted without sockets: a client header and the host's principal reach a
# handler, SSE events through the sink, destroying an exchange mid-call cancels the handler) the same way.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/common.sh
ensure_debian_packages pkg-config valgrind

work="$(target_dir)/cpp"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$work/bin"
ffi/install.sh "$prefix" debug
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# shellcheck disable=SC2207
libs=($(pkg-config --cflags --libs mcp) -Wl,-rpath,"$prefix/lib" -lpthread)
flags=(-Wall -Wextra -Wpedantic -Werror -g)
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
g++ -std=c++17 "${flags[@]}" tests/cpp/roundtrip.cpp -o "$work/bin/roundtrip" "${libs[@]}"
g++ -std=c++20 "${flags[@]}" tests/cpp/roundtrip.cpp -o "$work/bin/roundtrip-20" "${libs[@]}"
g++ -std=c++17 "${flags[@]}" "${san[@]}" tests/cpp/roundtrip.cpp -o "$work/bin/roundtrip-asan" "${libs[@]}"
g++ -std=c++17 "${flags[@]}" tests/cpp/endpoint.cpp -o "$work/bin/endpoint" "${libs[@]}"
g++ -std=c++20 "${flags[@]}" tests/cpp/endpoint.cpp -o "$work/bin/endpoint-20" "${libs[@]}"
g++ -std=c++17 "${flags[@]}" "${san[@]}" tests/cpp/endpoint.cpp -o "$work/bin/endpoint-asan" "${libs[@]}"
"$work/bin/roundtrip"
"$work/bin/roundtrip-20"
"$work/bin/roundtrip-asan"
"$work/bin/endpoint"
"$work/bin/endpoint-20"
"$work/bin/endpoint-asan"
# valgrind 3.19 warns about pidfd_open (syscall 434), which std uses to reap children; the warning
# is not an error. Leaks that fail: definite and indirect (the debug library keeps thread-local
# caches that count as "possibly lost").
valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect \
  --show-leak-kinds=definite,indirect --child-silent-after-fork=yes -q --error-exitcode=1 \
  "$work/bin/roundtrip" 2> "$work/valgrind.log" || { cat "$work/valgrind.log" >&2; exit 1; }
valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect \
  --show-leak-kinds=definite,indirect -q --error-exitcode=1 \
  "$work/bin/endpoint" 2> "$work/valgrind-endpoint.log" || { cat "$work/valgrind-endpoint.log" >&2; exit 1; }
echo "mcp.hpp checks passed (C++17, C++20, ASan+UBSan, valgrind)"
