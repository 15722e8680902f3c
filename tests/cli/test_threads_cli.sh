#!/bin/bash
# --threads N and LIED_THREADS (docs/parallel.md): bad values are usage
# errors (exit 2) with the message; the CSV of scaling.lua at 4100 crabs is
# the same bytes with 1, 2, 3 and 4 threads; --stats says how many ran;
# --help lists the option.
. "$(dirname "$0")/lib.sh" "$@"

S=examples/scaling.lua
for v in 0 -1 2.5 1025 100000; do
  expect_error 2 "threads must be a whole number from 1 to 1024, got $v" -- \
    "$LIED" run "$S" --stop 0.01 --out none --threads "$v"
done
expect_error 2 "--threads expects a number, got 'abc'" -- "$LIED" run "$S" --out none --threads abc
expect_error 2 "--threads needs a value" -- "$LIED" run "$S" --out none --threads
for v in 0 abc 2.5 -3 1025; do
  LIED_THREADS=$v expect_error 2 "LIED_THREADS must be a whole number from 1 to 1024, got '$v'" -- \
    "$LIED" run "$S" --stop 0.01 --out none
done
# the option wins over the environment
LIED_THREADS=abc expect 0 "--threads over LIED_THREADS" -- "$LIED" run "$S" --stop 0.01 --out none --threads 1

for t in 1 2 3 4; do
  expect 0 "threads $t" -- "$LIED" run "$S" --set n=4100 --stop 0.02 --interval 0.005 \
    --vars 'crab[*].revolute2.phi' --out "$tmp/t$t.csv" --threads "$t" --stats
  contains "$tmp/err" "threads $t" "--stats with --threads $t"
done
for t in 2 3 4; do
  same_results "$tmp/t1.csv" "$tmp/t$t.csv" "the CSV with $t threads is the CSV with one"
done
check "[ \$(wc -l <'$tmp/t1.csv') -eq 6 ] && [ \$(head -1 '$tmp/t1.csv' | tr , '\n' | wc -l) -eq 4101 ]" \
  "the CSV has the rows and columns"
LIED_THREADS=2 expect 0 "LIED_THREADS=2" -- "$LIED" run "$S" --set n=4100 --stop 0.005 --out none --stats
contains "$tmp/err" "threads 2" "LIED_THREADS sets the threads"
expect 0 "16 crabs" -- "$LIED" run "$S" --set n=16 --stop 0.005 --out none --stats --threads 4
contains "$tmp/err" "threads 1 of 4 asked (no part of this model's evaluation is large enough to share between threads), cpu" \
  "a small model runs on one thread, and --stats says so"
expect 0 "16 crabs, one thread asked" -- "$LIED" run "$S" --set n=16 --stop 0.005 --out none --stats --threads 1
contains "$tmp/err" "threads 1, cpu" "one thread asked: nothing to say"
expect 0 "help run" -- "$LIED" help run
contains "$tmp/out" "--threads N" "--help lists --threads"
finish
