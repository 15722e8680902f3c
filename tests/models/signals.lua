-- tests/models/signals.lua: helpers of the signal-library validation tests
-- (tests/validation/test_signal_*.lua).
local lied = require "lied"

local M = {}

-- The values of the output ports y of `names` at time t (a model without
-- states involved: one evaluation).
function M.at(model, t, names)
  local b = lied.build(model)
  b:derivatives(t)
  local r = {}
  for _, v in ipairs(names) do r[v] = b:value(v .. ".y") end
  return r
end

-- Run `model` with rk4 at step dt, output every 10 steps.
function M.run(model, stop, dt, vars)
  return lied.build(model):run { stop = stop, dt = dt, interval = dt * 10, solver = "rk4", vars = vars }
end

-- The largest |column(name)[i] - f(time[i])| of a result.
function M.worst(res, name, f)
  local y, tt = res:column(name), res:column("time")
  local w = 0
  for i = 1, #tt do w = math.max(w, math.abs(y[i] - f(tt[i]))) end
  return w, #tt
end

return M
