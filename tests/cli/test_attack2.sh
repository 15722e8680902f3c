#!/bin/bash
# The second robustness round (docs/robustness.md): classes of bad input an
# independent attack found. Each: the message, the exit status, and for
# files a reader (tests/unit/test_mat via libmatio) that opens them.
. "$(dirname "$0")/lib.sh" "$@"
TEST_MAT=$(dirname "$LIED")/tests/test_mat
OSC=tests/models/osc.lua
LONG="--stop 1e9 --dt 1e-3 --interval 0.01"

# ---- 1. a connection declared twice ------------------------------------------
sed 's/{ "j.flange_b", "b.flange_a" } }/{ "j.flange_b", "b.flange_a" },\n    { "b.flange_a", "j.flange_b" } }/' \
  $OSC >"$tmp/dup.lua"
expect_error 1 "dup.lua:11: connection declared twice" -- "$LIED" run "$tmp/dup.lua"
contains "$tmp/err" "already joined by connect {\"j.flange_b\", \"b.flange_a\"} in Osc at $tmp/dup.lua:10" \
  "both declarations named"
check '[ ! -s "$tmp/out" ]' "no rows of a wrong model"

# ---- 2. binary chunks are not loaded -------------------------------------------
cat >"$tmp/mk.lua" <<LUA
local f = io.open("$tmp/bin.lua", "wb"); f:write(string.dump(loadfile("$OSC"))); f:close()
local g = io.open("$tmp/bad.lua", "wb")
g:write(string.dump(function() return 1 end):sub(1, 30) .. string.rep("\255", 40)); g:close()
LUA
"$LIED" "$tmp/mk.lua"
for f in bin bad; do
  for cmd in run info vars; do
    expect_error 1 "$f.lua: a binary (precompiled) Lua chunk; lied loads Lua source text only" -- \
      "$LIED" $cmd "$tmp/$f.lua"
  done
  expect_error 1 "a binary (precompiled) Lua chunk" -- "$LIED" "$tmp/$f.lua"
done
cat >"$tmp/loads.lua" <<LUA
assert(not load(string.dump(function() end)))
assert(not pcall(dofile, "$tmp/bin.lua"))
assert(not loadfile("$tmp/bad.lua", "b"))
package.path = "$tmp/?.lua;" .. package.path
local ok, e = pcall(require, "bin")
assert(not ok and e:find("binary", 1, true), e)
print("refused")
LUA
expect 0 "load, dofile, loadfile, require refuse binary chunks" -- "$LIED" "$tmp/loads.lua"
contains "$tmp/out" "refused" "all four refused"
printf 'print(pcall(dofile, "%s/bad.lua"))\nprint("alive")\n' "$tmp" >"$tmp/in.lua"
expect 0 "the REPL goes on" -- "$LIED" <"$tmp/in.lua"
contains "$tmp/out" "alive" "REPL alive after a binary dofile"
# a typed line that is bytecode is refused, not executed (its NUL bytes:
# the REPL reads lines of text)
printf '\033LuaT\000\031\223\r\nprint("alive")\n' >"$tmp/binline.txt"
expect_error 1 "stdin:1: the line holds a NUL byte (lied reads lines of text): not run" -- "$LIED" <"$tmp/binline.txt"

# ---- 3. plot to an unwritable path -----------------------------------------------
expect_error 1 "cannot write the plot file $tmp/missing-dir/p.png: No such file or directory" -- \
  "$LIED" $OSC "$tmp/missing-dir/p.png"
check '[ ! -s "$tmp/out" ]' "no image on standard output: $(head -c 100 "$tmp/out" | od -c | head -2)"
cat >"$tmp/plot.lua" <<LUA
local lied = require "lied"
local r = lied.simulate(dofile("$OSC")):run()
lied.plot(r, { "j.s" }, { file = "$tmp/missing-dir/x.png" })
LUA
expect_error 1 "plot.lua:3: plot: cannot write the plot file $tmp/missing-dir/x.png" -- "$LIED" "$tmp/plot.lua"
check '[ ! -s "$tmp/out" ]' "no image on standard output (lied.plot)"
sed 's|file = "[^"]*"|text = true, width = 60.5|' "$tmp/plot.lua" >"$tmp/plotw.lua"
expect_error 1 "plot: width must be a whole number of characters from 10 to 1000, got 60.5" -- \
  "$LIED" "$tmp/plotw.lua"

