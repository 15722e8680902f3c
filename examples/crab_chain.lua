-- examples/crab_chain.lua: n crane crabs in a row whose carts are linked to
-- their neighbours: crab i's cart (crab[i].prismatic1.frame_b) to crab
-- i+1's by a Spring (c = 100 N/m, zero unstretched length), i = 1 .. n-1,
-- declared as one connection pattern. Everything starts at rest; give it a
-- push with --set:
--   lied run examples/crab_chain.lua --set n=3 --set 'crab[1].prismatic1.v=1' --stop 2
--   lied run examples/crab_chain.lua --set n=65536 --stop 0.1 --out none --stats
local lied = require "lied"
local mech = require "lied.mechanics"
local CraneCrab = require "cranecrab"

local CrabChain = lied.model "CrabChain" {
  doc = "n crane crabs whose carts are linked to their neighbours by springs (parameters n, c)",
  parameters = { n = 3, c = 100 },
  crab = lied.array(CraneCrab, lied.param "n"),
  spring = lied.array(mech.Spring { c = lied.param "c" }, function(p) return math.max(p.n - 1, 0) end),
  connect = {
    lied.each(1, function(p) return p.n - 1 end,
      { "crab[i].prismatic1.frame_b", "spring[i].frame_a" },
      { "crab[i+1].prismatic1.frame_b", "spring[i].frame_b" }),
  },
  experiment = { stop = 10, dt = 1e-3, solver = "rk4" },
}

lied.main(CrabChain, { plot = { "crab[1].prismatic1.s", "crab[2].prismatic1.s", "crab[3].prismatic1.s" } })
return CrabChain
