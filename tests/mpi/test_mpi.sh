#!/bin/bash
# MPI ensembles (docs/distributed.md): `mpirun -np P lied run` on loopback.
# The CSV and MAT files of a fixed-step (rk4) ensemble with per-copy
# parameters and an indexed --set are the same bytes as one process's; a
# failure on rank 1 ends every rank with the message naming the rank; bad
# inputs are errors with their messages; ensembles with time events at shared
# times give the same bytes, with per-copy times they stop naming the ranks,
# with state events they are refused. Sweeps: test_mpi_sweep.sh. Registered by tests/CMakeLists.txt
# only when lied was built with MPI. Arguments: the lied binary, mpirun.
. "$(dirname "$0")/../cli/lib.sh" "$1"
MPIRUN=${2:-mpirun}
# on one machine: more ranks than cores is allowed; as root mpirun needs the
# flag (containers, CI)
# each mpirun with a session directory of its own (mpirun.sh says why)
export LIED_MPI_TMP=$tmp
M=("$(dirname "$0")/mpirun.sh" "$MPIRUN" --oversubscribe)
[ "$(id -u)" -eq 0 ] && M+=(--allow-run-as-root)
# no core binding: other tests run beside this one
M+=(--bind-to none)

E=examples/ensemble.lua
G=tests/mpi/growth.lua
L=tests/mpi/lags.lua

# The error cases start first, in the background, and are judged at the end
# (each ends ~1 s after its message: mpirun pauses before it ends the other
# ranks); they write no file another case writes.

# errors on rank 1 end both ranks, the message names the rank
later rank1_inf 1 "lied: rank 1 of 2: at t = 0.70599999999999996: state g[4].int.x became inf" -- \
  "${M[@]}" -np 2 "$LIED" run "$G" --set bad=4 --out "$tmp/g.csv"
later rank1_param 1 "lied: rank 1 of 2: crab[8].body2: parameter m = -1 [kg] must be > 0" -- \
  "${M[@]}" -np 2 "$LIED" run "$E" --set n=10 --stop 0.01 --out none --set 'crab[8].body2.m=-1'
later rank1_var 1 "lied: rank 1 of 2: crab[9].revolute2.nosuch: Revolute has no variable 'nosuch'" -- \
  "${M[@]}" -np 2 "$LIED" run "$E" --set n=10 --stop 0.01 --out "$tmp/x1.csv" --vars 'crab[9].revolute2.nosuch'
# the same on rank 0 (copy 2)
later rank0_inf 1 "lied: rank 0 of 2: at t = 0.70599999999999996: state g[2].int.x became inf" -- \
  "${M[@]}" -np 2 "$LIED" run "$G" --set bad=2 --out none

# bad inputs
later not_array 1 "model DoublePendulum: 'body1' at the top level is not an array: under mpirun with 2 processes lied run splits ensembles and coupled arrays" -- \
  "${M[@]}" -np 2 "$LIED" run examples/double_pendulum.lua --stop 0.01 --out none
later few_copies 1 "crab: 2 copies for 3 processes (mpirun -np): at least one copy per process" -- \
  "${M[@]}" -np 3 "$LIED" run "$E" --set n=2 --stop 0.01 --out none
later info 2 "under mpirun with 2 processes lied runs only 'lied run FILE.lua' on an ensemble or a script 'lied SCRIPT.lua' (its lied.sweep calls split their points) (docs/distributed.md); run 'info' with one process" -- \
  "${M[@]}" -np 2 "$LIED" info "$E"
# never the REPL
later repl_i 2 "lied runs only 'lied run FILE.lua' on an ensemble or a script" -- "${M[@]}" -np 2 "$LIED" -i
later repl 2 "lied runs only 'lied run FILE.lua' on an ensemble or a script 'lied SCRIPT.lua' (its lied.sweep calls split their points) (docs/distributed.md); run the REPL with one process" -- "${M[@]}" -np 2 "$LIED"
later expr 2 "run '-e' with one process" -- "${M[@]}" -np 2 "$LIED" -e 'print(1)'
later interval_step 2 "run: interval = \"step\" is not available under mpirun (the ranks' steps differ); give an output interval" -- \
  "${M[@]}" -np 2 "$LIED" run "$E" --set n=4 --stop 0.01 --interval step --out none
