-- tests/mpi/pairs.lua: n crabs linked in pairs, crab 2i - 1 to crab 2i by
-- spring i (n / 2 springs): an index that steps by 2, and arrays of lengths
-- n and n / 2, which coupled arrays across ranks refuse
-- (docs/distributed.md).
local lied = require "lied"
local mech = require "lied.mechanics"
local CraneCrab = require "cranecrab"

return lied.model "Pairs" {
  parameters = { n = 6 },
  crab = lied.array(CraneCrab, lied.param "n"),
  spring = lied.array(mech.Spring { c = 100 }, function(p) return p.n // 2 end),
  connect = {
    lied.each(1, function(p) return p.n // 2 end,
      { "crab[2*i-1].prismatic1.frame_b", "spring[i].frame_a" },
      { "crab[2*i].prismatic1.frame_b", "spring[i].frame_b" }),
  },
  experiment = { stop = 0.01, dt = 1e-3, solver = "rk4" },
}
