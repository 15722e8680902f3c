-- examples/transcritical_co2.lua: a transcritical refrigeration cycle of R744 (carbon
-- dioxide): a compressor, a gas cooler of 10 cells against the ambient air ABOVE the
-- critical pressure (7.38 MPa: no condensation, the CO2 cools as a dense supercritical
-- fluid), a high-pressure control valve whose opening a PI controller sets to hold the gas
-- cooler's pressure at its set point, an evaporator of 10 cells against the cooled air, a
-- suction line (a linear drop: it damps the flow's oscillation between evaporator and
-- accumulator) and an accumulator at the suction (saturated vapour leaves it; its liquid is the circuit's
-- charge buffer, so the evaporator runs without superheat control). A second PI sets the
-- compressor's speed (through a motor of time constant 2 s) to hold the evaporator's air
-- outlet at 1 degC. During 1,500 s: the gas cooler's air steps from 30 to 35 degC at
-- t_air = 500 s, the high-pressure set point from 9 to 10 MPa at t_set = 1,000 s
-- (docs/refrigeration.md, "The transcritical CO2 example"). Solver: cvode (the compressor's
-- flow characteristic makes the circuit stiff).
--   lied run examples/transcritical_co2.lua         CSV of pressures, flows, powers, charges
--   lied examples/transcritical_co2.lua [plot.png]  simulate, print COP, capacity and the
--                                                   gas cooler's outlet temperature before
--                                                   each step and at the end, and plot the
--                                                   cycle on a log(p)-h diagram over the dome
local lied = require "lied"
local tf = require "lied.thermofluid"
local rf = require "lied.refrigeration"
local sig = require "lied.signals"
local R, air = tf.R744, tf.air

