-- Validation of lied.refrigeration's Compressor and CompressorMap
-- (docs/refrigeration.md, "Compressor") against a hand calculation from the
-- equation of state itself (tf.X:eos_pT, no table of lied's): a compressor
-- between a suction reservoir and a discharge sink, at steady state, its flow
-- from the suction density, its outlet enthalpy and power from the isentropic
-- rise, for each refrigerant; the shaft's power against the stream's; maps
-- read at the pressure ratio and the speed; zero speed.
local lied = require "lied"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local S = require "lied.signals"
local rot = require "lied.rotational"
local T = require "tests.testing"

-- T at (p, s) or (p, h) on the equation of state, by bisection in T
local function T_where(f, p, key, v, lo, hi)
  for _ = 1, 200 do
    local m = 0.5 * (lo + hi)
    if f:eos_pT(p, m)[key] < v then lo = m else hi = m end
  end
  return 0.5 * (lo + hi)
end

-- the hand calculation: suction (p1, T1), discharge pressure p2, speed w
local function by_hand(f, c, p1, T1, p2, w, eta_s, eta_v)
  local e1 = f:eos_pT(p1, T1)
  local m = eta_v * c.V_d * w / (2 * math.pi) * e1.rho - (p2 - p1) * e1.rho / c.k
  local Thi = f:range().T_hi
  local T2s = T_where(f, p2, "s", e1.s, T1, Thi)
  local h2s = f:eos_pT(p2, T2s).h
  local h2 = e1.h + (h2s - e1.h) / eta_s -- tanh(w/w_small) = 1 to rounding here
  return { m = m, h1 = e1.h, h2s = h2s, h2 = h2, P = m * (h2 - e1.h), T2 = T_where(f, p2, "h", h2, T2s - 1, Thi) }
end

local cases = {
  { "R134a", tf.R134a, 3e5, 280, 1.2e6 },
  { "R1234yf", tf.R1234yf, 3.5e5, 280, 1.1e6 },
  { "R290", tf.R290, 5e5, 280, 1.6e6 },
  { "R744", tf.R744, 3.5e6, 280, 9e6 },
}
local C = { V_d = 2e-5, k = 1e11, eta_s = 0.68, eta_v = 0.87 }
local W = 300
for _, cs in ipairs(cases) do
  local n, f, p1, T1, p2 = cs[1], cs[2], cs[3], cs[4], cs[5]
  local h = by_hand(f, C, p1, T1, p2, W, C.eta_s, C.eta_v)
  local M = lied.model "Open" {
    src = tf.Source { p0 = p1, T0 = T1, L = 1e4, m_flow = h.m, medium = f },
    w = S.Constant { k = W },
    comp = rf.Compressor { V_d = C.V_d, k = C.k, eta_s = C.eta_s, eta_v = C.eta_v, medium = f },
    snk = tf.Sink { p0 = p2, medium = f },
    connect = { { "src.outlet", "comp.inlet" }, { "comp.outlet", "snk.inlet" }, { "w.y", "comp.speed" } },
  }
  local m = lied.build(M)
  m:run { stop = 0.01, solver = "cvode", tol = 1e-10 }
  T.near(m:value("comp.m_flow"), h.m, 1e-6 * h.m, n .. ": flow from the suction density")
  T.near(m:value("comp.pr"), p2 / p1, 1e-9, n .. ": the pressure ratio of the reservoirs")
  T.near(m:value("comp.h2s"), h.h2s, 1e-6 * h.h2s, n .. ": the isentropic outlet h(p2, s1)")
  T.near(m:value("comp.dh"), h.h2 - h.h1, 1e-6 * (h.h2 - h.h1), n .. ": the enthalpy rise (h2s - h1)/eta_s")
  T.near(m:value("comp.P"), h.P, 1e-6 * h.P, n .. ": the power m dh")
  T.near(m:value("comp.T2"), h.T2, 1e-6 * h.T2, n .. ": the discharge temperature")
  T.near(m:value("comp.torque") * W, h.P, 1e-6 * h.P, n .. ": torque w = P")
end

-- on a shaft: the speed from a rotational Speed node, the shaft's power is the stream's
do
  local f = tf.R134a
  local h = by_hand(f, { V_d = C.V_d, k = 1e11 }, 3e5, 280, 1.2e6, 250, 0.7, 0.9)
  local M = lied.model "Shaft" {
    src = tf.Source { p0 = 3e5, T0 = 280, L = 1e4, m_flow = h.m, medium = f },
    comp = rf.Compressor { V_d = C.V_d, eta_s = 0.7, eta_v = 0.9, shaft = 1, medium = f },
    snk = tf.Sink { p0 = 1.2e6, medium = f },
    shaft = rot.Speed { w_ref = 250, w = 250, T = 0.01 },
    connect = { { "src.outlet", "comp.inlet" }, { "comp.outlet", "snk.inlet" }, { "shaft.flange", "comp.flange" } },
  }
  local m = lied.build(M)
  m:run { stop = 0.01, solver = "cvode", tol = 1e-10 }
  T.near(m:value("comp.w"), 250, 1e-12, "shaft: the speed of the node")
  T.near(m:value("comp.m_flow"), h.m, 1e-6 * h.m, "shaft: the flow at the shaft's speed")
  T.near(m:value("shaft.P"), m:value("comp.P"), 1e-9 * h.P, "shaft: the node delivers the stream's power (as to turbo's machines)")
  T.near(m:value("comp.P"), h.P, 1e-6 * h.P, "shaft: the power")
end

-- maps: eta_s(pr, w) at the outlet's ratio, eta_v(pr_v, w) at the lagged ratio
do
  local f = tf.R290
  local es = lied.table { x1 = { 2, 3, 5 }, x2 = { 100, 400 }, z = { { 0.72, 0.66 }, { 0.70, 0.64 }, { 0.60, 0.58 } } }
  local ev = lied.table { x1 = { 2, 3, 5 }, x2 = { 100, 400 }, z = { { 0.95, 0.93 }, { 0.90, 0.88 }, { 0.80, 0.79 } } }
  local pr, a, b = 1.6e6 / 5e5, (3.2 - 3) / 2, (300 - 100) / 300
  local function bil(a, z00, z01, z10, z11) return (1 - a) * ((1 - b) * z00 + b * z01) + a * ((1 - b) * z10 + b * z11) end
  local eta_s, eta_v = bil(a, 0.70, 0.64, 0.60, 0.58), bil(a, 0.90, 0.88, 0.80, 0.79)
  local h = by_hand(f, { V_d = C.V_d, k = 1e11 }, 5e5, 280, 1.6e6, W, eta_s, eta_v)
  local M = lied.model "Map" {
    parameters = { m0 = 0 },
    src = tf.Source { p0 = 5e5, T0 = 280, L = 1e4, m_flow = lied.param "m0", medium = f },
    w = S.Constant { k = W },
    comp = rf.CompressorMap { V_d = C.V_d, eta_s_map = es, eta_v_map = ev, T_pr = 0.01, pr_v = 3.1, medium = f },
    snk = tf.Sink { p0 = 1.6e6, medium = f },
    connect = { { "src.outlet", "comp.inlet" }, { "comp.outlet", "snk.inlet" }, { "w.y", "comp.speed" } },
  }
  -- pr_v from 3.1, the flow started at its eta_v (a consistent start): eta_v moves the
  -- flow through the stiff characteristic as pr_v settles
  local m = lied.build(M, { m0 = h.m * bil(0.05, 0.90, 0.88, 0.80, 0.79) / eta_v })
  m:run { stop = 0.2, solver = "cvode", tol = 1e-10 }
  -- bilinear by hand at pr = 3.2, w = 300: between pr 3 and 5, w 100 and 400
  T.near(m:value("comp.pr"), pr, 1e-9, "map: pressure ratio")
  T.near(m:value("comp.pr_v"), pr, 1e-6, "map: the lagged ratio reached the ratio")
  T.near(m:value("comp.eta_s_used"), eta_s, 1e-12, "map: eta_s bilinear at (pr, w)")
  T.near(m:value("comp.eta_v_used"), eta_v, 1e-6, "map: eta_v bilinear at (pr_v, w)")
  T.near(m:value("comp.m_flow"), h.m, 1e-6 * h.m, "map: the flow")
  T.near(m:value("comp.P"), h.P, 1e-6 * h.P, "map: the power")
end

-- zero speed: no work, the discharge held back; the leak back through it is dp rho1/k
do
  local f = tf.R134a
  local M = lied.model "Stopped" {
    src = tf.Source { p0 = 3e5, T0 = 280, L = 1e4, medium = f },
    w = S.Constant { k = 0 }, -- from rest: no flow, no pressure rise
    comp = rf.Compressor { V_d = C.V_d, medium = f },
    snk = tf.Sink { p0 = 1.2e6, medium = f },
    connect = { { "src.outlet", "comp.inlet" }, { "comp.outlet", "snk.inlet" }, { "w.y", "comp.speed" } },
  }
  local m = lied.build(M)
  local res, _, err = m:run { stop = 0.01, solver = "cvode", tol = 1e-10, vars = "comp.m_flow,comp.P,comp.torque,comp.dh" }
  T.check(not err, "zero speed runs: " .. tostring(err))
  local rho1 = f:rho_pT(3e5, 280)
  T.near(m:value("comp.m_flow"), -(1.2e6 - 3e5) * rho1 / 1e11, 1e-9 * 1e-4, "zero speed: the leak back is dp rho1/k")
  T.eq(m:value("comp.dh"), 0, "zero speed: no enthalpy rise")
  T.eq(m:value("comp.P"), 0, "zero speed: no power")
  local finite = true
  for _, v in ipairs { "comp.m_flow", "comp.P", "comp.torque" } do
    for _, x in ipairs(T.column(res, v)) do finite = finite and x == x and math.abs(x) < math.huge end
  end
  T.check(finite, "zero speed: no NaN in the results")
end

T.done()
