-- A control loop through an undirected two-phase exchanger (lied.undirected
-- TwoPhaseCounterFlowHX; docs/thermofluid.md, "What the blocks read and
-- write"): R134a condensing on side a, air on side b through a Valve; a
-- TemperatureSensor on the air leaving the exchanger feeds a PI that sets
-- the valve's opening, with no filter. The valve changes only the air's
-- pressures; the exchanger passes stream b's pressures in blocks of their
-- own (pressure_b, pressure_back_b) and its passes read the inflow's h (the
-- air's T and cp do not depend on p), so the loop has no algebraic part and
-- builds. Before (the exchanger reading b's whole state), it was refused:
-- "algebraic loop without tearing: ... valve (Valve.forwards) -> hx
-- (TwoPhaseCounterFlowHX.forwards_b) -> ts (TemperatureSensor.measure) ...".
-- At steady state the sensor reads the set point (the PI's integral), the
-- heat the air takes is its flow times its enthalpy rise, and the valve is
-- between its limits.
local lied = require "lied"
local tf = require "lied.thermofluid"
local tfu = require "lied.undirected"
local S = require "lied.signals"
local T = require "tests.testing"
local R, air = tf.R134a, tf.air
local T_set, T_air = 308, 293.15

local M = lied.model "CondenserLoop" {
  a = tfu.BoundaryRear { p0 = 10e5, T0 = 333.15, L = 1e4, medium = R },
  d1 = tfu.LinearQuadraticDrop { k1 = 5e5, medium = R },
  hx = tfu.TwoPhaseCounterFlowHX { N = 6, V_a = 1e-3, A_a = 2, UA_b = 800, C_w = 2000,
                                   p0_a = 9.9e5, x0_a = 0.5, medium_a = R, medium_b = air },
  d2 = tfu.LinearQuadraticDrop { k1 = 5e5, medium = R },
  b = tfu.BoundaryFore { p0 = 9.8e5, T0 = 333.15, L = 1e4, medium = R },
  aa = tfu.BoundaryRear { p0 = 1.02e5, T0 = T_air, L = 1e3, medium = air },
  valve = tfu.Valve { Kv = 300, medium = air },
  ts = tfu.TemperatureSensor { medium = air },
  hs = tfu.EnthalpySensor { medium = air },
  hi = tfu.EnthalpySensor { medium = air },
  ab = tfu.BoundaryFore { p0 = 1e5, T0 = T_air, medium = air },
  sp = S.Constant { k = T_set },
  err = S.Add { n = 2, k1 = 1, k2 = -1 }, -- T - T_set: too warm opens the valve
  pi = S.PI { k = 0.05, Ti = 20, yMin = 0, yMax = 1 },
  connect = {
    { "a.fore", "d1.rear" }, { "d1.fore", "hx.rear_a" }, { "hx.fore_a", "d2.rear" }, { "d2.fore", "b.rear" },
    { "aa.fore", "hi.rear" }, { "hi.fore", "valve.rear" }, { "valve.fore", "hx.rear_b" },
    { "hx.fore_b", "ts.rear" }, { "ts.fore", "hs.rear" }, { "hs.fore", "ab.rear" },
    { "ts.y", "err.u1" }, { "sp.y", "err.u2" }, { "err.y", "pi.u" }, { "pi.y", "valve.opening" },
  },
}
local ok, m = pcall(lied.build, M)
T.check(ok, "the air's leaving temperature sets the air valve through the exchanger: builds: " ..
  tostring(ok or m))
if ok then
  local res, _, err = m:run { stop = 1500, solver = "cvode", tol = 1e-9, interval = 500,
    vars = "ts.y,valve.m_flow,valve.y,hx.Q_b,hx.T_b,hs.y,hi.y" }
  T.check(not err, "runs: " .. tostring(err))
  local n = res:nrows()
  local function last(v) return res:column(v)[n] end
  T.near(last("ts.y"), T_set, 1e-5, "the air leaves at the set point")
  T.near(last("hx.T_b"), T_set, 1e-5, "the exchanger's T_b is what the sensor reads")
  local Qair = last("valve.m_flow") * (last("hs.y") - last("hi.y"))
  T.near(-last("hx.Q_b"), Qair, 1e-5 * math.abs(Qair), "the air takes Q_b: m (h_out - h_in)")
  local y = last("valve.y")
  T.check(y > 0.05 and y < 0.95, "the valve controls, not at a limit: " .. y)
end
T.done()
