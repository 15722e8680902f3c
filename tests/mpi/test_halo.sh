#!/bin/bash
# Coupled arrays across MPI ranks (docs/distributed.md, "Coupled arrays
# across ranks"): `mpirun -np P lied run` on the crab chain
# (examples/crab_chain.lua, an odd n, pushes that move the chain across the
# ranks' boundaries) and a grid of crabs split by rows (tests/mpi/grid.lua)
# gives the same CSV and MAT bytes as one process with 2 and 3 ranks; the
# models that cannot be split are errors that say why. Registered by
# tests/CMakeLists.txt only when lied was built with MPI. Arguments: the
# lied binary, mpirun.
. "$(dirname "$0")/../cli/lib.sh" "$1"
MPIRUN=${2:-mpirun}
# each mpirun with a session directory of its own (mpirun.sh says why)
export LIED_MPI_TMP=$tmp
M=("$(dirname "$0")/mpirun.sh" "$MPIRUN" --oversubscribe)
[ "$(id -u)" -eq 0 ] && M+=(--allow-run-as-root)
M+=(--bind-to none)

C=examples/crab_chain.lua

# models that cannot be split, and solvers that are not fixed-step explicit:
# errors started first, in the background, and judged at the end (each ends
# ~1 s after its message: mpirun pauses before it ends the other ranks)
later not_array 1 "model Pipe: 'sink' at the top level is not an array: under mpirun with 2 processes lied run splits ensembles and coupled arrays" -- \
  "${M[@]}" -np 2 "$LIED" run examples/pipe.lua --stop 0.01 --out none
later wrap 1 "a pattern with wrap = true (periodic) links the first copies to the last: under mpirun coupled arrays are split into ranges of copies and a wrap-around link is not split" -- \
  "${M[@]}" -np 2 "$LIED" run tests/mpi/ring.lua --out none
later pairs 1 "Pairs: crab[2*i-1]: under mpirun coupled arrays are split by their top-level index, which must be a loop variable plus a constant (crab[i+1]); this index steps by 2" -- \
  "${M[@]}" -np 2 "$LIED" run tests/mpi/pairs.lua --out none
later hub 1 "Hub: {\"crab[1].prismatic1.frame_b\", \"spring[i-1].frame_a\"} links copies whose indices do not move together (one copy to many, or two loop variables)" -- \
  "${M[@]}" -np 2 "$LIED" run tests/mpi/hub.lua --out none
later cascade 1 "would lose every link where rank" -- \
  "${M[@]}" -np 2 "$LIED" run tests/mpi/cascade.lua --out none
later lengths 1 "model Lengths: array src has 1 copies and the longest 7: under mpirun the arrays of coupled models are split together, so their lengths may differ by at most 1" -- \
  "${M[@]}" -np 2 "$LIED" run tests/mpi/lengths.lua --out none
later few_copies 1 "model CrabChain: 2 copies for 3 processes (mpirun -np): at least one copy per process" -- \
  "${M[@]}" -np 3 "$LIED" run "$C" --set n=2 --stop 0.01 --out none
for s in dopri45 beuler; do
  later solver_$s 2 "solver $s: under mpirun coupled arrays run with the fixed-step explicit solvers (rk4, rk3, heun, euler) only" -- \
    "${M[@]}" -np 2 "$LIED" run "$C" --set n=7 --stop 0.01 --solver $s --out none
done
later var_range 1 "crab[9].prismatic1.s: index 9 out of range: crab has 7 elements (indices from 1)" -- \
  "${M[@]}" -np 2 "$LIED" run "$C" --set n=7 --stop 0.01 --vars 'crab[9].prismatic1.s' --out "$tmp/x.csv"

# crab 1 (rank 0) and crab 4 (rank 1 of 2, rank 1 of 3) pushed; crab 6's
# spring stiffer: every rank's copies move, and the ranks' boundaries move
A=(--set n=7 --stop 0.2 --interval 0.02 --set 'crab[1].prismatic1.v=1' --set 'crab[4].prismatic1.v=-0.5'
   --set 'spring[6].c=300')
expect 0 "chain, one process" -- "$LIED" run "$C" "${A[@]}" --params --out "$tmp/one.csv" --out "$tmp/one.mat"
expect 0 "chain at rest, one process" -- "$LIED" run "$C" --set n=7 --stop 0.2 --interval 0.02 --out "$tmp/rest.csv"
for np in 2 3; do
  expect 0 "chain, $np ranks" -- "${M[@]}" -np $np "$LIED" run "$C" "${A[@]}" --params \
    --out "$tmp/p$np.csv" --out "$tmp/p$np.mat"
  same_results "$tmp/one.csv" "$tmp/p$np.csv" "the chain's CSV with $np ranks is one process's"
  same_results "$tmp/one.mat" "$tmp/p$np.mat" "the chain's MAT file with $np ranks is one process's"
