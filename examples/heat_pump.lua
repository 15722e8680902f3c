-- examples/heat_pump.lua: an air-to-water heat pump of R290 (propane) heating a water loop:
-- a compressor, a condenser of 10 cells against the heating water (TwoPhaseCounterFlowHX:
-- the refrigerant's charge moves between the cells), a liquid line (a linear drop: it damps
-- the flow's oscillation between condenser and receiver), a receiver (saturated liquid
-- leaves it), an electronic expansion valve whose opening a PI controller
-- sets to hold 5 K of superheat at the outlet of the evaporator, 10 cells against the
-- outdoor air. A second PI sets the compressor's speed (through a motor of time constant
-- 2 s) to hold the water's supply temperature at its set point. The heating circuit's water
-- (0.3 kg/s) returns from the house 5 K below the set point (a return-temperature
-- boundary). During 1,500 s: the outdoor air steps from 7 to 2 degC at t_air = 500 s (the
-- rating points A7/W35 and A2/W35 of EN 14511), the supply set point from 35 to 45 degC (and
-- the return with it) at t_set = 1,000 s (A2/W45) (docs/refrigeration.md, "The heat pump
-- example"). Solver: cvode (the compressor's flow characteristic makes the circuit stiff).
--   lied run examples/heat_pump.lua            CSV of pressures, flows, powers, charges
--   lied examples/heat_pump.lua [plot.png]     simulate, print COP, heating capacity,
--                                              superheat and subcooling before each step
--                                              and at the end, and plot the cycle on a
--                                              log(p)-h diagram over R290's dome
local lied = require "lied"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local sig = require "lied.signals"
local R, air, water = tf.R290, tf.air, tf.water

-- start: the evaporator at 4.5 bar (quality 0.9), the condenser and the receiver at 13 bar
-- (half full of liquid), the compressor at 300 rad/s; the refrigerant's flow starts at the
-- compressor's displacement flow against the start pressures (its flow characteristic is
-- stiff: dp = k (m_disp - m)/rho1)
local pe0, xe0, pc0, w0, Vd, eta_v, k = 4.5e5, 0.9, 13e5, 300, 4e-5, 0.9, 1e11
local rho1 = R:rho_ph(pe0, R:h_liq(pe0) + xe0 * (R:h_vap(pe0) - R:h_liq(pe0)))
local m0 = eta_v * Vd * w0 / (2 * math.pi) * rho1 - (pc0 - pe0) * rho1 / k

local HeatPump = lied.model "HeatPump" {
  doc = "R290 air-to-water heat pump: compressor, condenser against the heating water, receiver, "
    .. "expansion valve holding 5 K superheat, evaporator against outdoor air, compressor speed "
    .. "holding the water supply temperature",
  parameters = { t_air = 500, t_set = 1000 },
  -- the refrigerant circuit
  evap = tf.TwoPhaseCounterFlowHX { N = 10, V_a = 2e-3, A_a = 3, UA_b = 1200, C_w = 3000, p0_a = pe0,
                                    x0_a = xe0, L = 1e4, m_flow = m0, medium_a = R, medium_b = air },
  sh = rf.SuperheatSensor { medium = R },
  comp = rf.Compressor { V_d = Vd, eta_s = 0.7, eta_v = eta_v, k = k, medium = R },
  cond = tf.TwoPhaseCounterFlowHX { N = 10, V_a = 1.5e-3, A_a = 2, UA_b = 1500, C_w = 3000, p0_a = pc0,
                                    x0_a = 0.4, L = 1e4, m_flow = m0, medium_a = R, medium_b = water },
  sc = rf.SubcoolingSensor { medium = R },
  line = tf.LinearQuadraticDrop { k1 = 2e5, k2 = 0, medium = R },
  rcv = rf.Receiver { V = 1.5e-3, p0 = pc0, level0 = 0.5, L = 1e4, m_flow = m0, medium = R },
  valve = rf.ExpansionValve { A = 1.5e-6, medium = R },
  -- the outdoor air: 0.8 kg/s at 7 degC through the evaporator, stepping to 2 degC
  evap_air = tf.MassFlowSource { m_flow = 0.8, T0_from_input = 1, p0 = 1e5, medium = air },
  evap_air_out = tf.Sink { p0 = 1e5, medium = air },
  T_out = sig.Step { offset = 280.15, height = -5, t0 = lied.param "t_air" },
  -- the heating water: 0.3 kg/s returning 5 K below the supply set point
  water_in = tf.MassFlowSource { m_flow = 0.3, T0_from_input = 1, p0 = 2e5, medium = water },
  supply_T = tf.TemperatureSensor { medium = water },
  water_out = tf.Sink { p0 = 2e5, medium = water },
  T_ret = sig.Step { offset = 303.15, height = 10, t0 = lied.param "t_set" },
  -- superheat control: the valve's opening from PI(superheat - 5 K)
  sh_set = sig.Constant { k = 5 },
  sh_err = sig.Add { k1 = 1, k2 = -1 },
  sh_pi = sig.PI { k = 0.02, Ti = 10, yMin = 0, yMax = 1, x = 0.4 },
  -- capacity control: the compressor's speed from PI(set point - supply temperature)
  T_set = sig.Step { offset = 308.15, height = 10, t0 = lied.param "t_set" },
  T_err = sig.Add { k1 = 1, k2 = -1 },
  speed_pi = sig.PI { k = 30, Ti = 20, yMin = 20, yMax = 900, x = w0 },
  motor = sig.FirstOrder { T = 2, x = w0 },
  connect = {
    { "evap.outlet_a", "sh.inlet" }, { "sh.outlet", "comp.inlet" }, { "comp.outlet", "cond.inlet_a" },
    { "cond.outlet_a", "sc.inlet" }, { "sc.outlet", "line.inlet" }, { "line.outlet", "rcv.inlet" }, { "rcv.outlet", "valve.inlet" },
    { "valve.outlet", "evap.inlet_a" },
    { "evap_air.outlet", "evap.inlet_b" }, { "evap.outlet_b", "evap_air_out.inlet" },
    { "T_out.y", "evap_air.T0_in" },
    { "water_in.outlet", "cond.inlet_b" }, { "cond.outlet_b", "supply_T.inlet" },
    { "supply_T.outlet", "water_out.inlet" }, { "T_ret.y", "water_in.T0_in" },
    { "sh.y", "sh_err.u1" }, { "sh_set.y", "sh_err.u2" }, { "sh_err.y", "sh_pi.u" },
    { "sh_pi.y", "valve.opening" },
    { "T_set.y", "T_err.u1" }, { "supply_T.y", "T_err.u2" }, { "T_err.y", "speed_pi.u" },
    { "speed_pi.y", "motor.u" }, { "motor.y", "comp.speed" },
  },
  experiment = { stop = 1500, solver = "cvode", tol = 1e-6, interval = 1.5,
                 vars = "evap.p,cond.p,comp.m_flow,comp.P,comp.T2,evap.Q_flow,cond.Q_flow,sh.superheat,"
                   .. "sc.subcooling,valve.y,comp.w,rcv.level,supply_T.T,evap.M,cond.M,rcv.M" },
}

