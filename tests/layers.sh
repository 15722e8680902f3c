#!/bin/bash
# tests/layers.sh - the layering of src/ (docs/architecture.md, "Layers"):
# a file may include a header of its own layer or of a lower one, never of a
# higher one; component libraries include only the public API. Prints every
# offending include and fails when there is one; also fails on a folder of
# src/ that has no layer (so a new folder must be placed in the order), and
# on a folder of code anywhere that does not say what it holds (below).
set -euo pipefail
cd "${1:-$(dirname "$0")/..}"
# rank of each folder of src/, lowest first; "lib" is beside the engine
declare -A rank=([include]=0 [lied]=0 [core]=1 [linsys]=2 [sched]=3 [solve]=4
                 [analysis]=5 [record]=6 [lib]=7 [dist]=8 [binding]=9 [app]=10
                 [embed]=10)
bad=0 checked=0
for dir in src/*/; do
  d=$(basename "$dir")
  if [ -z "${rank[$d]+x}" ]; then
    echo "src/$d: a folder without a layer (add it to tests/layers.sh and docs/architecture.md)"
    bad=$((bad + 1))
  fi
done
while IFS= read -r f; do
  layer=${f#src/}
  layer=${layer%%/*}
  while IFS=: read -r line inc; do
    checked=$((checked + 1))
    target=${inc%%/*}
    [ "$target" = "$inc" ] && continue # a header beside the file, no folder
    if [ -z "${rank[$target]+x}" ]; then
      echo "$f:$line: includes \"$inc\", which is in no layer"
      bad=$((bad + 1))
      continue
    fi
    # the component libraries see only the public API and their own folder
    if [ "$layer" = lib ] && [ "$target" != lied ] && [ "$target" != lib ]; then
      echo "$f:$line: a component library includes \"$inc\" (only lied/*.h, the public API)"
      bad=$((bad + 1))
      continue
    fi
    # nothing below the binding includes a component library
    if [ "$target" = lib ] && [ "$layer" != lib ] && [ "${rank[$layer]}" -lt "${rank[binding]}" ]; then
      echo "$f:$line: the engine includes the component library header \"$inc\""
      bad=$((bad + 1))
      continue
    fi
    if [ "${rank[$target]}" -gt "${rank[$layer]}" ]; then
      echo "$f:$line: layer $layer includes \"$inc\" of the higher layer $target"
      bad=$((bad + 1))
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
           sed -E 's/^([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1:\2/')
done < <(find src -name '*.[ch]' -o -name '*.def' | sort)
# The layout: every folder of code (C, Lua, shell, CMake) says what it is for
# in a README.md, or in the header comment of NAME.h for a folder NAME; a
# folder named lied is a Lua module's or the public headers' prefix, which
# its parent's README.md describes.
folders=0
while IFS= read -r dir; do
  folders=$((folders + 1))
  name=$(basename "$dir")
  [ -s "$dir/README.md" ] && continue
  [ -f "$dir/$name.h" ] && head -1 "$dir/$name.h" | grep -q '^/\*' && continue
  [ "$name" = lied ] && [ -s "$(dirname "$dir")/README.md" ] && continue
  echo "$dir: a folder of code without a README.md (one line: what it holds)"
  bad=$((bad + 1))
done < <({ git ls-files 2>/dev/null ||
           find . -path ./.git -prune -o -path './build*' -prune -o -type f -print; } |
         sed 's|^\./||' | grep -E '(\.[ch]|\.lua|\.sh|\.def|\.cmake|\.in|CMakeLists\.txt)$' |
         grep '/' | sed 's|/[^/]*$||' | sort -u)
echo "layers: $checked includes checked, $folders folders of code; $bad violations"
[ "$bad" -eq 0 ]
