-- Validation of the discrete blocks of lied.signals (docs/signals.md,
-- docs/events.md) against their definitions evaluated independently:
-- SampleHold, UnitDelay and DiscretePI on a ramp, Hysteresis on a sine
-- (switching times from asin), Pulse and TimeTable edges landed on.
local lied = require "lied"
local S = require "lied.signals"
local T = require "tests.testing"

-- rows of a result as {t, values...}, and the times that appear twice
local function cols(res, names)
  local c = { t = T.column(res, "time") }
  for _, n in ipairs(names) do c[n] = T.column(res, n) end
  return c
end

-- ---- SampleHold, UnitDelay, DiscretePI driven by u = t ---------------------------
do
  local P, t0 = 0.3, 0.1
  local M = lied.model "Sampled" {
    u = S.Ramp { height = 10, duration = 10 },
    sh = S.SampleHold { period = P, t0 = t0, y_start = -1 },
    ud = S.UnitDelay { period = P, t0 = t0, y_start = -2 },
    pi = S.DiscretePI { period = P, t0 = t0, k = 2, Ti = 0.5, x = 0.25 },
    connect = { { "u.y", "sh.u" }, { "u.y", "ud.u" }, { "u.y", "pi.u" } },
  }
  local res = lied.build(M):run { solver = "rk4", dt = 0.05, stop = 2, interval = 0.05,
                                  vars = "sh.y,ud.y,pi.y" }
  local c = cols(res, { "sh.y", "ud.y", "pi.y" })
  -- the exact samples: tick j at t0 + j P (j = 0, 1, ...), u there = the tick time
  local function tick(j) return t0 + j * P end
  -- the last tick at or before t; at a tick the first of its two rows is before it
  local function last(t, before)
    if t < t0 or (before and t == t0) then return -1 end
    local j = math.floor((t - t0) / P + 1e-9)
    if before and math.abs(tick(j) - t) < 1e-12 then j = j - 1 end
    return j
  end
  -- DiscretePI on e_j = tick(j): v_j = k e_j + x_j, x_{j+1} = x_j + P k/Ti e_j (no limits)
  local x, pis = 0.25, {}
  for j = 0, 10 do pis[j] = 2 * tick(j) + x; x = x + P * 2 / 0.5 * tick(j) end
  local worst, seen, twice = 0, {}, 0
  for i = 1, #c.t do
    local t = c.t[i]
    local before = not seen[t] and (i < #c.t and c.t[i + 1] == t)
    if seen[t] then twice = twice + 1 end
    seen[t] = true
    local j = last(t, before)
    local sh = j < 0 and -1 or tick(j)
    local ud = j < 1 and -2 or tick(j - 1)
    local pi = j < 0 and 0.25 or pis[j]
    worst = math.max(worst, math.abs(c["sh.y"][i] - sh), math.abs(c["ud.y"][i] - ud),
      math.abs(c["pi.y"][i] - pi))
  end
  T.check(worst < 1e-12, string.format("SampleHold, UnitDelay, DiscretePI: worst error %.3g", worst))
  T.eq(twice, 7, "two rows at each of the 7 sample times in [0, 2)")
end

-- ---- DiscretePI limits and anti-windup: constant error, yMax -------------------------
do
  local M = lied.model "Windup" {
    e = S.Constant { k = 1 },
    pi = S.DiscretePI { period = 0.1, k = 1, Ti = 1, yMax = 1.5 },
    connect = { { "e.y", "pi.u" } },
  }
  local res = lied.build(M):run { solver = "rk4", dt = 0.1, stop = 5, vars = "pi.y,pi.x" }
  local y, x = T.column(res, "pi.y"), T.column(res, "pi.x")
  -- x_{j+1} = x_j + 0.1 (1 + (y_j - v_j)), v_j = 1 + x_j: once limited,
  -- x_{j+1} = x_j + 0.1 (1.5 - x_j) -> 1.5, v - yMax -> k Tt/Ti |e| = 1 (as PI's)
  local xe, xj = 0, 0
  for j = 0, 49 do
    local v = 1 + xj
    xj = xj + 0.1 * (1 + (math.min(v, 1.5) - v))
  end
  xe = xj
  T.eq(y[#y], 1.5, "DiscretePI held at yMax")
  T.near(x[#x], xe, 1e-12, "DiscretePI: the integral part after 50 samples")
  T.check(x[#x] < 1.5, "DiscretePI: the integral part stays bounded")
end

-- ---- Hysteresis on u = sin(t): high above 0.5, low below -0.5 ----------------------
do
  local M = lied.model "Hyst" {
    u = S.Sine { amplitude = 1, w = 1 },
    h = S.Hysteresis { uLow = -0.5, uHigh = 0.5, yLow = -3, yHigh = 7 },
    connect = { { "u.y", "h.u" } },
  }
  local res = lied.build(M):run { solver = "dopri45", tol = 1e-10, stop = 13, vars = "h.y" }
  local t, y = T.column(res, "time"), T.column(res, "h.y")
  local sw = {}
  for i = 2, #t do if t[i] == t[i - 1] then sw[#sw + 1] = { t = t[i], b = y[i - 1], a = y[i] } end end
  -- rises through 0.5 at pi/6 + 2 k pi, falls through -0.5 at 7 pi/6 + 2 k pi
  local exact = { math.pi / 6, 7 * math.pi / 6, math.pi / 6 + 2 * math.pi, 7 * math.pi / 6 + 2 * math.pi }
  T.eq(#sw, 4, "Hysteresis switches four times in 13 s")
  for k = 1, math.min(#sw, 4) do
    T.near(sw[k].t, exact[k], 1e-8, "switch " .. k .. " time")
    T.eq(sw[k].b, k % 2 == 1 and -3 or 7, "switch " .. k .. ": output before")
    T.eq(sw[k].a, k % 2 == 1 and 7 or -3, "switch " .. k .. ": output after")
  end
end

-- ---- Hysteresis start state: u between the thresholds keeps high_start ---------
for _, hs in ipairs { 0, 1 } do
  local M = lied.model "HystStart" {
    u = S.Constant { k = 0.5 },
    h = S.Hysteresis { uLow = 0, uHigh = 1, yLow = -1, yHigh = 1, high_start = hs },
    connect = { { "u.y", "h.u" } },
  }
  local res = lied.build(M):run { solver = "rk4", dt = 0.1, stop = 0.3, vars = "h.y,h.high" }
  T.eq(T.column(res, "h.high")[1], hs, "Hysteresis high_start = " .. hs .. ": start state")
  T.eq(T.column(res, "h.y")[1], hs == 1 and 1 or -1, "Hysteresis high_start = " .. hs .. ": output")
end

-- ---- Pulse and TimeTable (events = true): every edge and breakpoint is a time event -----
do
  local M = lied.model "Edges" {
    p = S.Pulse { amplitude = 1, width = 30, period = 0.7, t0 = 0.2 },
    tt = S.TimeTable { table = { { 0, 0 }, { 0.33, 1 }, { 1.01, -1 } }, events = true },
    st = S.TimeTable { table = { { 0, 0 }, { 0.33, 1 }, { 1.01, -1 } }, interpolation = "constant" },
    i1 = S.Integrator {}, i2 = S.Integrator {}, i3 = S.Integrator {},
    connect = { { "p.y", "i1.u" }, { "tt.y", "i2.u" }, { "st.y", "i3.u" } },
  }
  -- rk4 at dt = 0.25 lands on every edge: the integrals are exact to rounding
  local res = lied.build(M):run { solver = "rk4", dt = 0.25, stop = 2, vars = "i1.y,i2.y,i3.y" }
  local a, b, c = T.column(res, "i1.y"), T.column(res, "i2.y"), T.column(res, "i3.y")
  -- pulses high over [0.2, 0.41), [0.9, 1.11), [1.6, 1.81): 3 x 0.21
  T.near(a[#a], 3 * 0.21, 1e-12, "integral of the pulse train")
  -- table: ramp 0 -> 1 over 0.33, 1 -> -1 over 0.68, then -1 for 0.99
  T.near(b[#b], 0.33 / 2 + 0 * 0.68 - 0.99, 1e-12, "integral of the time table")
  -- a staircase's rows are events without being asked: 0 until 0.33, 1 until 1.01, then -1
  T.near(c[#c], 0.68 - 0.99, 1e-12, "integral of the staircase")
  -- without events = true the kinks are not landed on: rk4 is off by far more than rounding
  local N = lied.model "Kinks" {
    tt = S.TimeTable { table = { { 0, 0 }, { 0.33, 1 }, { 1.01, -1 } } }, i2 = S.Integrator {},
    connect = { { "tt.y", "i2.u" } },
  }
  local r2 = lied.build(N):run { solver = "rk4", dt = 0.25, stop = 2, vars = "i2.y" }
  local d = T.column(r2, "i2.y")
  T.check(math.abs(d[#d] - (0.33 / 2 - 0.99)) > 1e-4, "the kinks are no events by default")
  T.eq(r2:nrows(), 9, "no rows of events: one per step of 0.25 s from 0 to 2")
end
T.done()
