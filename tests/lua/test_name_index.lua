-- Reading columns by name is linear in their number (issue 47, item 7): the
-- result keeps a name -> column index, built at the first lookup (it
-- searched the names for every column: reading all of 16,000 columns by
-- name was quadratic). The property itself, checked directly: the index is
-- the result's user value, holds every recorded name once, the first of a
-- repeated name, and gives the column the name's position gives. (The
-- embedding API's growth in bytes: tests/embed/test_embed.c.)
local lied = require "lied"
local T = require "tests.testing"
local S = require "lied.signals"

local M = lied.model "Many" { c = lied.array(S.Constant, 3000, { k = function(i) return i end }) }
local r = lied.build(M):run { stop = 1, interval = 0.5, vars = "*" }
local names = r:names()
T.check(#names >= 3000, "columns: " .. #names)
T.eq(debug.getuservalue(r, 1), nil, "no index before the first lookup")
T.eq(r:column(names[1])[3], r:column(1)[3], "a column by name and by position")
local index = debug.getuservalue(r, 1)
T.eq(type(index), "table", "the index is kept with the result")
local n, bad = 0, 0
for name, i in pairs(index) do
  n = n + 1
  if names[i + 1] ~= name then bad = bad + 1 end
end
T.eq(n, #names, "every name in the index")
T.eq(bad, 0, "each name gives its column")
for i = 1, #names, 97 do
  local c = r:column(names[i])
  T.eq(c[3], r:column(i)[3], "column " .. names[i])
end
T.eq(debug.getuservalue(r, 1), index, "one index for every lookup")
local miss, msg = r:column("c[1].nope")
T.check(miss == nil and msg:find("'c[1].nope' was not recorded", 1, true), "a name not recorded: " .. tostring(msg))
T.done()
