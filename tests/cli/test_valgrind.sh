#!/bin/bash
# Every example and test model runs clean under valgrind (no invalid access,
# no definite leak). Short runs (0.01 s: every block runs at the first step;
# the start-up under valgrind is most of the time): the code paths, not the physics.
. "$(dirname "$0")/lib.sh" "$@"
if ! command -v valgrind >/dev/null; then
  echo "valgrind not installed (tests/deps.sh installs it)" >&2
  exit 1
fi
for f in examples/*.lua tests/models/osc.lua; do
  [ -e "$f" ] || continue
  log=$(mktemp)
  if valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
      "$LIED" run "$f" --out none --stop 0.01 >"$log" 2>&1; then
    ok
  else
    bad "$f"; cat "$log" >&2
  fi
  rm -f "$log"
done
# events: long enough for impacts and switches (docs/events.md), every solver kind
for args in "examples/bouncing_ball.lua --stop 2" "examples/thermostat.lua --stop 1700 --solver rk4 --dt 5" \
            "examples/thermostat.lua --stop 1700 --solver cvode" "examples/thermostat.lua --stop 1700 --solver esdirk23"; do
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
finish
