#!/bin/bash
# tests/fuzz/kill_runs.sh - result files after interrupted runs. For SECONDS
# (default 60), start runs with random solvers, steps and outputs (CSV and
# MAT of the same rows), end each at a random moment with SIGINT, SIGTERM,
# SIGHUP or SIGKILL, or with a random file size limit (ulimit -f), and check
# what the promise table of docs/robustness.md says:
#   SIGINT/SIGTERM/SIGHUP  status 1/143/129, a message, the CSV ends with a
#                          whole row, the MAT file equals the CSV (libmatio)
#   SIGKILL                the MAT file (once its header is out) is readable
#                          and its rows are the CSV's first rows
#   file size limit        status 1, "File too large", the MAT file readable,
#                          its rows the CSV's first rows
#   bash tests/fuzz/kill_runs.sh SECONDS [BUILD]
# Prints the counts; exit 1 when a check failed (the files are kept in
# BUILD/kill-findings/).
secs=${1:-60}
build=${2:-build}
set -m # job control: background runs do not inherit SIGINT ignored (bash does that without it)
src=$(cd "$(dirname "$0")/../.." && pwd)
LIED=$build/lied
TEST_MAT=$build/tests/test_mat
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
solvers=(euler heun rk3 rk4 dopri45 beuler esdirk23 cvode)
models=("$src/tests/models/osc.lua" "$src/tests/models/long_names.lua" "$src/examples/cranecrab.lua"
        "$src/examples/fourbar.lua" "$src/examples/vessels.lua" "$src/examples/drop.lua")
declare -A count
runs=0 findings=0
end=$((SECONDS + secs))
finding() {
  findings=$((findings + 1))
  mkdir -p "$build/kill-findings/$runs"
  cp "$work"/* "$build/kill-findings/$runs/" 2>/dev/null
  echo "FINDING run $runs ($how, $solver, $model): $*" >&2
}
while [ $SECONDS -lt $end ]; do
  runs=$((runs + 1))
  rm -f "$work"/r.* "$work"/err "$work"/cmp
  solver=${solvers[RANDOM % ${#solvers[@]}]}
  model=${models[RANDOM % ${#models[@]}]}
  dt=$(printf '1e-%d' $((3 + RANDOM % 3)))
  interval=$([ $((RANDOM % 4)) -eq 0 ] && echo step || echo 0.01)
  sigs=(INT TERM HUP KILL LIMIT)
  how=${sigs[RANDOM % 5]}
  delay=$(printf '0.%03d' $((RANDOM % 1000)))
  limit=$((RANDOM % 3000 + 1))
  args=(run "$model" --stop 1e6 --solver "$solver" --dt "$dt" --interval "$interval" --vars '*'
        --out "$work/r.csv" --out "$work/r.mat")
  if [ "$how" = LIMIT ]; then
    (ulimit -f $limit; exec timeout 20 "$LIED" "${args[@]}") >/dev/null 2>"$work/err"
    status=$?
  else
    "$LIED" "${args[@]}" >/dev/null 2>"$work/err" &
    pid=$!
    sleep "$delay"
    kill -$how $pid 2>/dev/null; sent=$?
    for _ in $(seq 200); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
    kill -0 $pid 2>/dev/null && { finding "did not stop within 10 s"; kill -9 $pid; }
    wait $pid 2>/dev/null; status=$?
    # the signal came before lied's main() (the default action): no files
    if [ $status -gt 128 ] && [ ! -s "$work/err" ] && [ ! -e "$work/r.csv" ]; then
      how=EARLY
    # the run ended before the signal (finished, or failed on its own)
    elif [ $sent -ne 0 ] || { [ $how != KILL ] && [ $status -le 1 ] &&
         ! grep -q "interrupted at t = \|stopped by SIG" "$work/err"; }; then
      how=OWN
    fi
  fi
  count[$how]=$((${count[$how]:-0} + 1))
  case $how in
    OWN)
      if [ -s "$work/r.csv" ] && [ "$(stat -c %s "$work/r.mat" 2>/dev/null || echo 0)" -gt 4096 ]; then
        "$TEST_MAT" "$work/r.mat" "$work/r.csv" >"$work/cmp" 2>&1 || finding "MAT differs: $(tail -3 "$work/cmp")"
      fi ;;
    INT|TERM|HUP)
      want=$([ $how = INT ] && echo 1 || echo $((128 + $(kill -l $how))))
      [ $status -eq $want ] || { finding "exit $status, expected $want: $(head -c 300 "$work/err")"; continue; }
      grep -q "interrupted at t = \|stopped by SIG" "$work/err" || finding "no message: $(head -c 300 "$work/err")"
      if [ -s "$work/r.csv" ]; then
        [ "$(tail -c 1 "$work/r.csv" | od -An -c | tr -d ' ')" = '\n' ] || finding "CSV ends mid-row"
        "$TEST_MAT" "$work/r.mat" "$work/r.csv" >"$work/cmp" 2>&1 || finding "MAT differs: $(tail -3 "$work/cmp")"
      fi ;;
    EARLY) ;;
    KILL)
      # once a row is out, the MAT header is on disk (written and flushed by begin)
      if [ "$(wc -l <"$work/r.csv" 2>/dev/null || echo 0)" -ge 2 ]; then
        "$TEST_MAT" "$work/r.mat" "$work/r.csv" prefix >"$work/cmp" 2>&1 ||
          finding "MAT after SIGKILL: $(tail -3 "$work/cmp")"
      fi ;;
    LIMIT)
      if [ $status -ne 124 ] && [ $status -ne 0 ] && ! grep -q "^lied: at t = " "$work/err"; then
        [ $status -eq 1 ] || finding "file size limit: exit $status"
        grep -q "File too large" "$work/err" || finding "file size limit: $(head -c 300 "$work/err")"
        # a MAT file whose header could not be written is removed
        if [ -e "$work/r.mat" ]; then
          "$TEST_MAT" "$work/r.mat" "$work/r.csv" prefix >"$work/cmp" 2>&1 ||
            finding "MAT after EFBIG: $(tail -3 "$work/cmp")"
        fi
      fi ;;
  esac
done
echo "kill_runs: $runs runs in $secs s (INT ${count[INT]:-0}, TERM ${count[TERM]:-0}, HUP ${count[HUP]:-0}, KILL ${count[KILL]:-0}, file size limit ${count[LIMIT]:-0}, ended before the signal ${count[OWN]:-0}, signal before main ${count[EARLY]:-0}), $findings findings"
[ $findings -eq 0 ]
