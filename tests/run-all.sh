#!/bin/bash
# Install what is missing (Debian), build lied twice (optimised, and with
# AddressSanitizer + UndefinedBehaviorSanitizer), and run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tests/deps.sh
jobs=$(nproc 2>/dev/null || echo 2)
werror=OFF; [ "${CI:-}" = true ] && werror=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIED_WERROR=$werror >/dev/null
cmake --build build -j"$jobs"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DLIED_SANITIZE=ON -DLIED_WERROR=$werror >/dev/null
cmake --build build-asan -j"$jobs"
# the sanitizer stage runs with lied's assertions on (src/core/assert.h)
build-asan/lied --version | grep -q "assertions on" || { echo "build-asan: LIED_ASSERT is off"; exit 1; }
echo "== tests (optimised build)"
ctest --test-dir build --output-on-failure -j"$jobs"
echo "== tests (ASan + UBSan build)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"
# Fuzz smoke (tests/fuzz): libFuzzer harnesses built with clang, 25 s each
if command -v clang >/dev/null; then
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIED_FUZZ=ON >/dev/null
  if grep -q "LIED_HAVE_LIBFUZZER:INTERNAL=1" build-fuzz/CMakeCache.txt; then
    cmake --build build-fuzz -j"$jobs" --target fuzz_model fuzz_cli fuzz_repl fuzz_set fuzz_connect
    echo "== fuzz smoke (libFuzzer, ASan + UBSan)"
    ctest --test-dir build-fuzz --output-on-failure -L fuzz
  else
    echo "== fuzz smoke skipped: clang has no -fsanitize=fuzzer (libclang-rt-dev)"
  fi
else
  echo "== fuzz smoke skipped: no clang"
fi
# No test may leave files in the source tree (build trees are ignored): a
# file there is written by a test with a wrong path or cwd
if command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  left=$(git status --porcelain --untracked-files=all | grep '^??' || true)
  if [ -n "$left" ]; then
    echo "== files left in the source tree by the tests:"
    printf '%s\n' "$left" | cat -A | head -20
    exit 1
  fi
fi
