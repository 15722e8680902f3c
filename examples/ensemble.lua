-- examples/ensemble.lua: n crane crabs that differ: crab i's pendulum mass
-- and start angle are functions of its index (per-copy parameters), the
-- rest as examples/scaling.lua. The copies keep one structure, so they are
-- scheduled, chunked and run in lane form as identical ones.
--   lied run examples/ensemble.lua --set n=1000 --stop 1 --out none --stats
--   lied params examples/ensemble.lua 'crab[*].body2.m' --set n=4
local lied = require "lied"
local CraneCrab = require "cranecrab"

local Ensemble = lied.model "Ensemble" {
  doc = "n crane crabs with pendulum masses 0.5 .. 1 kg and start angles 0 .. 0.6 rad (parameter n)",
  parameters = { n = 8 },
  crab = lied.array(CraneCrab, lied.param "n", {
    ["body2.m"] = function(i, p) return 0.5 + 0.5 * (i - 1) / math.max(p.n - 1, 1) end,
    ["revolute2.phi"] = function(i) return 0.1 * ((i - 1) % 7) end,
  }),
  experiment = { stop = 10, dt = 1e-3, solver = "rk4" },
}

lied.main(Ensemble, { plot = { "crab[1].revolute2.phi", "crab[4].revolute2.phi", "crab[8].revolute2.phi" } })
return Ensemble