# ---- 4. overrides and options checked where given -----------------------------------
cat >"$tmp/over.lua" <<LUA
local lied = require "lied"
local m = dofile("$OSC")
for _, v in ipairs { "abc", "2", true, {}, { 1, 2 }, { x = 1 } } do
  local ok, e = pcall(lied.build, m, { ["j.k"] = v })
  print(ok, e)
end
local t = {}
for i = 1, 100 do t[i] = i end
print(pcall(lied.build, m, { ["j.k"] = t }))
print(pcall(lied.simulate, m, { set = { n = "3" } }))
LUA
expect 0 "overrides script" -- "$LIED" "$tmp/over.lua"
contains "$tmp/out" 'j.k must be a number, got the string "abc"' "string override"
contains "$tmp/out" 'got the string "2" (write the number without quotes)' "numeric string override"
contains "$tmp/out" "j.k must be a number, got boolean true" "boolean override"
contains "$tmp/out" "parameter k takes 1 value, got 0" "empty table"
contains "$tmp/out" "parameter k takes 1 value, got 2" "two values"
contains "$tmp/out" "got a table with the key x" "keyed table"
contains "$tmp/out" "parameter k takes 1 value, got 100" "100 values counted in full"
lacks "$tmp/out" "true	model" "no override builds"

# ---- 6. non-finite and huge sizes ------------------------------------------------------
for v in 1e300 -1e999 1e999 2.5 9223372036854775808; do
  expect_error 1 "osc.lua:9: extra: array size" -- "$LIED" run $OSC --set n=$v --out none
  lacks "$tmp/err" "attempt to compare" "no internal error for n=$v"
done
printf 'local lied = require "lied"\nlocal tl = require "lied.testlib"\nlied.array(tl.Mass {}, 1/0)\n' >"$tmp/inf.lua"
expect_error 1 "inf.lua:3: lied.array: array size must be a whole number, got inf" -- "$LIED" "$tmp/inf.lua"

# ---- 7. long names ------------------------------------------------------------------------
expect 0 "lied vars with long names" -- "$LIED" vars tests/models/long_names.lua
check '[ "$(sort "$tmp/out" | uniq -d | wc -l)" -eq 0 ] && [ "$(wc -l <"$tmp/out")" -gt 10 ]' "vars listed once each"
expect 0 "lied info with long names" -- "$LIED" info tests/models/long_names.lua
printf 'load "tests/models/long_names.lua"\nvars()\nparams()\n' >"$tmp/longrepl.lua"
expect 0 "REPL vars() and params() with long names" -- "$LIED" <"$tmp/longrepl.lua"
expect 0 "run with long names" -- "$LIED" run tests/models/long_names.lua --vars '*' --out "$tmp/long.csv" --out "$tmp/long.mat"
check '[ "$(head -1 "$tmp/long.csv" | tr , "\n" | sort | uniq -d | wc -l)" -eq 0 ]' "CSV header without repeats"
"$TEST_MAT" "$tmp/long.mat" "$tmp/long.csv" >"$tmp/cmp" 2>&1
st=$?
check '[ $st -eq 0 ]' "MAT with long names equals the CSV: $(tail -3 "$tmp/cmp")"

