-- lied.thermofluid: thermofluid stream components (C classes, see
-- docs/thermofluid.md) plus the media constructors their `medium` takes.
--
--   local tf = require "lied.thermofluid"
--   local water = tf.liquid { rho = 1000, beta = 0 }
--   p1 = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-3, L = 1e3, medium = water }
--
-- Classes: Source, Sink, TankOut, TankIn, PressureDrop, LinearQuadraticDrop,
-- LaminarDrop, Splitter, Junction, Volume, Pump, Heater; the signal sources
-- Constant, Step, Ramp, Sine are lied.signals' classes in this domain (same
-- parameters and blocks; docs/signals.md). print(lied.describe(tf.Volume)) lists a class's
-- parameters with units and ranges.
local lied = require "lied"
local tf = lied.library("thermofluid")

if tf.liquid then return tf end -- already extended (lied.library caches the table)

local function check(name, args, allowed)
  if args ~= nil and type(args) ~= "table" then
    error(name .. "{...} expects a table", 3)
  end
  for k in pairs(args or {}) do
    if not allowed[k] then
      local names = {}
      for n in pairs(allowed) do names[#names + 1] = n end
      table.sort(names)
      error(string.format("%s has no constant '%s' (known: %s)", name, tostring(k),
        table.concat(names, ", ")), 3)
    end
  end
  return args or {}
end

-- tf.liquid{rho = 995.586, cp = 4184, beta = 4.5e-10, p_ref = 1e5, T_ref = 293.15}
-- A constant-property liquid: rho [kg/m3] at p_ref, cp [J/(kg K)], isothermal
-- compressibility beta [1/Pa] (0: incompressible; a Volume needs beta > 0),
-- p_ref [Pa], T_ref [K] (h = cp*(T - T_ref)). Returns the medium vector.
function tf.liquid(args)
  local a = check("tf.liquid", args, { rho = 1, cp = 1, beta = 1, p_ref = 1, T_ref = 1 })
  return { 1, a.rho or 995.586, a.cp or 4184, a.beta or 4.5e-10, a.p_ref or 1e5,
           a.T_ref or 293.15 }
end

-- tf.gas{R = 287.05, cp = 1005.45}: a simple ideal gas, h = cp*T, p = rho*R*T.
function tf.gas(args)
  local a = check("tf.gas", args, { R = 1, cp = 1 })
  return { 2, a.R or 287.05, a.cp or 1005.45, 0, 0, 0 }
end

tf.water = tf.liquid {} -- the standard liquid (every component's default)
tf.air = tf.gas {}

return tf
