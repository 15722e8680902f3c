-- tests/mpi/balls.lua: an ensemble with state events (docs/distributed.md,
-- "Events"), for tests/mpi/test_mpi.sh: n bouncing balls with per-copy
-- restitution. One process stops every ball at every ball's impact; a rank
-- would stop only at its own balls' impacts, so mpirun with several
-- processes refuses it before running.
local lied = require "lied"
local pm = require "lied.mechanics"

return lied.model "Balls" {
  parameters = { n = 4 },
  ball = lied.array(pm.BouncingBall, lied.param "n", {
    y = 1, v = 0, g = 9.81, e = function(i) return 0.5 + 0.1 * i end,
  }),
  experiment = { stop = 1, solver = "rk4", dt = 1e-3, interval = 0.1 },
}
