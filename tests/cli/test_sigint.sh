#!/bin/bash
# Ctrl-C (SIGINT) in the middle of a long run: the CSV and MAT outputs hold
# every row up to the interruption and are valid; in the REPL the result so
# far is kept, a Lua loop is interrupted, and the session goes on.
# The runs would take days: only SIGINT ends them. Waits are bounded.
. "$(dirname "$0")/lib.sh" "$@"
TEST_MAT=$(dirname "$LIED")/tests/test_mat
# wait_exit PID: up to ~60 s, then kill; the exit status in $status
wait_exit() {
  if ! wait_for "! kill -0 $1 2>/dev/null"; then bad "process $1 did not stop"; kill -9 "$1"; fi
  wait "$1"; status=$?
}
LONG="--stop 1e9 --dt 1e-3 --interval 0.01"
# repl NAME: a REPL reading the fifo $tmp/NAME.in on fd 5, writing
# $tmp/NAME.out and $tmp/NAME.err; its pid in $pid
repl() {
  mkfifo "$tmp/$1.in"
  HOME=$tmp "$LIED" <"$tmp/$1.in" >"$tmp/$1.out" 2>"$tmp/$1.err" &
  pid=$!; pids+=("$pid")
  exec 5>"$tmp/$1.in"
}
# interrupted LINE SECONDS NEXT: the REPL gets LINE, a Ctrl-C SECONDS later,
# then NEXT
interrupted() {
  echo "$1" >&5
  sleep "$2"
  kill -INT "$pid"
  echo "$3" >&5
}

# ---- command line ----------------------------------------------------------
"$LIED" run tests/models/osc.lua $LONG --vars '*' --out "$tmp/r.csv" --out "$tmp/r.mat" \
  2>"$tmp/err" &
pid=$!; pids+=("$pid")
wait_for '[ -s "$tmp/r.csv" ] && [ "$(wc -l <"$tmp/r.csv")" -gt 200 ]' ||
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
check '[ $? -eq 0 ]' "MAT valid and equal to the CSV after Ctrl-C: $(cat "$tmp/cmp")"
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
wait_for '[ -s "$tmp/repl.csv" ] && [ "$(wc -l <"$tmp/repl.csv")" -gt 200 ]' ||
  bad "the REPL run did not write rows"
kill -INT "$pid"
echo 'print("rows", r:nrows(), results[1]:nrows())' >&5
echo 'while true do end' >&5
wait_for 'grep -q "^rows" "$tmp/repl.out"' || bad "no rows line"
# the loop line is read next: a Ctrl-C from now on interrupts it, whether it
# arrives before the loop starts or while it runs
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
# vars and params of 400,000 crabs walk millions of names (seconds), and so
# does a run choosing its variables by a pattern: Ctrl-C stops them with a
# message, consumed, and the session goes on.
repl list
echo 'm = lied.build(dofile("examples/scaling.lua"), { n = 400000 }); print("built")' >&5
wait_for 'grep -q "^built" "$tmp/list.out"' || bad "the model of 400,000 crabs was not built"
interrupted 'v = m:vars("*.nomatch")' 1 'print("after vars", v)'
wait_for 'grep -q "^after vars" "$tmp/list.out"' || bad "no line after vars"
interrupted 'p = m:params("*.nomatch")' 0.3 'print("after params", p)'
interrupted "r = m:run{stop = 0.001, dt = 1e-3, vars = '*.nomatch', out = '$tmp/sel.csv', progress = false}" 1 \
  'print("after run", r)'
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
# A. The first SIGINT or SIGTERM stops each with a message, exit 1 or 143.
for sig in INT TERM; do
  "$LIED" steady examples/scaling.lua --set n=1000 --maxit 1000000 >"$tmp/st.out" 2>"$tmp/st.err" &
  pid=$!; pids+=("$pid")
  sleep 2
  kill -$sig "$pid"
  wait_exit "$pid"
  want=$([ $sig = INT ] && echo 1 || echo 143)
  check '[ "$status" -eq "$want" ]' "steady stopped by SIG$sig exits $want (got $status)"
  check 'grep -q "steady: interrupted after [0-9]* pseudo-time steps (largest derivative der(" "$tmp/st.err"' \
    "steady, SIG$sig: $(cat "$tmp/st.err")"
  "$LIED" linearize examples/scaling.lua --set n=1000 >"$tmp/li.out" 2>"$tmp/li.err" &
  pid=$!; pids+=("$pid")
  sleep 2
  kill -$sig "$pid"
  wait_exit "$pid"
  check '[ "$status" -eq "$want" ]' "linearize stopped by SIG$sig exits $want (got $status)"
  check 'grep -q "linearize.*: interrupted" "$tmp/li.err"' "linearize, SIG$sig: $(cat "$tmp/li.err")"
done
repl st3
echo 'load("examples/scaling.lua", {n = 1000}); print("loaded")' >&5
wait_for 'grep -q "^loaded" "$tmp/st3.out"' || bad "the REPL did not load the model"
interrupted 's = steady{maxit = 1000000}' 2 'print("after steady", s)'
echo 'print("steady again", steady{maxit = 2, set = {n = 1}} ~= nil)' >&5
exec 5>&-
wait_exit "$pid"
check 'grep -q "steady: interrupted after" "$tmp/st3.err"' "REPL: steady interrupted: $(cat "$tmp/st3.err")"
check 'grep -q "^after steady	nil$" "$tmp/st3.out"' "REPL: the session goes on after Ctrl-C in steady: $(cat "$tmp/st3.out")"
check 'grep -q "steady again" "$tmp/st3.out" || grep -q "no steady state found (2 pseudo-time steps)" "$tmp/st3.err"' \
  "REPL: the flag was consumed, the next steady runs: $(cat "$tmp/st3.out" "$tmp/st3.err")"

finish
