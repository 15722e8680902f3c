#!/bin/bash
# lied steady, lied linearize, lied params: the numbers (vessels at the
# level that keeps the water, the mass-spring's +-2i), the CSV layout, and
# exit status 2 with a message for every bad argument.
. "$(dirname "$0")/lib.sh" "$@"

expect 0 "steady" -- "$LIED" steady examples/vessels.lua
for t in t1 t2 t3; do
  awk -v n="$t.level" '$1 == n { ok = ($2 - 3.5 / 3)^2 < 1e-16 } END { exit !ok }' "$tmp/out" \
    && ok || bad "steady $t.level: $(cat "$tmp/out")"
done
expect 0 "steady --at" -- "$LIED" steady examples/vessels.lua --at 100 --solver rk4 --dt 0.01
contains "$tmp/out" "at t = 100" "time of the analysis"
awk '$1 == "t3.level" { ok = ($2 - 3.5 / 3)^2 < 1e-16 } END { exit !ok }' "$tmp/out" && ok || bad "steady --at: $(cat "$tmp/out")"
expect 0 "steady --fixed" -- "$LIED" steady examples/vessels.lua --fixed t1.level --set t1.level=1.5
awk '$1 == "t2.level" { ok = ($2 - 1.5)^2 < 1e-16 } END { exit !ok }' "$tmp/out" && ok || bad "steady --fixed: $(cat "$tmp/out")"

expect 0 "linearize" -- "$LIED" linearize examples/mass_spring.lua --eig
[ "$(head -3 "$tmp/out" | tr '\n' ' ')" = "A,slider.s,slider.v slider.s,0,1 slider.v,-4,0 " ] && ok || bad "A: $(cat "$tmp/out")"
awk -F, '/^eigenvalue/ { e = 1; next } e && NF == 3 { n++; if ($2^2 > 1e-20 || ($3^2 - 4)^2 > 1e-18) bad = 1 } END { exit !(n == 2 && !bad) }' "$tmp/out" \
  && ok || bad "eigenvalues +-2i: $(cat "$tmp/out")"
expect 0 "linearize B C D" -- "$LIED" linearize examples/mass_spring.lua --inputs slider.F --outputs slider.s,slider.v --set k=9
contains "$tmp/out" "slider.v,-9,0" "A with --set"
contains "$tmp/out" "B,slider.F" "B"
contains "$tmp/out" "C,slider.s,slider.v" "C"
contains "$tmp/out" "D,slider.F" "D"
lacks "$tmp/out" "eigenvalue" "no eigenvalues without --eig"

expect 0 "params" -- "$LIED" params examples/vessels.lua 'p1.*'
contains "$tmp/out" "p1.L" "params lists p1.L"
grep -qE '^p1\.L +1000 +1/m' "$tmp/out" && ok || bad "p1.L value and unit: $(cat "$tmp/out")"

expect_error 2 "steady: fixed: t9.level" -- "$LIED" steady examples/vessels.lua --fixed t9.level
expect_error 2 "p1.m_flow is not a state" -- "$LIED" steady examples/vessels.lua --fixed p1.m_flow
expect_error 2 "--at expects a number" -- "$LIED" steady examples/vessels.lua --at soon
expect_error 2 "before the start" -- "$LIED" linearize examples/mass_spring.lua --at -1
expect_error 2 "has no parameter 'Fx'" -- "$LIED" linearize examples/mass_spring.lua --inputs slider.Fx
expect_error 2 "outputs: " -- "$LIED" linearize examples/mass_spring.lua --outputs nothing.x
expect_error 2 "unknown option --eigen" -- "$LIED" linearize examples/mass_spring.lua --eigen
expect_error 2 "unknown option --inputs" -- "$LIED" steady examples/vessels.lua --inputs a.b
expect_error 2 "missing FILE.lua" -- "$LIED" steady
expect_error 2 "--maxit expects a whole number" -- "$LIED" steady examples/vessels.lua --maxit 2.5
# a whole number written 1e12 is one, and out of range (it was 'expects a whole number')
expect_error 2 "steady: maxit must be a whole number from 1 to 1000000, got 1000000000000" -- \
  "$LIED" steady examples/vessels.lua --maxit 1e12
