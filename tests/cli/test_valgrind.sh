#!/bin/bash
# Every example and test model runs clean under valgrind (no invalid access,
# no definite leak); the runs of a share in one process, each named in the
# log before it starts. Short runs (0.01 s: every block runs at the first step;
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
  [ -e "$f" ] && runs+=("run $f --stop 0.01 --out none")
done
# events: long enough for impacts and switches (docs/events.md), every solver kind
for r in "examples/bouncing_ball.lua --stop 2" "examples/thermostat.lua --stop 1700 --solver rk4 --dt 5" \
    "examples/thermostat.lua --stop 1700 --solver cvode" "examples/thermostat.lua --stop 1700 --solver esdirk23"; do
  runs+=("run $r --out none")
done
mine=()
for i in "${!runs[@]}"; do
  [ $((i % shares)) -eq $((share - 1)) ] && mine+=("${runs[$i]}")
done
# the share's runs in one process (lib.sh's valgrind_runs): valgrind's and
# lied's start-up once, not once per run (1.2 s of the 1.6 s of a run); a
# share without runs fails there ("no runs given")
if valgrind_runs "${mine[@]}" >"$tmp/vg" 2>&1; then
  pass=$((pass + ${#mine[@]}))
else
  bad "share $share of $shares (${#mine[@]} runs)"; cat "$tmp/vg" >&2
fi
finish
