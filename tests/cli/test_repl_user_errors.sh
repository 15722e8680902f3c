#!/bin/bash
# The REPL prints a message, never a traceback, for what a user does wrong
# (issue 47, item 8; docs/repl.md reserves tracebacks for lied's own bugs):
# every command called with arguments of the wrong type or value (a number,
# a string, a table, a boolean, a function, results, negative and huge
# indices: save(path, "abc") gave 'repl.lua:438: attempt to call a nil
# value'), and Ctrl-C landing in lied's own Lua code (flattening a model,
# which load, set and lied.build run: 'lied/init.lua:930: interrupted!' with
# a traceback).
. "$(dirname "$0")/lib.sh" "$@"
LIED=$(cd "$(dirname "$LIED")" && pwd)/$(basename "$LIED") # the session runs in $tmp (files it saves)

# ---- every command, bad arguments ----------------------------------------------
cmds=(load run plot replot vars set info save help steady linearize params sweep compare value)
args=('1.5' '"abc"' '{}' 'true' 'print' '-1' '0' '2^70' '{x = 1}' '{1, 2}' '"x.csv", "abc"' \
  '"x.csv", 1.5' '"x.csv", {}' '"t1.level", "abc"' '"stop", {}' '"p1.L", "abc"' '1, 2' 'results' \
  '"examples/vessels.lua", 5' '{at = "x"}' '{set = 1}' '{set = "x"}' '{["p1.L"] = "abc"}' \
  '{stop = "x"}' '{solver = ""}' '"x.png", 5')
{
  echo 'load "examples/vessels.lua"'
  echo 'run{stop = 1}'
  for c in "${cmds[@]}"; do
    for a in "${args[@]}"; do echo "$c($a)"; done
  done
  echo 'print("alive")'
} >"$tmp/bad.lua"
(cd "$tmp" && ln -s "$OLDPWD/examples" examples)
(cd "$tmp" && HOME=$tmp timeout 600 "$LIED" <bad.lua >out.txt 2>err.txt)
lines=$(( ${#cmds[@]} * ${#args[@]} ))
lacks "$tmp/err.txt" "stack traceback" "bad arguments: a traceback"
check '! grep -Eq "lied/[a-z_]+\.lua:[0-9]+:|lied\.textonly:" "$tmp/err.txt"' \
  "bad arguments: a position in lied's own code: $(grep -E "lied/[a-z_]+\.lua:[0-9]+:" "$tmp/err.txt" | head -5)"
contains "$tmp/out.txt" "alive" "the session goes on after $lines bad calls"
check 'grep -Eq "^expected a result or an index into results\[\] \(1 to [0-9]+\), got the string \"abc\"$" "$tmp/err.txt"' \
  "save(path, \"abc\"): not a result"
contains "$tmp/err.txt" "replot: opts must be a table such as {stop = 10}, got the number 1.5" "replot(1.5)"
contains "$tmp/err.txt" "load(file): expected a model file name (or a Lua chunk: a string or a function), got table" "load({})"
contains "$tmp/err.txt" 'vars(pattern): pattern must be a string such as "t1.*", got a table' "vars({})"
contains "$tmp/err.txt" "steady: set must be a table" "steady{set = 1}"
check 'grep -Eq "^no results\[0\] \([0-9]+ runs so far\)$" "$tmp/err.txt"' "an index out of range"

# ---- Ctrl-C in lied's own Lua code ------------------------------------------------
mkfifo "$tmp/in"
HOME=$tmp "$LIED" <"$tmp/in" >"$tmp/c.out" 2>"$tmp/c.err" &
pid=$!; pids+=("$pid")
exec 5>"$tmp/in"
echo 'S = require "lied.signals"; d = {}; for i = 1, 20000 do d["c" .. i] = S.Constant {} end; M = lied.model "Big" (d); print("made")' >&5
wait_for 'grep -q "^made" "$tmp/c.out"' || bad "the model was not declared"
# about 0.1 s per flattening, nearly all of it in lied/init.lua: the loop
# says when the first is done (stdout is a file: flushed), then the Ctrl-C
# comes, in one of the 999 flattenings left
echo 'for k = 1, 1000 do lied.flatten(M); if k == 1 then print("flattening"); io.stdout:flush() end end' >&5
wait_on "$pid" 'grep -q "^flattening" "$tmp/c.out"' || bad "the flattening loop did not start"
kill -INT "$pid"
echo 'print("alive")' >&5
exec 5>&-
wait_for "! kill -0 $pid 2>/dev/null" || bad "the REPL did not end at the end of its input"
contains "$tmp/c.err" "interrupted!" "Ctrl-C in lied.flatten"
lacks "$tmp/c.err" "stack traceback" "Ctrl-C in lied's code: a traceback"
check '! grep -Eq "lied/[a-z_]+\.lua:[0-9]+: interrupted" "$tmp/c.err"' "Ctrl-C: a position in lied's code: $(cat "$tmp/c.err")"
contains "$tmp/c.out" "alive" "the session goes on after Ctrl-C"
finish