done
# the pushes moved every crab (the last one, on the last rank, too): the
# ghosts carried them over the ranks' boundaries
for k in 2 3 5 7; do
  col=$(grep -vm1 '^#' "$tmp/one.csv" | tr , '\n' | grep -nx "crab\[$k\].prismatic1.s" | cut -d: -f1)
  check "[ -n '$col' ] && [ \"\$(tail -1 '$tmp/p3.csv' | cut -d, -f$col)\" != \"\$(tail -1 '$tmp/rest.csv' | cut -d, -f$col)\" ]" \
    "crab[$k] moved with the pushes"
done
contains "$tmp/p2.csv" "# spring[6].c = 300 [N/m]" "spring 6's override (rank 1) in the parameters"
contains "$tmp/p2.csv" "# spring[5].c = 100 [N/m]" "spring 5's parameter, once"
check "[ \$(grep -c '^# spring\[4\].c = ' '$tmp/p3.csv') -eq 1 ]" "a ghost's parameter is written once"
check "[ \$(grep -vm1 '^#' '$tmp/one.csv' | tr , '\n' | wc -l) -eq 29 ] && [ \$(grep -vc '^#' '$tmp/one.csv') -eq 12 ]" \
  "29 columns (time and 4 states of 7 crabs), 11 rows"

# a chain long enough for the skewed schedule, whose fixed-step solvers take
# steps in waves in one process (chunk by chunk): under mpirun the halo
# needs whole-vector stages; pushes next to the ranks' boundaries
W=(--set n=4001 --stop 0.05 --interval 0.01 --set 'crab[2002].prismatic1.v=1' --set 'crab[1334].prismatic1.v=-1'
   --vars 'crab[13*].prismatic1.s,crab[20*].prismatic1.s,crab[26*].revolute2.phi')
expect 0 "long chain, one process" -- "$LIED" run "$C" "${W[@]}" --out "$tmp/w1.csv" --stats
contains "$tmp/err" "steps in waves" "one process takes the long chain in waves"
for np in 2 3; do
  expect 0 "long chain, $np ranks" -- "${M[@]}" -np $np "$LIED" run "$C" "${W[@]}" --out "$tmp/w$np.csv"
  same_results "$tmp/w1.csv" "$tmp/w$np.csv" "the long chain's CSV with $np ranks is one process's"
done

# a selection over both arrays and ranks, in one process's order
V='*.s,spring[*].frame_b.f*,crab[5].prismatic1.v,crab[3].revolute2.*'
expect 0 "vars, one process" -- "$LIED" run "$C" "${A[@]}" --vars "$V" --out "$tmp/v1.csv"
for np in 2 3; do
  expect 0 "vars, $np ranks" -- "${M[@]}" -np $np "$LIED" run "$C" "${A[@]}" --vars "$V" --out "$tmp/v$np.csv"
  same_results "$tmp/v1.csv" "$tmp/v$np.csv" "a selection over both arrays with $np ranks"
done
contains "$tmp/v1.csv" "time,crab[1].prismatic1.s,crab[2].prismatic1.s" "the selection's order"

# CSV on stdout, euler and heun too
for s in euler heun; do
  expect 0 "$s, one process" -- "$LIED" run "$C" "${A[@]}" --solver $s
  cp "$tmp/out" "$tmp/$s.out"
  expect 0 "$s, 3 ranks" -- "${M[@]}" -np 3 "$LIED" run "$C" "${A[@]}" --solver $s
  same_results "$tmp/$s.out" "$tmp/out" "$s on stdout with 3 ranks"
done

# a grid of crabs split by rows: a pattern over two loop variables
G=tests/mpi/grid.lua
B=(--set n=7 --stop 0.1 --interval 0.02 --set 'row[1].crab[2].prismatic1.v=1' --set 'row[6].crab[3].prismatic1.v=1')
expect 0 "grid, one process" -- "$LIED" run "$G" "${B[@]}" --out "$tmp/g1.csv"
for np in 2 3; do
  expect 0 "grid, $np ranks" -- "${M[@]}" -np $np "$LIED" run "$G" "${B[@]}" --out "$tmp/g$np.csv"
  same_results "$tmp/g1.csv" "$tmp/g$np.csv" "the grid's CSV with $np ranks is one process's"
done

# models that cannot be split, and solvers that are not fixed-step explicit
# (each model runs in one process: tests/mpi/*.lua)
for f in ring pairs hub cascade lengths; do
  expect 0 "$f.lua, one process" -- "$LIED" run tests/mpi/$f.lua --out none
done
judge_later
contains "$tmp/cascade.err" "under mpirun only arrays whose ports keep a link at the cut (mechanical frames, which take several) are split" \
  "the cascade's reason"
finish
