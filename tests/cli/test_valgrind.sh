#!/bin/bash
# Every example and test model runs clean under valgrind (no invalid access,
# no definite leak). Short runs (0.01 s: every block runs at the first step;
# the start-up under valgrind is most of the time): the code paths, not the physics.
. "$(dirname "$0")/lib.sh" "$@"
if ! command -v valgrind >/dev/null; then
  echo "valgrind not installed (tests/deps.sh installs it)" >&2
  exit 1
fi
# Share K of N (arguments 2 and 3; ctest runs cli.test_valgrind.1 to .4 at
# once): every N-th run from the K-th
share=${2:-1} shares=${3:-1}
runs=()
for f in examples/*.lua tests/models/osc.lua; do
  [ -e "$f" ] && runs+=("$f --stop 0.01")
done
# events: long enough for impacts and switches (docs/events.md), every solver kind
runs+=("examples/bouncing_ball.lua --stop 2" "examples/thermostat.lua --stop 1700 --solver rk4 --dt 5"
       "examples/thermostat.lua --stop 1700 --solver cvode" "examples/thermostat.lua --stop 1700 --solver esdirk23")
for i in "${!runs[@]}"; do
  [ $((i % shares)) -eq $((share - 1)) ] || continue
  args=${runs[$i]}
  log=$(mktemp)
  # shellcheck disable=SC2086
  if valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
      "$LIED" run $args --out none >"$log" 2>&1; then
    ok
  else
    bad "$args"; cat "$log" >&2
  fi
  rm -f "$log"
done
[ $((pass + fail)) -gt 0 ] || bad "share $share of $shares: no runs"
finish
