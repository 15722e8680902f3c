#!/bin/bash
# tests/docs.sh LIED - the documentation holds: every command line shown in
# README.md, docs/*.md and bench/README.md runs and exits 0, every REPL session
# shown (a "$ lied" block with "> " lines) runs without an error, and every
# relative link points to a file that exists. Commands run in a scratch
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

# 1. command lines: indented code lines `lied SUBCOMMAND ...`, `lied FILE.lua ...`,
#    `lied --option` (not the REPL's banner, which also starts with "lied")
for md in "${docs[@]}"; do
  rel=${md#"$root"/}
  while IFS=: read -r line cmd; do
    cmd=${cmd#    }
    cmd=${cmd%%  #*} # a trailing comment, after two or more spaces
    cmd=$(echo "$cmd" | sed -E 's/[[:space:]]+$//')
    [ "$cmd" = lied ] && continue # the REPL itself: see the sessions below
    out=$(cd "$scratch" && timeout 300 bash -c "\"$lied\"${cmd#lied}" </dev/null 2>&1 >/dev/null)
    rc=$?
    if [ $rc -eq 0 ]; then ok; else bad "$rel:$line: '$cmd' exited $rc: ${out:0:300}"; fi
  done < <(grep -nE '^    lied (run|info|vars|steady|linearize|--[a-z]|[^ ]+\.lua)' "$md")
done

# 2. REPL sessions: the "> " lines of a block that starts with "    $ lied"
for md in "${docs[@]}"; do
  rel=${md#"$root"/}
  awk -v f="$rel" '
    /^    \$ lied *$/ { insess = 1; start = NR; n++; next }
    insess && /^    > / { sub(/^    > /, ""); print n "\t" start "\t" $0; next }
    insess && !/^    / { insess = 0 }
  ' "$md" > "$scratch/sessions.tsv"
  for n in $(cut -f1 "$scratch/sessions.tsv" | sort -un); do
    start=$(awk -F'\t' -v n="$n" '$1 == n { print $2; exit }' "$scratch/sessions.tsv")
    awk -F'\t' -v n="$n" '$1 == n { print $3 }' "$scratch/sessions.tsv" > "$scratch/session.lua"
    err=$(cd "$scratch" && timeout 300 "$lied" < "$scratch/session.lua" 2>&1 >/dev/null)
    rc=$?
    if [ $rc -eq 0 ] && [ -z "$err" ]; then ok
    else bad "$rel:$start: REPL session exited $rc: ${err:0:300}"; fi
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
