-- examples/drum_boiler.lua: a heated steam drum (the classic drum-boiler
-- shape). Feedwater at 450 K enters a 20 m3 drum of boiling water and steam
-- (water and steam after IAPWS-IF97: a two-phase Volume, medium = tf.steam);
-- the firing heats the drum's content; saturated steam leaves through a
-- valve into a 1 MPa header, and a PI controller sets the valve's opening to
-- hold the drum at 3 MPa. At t = 100 s the firing steps from 8.2 MW (what
-- evaporates the feedwater) to 10 MW: the pressure rises, the controller
-- opens the valve and brings it back; the drum stays on the saturation
-- line (T = Tsat(p)) while its steam fraction grows.
--   lied run examples/drum_boiler.lua          CSV of pressure, temperature, flows
--   lied examples/drum_boiler.lua [plot.png]   simulate and plot
local lied = require "lied"
local tf = require "lied.thermofluid"
local sig = require "lied.signals"

local DrumBoiler = lied.model "DrumBoiler" {
  doc = "two-phase steam drum with feedwater, firing and a pressure-controlled steam valve",
  feed = tf.MassFlowSource { m_flow = 4, T0 = 450, p0 = 3e6, medium = tf.steam },
  firing = tf.Step { offset = 8.2e6, height = 1.8e6, t0 = 100 },
  drum = tf.Volume { V = 20, p0 = 3e6, x0 = 0.01, Q_from_input = 1, outlet_vapour = 1,
                     m_flow = 4, L = 1e4, medium = tf.steam },
  sensor = tf.PressureSensor { medium = tf.steam },
  valve = tf.Valve { m_flow_ref = 10, dp_ref = 2e6, L = 1e4, medium = tf.steam },
  header = tf.Sink { p0 = 1e6, medium = tf.steam },
  setpoint = sig.Constant { k = 3e6 },
  error = sig.Add { k1 = 1e-6, k2 = -1e-6 }, -- (p - p_set) in MPa
  pi = sig.PI { k = 0.5, Ti = 20, yMin = 0, yMax = 1, x = 0.4 },
  connect = {
    { "feed.outlet", "drum.inlet" },
    { "firing.y", "drum.Q_in" },
    { "drum.outlet", "sensor.inlet" },
    { "sensor.outlet", "valve.inlet" },
    { "valve.outlet", "header.inlet" },
    { "sensor.y", "error.u1" },
    { "setpoint.y", "error.u2" },
    { "error.y", "pi.u" },
    { "pi.y", "valve.opening" },
  },
  experiment = { stop = 400, solver = "esdirk23", tol = 1e-7, interval = 1,
                 vars = "drum.p,drum.T,drum.M,drum.U,drum.m_flow,drum.Q,valve.y" },
}

lied.main(DrumBoiler, { plot = { "drum.p" } })
return DrumBoiler
