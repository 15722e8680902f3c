#!/bin/bash
# Install what is missing (Debian), build lied twice (optimised, and with
# AddressSanitizer + UndefinedBehaviorSanitizer), and run every test with ctest;
# then contexts on several threads under ThreadSanitizer and the libFuzzer
# smoke (clang). Prints the time of every stage at the end.
#
# The next stage's build runs in the background at a low priority (nice 15)
# while a stage's tests run: it takes the cores the tests leave idle (a test
# waiting for mpirun, a signal, a socket) and yields them to the tests
# otherwise. Its output goes to BUILD_DIR/build.log, shown if it fails.
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

bash tests/deps.sh
stage "dependencies"
bg_pids=()
trap 'for p in "${bg_pids[@]}"; do kill -- -"$p" 2>/dev/null || true; done; summary' EXIT
# background BUILD_DIR COMMAND...: COMMAND (a build) in its own process group,
# low priority, output in BUILD_DIR/build.log; its pid in bg
background() {
  local dir=$1; shift
  mkdir -p "$dir"
  setsid nice -n 15 "$@" >"$dir/build.log" 2>&1 &
  bg=$!; bg_pids+=("$bg")
}
# await PID BUILD_DIR: the background build's end; its log if it failed
await() {
  if ! wait "$1"; then
    echo "== build in $2 failed:"; tail -50 "$2/build.log"; exit 1
  fi
}
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIED_WERROR=$werror >/dev/null
cmake --build build -j"$jobs"
stage "build (optimised)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DLIED_SANITIZE=ON -DLIED_WERROR=$werror >/dev/null
background build-asan cmake --build build-asan -j"$jobs"; asan_build=$bg
echo "== tests (optimised build; the ASan + UBSan tree builds beside them)"
ctest --test-dir build --output-on-failure -j"$jobs"
stage "tests (optimised build)"
await "$asan_build" build-asan
# the sanitizer stage runs with lied's assertions on (src/core/assert.h)
build-asan/lied --version | grep -q "assertions on" || { echo "build-asan: LIED_ASSERT is off"; exit 1; }
stage "build (ASan + UBSan; the rest)"
# the clang trees (ThreadSanitizer: contexts of the embedding API on several
# threads at once, tests/embed/test_contexts.c, docs/robustness.md; the
# libFuzzer harnesses of tests/fuzz at -O1 with line tables only, libFuzzer's
# advice) configure now and build beside the sanitizer stage's tests
if command -v clang >/dev/null; then
  tsan=-fsanitize=thread
  CC=clang cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS=$tsan \
    -DCMAKE_EXE_LINKER_FLAGS=$tsan -DCMAKE_SHARED_LINKER_FLAGS=$tsan \
    -DCMAKE_MODULE_LINKER_FLAGS=$tsan >/dev/null
  CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIED_FUZZ=ON \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" >/dev/null
  fuzz_targets=()
  if grep -q "LIED_HAVE_LIBFUZZER:INTERNAL=1" build-fuzz/CMakeCache.txt; then
    fuzz_targets=(fuzz_model fuzz_cli fuzz_repl fuzz_set fuzz_connect fuzz_media fuzz_embed
                  fuzz_descriptor)
  fi
  background build-tsan bash -c "cmake --build build-tsan -j$jobs --target test_contexts \
    lied_testlib lied_lua_files && { [ ${#fuzz_targets[@]} -eq 0 ] || \
    cmake --build build-fuzz -j$jobs --target ${fuzz_targets[*]}; }"
  clang_build=$bg
fi
echo "== tests (ASan + UBSan build)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -j"$jobs"
stage "tests (ASan + UBSan build)"
if command -v clang >/dev/null; then
  await "$clang_build" build-tsan
  stage "build (clang trees; the rest)"
  echo "== contexts on threads (ThreadSanitizer)"
  ctest --test-dir build-tsan --output-on-failure -R embed.test_contexts
  stage "ThreadSanitizer"
  # fuzz smoke: 8 s per harness, as many at once as there are cores
  if [ ${#fuzz_targets[@]} -gt 0 ]; then
    echo "== fuzz smoke (libFuzzer, ASan + UBSan)"
    ctest --test-dir build-fuzz --output-on-failure -L fuzz -j"$jobs"
    stage "fuzz smoke"
  else
    echo "== fuzz smoke skipped: clang has no -fsanitize=fuzzer (libclang-rt-dev)"
  fi
else
  echo "== ThreadSanitizer and fuzz smoke skipped: no clang"
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