-- As the main script: simulate, print the heat pump's figures before each step and at the
-- end, and draw the cycle at those times on a log(p)-h diagram over the saturation dome.
if lied.script and debug.getinfo(1, "S").source == "@" .. lied.script then
  local cyc = dofile((lied.script:match("^(.*)/[^/]*$") or ".") .. "/lib/refrig_cycle.lua")
  local cells = {}
  for i = 1, 10 do cells[#cells + 1] = "evap.h[" .. i .. "],cond.h[" .. i .. "]" end
  local sim = lied.simulate(HeatPump, { vars = HeatPump.experiment.vars
    .. ",comp.outlet.h,comp.outlet.p,evap.inlet_a.h,rcv.outlet.h,rcv.p," .. table.concat(cells, ",") })
  local run = cyc.run(sim, { "evap.M", "cond.M", "rcv.M" })
  io.write(string.format("HeatPump: %d s of R290 in %.3f s of CPU (%.0f times real time), %d steps; "
    .. "charge %.4f kg kept to %.1e\n", math.floor(run.t_end + 0.5), run.cpu, run.t_end / run.cpu, run.steps,
    run.M0, run.dM))
  io.write(string.format("%7s %9s %9s %8s %8s %8s %6s %7s %7s %7s %7s %6s\n", "t [s]", "p_e [bar]", "p_c [bar]",
    "Qh [kW]", "Qe [kW]", "P [kW]", "COP", "T_s [C]", "SH [K]", "SC [K]", "T2 [C]", "valve"))
  local series = { cyc.dome(R, 1e5) }
  for k, time in ipairs { 499.5, 999.5, run.t_end } do
    local v = run.at(time)
    local Qh, P = -v("cond.Q_flow"), v("comp.P")
    io.write(string.format("%7.1f %9.4f %9.4f %8.4f %8.4f %8.4f %6.3f %7.3f %7.4f %7.4f %7.2f %6.4f\n", v("time"),
      v("evap.p") / 1e5, v("cond.p") / 1e5, Qh / 1e3, v("evap.Q_flow") / 1e3, P / 1e3, Qh / P,
      v("supply_T.T") - 273.15, v("sh.superheat"), v("sc.subcooling"), v("comp.T2") - 273.15, v("valve.y")))
    -- compressor outlet, the condenser's cells, the receiver's outlet, the valve's outlet,
    -- the evaporator's cells, back to the compressor's inlet
    series[#series + 1] = cyc.path(v, { { "comp.outlet.h", "comp.outlet.p" }, { "cond.h[%d]", "cond.p", 10 },
      { "rcv.outlet.h", "rcv.p" }, { "evap.inlet_a.h", "evap.p" }, { "evap.h[%d]", "evap.p", 10 },
      { "comp.outlet.h", "comp.outlet.p" } }, string.format("t = %g s", v("time")), k)
  end
  cyc.draw(series, arg and arg[1], "HeatPump: R290 on the log(p)-h diagram")
end
return HeatPump