expect 0 "--maxit 1e3" -- "$LIED" steady examples/vessels.lua --maxit 1e3
expect_error 1 "no steady state found" -- "$LIED" steady examples/mass_spring.lua --set k=0 --set slider.F=1 --maxit 40
expect_error 1 "no parameter matches" -- "$LIED" params examples/vessels.lua 'zz*'

# units of derivatives: kg/s -> kg/s2, one spelling
expect 0 "vars" -- "$LIED" vars examples/vessels.lua
lacks "$tmp/out" "kg/s/s" "derivative units are kg/s2"
contains "$tmp/out" "kg/s2" "derivative units"

# parameters with the results: MAT data_1 (read back by libmatio), CSV comments
TM="$(dirname "$LIED")/tests/test_mat"
expect 0 "MAT with parameters" -- "$LIED" run examples/vessels.lua --stop 1 --out "$tmp/v.mat" --out "$tmp/v.csv"
"$TM" "$tmp/v.mat" "$tmp/v.csv" >"$tmp/cmp" 2>&1
st=$?
check '[ $st -eq 0 ] && grep -q "(74 parameters in data_1)" "$tmp/cmp"' "MAT data_1 holds the parameters: $(cat "$tmp/cmp")"
grep -c "p1.L" "$tmp/v.mat" >/dev/null && ok || bad "p1.L named in the MAT file"
expect 0 "CSV with --params" -- "$LIED" run examples/vessels.lua --stop 1 --params
contains "$tmp/out" "# p1.L = 1000 [1/m]" "CSV parameter comment"
lacks "$tmp/out" "# t1.level =" "start values of states are variables, not parameters"
grep -m1 -v '^#' "$tmp/out" | grep -q '^time,t1.level' && ok || bad "CSV header after the comments"
expect 0 "CSV without --params" -- "$LIED" run examples/vessels.lua --stop 1
lacks "$tmp/out" "# p1.L" "no comments by default"

# the REPL: results that do not fit in memory say how to record less (not
# under AddressSanitizer, which needs more address space than the limit)
if ! grep -q "LIED_SANITIZE:BOOL=ON" "$(dirname "$LIED")/CMakeCache.txt" 2>/dev/null; then
  printf 'load "examples/scaling.lua"\nset("n", 50000)\nrun{stop = 0.001}\n' >"$tmp/oom.lua"
  (ulimit -v 3000000; "$LIED" <"$tmp/oom.lua" >"$tmp/out" 2>"$tmp/err"); rc=$?
  [ "$rc" -eq 1 ] && ok || bad "out of memory: exit $rc"
  contains "$tmp/err" "out of memory keeping the results" "out-of-memory message"
  contains "$tmp/err" 'out = "none", memory = false' "out-of-memory hint"
  contains "$tmp/err" 'vars = ' "out-of-memory hint: vars"
fi
# a list option given and naming nothing (commas, spaces) is refused, not read
# as "none given"
for o in "--fixed ,," "--fixed ' , '"; do
  eval "expect_error 2 \"names nothing\" -- \"\$LIED\" steady examples/vessels.lua $o"
done
for o in "--inputs ," "--outputs ',, '" "--outputs ''"; do
  eval "expect_error 2 \"names nothing\" -- \"\$LIED\" linearize examples/mass_spring.lua $o"
done
expect 0 "a list's items trimmed" -- "$LIED" steady examples/vessels.lua --fixed ' t1.level , ' --set t1.level=1.5
awk '$1 == "t2.level" { ok = ($2 - 1.5)^2 < 1e-16 } END { exit !ok }' "$tmp/out" && ok || bad "steady --fixed ' t1.level , ': $(cat "$tmp/out")"

finish
