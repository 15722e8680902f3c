#!/bin/bash
# The command-line contract (design.md section 6): commands, options, CSV,
# exit codes 0 (success), 1 (model/simulation error), 2 (usage).
LIED=${1:-./build/lied}
M=tests/models/osc.lua
pass=0; fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }
# expect CODE DESCRIPTION -- command...
expect() {
  local code=$1 what=$2; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq "$code" ]; then ok; else bad "$what: exit $rc, expected $code; stderr: $(cat "$tmp/err")"; fi
}
contains() { # FILE TEXT DESCRIPTION
  if grep -qF -- "$2" "$1"; then ok; else bad "$3: '$2' not in $(head -c 400 "$1")"; fi
}

expect 0 "help" -- "$LIED" --help
contains "$tmp/out" "lied run FILE.lua [options]" "help text"
contains "$tmp/out" "--set PATH=VALUE" "help lists --set"
expect 0 "version" -- "$LIED" --version
contains "$tmp/out" "lied 0." "version text"

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
contains "$tmp/out" "extra[2].y.y" "vars lists array elements"
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

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
