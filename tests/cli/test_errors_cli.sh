#!/bin/bash
# The error catalogue (docs/robustness.md) through the command line: every
# entry exits with status 1 (model or simulation error) or 2 (usage) and a
# message naming the file:line or the component path. Also resource faults
# (out of memory, full disk) and, without ASan, no leak on the error paths
# (valgrind). tests/errors/test_catalogue.lua checks the Lua error values;
# tests/cli/test_cli.sh the basic usage errors (not repeated here).
. "$(dirname "$0")/lib.sh" "$@"
E=tests/models/errors
asan=0
ldd "$LIED" 2>/dev/null | grep -q asan && asan=1

# Lua errors in model files and files that return no model
expect_error 1 "syntax_error.lua:1:" -- "$LIED" info tests/models/syntax_error.lua
expect_error 1 "runtime_error.lua:2: deliberate failure" -- "$LIED" vars tests/models/runtime_error.lua
expect_error 1 "returns_nothing.lua: the file must return a model (lied.model \"Name\" {...}), got nil" -- \
  "$LIED" run $E/returns_nothing.lua
# unknown class, parameter, port: file:line and a suggestion
expect_error 1 "unknown_class.lua:5: library testlib has no class 'Mas' (did you mean 'Mass'?)" -- \
  "$LIED" run $E/unknown_class.lua
expect_error 1 "unknown_param.lua:5: b: Mass has no parameter 'mass' (did you mean 'm'?)" -- \
  "$LIED" run $E/unknown_param.lua
expect_error 1 "unknown_port.lua:6: in (model), connect {\"c.y\", \"g.uu\"}: Gain has no port 'uu' (did you mean 'u'?)" -- \
  "$LIED" info $E/unknown_port.lua
# bad parameter values
expect_error 1 "bad_value.lua:5: b: parameter m = -2 [kg] must be > 0" -- "$LIED" run $E/bad_value.lua
expect_error 1 "osc.lua:7: j: parameter k = -1 [N/m] must be >= 0" -- "$LIED" run tests/models/osc.lua --set k=-1
# structure
expect_error 1 "incompatible.lua:6: incompatible ports: c.y is real, j.flange_a is flange1d" -- \
  "$LIED" run $E/incompatible.lua
expect_error 1 "output_output.lua:6: cannot connect a.y to b.y: both are output ports" -- \
  "$LIED" run $E/output_output.lua
expect_error 1 "input_twice.lua:6: input connected twice: g.u is fed by a.y and b.y" -- \
  "$LIED" run $E/input_twice.lua
expect_error 1 "unconnected.lua:5: unconnected input: g.u (every real input needs a connection)" -- \
  "$LIED" run $E/unconnected.lua
expect_error 1 "branching.lua:8: branching is not allowed for thermofluid connectors: src.outlet" -- \
  "$LIED" run $E/branching.lua
expect_error 1 "algebraic loop without tearing" -- "$LIED" run $E/algebraic_loop.lua
# run-time failures: exit 1, the rows before the failure are kept
expect_error 1 "at t = 0: singular linear section (pivot 1 of 1); tearing variables: x.z" -- \
  "$LIED" run $E/singular.lua --vars x.y --out "$tmp/s.csv"
[ "$(head -1 "$tmp/s.csv" 2>/dev/null)" = "time,x.y" ] && ok || bad "singular: CSV header kept"
expect_error 1 "state i.x became inf" -- "$LIED" run $E/nan_derivative.lua
expect_error 1 "step size underflow" -- "$LIED" run $E/stiff.lua --solver dopri45 --set k=1e6
expect_error 1 "the Newton iteration of beuler does not converge with step 0.1 (largest update in state i.x)" -- \
  "$LIED" run $E/nan_derivative.lua --solver beuler
expect_error 1 "the Newton iteration does not converge" -- "$LIED" run $E/nan_derivative.lua --solver esdirk23
# option values that cannot work: a usage error (exit 2), not a run that stands still
expect_error 2 "run: step size (dt) 1e-300 cannot advance time near t = 1" -- "$LIED" run tests/models/osc.lua --dt 1e-300
expect_error 2 "run: output interval 1e-300 cannot advance time" -- "$LIED" run tests/models/osc.lua --interval 1e-300
# one parameter set twice: which was meant? (the last was taken silently)
for cmd in run info steady; do
  expect_error 2 "--set k is given twice (1, then 2): give it once" -- "$LIED" $cmd tests/models/osc.lua --set k=1 --set k=2
