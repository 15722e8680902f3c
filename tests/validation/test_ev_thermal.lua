-- examples/ev_thermal.lua: the PI controller holds the battery near 308 K
-- over the drive cycle, the valve pair splits the coolant by the opening,
-- flows add up, and the battery's energy balance closes.
local lied = require "lied"
local T = require "tests.testing"

local EV = dofile("examples/ev_thermal.lua")
local sim = lied.simulate(EV, { interval = 1 })
local res = sim:run()
local function col(n) return assert(T.column(res, n)) end
local t, Tb, y = col("time"), col("battery.T"), col("v_rad.y")
local load, contact = col("load.Q_flow"), col("contact.Q_flow")
local pump, rad, byp = col("pump.m_flow"), col("v_rad.m_flow"), col("v_byp.m_flow")

local lo, hi = math.huge, -math.huge
for i = 1, #t do
  if t[i] >= 300 then lo, hi = math.min(lo, Tb[i]), math.max(hi, Tb[i]) end
  T.check(y[i] >= 0 and y[i] <= 1, "opening within [0, 1]")
  T.near(rad[i] + byp[i], pump[i], 1e-6, "branch flows add up to the pump flow")
end
print(string.format("battery after warm-up: %.2f .. %.2f K", lo, hi))
T.check(lo > 306 and hi < 310, string.format("battery within 2 K of 308 K after 300 s: %.2f .. %.2f", lo, hi))
T.check(hi > 308, "the load drives the battery above the setpoint, the controller answers")

-- fully open radiator valve: the bypass carries only its leakage (f = 1e-4 at
-- the same pressure drop as the open radiator valve: 1e-4 of its flow)
-- (after 20 s in that position: the flows have inertia)
local function held(i, v)
  for k = math.max(1, i - 20), i do if y[k] ~= v then return false end end
  return i > 20
end
local nopen, nclosed = 0, 0
for i = 1, #t do
  if held(i, 1) then
    T.near(byp[i] / rad[i], 1e-4, 1e-6, "open radiator: bypass leaks")
    nopen = nopen + 1
  end
  if held(i, 0) then
    T.near(rad[i] / byp[i], 1e-4, 1e-6, "closed radiator: radiator leaks")
    nclosed = nclosed + 1
  end
end
T.check(nopen > 0 and nclosed > 0, "the valves go both ways over the cycle")

-- battery: C der(T) = load - heat to the plate (trapezoidal rule on 1 s steps)
local E = 0
for i = 2, #t do
  E = E + 0.5 * (t[i] - t[i - 1]) * ((load[i] - contact[i]) + (load[i - 1] - contact[i - 1]))
end
T.near(3e5 * (Tb[#t] - Tb[1]), E, 2e-3 * math.abs(E) + 1e3, "battery energy balance")
T.done()
