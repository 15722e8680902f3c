-- tests/mpi/lengths.lua: n integrators in a cascade, int[i].y feeding
-- int[i+1].u, int[1].u fed by src[1], an array of one constant: arrays of
-- lengths that differ by more than the patterns' offsets, which coupled
-- arrays across ranks refuse (docs/distributed.md).
local lied = require "lied"
local signals = require "lied.signals"

return lied.model "Lengths" {
  parameters = { n = 7 },
  int = lied.array(signals.Integrator { x = 1, k = -1 }, lied.param "n"),
  src = lied.array(signals.Constant { k = 1 }, 1),
  connect = {
    { "src[1].y", "int[1].u" },
    lied.each(1, function(p) return p.n - 1 end, { "int[i].y", "int[i+1].u" }),
  },
  experiment = { stop = 0.05, dt = 1e-3, solver = "rk4" },
}
