#!/bin/bash
# The executable follows lua.c's conventions: -e STAT, -l NAME, -i (REPL
# after the script), - (script from stdin), -v; per-command help; require
# searches the script's own directory first, then LIED_PATH; a moved build
# tree still finds its Lua files (they are found relative to the executable).
. "$(dirname "$0")/lib.sh" "$@"

expect 0 "-e" -- "$LIED" -e 'io.write(lied.version, "\n")'
check 'grep -q "^[0-9]" "$tmp/out"' "-e prints the version"
expect 0 "two -e" -- "$LIED" -e 'x = 20' -e 'print(x + 1)'
check 'grep -qx 21 "$tmp/out"' "-e statements share globals"
expect_error 1 "boom" -- "$LIED" -e 'error("boom")'
expect_error 2 "-e needs an argument" -- "$LIED" -e
expect 0 "-l" -- "$LIED" -l lied.signals -e 'assert(lied_signals.Sine)'
expect 0 "-v" -- "$LIED" -v
check 'grep -q "^lied " "$tmp/out"' "-v prints lied's version"
echo 'print("from stdin", ...)' >"$tmp/s.lua"
run_lied "$LIED" - a b <"$tmp/s.lua"
check '[ "$rc" -eq 0 ] && grep -q "from stdin	a	b" "$tmp/out"' "- reads the script from stdin"
printf 'print("x is", x)\n' >"$tmp/in"
run_lied "$LIED" -e 'x = 7' -i <"$tmp/in"
check '[ "$rc" -eq 0 ] && grep -q "x is	7" "$tmp/out"' "-i enters the REPL after -e"
echo 'y = 5' >"$tmp/script.lua"
printf 'print("y is", y)\n' >"$tmp/in"
run_lied "$LIED" -i "$tmp/script.lua" <"$tmp/in"
check '[ "$rc" -eq 0 ] && grep -q "y is	5" "$tmp/out"' "-i FILE: the REPL after the script"

# help per command
for c in run info vars params steady linearize; do
  expect 0 "help $c" -- "$LIED" help "$c"
  check 'grep -q "usage: lied '"$c"'" "$tmp/out"' "lied help $c"
  expect 0 "$c --help" -- "$LIED" "$c" --help
  check 'grep -q "usage: lied '"$c"'" "$tmp/out"' "lied $c --help"
done
expect 0 "run --help lists options" -- "$LIED" run --help
check 'grep -q -- "--solver" "$tmp/out"' "run --help lists --solver"
for o in --set --params --stats --check; do # each once
  check '[ "$(grep -c -- "^  $o " "$tmp/out")" -eq 1 ]' "run --help lists $o once: $(grep -- "^  $o " "$tmp/out")"
done
expect 0 "steady --help" -- "$LIED" steady --help
for o in --set --at --fixed --tol --maxit; do contains "$tmp/out" "  $o " "steady --help lists $o"; done
expect 0 "linearize --help" -- "$LIED" linearize --help
for o in --inputs --outputs --eig; do contains "$tmp/out" "  $o " "linearize --help lists $o"; done
expect 0 "help help" -- "$LIED" help help
contains "$tmp/out" "Commands: run, info, vars, params, steady, linearize" "help lists every command"
expect_error 2 "no command 'rn' (did you mean 'run'?)" -- "$LIED" help rn

# require: the script's directory first, then LIED_PATH
mkdir -p "$tmp/proj" "$tmp/extra"
echo 'return "mine"' >"$tmp/proj/helper.lua"
echo 'return "extra"' >"$tmp/extra/other.lua"
echo 'print(require "helper", require "other")' >"$tmp/proj/main.lua"
run_lied env LIED_PATH="$tmp/extra" "$LIED" "$tmp/proj/main.lua"
check '[ "$rc" -eq 0 ] && grep -q "mine	extra" "$tmp/out"' "script directory and LIED_PATH: $(cat "$tmp/err")"
echo 'return "from LUA_PATH"' >"$tmp/extra/viaenv.lua"
run_lied env LUA_PATH="$tmp/extra/?.lua;;" "$LIED" -e 'print(require "viaenv")'
check 'grep -q "from LUA_PATH" "$tmp/out"' "LUA_PATH extends the search"

# a copy of the build tree's program and Lua files elsewhere still runs
build=$(dirname "$(readlink -f "$LIED")")
if [ -d "$build/share/lua/5.4/lied" ]; then
  mkdir -p "$tmp/moved"
  cp -r "$build/share" "$tmp/moved/" && cp -P "$build"/liblied*.so* "$tmp/moved/" && cp "$LIED" "$tmp/moved/"
  run_lied env -u LIED_LUA_DIR LD_LIBRARY_PATH="$tmp/moved" "$tmp/moved/lied" run examples/cranecrab.lua --stop 0.01
  check '[ "$rc" -eq 0 ] && grep -q "^0.01," "$tmp/out"' "a moved build: $(head -c 300 "$tmp/err")"
fi
finish
