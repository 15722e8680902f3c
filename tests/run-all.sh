#!/bin/bash
# Install what is missing (Debian), build lied twice (optimised, and with
# AddressSanitizer + UndefinedBehaviorSanitizer), and run every test with ctest;
# then contexts on several threads under ThreadSanitizer and the libFuzzer
# smoke (clang). Prints the time of every stage at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
werror=OFF; [ "${CI:-}" = true ] && werror=ON
stages=() t_all=$SECONDS t_stage=$SECONDS
# stage NAME: the time since the last stage ends there
stage() { stages+=("$(printf '%-36s %5d s' "$1" $((SECONDS - t_stage)))"); t_stage=$SECONDS; }
summary() {
  echo "== stages"
  printf '  %s\n' "${stages[@]}"
  printf '  %-36s %5d s\n' total $((SECONDS - t_all))
}
trap summary EXIT

bash tests/deps.sh
stage "dependencies"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIED_WERROR=$werror >/dev/null
cmake --build build -j"$jobs"
stage "build (optimised)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DLIED_SANITIZE=ON -DLIED_WERROR=$werror >/dev/null
cmake --build build-asan -j"$jobs"
# the sanitizer stage runs with lied's assertions on (src/core/assert.h)
build-asan/lied --version | grep -q "assertions on" || { echo "build-asan: LIED_ASSERT is off"; exit 1; }
stage "build (ASan + UBSan)"
echo "== tests (optimised build)"
ctest --test-dir build --output-on-failure -j"$jobs"
stage "tests (optimised build)"
echo "== tests (ASan + UBSan build)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"
stage "tests (ASan + UBSan build)"
# ThreadSanitizer (clang): contexts of the embedding API on several threads
# at once (tests/embed/test_contexts.c; docs/robustness.md)
if command -v clang >/dev/null; then
  tsan=-fsanitize=thread
  CC=clang cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS=$tsan \
    -DCMAKE_EXE_LINKER_FLAGS=$tsan -DCMAKE_SHARED_LINKER_FLAGS=$tsan \
    -DCMAKE_MODULE_LINKER_FLAGS=$tsan >/dev/null
  cmake --build build-tsan -j"$jobs" --target test_contexts lied_testlib lied_lua_files
  echo "== contexts on threads (ThreadSanitizer)"
  ctest --test-dir build-tsan --output-on-failure -R embed.test_contexts
  stage "ThreadSanitizer (build and test)"
else
  echo "== ThreadSanitizer skipped: no clang"
fi
# Fuzz smoke (tests/fuzz): libFuzzer harnesses built with clang, 8 s each,
# as many at once as there are cores (each runs on one); built at -O1 with
# line tables only (libFuzzer's advice; a fifth less compile time than -O2 -g)
if command -v clang >/dev/null; then
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIED_FUZZ=ON \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" >/dev/null
  if grep -q "LIED_HAVE_LIBFUZZER:INTERNAL=1" build-fuzz/CMakeCache.txt; then
    cmake --build build-fuzz -j"$jobs" --target fuzz_model fuzz_cli fuzz_repl fuzz_set fuzz_connect \
      fuzz_media fuzz_embed fuzz_descriptor
    stage "build (libFuzzer)"
    echo "== fuzz smoke (libFuzzer, ASan + UBSan)"
    ctest --test-dir build-fuzz --output-on-failure -L fuzz -j"$jobs"
    stage "fuzz smoke"
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
