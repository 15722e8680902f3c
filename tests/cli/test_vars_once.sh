#!/bin/bash
# --vars selects each variable once, at its first appearance, however many
# names and patterns of the list select it ('j.*,j.s' recorded j.s twice):
# the CSV header, the MAT file (compared with the CSV by tests/test_mat), TCP
# and the recorded column count; a name that only repeats an earlier
# pattern's variable is no "no variable matches". Memory results: the Lua
# test tests/lua/test_vars_once.lua; MPI: tests/mpi/test_mpi.sh.
. "$(dirname "$0")/lib.sh" "$@"
OSC=tests/models/osc.lua
TEST_MAT=$(dirname "$LIED")/tests/test_mat
J='j.flange_a.s,j.flange_a.v,j.flange_a.a,j.flange_a.f,j.flange_b.s,j.flange_b.v,j.flange_b.a'
J="$J,j.flange_b.f,j.s,j.der(s),j.v,j.der(v),j.a,j.res"

# a pattern, then a name it selected; two overlapping patterns; a name twice
expect 0 "j.*,j.s" -- "$LIED" run $OSC --stop 0.1 --vars 'j.*,j.s' --out "$tmp/a.csv" --out "$tmp/a.mat"
check "[ \"\$(head -1 '$tmp/a.csv')\" = 'time,$J' ]" "j.*,j.s: one column each: $(head -1 "$tmp/a.csv")"
st=0; "$TEST_MAT" "$tmp/a.mat" "$tmp/a.csv" >"$tmp/cmp" 2>&1 || st=$?
check '[ $st -eq 0 ]' "j.*,j.s: the MAT file is the CSV: $(cat "$tmp/cmp")"
expect 0 "j.s,j.*" -- "$LIED" run $OSC --stop 0.1 --vars 'j.s,j.*' --out "$tmp/b.csv"
check "[ \"\$(head -1 '$tmp/b.csv')\" = \"time,j.s,\$(echo '$J' | sed 's/,j\.s,/,/')\" ]" \
  "j.s,j.*: j.s first, then the rest once: $(head -1 "$tmp/b.csv")"
expect 0 "j.flange_*,j.*_a.*,j.v,j.v" -- "$LIED" run $OSC --stop 0.1 \
  --vars 'j.flange_*,j.*_a.*,j.v,j.v' --out "$tmp/c.csv"
check "[ \"\$(head -1 '$tmp/c.csv')\" = 'time,j.flange_a.s,j.flange_a.v,j.flange_a.a,j.flange_a.f,j.flange_b.s,j.flange_b.v,j.flange_b.a,j.flange_b.f,j.v' ]" \
  "overlapping patterns and a name twice: $(head -1 "$tmp/c.csv")"
check "[ \$(tail -1 '$tmp/c.csv' | tr , '\n' | wc -l) -eq 10 ]" "the rows have the header's 10 columns"
# a name that is no variable is still refused after a pattern
expect_error 1 "j.nosuch: Slider has no variable 'nosuch'" -- "$LIED" run $OSC --stop 0.1 \
  --vars 'j.*,j.nosuch'

# TCP: the stream's header
"$LIED" run $OSC --stop 0.1 --vars 'j.s,j.*,j.s' --out tcp:0 --clients 1 >"$tmp/tcp.out" 2>"$tmp/tcp.err" &
lied_pid=$!; pids+=("$lied_pid")
tcp_port() { sed -n 's/.*tcp 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$tmp/tcp.err"; }
wait_for '[ -n "$(tcp_port)" ] || ! kill -0 $lied_pid 2>/dev/null'
port=$(tcp_port)
check '[ -n "$port" ]' "TCP port announced: $(cat "$tmp/tcp.err")"
if [ -n "$port" ]; then
  timeout 300 bash -c "exec 3<>/dev/tcp/127.0.0.1/$port && cat <&3" >"$tmp/t.txt"
  wait "$lied_pid"; st=$?
  check '[ $st -eq 0 ]' "TCP run exit status: $(cat "$tmp/tcp.err")"
  check "grep -qxF \"time,j.s,\$(echo '$J' | sed 's/,j\.s,/,/')\" '$tmp/t.txt'" \
    "TCP: one column each: $(head -3 "$tmp/t.txt")"
fi

finish
