-- Validation of the controllers (docs/signals.md), integrated with rk4: PI
-- anti-windup (the output held at the limit, the integral part bounded, the
-- recovery at once) and the PID on a ramp, against closed forms.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"
local H = require "tests.models.signals"
local run = H.run

-- ---- PI anti-windup: constant error 1 until t = 5, then -1 -----------------------
-- k = 1, Ti = 1, Tt = 1, yMax = 1.5, yMin = -1.5, x(0) = 0. Unlimited while
-- v = 1 + x < 1.5: x = t up to t = 0.5; then y = 1.5 and
-- der(x) = 1 + (1.5 - (1 + x)) = 1.5 - x: x = 1.5 - exp(-(t - 0.5)) (without
-- anti-windup x would reach 5). At t = 5 the error turns to -1:
-- v = -1 + x5 < 1.5, the output leaves the limit at once and falls with
-- der(x) = -1 until it reaches yMin at t = 5 + x5 + 0.5.
do
  local M = lied.model "Windup" {
    e = S.Step { offset = 1, height = -2, t0 = 5 },
    pi = S.PI { k = 1, Ti = 1, Tt = 1, yMax = 1.5, yMin = -1.5 },
    connect = { { "e.y", "pi.u" } },
  }
  local dt = 1e-3
  local res = run(M, 8, dt, "pi.y,pi.x")
  local y, x, tt = T.column(res, "pi.y"), T.column(res, "pi.x"), T.column(res, "time")
  local x5 = 1.5 - math.exp(-4.5)
  local function exact(t)
    if t <= 0.5 then return 1 + t, t end
    if t < 5 then local xi = 1.5 - math.exp(-(t - 0.5)); return 1.5, xi end
    local xi = x5 - (t - 5)
    if -1 + xi >= -1.5 then return -1 + xi, xi end
    -- limited below: der(x) = -1 + (-1.5 - (-1 + x)) = -1.5 - x
    local t2 = 5 + x5 + 0.5
    local xl = -1.5 + (-0.5 + 1.5) * math.exp(-(t - t2))
    return -1.5, xl
  end
  -- The Step is a time event at t = 5 (docs/events.md): two rows there, the
  -- values just before the switch and just after.
  local before, after, held, rows5 = 0, 0, true, 0
  for i = 1, #tt do
    local ye, xe = exact(tt[i])
    if tt[i] == 5 then
      rows5 = rows5 + 1
      if rows5 == 1 then ye, xe = exact(5 - 1e-12) end -- the left limit
    end
    local err = math.max(math.abs(y[i] - ye), math.abs(x[i] - xe))
    if tt[i] < 5 or rows5 == 1 and tt[i] == 5 then before = math.max(before, err) else after = math.max(after, err) end
    if tt[i] > 0.6 and (tt[i] < 5 or rows5 == 1 and tt[i] == 5) and y[i] ~= 1.5 then held = false end
  end
  T.eq(rows5, 2, "two rows at the switch time")
  T.check(held, "PI: the output stays at yMax while the error stays positive")
  T.check(before < 1e-8, string.format("PI up to the switch: error %.3g", before))
  -- After the switch the only loss of order is the kink where the output
  -- reaches yMin (inside a step, not an event).
  T.check(after < 1e-7, string.format("PI after the switch: error %.3g", after))
  -- limited below, x tends to -1.5 (v - yMin = k Tt/Ti |e| = 1), not to -infinity
  T.check(x[#x] > -1.5 and x[#x] < -1.1, "PI: the integral part stays bounded at the lower limit too")
  -- recovery: the output left the limit right after the switch
  for i = 1, #tt do
    if tt[i] > 5.05 and tt[i] < 5.1 then T.check(y[i] < 1.5 - 0.04, "PI leaves yMax at once") break end
  end
end

-- ---- PID: ramp error e = t, unlimited ------------------------------------------------
-- y = k e + k/Ti t^2/2 + k Td (1 - exp(-Nd t/Td)) (filtered derivative of a ramp)
do
  local k, Ti, Td, Nd = 2, 0.5, 0.2, 5
  local M = lied.model "Pid" {
    e = S.Ramp { height = 10, duration = 10 },
    pid = S.PID { k = k, Ti = Ti, Td = Td, Nd = Nd },
    connect = { { "e.y", "pid.u" } },
  }
  local res = run(M, 2, 1e-3, "pid.y")
  local y, tt = T.column(res, "pid.y"), T.column(res, "time")
  local worst = 0
  for i = 1, #tt do
    local t = tt[i]
    local ye = k * t + k / Ti * t * t / 2 + k * Td * (1 - math.exp(-Nd * t / Td))
    worst = math.max(worst, math.abs(y[i] - ye))
  end
  T.check(worst < 1e-8, string.format("PID on a ramp: error %.3g", worst))
  -- limited: the output never leaves [yMin, yMax]
  local L = lied.model "PidL" {
    e = S.Sine { amplitude = 3, f = 0.5 },
    pid = S.PID { k = 4, Ti = 0.3, Td = 0.1, yMax = 2, yMin = -1 },
    connect = { { "e.y", "pid.u" } },
  }
  res = run(L, 4, 1e-3, "pid.y")
  local lo, hi = math.huge, -math.huge
  for _, v in ipairs(T.column(res, "pid.y")) do lo, hi = math.min(lo, v), math.max(hi, v) end
  T.check(lo == -1 and hi == 2, string.format("PID limited to [-1, 2]: [%g, %g]", lo, hi))
end

T.done()