-- start: the evaporator and the accumulator at 30.5 bar (-5 degC; the evaporator's quality
-- 0.8, the accumulator's liquid filling 30 %), the gas cooler at 9 MPa and 45 degC, the
-- compressor at 300 rad/s; the refrigerant's flow starts at the compressor's displacement
-- flow against the start pressures (dp = k (m_disp - m)/rho1)
local pe0, pg0, w0, Vd, eta_v, k = 30.5e5, 90e5, 300, 1e-5, 0.9, 1e11
local rho1 = R:rho_ph(pe0, R:h_vap(pe0))
local m0 = eta_v * Vd * w0 / (2 * math.pi) * rho1 - (pg0 - pe0) * rho1 / k

local TranscriticalCO2 = lied.model "TranscriticalCO2" {
  doc = "R744 transcritical cycle: compressor, gas cooler above the critical pressure against air, "
    .. "high-pressure control valve, evaporator against air, suction accumulator, compressor speed "
    .. "holding the air outlet temperature",
  parameters = { t_air = 500, t_set = 1000 },
  -- the refrigerant circuit
  comp = rf.Compressor { V_d = Vd, eta_s = 0.7, eta_v = eta_v, k = k, medium = R },
  gc = tf.TwoPhaseCounterFlowHX { N = 10, V_a = 1.5e-3, A_a = 3, alpha_vap = 2000, UA_b = 700, C_w = 3000,
                                  p0_a = pg0, T0_a = 308.15, L = 1e4, m_flow = m0, medium_a = R,
                                  medium_b = air },
  p_gc = tf.PressureSensor { medium = R },
  hpv = rf.ExpansionValve { A = 1e-6, medium = R },
  evap = tf.TwoPhaseCounterFlowHX { N = 10, V_a = 2e-3, A_a = 3, UA_b = 1000, C_w = 3000, p0_a = pe0,
                                    x0_a = 0.8, L = 1e4, m_flow = m0, medium_a = R, medium_b = air },
  suction = tf.LinearQuadraticDrop { k1 = 2e5, k2 = 0, medium = R },
  acc = rf.Accumulator { V = 4e-3, p0 = pe0, level0 = 0.5, L = 1e4, m_flow = m0, medium = R },
  -- the air: through the gas cooler 1.5 kg/s at 30 degC, stepping to 35 degC; through the
  -- evaporator 1 kg/s at 5 degC
  gc_air = tf.MassFlowSource { m_flow = 1.5, T0_from_input = 1, p0 = 1e5, medium = air },
  gc_air_out = tf.Sink { p0 = 1e5, medium = air },
  T_amb = sig.Step { offset = 303.15, height = 5, t0 = lied.param "t_air" },
  evap_air = tf.MassFlowSource { m_flow = 1, T0 = 278.15, p0 = 1e5, medium = air },
  evap_air_T = tf.TemperatureSensor { medium = air },
  evap_air_out = tf.Sink { p0 = 1e5, medium = air },
  -- high-pressure control: the valve's opening from PI(p_gc - set point) [bar]
  p_set = sig.Step { offset = 90e5, height = 10e5, t0 = lied.param "t_set" },
  p_err = sig.Add { k1 = 1e-5, k2 = -1e-5 },
  p_pi = sig.PI { k = 0.05, Ti = 10, yMin = 0, yMax = 1, x = 0.4 },
  -- capacity control: the compressor's speed from PI(air outlet - 1 degC)
  T_set = sig.Constant { k = 274.15 },
  T_err = sig.Add { k1 = 1, k2 = -1 },
  speed_pi = sig.PI { k = 30, Ti = 20, yMin = 20, yMax = 900, x = w0 },
  motor = sig.FirstOrder { T = 2, x = w0 },
  connect = {
    { "acc.outlet", "comp.inlet" }, { "comp.outlet", "gc.inlet_a" }, { "gc.outlet_a", "p_gc.inlet" }, { "p_gc.outlet", "hpv.inlet" },
    { "hpv.outlet", "evap.inlet_a" }, { "evap.outlet_a", "suction.inlet" }, { "suction.outlet", "acc.inlet" },
    { "gc_air.outlet", "gc.inlet_b" }, { "gc.outlet_b", "gc_air_out.inlet" }, { "T_amb.y", "gc_air.T0_in" },
    { "evap_air.outlet", "evap.inlet_b" }, { "evap.outlet_b", "evap_air_T.inlet" },
    { "evap_air_T.outlet", "evap_air_out.inlet" },
    { "p_gc.y", "p_err.u1" }, { "p_set.y", "p_err.u2" }, { "p_err.y", "p_pi.u" }, { "p_pi.y", "hpv.opening" },
    { "evap_air_T.y", "T_err.u1" }, { "T_set.y", "T_err.u2" }, { "T_err.y", "speed_pi.u" },
    { "speed_pi.y", "motor.u" }, { "motor.y", "comp.speed" },
  },
  experiment = { stop = 1500, solver = "cvode", tol = 1e-6, interval = 1.5,
                 vars = "evap.p,gc.p,comp.m_flow,comp.P,comp.T2,evap.Q_flow,gc.Q_flow,gc.T[10],hpv.y,comp.w,"
                   .. "acc.level,evap_air_T.T,evap.M,gc.M,acc.M" },
}

-- As the main script: simulate, print the cycle's figures before each step and at the end,
-- and draw the cycle at those times on a log(p)-h diagram over the saturation dome.
if lied.script and debug.getinfo(1, "S").source == "@" .. lied.script then
  local cyc = dofile((lied.script:match("^(.*)/[^/]*$") or ".") .. "/lib/refrig_cycle.lua")
  local cells = {}
  for i = 1, 10 do cells[#cells + 1] = "evap.h[" .. i .. "],gc.h[" .. i .. "]" end
  local sim = lied.simulate(TranscriticalCO2, { vars = TranscriticalCO2.experiment.vars
    .. ",comp.outlet.h,comp.outlet.p,evap.inlet_a.h,acc.outlet.h,acc.p," .. table.concat(cells, ",") })
  local run = cyc.run(sim, { "evap.M", "gc.M", "acc.M" })
  io.write(string.format("TranscriticalCO2: %d s of R744 in %.3f s of CPU (%.0f times real time), %d steps; "
    .. "charge %.4f kg kept to %.1e\n", math.floor(run.t_end + 0.5), run.cpu, run.t_end / run.cpu, run.steps,
    run.M0, run.dM))
  io.write(string.format("%7s %9s %9s %8s %8s %8s %6s %8s %7s %6s %6s\n", "t [s]", "p_e [bar]", "p_gc [bar]",
    "Qe [kW]", "Qgc [kW]", "P [kW]", "COP", "T_gc [C]", "T2 [C]", "valve", "level"))
  local series = { cyc.dome(R, 10e5) }
  for k, time in ipairs { 499.5, 999.5, run.t_end } do
    local v = run.at(time)
    local Qe, P = v("evap.Q_flow"), v("comp.P")
    io.write(string.format("%7.1f %9.4f %9.4f %8.4f %8.4f %8.4f %6.3f %8.3f %7.2f %6.4f %6.4f\n", v("time"),
      v("evap.p") / 1e5, v("gc.p") / 1e5, Qe / 1e3, -v("gc.Q_flow") / 1e3, P / 1e3, Qe / P,
      v("gc.T[10]") - 273.15, v("comp.T2") - 273.15, v("hpv.y"), v("acc.level")))
    -- compressor outlet, the gas cooler's cells, the valve's outlet, the evaporator's cells,
    -- the accumulator's outlet, back to the compressor's outlet
    series[#series + 1] = cyc.path(v, { { "comp.outlet.h", "comp.outlet.p" }, { "gc.h[%d]", "gc.p", 10 },
      { "evap.inlet_a.h", "evap.p" }, { "evap.h[%d]", "evap.p", 10 }, { "acc.outlet.h", "acc.p" },
      { "comp.outlet.h", "comp.outlet.p" } }, string.format("t = %g s", v("time")), k)
  end
  cyc.draw(series, arg and arg[1], "TranscriticalCO2: R744 on the log(p)-h diagram", { 10, 150 })
end
return TranscriticalCO2
