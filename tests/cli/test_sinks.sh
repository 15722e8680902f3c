#!/bin/bash
# Recorder sinks from the command line: MAT v4 read back by libmatio equals the
# CSV of the same run bit for bit; TCP streams every row to two clients at
# once (loopback, bounded waits); output spec errors.
. "$(dirname "$0")/lib.sh" "$@"
TEST_MAT=$(dirname "$LIED")/tests/test_mat

# ---- MAT == CSV (one run, both sinks through the multiplexer) ----------------
"$LIED" run examples/vessels.lua --out "$tmp/v.csv" --out "$tmp/v.mat" 2>"$tmp/err"
st=$?
check '[ $st -eq 0 ]' "vessels run with two outputs: $(cat "$tmp/err")"
check '[ "$(wc -l <"$tmp/v.csv")" -eq 502 ]' "vessels CSV rows: $(wc -l <"$tmp/v.csv")"
"$TEST_MAT" "$tmp/v.mat" "$tmp/v.csv" >"$tmp/cmp" 2>&1
st=$?
check '[ $st -eq 0 ]' "MAT equals CSV (vessels): $(cat "$tmp/cmp")"
check 'grep -q "501 rows" "$tmp/cmp"' "MAT compare counted the rows: $(cat "$tmp/cmp")"
# all variables of a model with arrays (brackets in names), separate runs
"$LIED" run tests/models/osc.lua --vars '*' --dt 0.001 --interval 0.01 --out "$tmp/o.mat" &&
  "$LIED" run tests/models/osc.lua --vars '*' --dt 0.001 --interval 0.01 --out "$tmp/o.csv"
st=$?
check '[ $st -eq 0 ]' "osc runs"
"$TEST_MAT" "$tmp/o.mat" "$tmp/o.csv" >"$tmp/cmp" 2>&1
st=$?
check '[ $st -eq 0 ]' "MAT equals CSV (osc, all variables): $(cat "$tmp/cmp")"
# the check can fail: a different run differs
"$LIED" run tests/models/osc.lua --vars '*' --dt 0.001 --interval 0.01 --set k=5 --out "$tmp/o5.csv"
"$TEST_MAT" "$tmp/o.mat" "$tmp/o5.csv" >"$tmp/cmp" 2>&1
st=$?
check '[ $st -ne 0 ]' "MAT compare detects a different run"
# MAT with CSV on stdout at once
"$LIED" run tests/models/osc.lua --out - --out "$tmp/s.mat" >"$tmp/s.csv"
"$TEST_MAT" "$tmp/s.mat" "$tmp/s.csv" >"$tmp/cmp" 2>&1
st=$?
check '[ $st -eq 0 ]' "MAT equals CSV on stdout: $(cat "$tmp/cmp")"

# a solver failure (explicit Euler blows up) leaves both files valid and equal
"$LIED" run tests/models/osc.lua --solver euler --dt 1 --interval 1 --stop 1e6 \
  --out "$tmp/e.csv" --out "$tmp/e.mat" 2>"$tmp/err"
st=$?
check '[ $st -eq 1 ]' "diverging run exits 1"
check 'grep -q "state j.s became -inf" "$tmp/err"' "divergence message: $(cat "$tmp/err")"
"$TEST_MAT" "$tmp/e.mat" "$tmp/e.csv" >"$tmp/cmp" 2>&1
st=$?
check '[ $st -eq 0 ] && grep -q " 883 rows" "$tmp/cmp"' "MAT equals CSV after a solver error: $(cat "$tmp/cmp")"

# ---- TCP: two clients receive every row -------------------------------------
# port 0: the system picks a free port, lied prints it on stderr
"$LIED" run examples/vessels.lua --out tcp:0 --clients 2 --out "$tmp/t.csv" \
  >"$tmp/tcp.out" 2>"$tmp/tcp.err" &
