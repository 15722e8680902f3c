#!/bin/bash
# Every example and test model runs clean under valgrind (no invalid access,
# no definite leak). Short runs: the point is the code paths, not the physics.
LIED=${1:-./build/lied}
if ! command -v valgrind >/dev/null; then
  echo "valgrind not installed (tests/deps.sh installs it)" >&2
  exit 1
fi
pass=0; fail=0
for f in examples/*.lua tests/models/osc.lua; do
  [ -e "$f" ] || continue
  log=$(mktemp)
  if valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
      "$LIED" run "$f" --out none --stop 0.05 >"$log" 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAILED: $f" >&2; cat "$log" >&2
  fi
  rm -f "$log"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
