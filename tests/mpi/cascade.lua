-- tests/mpi/cascade.lua: n stages in a cascade, stage i's integrator fed by
-- its own output plus stage i-1's (stage 1: its own output twice). Coupled
-- arrays across ranks refuse it: an input takes exactly one link, so the
-- stages at the cut cannot keep theirs (docs/distributed.md).
local lied = require "lied"
local signals = require "lied.signals"

local Stage = lied.model "Stage" {
  int = signals.Integrator { x = 1, k = -1 },
  add = signals.Add {},
  connect = { { "int.y", "add.u1" }, { "add.y", "int.u" } },
}

return lied.model "Cascade" {
  parameters = { n = 7 },
  stage = lied.array(Stage, lied.param "n"),
  connect = {
    { "stage[1].int.y", "stage[1].add.u2" },
    lied.each(2, lied.param "n", { "stage[i-1].int.y", "stage[i].add.u2" }),
  },
  experiment = { stop = 0.05, dt = 1e-3, solver = "rk4" },
}
