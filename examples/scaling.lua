-- examples/scaling.lua: n independent crane crabs crab[1] .. crab[n], the
-- scaling experiment of seed 002 (1 to 4,194,304 crabs, factor 4).
--   lied run examples/scaling.lua --set n=262144 --stop 1 --out none --stats
--   lied info examples/scaling.lua --set n=1000
local lied = require "lied"
local CraneCrab = require "cranecrab"

local Scaling = lied.model "Scaling" {
  doc = "n independent crane crabs (parameter n)",
  parameters = { n = 1 },
  crab = lied.array(CraneCrab, lied.param "n"),
  experiment = { stop = 10, dt = 1e-3, solver = "rk4" },
}

lied.main(Scaling, { plot = { "crab[1].prismatic1.s", "crab[1].revolute2.phi" } })
return Scaling
