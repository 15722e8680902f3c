-- tests/mpi/hub.lua: crab 1 linked to every other crab by a spring (a copy
-- that every copy reads), which coupled arrays across ranks refuse
-- (docs/distributed.md).
local lied = require "lied"
local mech = require "lied.mechanics"
local CraneCrab = require "cranecrab"

return lied.model "Hub" {
  parameters = { n = 6 },
  crab = lied.array(CraneCrab, lied.param "n"),
  spring = lied.array(mech.Spring { c = 100 }, function(p) return p.n - 1 end),
  connect = {
    lied.each(2, lied.param "n",
      { "crab[1].prismatic1.frame_b", "spring[i-1].frame_a" },
      { "crab[i].prismatic1.frame_b", "spring[i-1].frame_b" }),
  },
  experiment = { stop = 0.01, dt = 1e-3, solver = "rk4" },
}
