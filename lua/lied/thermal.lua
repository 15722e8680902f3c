-- lied.thermal: lumped heat transfer (C components after
-- Modelica.Thermal.HeatTransfer, see docs/thermal.md).
--
--   local th = require "lied.thermal"
--   cap = th.HeatCapacitor { C = 1000, T = 350 }
--   wall = th.ThermalConductor { G = 10 }
--
-- Classes: HeatCapacitor, FixedTemperature, PrescribedTemperature (nodes:
-- they set a temperature), ThermalConductor, Convection, BodyRadiation,
-- FixedHeatFlow, PrescribedHeatFlow, TemperatureSensor, HeatFlowSensor
-- (branches: they read temperatures and draw heat flows). A node feeds any
-- number of branches; their heat flows are summed. Signal inputs and
-- outputs take any real signal (require "lied.signals").
-- print(lied.describe(th.Convection)) lists a class's parameters.
local lied = require "lied"
return lied.library("thermal")
