#!/usr/bin/env bash
# bench/implicit.sh - the implicit solvers on n independent crane crabs
# (examples/scaling.lua): colours and evaluations per Jacobian, steps,
# evaluations, factorisations and run time of esdirk23 (and cvode, when
# built) for growing n; the time per crab should stay flat (linear growth).
#   bench/implicit.sh [--build DIR] [--tol TOL] [--stop T] [N ...]
# Defaults: build dir "build", tol 1e-4, stop 1, n = 1000 4000 16000 64000 100000.
set -uo pipefail
cd "$(dirname "$0")/.."
build=build tol=1e-4 stop=1 ns=()
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --tol) tol=$2; shift 2 ;;
    --stop) stop=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) ns+=("$1"); shift ;;
  esac
done
[ ${#ns[@]} -eq 0 ] && ns=(1000 4000 16000 64000 100000)
lied=$build/lied
[ -x "$lied" ] || { echo "no $lied: build first (cmake --build $build)" >&2; exit 1; }
solvers="esdirk23"
cat >"${TMPDIR:-/tmp}/lied-solvers.lua" <<'LUA'
for _, s in ipairs(lied.core.solvers()) do print(s.name) end
LUA
"$lied" "${TMPDIR:-/tmp}/lied-solvers.lua" | grep -qx cvode && solvers="esdirk23 cvode"
rm -f "${TMPDIR:-/tmp}/lied-solvers.lua"

echo "n crane crabs, tol $tol, 0..$stop s ($(nproc) cores, $(uname -m))"
printf '%-9s %8s %8s %7s %9s %6s %9s %9s %5s %7s %9s %12s\n' solver n states colours "jac evals" steps rejected evals jacs LU "run s" "us/crab/eval"
for s in $solvers; do
  for n in "${ns[@]}"; do
    err=$("$lied" run examples/scaling.lua --set n="$n" --solver "$s" --tol "$tol" --stop "$stop" \
          --out none --stats 2>&1 >/dev/null)
    echo "$err" | awk -v s="$s" -v n="$n" '
      /^instantiate/ { for (i = 1; i <= NF; i++) if ($i == "run") run = $(i + 1) }
      /^solver/ {
        gsub(/[(),]/, " ")
        for (i = 1; i <= NF; i++) {
          if ($i == "steps") steps = $(i + 1)
          if ($i == "rejected") rej = $(i + 1)
          if ($i == "evaluations" && ev == "") ev = $(i + 1)
          if ($i == "for" && $(i + 1) == "Jacobians") jev = $(i - 1)
          if ($i == "Jacobians" && $(i + 1) ~ /^[0-9]+$/) jac = $(i + 1)
          if ($i == "colours") col = $(i - 1)
          if ($i == "factorisations" && $(i - 1) == "LU") lu = $(i + 1)
        }
      }
      END {
        if (steps == "") { print s, n, "failed"; exit }
        printf "%-9s %8d %8d %7d %9.1f %6d %9d %9d %5d %7d %9.3f %12.3f\n", s, n, 4 * n, col,
          jac ? jev / jac : 0, steps, rej, ev, jac, lu, run, 1e6 * run / (n * ev)
      }'
  done
done
