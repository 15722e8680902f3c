#!/bin/bash
# The REPL on a terminal (a pseudo-terminal made by script(1)): readline line
# editing, tab completion of fields and of variable names, Ctrl-C clears the
# line, the history persists in $HOME/.lied_history, the progress bar shows
# on a terminal. Every wait is bounded.
. "$(dirname "$0")/lib.sh" "$@"
LIED=$(cd "$(dirname "$LIED")" && pwd)/$(basename "$LIED")
if ! command -v script >/dev/null; then
  echo "script(1) is missing (Debian: bsdutils)" >&2
  exit 1
fi
if ! grep -q LIED_HAVE_READLINE "$(dirname "$LIED")/CMakeCache.txt" 2>/dev/null &&
   ! grep -q "READLINE_LIB:FILEPATH=/" "$(dirname "$LIED")/CMakeCache.txt" 2>/dev/null; then
  echo "lied was built without readline (install libreadline-dev: bash tests/deps.sh)" >&2
  exit 1
fi

# (end_session ends a session; lib.sh's finish, at the end, gives the status)
# start SESSION: lied in a pty, input from a fifo, screen in $tmp/SESSION.out
start() {
  rm -f "$tmp/$1.in"; mkfifo "$tmp/$1.in"
  HOME=$tmp TERM=dumb timeout 120 script -qfec "$LIED" /dev/null <"$tmp/$1.in" >"$tmp/$1.out" 2>&1 &
  pids+=("$!"); spid=$!
  exec 5>"$tmp/$1.in"
}
# shows TEXT: wait until the screen shows TEXT (fixed string)
shows() { local pat=$1; wait_for "tr -d '\r' <\"$tmp/$sess.out\" | grep -qF -- \"\$pat\""; }
send() { printf "$@" >&5; }
end_session() {
  send '\004'
  exec 5>&-
  wait_for "! kill -0 $spid 2>/dev/null" || { bad "session did not end"; kill -9 "$spid"; }
  wait "$spid"
}

sess=one
start one
check 'shows "help() lists the commands"' "banner: $(cat "$tmp/one.out")"
send 'x = 41\n'
send 'lied.simu\t\n'                      # completes to lied.simulate
check 'shows "function: "' "completion of a field: $(cat -A "$tmp/one.out" | tail -5)"
# file names inside load(" (readline passes the line with the opening quote)
send 'load("examples/vess\t'
check 'shows "load(\"examples/vessels.lua\""' "file-name completion: $(cat -A "$tmp/one.out" | tail -3)"
send ')\n'
check 'shows "examples/vessels.lua: model Vessels"' "completed file loads: $(cat -A "$tmp/one.out" | tail -5)"
send 'load "tests/models/osc.lua"\n'
check 'shows "model Osc"' "load: $(tail -5 "$tmp/one.out")"
send 'print("j.flange_a.\tf\t)\n'        # j.flange_a.f -> j.flange_a.f" (quote closed)
check 'wait_for "tr -d \"\r\" <\"$tmp/one.out\" | grep -qx j.flange_a.f"' \
  "completion of variable names: $(cat -A "$tmp/one.out" | tail -5)"
send 'print("should not" .. " run")'
check 'shows "print(\"should not\" .. \" run\")"' "line echoed"
prompts() { tr -d '\r' <"$tmp/$sess.out" | grep -c '^> '; }
before=$(prompts)
send '\003'                                # Ctrl-C: clear the line, new prompt
check 'wait_for "[ \$(prompts) -gt $before ]"' "a new prompt after Ctrl-C: $(cat -A "$tmp/one.out" | tail -3)"
send 'print("after " .. x + 1)\n'
check 'shows "after 42"' "after Ctrl-C: $(cat -A "$tmp/one.out" | tail -5)"
check '! tr -d "\r" <"$tmp/one.out" | grep -qx "should not run"' "Ctrl-C discarded the line"
send 'r = run{stop = 5, dt = 1e-4, progress_delay = 0}\n'
check 'shows "run 1: Osc to t = 5"' "run in the pty: $(tail -5 "$tmp/one.out")"
check 'grep -q "x real time" "$tmp/one.out"' "progress bar on a terminal"
send 'print("from" .. " history")\n'
check 'shows "from history"' "last command"
end_session
check '[ -f "$tmp/.lied_history" ]' "history file written in \$HOME"
check 'grep -qx "x = 41" "$tmp/.lied_history"' "history holds the lines: $(cat "$tmp/.lied_history")"
check 'grep -qx "load \"tests/models/osc.lua\"" "$tmp/.lied_history"' "history holds load"
check '! grep -q "should not" "$tmp/.lied_history"' "an interrupted line is not in the history"

# a second session recalls the previous one's last line (Ctrl-P, Enter)
sess=two
start two
check 'shows "help() lists the commands"' "second banner"
send '\020\n'
count_lines() { tr -d '\r' <"$tmp/$sess.out" | grep -cx -- "$1"; }
check 'wait_for "[ \$(count_lines \"from history\") -eq 1 ]"' \
  "history recalled across sessions: $(cat -A "$tmp/two.out" | tail -4)"
end_session

# a missing HOME directory is tolerated
HOME=/nonexistent/home TERM=dumb timeout 60 script -qfec "$LIED" /dev/null \
  < <(printf 'print(6 * 9)\n\004') >"$tmp/four.out" 2>&1
check 'tr -d "\r" <"$tmp/four.out" | grep -qx "54"' "missing HOME directory tolerated: $(cat "$tmp/four.out")"

finish