# ---- 8. SIGTERM and SIGHUP stop a run like Ctrl-C -------------------------------------------
for sig in TERM HUP; do
  rm -f "$tmp/s.csv" "$tmp/s.mat" # the wait below must see this run's rows, not the last one's
  "$LIED" run $OSC $LONG --vars '*' --out "$tmp/s.csv" --out "$tmp/s.mat" 2>"$tmp/err" &
  pid=$!; pids+=("$pid")
  wait_for '[ -s "$tmp/s.csv" ] && [ "$(wc -l <"$tmp/s.csv")" -gt 200 ]' || bad "SIG$sig: no rows"
  kill -$sig "$pid"
  wait_for "! kill -0 $pid 2>/dev/null" || { bad "SIG$sig: did not stop"; kill -9 "$pid"; }
  wait "$pid"; status=$?
  want=$((128 + $(kill -l $sig)))
  check '[ "$status" -eq "$want" ]' "SIG$sig: exit $status, expected $want"
  contains "$tmp/err" "stopped by SIG$sig: interrupted at t = " "SIG$sig message"
  "$TEST_MAT" "$tmp/s.mat" "$tmp/s.csv" >"$tmp/cmp" 2>&1
  st=$?
  check '[ $st -eq 0 ]' "SIG$sig: MAT valid and equal to the CSV: $(tail -3 "$tmp/cmp")"
  check '[ "$(tail -c 1 "$tmp/s.csv" | od -An -c | tr -d " ")" = "\n" ]' "SIG$sig: CSV ends with a whole row"
done
# a SIGTERM before the run starts: the run stops at once
printf 'local lied = require "lied"\nlocal posix_kill = os.execute("kill -TERM " .. io.open("/proc/self/stat"):read("n"))\nlocal r, st = lied.build(dofile("%s")):run { stop = 1e9, dt = 1e-3, out = "none" }\nprint(st.interrupted, st.signal)\n' $OSC >"$tmp/term.lua"
expect 143 "SIGTERM while loading: status 143" -- timeout 60 "$LIED" "$tmp/term.lua"
contains "$tmp/out" "true	15" "the run that follows stops at once"

# ---- 9. a failed write leaves a valid MAT file ----------------------------------------------
for lim in 200 2000; do
  (ulimit -f $lim; exec "$LIED" run $OSC $LONG --vars '*' --out "$tmp/f.mat") >"$tmp/out" 2>"$tmp/err"
  rc=$?
  check '[ "$rc" -eq 1 ]' "file size limit $lim: exit $rc"
  contains "$tmp/err" "cannot write $tmp/f.mat: File too large" "file size limit message"
  "$TEST_MAT" "$tmp/f.mat" >"$tmp/cmp" 2>&1
  st=$?
  check '[ $st -eq 0 ]' "MAT valid after EFBIG ($lim KiB): $(tail -3 "$tmp/cmp")"
done
# with a CSV twin: the MAT rows are the CSV's first rows
(ulimit -f 300; exec "$LIED" run $OSC $LONG --vars '*' --out "$tmp/f.mat" --out "$tmp/f.csv") >/dev/null 2>&1
"$TEST_MAT" "$tmp/f.mat" "$tmp/f.csv" prefix >"$tmp/cmp" 2>&1
st=$?
check '[ $st -eq 0 ]' "MAT rows equal the CSV's after EFBIG: $(tail -3 "$tmp/cmp")"
# SIGKILL: nothing runs, but the header counts the rows committed so far
"$LIED" run $OSC $LONG --vars '*' --out "$tmp/k.mat" --out "$tmp/k.csv" 2>/dev/null &
pid=$!; pids+=("$pid")
wait_for '[ "$(stat -c %s "$tmp/k.mat" 2>/dev/null || echo 0)" -gt 3000000 ]' || bad "SIGKILL: no rows"
kill -KILL "$pid"; wait "$pid" 2>/dev/null
"$TEST_MAT" "$tmp/k.mat" "$tmp/k.csv" prefix >"$tmp/cmp" 2>&1
st=$?
check '[ $st -eq 0 ]' "MAT readable after SIGKILL: $(tail -3 "$tmp/cmp")"
check 'grep -qE ": [1-9][0-9]{3,} rows" "$tmp/cmp"' "MAT after SIGKILL holds committed rows: $(tail -1 "$tmp/cmp")"
# a SIGKILL between any two writes of the header (killpwrite: the process kills itself right
# after its k-th pwrite, the MAT sink's only calls of it): the end time in data_1 always
# agrees with the rows counted. The header took three calls a commit, the end time before the
# count: a kill between them (k = 5) left an end time the rows did not reach (test_mat: "CHECK
# failed: same_bits(d1.num[d1.rows], ...)"), the test above failing once under load
KILLPW=$(dirname "$LIED")/tests/libkillpwrite.so
for k in 1 2 3 4 5 6 7 8; do
  rm -f "$tmp/p.mat"
  LD_PRELOAD="$KILLPW" LIED_KILL_PWRITE=$k ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
    "$LIED" run $OSC $LONG --vars '*' --out "$tmp/p.mat" >/dev/null 2>&1
  status=$?
  check '[ "$status" -eq 137 ]' "killed after pwrite $k: exit $status, expected 137 (SIGKILL)"
  "$TEST_MAT" "$tmp/p.mat" >"$tmp/cmp" 2>&1
  st=$?
  check '[ $st -eq 0 ]' "MAT consistent when killed after pwrite $k: $(tail -3 "$tmp/cmp")"
