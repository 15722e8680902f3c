-- lied.undirected: undirected thermofluid streams (C classes of the library
-- "undirected", src/lib/undirected/; docs/thermofluid.md, "Undirected
-- streams"), after ThermoFluid Stream's Undirected package: every port
-- carries a state each way and the mass flow is free in sign. Ports are
-- rear and fore (positive flow runs from rear to fore); a fore connects to a
-- rear.
--
--   local tfu = require "lied.undirected"
--   src = tfu.BoundaryRear { p0 = 2e5, T0 = 353.15 }
--   pipe = tfu.PressureDrop { dp_ref = 1e4, v_ref = 1e-3, L = 1e3 }
--
-- The media are those of lied.thermofluid: tfu.liquid, tfu.gas, tfu.steam,
-- tfu.moist_air, tfu.water, tfu.air are tf.liquid, ... (every component
-- takes `medium`). print(lied.describe(tfu.Volume)) lists a class's
-- parameters.
local lied = require "lied"
local tfu = lied.library("undirected")

if lied.has(tfu, "liquid") then return tfu end -- already extended (lied.library caches the table)

local tf = require "lied.thermofluid"
for _, k in ipairs { "liquid", "gas", "steam", "moist_air", "water", "air" } do
  rawset(tfu, k, tf[k])
end

return tfu
