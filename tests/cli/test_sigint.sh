#!/bin/bash
# Ctrl-C (SIGINT) in the middle of a long run: the CSV and MAT outputs hold
# every row up to the interruption and are valid; in the REPL the result so
# far is kept, a Lua loop is interrupted, and the session goes on.
# The runs would take days, and the walks repeat until interrupted: only
# SIGINT ends them. Every signal is sent once the program has said (a line
# on its output) that it is where the signal should find it, never after a
# time, so no machine is too fast or too slow for the test.
. "$(dirname "$0")/lib.sh" "$@"
TEST_MAT=$(dirname "$LIED")/tests/test_mat
# wait_exit PID: until it ends (kill -9 past wait_for's bound); the exit status in $status
# interrupt PID CONDITION: SIGINT until CONDITION holds (a message on stderr):
# a signal that lands between two walks of a loop, not in one, is sent again
interrupt() {
  local i
  for i in $(seq 300); do
    kill -INT "$1"
    for _ in $(seq 20); do eval "$2" && return 0; kill -0 "$1" 2>/dev/null || return 1; sleep 0.1; done
  done
  return 1
}
wait_exit() {
  if ! wait_for "! kill -0 $1 2>/dev/null"; then bad "process $1 did not stop"; kill -9 "$1"; fi
  wait "$1"; status=$?
}
LONG="--stop 1e9 --dt 1e-3 --interval 0.01"

# ---- command line ----------------------------------------------------------
"$LIED" run tests/models/osc.lua $LONG --vars '*' --out "$tmp/r.csv" --out "$tmp/r.mat" \
  2>"$tmp/err" &
pid=$!; pids+=("$pid")
wait_on "$pid" '[ -s "$tmp/r.csv" ] && [ "$(wc -l <"$tmp/r.csv")" -gt 200 ]' ||
  bad "the long run did not write rows"
kill -INT "$pid"
wait_exit "$pid"
check '[ "$status" -eq 1 ]' "interrupted run exits 1 (got $status)"
check 'grep -q "interrupted at t = " "$tmp/err"' "interruption message: $(cat "$tmp/err")"
rows=$(($(wc -l <"$tmp/r.csv") - 1))
check '[ "$rows" -gt 200 ]' "CSV keeps the rows ($rows)"
last=$(tail -1 "$tmp/r.csv")
check '[ "$(echo "$last" | tr -cd , | wc -c)" -eq "$(head -1 "$tmp/r.csv" | tr -cd , | wc -c)" ]' \
  "last CSV row is complete: $last"
"$TEST_MAT" "$tmp/r.mat" "$tmp/r.csv" >"$tmp/cmp" 2>&1
st=$?
check '[ $st -eq 0 ]' "MAT valid and equal to the CSV after Ctrl-C: $(cat "$tmp/cmp")"
check 'grep -q "$rows rows" "$tmp/cmp"' "MAT holds the $rows rows: $(cat "$tmp/cmp")"

# ---- the REPL: a run and a Lua loop --------------------------------------------
mkfifo "$tmp/in"
HOME=$tmp "$LIED" <"$tmp/in" >"$tmp/repl.out" 2>"$tmp/repl.err" &
pid=$!; pids+=("$pid")
exec 5>"$tmp/in"
cat >&5 <<EOF
load "tests/models/osc.lua"
r = run{stop = 1e9, dt = 1e-3, interval = 0.01, out = "$tmp/repl.csv"}
EOF
wait_on "$pid" '[ -s "$tmp/repl.csv" ] && [ "$(wc -l <"$tmp/repl.csv")" -gt 200 ]' ||
  bad "the REPL run did not write rows"
kill -INT "$pid"
echo 'print("rows", r:nrows(), results[1]:nrows())' >&5
# the loop says it runs (stdout is a file: flushed), then the Ctrl-C comes
echo 'io.write("looping\n") io.stdout:flush() while true do end' >&5
wait_on "$pid" 'grep -q "^looping" "$tmp/repl.out"' || bad "the loop did not start"
kill -INT "$pid"
echo 'print("alive after the loop")' >&5
exec 5>&-
wait_exit "$pid"
check '[ "$status" -eq 1 ]' "REPL exits 1 at end of input after the interrupted loop (got $status)"
csv_rows=$(($(wc -l <"$tmp/repl.csv") - 1))
check 'grep -q "(interrupted: rows so far kept)" "$tmp/repl.out"' "run summary says interrupted: $(cat "$tmp/repl.out")"
check 'grep -q "^rows	$csv_rows	$csv_rows$" "$tmp/repl.out"' "result keeps the $csv_rows rows of the CSV: $(grep rows "$tmp/repl.out")"
check 'grep -q "interrupted!" "$tmp/repl.err"' "Lua loop interrupted: $(cat "$tmp/repl.err")"
check 'grep -q "alive after the loop" "$tmp/repl.out"' "session goes on after Ctrl-C"

