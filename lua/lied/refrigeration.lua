-- lied.refrigeration: the components of vapour-compression cycles on
-- thermofluid streams (C components, see docs/refrigeration.md), their
-- medium a refrigerant (tf.R134a by default, tf.R1234yf, tf.R290, tf.R744):
-- Compressor and CompressorMap (speed from a signal or a rotational flange),
-- ExpansionValve and ThermostaticValve, Receiver and Accumulator (charge and
-- level), SuperheatSensor, SubcoolingSensor, QualitySensor,
-- SaturationTemperatureSensor. They connect to lied.thermofluid's ports.
--
--   local rf = require "lied.refrigeration"
--   c = rf.Compressor { V_d = 1e-4, eta_s = 0.7, eta_v = 0.9, medium = tf.R134a }
--
-- print(lied.describe(rf.Compressor)) lists a class's parameters.
local lied = require "lied"
return lied.library("refrigeration")
