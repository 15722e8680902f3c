#!/bin/bash
# Fuzz lied with libFuzzer (clang). See docs/robustness.md, "Fuzzing".
#   bash tests/fuzz/run.sh [SECONDS [TARGET...]]   build build-fuzz/ with clang and
#        fuzz each TARGET (model, cli, repl, set, connect, media, embed, descriptor; default
#        all) for SECONDS (default 60),
#        growing build-fuzz/corpus/TARGET from the committed seeds; crashes go to
#        build-fuzz/artifacts/
#   bash tests/fuzz/run.sh --smoke BINARY SECONDS   (the ctest) fuzz one built
#        harness for SECONDS from at most 80 of the committed seeds, leaving
#        them unchanged
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
export LIED_SRC=$src
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
common=(-timeout=10 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1)

if [ "${1:-}" = "--smoke" ]; then
  bin=$2 secs=$3
  export LIED_PATH=${LIED_PATH:-$(dirname "$bin")/testlib} # tests/testlib, built beside
  name=$(basename "$bin"); name=${name#fuzz_}
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  dict=(); [ -f "$here/$name.dict" ] && dict=(-dict="$here/$name.dict")
  # libFuzzer runs every seed before its time limit counts: the smoke starts
  # from at most 80 of them (every k-th by name, the same ones each time),
  # so that its time is bounded whatever the committed corpus has grown to
  mkdir "$work/seeds" "$work/new"
  seeds=("$here/corpus/$name"/*)
  k=$(( (${#seeds[@]} + 79) / 80 )); [ "$k" -lt 1 ] && k=1
  for ((i = 0; i < ${#seeds[@]}; i += k)); do cp "${seeds[$i]}" "$work/seeds/"; done
  "$bin" "${common[@]}" "${dict[@]}" -max_total_time="$secs" -artifact_prefix="$work/" \
    "$work/new" "$work/seeds" 2>"$work/log"
  rc=$?
  grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" "$work/log"
  if [ $rc -ne 0 ]; then
    tail -60 "$work/log"
    for f in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
      [ -e "$f" ] && { echo "input $f:"; od -c "$f" | head -20; }
    done
  fi
  exit $rc
fi

secs=${1:-60}; shift || true
targets=("$@"); [ ${#targets[@]} -eq 0 ] && targets=(model cli repl set connect media embed descriptor)
build=$src/build-fuzz
export LIED_PATH=$build/tests/testlib # the test library (tests/testlib)
CC=${FUZZ_CC:-clang} cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIED_FUZZ=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]/#/fuzz_}" lied_testlib >/dev/null || exit 1
mkdir -p "$build/artifacts"
rc=0
for t in "${targets[@]}"; do
  mkdir -p "$build/corpus/$t"
  dict=(); [ -f "$here/$t.dict" ] && dict=(-dict="$here/$t.dict")
  echo "== fuzz_$t for $secs s"
  "$build/tests/fuzz_$t" "${common[@]}" "${dict[@]}" -max_total_time="$secs" \
    -artifact_prefix="$build/artifacts/$t-" "$build/corpus/$t" "$here/corpus/$t" \
    2>"$build/fuzz-$t.log" || rc=1
  grep -E "stat::|DONE|ERROR|SUMMARY" "$build/fuzz-$t.log"
done
exit $rc
