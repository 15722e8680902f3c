-- examples/vapor_cycle.lua: a vapour-compression refrigeration cycle of R134a in the shape
-- of ThermoFluid Stream's VaporCycle example: a compressor, a condenser and an evaporator
-- of 10 cells each against air (TwoPhaseCounterFlowHX: the refrigerant's charge moves
-- between the cells), a receiver at the condenser's outlet (saturated liquid leaves it) and
-- an electronic expansion valve whose opening a PI controller sets to hold 5 K of superheat
-- at the evaporator's outlet. A second PI sets the compressor's speed (through a motor of
-- time constant 2 s) to hold the evaporator's air outlet at its setpoint. During 1,500 s:
-- the condenser's air inlet steps from 25 to 10 degC at t_air = 500 s, the air outlet
-- setpoint from 12 to 9 degC at t_set = 900 s, the condenser's air flow from 1 to 2 kg/s
-- at t_flow = 1,200 s (docs/refrigeration.md, "The vapour cycle example").
--   lied run examples/vapor_cycle.lua          CSV of pressures, flows, powers, charges
--   lied examples/vapor_cycle.lua [plot.png]   simulate, print COP, capacity, superheat and
--                                              subcooling before each step, and plot the
--                                              cycle on a log(p)-h diagram over the dome
local lied = require "lied"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local sig = require "lied.signals"
local R, air = tf.R134a, tf.air

-- start: the evaporator at 3 bar (quality 0.9), the condenser and the receiver at 11 bar
-- (half full of liquid), the compressor at 250 rad/s; the refrigerant's flow starts at the
-- compressor's displacement flow against the start pressures (its flow characteristic is
-- stiff: dp = k (m_disp - m)/rho1)
local pe0, xe0, pc0, w0, Vd, eta_v, k = 3e5, 0.9, 11e5, 250, 1e-4, 0.9, 1e11
local rho1 = R:rho_ph(pe0, R:h_liq(pe0) + xe0 * (R:h_vap(pe0) - R:h_liq(pe0)))
local m0 = eta_v * Vd * w0 / (2 * math.pi) * rho1 - (pc0 - pe0) * rho1 / k

local VaporCycle = lied.model "VaporCycle" {
  doc = "R134a vapour-compression cycle: compressor, condenser and evaporator against air, receiver, "
    .. "expansion valve holding 5 K superheat, compressor speed holding the air outlet temperature",
  parameters = { t_air = 500, t_set = 900, t_flow = 1200 },
  -- the refrigerant circuit
  evap = tf.TwoPhaseCounterFlowHX { N = 10, V_a = 4e-3, A_a = 4, UA_b = 1500, C_w = 4000, p0_a = pe0,
                                    x0_a = xe0, L = 1e4, m_flow = m0, medium_a = R, medium_b = air },
  sh = rf.SuperheatSensor { medium = R },
  comp = rf.Compressor { V_d = Vd, eta_s = 0.75, eta_v = eta_v, k = k, medium = R },
  cond = tf.TwoPhaseCounterFlowHX { N = 10, V_a = 3e-3, A_a = 4, UA_b = 1500, C_w = 4000, p0_a = pc0,
                                    x0_a = 0.4, L = 1e4, m_flow = m0, medium_a = R, medium_b = air },
  sc = rf.SubcoolingSensor { medium = R },
  rcv = rf.Receiver { V = 2e-3, p0 = pc0, level0 = 0.5, L = 1e4, m_flow = m0, medium = R },
  valve = rf.ExpansionValve { A = 5e-6, medium = R },
  -- the air: 0.8 kg/s at 30 degC through the evaporator; through the condenser 1 kg/s at
  -- 25 degC, stepping to 10 degC and to 2 kg/s
  evap_air = tf.MassFlowSource { m_flow = 0.8, T0 = 303.15, p0 = 1e5, medium = air },
  evap_air_T = tf.TemperatureSensor { medium = air },
  evap_air_out = tf.Sink { p0 = 1e5, medium = air },
  cond_air = tf.MassFlowSource { m_flow_from_input = 1, T0_from_input = 1, p0 = 1e5, medium = air },
  cond_air_out = tf.Sink { p0 = 1e5, medium = air },
  cond_air_T = sig.Step { offset = 298.15, height = -15, t0 = lied.param "t_air" },
  cond_air_m = sig.Step { offset = 1, height = 1, t0 = lied.param "t_flow" },
  -- superheat control: the valve's opening from PI(superheat - 5 K)
  sh_set = sig.Constant { k = 5 },
  sh_err = sig.Add { k1 = 1, k2 = -1 },
  sh_pi = sig.PI { k = 0.02, Ti = 10, yMin = 0, yMax = 1, x = 0.3 },
  -- capacity control: the compressor's speed from PI(air outlet - setpoint)
  T_set = sig.Step { offset = 285.15, height = -3, t0 = lied.param "t_set" },
  T_err = sig.Add { k1 = 1, k2 = -1 },
  speed_pi = sig.PI { k = 30, Ti = 20, yMin = 20, yMax = 600, x = w0 },
  motor = sig.FirstOrder { T = 2, x = w0 },
  connect = {
    { "evap.outlet_a", "sh.inlet" }, { "sh.outlet", "comp.inlet" }, { "comp.outlet", "cond.inlet_a" },
    { "cond.outlet_a", "sc.inlet" }, { "sc.outlet", "rcv.inlet" }, { "rcv.outlet", "valve.inlet" },
    { "valve.outlet", "evap.inlet_a" },
    { "evap_air.outlet", "evap.inlet_b" }, { "evap.outlet_b", "evap_air_T.inlet" },
    { "evap_air_T.outlet", "evap_air_out.inlet" },
    { "cond_air.outlet", "cond.inlet_b" }, { "cond.outlet_b", "cond_air_out.inlet" },
    { "cond_air_T.y", "cond_air.T0_in" }, { "cond_air_m.y", "cond_air.m_flow_in" },
    { "sh.y", "sh_err.u1" }, { "sh_set.y", "sh_err.u2" }, { "sh_err.y", "sh_pi.u" },
    { "sh_pi.y", "valve.opening" },
    { "evap_air_T.y", "T_err.u1" }, { "T_set.y", "T_err.u2" }, { "T_err.y", "speed_pi.u" },
    { "speed_pi.y", "motor.u" }, { "motor.y", "comp.speed" },
  },
  experiment = { stop = 1500, solver = "cvode", tol = 1e-6, interval = 1.5,
                 vars = "evap.p,cond.p,comp.m_flow,comp.P,evap.Q_flow,cond.Q_flow,sh.superheat,"
                   .. "sc.subcooling,valve.y,comp.w,rcv.level,evap_air_T.T,evap.M,cond.M,rcv.M" },
}

