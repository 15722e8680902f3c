#!/bin/bash
# tests/funclen.sh [SRC_DIR] [--all] - the table of function lengths of src/
# and lua/ (lines from the signature to the closing brace or `end`, nested
# Lua functions inside their outer one), longest first. A function may have
# up to 60 lines; up to 80 with a reason, one line "Long: why" in the comment
# above it (C: " * Long: ...", Lua: "-- Long: ..."); none more. Fails on a
# function over 80 lines, or over 60 without its reason. --all prints every
# function, not only those over 40.
# C functions are found by the project's layout (clang-format): the
# signature starts in column 0, the body ends with "}" in column 0; Lua
# functions by luac5.4 -p -l (their first and last lines).
set -euo pipefail
all=0 root=
for a in "$@"; do
  case $a in --all) all=1 ;; *) root=$a ;; esac
done
cd "${root:-$(dirname "$0")/..}"
luac=$(command -v luac5.4 || command -v luac || true)
[ -n "$luac" ] || { echo "funclen: luac5.4 not found (Debian: lua5.4)"; exit 1; }
table=$(mktemp)
trap 'rm -f "$table"' EXIT

# C: "lines<TAB>file:line<TAB>name<TAB>reason" per function definition
c_functions() {
  awk '
    function reset() { start = 0; name = ""; sig = "" }
    FNR == 1 { reset(); comment = ""; reason = "" }
    # the comment just above a definition: its "Long:" line, if any
    /^\/\*/ { incomment = 1; reason = "" }
    incomment && /Long:/ { r = $0; sub(/.*Long:[ \t]*/, "", r); sub(/[ \t]*\*\/.*$/, "", r); reason = r }
    incomment { if ($0 ~ /\*\//) { incomment = 0; lastcomment = FNR }; next }
    start == 0 && /^[A-Za-z_]/ && !/^(typedef|struct|union|enum)[ \t]/ && !/;[ \t]*$/ && !/=/ {
      start = FNR; sig = $0; rs = (lastcomment == FNR - 1) ? reason : ""
    }
    start && !body {
      if (FNR > start) sig = sig " " $0
      if (sig ~ /;/ || sig ~ /=/ || FNR - start > 8) { reset(); next }
      if ($0 ~ /\{[ \t]*$/) {
        body = 1
        n = sig; sub(/\(.*/, "", n); sub(/.*[ \t*]/, "", n); name = n
        if (sig !~ /\(/) { body = 0; reset() }
      }
      next
    }
    body && /^}/ {
      printf "%d\t%s:%d\t%s\t%s\n", FNR - start + 1, FILENAME, start, name, rs
      body = 0; reset(); reason = ""
    }
    !body && !/^[ \t]*$/ && !/^\/\*/ { if (start == 0) reason = "" }
  ' "$@"
}

# Lua: the same rows from luac's listing; the name and reason from the source
lua_functions() {
  local f
  for f in "$@"; do
    "$luac" -p -l "$f" | sed -nE 's/^function <[^:]*:([0-9]+),([0-9]+)>.*/\1 \2/p' |
      awk -v file="$f" '
        NR == FNR { line[FNR] = $0; next }
        {
          s = $1; e = $2; src = line[s]; name = "(anonymous)"
          if (match(src, /function[ \t]+[A-Za-z_][A-Za-z0-9_.:]*/)) {
            name = substr(src, RSTART, RLENGTH); sub(/function[ \t]+/, "", name)
          } else if (match(src, /[A-Za-z_][A-Za-z0-9_.]*[ \t]*=[ \t]*function/)) {
            name = substr(src, RSTART, RLENGTH); sub(/[ \t]*=.*/, "", name)
          }
          reason = ""
          for (k = s - 1; k > 0 && line[k] ~ /^[ \t]*--/; k--)
            if (line[k] ~ /Long:/) { reason = line[k]; sub(/.*Long:[ \t]*/, "", reason) }
          printf "%d\t%s:%d\t%s\t%s\n", e - s + 1, file, s, name, reason
        }' "$f" -
  done
}

mapfile -t cfiles < <(find src -name '*.[ch]' | sort)
mapfile -t lfiles < <(find lua -name '*.lua' | sort)
{ c_functions "${cfiles[@]}"; lua_functions "${lfiles[@]}"; } | sort -t$'\t' -k1,1nr -k2,2 >"$table"

bad=0 long=0 total=$(wc -l <"$table")
printf '%6s  %-44s %-28s %s\n' lines where function "reason (over 60 lines)"
while IFS=$'\t' read -r n where name reason; do
  [ "$n" -gt 40 ] || [ "$all" -eq 1 ] || continue
  mark=""
  if [ "$n" -gt 60 ]; then
    long=$((long + 1))
    if [ "$n" -gt 80 ]; then
      mark="FAIL (over 80)"; bad=$((bad + 1))
    elif [ -z "$reason" ]; then
      mark="FAIL (no 'Long:' reason)"; bad=$((bad + 1))
    fi
  fi
  printf '%6d  %-44s %-28s %s\n' "$n" "$where" "$name" "${mark:+$mark }$reason"
done <"$table"
echo "funclen: $total functions, $long over 60 lines; $bad failing"
[ "$bad" -eq 0 ]
