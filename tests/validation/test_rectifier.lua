-- A half-wave rectifier with the ideal diode (lied.electrical, docs/electrical.md):
-- a sine source Vs sin(w t), a series resistance Rs, an ideal diode (Ron = Goff = 0), a
-- smoothing capacitor C with a load RL. Against the piecewise closed form written here:
--   conducting: C v' = (Vs sin(w t) - v)/Rs - v/RL, so with a = (1/Rs + 1/RL)/C,
--     b = Vs/(Rs C): v = K exp(-a (t - t0)) + P sin(w t) + Q cos(w t),
--     P = a b/(a^2 + w^2), Q = -w b/(a^2 + w^2), K from v(t0); it stops conducting when
--     its current (Vs sin(w t) - v)/Rs falls through 0;
--   blocking: v = v(t1) exp(-(t - t1)/(RL C)); it conducts again when Vs sin(w t) - v rises
--     through 0.
-- The switching instants of the closed form are found by bisection to the last bits. Each
-- event of the run (two rows at one time) must be within 1e-9 s of its instant, the voltage
-- within 1e-8 Vs everywhere, with dopri45 (tol 1e-12) and esdirk23 (tol 1e-10); the diode's
-- mode changes at every instant and nowhere else.
local lied = require "lied"
local el = require "lied.electrical"
local S = require "lied.signals"
local T = require "tests.testing"

local Vs, f, Rs, C, RL = 10, 50, 1, 1e-3, 100
local w = 2 * math.pi * f
local M = lied.model "Rectifier" {
  gnd = el.Ground {}, sine = S.Sine { amplitude = Vs, f = f },
  src = el.VoltageSource {}, rs = el.Resistor { R = Rs }, m = el.Node {},
  d = el.Diode { Ron = 0, Goff = 0 }, c = el.Capacitor { C = C }, rl = el.Resistor { R = RL },
  connect = { { "sine.y", "src.u" }, { "src.n", "gnd.p" }, { "src.p", "rs.p" }, { "rs.n", "m.p" },
              { "d.p", "m.p" }, { "d.n", "c.p" }, { "c.n", "gnd.p" }, { "rl.p", "c.p" },
              { "rl.n", "gnd.p" } },
}

-- the closed form
local a, b = (1 / Rs + 1 / RL) / C, Vs / (Rs * C)
local Pc, Qc = a * b / (a * a + w * w), -w * b / (a * a + w * w)
local function conducting(t0, v0)
  local K = v0 - Pc * math.sin(w * t0) - Qc * math.cos(w * t0)
  return function(t) return K * math.exp(-a * (t - t0)) + Pc * math.sin(w * t) + Qc * math.cos(w * t) end
end
local function blocking(t1, v1)
  return function(t) return v1 * math.exp(-(t - t1) / (RL * C)) end
end
-- the first time after lo (up to hi) at which g changes from positive to <= 0, by scanning
-- then bisecting to adjacent doubles
local function first_fall(g, lo, hi)
  local step = 1e-5
  local t = lo + step
  while t < hi and g(t) > 0 do t = t + step end
  if t >= hi then return nil end
  local x, y = t - step, t
  while true do
    local mid = (x + y) / 2
    if mid <= x or mid >= y then return y end
    if g(mid) > 0 then x = mid else y = mid end
  end
end
local stop = 0.1
local pieces, instants = {}, {}
do
  local t0, v0, on = 0, 0, true -- at t = 0 the source rises from v = 0: it conducts at once
  while t0 < stop do
    local v = on and conducting(t0, v0) or blocking(t0, v0)
    local g = on and function(t) return (Vs * math.sin(w * t) - v(t)) / Rs end
        or function(t) return v(t) - Vs * math.sin(w * t) end
    local te = first_fall(g, t0, stop) or stop
    pieces[#pieces + 1] = { t0 = t0, t1 = te, v = v }
    if te < stop then instants[#instants + 1] = te end
    t0, v0, on = te, v(te), not on
  end
end
local function ref(t)
  for _, p in ipairs(pieces) do if t <= p.t1 then return p.v(t) end end
  return pieces[#pieces].v(t)
end

for _, solver in ipairs { { "dopri45", 1e-12 }, { "esdirk23", 1e-10 } } do
  local res = lied.simulate(M, { stop = stop, interval = 1e-3, solver = solver[1], tol = solver[2],
                                 vars = "c.v,d.on,d.i" }):run()
  local t, v, on = res:column("time"), res:column("c.v"), res:column("d.on")
  local events = {}
  for i = 2, #t do
    if t[i] == t[i - 1] and on[i] ~= on[i - 1] then events[#events + 1] = t[i] end
  end
  -- the diode starts blocking at t = 0 (s = 0 there) and conducts from the first step on
  if events[1] and events[1] < 1e-12 then table.remove(events, 1) end
  T.eq(#events, #instants, solver[1] .. ": one event per switching instant")
  local worst_t = 0
  for k = 1, math.min(#events, #instants) do
    worst_t = math.max(worst_t, math.abs(events[k] - instants[k]))
  end
  local worst_v = 0
  for i = 1, #t do worst_v = math.max(worst_v, math.abs(v[i] - ref(t[i])) / Vs) end
  print(string.format("%-9s %d instants, worst %.3g s; voltage %.3g Vs", solver[1], #instants,
    worst_t, worst_v))
  T.check(worst_t < 1e-9, solver[1] .. ": switching instants within 1e-9 s: " .. worst_t)
  T.check(worst_v < 1e-8,
    solver[1] .. ": capacitor voltage: " .. worst_v)
end
T.check(#instants >= 8, "the rectifier switches " .. #instants .. " times in 0.1 s")

T.done()
