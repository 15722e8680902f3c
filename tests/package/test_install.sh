#!/bin/bash
# Install lied to a temporary prefix and use it as a user would, from
# another directory: lied run, lied -e, a stock lua5.4 requiring lied, the
# embedding API through pkg-config, and the out-of-tree library
# (examples/ext) built with find_package(lied) and with pkg-config
# lied-plugin, run through lied and through lua5.4; then the thermofluid
# plugin (tfext.c: a component and a medium) built from the install's copy
# of the examples against the installed headers, with no source file.
# Usage: test_install.sh BUILD_DIR   (run from the source tree)
set -euo pipefail
build=$(cd "$1" && pwd)
src=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAILED: $*" >&2; exit 1; }
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null

for f in bin/lied lib/lua/5.4/lied/core.so share/lua/5.4/lied/init.lua share/lua/5.4/lied/cli.lua \
         share/lua/5.4/lied/stdlib/cranecrab.lua include/lied/component.h include/lied/lied.h \
         include/lied/version.h lib/pkgconfig/lied.pc lib/pkgconfig/lied-plugin.pc \
         lib/cmake/lied/liedConfig.cmake share/man/man1/lied.1 share/doc/lied/examples/ext/duffing.c; do
  [ -e "$prefix/$f" ] || [ -e "$prefix/${f/\/lib\//\/lib64\/}" ] || fail "not installed: $f"
done
# the test-only classes (tests/testlib) are not part of the product
[ -z "$(find "$prefix" -iname '*testlib*')" ] || fail "the test library is installed"
libdir=$(dirname "$(find "$prefix" -name 'liblied_engine.so' | head -1)")
[ -n "$libdir" ] || fail "no liblied_engine.so"
# no build path in the code or data (debug information aside)
for b in "$prefix/bin/lied" "$libdir/liblied_lua.so" "$libdir/liblied_engine.so"; do
  objcopy --strip-debug "$b" "$tmp/stripped"
  n=$(strings "$tmp/stripped" | grep -cF "$build" || true)
  [ "$n" -eq 0 ] || fail "a build path is baked into $b"
done

# the installed lied, from elsewhere, on a copied example (its stdlib module
# comes from the install)
mkdir -p "$tmp/work" && cp "$src/examples/cranecrab.lua" "$src/examples/vessels.lua" "$tmp/work/"
cd "$tmp/work"
env -u LIED_LUA_DIR -u LIED_STDLIB_DIR "$prefix/bin/lied" run cranecrab.lua --stop 0.1 >crab.csv
[ "$(wc -l <crab.csv)" -gt 10 ] || fail "lied run from the install"
"$prefix/bin/lied" -e 'assert(require("lied").version)' || fail "lied -e"
env -u LIED_PATH "$prefix/bin/lied" -e 'assert(not pcall(require("lied").library, "testlib"))' ||
  fail "the installed lied knows the test library"
ref=$("$prefix/bin/lied" run vessels.lua --stop 1 --vars t1.level | tail -1)

# a stock Lua 5.4 with the install's paths
export LUA_PATH="$prefix/share/lua/5.4/?.lua;$prefix/share/lua/5.4/?/init.lua;;"
export LUA_CPATH="$prefix/lib/lua/5.4/?.so;;"
got=$(lua5.4 -e '
  local lied = require "lied"
  local m = dofile "vessels.lua"
  local res = lied.simulate(m, { stop = 1, vars = "t1.level" }):run()
  local t, l = res:column("time"), res:column("t1.level")
  io.write(string.format("%.17g,%.17g\n", t[#t], l[#l]))')
[ "$got" = "$(echo "$ref" | awk -F, '{printf "%.17g,%.17g\n", $1, $2}')" ] ||
  fail "lua5.4 and lied differ: '$got' vs '$ref'"

# the embedding API through pkg-config
export PKG_CONFIG_PATH=$libdir/pkgconfig
cc -Wall -Werror "$src/examples/embed.c" $(pkg-config --cflags --libs lied) -o embed
./embed vessels.lua t1.level | grep -q "t1.level = " || fail "embed.c"

# the out-of-tree library: CMake package
cp -r "$src/examples/ext" "$tmp/ext"
cmake -S "$tmp/ext" -B "$tmp/ext/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/ext/build" >/dev/null
cd "$tmp/ext"
out1=$(LIED_PATH="$tmp/ext/build" "$prefix/bin/lied" run forced.lua --stop 1 | tail -1)
out2=$(LUA_CPATH="$tmp/ext/build/?.so;$LUA_CPATH" lua5.4 -e '
  local lied = require "lied"
  local res = lied.simulate(dofile "forced.lua", { stop = 1 }):run()
  local names = res:names()
  local row = { string.format("%.17g", res:column("time")[res:nrows()]) }
  for _, n in ipairs(names) do row[#row + 1] = string.format("%.17g", res:column(n)[res:nrows()]) end
  print(table.concat(row, ","))')
[ -n "$out1" ] && [ "$out1" = "$out2" ] || fail "the plugin through lied and lua5.4: '$out1' vs '$out2'"
# installed into the prefix, require finds it without LIED_PATH
cmake --install "$tmp/ext/build" >/dev/null
cd "$tmp" && cp "$src/examples/ext/forced.lua" . && "$prefix/bin/lied" run forced.lua --stop 0.1 >/dev/null ||
  fail "the plugin installed into the prefix"

# the same library through pkg-config lied-plugin
mkdir -p "$tmp/pc"
cc $(pkg-config --cflags lied-plugin) "$src/examples/ext/duffing.c" $(pkg-config --libs lied-plugin) \
  -o "$tmp/pc/duffing.so"
cd "$tmp/ext" && out3=$(LIED_PATH="$tmp/pc" "$prefix/bin/lied" run forced.lua --stop 1 | tail -1)
[ "$out3" = "$out1" ] || fail "pkg-config lied-plugin build"
# a plugin extending the thermofluid domain (examples/ext/tfext.c: a component and a
# medium on the installed lied/thermofluid.h), from the install's own copy of the
# examples: no file of the source tree from here on
doc=$(find "$prefix" -path '*/doc/lied/examples/ext' -type d | head -1)
[ -n "$doc" ] || fail "the examples are not installed"
for h in thermal mechanics mechanics_trig rotational signals thermofluid table; do
  [ -e "$prefix/include/lied/$h.h" ] || fail "not installed: include/lied/$h.h"
done
cp -r "$doc" "$tmp/ext2"
cd "$tmp/ext2" && rm -rf build
cmake -S . -B build -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build build >/dev/null
out=$(env -u LIED_SRC LIED_PATH="$tmp/ext2/build" "$prefix/bin/lied" coolant_check.lua) ||
  fail "the thermofluid plugin (CMake build) in the installed tree: $out"
echo "$out" | grep -q "^coolant: ok" || fail "coolant_check.lua: $out"
mkdir -p "$tmp/pc2"
cc -Wall -Werror $(pkg-config --cflags lied-plugin) tfext.c $(pkg-config --libs lied-plugin) \
  -o "$tmp/pc2/tfext.so"
out2=$(LIED_PATH="$tmp/pc2" "$prefix/bin/lied" coolant_check.lua) || fail "tfext by pkg-config: $out2"
[ "$out2" = "$out" ] || fail "tfext by pkg-config and by CMake: '$out2' vs '$out'"
LIED_PATH="$tmp/pc2" "$prefix/bin/lied" run coolant.lua --stop 10 --out none ||
  fail "lied run coolant.lua in the installed tree"
echo "install: ok"
