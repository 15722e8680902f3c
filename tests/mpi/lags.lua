-- tests/mpi/lags.lua: an ensemble with time events under mpirun
-- (docs/distributed.md, "Events"), for tests/mpi/test_mpi.sh: n first-order
-- lags with per-copy time constants, driven by steps at one time t0 = 0.2505
-- for every copy (a time event between rk4's grid points, so each rank cuts
-- its steps there as one process does): the same bits on any number of
-- ranks. dt0 > 0 moves copy i's step to t0 + i dt0: the ranks' event times
-- differ, and the run stops with the rank and the times.
local lied = require "lied"
local signals = require "lied.signals"

local Lag = lied.model "Lag" {
  parameters = { t0 = 0.2505, T = 1 },
  step = signals.Step { height = 1, t0 = lied.param "t0" },
  lag = signals.FirstOrder { T = lied.param "T" },
  connect = { { "step.y", "lag.u" } },
}

return lied.model "Lags" {
  parameters = { n = 6, dt0 = 0 },
  c = lied.array(Lag, lied.param "n", {
    T = function(i) return 0.1 * i end,
    t0 = function(i, p) return 0.2505 + p.dt0 * i end,
  }),
  experiment = { stop = 0.5, solver = "rk4", dt = 1e-3, interval = 0.05 },
}
