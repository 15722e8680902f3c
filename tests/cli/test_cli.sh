#!/bin/bash
# The command-line contract (design.md section 6): commands, options, CSV,
# exit codes 0 (success), 1 (model/simulation error), 2 (usage).
. "$(dirname "$0")/lib.sh" "$@"
M=tests/models/osc.lua

expect 0 "help" -- "$LIED" --help
contains "$tmp/out" "lied run FILE.lua [options]" "help text"
contains "$tmp/out" "--set PATH=VALUE" "help lists --set"
expect 0 "version" -- "$LIED" --version
contains "$tmp/out" "lied 0." "version text"
grep -Eqx "lied [0-9.]+ \(Lua 5\.4(, assertions on)?\)" "$tmp/out" && ok || bad "version line: $(cat "$tmp/out")"

# run: CSV on stdout with the exact header and full precision
expect 0 "run" -- "$LIED" run $M
[ "$(head -1 "$tmp/out")" = "time,j.s,j.v" ] && ok || bad "CSV header: $(head -1 "$tmp/out")"
[ "$(wc -l <"$tmp/out")" -eq 6 ] && ok || bad "rows at interval 0.25: $(wc -l <"$tmp/out")"
last=$(tail -1 "$tmp/out")
echo "$last" | awk -F, '{ exit !($1 == 1 && ($2 - cos(2))^2 < 1e-16 && ($3 + 2 * sin(2))^2 < 1e-16) }' \
  && ok || bad "last row $last"

# options
expect 0 "run options" -- "$LIED" run $M --stop 2 --dt 0.001 --interval 0.5 --solver heun --set k=9 --vars 'j.?'
[ "$(head -1 "$tmp/out")" = "time,j.s,j.v,j.a" ] && ok || bad "glob header: $(head -1 "$tmp/out")"
[ "$(tail -1 "$tmp/out" | cut -d, -f1)" = "2" ] && ok || bad "--stop"
tail -1 "$tmp/out" | awk -F, '{ exit !(($2 - cos(6))^2 < 1e-10) }' \
  && ok || bad "--set k=9 changes the frequency"

expect 0 "run --start" -- "$LIED" run $M --start 1 --stop 1.5 --interval 0.5
[ "$(sed -n 2p "$tmp/out" | cut -d, -f1)" = "1" ] && ok || bad "--start"
expect 0 "run --out file" -- "$LIED" run $M --out "$tmp/r.csv" --stats
[ -s "$tmp/r.csv" ] && [ ! -s "$tmp/out" ] && ok || bad "--out writes the file, not stdout"
contains "$tmp/err" "factorisations 1" "--stats"
expect 0 "run --out none" -- "$LIED" run $M --out none
[ ! -s "$tmp/out" ] && ok || bad "--out none prints nothing"
expect 0 "--out=- form" -- "$LIED" run $M --out=- --vars=b.flange_a.f
[ "$(head -1 "$tmp/out")" = "time,b.flange_a.f" ] && ok || bad "--vars= form"

# info and vars
expect 0 "info" -- "$LIED" info $M
contains "$tmp/out" "components     5 (4 declared)" "info components"
contains "$tmp/out" "tearing pairs  1" "info tearing pairs"
contains "$tmp/out" "size 1   1" "info sections by size"
contains "$tmp/out" "extra[1..2]" "info tree shows arrays"
expect 0 "info --set" -- "$LIED" info $M --set n=7
contains "$tmp/out" "components     10" "info --set n"
expect 0 "vars" -- "$LIED" vars $M
contains "$tmp/out" "j.s" "vars lists states"
contains "$tmp/out" "extra[2].y" "vars lists array elements"
expect 0 "vars pattern" -- "$LIED" vars $M 'extra*'
[ "$(wc -l <"$tmp/out")" -eq 2 ] && ok || bad "vars pattern count"
expect 1 "vars no match" -- "$LIED" vars $M 'nothing*'

# script mode with a plot file (gnuplot)
if command -v gnuplot >/dev/null; then
  expect 0 "script + plot" -- "$LIED" $M "$tmp/p.png"
  [ -s "$tmp/p.png" ] && ok || bad "plot file written"
fi

