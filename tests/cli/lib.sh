# tests/cli/lib.sh - what every tests/cli script shares; source it first:
#   . "$(dirname "$0")/lib.sh" "$@"
# Sets LIED (the binary, argument 1, default ./build/lied), tmp (a scratch
# directory removed at exit, with every process in pids killed), and the
# pass/fail counts; the script ends with `finish`.
LIED=${1:-./build/lied}
pass=0; fail=0
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"; }
trap cleanup EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAILED: $*" >&2; }
# check CONDITION DESCRIPTION: the shell condition holds. Not on $?: by then it is
# the status of the description's expansions ("...: $(cat "$tmp/cmp")" sets it to
# 0), not of the command before; save it first (st=$?; check '[ $st -eq 0 ]' ...)
check() {
  case $1 in *'$?'*) bad "check: the condition reads \$? (save the status first): $1"; return ;; esac
  if eval "$1"; then ok; else bad "$2"; fi
}
# wait_for CONDITION: poll until CONDITION holds; the bound (~10 minutes)
# only ends a test whose process hung, and is far beyond any machine's speed
wait_for() { for _ in $(seq 6000); do eval "$1" && return 0; sleep 0.1; done; return 1; }
# wait_on PID CONDITION: wait_for CONDITION while process PID runs; fails at
# once when it ends without CONDITION holding
wait_on() { wait_for "$2 || ! kill -0 $1 2>/dev/null" && eval "$2"; }

# valgrind_runs [--any-status] RUN...: the runs ("COMMAND ARGS...") one after
# the other in one lied process under valgrind (tests/cli/valgrind_runs.lua);
# exit 9 on an invalid access or a definite leak, else the driver's status
valgrind_runs() {
  valgrind -q --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite \
    "$LIED" tests/cli/valgrind_runs.lua "$@"
}
# run_lied COMMAND...: stdout in $tmp/out, stderr in $tmp/err, exit status in $rc
run_lied() { "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
# expect CODE DESCRIPTION -- COMMAND...: the exit status
expect() {
  local code=$1 what=$2; shift 3
  run_lied "$@"
  if [ "$rc" -eq "$code" ]; then ok; else bad "$what: exit $rc, expected $code; stderr: $(head -c 600 "$tmp/err")"; fi
}
# expect_error CODE "MESSAGE" -- COMMAND...: the exit status, a substring of
# stderr, and no traceback, Lua position of lied's own sources, or crash
expect_error() {
  local code=$1 msg=$2; shift 3
  run_lied "$@"
  judge_error "$code" "$msg" "$tmp/err" "$*"
}
# judge_error CODE "MESSAGE" ERRFILE WHAT: $rc is CODE, ERRFILE holds MESSAGE
# and no traceback or crash (expect_error's verdict)
judge_error() {
  local code=$1 msg=$2 err=$3 what=$4
  if [ "$rc" -ne "$code" ]; then
    bad "$what: exit $rc, expected $code; stderr: $(head -c 600 "$err")"
  elif ! grep -qF -- "$msg" "$err"; then
    bad "$what: '$msg' not in stderr: $(head -c 600 "$err")"
  elif grep -qE "stack traceback|lied/[a-z]+\.lua:[0-9]+:|Segmentation|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:" "$err"; then
    bad "$what: crash or traceback: $(head -c 600 "$err")"
  else
    ok
  fi
}
# Error cases that mostly wait run together: under mpirun a failed run ends
# ~1 s after its message (mpirun pauses before it kills the other ranks).
# later NAME CODE "MESSAGE" -- COMMAND...: start COMMAND in the background,
# stdout in $tmp/NAME.out, stderr in $tmp/NAME.err; judge_later waits for
# every case started and judges each in order as expect_error does. Cases
# that run together must not write the same file. A case that has not ended
# after 120 s is killed and reported by name (exit 124), not left to hang the
# test until ctest's timeout.
later_names=(); later_pids=()
later() {
  local name=$1; shift
  printf '%s\0' "$@" >"$tmp/$name.args"
  shift 3
  ( timeout -k 5 120 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; echo $? >"$tmp/$name.rc" ) &
  later_names+=("$name"); later_pids+=($!); pids+=($!)
}
judge_later() {
  local k name args
  for k in "${!later_names[@]}"; do
    name=${later_names[$k]}
    wait "${later_pids[$k]}"
    mapfile -d '' args <"$tmp/$name.args"
    rc=$(cat "$tmp/$name.rc" 2>/dev/null || echo 255)
    judge_error "${args[0]}" "${args[1]}" "$tmp/$name.err" "$name: ${args[*]:3}"
  done
  later_names=(); later_pids=()
}
# same_results A B DESCRIPTION: files A and B hold the same bytes, and A holds
# results: a .csv file a header and at least two rows, any other file at
# least one byte. Two empty files (two runs that wrote nothing) are not the
# same results: a comparison must not pass on nothing.
same_results() {
  local a=$1 b=$2 what=$3
  if ! cmp -s "$a" "$b"; then bad "$what"; return; fi
  case $a in
    *.csv) if [ "$(grep -cv '^#' "$a")" -lt 3 ]; then bad "$what: $a holds no rows"; return; fi ;;
    *) if [ ! -s "$a" ]; then bad "$what: $a is empty"; return; fi ;;
  esac
  ok
}
# contains FILE TEXT DESCRIPTION / lacks FILE TEXT DESCRIPTION
contains() { if grep -qF -- "$2" "$1"; then ok; else bad "$3: '$2' not in $(head -c 600 "$1")"; fi; }
lacks() { if grep -qF -- "$2" "$1"; then bad "$3: '$2' in $(head -c 600 "$1")"; else ok; fi; }

# The summary line; the exit status of the script.
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