# ---- the REPL: listings over every instance --------------------------------------
# vars and params walk every name of 20,000 crabs (a million names), and so
# does a run choosing its variables by a pattern: Ctrl-C stops them with a
# message, consumed, and the session goes on. Each walk repeats until one is
# interrupted, so the signal finds a walk whatever the machine's speed.
mkfifo "$tmp/in2"
HOME=$tmp "$LIED" <"$tmp/in2" >"$tmp/list.out" 2>"$tmp/list.err" &
pid=$!; pids+=("$pid")
exec 5>"$tmp/in2"
echo 'm = lied.build(dofile("examples/scaling.lua"), { n = 20000 }); print("built")' >&5
wait_on "$pid" 'grep -q "^built" "$tmp/list.out"' || bad "the model of 20,000 crabs was not built"
# walk LABEL STATEMENT: the statement in a loop, announced on stdout
walk() { echo "io.write('walking $1\\n') io.stdout:flush() while true do $2 end" >&5; }
walk vars 'v = nil; v = m:vars("*.nomatch")'
wait_on "$pid" 'grep -q "^walking vars" "$tmp/list.out"' || bad "the vars walk did not start"
interrupt "$pid" 'grep -q "vars: interrupted" "$tmp/list.err"' || bad "vars not interrupted"
echo 'print("after vars", v)' >&5
walk params 'p = nil; p = m:params("*.nomatch")'
wait_on "$pid" 'grep -q "^walking params" "$tmp/list.out"' || bad "the params walk did not start"
interrupt "$pid" 'grep -q "params: interrupted" "$tmp/list.err"' || bad "params not interrupted"
echo 'print("after params", p)' >&5
walk run "r = nil; r = m:run{stop = 0.001, dt = 1e-3, vars = '*.nomatch', out = '$tmp/sel.csv', progress = false}"
wait_on "$pid" 'grep -q "^walking run" "$tmp/list.out"' || bad "the run's walk did not start"
interrupt "$pid" 'grep -q "run (choosing the variables to record): interrupted" "$tmp/list.err"' ||
  bad "the run's choice of variables not interrupted"
echo 'print("after run", r)' >&5
echo 'print("listed", #m:vars("crab[1].*"))' >&5
exec 5>&-
wait_exit "$pid"
check 'grep -q "vars: interrupted (.* names so far)" "$tmp/list.err"' "vars interrupted: $(cat "$tmp/list.err")"
check 'grep -q "params: interrupted" "$tmp/list.err"' "params interrupted: $(cat "$tmp/list.err")"
check 'grep -q "run (choosing the variables to record): interrupted (.* names so far)" "$tmp/list.err"' \
  "a run's choice of variables interrupted: $(cat "$tmp/list.err")"
check 'grep -q "^after run	nil$" "$tmp/list.out"' "no result of the interrupted run: $(cat "$tmp/list.out")"
check 'grep -q "^after vars	nil$" "$tmp/list.out" && grep -q "^after params	nil$" "$tmp/list.out"' \
  "no partial lists kept: $(cat "$tmp/list.out")"
check 'grep -Eq "^listed	[1-9][0-9]*$" "$tmp/list.out"' "the flag was consumed: the next listing runs whole: $(cat "$tmp/list.out")"

