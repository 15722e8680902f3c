-- The results in memory have one column per variable, in the order of first
-- appearance, however many names and patterns of the selection select it
-- ('j.*,j.s' gave j.s twice): res:names(), the columns, the row width.
local lied = require "lied"
local T = require "tests.testing"

local Osc = dofile("tests/models/osc.lua")
local b = lied.build(Osc)
local all = T.names(b:run { stop = 0.1, vars = "j.*" }, 14)
local function same_names(got, want, what)
  T.eq(#got, #want, what .. ": the number of columns")
  for i = 1, math.max(#got, #want) do T.eq(got[i], want[i], what .. ": column " .. i) end
end
-- a pattern, then a name it selected: the pattern's columns
local res = b:run { stop = 0.1, vars = "j.*,j.s" }
same_names(T.names(res), all, "j.*,j.s")
-- the name first: it leads, the pattern adds the rest once
local want = { "j.s" }
for _, n in ipairs(all) do if n ~= "j.s" then want[#want + 1] = n end end
res = b:run { stop = 0.1, vars = "j.s,j.*,j.s,j.*" }
same_names(T.names(res), want, "j.s,j.*,j.s,j.*")
-- the columns hold the values: j.s's column is the one of j.s alone
local alone = b:run { stop = 0.1, vars = "j.s" }
local s1, s2 = T.column(res, "j.s"), T.column(alone, "j.s")
T.eq(#s1, #s2, "j.s: the rows")
for i = 1, #s2 do T.eq(s1[i], s2[i], "j.s: row " .. i) end
-- two overlapping patterns and a name twice
res = b:run { stop = 0.1, vars = "j.flange_*,j.*_a.*,j.v,j.v" }
same_names(T.names(res), { "j.flange_a.s", "j.flange_a.v", "j.flange_a.a", "j.flange_a.f",
  "j.flange_b.s", "j.flange_b.v", "j.flange_b.a", "j.flange_b.f", "j.v" }, "overlapping patterns")
T.done()