done
expect 0 "an array's parameter, then one copy's" -- "$LIED" run tests/models/osc.lua --set extra.k=1 --set 'extra[1].k=2' --out none
expect_error 2 "run: the interval [-1e+308, 1e+308] must be finite" -- "$LIED" run tests/models/osc.lua --start -1e308 --stop 1e308
expect_error 2 "run: clients must be from 0 to 1024" -- "$LIED" run tests/models/osc.lua --clients 1e300
# unknown solver or option, --set of a missing parameter
expect_error 2 "unknown solver 'dopri' (available:" -- "$LIED" run tests/models/osc.lua --solver dopri
expect_error 2 "unknown option --stpo" -- "$LIED" run tests/models/osc.lua --stpo 2
expect_error 2 "unknown option --out" -- "$LIED" info tests/models/osc.lua --out x.csv
expect_error 1 "--set kk: no such parameter in model Osc (did you mean 'k'?)" -- \
  "$LIED" run tests/models/osc.lua --set kk=1
expect_error 1 "osc.lua:8: b: Mass has no parameter 'mm' (did you mean 'm'?)" -- "$LIED" info tests/models/osc.lua --set b.mm=1
expect_error 2 "--set n: value must be a number, got 'many'" -- "$LIED" run tests/models/osc.lua --set n=many

# Out of memory when instantiating: a message, exit 1, no crash. Without ASan
# the address space is limited (the arena needs 4e9 x 80 bytes); with ASan the
# allocator's limit plays that part.
if [ $asan -eq 1 ]; then
  oom() { ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=4096 "$@"; }
else
  oom() { (ulimit -v 4000000; "$@"); }
fi
expect_error 1 "out of memory instantiating crab." -- oom "$LIED" run examples/scaling.lua --set n=4000000000 --out none
expect_error 1 "out of memory instantiating y.x: 4503599626321920 x 16 bytes" -- oom "$LIED" info $E/huge_array.lua
expect_error 1 "crab: array size 10000000000 out of range (at most 4294967295)" -- \
  "$LIED" info examples/scaling.lua --set n=1e10

# A full disk while writing results: an error naming the file, not a crash
ln -s /dev/full "$tmp/full.csv"
ln -s /dev/full "$tmp/full.mat"
expect_error 1 "cannot write $tmp/full.csv: No space left on device" -- "$LIED" run tests/models/osc.lua --out "$tmp/full.csv"
expect_error 1 "cannot write $tmp/full.mat: No space left on device" -- "$LIED" run tests/models/osc.lua --out "$tmp/full.mat"
expect_error 1 "cannot write $tmp/full.csv" -- "$LIED" run examples/cranecrab.lua --stop 2 --out "$tmp/full.csv" --out "$tmp/ok.csv"
expect_error 1 "cannot write standard output: No space left on device" -- sh -c "exec '$LIED' run tests/models/osc.lua >/dev/full"
expect_error 1 "cannot write to standard output: No space left on device" -- sh -c "exec '$LIED' info tests/models/osc.lua >/dev/full"
expect_error 1 "cannot write to standard output" -- sh -c "exec '$LIED' --help >/dev/full"
expect_error 2 "cannot open /nonexistent-dir/x.lua" -- "$LIED" run /nonexistent-dir/x.lua
expect_error 1 "cannot open /nonexistent-dir/r.csv for writing" -- "$LIED" run tests/models/osc.lua --out /nonexistent-dir/r.csv

# No leak and no invalid access on the error paths (ASan builds check this
# with LeakSanitizer in every test above): the failing runs under valgrind in
# one process (lib.sh's valgrind_runs: the start-up once)
if [ $asan -eq 0 ] && command -v valgrind >/dev/null; then
  if valgrind_runs --any-status "run $E/unknown_port.lua" "run $E/input_twice.lua" \
      "run $E/algebraic_loop.lua" "run $E/unconnected.lua" "run $E/singular.lua --out none" \
      "run $E/nan_derivative.lua --out none" "run $E/nan_derivative.lua --solver beuler --out none" \
      "run $E/stiff.lua --solver dopri45 --set k=1e6 --out none" "run tests/models/osc.lua --out $tmp/full.csv" \
      "run tests/models/osc.lua --out $tmp/full.mat" "info $E/huge_array.lua" >"$tmp/vg" 2>&1; [ $? -ne 9 ]; then
    ok
  else
    bad "valgrind: $(cat "$tmp/vg")"
  fi
fi

finish