lied_pid=$!; pids+=("$lied_pid")
tcp_port() { sed -n 's/.*tcp 127\.0\.0\.1:\([0-9][0-9]*\) .*/\1/p' "$tmp/tcp.err"; }
wait_for '[ -n "$(tcp_port)" ] || ! kill -0 $lied_pid 2>/dev/null'
port=$(tcp_port)
check '[ -n "$port" ]' "TCP port announced: $(cat "$tmp/tcp.err")"
if [ -n "$port" ]; then
  for c in 1 2; do
    timeout 300 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port && cat <&3" >"$tmp/c$c.txt" &
    pids+=("$!")
  done
  wait_for "! kill -0 $lied_pid 2>/dev/null" || { bad "lied did not end"; kill "$lied_pid"; }
  wait "$lied_pid"
  st=$?
  check '[ $st -eq 0 ]' "TCP run exit status: $(cat "$tmp/tcp.err")"
  wait
  for c in 1 2; do
    check '[ "$(sed -n 1p "$tmp/c$c.txt")" = "#lied-stream 1" ]' "client $c hello: $(head -c 200 "$tmp/c$c.txt")"
    check '[ "$(sed -n 2p "$tmp/c$c.txt")" = "#units s,m,m,m,kg/s,kg/s,kg/s" ]' "client $c units: $(sed -n 2p "$tmp/c$c.txt")"
    check 'grep -v "^#" "$tmp/c$c.txt" | cmp -s - "$tmp/t.csv"' "client $c received every row (same as the CSV)"
    check '[ "$(tail -1 "$tmp/c$c.txt")" = "#end 501" ]' "client $c end line: $(tail -1 "$tmp/c$c.txt")"
  done
fi
check '[ "$(wc -l <"$tmp/t.csv")" -eq 502 ]' "TCP run CSV rows"

# ---- events: two rows at each event time, in CSV and MAT alike (docs/events.md)
"$LIED" run examples/thermostat.lua --vars mass.T,heater.Q_flow --out "$tmp/ev.csv" 2>/dev/null
"$LIED" run examples/thermostat.lua --vars mass.T,heater.Q_flow --out "$tmp/ev.mat" 2>/dev/null
dups=$(cut -d, -f1 "$tmp/ev.csv" | uniq -d | wc -l)
check '[ "$dups" -eq 10 ]' "thermostat CSV: 10 times with two rows (got $dups)"
check 'awk -F, "NR > 1 && \$1 == t && q == \$3 { bad = 1 } { t = \$1; q = \$3 } END { exit bad }" "$tmp/ev.csv"' \
  "the heat flow differs between the two rows of each event"
check '"$TEST_MAT" "$tmp/ev.mat" "$tmp/ev.csv"' "thermostat MAT equals the CSV, event rows included"

# ---- output spec errors ------------------------------------------------------
"$LIED" run tests/models/osc.lua --out x.txt 2>"$tmp/err"
st=$?
check '[ $st -eq 2 ]' "--out x.txt is a usage error"
check 'grep -q "use a .csv or .mat file, tcp:PORT" "$tmp/err"' "bad --out message: $(cat "$tmp/err")"
"$LIED" run tests/models/osc.lua --out /nonexistent/dir/x.mat 2>"$tmp/err"
st=$?
check '[ $st -eq 1 ]' "unwritable MAT path exits 1"
check 'grep -q "cannot open /nonexistent/dir/x.mat for writing" "$tmp/err"' "unwritable MAT message: $(cat "$tmp/err")"
"$LIED" run tests/models/osc.lua --out tcp:99999 2>"$tmp/err"
st=$?
check '[ $st -eq 2 ]' "bad TCP port is a usage error (exit 2)"
check 'grep -q "port must be a number from 0 to 65535" "$tmp/err"' "bad port message: $(cat "$tmp/err")"
"$LIED" run tests/models/osc.lua --out tcp:0 --clients -1 2>"$tmp/err"
st=$?
check '[ $st -eq 2 ]' "--clients -1 is a usage error"
"$LIED" --help >"$tmp/help"
check 'grep -q "PATH.mat" "$tmp/help" && grep -q "tcp:\[HOST:\]PORT" "$tmp/help"' "--help lists .mat and tcp"

finish
