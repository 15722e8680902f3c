-- Validation of examples/thermostat.lua (a Hysteresis switching a heater,
-- docs/events.md): the switching times against the closed form. Between
-- switches the mass follows C dT/dt = Q - G (T - Ta), an exponential towards
-- Ta + Q/G with time constant C/G, so the time from T1 to T2 is
-- (C/G) ln((Tinf - T1) / (Tinf - T2)). Each switch is two rows at one time
-- (before, after), the heat flow jumping between them.
local lied = require "lied"
local T = require "tests.testing"

local Model = dofile("examples/thermostat.lua")
local C, G, Ta, P, T0, Ton, Toff = 41840, 50, 283.15, 2000, 293.15, 313.15, 318.15
local tau = C / G

-- the exact switching times up to `stop`
local function exact(stop)
  local ts, t, T1, on = {}, 0, T0, true
  while true do
    local Tinf = on and Ta + P / G or Ta
    local T2 = on and Toff or Ton
    t = t + tau * math.log((Tinf - T1) / (Tinf - T2))
    if t > stop then return ts end
    ts[#ts + 1] = t
    T1, on = T2, not on
  end
end

-- the switching times of a result: the times that appear in two rows, with
-- the heat flow before and after
local function switches(res)
  local t, q = T.column(res, "time"), T.column(res, "heater.Q_flow")
  local out = {}
  for i = 2, #t do
    if t[i] == t[i - 1] then out[#out + 1] = { t = t[i], before = q[i - 1], after = q[i] } end
  end
  return out
end

local ref = exact(5000)
T.eq(#ref, 10, "ten switches in 5000 s (closed form)")

local function check(opts, rel, tag)
  opts.vars = "mass.T,heater.Q_flow"
  local res = lied.build(Model):run(opts)
  local sw = switches(res)
  T.eq(#sw, #ref, tag .. ": number of switches")
  local worst = 0
  for i = 1, math.min(#sw, #ref) do
    worst = math.max(worst, math.abs(sw[i].t - ref[i]) / ref[i])
    local on_before = i % 2 == 1 -- the heater is on at the start
    T.eq(sw[i].before, on_before and P or 0, tag .. ": heat flow before switch " .. i)
    T.eq(sw[i].after, on_before and 0 or P, tag .. ": heat flow after switch " .. i)
  end
  T.check(worst < rel, string.format("%s: switching times within %g relative (worst %.3g)",
    tag, rel, worst))
  return res
end

check({ solver = "dopri45", tol = 1e-10, stop = 5000 }, 1e-6, "dopri45 tol 1e-10")
-- rk4 at dt = 1 s: the crossings fall inside steps and are located there
local res = check({ solver = "rk4", dt = 1, stop = 5000 }, 1e-3, "rk4 dt 1")
local t = T.column(res, "time")
local off_grid = 0
for i = 2, #t do if t[i] == t[i - 1] and t[i] ~= math.floor(t[i]) then off_grid = off_grid + 1 end end
T.eq(off_grid, 10, "rk4: every switch lies between grid points")
-- the grid is taken up again after each switch: the rows at the output interval stay
for i = 1, #t do
  if t[i] > 4000 and t[i] < 4010 then T.eq(t[i], math.floor(t[i] * 1e6 + 0.5) / 1e6, "grid row " .. t[i]) end
end
check({ solver = "esdirk23", tol = 1e-8, stop = 5000 }, 1e-5, "esdirk23 tol 1e-8")
-- cvode (when lied was built with SUNDIALS)
if pcall(function() lied.build(Model):run { solver = "cvode", stop = 1, out = "none" } end) then
  check({ solver = "cvode", tol = 1e-9, stop = 5000 }, 1e-5, "cvode tol 1e-9")
end
-- steady and linearize at the start values run the handlers' initial call,
-- then hold the discrete variables: the heater stays on, T -> Ta + P/G
do
  local b = lied.build(Model)
  local st = b:steady {}
  T.near(st.states["mass.T"], Ta + P / G, 1e-9, "steady state with the heater held on")
  T.eq(b:value("switch.high"), 0, "the hysteresis is in its initial (low, heater on) state")
  local l = b:linearize {}
  T.near(l.A[1][1], -G / C, 1e-9, "linearised: der(T) = -G/C T + ...")
end
T.done()