# usage errors: exit 2
expect 2 "no such option" -- "$LIED" run $M --bogus 1
contains "$tmp/err" "unknown option --bogus" "unknown option message"
expect 2 "missing file arg" -- "$LIED" run
expect 2 "missing file" -- "$LIED" run /nonexistent.lua
expect 2 "bad number" -- "$LIED" run $M --stop abc
contains "$tmp/err" "--stop expects a number" "bad number message"
expect 2 "bad set" -- "$LIED" run $M --set k
expect 2 "bad solver" -- "$LIED" run $M --solver rk9
contains "$tmp/err" "available: euler, heun, rk3, rk4" "solver list"
expect 2 "bad dt" -- "$LIED" run $M --dt -1
expect 2 "bad out" -- "$LIED" run $M --out x.txt
expect 2 "unknown top option" -- "$LIED" --frobnicate

# model errors: exit 1 with file:line
expect 1 "syntax error" -- "$LIED" run tests/models/syntax_error.lua
contains "$tmp/err" "syntax_error.lua:1:" "syntax error names file:line"
expect 1 "runtime error" -- "$LIED" run tests/models/runtime_error.lua
contains "$tmp/err" "runtime_error.lua:2: deliberate failure" "runtime error names file:line"
expect 1 "not a model" -- "$LIED" run tests/models/not_a_model.lua
contains "$tmp/err" "must return a model" "not a model message"
expect 1 "unknown --set" -- "$LIED" run $M --set nope=1
contains "$tmp/err" "--set nope: no such parameter" "unknown --set message"
expect 1 "bad --set value" -- "$LIED" run $M --set n=-1
expect 2 "stop before start" -- "$LIED" run $M --start 2 --stop 1
expect 1 "unknown variable" -- "$LIED" run $M --vars j.q
contains "$tmp/err" "no variable 'q'" "unknown variable message"
expect 1 "script error" -- "$LIED" tests/models/runtime_error.lua

# error kinds: usage errors (bad options and values) exit 2, model and
# simulation errors 1; neither shows a traceback or a position in lied's
# own Lua sources
expect_error 2 "output '.csv': use a .csv or .mat file, tcp:PORT" -- "$LIED" run $M --out .csv
expect_error 2 "run: option stop must be a finite number, got inf" -- "$LIED" run $M --stop 1e999
expect_error 2 "stop time -1 must be after start time 0" -- "$LIED" run $M --stop -1
expect_error 2 "unknown solver 'rk9' (available: euler, heun, rk3, rk4" -- "$LIED" run $M --solver rk9
expect_error 2 "unknown option --stpo (did you mean '--stop'?)" -- "$LIED" run $M --stpo 2
cat >"$tmp/simulate.lua" <<'LUA'
local M = dofile("tests/models/osc.lua")
lied.simulate(M, { [arg[1]] = arg[2] == "number" and tonumber(arg[3]) or arg[3] }):run()
LUA
expect_error 2 "run: unknown option 'stpo' (did you mean 'stop'?); options: start, stop" -- \
  "$LIED" "$tmp/simulate.lua" stpo number 2
expect_error 2 "unknown solver 'rk9' (available:" -- "$LIED" "$tmp/simulate.lua" solver string rk9
expect_error 2 "run: option fuse must be a boolean, got string" -- "$LIED" "$tmp/simulate.lua" fuse string no
expect_error 1 "state j.s became" -- "$LIED" run $M --solver euler --dt 1 --interval 1 --stop 1e6 --out none
expect_error 1 "bad_value.lua:5: b: parameter m = -2 [kg] must be > 0" -- "$LIED" run tests/models/errors/bad_value.lua
cat >"$tmp/model_error.lua" <<'LUA'
local M = dofile("tests/models/osc.lua")
lied.simulate(M, { set = { k = -1 } }):run()
LUA
expect_error 1 "j: parameter k = -1 [N/m] must be >= 0" -- "$LIED" "$tmp/model_error.lua"
# --help lists the run options of lied.core.run_options that have a command-line form
expect 0 "help" -- "$LIED" --help
for o in start stop solver dt tol rtol atol hmax interval vars out clients no-fuse no-lanes set stats; do
  contains "$tmp/out" "  --$o" "help lists --$o"
done

finish
