-- tests/mpi/growth.lua: an ensemble of n growths der(x) = k x, x(0) = 1,
-- with per-copy rates: k = -1 except for copy `bad` (k = 1000, so x is not
-- finite after t = 0.71 with rk4). The error path of tests/mpi/test_mpi.sh:
-- a failure on the rank that holds copy `bad` ends every rank.
local lied = require "lied"
local signals = require "lied.signals"

local Growth = lied.model "Growth" {
  parameters = { k = -1 },
  int = signals.Integrator { x = 1, k = lied.param "k" },
  gain = signals.Gain { k = 1 },
  connect = { { "int.y", "gain.u" }, { "gain.y", "int.u" } },
}

return lied.model "Growths" {
  parameters = { n = 4, bad = 0 },
  g = lied.array(Growth, lied.param "n", {
    k = function(i, p) return i == p.bad and 1000 or -1 end,
  }),
  experiment = { stop = 1, dt = 1e-3, solver = "rk4" },
}
