#!/bin/bash
# The third robustness round (docs/robustness.md): classes of bad input an
# attack on mechanics, thermofluid, heat transfer, the outputs, the command
# line, the REPL and the embedding API found. Each: the message and the exit
# status (expect_error also refuses a traceback or a sanitizer report).
. "$(dirname "$0")/lib.sh" "$@"
OSC=tests/models/osc.lua

# ---- 1. error values that are not strings ------------------------------------------
# a model file raising a table, nil, or a value whose __tostring raises or returns no
# string: its text, as the stock lua interpreter names it (a __tostring that raised gave
# a traceback through lied's cli.lua; the embedding API aborted: tests/embed)
printf 'error(setmetatable({}, {__tostring = function() error("x") end}))\n' >"$tmp/ts.lua"
printf 'error(setmetatable({}, {__tostring = function() return {} end}))\n' >"$tmp/ts2.lua"
printf 'error({})\n' >"$tmp/tbl.lua"
printf 'error(setmetatable({}, {__tostring = function() return "my message" end}))\n' >"$tmp/ok.lua"
for cmd in run info vars steady; do
  expect_error 1 "lied: (error object is a table value whose __tostring fails)" -- "$LIED" $cmd "$tmp/ts.lua"
  expect_error 1 "lied: (error object is a table value whose __tostring fails)" -- "$LIED" $cmd "$tmp/ts2.lua"
  expect_error 1 "lied: (error object is a table value)" -- "$LIED" $cmd "$tmp/tbl.lua"
  expect_error 1 "lied: my message" -- "$LIED" $cmd "$tmp/ok.lua"
done
expect_error 1 "lied: (error object is a table value whose __tostring fails)" -- "$LIED" "$tmp/ts.lua"
expect_error 1 "lied: (error object is a nil value)" -- "$LIED" -e "error(nil)"
lacks "$tmp/err" "lied: nil" "nil is named as a value"
# the REPL: both messages, and the session goes on
printf 'dofile "%s"\nprint(setmetatable({}, {__tostring = function() return {} end}))\nprint("alive")\n' \
  "$tmp/ts.lua" >"$tmp/in.lua"
expect 1 "REPL" -- "$LIED" <"$tmp/in.lua"
contains "$tmp/err" "(error object is a table value whose __tostring fails)" "REPL error value"
contains "$tmp/err" "'__tostring' must return a string" "REPL print"
contains "$tmp/out" "alive" "REPL alive"
# a per-copy function raising such a value
cat >"$tmp/pc.lua" <<LUA
local lied = require "lied"
local tl = require "lied.testlib"
return lied.model "P" { m = lied.array(tl.Mass {}, 2, { m = function(i)
  error(setmetatable({}, { __tostring = function() error("y") end })) end }) }
LUA
expect_error 1 "m.m (copy [1]): (error object is a table value whose __tostring fails)" -- \
  "$LIED" run "$tmp/pc.lua"

# ---- 2. run options: numbers that are not finite, standard output twice --------------------
# start, stop and progress_delay were kept NaN or infinite where they were given (the REPL's
# set, a model's experiment, lied.simulate) and refused at the run, or not at all
expect_error 2 "run: option stop must be a finite number, got inf" -- "$LIED" run $OSC --stop 1e999
expect_error 2 "run: option start must be a finite number, got -inf" -- "$LIED" run $OSC --start -1e999
sed 's/experiment = { stop = 1,/experiment = { stop = 0\/0,/' $OSC >"$tmp/exp.lua"
expect_error 1 "exp.lua:4: model Osc: experiment: run: option stop must be a finite number, got " -- \
  "$LIED" run "$tmp/exp.lua"
printf 'load "%s"\nset("stop", 0/0)\nset("progress_delay", 1/0)\nset("stop", 2)\nrun()\n' $OSC >"$tmp/in.lua"
expect 1 "REPL set of a NaN stop" -- "$LIED" <"$tmp/in.lua"
contains "$tmp/err" "run: option stop must be a finite number, got " "set stop NaN refused"
contains "$tmp/err" "run: option progress_delay must be a finite number, got inf" "set progress_delay refused"
contains "$tmp/out" "run 1: Osc to t = 2," "the refused values were not kept"
printf 'local lied = require "lied"\nlied.simulate(dofile("%s"), { start = 0/0 })\n' $OSC >"$tmp/sim.lua"
expect_error 2 "run: option start must be a finite number, got " -- "$LIED" "$tmp/sim.lua"
# two CSV streams interleaved on standard output (a file named twice is refused by its lock)
expect_error 2 "output '-' is given twice (outputs 1 and 2): standard output takes one CSV stream" -- \
  "$LIED" run $OSC --out - --out -
check '[ ! -s "$tmp/out" ]' "nothing on standard output"
printf 'load "%s"\nrun{out = {"-", "none", "-"}}\n' $OSC >"$tmp/in.lua"
expect 1 "REPL run with '-' twice" -- "$LIED" <"$tmp/in.lua"
contains "$tmp/err" "output '-' is given twice (outputs 1 and 3)" "REPL: '-' twice"

# ---- 3. a model file run as a script: its plot file checked before simulating ----------------
# a wrong extension was found after the run (exit 1, named by lied's init.lua and a line), and
# --out none kept no rows to plot ('plot: nothing was recorded')
expect_error 2 "lied: plot file must end in .png, .svg or .pdf: $tmp/p.txt" -- "$LIED" $OSC "$tmp/p.txt"
check '[ ! -s "$tmp/out" ]' "not simulated: $(head -c 100 "$tmp/out")"
expect_error 2 "plot file must end in .png, .svg or .pdf: $tmp" -- "$LIED" $OSC "$tmp"
if command -v gnuplot >/dev/null; then
  expect 0 "a plot with --out none" -- "$LIED" $OSC "$tmp/p.png" --out none
  check '[ -s "$tmp/p.png" ]' "the plot written with --out none"
  lacks "$tmp/out" "time,j.s" "no CSV with --out none"
fi

# ---- 4. an option that takes one value, given twice ---------------------------------------------
# the last was taken silently: --vars j.s --vars j.v recorded j.v alone (as --set twice, refused)
expect_error 2 "--vars is given twice ('j.s', then 'j.v'): give it once (a comma list names several)" -- \
  "$LIED" run $OSC --vars j.s --vars j.v
expect_error 2 "--stop is given twice (2, then 3): give it once" -- "$LIED" run $OSC --stop 2 --stop=3
expect_error 2 "--solver is given twice ('rk4', then 'euler')" -- "$LIED" run $OSC --solver rk4 --solver euler
expect_error 2 "--stop is given twice (2, then 2)" -- "$LIED" $OSC --stop 2 --stop 2
expect_error 2 "--tol is given twice (0.001, then 0.0001)" -- "$LIED" steady $OSC --tol 1e-3 --tol 1e-4
expect_error 2 "--at is given twice (0, then 1)" -- "$LIED" linearize $OSC --at 0 --at 1
# the repeatable ones stay repeatable
expect 0 "--out, --set (of two parameters) and flags repeated" -- \
  "$LIED" run $OSC --out none --out "$tmp/r.csv" --set k=2 --set n=3 --no-fuse --no-fuse
contains "$tmp/r.csv" "time,j.s,j.v" "the CSV of a repeated --out"
expect 0 "--fixed repeated" -- "$LIED" steady examples/vessels.lua --fixed t1.level --fixed t2.level

finish
