-- Validation of the signal blocks with a state (docs/signals.md), integrated
-- with rk4: FirstOrder's step response and free decay, the Integrator of a
-- Sine, against their closed forms.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"
local H = require "tests.models.signals"
local run = H.run

-- ---- FirstOrder: step response y = k (1 - exp(-t/T)) --------------------------
do
  local M = lied.model "Lag" {
    c = S.Constant { k = 1 }, lag = S.FirstOrder { k = 2, T = 0.4 },
    connect = { { "c.y", "lag.u" } },
  }
  local res = run(M, 3, 1e-3, "lag.y")
  local y, tt = T.column(res, "lag.y"), T.column(res, "time")
  local worst = 0
  for i = 1, #tt do worst = math.max(worst, math.abs(y[i] - 2 * (1 - math.exp(-tt[i] / 0.4)))) end
  T.check(#tt > 10 and worst < 1e-6, string.format("FirstOrder step response: error %.3g", worst))
  -- start value: y = x0 exp(-t/T) without input
  local Free = lied.model "Free" {
    c = S.Constant { k = 0 }, lag = S.FirstOrder { T = 0.5, x = 3 }, connect = { { "c.y", "lag.u" } },
  }
  res = run(Free, 1, 1e-3, "lag.y")
  y, tt = T.column(res, "lag.y"), T.column(res, "time")
  T.near(y[#y], 3 * math.exp(-tt[#tt] / 0.5), 1e-9, "FirstOrder free decay from x")
end

-- ---- Integrator of a Sine: y = x0 + k (1 - cos(w t)) / w ------------------------
do
  local w = 3
  local M = lied.model "Int" {
    s = S.Sine { w = w }, int = S.Integrator { k = 1.5, x = 0.25 }, connect = { { "s.y", "int.u" } },
  }
  local res = run(M, 4, 1e-3, "int.y")
  local y, tt = T.column(res, "int.y"), T.column(res, "time")
  local worst = 0
  for i = 1, #tt do
    worst = math.max(worst, math.abs(y[i] - (0.25 + 1.5 * (1 - math.cos(w * tt[i])) / w)))
  end
  T.check(worst < 1e-9, string.format("Integrator of a Sine: error %.3g", worst))
end

T.done()
