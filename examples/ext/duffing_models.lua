-- duffing_models: Lua composites of the duffing library (the C components
-- are in duffing.c): a Duffing oscillator driven by a sine force.
local lied = require "lied"
local duffing = require "duffing"
local signals = require "lied.signals"

local M = {}

-- Forced {amplitude, w, m, d, k, k3}: a sine force on an oscillator.
M.Forced = lied.model "Forced" {
  doc = "a Duffing oscillator driven by F sin(w t)",
  parameters = { F = 0.5, w = 1.2 },
  force = signals.Sine { amplitude = lied.param "F", w = lied.param "w" },
  osc = duffing.Oscillator { m = 1, d = 0.2, k = 1, k3 = 5, x = 0.1 },
  connect = { { "force.y", "osc.u" } },
  experiment = { stop = 20, dt = 1e-3, solver = "rk4", vars = "osc.*" },
}

return M
