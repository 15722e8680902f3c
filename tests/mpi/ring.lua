-- tests/mpi/ring.lua: the crab chain closed into a ring (a pattern with
-- wrap = true links crab n to crab 1), which coupled arrays across ranks
-- refuse (docs/distributed.md).
local lied = require "lied"
local mech = require "lied.mechanics"
local CraneCrab = require "cranecrab"

return lied.model "Ring" {
  parameters = { n = 6 },
  crab = lied.array(CraneCrab, lied.param "n"),
  spring = lied.array(mech.Spring { c = 100 }, lied.param "n"),
  connect = {
    lied.each({ i = { 1, lied.param "n" }, wrap = true },
      { "crab[i].prismatic1.frame_b", "spring[i].frame_a" },
      { "crab[i+1].prismatic1.frame_b", "spring[i].frame_b" }),
  },
  experiment = { stop = 0.01, dt = 1e-3, solver = "rk4" },
}