later no_match 2 "no variable matches 'crab[*].nothing*'" -- \
  "${M[@]}" -np 2 "$LIED" run "$E" --set n=4 --stop 0.01 --vars 'crab[*].nothing*' --out "$tmp/x2.csv"
later set_range 1 "--set crab[11].body2.m: index 11 out of range: crab has 10 copies (indices from 1)" -- \
  "${M[@]}" -np 2 "$LIED" run "$E" --set n=10 --stop 0.01 --out none --set 'crab[11].body2.m=2'
later var_range 1 "crab[11].revolute2.phi: index 11 out of range: crab has 10 elements (indices from 1)" -- \
  "${M[@]}" -np 2 "$LIED" run "$E" --set n=10 --stop 0.01 --out "$tmp/x3.csv" --vars 'crab[11].revolute2.phi'
later no_dir 1 "lied: rank 0 of 2: cannot open $tmp/no/x.csv for writing: No such file or directory" -- \
  "${M[@]}" -np 2 "$LIED" run "$E" --set n=4 --stop 0.01 --out "$tmp/no/x.csv"

# per-copy event times: the ranks' rows differ, the run stops naming them
later event_rows 1 "lied: rank 0 of 2: rank 1: a row at t = 0.29049999999999998 where rank 0 has t = 0.26050000000000001 (every rank must output its rows at the same times: time events must fall at the same times in every copy" -- \
  "${M[@]}" -np 2 "$LIED" run "$L" --set dt0=0.01 --out "$tmp/l.csv"
later balls 2 "lied: rank 0 of 2: ball (BouncingBall) has state events (zero-crossing functions): under mpirun with 2 processes each rank would stop only at its own copies' events, where one process stops every copy at each; run it with one process, or its variants as the points of a sweep (lied.sweep, docs/distributed.md)" -- \
  "${M[@]}" -np 2 "$LIED" run tests/mpi/balls.lua --out "$tmp/b.csv"

A=(--set n=10 --stop 0.05 --interval 0.01 --set 'crab[7].body2.m=0.9' --set 'crab[3].revolute2.phi=0.25')
expect 0 "one process" -- "$LIED" run "$E" "${A[@]}" --params --out "$tmp/one.csv" --out "$tmp/one.mat"
expect 0 "one process, stdout" -- "$LIED" run "$E" "${A[@]}"
cp "$tmp/out" "$tmp/one.out"
for np in 2 3; do
  expect 0 "$np ranks" -- "${M[@]}" -np $np "$LIED" run "$E" "${A[@]}" --params \
    --out "$tmp/p$np.csv" --out "$tmp/p$np.mat"
  same_results "$tmp/one.csv" "$tmp/p$np.csv" "the CSV of $np ranks is the CSV of one process"
  same_results "$tmp/one.mat" "$tmp/p$np.mat" "the MAT file of $np ranks is one process's"
  expect 0 "$np ranks, stdout" -- "${M[@]}" -np $np "$LIED" run "$E" "${A[@]}"
  same_results "$tmp/one.out" "$tmp/out" "CSV on stdout with $np ranks"
done
# the values really differ between copies, and the override of crab[7] (on
# rank 1) is in the file: the per-copy parameters saw the global indices
contains "$tmp/p2.csv" "# crab[7].body2.m = 0.90000000000000002 [kg]" "crab[7]'s override"
contains "$tmp/p2.csv" "# crab[10].body2.m = 1 [kg]" "crab[10]'s per-copy mass"
contains "$tmp/p2.csv" "# crab[6].body2.m = 0.77777777777777779 [kg]" "crab[6]'s per-copy mass"
check "[ \$(head -1 '$tmp/one.out' | tr , '\n' | wc -l) -eq 41 ] && [ \$(wc -l <'$tmp/one.out') -eq 7 ]" \
  "41 columns (time and 4 states of 10 crabs), 6 rows"
