-- Long names are never cut: variable lists, CSV headers, state names and
-- error paths hold them whole; nesting to 100 levels keeps every level.
local lied = require "lied"
local tl = require "lied.testlib"
local T = require "tests.testing"

local M = dofile("tests/models/long_names.lua")
local a = "a" .. string.rep("x", 149)
local b = "b" .. string.rep("y", 1099)
local built = lied.build(M)
local names, seen = {}, {}
for _, v in ipairs(built:vars()) do
  names[#names + 1] = v.name
  T.check(not seen[v.name], "variable names are unique: " .. v.name:sub(1, 40))
  seen[v.name] = true
end
T.check(seen[a .. "." .. b .. ".flange_a.s"], "the whole 1,264-character name is listed")
T.check(seen[a .. "2." .. b .. ".flange_a.v"], "the second copy's name too")

-- derivatives: one key per state, whole
local n = 0
for k in pairs(built:derivatives()) do
  n = n + 1
  T.check(#k < 1300 and (k:sub(1, #a) == a), "state name " .. k:sub(1, 30))
end
T.eq(n, built:info().states, "one derivative per state")

-- CSV header: every name once
local tmp = os.tmpname()
local res, st, err = built:run { stop = 0.01, out = tmp .. ".csv", vars = "*" }
T.check(err == nil, "run: " .. tostring(err))
local f = io.open(tmp .. ".csv")
local header = f:read("l")
f:close()
local cols, dup = {}, false
for c in header:gmatch("[^,]+") do dup = dup or cols[c]; cols[c] = true end
T.check(not dup, "no repeated CSV column")
T.check(cols[a .. "." .. b .. ".flange_a.s"], "CSV holds the whole long name")
os.remove(tmp .. ".csv")
os.remove(tmp)

-- 100 levels of nesting: an error path keeps its top levels
local m = tl.Gain {}
for i = 99, 1, -1 do m = lied.model("L" .. i) { ["n" .. i] = m } end
T.raises(function() return lied.build(m) end,
  { "unconnected input: n1.n2.n3.n4.n5.n6.n7.n8.n9.n10.", ".n98.n99.u" }, "deep path")
-- deeper than lied.flatten allows, through lied.core.build directly
local specs = { { name = "Deep", parent = 0 } }
for i = 2, 140 do specs[i] = { name = "c" .. i, parent = i - 1 } end
T.raises(function() return lied.core.build(specs) end, { "nested more than 127 levels" }, "core depth")

-- a long --vars item
local long = string.rep(a .. "." .. b .. ".flange_a.s,", 3) .. a .. "2." .. b .. ".flange_a.v"
local r2, _, e2 = built:run { stop = 0.01, vars = long }
T.check(e2 == nil and #r2:names() >= 2, "a --vars list of long names: " .. tostring(e2) .. " " .. #r2:names())
T.done()
