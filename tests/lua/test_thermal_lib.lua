-- Behaviour of the thermal library's Lua surface and of the thermofluid
-- heat-transfer classes: classes, documentation, variable names, a heat
-- network's schedule (no linear section), the exchangers' states.
local lied = require "lied"
local th = require "lied.thermal"
local tf = require "lied.thermofluid"
local S = require "lied.signals"
local T = require "tests.testing"

for _, n in ipairs { "HeatCapacitor", "FixedTemperature", "PrescribedTemperature", "ThermalConductor",
                     "Convection", "BodyRadiation", "FixedHeatFlow", "PrescribedHeatFlow",
                     "TemperatureSensor", "HeatFlowSensor" } do
  T.check(lied.core.isclass(th[n]), "th." .. n .. " is a class")
  T.eq(th[n].domain, "thermal", n .. " domain")
end
for _, n in ipairs { "ConductionElement", "CounterFlowHX", "ParallelFlowHX", "CrossFlowHX", "MassFlowSource",
                     "Reservoir", "Valve", "CheckValve", "Fan", "TemperatureSensor",
                     "PressureSensor", "MassFlowSensor", "EnthalpySensor" } do
  T.check(lied.core.isclass(tf[n]), "tf." .. n .. " is a class")
  T.eq(tf[n].domain, "thermofluid", n .. " domain")
end
T.check(require("lied.thermal") == th, "require returns the same table")
local d = lied.describe(th.HeatCapacitor)
T.check(d:find("J/K", 1, true) ~= nil and d:find("heat capacity", 1, true) ~= nil, "describe lists C")
T.check(lied.describe(tf.CounterFlowHX):find("1..500", 1, true) ~= nil, "describe lists N's range")
T.raises(function() return th.HeatCapacitr end, { "did you mean 'HeatCapacitor'" }, "misspelt class")

-- names and schedule of a small network
local Net = lied.model "Net" {
  c = th.HeatCapacitor { C = 10, T = 320 },
  amb = th.FixedTemperature { T = 300 },
  g = th.ThermalConductor { G = 2 },
  sens = th.TemperatureSensor {},
  flow = th.HeatFlowSensor {},
  heat = th.PrescribedHeatFlow {},
  q = S.Constant { k = 5 },
  connect = { { "c.port", "flow.port_a" }, { "flow.port_b", "g.port_a" }, { "amb.port", "g.port_b" },
              { "c.port", "sens.port" }, { "c.port", "heat.port" }, { "q.y", "heat.Q_flow_in" } },
}
local b = lied.build(Net)
local kinds = {}
for _, v in ipairs(b:vars()) do kinds[v.name] = v.kind end
T.eq(kinds["c.T"], "state", "capacitor temperature is a state")
T.eq(kinds["c.port.T"], "port", "a node's temperature is a port variable")
T.eq(kinds["g.Q_flow"], "variable", "conductor heat flow")
T.eq(kinds["g.port_a.Q_flow"], "port", "a branch's heat flow is a port variable")
T.eq(kinds["sens.y"], "port", "sensor output")
T.eq(kinds["heat.Q_flow"], "variable", "heater.Q_flow")
T.eq(kinds["flow.Q_flow"], "variable", "heat flow sensor variable")
local info = b:info()
T.eq(info.states, 1, "one state")
T.eq(info.tearing_pairs, 0, "no tearing pairs")
T.eq(info.sections, 0, "no linear section")
local der = b:derivatives()
T.near(der["c.T"], (2 * (300 - 320) + 5) / 10, 1e-12, "C der(T) = G (T_amb - T) + Q")
T.near(b:value("flow.y"), 2 * (320 - 300), 1e-12, "heat flow sensor: c -> conductor")

-- an exchanger has 2N states named h_a[i], h_b[i]
local HX = dofile("examples/counterflow_hx.lua")
local x = lied.build(HX, { N = 7 })
T.eq(x:info().states, 14, "2N states")
local names = {}
for _, v in ipairs(x:vars("hx.h_*")) do names[#names + 1] = v.name end
T.check(#names >= 14, "h_a[i], h_b[i] listed")
T.check(kinds and x:value("hx.h_a[7]") ~= nil, "hx.h_a[7] resolves")

-- an array of exchangers runs its fused steps in lane form
local Many = lied.model "Many" { hx = lied.array(HX, 3), experiment = { solver = "rk4", dt = 0.01 } }
local mi = lied.build(Many):info()
T.check(mi.chunked and mi.lanes, "copies of the exchanger model run in lane form")
T.done()