# a selection: names and patterns, some only on rank 1, in one process's order
V='crab[9].revolute2.phi,crab[9].revolute2.w,crab[*].prismatic1.s,crab[2].revolute2.w,crab[1?].revolute2.phi'
expect 0 "vars, one process" -- "$LIED" run "$E" "${A[@]}" --vars "$V" --out "$tmp/v1.csv"
expect 0 "vars, 2 ranks" -- "${M[@]}" -np 2 "$LIED" run "$E" "${A[@]}" --vars "$V" --out "$tmp/v2.csv"
same_results "$tmp/v1.csv" "$tmp/v2.csv" "a selection over both ranks is one process's"
contains "$tmp/v2.csv" "time,crab[9].revolute2.phi,crab[9].revolute2.w,crab[1].prismatic1.s" "the selection's order"
# overlapping items, on both ranks: each variable once, where it first appears; an item
# that only repeats earlier ones (crab[9].revolute2.w) is no "no variable matches"
V='crab[*].revolute2.phi,crab[9].revolute2.*,crab[1*].revolute2.phi,crab[9].revolute2.w,crab[2].revolute2.phi'
expect 0 "overlapping vars, one process" -- "$LIED" run "$E" "${A[@]}" --vars "$V" --out "$tmp/o1.csv"
expect 0 "overlapping vars, 2 ranks" -- "${M[@]}" -np 2 "$LIED" run "$E" "${A[@]}" --vars "$V" \
  --out "$tmp/o2.csv" --out "$tmp/o2.mat"
same_results "$tmp/o1.csv" "$tmp/o2.csv" "overlapping items over both ranks are one process's"
check "[ -z \"\$(grep -v '^#' '$tmp/o2.csv' | head -1 | tr , '\n' | sort | uniq -d)\" ]" \
  "overlapping items: no column twice: $(grep -v '^#' "$tmp/o2.csv" | head -1)"
st=0; "$(dirname "$LIED")/tests/test_mat" "$tmp/o2.mat" "$tmp/o2.csv" >"$tmp/cmp" 2>&1 || st=$?
check '[ $st -eq 0 ]' "overlapping items: the gathered MAT file is the CSV: $(cat "$tmp/cmp")"

# a model parameter of one copy (g[3].k, composite level) and per-copy rates
expect 0 "growth, one process" -- "$LIED" run "$G" --set n=5 --set 'g[3].k=-2' --stop 0.1 --out "$tmp/g1.csv"
expect 0 "growth, 2 ranks" -- "${M[@]}" -np 2 "$LIED" run "$G" --set n=5 --set 'g[3].k=-2' --stop 0.1 \
  --out "$tmp/g2.csv"
same_results "$tmp/g1.csv" "$tmp/g2.csv" "a model parameter of copy 3 (rank 1) with 2 ranks"
check "[ \"\$(tail -1 '$tmp/g2.csv' | cut -d, -f4)\" != \"\$(tail -1 '$tmp/g2.csv' | cut -d, -f5)\" ]" \
  "g[3] (k = -2) differs from g[4] (k = -1)"

# --stats per rank: every line whole and prefixed with its rank
expect 0 "stats, 2 ranks" -- "${M[@]}" -np 2 "$LIED" run "$E" --set n=4 --stop 0.01 --out none --stats
check "[ \$(grep -c '^rank [01] of 2: solver rk4: steps 10, rejected 0, evaluations 40\$' '$tmp/err') -eq 2 ] &&
  ! grep -qv '^rank [01] of 2: ' '$tmp/err'" "--stats: each rank's lines, whole, prefixed: $(head -c 300 "$tmp/err")"

# ---- events (docs/distributed.md, "Events") -------------------------------------
# time events at one time in every copy (between rk4's grid points): each rank
# cuts its steps there as one process does, the same bytes
expect 0 "lags, one process" -- "$LIED" run "$L" --out "$tmp/l1.csv"
check "[ \$(grep -c '^0.2505,' '$tmp/l1.csv') -eq 2 ]" "two rows at the event (before and after)"
check "[ \$(wc -l <'$tmp/l1.csv') -eq 14 ]" "11 output points, 2 event rows and the header"
for np in 2 3; do
  expect 0 "lags, $np ranks" -- "${M[@]}" -np $np "$LIED" run "$L" --out "$tmp/l$np.csv"
  same_results "$tmp/l1.csv" "$tmp/l$np.csv" "time events: $np ranks give one process's bytes"
done
# state events: one process runs them (under mpirun: refused, case 'balls')
expect 0 "balls, one process" -- "$LIED" run tests/mpi/balls.lua --out none
judge_later
lacks "$tmp/rank1_inf.err" "rank 0 of 2" "rank 0 did not fail"
lacks "$tmp/repl.err" "rank 1 of 2" "reported once"
lacks "$tmp/balls.err" "rank 1 of 2" "reported by rank 0 alone"
check "[ ! -e '$tmp/b.csv' ]" "nothing written"
finish
