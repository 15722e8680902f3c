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
--   4. Through the Compressor: a MassFlowSensor at its outlet, a PI setting
--      its speed. The compressor passes the flow in a block of its own
--      (`flow`, reading m alone), its speed changes the outlet's p and h
--      (`work`): the loop builds (it was refused while the compressor wrote
--      its whole outlet state in one block: ms (MassFlowSensor.measure) ->
--      comp (Compressor.work) -> pi), and at steady state the speed is the
--      one whose displacement, less the flow characteristic's share, is
--      the set flow: w = 2 pi (m + (p2 - p1) rho1/k)/(eta_v V_d rho1).
--   5. A discharge temperature read by the PI instead: T(p2, h2) depends on
--      the speed, a real loop, reported.
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
  e:run { stop = 600, solver = "esdirk23", tol = 1e-7 } -- at steady state to 1e-13 (1e-9: 6x the time)
  T.near(e:value("sh.y"), sh_set, 1e-4, "evaporator loop: the PI holds 5 K superheat")
  local mf, p = e:value("valve.m_flow"), e:value("evap.p")
  local h_out = R:h_pT(p, R:Tsat(p) + sh_set)
  T.near(e:value("evap.Q_flow"), mf * (h_out - h_in), 1e-4 * mf * (h_out - h_in),
    "evaporator loop: Q = m (h(p, Tsat + 5 K) - h_in) at steady state")
  local y = e:value("valve.y")
  T.check(y > 0.05 and y < 0.95, "evaporator loop: the valve controls, not at a limit: " .. y)
end

-- 4. mass flow through the compressor
local p1, T1, p2, m_set = 3e5, 285, 1e6, 0.01
local rho1 = R:rho_ph(p1, R:h_pT(p1, T1))
local function speed(m) return 2 * math.pi * (m + (p2 - p1) * rho1 / 1e11) / (0.9 * 2e-5 * rho1) end
-- the set flow steps from 0.9 m_set to m_set at t = 1 s (the start at the
-- steady state of the first: the compressor's flow characteristic is stiff)
local function CompLoop(sensor, set, k)
  return lied.model "CompLoop" {
    src = tf.Source { p0 = p1, T0 = T1, L = 1e5, m_flow = 0.9 * set, medium = R },
    comp = rf.Compressor { V_d = 2e-5, eta_v = 0.9, eta_s = 0.7, medium = R },
    s = sensor { medium = R },
    snk = tf.Sink { p0 = p2, medium = R },
    sp = S.Step { offset = 0.9 * set, height = 0.1 * set, t0 = 1 },
    err = S.Add { n = 2, k1 = -1, k2 = 1 }, -- set - y: faster when below
    pi = S.PI { k = k, Ti = 0.5, yMin = 0, yMax = 1000, x = speed(0.9 * set) },
    connect = {
      { "src.outlet", "comp.inlet" }, { "comp.outlet", "s.inlet" }, { "s.outlet", "snk.inlet" },
      { "s.y", "err.u1" }, { "sp.y", "err.u2" }, { "err.y", "pi.u" }, { "pi.y", "comp.speed" },
    },
  }
end
local okc, c = pcall(lied.build, CompLoop(tf.MassFlowSensor, m_set, 2e4))
T.check(okc, "R134a: mass flow sensor -> PI -> compressor speed builds: " .. tostring(okc or c))
if okc then
  c:run { stop = 20, solver = "esdirk23", tol = 1e-8 }
  T.near(c:value("s.y"), m_set, 1e-9, "compressor loop: the PI holds the set flow")
  local w = speed(m_set)
  T.near(c:value("comp.w"), w, 1e-6 * w, "compressor loop: w = 2 pi (m + (p2 - p1) rho1/k)/(eta_v V_d rho1)")
end

-- 5. the discharge temperature: a real loop through the speed
T.raises(function() lied.build(CompLoop(tf.TemperatureSensor, 330, 1)) end,
  { "algebraic loop without tearing", "comp (Compressor.work)", "s (TemperatureSensor.measure)" },
  "R134a: the discharge temperature depends on the speed", "model")

return T.done()
