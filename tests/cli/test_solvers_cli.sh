#!/bin/bash
# The solver options on the command line: --solver, --tol, --rtol, --atol,
# --hmax, --interval step, --stats, the solver list of --help (only what is
# built), and the Jacobian sparsity in `lied info`.
. "$(dirname "$0")/lib.sh" "$@"
M=tests/models/osc.lua

# --help lists the solvers this binary has, by kind
expect 0 "help" -- "$LIED" --help
contains "$tmp/out" "fixed-step explicit: euler, heun, rk3, rk4" "help: explicit solvers"
contains "$tmp/out" "adaptive explicit: dopri45" "help: dopri45"
contains "$tmp/out" "fixed-step implicit: beuler" "help: beuler"
contains "$tmp/out" "adaptive implicit: esdirk23" "help: esdirk23"
contains "$tmp/out" "--tol TOL" "help: --tol"
contains "$tmp/out" "--hmax H" "help: --hmax"
cat >"$tmp/solvers.lua" <<'LUA'
for _, s in ipairs(lied.core.solvers()) do print(s.name) end
LUA
"$LIED" "$tmp/solvers.lua" >"$tmp/names"
if grep -qx cvode "$tmp/names"; then
  contains "$tmp/out" "esdirk23, cvode" "help lists cvode when built"
else
  lacks "$tmp/out" "cvode" "help without cvode when not built"
fi

# adaptive runs: exact output points, statistics
for s in dopri45 esdirk23 $(grep -x cvode "$tmp/names"); do
  expect 0 "run $s" -- "$LIED" run $M --solver $s --tol 1e-8 --interval 0.25 --stats
  [ "$(wc -l <"$tmp/out")" -eq 6 ] && ok || bad "$s: rows at interval 0.25: $(wc -l <"$tmp/out")"
  tail -1 "$tmp/out" | awk -F, '{ exit !($1 == 1 && ($2 - cos(2))^2 < 1e-14) }' \
    && ok || bad "$s: last row $(tail -1 "$tmp/out")"
  contains "$tmp/err" "solver $s: steps " "$s: --stats solver line"
  contains "$tmp/err" "rejected " "$s: --stats rejections"
done
contains "$tmp/err" "Jacobians" "implicit --stats: Jacobians"
expect 0 "esdirk23 stats" -- "$LIED" run $M --solver esdirk23 --stats --out none
contains "$tmp/err" "LU factorisations" "esdirk23 --stats: factorisations"
contains "$tmp/err" "Newton iterations" "esdirk23 --stats: Newton iterations"
contains "$tmp/err" "(2 colours, 3 nonzeros)" "esdirk23 --stats: colours"
# every accepted step, largest step, rtol and atol
expect 0 "interval step" -- "$LIED" run $M --solver dopri45 --interval step --hmax 0.01
[ "$(wc -l <"$tmp/out")" -ge 102 ] && ok || bad "hmax 0.01: $(wc -l <"$tmp/out") rows"
expect 0 "rtol atol" -- "$LIED" run $M --solver esdirk23 --rtol 1e-3 --atol 1e-9 --out none
expect 0 "beuler" -- "$LIED" run $M --solver beuler --dt 0.001 --out none

# usage errors
expect 2 "tol 0" -- "$LIED" run $M --solver dopri45 --tol 0
contains "$tmp/err" "run: tolerance must be positive and finite, got 0" "tol 0 message"
expect 2 "hmax text" -- "$LIED" run $M --hmax big
expect 2 "interval text" -- "$LIED" run $M --interval often

# lied info: sparsity and colours
expect 0 "info cranecrab" -- "$LIED" info examples/cranecrab.lua
contains "$tmp/out" "nonzeros  14 of 4 x 4" "info: Jacobian nonzeros"
contains "$tmp/out" "colours   4" "info: colours"
contains "$tmp/out" "revolute2.w    ****" "info: pattern row"
expect 0 "info scaling" -- "$LIED" info examples/scaling.lua --set n=500
contains "$tmp/out" "nonzeros  7000 of 2000 x 2000" "info: 500 crabs"
contains "$tmp/out" "colours   4" "info: 500 crabs, 4 colours"
lacks "$tmp/out" "pattern" "info: no pattern for 2000 states"

finish
