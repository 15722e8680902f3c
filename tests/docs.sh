#!/bin/bash
# tests/docs.sh LIED [PART PARTS] - the documentation holds: every command line shown in
# README.md, docs/*.md and bench/README.md runs and exits 0 (one that runs a test of
# tests/ names a file that exists: ctest runs the test), every REPL session
# shown (a "$ lied" block with "> " lines) runs without an error (exit status 0,
# nothing on stderr) and prints the output lines shown, in order (durations
# such as "0.0128 s" may differ), and every relative link points to a file
# that exists. Commands run in a scratch
# directory that sees the repository's examples/, stdlib/ and tests/, so the
# files they write (swing.csv, levels.png, ...) land there.
set -uo pipefail
lied=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for d in examples stdlib tests; do ln -s "$root/$d" "$scratch/$d"; done
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

docs=("$root/README.md" "$root"/docs/*.md "$root/bench/README.md")
# tests/docs.sh LIED PART PARTS: the PART-th of PARTS shares of the files
# (every PARTS-th file from the PART-th), so ctest runs the shares on
# several cores (tests/CMakeLists.txt); together they check every file
if [ $# -ge 3 ]; then
  share=()
  for i in "${!docs[@]}"; do [ $((i % $3)) -eq $(($2 - 1)) ] && share+=("${docs[$i]}"); done
  docs=("${share[@]}")
fi

# 1. command lines: indented code lines `lied SUBCOMMAND ...`, `lied FILE.lua ...`,
#    `lied --option` (not the REPL's banner, which also starts with "lied")
for md in "${docs[@]}"; do
  rel=${md#"$root"/}
  while IFS=: read -r line cmd; do
    cmd=${cmd#    }
    cmd=${cmd%%  #*} # a trailing comment, after two or more spaces
    cmd=$(echo "$cmd" | sed -E 's/[[:space:]]+$//')
    [ "$cmd" = lied ] && continue # the REPL itself: see the sessions below
    # a test of tests/ shown in the docs: ctest runs it; here only that it exists
    if [[ $cmd =~ ^lied\ (tests/[^ ]+\.lua)$ ]]; then
      if [ -f "$root/${BASH_REMATCH[1]}" ]; then ok; else bad "$rel:$line: no file ${BASH_REMATCH[1]}"; fi
      continue
    fi
    out=$(cd "$scratch" && timeout 300 bash -c "\"$lied\"${cmd#lied}" </dev/null 2>&1 >/dev/null)
    rc=$?
    if [ $rc -eq 0 ]; then ok; else bad "$rel:$line: '$cmd' exited $rc: ${out:0:300}"; fi
  done < <(grep -nE '^    lied (run|info|vars|params|steady|linearize|--[a-z]|[^ ]+\.lua)' "$md")
done

# 2. REPL sessions: the "> " lines of a block that starts with "    $ lied" are
#    the input; its other lines (but the banner) the output shown
# normalise: durations ("0.0128 s"), trailing blanks, and what rounding
# decides (an optimised and a debug build differ there): numbers below
# 1e-12 in magnitude (a steady state's residual flows) and the count of
# steady's pseudo-time steps once the residual is rounding noise
norm() {
  sed -E 's/[0-9]+(\.[0-9]+)?(e-?[0-9]+)? s( |$|,)/N s\3/g; s/[[:space:]]+$//
    s/-?[0-9](\.[0-9]+)?e-(1[2-9]|[2-9][0-9]|[0-9]{3})( *)/~0 /g; s/[0-9]+ pseudo-time steps/N pseudo-time steps/g' "$1"
}
# the first line of expected ($1) not found, in order, in actual ($2)
missing_line() {
  awk 'NR == FNR { e[++ne] = $0; next } { a[++na] = $0 } END {
    j = 1
    for (i = 1; i <= ne; i++) {
      while (j <= na && a[j] != e[i]) j++
      if (j > na) { print e[i]; exit }
      j++
    } }' <(norm "$1") <(norm "$2")
}
for md in "${docs[@]}"; do
  rel=${md#"$root"/}
  awk -v f="$rel" '
    /^    \$ lied *$/ { insess = 1; start = NR; n++; next }
    insess && /^    > / { sub(/^    > /, ""); print n "\t" start "\tin\t" $0; next }
    insess && /^    / && !/help\(\) lists the commands/ { sub(/^    /, ""); print n "\t" start "\tout\t" $0; next }
    insess && !/^    / { insess = 0 }
  ' "$md" > "$scratch/sessions.tsv"
  for n in $(cut -f1 "$scratch/sessions.tsv" | sort -un); do
    start=$(awk -F'\t' -v n="$n" '$1 == n { print $2; exit }' "$scratch/sessions.tsv")
    awk -F'\t' -v n="$n" '$1 == n && $3 == "in" { print $4 }' "$scratch/sessions.tsv" > "$scratch/session.lua"
    awk -F'\t' -v n="$n" '$1 == n && $3 == "out" { print $4 }' "$scratch/sessions.tsv" > "$scratch/expected.txt"
    err=$(cd "$scratch" && timeout 300 "$lied" < "$scratch/session.lua" 2>&1 >"$scratch/actual.txt")
    rc=$?
    miss=$(missing_line "$scratch/expected.txt" "$scratch/actual.txt")
    if [ $rc -ne 0 ] || [ -n "$err" ]; then bad "$rel:$start: REPL session exited $rc: ${err:0:300}"
    elif [ -n "$miss" ]; then bad "$rel:$start: REPL session does not print '$miss'"
    else ok; fi
  done
done

# 3. relative links [text](path) and [text](path#anchor)
for md in "${docs[@]}"; do
  rel=${md#"$root"/}
  dir=$(dirname "$md")
  while IFS=: read -r line target; do
    target=${target%%#*}
    [ -z "$target" ] && continue
    if [ -e "$dir/$target" ]; then ok; else bad "$rel:$line: link to a missing file: $target"; fi
  done < <(grep -no '\]([^)]*)' "$md" | sed -E 's/^([0-9]+):\]\(([^)]*)\)$/\1:\2/' |
           grep -v ':[a-z]*://' | grep -v ':mailto:')
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
