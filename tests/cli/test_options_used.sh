#!/bin/bash
# Every option a command accepts is used or refused, never ignored (issue
# 45): per command, an option it would not use is a usage error (exit 2)
# naming it and why; the same option where it is used works. `lied FILE.lua
# PLOT.png --solver cvode` runs with cvode.
. "$(dirname "$0")/lib.sh" "$@"
V=examples/vessels.lua

# lied run: a solver's options only with a solver that takes them
expect_error 2 "lied run: --tol is not used by rk4 (a fixed-step explicit solver" -- \
  "$LIED" run $V --solver rk4 --tol 1e-6 --stop 1
expect_error 2 "lied run: --hmax is not used by rk4" -- "$LIED" run $V --solver rk4 --hmax 0.1 --stop 1
expect_error 2 "lied run: --no-fuse is not used by dopri45 (an adaptive solver" -- \
  "$LIED" run $V --solver dopri45 --no-fuse --stop 1
expect_error 2 "lied run: --no-lanes is not used by beuler (an implicit fixed-step solver" -- \
  "$LIED" run $V --solver beuler --no-lanes --stop 1
expect_error 2 "lied run: --clients is not used without a tcp:PORT output" -- "$LIED" run $V --clients 1 --stop 1
expect_error 2 "lied run: --params is not used without a CSV output" -- \
  "$LIED" run $V --params --out "$tmp/r.mat" --stop 1
expect 0 "--tol with dopri45" -- "$LIED" run $V --solver dopri45 --tol 1e-6 --stop 1 --out none
expect 0 "--tol with beuler (its Newton tolerance)" -- "$LIED" run $V --solver beuler --tol 1e-8 --stop 1 --out none
expect 0 "--params with a CSV output" -- "$LIED" run $V --params --stop 1 --out "$tmp/r.csv"
check 'grep -q "^# " "$tmp/r.csv"' "--params writes the parameters into the CSV file"

# lied FILE.lua [PLOT] [options]: the run options reach the run
expect 0 "FILE.lua PLOT --solver" -- "$LIED" examples/thermostat.lua "$tmp/t.png" --solver esdirk23
check 'grep -q "^Thermostat: esdirk23, " "$tmp/out"' "the solver given is the solver used: $(cat "$tmp/out")"
if "$LIED" -e 'for _, s in ipairs(lied.core.solvers()) do if s.name == "cvode" then os.exit(0) end end os.exit(1)'; then
  expect 0 "FILE.lua PLOT --solver cvode" -- "$LIED" examples/thermostat.lua "$tmp/t.png" --solver cvode
  check 'grep -q "^Thermostat: cvode, " "$tmp/out"' "--solver cvode is used: $(cat "$tmp/out")"
fi
check '[ -s "$tmp/t.png" ]' "the plot is written"
expect 0 "FILE.lua --set --stop" -- "$LIED" examples/vessels.lua "$tmp/v.png" --set p1.L=4000 --stop 10 --interval 5
expect_error 2 "--tol is not used by rk4" -- "$LIED" examples/vessels.lua "$tmp/v.png" --tol 1e-3
expect_error 2 "unexpected argument 'b.png' (one plot file at most)" -- "$LIED" examples/vessels.lua "$tmp/a.png" b.png
expect_error 2 "unknown option --stats" -- "$LIED" examples/vessels.lua --stats
expect_error 2 "--set expects PATH=VALUE" -- "$LIED" examples/vessels.lua --set p1.L

# lied info, vars, params: --set only
expect_error 2 "unknown option --solver" -- "$LIED" info $V --solver rk4
expect_error 2 "unknown option --stop" -- "$LIED" vars $V --stop 1
expect_error 2 "unknown option --tol" -- "$LIED" params $V --tol 1
expect_error 2 "lied info: unexpected argument 'x'" -- "$LIED" info $V x

# lied steady and linearize: the run's options only with --at, each its own
expect_error 2 "lied steady: --solver is not used without --at" -- "$LIED" steady $V --solver rk4
expect_error 2 "lied linearize: --dt is not used without --at" -- "$LIED" linearize $V --dt 0.1
expect_error 2 "unknown option --eig" -- "$LIED" steady $V --eig
expect_error 2 "unknown option --fixed" -- "$LIED" linearize $V --fixed t1.level
expect 0 "steady --at --solver" -- "$LIED" steady $V --at 10 --solver rk4 --dt 0.01

# help and version take nothing more
expect_error 2 "lied help takes one command at most, got 'x'" -- "$LIED" help run x
expect_error 2 "lied --version takes no argument, got 'x'" -- "$LIED" --version x
expect_error 2 "lied --help takes no argument, got 'x'" -- "$LIED" --help x
finish
