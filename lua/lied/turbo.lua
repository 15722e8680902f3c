-- lied.turbo: turbomachines on shafts (C components, see docs/turbo.md):
-- Compressor, Turbine and Fan, each with a thermofluid inlet and outlet
-- (its medium a gas: tf.air by default) and a rotational flange, a branch
-- on the node of its shaft (require "lied.rotational").
--
--   local turbo = require "lied.turbo"
--   c = turbo.Compressor { w_ref = 2500, m_ref = 1, eta = 0.85 }
--
-- print(lied.describe(turbo.Compressor)) lists a class's parameters.
local lied = require "lied"
return lied.library("turbo")
