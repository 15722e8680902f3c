#!/bin/bash
# lied run --check on every model in examples/ (docs/repl.md, "Checking the
# fast paths"): each runs along its fast paths and along the plain ones and
# every variable at every output point must be the same bits (exit 0, "every
# run gives the plain run's bits"). Short stop times; models with a size
# parameter n also at n = 100 (arrays of several chunks: fused steps and
# waves in lane form on threads), unless that is their size already, and at
# n = 600 where that schedules them from a window (the district network's
# sparse section keeps it off the window: 600 houses would only take longer
# to build). Together the runs must take every fast path: lanes, fused
# steps, waves, skew, window, replicated scheduling, threads. A broken fast
# path is found by tests/plugins/test_check_broken.lua.
. "$(dirname "$0")/lib.sh" "$@"

taken=""
check_model() { # FILE ARGS...: lied run FILE --check ARGS... passes
  local f=$1; shift
  run_lied "$LIED" run "$f" --check "$@"
  if [ "$rc" -eq 0 ] && grep -q "every run gives the plain run's bits" "$tmp/out"; then
    ok
  else
    bad "$f $*: exit $rc: $(head -c 2000 "$tmp/out") $(head -c 600 "$tmp/err")"
  fi
  taken="$taken $(awk '$1 == "fast" { $1 = $2 = $3 = ""; print }' "$tmp/out" | tr -d ',')"
}

for f in examples/*.lua; do
  # the district network's fast runs share each of its 1,500 one-instance
  # steps per evaluation between the threads (threads_any), and its start
  # takes the implicit solver's shortest steps: 134 steps to 0.005 s take
  # every path that 536 to 0.1 s take, in a quarter of the time
  case $f in
    */district_heating.lua) stop=0.005 ;;
    *) stop=0.1 ;;
  esac
  check_model "$f" --stop $stop
  if "$LIED" info "$f" --set n=600 >"$tmp/info600" 2>/dev/null; then # a size parameter n
    "$LIED" info "$f" | grep -q '\[1\.\.100\]' || check_model "$f" --stop 0.05 --set n=100
    grep -q "from a window" "$tmp/info600" && check_model "$f" --stop 0.02 --set n=600
  fi
done
for p in lanes fused waves skew window replicate threads; do
  check "echo '$taken' | grep -qw $p" "no example took the fast path '$p'"
done
# --check writes no outputs, and turns the paths on and off itself
expect_error 2 "lied run --check writes no outputs" -- "$LIED" run examples/cranecrab.lua --check --out x.csv
expect_error 2 "--stats is not used" -- "$LIED" run examples/cranecrab.lua --check --stats
expect_error 2 "--no-lanes is not used" -- "$LIED" run examples/scaling.lua --check --no-lanes
expect_error 2 "--tol is not used" -- "$LIED" run examples/cranecrab.lua --check --tol 1e-3
finish
