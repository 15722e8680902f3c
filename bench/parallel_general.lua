-- bench/parallel_general.lua: n crane crabs and one integrator outside the
-- array, which makes the schedule general (neither replicated nor chunked),
-- for bench/parallel's threads on the general schedule. cranecrab.lua is in
-- examples/: bench/parallel sets LIED_PATH=examples.
--   LIED_PATH=examples lied info bench/parallel_general.lua --set n=1000
local lied = require "lied"
local signals = require "lied.signals"
local CraneCrab = require "cranecrab"
return lied.model "General" {
  doc = "n independent crane crabs and one integrator outside the array (parameter n)",
  parameters = { n = 1 },
  crab = lied.array(CraneCrab, lied.param "n"),
  c = signals.Constant { k = 1 }, i = signals.Integrator {},
  connect = { { "c.y", "i.u" } },
  experiment = { stop = 10, dt = 1e-3, solver = "rk4" },
}
