#!/bin/bash
# The Debian package (cpack -G DEB): builds, declares its dependencies, and
# holds the files of an install under /usr.
# Usage: test_deb.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }
command -v dpkg-deb >/dev/null || { echo "no dpkg-deb: skipped"; exit 0; }
(cd "$tmp" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp" >/dev/null)
deb=$(ls "$tmp"/*.deb | head -1)
[ -f "$deb" ] || fail "no package"
dpkg-deb -c "$deb" | awk '{print $NF}' >"$tmp/files"
for f in ./usr/bin/lied ./usr/lib/lua/5.4/lied/core.so ./usr/share/lua/5.4/lied/init.lua \
         ./usr/share/lua/5.4/lied/stdlib/cranecrab.lua ./usr/include/lied/component.h \
         ./usr/include/lied/lied.h ./usr/lib/pkgconfig/lied.pc ./usr/share/man/man1/lied.1 \
         ./usr/lib/cmake/lied/liedConfig.cmake; do
  grep -qx -- "$f" "$tmp/files" || fail "not in the package: $f"
done
grep -q '^./usr/lib/liblied_engine.so' "$tmp/files" || fail "no engine library"
depends=$(dpkg-deb -f "$deb" Depends)
for d in liblua5.4 libc6; do
  echo "$depends" | grep -q "$d" || fail "Depends lacks $d: $depends"
done
echo "deb: ok ($(basename "$deb"): Depends: $depends)"