done

# ---- 10. TCP: out of descriptors, many clients ----------------------------------------------
cat >"$tmp/fds.lua" <<LUA
local lied = require "lied"
local b = lied.build(dofile("$OSC"))
local keep = {} -- every descriptor but two (whatever the parent left open)
while true do local f = io.open("/dev/null"); if not f then break end; keep[#keep + 1] = f end
keep[#keep]:close(); keep[#keep - 1]:close()
local r, st, err = b:run { out = "tcp:0", clients = 3, stop = 1 }
print(err)
LUA
(ulimit -n 67; exec timeout 60 "$LIED" "$tmp/fds.lua") >"$tmp/out" 2>"$tmp/err" &
pid=$!; pids+=("$pid")
wait_for 'grep -q "streaming rows on tcp" "$tmp/err"' || bad "TCP sink did not start: $(cat "$tmp/err")"
port=$(sed -n 's/.*127.0.0.1:\([0-9]*\).*/\1/p' "$tmp/err" | head -1)
# three clients, each holding its connection until lied ends (tail --pid waits for it)
for i in 1 2 3; do (exec 3<>/dev/tcp/127.0.0.1/$port; tail --pid="$pid" -f /dev/null) 2>/dev/null & done
wait_for "! kill -0 $pid 2>/dev/null" || bad "TCP wait spins when descriptors run out"
wait "$pid"
contains "$tmp/out" "cannot accept TCP client" "out of descriptors: a message"
contains "$tmp/out" "Too many open files (the limit of open files is 67" "names the limit"
(ulimit -n 100; exec "$LIED" run $OSC --out tcp:0 --clients 1024) >"$tmp/out" 2>"$tmp/err"
st=$?
check '[ $st -eq 2 ]' "--clients 1024 under 100 descriptors: usage error"
contains "$tmp/err" "waiting for 1024 clients needs 1088 open files, the limit is 100" "limit message"

# ---- 11. spans whose steps cannot advance time ----------------------------------------------
for a in "--stop 1e-308 --solver esdirk23" "--start 1e17 --stop 1.0000000001e17 --solver cvode" \
         "--start 1e17 --stop 1.0000000001e17 --solver rk4" "--stop 1e-200 --solver dopri45"; do
  expect_error 2 "is too short to simulate" -- timeout 60 "$LIED" run $OSC $a --out none
done
expect_error 2 "step size (dt) 1e-12 cannot advance time near t = 1100000" -- \
  "$LIED" run $OSC --start 1e6 --stop 1.1e6 --dt 1e-12 --out none
expect_error 2 "output interval 1e-300 cannot advance time" -- "$LIED" run $OSC --interval 1e-300 --out none
expect_error 2 "largest step (hmax)" -- "$LIED" run $OSC --hmax 1e-320 --solver dopri45 --out none
# (1,000 s at dt 0.01 near t = 1e10, where a step is 5,000 of its ulps)
expect 0 "a large start time with a span it resolves" -- "$LIED" run $OSC --start 1e10 --stop 1.0000001e10 --out none

# ---- 12. usage errors: status 2 and a plain message -------------------------------------------
expect_error 2 "output '.csv': use a .csv or .mat file" -- "$LIED" run $OSC --out .csv
outs=(); for i in $(seq 17); do outs+=(--out "$tmp/o$i.csv"); done
expect_error 2 "at most 16 outputs" -- "$LIED" run $OSC "${outs[@]}"
finish
