-- examples/thermostat.lua: an on/off thermostat, the classic state event.
-- A thermal mass loses heat through a conductance to a cold ambient; a
-- 2 kW heater is switched by a Hysteresis on the mass's temperature: on
-- below 313.15 K, off above 318.15 K (on at the start). Each switch is a
-- zero crossing the solver locates and stops at (docs/events.md); between
-- switches the temperature is an exponential, so the switching times have
-- a closed form (tests/validation/test_events_thermostat.lua checks them).
--   lied run examples/thermostat.lua           time, mass.T, heater.Q_flow
--   lied examples/thermostat.lua [plot.png]    simulate and plot
local lied = require "lied"
local th = require "lied.thermal"
local S = require "lied.signals"

local Thermostat = lied.model "Thermostat" {
  doc = "thermal mass, loss to ambient, 2 kW heater switched by a hysteresis on T",
  parameters = { T_on = 313.15, T_off = 318.15, P = 2000 },
  mass = th.HeatCapacitor { C = 41840, T = 293.15 }, -- 10 kg of water
  loss = th.ThermalConductor { G = 50 },
  ambient = th.FixedTemperature { T = 283.15 },
  heater = th.PrescribedHeatFlow {},
  sensor = th.TemperatureSensor {},
  -- high (y = 0, off) once T rose above T_off; low (y = P, on) once it fell below T_on
  switch = S.Hysteresis { uLow = lied.param "T_on", uHigh = lied.param "T_off",
                          yLow = lied.param "P", yHigh = 0 },
  connect = {
    { "mass.port", "loss.port_a" }, { "loss.port_b", "ambient.port" },
    { "mass.port", "heater.port" }, { "mass.port", "sensor.port" },
    { "sensor.y", "switch.u" }, { "switch.y", "heater.Q_flow_in" },
  },
  experiment = { stop = 5000, solver = "dopri45", tol = 1e-8,
                 vars = "mass.T,heater.Q_flow,switch.high" },
}

lied.main(Thermostat, { plot = { "mass.T", "heater.Q_flow" } })
return Thermostat
