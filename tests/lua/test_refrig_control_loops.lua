-- Refrigerant control loops on the expansion valve, without a filter
-- (docs/thermofluid.md, "What the blocks read and write"): the ExpansionValve
-- writes its outlet's pressure in one block and passes m_flow and h in
-- another, the refrigeration sensors read p and h (Tsat p alone).
--   1. R134a from a liquid source through the valve into an evaporating
--      Heater (a fixed Q), an EnthalpySensor at its outlet, a PI setting the
--      valve: the valve's opening changes only pressures, the Heater's h is a
--      state, so the loop builds; at steady state h_out = h_set and the flow
--      is m = Q/(h_set - h_in) (the valve isenthalpic), worked out here.
--   2. The same with a SuperheatSensor: T(p, h) - Tsat(p) reads the pressure
--      the valve sets through the Heater: a real algebraic loop, reported
--      with its members.
--   3. Superheat through a TwoPhaseCounterFlowHX (its refrigerant pressure a
--      state): the PI holds 5 K superheat; the exchanger's heat equals
--      m (h_out - h_in) at steady state.
local lied = require "lied"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local S = require "lied.signals"
local T = require "tests.testing"

local R = tf.R134a
local p_src, T_src, p_snk, Q = 8e5, 295, 2e5, 3000
local function HeaterLoop(sensor, set)
  local M = { medium = R }
  return lied.model "RefLoop" {
    src = tf.Source { p0 = p_src, T0 = T_src, L = 1e5, medium = R },
    valve = rf.ExpansionValve { A = 4e-6, medium = R },
    evap = tf.Heater { Q = Q, V = 1e-4, p0 = 3e5, T0 = 280, medium = R },
    s = sensor(M),
    ret = tf.PressureDrop { dp_ref = 1e3, v_ref = 1, medium = R },
    snk = tf.Sink { p0 = p_snk, medium = R },
    sp = S.Constant { k = set },
    err = S.Add { n = 2, k1 = 1, k2 = -1 }, -- y - set: open when above
    pi = S.PI { k = 2e-6, Ti = 5, yMin = 0, yMax = 1, x = 0.3 },
    connect = {
      { "src.outlet", "valve.inlet" }, { "valve.outlet", "evap.inlet" }, { "evap.outlet", "s.inlet" },
      { "s.outlet", "ret.inlet" }, { "ret.outlet", "snk.inlet" },
      { "s.y", "err.u1" }, { "sp.y", "err.u2" }, { "err.y", "pi.u" }, { "pi.y", "valve.opening" },
    },
  }
end

-- 1. the enthalpy loop
local h_in = R:h_pT(p_src, T_src)
local h_set = R:h_vap(3e5) + 1.5e4
local ok, m = pcall(lied.build, HeaterLoop(tf.EnthalpySensor, h_set))
T.check(ok, "R134a: enthalpy sensor -> PI -> expansion valve builds: " .. tostring(ok or m))
if ok then
  m:run { stop = 200, solver = "esdirk23", tol = 1e-9 }
  T.near(m:value("s.y"), h_set, 1e-3, "R134a loop: the evaporator's outlet at the set enthalpy")
  local mf = Q / (h_set - h_in)
  T.near(m:value("valve.m_flow"), mf, 1e-7 * mf, "R134a loop: m = Q/(h_set - h_in)")
  local y = m:value("valve.y")
  T.check(y > 0.05 and y < 0.95, "R134a loop: the valve controls, not at a limit: " .. y)
end

-- 2. superheat read behind the Heater: a real loop through the pressure
T.raises(function() lied.build(HeaterLoop(rf.SuperheatSensor, 5)) end,
  { "algebraic loop without tearing", "valve (ExpansionValve.pressure)", "s (SuperheatSensor.measure)" },
  "R134a: the superheat reads the pressure the valve sets through the Heater", "model")

-- 3. superheat at the outlet of a two-phase evaporator (its pressure a state)
local air = tf.gas { R = 287.05, cp = 1005.45 }
local sh_set = 5
local Evap = lied.model "RefEvap" {
  src = tf.Source { p0 = p_src, T0 = T_src, L = 1e5, medium = R },
  valve = rf.ExpansionValve { A = 4e-6, medium = R },
  evap = tf.TwoPhaseCounterFlowHX { N = 10, V_a = 2e-3, A_a = 4, UA_b = 1000, p0_a = 3e5, x0_a = 0.9,
                                    L = 1e4, m_flow = 0.02, medium_a = R, medium_b = air },
  sh = rf.SuperheatSensor { medium = R },
  snk = tf.Sink { p0 = 2.5e5, medium = R },
  air = tf.MassFlowSource { m_flow = 0.5, T0 = 303.15, p0 = 1e5, medium = air },
  air_out = tf.Sink { p0 = 1e5, medium = air },
  sp = S.Constant { k = sh_set },
  err = S.Add { n = 2, k1 = 1, k2 = -1 },
  pi = S.PI { k = 0.02, Ti = 10, yMin = 0, yMax = 1, x = 0.3 },
  connect = {
    { "src.outlet", "valve.inlet" }, { "valve.outlet", "evap.inlet_a" }, { "evap.outlet_a", "sh.inlet" },
    { "sh.outlet", "snk.inlet" }, { "air.outlet", "evap.inlet_b" }, { "evap.outlet_b", "air_out.inlet" },
    { "sh.y", "err.u1" }, { "sp.y", "err.u2" }, { "err.y", "pi.u" }, { "pi.y", "valve.opening" },
  },
}
local oke, e = pcall(lied.build, Evap)
T.check(oke, "R134a: superheat sensor -> PI -> expansion valve through the evaporator builds: " ..
  tostring(oke or e))
if oke then
  e:run { stop = 600, solver = "esdirk23", tol = 1e-9 }
  T.near(e:value("sh.y"), sh_set, 1e-4, "evaporator loop: the PI holds 5 K superheat")
  local mf, p = e:value("valve.m_flow"), e:value("evap.p")
  local h_out = R:h_pT(p, R:Tsat(p) + sh_set)
  T.near(e:value("evap.Q_flow"), mf * (h_out - h_in), 1e-4 * mf * (h_out - h_in),
    "evaporator loop: Q = m (h(p, Tsat + 5 K) - h_in) at steady state")
  local y = e:value("valve.y")
  T.check(y > 0.05 and y < 0.95, "evaporator loop: the valve controls, not at a limit: " .. y)
end

return T.done()
