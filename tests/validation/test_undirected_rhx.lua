-- Validation of the undirected two-phase exchangers (lied.undirected
-- TwoPhaseCounterFlowHX, TwoPhaseCrossFlowHX; docs/thermofluid.md, "Undirected
-- two-phase exchangers"):
-- 1. forwards, a condenser of R134a against air reaches the steady state of the
--    directed exchanger of the same parameters (lied.thermofluid, rhx.c), counter and
--    cross flow: heat flows, pressure, charge and every cell's temperature to 1e-7;
-- 2. with both streams reversed (the boundaries' pressures swapped) it mirrors the
--    forward run: the same heat, pressure and charge, cell i at cell N+1-i's temperature,
--    the flows negative;
-- 3. in a closed refrigerant loop whose pump is driven back and forth (the flow through
--    the exchanger reverses, evaporating with warm air), the charge of the exchanger and
--    the volume is kept to rounding and their energy changes by the heat the exchanger
--    takes in (integrated by a signals.Integrator), to rounding.
local lied = require "lied"
local tf = require "lied.thermofluid"
local tfu = require "lied.undirected"
local sig = require "lied.signals"
local T = require "tests.testing"
local R, air = tf.R134a, tf.air

local function last(res, name)
  local c = T.column(res, name)
  return c[#c]
end
local N = 6
local ph, pl, Tin = 10e5, 9.8e5, 333.15 -- superheated vapour in (T_sat(10 bar) = 312.5 K)
local pah, pal, Ta = 1.002e5, 1e5, 293.15
local function hx_par(extra)
  local t = { N = N, V_a = 1e-3, A_a = 2, UA_b = 800, C_w = 2000, p0_a = 9.9e5, x0_a = 0.5,
              medium_a = R, medium_b = air }
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end
local vars = "hx.p,hx.Q_flow,hx.Q_b,hx.T_b,hx.M"
for i = 1, N do vars = vars .. ",hx.T[" .. i .. "]" end
local exp = { stop = 400, solver = "cvode", tol = 1e-9, interval = 400 }

local function directed(kind)
  local HX = kind == "cross" and tf.TwoPhaseCrossFlowHX or tf.TwoPhaseCounterFlowHX
  local e = {}
  for k, v in pairs(exp) do e[k] = v end
  e.vars = vars .. ",hx.m_flow"
  return lied.model "Directed" {
    a = tf.Source { p0 = ph, T0 = Tin, L = 1e4, medium = R },
    d1 = tf.LinearQuadraticDrop { k1 = 5e5, medium = R },
    hx = HX(hx_par()),
    d2 = tf.LinearQuadraticDrop { k1 = 5e5, medium = R },
    b = tf.Sink { p0 = pl, L = 1e4, medium = R },
    aa = tf.Source { p0 = pah, T0 = Ta, L = 1e3, medium = air },
    da = tf.LinearQuadraticDrop { k1 = 400, medium = air },
    ab = tf.Sink { p0 = pal, medium = air },
    connect = { { "a.outlet", "d1.inlet" }, { "d1.outlet", "hx.inlet_a" }, { "hx.outlet_a", "d2.inlet" },
                { "d2.outlet", "b.inlet" }, { "aa.outlet", "da.inlet" }, { "da.outlet", "hx.inlet_b" },
                { "hx.outlet_b", "ab.inlet" } },
    experiment = e,
  }
end
-- rev: the refrigerant and the air enter at the fore ports (the high pressures there)
local function undirected(kind, rev)
  local HX = kind == "cross" and tfu.TwoPhaseCrossFlowHX or tfu.TwoPhaseCounterFlowHX
  local e = {}
  for k, v in pairs(exp) do e[k] = v end
  e.vars = vars .. ",hx.m_flow,hx.rear_a.m_flow,hx.rear_b.m_flow"
  return lied.model "Undirected" {
    a = tfu.BoundaryRear { p0 = rev and pl or ph, T0 = Tin, L = 1e4, medium = R },
    d1 = tfu.LinearQuadraticDrop { k1 = 5e5, medium = R },
    hx = HX(hx_par()),
    d2 = tfu.LinearQuadraticDrop { k1 = 5e5, medium = R },
    b = tfu.BoundaryFore { p0 = rev and ph or pl, T0 = Tin, L = 1e4, medium = R },
    aa = tfu.BoundaryRear { p0 = rev and pal or pah, T0 = Ta, L = 1e3, medium = air },
    da = tfu.LinearQuadraticDrop { k1 = 400, medium = air },
    ab = tfu.BoundaryFore { p0 = rev and pah or pal, T0 = Ta, L = rev and 1e3 or 0, medium = air },
    connect = { { "a.fore", "d1.rear" }, { "d1.fore", "hx.rear_a" }, { "hx.fore_a", "d2.rear" },
                { "d2.fore", "b.rear" }, { "aa.fore", "da.rear" }, { "da.fore", "hx.rear_b" },
                { "hx.fore_b", "ab.rear" } },
    experiment = e,
  }
end

-- ---- 1. and 2. ---------------------------------------------------------------------------
for _, kind in ipairs { "counter", "cross" } do
  local d = lied.simulate(directed(kind)):run()
  local f = lied.simulate(undirected(kind, false)):run()
  local r = lied.simulate(undirected(kind, true)):run()
  local m = last(f, "hx.m_flow")
  T.check(m > 0.015 and m < 0.025, kind .. ": the forward flow " .. m)
  T.check(last(d, "hx.T[" .. N .. "]") < 313 and last(d, "hx.T[1]") < Tin - 10, kind .. ": the vapour cooled and condensing")
  for _, v in ipairs { "hx.p", "hx.Q_flow", "hx.Q_b", "hx.T_b", "hx.M", "hx.m_flow" } do
    local a, b = last(d, v), last(f, v)
    T.near(b, a, 1e-7 * math.abs(a), kind .. ": forwards " .. v .. " as the directed exchanger")
  end
  for i = 1, N do
    local v = "hx.T[" .. i .. "]"
    T.near(last(f, v), last(d, v), 1e-7 * last(d, v), kind .. ": forwards " .. v)
    T.near(last(r, "hx.T[" .. (N + 1 - i) .. "]"), last(f, v), 1e-7 * last(f, v),
           kind .. ": rearwards, cell " .. (N + 1 - i) .. " mirrors cell " .. i)
  end
  for _, v in ipairs { "hx.p", "hx.Q_flow", "hx.Q_b", "hx.T_b", "hx.M" } do
    T.near(last(r, v), last(f, v), 1e-7 * math.abs(last(f, v)), kind .. ": rearwards " .. v)
  end
  T.near(last(r, "hx.rear_a.m_flow"), -m, 1e-7 * m, kind .. ": rearwards the flow leaves at rear_a")
  T.near(last(r, "hx.rear_b.m_flow"), -last(f, "hx.rear_b.m_flow"), 1e-7, kind .. ": the air reversed")
  T.near(last(f, "hx.Q_flow"), last(f, "hx.Q_b"), 1e-6 * math.abs(last(f, "hx.Q_b")),
         kind .. ": at steady state the refrigerant's heat is the air's")
  io.write(string.format("%s: m = %.6f kg/s, Q = %.3f W, p = %.2f Pa; directed Q = %.3f W, reversed Q = %.3f W\n",
    kind, m, last(f, "hx.Q_flow"), last(f, "hx.p"), last(d, "hx.Q_flow"), last(r, "hx.Q_flow")))
end

-- ---- 3. a closed loop whose flow reverses ------------------------------------------------
local Loop = lied.model "Loop" {
  hx = tfu.TwoPhaseCounterFlowHX(hx_par { p0_a = 4e5, x0_a = 0.3, T0_w = 300 }),
  pump = tfu.Pump { k_p = 1e9, V_r = 2e-6, omega_from_input = 1, L = 1e5, medium = R },
  w = sig.Sine { amplitude = 300, f = 0.02 },
  v = tfu.Volume { V = 2e-3, p0 = 4e5, x0 = 0.3, medium = R },
  d = tfu.LinearQuadraticDrop { k1 = 1e6, L = 1e5, medium = R },
  aa = tfu.BoundaryRear { p0 = pah, T0 = 313.15, L = 1e3, medium = air },
  ab = tfu.BoundaryFore { p0 = pal, T0 = Ta, medium = air },
  da = tfu.LinearQuadraticDrop { k1 = 2000, medium = air },
  heat = sig.Integrator { k = 1 },
  connect = { { "hx.fore_a", "pump.rear" }, { "pump.fore", "v.rear" }, { "v.fore", "d.rear" },
              { "d.fore", "hx.rear_a" }, { "w.y", "pump.omega_in" }, { "aa.fore", "da.rear" },
              { "da.fore", "hx.rear_b" }, { "hx.fore_b", "ab.rear" }, { "hx.Q_out", "heat.u" } },
  experiment = { stop = 100, solver = "cvode", tol = 1e-8, interval = 0.5,
                 vars = "hx.M,v.M,hx.U,v.U,heat.y,hx.m_flow,hx.rear_a.m_flow,hx.Q_flow,hx.p" },
}
local res = lied.simulate(Loop):run()
local M1, M2, U1, U2, Q = T.column(res, "hx.M"), T.column(res, "v.M"), T.column(res, "hx.U"),
  T.column(res, "v.U"), T.column(res, "heat.y")
local mf = T.column(res, "hx.m_flow")
local M0, E0 = M1[1] + M2[1], U1[1] + U2[1]
local dM, dE, mmin, mmax, Qmax = 0, 0, 0, 0, 0
for k = 1, #M1 do
  dM = math.max(dM, math.abs(M1[k] + M2[k] - M0) / M0)
  dE = math.max(dE, math.abs(U1[k] + U2[k] - Q[k] - E0) / math.abs(E0))
  mmin, mmax, Qmax = math.min(mmin, mf[k]), math.max(mmax, mf[k]), math.max(Qmax, math.abs(Q[k]))
end
T.check(mmin < -1e-3 and mmax > 1e-3, string.format("the loop's flow reverses (%.4g .. %.4g kg/s)", mmin, mmax))
T.check(Qmax > 0.05 * math.abs(E0), "the air's heat turns over a good part of the energy: " .. Qmax)
T.check(dM < 1e-12, "charge kept through the reversals: " .. dM)
T.check(dE < 1e-12, "energy changes by the heat taken in: " .. dE)
io.write(string.format("loop: flow %.4f .. %.4f kg/s, heat in %.1f J of %.1f J; charge to %.1e, energy to %.1e\n",
  mmin, mmax, Q[#Q], E0, dM, dE))
T.done()
