#!/bin/bash
# lied.sweep under mpirun (docs/distributed.md, "Sweeps") on loopback:
# tests/mpi/sweep.lua's values, results and files are the same bytes with 1,
# 2 and 3 ranks (results larger than a message too), the ranks run contiguous
# shares of the points, a failure on the rank that runs a point ends every
# rank with its message, a bad input is reported once by rank 0. Registered
# by tests/CMakeLists.txt only when lied was built with MPI. Arguments: the
# lied binary, mpirun.
. "$(dirname "$0")/../cli/lib.sh" "$1"
MPIRUN=${2:-mpirun}
# each mpirun with a session directory of its own (mpirun.sh says why)
export LIED_MPI_TMP=$tmp
M=("$(dirname "$0")/mpirun.sh" "$MPIRUN" --oversubscribe)
[ "$(id -u)" -eq 0 ] && M+=(--allow-run-as-root)
M+=(--bind-to none)

S=tests/mpi/sweep.lua
X=tests/mpi/sweep_errors.lua

# The error cases start first, in the background, and are judged at the end
# (each ends ~1 s after its message: mpirun pauses before it ends the other
# ranks).
# errors: the rank that runs the point reports it and ends every rank
later run 1 "lied: rank 1 of 2: sweep: point 3 (bad=2): at t = 0.70599999999999996: state g[2].int.x became inf" -- \
  "${M[@]}" -np 2 "$LIED" "$X" run
later build 1 "lied: rank 1 of 2: sweep: point 3 (m=-1): examples/mass_spring.lua:15: body: parameter m = -1 [kg] must be > 0" -- \
  "${M[@]}" -np 2 "$LIED" "$X" build
later each 1 "lied: rank 1 of 2: sweep: each: point 3 (k=3): point 3 is bad" -- "${M[@]}" -np 2 "$LIED" "$X" each
later each_value 2 "lied: rank 1 of 2: sweep: each: point 3 (k=3): a userdata cannot be returned (numbers, strings, booleans and tables of them)" -- \
  "${M[@]}" -np 2 "$LIED" "$X" each_value
later caught 1 "lied: rank 1 of 2: sweep: point 3 (m=-1)" -- "${M[@]}" -np 2 "$LIED" "$X" caught
# bad inputs: every rank finds them, rank 0 reports
later out 2 "lied: rank 0 of 2: sweep: out = 'p.csv' needs one %d (or %03d) for the point's number and no other %" -- \
  "${M[@]}" -np 2 "$LIED" "$X" out
later nodir 1 "lied: rank 0 of 2: sweep: out: cannot write $tmp/no/p1.csv: No such file or directory" -- \
  "${M[@]}" -np 2 "$LIED" "$X" nodir "$tmp"
later option 2 "lied: rank 0 of 2: sweep: run: unknown option 'stopp' (did you mean 'stop'?)" -- "${M[@]}" -np 2 "$LIED" "$X" option
later few 2 "lied: rank 0 of 4: sweep: 3 points for 4 processes (mpirun -np): at least one point per process" -- \
  "${M[@]}" -np 4 "$LIED" "$X" few

mkdir -p "$tmp/s1" "$tmp/s2" "$tmp/s3"
expect 0 "sweep, one process" -- "$LIED" "$S" "$tmp/s1"
cp "$tmp/out" "$tmp/s1.out"
check "[ \$(wc -l <'$tmp/s1.out') -eq 18 ]" "7 + 6 + 5 lines"
contains "$tmp/s1.out" "4 k=8 4 p4 0x1p+3 " "each's values"
for np in 2 3; do
  expect 0 "sweep, $np ranks" -- "${M[@]}" -np $np "$LIED" "$S" "$tmp/s$np"
  same_results "$tmp/s1.out" "$tmp/out" "sweep results (hexadecimal) on $np ranks are one process's"
  check "diff -r '$tmp/s1' '$tmp/s$np' >/dev/null" "the files of a sweep with state events on $np ranks"
done
check "[ \$(ls '$tmp/s2' | wc -l) -eq 5 ]" "5 files"
# contiguous shares: 7 points on 2 ranks are 4 + 3... floor(7 r / P) + 1 ..
expect 0 "ranks, one process" -- "$LIED" "$S" "$tmp/s1" ranks
contains "$tmp/out" "0 0 0 0 0 0 0" "one process runs every point"
expect 0 "ranks, 2" -- "${M[@]}" -np 2 "$LIED" "$S" "$tmp/s2" ranks
contains "$tmp/out" "0 0 0 1 1 1 1" "2 ranks: points 1-3 and 4-7"
expect 0 "ranks, 3" -- "${M[@]}" -np 3 "$LIED" "$S" "$tmp/s3" ranks
contains "$tmp/out" "0 0 1 1 2 2 2" "3 ranks: points 1-2, 3-4, 5-7"
# results larger than a message
expect 0 "long, one process" -- "$LIED" "$S" "$tmp/s1" long
cp "$tmp/out" "$tmp/long1.out"
contains "$tmp/out" "3	n=302	501	302	501" "501 rows of 302 variables"
expect 0 "long, 2 ranks" -- "${M[@]}" -np 2 "$LIED" "$S" "$tmp/s2" long
same_results "$tmp/long1.out" "$tmp/out" "long results on 2 ranks"
for i in 1 2 3; do
  same_results "$tmp/s1/long_$i.mat" "$tmp/s2/long_$i.mat" "long result $i, sent in parts"
done

# the same cases in one process: the messages without the rank
expect_error 1 "lied: sweep: point 3 (bad=2): at t = 0.70599999999999996: state g[2].int.x became inf" -- "$LIED" "$X" run
expect 0 "few points, one process" -- "$LIED" "$X" few
judge_later
lacks "$tmp/run.err" "rank 0 of 2" "rank 0 did not fail"
lacks "$tmp/caught.out" "caught" "a failure caught by the script still ends every rank"
lacks "$tmp/out.err" "rank 1 of 2" "reported once"
lacks "$tmp/nodir.err" "rank 1 of 2" "reported once"
lacks "$tmp/option.err" "rank 1 of 2" "reported once"
lacks "$tmp/few.err" "rank 1 of 4" "reported once"
finish
