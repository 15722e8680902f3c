#!/bin/bash
# Output files on failure paths (issue 47, item 2): a closed pipe, a file
# size limit, a full disk and two writers of one file. Every sink ends on a
# whole row, the run says what happened (exit 1, no traceback), a MAT file
# counts exactly the rows it holds (read back by libmatio through test_mat,
# equal to the CSV of the same run or to its first rows), and a file another
# run is writing is refused untouched (docs/robustness.md, the promise table).
. "$(dirname "$0")/lib.sh" "$@"
TEST_MAT=$(dirname "$LIED")/tests/test_mat
long=(run examples/vessels.lua --stop 1000 --interval 0.1) # 10,001 rows, ~1 MB of CSV

# whole_rows FILE: every line ends with a newline and has as many fields as the header
whole_rows() {
  [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
    awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$1"
}
# mat_rows MAT: the rows of a valid MAT file (libmatio), or nothing
mat_rows() { "$TEST_MAT" "$1" 2>/dev/null | sed -n 's/.*: \([0-9]*\) rows.*/\1/p'; }
# mat_prefix MAT CSV: the two hold the same rows, up to the shorter
mat_prefix() { "$TEST_MAT" "$1" "$2" prefix >/dev/null 2>&1; }

# ---- a closed pipe: CSV on stdout to a reader that quits -------------------
for reader in "head -c 100" "head -n 1" "true"; do
  rm -f "$tmp/p.csv" "$tmp/p.mat"
  "$LIED" "${long[@]}" --out "$tmp/p.mat" --out "$tmp/p.csv" --out - 2>"$tmp/err" | $reader >/dev/null
  st=${PIPESTATUS[0]}
  check '[ "$st" -eq 1 ]' "closed pipe ($reader): exit $st (not 141, SIGPIPE): $(cat "$tmp/err")"
  contains "$tmp/err" "cannot write standard output: the reader closed the pipe after" "closed pipe ($reader): message"
  check 'whole_rows "$tmp/p.csv"' "closed pipe ($reader): the CSV file ends on a whole row"
  check 'mat_prefix "$tmp/p.mat" "$tmp/p.csv"' "closed pipe ($reader): MAT file = the CSV's rows"
done
# the other commands: what they print to a closed pipe is an error too
# (200 crabs: 1.2 MB of names, 19 times a pipe's buffer)
"$LIED" vars examples/scaling.lua --set n=200 2>"$tmp/err" | head -n 1 >/dev/null
st=${PIPESTATUS[0]}
check '[ "$st" -eq 1 ]' "lied vars to a closed pipe: exit $st"
contains "$tmp/err" "cannot write to standard output: Broken pipe" "lied vars to a closed pipe: message"

# ---- a file size limit (ulimit -f, in KiB): CSV, MAT, both, stdout to a file -
for lim in 8 40 200; do
  rm -f "$tmp/f.csv" "$tmp/f.mat" "$tmp/s.csv"
  (ulimit -f $lim; "$LIED" "${long[@]}" --out "$tmp/f.csv" 2>"$tmp/err"); st=$?
  check '[ "$st" -eq 1 ]' "file size limit $lim KiB (CSV): exit $st"
  contains "$tmp/err" "cannot write $tmp/f.csv: File too large (the file holds the first" "limit $lim: CSV message"
  check 'whole_rows "$tmp/f.csv"' "limit $lim KiB: the CSV ends on a whole row: $(tail -c 80 "$tmp/f.csv")"
  (ulimit -f $lim; "$LIED" "${long[@]}" --out "$tmp/f.mat" 2>"$tmp/err"); st=$?
  check '[ "$st" -eq 1 ]' "file size limit $lim KiB (MAT): exit $st"
  check '[ -n "$(mat_rows "$tmp/f.mat")" ]' "limit $lim KiB: the MAT file reads back"
  (ulimit -f $lim; "$LIED" "${long[@]}" --out - >"$tmp/s.csv" 2>"$tmp/err"); st=$?
  check '[ "$st" -eq 1 ]' "file size limit $lim KiB (stdout): exit $st"
  contains "$tmp/err" "cannot write standard output: File too large" "limit $lim: stdout message"
  # both at once: the MAT file holds the CSV's first rows
  rm -f "$tmp/f.csv" "$tmp/f.mat"
  (ulimit -f $lim; "$LIED" "${long[@]}" --out "$tmp/f.csv" --out "$tmp/f.mat" 2>"$tmp/err")
  check 'whole_rows "$tmp/f.csv" && mat_prefix "$tmp/f.mat" "$tmp/f.csv"' \
    "limit $lim KiB, CSV and MAT: whole rows, MAT readable"
done

# ---- a full disk (/dev/full) -------------------------------------------------
ln -s /dev/full "$tmp/full.csv"
ln -s /dev/full "$tmp/full.mat"
expect_error 1 "cannot write $tmp/full.csv: No space left on device (the file holds the first 0 rows)" -- \
  "$LIED" run examples/vessels.lua --out "$tmp/full.csv"
expect_error 1 "cannot write $tmp/full.mat: No space left on device" -- "$LIED" run examples/vessels.lua --out "$tmp/full.mat"
"$LIED" run examples/vessels.lua --out - >/dev/full 2>"$tmp/err"; st=$?
check '[ "$st" -eq 1 ]' "stdout to /dev/full: exit $st"
contains "$tmp/err" "cannot write standard output: No space left on device" "stdout to /dev/full: message"

# ---- two writers of one file: the second is refused, the first's file intact -
for ext in csv mat; do
  rm -f "$tmp/c.$ext"
  # the first writer holds its file while it waits for a TCP client: the second
  # writer meets it however fast the machine is; a client then lets it run
  "$LIED" run examples/vessels.lua --stop 1000 --interval 0.02 --out "$tmp/c.$ext" \
    --out tcp:0 --clients 1 2>"$tmp/errA" &
  a=$!; pids+=("$a")
  wait_for 'grep -q "waiting for 1 client" "$tmp/errA"'
  expect_error 1 "cannot write $tmp/c.$ext: another run, or another output of this run, is writing it" -- \
    "$LIED" run examples/vessels.lua --stop 10 --out "$tmp/c.$ext"
  port=$(sed -n 's/.*streaming rows on tcp 127.0.0.1:\([0-9]*\).*/\1/p' "$tmp/errA")
  (exec 3<>"/dev/tcp/127.0.0.1/$port"; cat <&3 >/dev/null) 2>/dev/null
  wait "$a"; st=$?
  check '[ "$st" -eq 0 ]' "first writer ($ext): exit $st: $(cat "$tmp/errA")"
  if [ $ext = csv ]; then
    check '[ "$(wc -l <"$tmp/c.csv")" -eq 50002 ] && whole_rows "$tmp/c.csv"' "first writer's CSV intact: $(wc -l <"$tmp/c.csv") lines"
  else
    check '[ "$(mat_rows "$tmp/c.mat")" = 50001 ]' "first writer's MAT intact: $(mat_rows "$tmp/c.mat") rows"
  fi
done
# one run naming a file twice, and result:save to a file a run is writing
expect_error 1 "cannot write $tmp/d.csv: another run, or another output of this run, is writing it" -- \
  "$LIED" run examples/vessels.lua --out "$tmp/d.csv" --out "$tmp/d.csv"
"$LIED" run examples/vessels.lua --stop 1000 --interval 0.02 --out "$tmp/e.csv" 2>/dev/null &
a=$!; pids+=("$a")
wait_for '[ -s "$tmp/e.csv" ]'
cat >"$tmp/save.lua" <<LUA
local lied = require "lied"
local r = lied.build(dofile("examples/vessels.lua")):run { stop = 10 }
local ok, err = pcall(r.save, r, "$tmp/e.csv")
assert(not ok and tostring(err):find("another run, or another output of this run, is writing it", 1, true), tostring(err))
print("refused")
LUA
run_lied "$LIED" "$tmp/save.lua"
contains "$tmp/out" "refused" "result:save to a file a run writes: $(cat "$tmp/err")"
wait "$a"
check '[ "$(wc -l <"$tmp/e.csv")" -eq 50002 ]' "the run's CSV intact after the refused save"
finish
