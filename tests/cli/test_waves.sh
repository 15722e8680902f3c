#!/bin/bash
# Steps in waves over coupled arrays (solve/wave.h, docs/architecture.md
# "Waves"): `lied info` and --stats say so; the crab chain and the pipe give
# the same bytes in waves, with --no-fuse (whole-vector steps) and with 2
# and 3 threads; a run that fails ends with the same message and time in
# every mode (a single failing step is taken again over the whole vector);
# independent copies and a single crab take no waves.
. "$(dirname "$0")/lib.sh" "$@"

expect 0 "info of the chain" -- "$LIED" info examples/crab_chain.lua --set n=4096
contains "$tmp/out" "fixed-step explicit solvers take steps in waves, stages 32 instances apart" "info says waves"
expect 0 "info of a crab" -- "$LIED" info examples/cranecrab.lua
lacks "$tmp/out" "waves" "a single crab: no waves"
expect 0 "info of independent crabs" -- "$LIED" info examples/scaling.lua --set n=4096
lacks "$tmp/out" "waves" "independent copies: fused steps, no waves"

chain=(examples/crab_chain.lua --set n=3000 --set 'crab[1].prismatic1.v=1' --set 'crab[2999].body2.m=2'
       --stop 0.2 --dt 1e-3 --interval 0.05 --vars 'crab[*].prismatic1.s')
pipe=(examples/pipe.lua --set n=2500 --stop 0.5 --dt 1e-3 --interval 0.1 --vars 'vol[*].T')
for model in chain pipe; do
  eval "args=(\"\${$model[@]}\")"
  expect 0 "$model in waves" -- "$LIED" run "${args[@]}" --out "$tmp/$model-w.csv" --threads 1 --stats
  contains "$tmp/err" "steps in waves" "--stats of the $model"
  expect 0 "$model whole-vector" -- "$LIED" run "${args[@]}" --out "$tmp/$model-v.csv" --threads 1 --no-fuse --stats
  lacks "$tmp/err" "steps in waves" "--no-fuse: no waves"
  same_results "$tmp/$model-w.csv" "$tmp/$model-v.csv" "$model: waves and whole-vector steps differ"
  for t in 2 3; do
    expect 0 "$model, $t threads" -- "$LIED" run "${args[@]}" --out "$tmp/$model-$t.csv" --threads $t
    same_results "$tmp/$model-w.csv" "$tmp/$model-$t.csv" "$model: waves on $t threads differ"
  done
  check "[ \$(wc -l <'$tmp/$model-w.csv') -ge 5 ]" "$model: rows written"
done

# failures: the same message in every mode (a block fault; a singular section)
fail_pipe=(examples/pipe.lua --set n=300 --stop 50 --dt 0.05 --out none)
fail_chain=(examples/crab_chain.lua --set n=300 --set 'crab[1].prismatic1.v=1' --stop 50 --dt 0.5 --out none)
for f in fail_pipe fail_chain; do
  eval "args=(\"\${$f[@]}\")"
  run_lied "$LIED" run "${args[@]}" --threads 1; cp "$tmp/err" "$tmp/$f-1"; r1=$rc
  run_lied "$LIED" run "${args[@]}" --threads 1 --no-fuse; cp "$tmp/err" "$tmp/$f-v"; rv=$rc
  run_lied "$LIED" run "${args[@]}" --threads 2; cp "$tmp/err" "$tmp/$f-2"; r2=$rc
  check "[ $r1 -ne 0 ] && [ $r1 -eq $rv ] && [ $r1 -eq $r2 ]" "$f: exit status $r1 $rv $r2"
  check "grep -q 'at t = ' '$tmp/$f-1'" "$f: the failure names the time: $(cat "$tmp/$f-1")"
  same_results "$tmp/$f-1" "$tmp/$f-v" "$f: message in waves differs from whole-vector: $(cat "$tmp/$f-1" "$tmp/$f-v")"
  same_results "$tmp/$f-1" "$tmp/$f-2" "$f: message with 2 threads differs: $(cat "$tmp/$f-1" "$tmp/$f-2")"
done
contains "$tmp/fail_pipe-1" "vol[1]: content" "the pipe's fault names the volume"
contains "$tmp/fail_chain-1" "singular linear section" "the chain's failure"
finish