-- As the main script: simulate, print the cycle's figures before each step and at the end,
-- and draw the cycle at those times on a log(p)-h diagram over the saturation dome.
if lied.script and debug.getinfo(1, "S").source == "@" .. lied.script then
  local cyc = dofile((lied.script:match("^(.*)/[^/]*$") or ".") .. "/lib/refrig_cycle.lua")
  local cells = {}
  for i = 1, 10 do cells[#cells + 1] = "evap.h[" .. i .. "],cond.h[" .. i .. "]" end
  local sim = lied.simulate(VaporCycle, { vars = VaporCycle.experiment.vars
    .. ",comp.outlet.h,comp.outlet.p,evap.inlet_a.h,rcv.outlet.h,rcv.p," .. table.concat(cells, ",") })
  local run = cyc.run(sim, { "evap.M", "cond.M", "rcv.M" })
  io.write(string.format("VaporCycle: %d s of R134a in %.3f s of CPU (%.0f times real time), %d steps; "
    .. "charge %.4f kg kept to %.1e\n", math.floor(run.t_end + 0.5), run.cpu, run.t_end / run.cpu, run.steps,
    run.M0, run.dM))
  io.write(string.format("%8s %9s %9s %10s %10s %7s %10s %10s %9s\n", "t [s]", "p_e [bar]", "p_c [bar]",
    "Q_e [kW]", "P [kW]", "COP", "SH [K]", "SC [K]", "valve"))
  local series = { cyc.dome(R, 1e5) }
  for k, time in ipairs { 499.5, 899.5, 1199.5, run.t_end } do
    local v = run.at(time)
    local Qe, P = v("evap.Q_flow"), v("comp.P")
    io.write(string.format("%8.1f %9.4f %9.4f %10.4f %10.4f %7.4f %10.4f %10.4f %9.4f\n", v("time"), v("evap.p") / 1e5,
      v("cond.p") / 1e5, Qe / 1e3, P / 1e3, Qe / P, v("sh.superheat"), v("sc.subcooling"), v("valve.y")))
    -- the cycle: compressor outlet, the condenser's cells, the receiver's outlet, the
    -- valve's outlet, the evaporator's cells, back to the compressor's inlet
    series[#series + 1] = cyc.path(v, { { "comp.outlet.h", "comp.outlet.p" }, { "cond.h[%d]", "cond.p", 10 },
      { "rcv.outlet.h", "rcv.p" }, { "evap.inlet_a.h", "evap.p" }, { "evap.h[%d]", "evap.p", 10 },
      { "comp.outlet.h", "comp.outlet.p" } }, string.format("t = %g s", v("time")), k)
  end
  cyc.draw(series, arg and arg[1], "VaporCycle: R134a on the log(p)-h diagram")
end
return VaporCycle
