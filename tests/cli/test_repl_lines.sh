#!/bin/bash
# Piped REPL input (issue 47, item 11): a line holding a NUL byte is refused
# whole with its line number and the next line runs as its own (it was cut
# at the NUL, swallowed the next line as a continuation and named line 1);
# every message names the line of the input, also for a multi-line chunk
# and inside a function defined on an earlier line.
. "$(dirname "$0")/lib.sh" "$@"

session() { printf "$1" >"$tmp/in"; HOME=$tmp "$LIED" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

# NUL in the middle of a line, at its start, alone, in a continuation line
session 'x = 1\nprint("a\0b")\nprint("next")\n'
contains "$tmp/err" 'stdin:2: the line holds a NUL byte (lied reads lines of text): not run' "NUL mid-line"
check 'grep -qx "next" "$tmp/out"' "the line after a NUL line runs: $(cat "$tmp/out")"
lacks "$tmp/err" "unfinished string" "NUL mid-line: no cut string"
check '[ "$rc" -eq 1 ]' "a refused line makes a piped session fail: $rc"
session '\0print("x")\nprint("y")\n'
contains "$tmp/err" 'stdin:1: the line holds a NUL byte' "NUL at the start"
lacks "$tmp/out" "x" "the refused line did not run"
check 'grep -qx "y" "$tmp/out"' "the next line runs"
session 'print(1)\n\0\nprint(2)\n'
contains "$tmp/err" 'stdin:2: the line holds a NUL byte' "a line of only a NUL"
check '[ "$(tr -d "\n" <"$tmp/out")" = "12" ]' "lines 1 and 3 run: $(cat "$tmp/out")"
session 'print(1,\n2\0)\nprint("after")\n'
contains "$tmp/err" 'stdin:2: the line holds a NUL byte' "NUL in a continuation line"
check 'grep -qx "after" "$tmp/out"' "the chunk is abandoned, the next line runs"
lacks "$tmp/out" "1	2" "the abandoned chunk did not run"

# line numbers of the input in messages
session 'a = 1\nb = 2\nfunction f()\n  return nil + 1\nend\nprint("x")\nf()\n'
contains "$tmp/err" "stdin:4: attempt to perform arithmetic on a nil value" "inside a function of an earlier line"
session 'print(1)\nprint(2)\nerror("seven")\n'
contains "$tmp/err" "stdin:3: seven" "a runtime error names its line"
session 'print(1)\nfor i = 1, 2 do\n  print(i +)\nend\n'
contains "$tmp/err" "stdin:3: unexpected symbol near ')'" "a syntax error in a multi-line chunk"
session 'print(1)\nfor i = 1, 3 do\n'
contains "$tmp/err" "stdin:2: 'end' expected near <eof>" "an unfinished chunk at the end"
finish