# ---- steady and linearize: the command line and the REPL ---------------------------
# steady of 1,000 crane crabs (their carts drift: no steady state) runs for
# days with a large maxit; linearize of 4,000 states spends seconds writing
# A. SIGINT or SIGTERM stops each with a message, exit 1 or 143. One sent
# while the model loads is kept for the command (the flag is only consumed
# by what it stops), so the signal needs no delay (steady then stops before
# its first evaluation: "after 0 pseudo-time steps and 0 evaluations").
# catching PID SIG: the process has its handler for SIG installed (a signal
# sent before main installs it would kill it with no message)
catching() {
  local num mask
  num=$(kill -l "$2")
  mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null) || return 1
  [ -n "$mask" ] && [ $(( (16#$mask >> (num - 1)) & 1 )) -eq 1 ]
}
# signal_until SIG PID CONDITION: SIG once the process catches it, then
# until CONDITION (one is enough: the flag waits for what it stops; a second
# one would kill)
signal_until() {
  wait_on "$2" "catching $2 $1" || return 1
  kill -"$1" "$2"
  wait_on "$2" "$3"
}
for sig in INT TERM; do
  want=$([ $sig = INT ] && echo 1 || echo 143)
  "$LIED" steady examples/scaling.lua --set n=1000 --maxit 1000000 >"$tmp/st.out" 2>"$tmp/st.err" &
  pid=$!; pids+=("$pid")
  signal_until $sig "$pid" 'grep -q "steady: interrupted" "$tmp/st.err"' || bad "steady, SIG$sig: not stopped"
  wait_exit "$pid"
  check '[ "$status" -eq "$want" ]' "steady stopped by SIG$sig exits $want (got $status)"
  check 'grep -q "steady: interrupted after [0-9]* pseudo-time steps and [0-9]* evaluations of the model" "$tmp/st.err"' \
    "steady, SIG$sig: $(cat "$tmp/st.err")"
  "$LIED" linearize examples/scaling.lua --set n=1000 >"$tmp/li.out" 2>"$tmp/li.err" &
  pid=$!; pids+=("$pid")
  signal_until $sig "$pid" 'grep -q "linearize.*: interrupted" "$tmp/li.err"' || bad "linearize, SIG$sig: not stopped"
  wait_exit "$pid"
  check '[ "$status" -eq "$want" ]' "linearize stopped by SIG$sig exits $want (got $status)"
  check 'grep -q "linearize.*: interrupted" "$tmp/li.err"' "linearize, SIG$sig: $(cat "$tmp/li.err")"
done
# ... and inside their long phases: the first Jacobian of steady (the sparse
# formulation's 41 colours) and linearize's colours (4,005 states) on the
# district network of 1,000 houses, signalled by the model itself at its
# 20th evaluation (a testlib Alarm beside the network: the point is known by
# the work done). Each stops at the next evaluation: no more than 20
# evaluations, no pseudo-time step, nothing on standard output (a whole
# steady state takes thousands of evaluations, A 4,005 x 4,005 entries).
for sig in INT TERM; do
  want=$([ $sig = INT ] && echo 1 || echo 143)
  num=$(kill -l $sig)
  for cmd in steady linearize; do
    "$LIED" $cmd tests/models/alarmed.lua --set after=20 --set sig="$num" >"$tmp/al.out" 2>"$tmp/al.err"
    status=$?
    check '[ "$status" -eq "$want" ]' "$cmd, SIG$sig at the 20th evaluation exits $want (got $status)"
    check '[ ! -s "$tmp/al.out" ]' "$cmd, SIG$sig: no result: $(head -c 300 "$tmp/al.out")"
    if [ $cmd = steady ]; then
      msg='steady: interrupted after 0 pseudo-time steps and \([0-9]*\) evaluations of the model (largest derivative der('
    else
      msg='linearize: interrupted after \([0-9]*\) evaluations of the model'
    fi
    evals=$(sed -n "s/^lied: $msg.*/\\1/p" "$tmp/al.err")
    check '[ -n "$evals" ] && [ "$evals" -ge 2 ] && [ "$evals" -le 20 ]' \
      "$cmd, SIG$sig: stopped at the evaluation after the signal: $(cat "$tmp/al.err")"
  done
done
HOME=$tmp "$LIED" >"$tmp/al3.out" 2>"$tmp/al3.err" <<'EOF'
load "tests/models/alarmed.lua"
set("after", 20)
s = steady{}
print("after steady", s)
set("after", 21)
l = linearize{}
print("after linearize", l)
set("after", 0)
print("steady again", steady{maxit = 1} ~= nil)
EOF
check 'grep -q "steady: interrupted after 0 pseudo-time steps and [0-9]* evaluations" "$tmp/al3.err"' \
  "REPL: steady interrupted in its first Jacobian: $(cat "$tmp/al3.err")"
check 'grep -q "^after steady	nil$" "$tmp/al3.out"' "REPL: no steady state kept: $(cat "$tmp/al3.out")"
check 'grep -q "^linearize: interrupted after [0-9]* evaluations of the model" "$tmp/al3.err"' \
  "REPL: linearize interrupted in its colours: $(cat "$tmp/al3.err")"
check 'grep -q "^after linearize	nil$" "$tmp/al3.out"' "REPL: no linearisation kept: $(cat "$tmp/al3.out")"
check 'grep -q "no steady state found (1 pseudo-time steps)" "$tmp/al3.err"' \
  "REPL: each flag was consumed, steady runs again: $(cat "$tmp/al3.out" "$tmp/al3.err")"

mkfifo "$tmp/st3.in"

HOME=$tmp "$LIED" <"$tmp/st3.in" >"$tmp/st3.out" 2>"$tmp/st3.err" &
pid=$!; pids+=("$pid")
exec 5>"$tmp/st3.in"
echo 'load("examples/scaling.lua", {n = 1000}); print("loaded")' >&5
wait_on "$pid" 'grep -q "^loaded" "$tmp/st3.out"' || bad "the REPL did not load the model"
echo 'io.write("steadying\n") io.stdout:flush() s = steady{maxit = 1000000}' >&5
wait_on "$pid" 'grep -q "^steadying" "$tmp/st3.out"' || bad "steady did not start"
interrupt "$pid" 'grep -q "steady: interrupted after" "$tmp/st3.err"' || bad "REPL: steady not interrupted"
echo 'print("after steady", s)' >&5
echo 'print("steady again", steady{maxit = 2} ~= nil)' >&5
exec 5>&-
wait_exit "$pid"
check 'grep -q "^after steady	nil$" "$tmp/st3.out"' "REPL: the session goes on after Ctrl-C in steady: $(cat "$tmp/st3.out")"
check 'grep -q "steady again" "$tmp/st3.out" || grep -q "no steady state found (2 pseudo-time steps)" "$tmp/st3.err"' \
  "REPL: the flag was consumed, the next steady runs: $(cat "$tmp/st3.out" "$tmp/st3.err")"

finish
