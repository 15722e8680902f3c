-- examples/ev_thermal.lua: thermal management of an electric vehicle's
-- battery over a drive cycle. The vehicle speed is the WLTC class 3b (1,801
-- points at 1 Hz, read from wltc_class3b.csv beside this file by a
-- TimeTable: linear between the rows, none of which is an event); a Table1D
-- maps it to the battery's heat load (monotone cubic through a few points).
-- The battery (a HeatCapacitor) takes that heat and gives it through its cold plate (a ConductionElement, via a
-- Convection) to a water-glycol loop: pump, a three-way valve pair splitting
-- the coolant between the radiator and a bypass, and a chiller (a
-- counter-flow exchanger against a cold refrigerant-side source) before the
-- expansion volume. The radiator (a cross-flow exchanger, 6 x 6 elements) is
-- cooled by ambient air drawn by a Fan. A PI controller sets the
-- radiator valve's opening from the battery temperature to hold it near
-- 308 K; the bypass valve opens by the rest (1 - y).
--   lied run examples/ev_thermal.lua          battery temperature, opening, heat flows
--   lied examples/ev_thermal.lua [plot.png]   simulate and plot
local lied = require "lied"
local tf = require "lied.thermofluid"
local th = require "lied.thermal"
local S = require "lied.signals"
local pipes = require "thermofluid.pipes"

local coolant = tf.liquid { rho = 1060, cp = 3500 } -- water-glycol 50/50

local EV = lied.model "EVThermal" {
  doc = "battery, coolant loop with radiator/bypass valves, chiller, fan; PI on the battery temperature",
  parameters = { T_set = 308, T_amb = 293.15, T_refrigerant = 288.15 },
  -- battery and its heat load: speed [km/h] over s, heat [W] over speed
  battery = th.HeatCapacitor { C = 3e5, T = 304 }, -- 300 kg at 1000 J/(kg K), warm
  load = th.PrescribedHeatFlow {},
  cycle = S.TimeTable { table = lied.table { file = "wltc_class3b.csv", x = "time", y = "speed" } },
  heat = S.Table1D { table = lied.table { x = { 0, 30, 60, 90, 130 }, y = { 3.5e3, 4.5e3, 5.5e3, 7e3, 9e3 },
                                          interpolation = "cubic", extrapolation = "linear" } },
  contact = th.Convection { Gc = 1500 },
  -- coolant loop
  vol = tf.Volume { V = 0.005, p0 = 1.5e5, T0 = 300, medium = coolant, L = 500 },
  pump = tf.Pump { k_p = 4e7, V_r = 5e-5, omega = 2 * math.pi * 50, L = 1e3, medium = coolant },
  plate = tf.ConductionElement { V = 1e-3, T0 = 300, medium = coolant },
  split = tf.Splitter { N = 2, L = 500 },
  v_rad = tf.Valve { dp_ref = 2e4, m_flow_ref = 0.3, characteristic = 1, L = 2e3, medium = coolant },
  v_byp = tf.Valve { dp_ref = 2e4, m_flow_ref = 0.3, characteristic = 1, L = 2e3, medium = coolant },
  radiator = tf.CrossFlowHX { N = 6, UA = 2000, V_a = 1e-3, V_b = 0.02, T0_a = 300,
                                T0_b = lied.param "T_amb", medium_a = coolant, medium_b = tf.air },
  mix = tf.Junction { N = 2 },
  chiller = tf.CounterFlowHX { N = 10, UA = 150, V_a = 1e-3, V_b = 1e-3, T0_a = 300,
                               T0_b = lied.param "T_refrigerant", medium_a = coolant },
  ret = pipes.Pipe { l = 2, d = 0.02, dp_ref = 1e4, v_ref = 3e-4, medium = coolant },
  -- refrigerant side of the chiller: a cold source
  refrigerant = tf.MassFlowSource { m_flow = 0.05, T0 = lied.param "T_refrigerant" },
  refrigerant_out = tf.Sink {},
  -- air through the radiator
  air_in = tf.Source { p0 = 1e5, T0 = lied.param "T_amb", medium = tf.air, L = 50 },
  fan = tf.Fan { dp_max = 300, V_flow_max = 1.5, medium = tf.air },
  grille = tf.LinearQuadraticDrop { k1 = 0, k2 = 200, medium = tf.air },
  air_out = tf.Sink { p0 = 1e5, medium = tf.air },
  -- control: e = T_battery - T_set, opening y = PI(e) in [0, 1], bypass 1 - y
  sensor = th.TemperatureSensor {},
  set = S.Constant { k = lied.param "T_set" },
  err = S.Add { k1 = 1, k2 = -1 },
  pi = S.PI { k = 0.5, Ti = 60, yMin = 0, yMax = 1 },
  one = S.Constant { k = 1 },
  rest = S.Add { k1 = 1, k2 = -1 },
  connect = {
    { "cycle.y", "heat.u" }, { "heat.y", "load.Q_flow_in" }, { "battery.port", "load.port" },
    { "battery.port", "contact.solid" }, { "plate.heatPort", "contact.fluid" },
    { "vol.outlet", "pump.inlet" }, { "pump.outlet", "plate.inlet" }, { "plate.outlet", "split.inlet" },
    { "split.outlet1", "v_rad.inlet" }, { "v_rad.outlet", "radiator.inlet_a" },
    { "radiator.outlet_a", "mix.inlet1" }, { "split.outlet2", "v_byp.inlet" },
    { "v_byp.outlet", "mix.inlet2" }, { "mix.outlet", "chiller.inlet_a" },
    { "chiller.outlet_a", "ret.inlet" }, { "ret.outlet", "vol.inlet" },
    { "refrigerant.outlet", "chiller.inlet_b" }, { "chiller.outlet_b", "refrigerant_out.inlet" },
    { "air_in.outlet", "fan.inlet" }, { "fan.outlet", "radiator.inlet_b" },
    { "radiator.outlet_b", "grille.inlet" }, { "grille.outlet", "air_out.inlet" },
    { "battery.port", "sensor.port" }, { "sensor.y", "err.u1" }, { "set.y", "err.u2" },
    { "err.y", "pi.u" }, { "pi.y", "v_rad.opening" },
    { "one.y", "rest.u1" }, { "pi.y", "rest.u2" }, { "rest.y", "v_byp.opening" },
  },
  experiment = { stop = 1800, solver = "cvode", tol = 1e-6, interval = 10,
                 vars = "cycle.y,battery.T,v_rad.y,load.Q_flow,contact.Q_flow,radiator.Q_flow," ..
                        "chiller.Q_flow,pump.m_flow,v_rad.m_flow,v_byp.m_flow,fan.m_flow,vol.T" },
}

-- two panels: the battery (degC) and its heat load (kW, right axis); the
-- valve's opening and the vehicle speed (km/h, right axis)
lied.main(EV, { plot = { panels = { { "battery.T", y2 = { "load.Q_flow" } },
                                    { "v_rad.y", y2 = { "cycle.y:km/h" } } } } })
return EV
