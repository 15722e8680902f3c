-- lied.thermofluid: thermofluid stream components (C classes, see
-- docs/thermofluid.md) plus the media constructors their `medium` takes.
--
--   local tf = require "lied.thermofluid"
--   local water = tf.liquid { rho = 1000, beta = 0 }
--   p1 = tf.PressureDrop { dp_ref = 1e4, v_ref = 1e-3, L = 1e3, medium = water }
--
-- Classes: Source, Sink, TankOut, TankIn, PressureDrop, LinearQuadraticDrop,
-- LaminarDrop, Splitter, Junction, Volume, Pump, Heater, MassFlowSource,
-- Reservoir, ConductionElement (a heat port of lied.thermal), CounterFlowHX,
-- ParallelFlowHX, CrossFlowHX, Valve, CheckValve, Fan, TemperatureSensor, PressureSensor,
-- MassFlowSensor, EnthalpySensor, MassFractionSensor, Separator (moist air); the signal sources
-- Constant, Step, Ramp, Sine are lied.signals' classes in this domain (same
-- parameters and blocks; docs/signals.md). print(lied.describe(tf.Volume)) lists a class's
-- parameters with units and ranges.
local lied = require "lied"
local tf = lied.library("thermofluid")

if tf.liquid then return tf end -- already extended (lied.library caches the table)

-- A medium constructor: kind (1 liquid, 2 ideal gas; 3 is tf.steam) and its constants in
-- the order of the medium vector {kind, c1..c5}, each with its default.
-- The constructor takes a table of constants by name and returns the vector.
local function medium(name, kind, constants)
  local known = {}
  for _, c in ipairs(constants) do known[c[1]] = true end
  return function(args)
    if args ~= nil and type(args) ~= "table" then error(name .. "{...} expects a table", 2) end
    for k in pairs(args or {}) do
      if not known[k] then
        local names = {}
        for _, c in ipairs(constants) do names[#names + 1] = c[1] end
        table.sort(names)
        error(string.format("%s has no constant '%s' (known: %s)", name, tostring(k),
          table.concat(names, ", ")), 2)
      end
    end
    local v = { kind }
    for i, c in ipairs(constants) do v[i + 1] = (args or {})[c[1]] or c[2] end
    for i = #constants + 2, 6 do v[i] = 0 end
    return v
  end
end

-- tf.liquid{rho = 995.586, cp = 4184, beta = 4.5e-10, p_ref = 1e5, T_ref = 293.15}
-- A constant-property liquid: rho [kg/m3] at p_ref, cp [J/(kg K)], isothermal
-- compressibility beta [1/Pa] (0: incompressible; a Volume needs beta > 0),
-- p_ref [Pa], T_ref [K] (h = cp*(T - T_ref)). Returns the medium vector.
tf.liquid = medium("tf.liquid", 1, { { "rho", 995.586 }, { "cp", 4184 }, { "beta", 4.5e-10 },
                                     { "p_ref", 1e5 }, { "T_ref", 293.15 } })

-- tf.gas{R = 287.05, cp = 1005.45}: a simple ideal gas, h = cp*T, p = rho*R*T.
tf.gas = medium("tf.gas", 2, { { "R", 287.05 }, { "cp", 1005.45 } })

-- tf.steam: water and steam after IAPWS-IF97 (docs/media.md), a medium
-- (kind 3, no constants: medium = tf.steam) with two-phase states. Its property
-- functions are methods, SI units: tf.steam:T_ph(p, h), tf.steam:h_pT(p, T),
-- tf.steam:rho_ph(p, h), tf.steam:x_ph(p, h), tf.steam:Tsat(p), ...
local media = require "lied.thermofluid_media"
tf.steam = setmetatable({ 3, 0, 0, 0, 0, 0 }, { __index = media.steam,
  __tostring = function() return "tf.steam (IAPWS-IF97)" end })

-- tf.moist_air{X = 0.01}: moist air (docs/media.md), dry air and water vapour
-- as ideal gases with fog above saturation; X is the mass fraction of water
-- (vapour and liquid) in the moist air. The streams carry it (their signal X1):
-- the medium's X is what a source emits and what a Volume starts with. Its
-- property functions are methods of tf.moist_air: tf.moist_air:phi(p, T, X),
-- tf.moist_air:T_dew(p, X), tf.moist_air:h_pTX(p, T, X), ...
local moist_air = medium("tf.moist_air", 4, { { "X", 0 } })
tf.moist_air = setmetatable({}, { __index = media.moist_air,
  __call = function(_, args) return moist_air(args) end,
  __tostring = function() return "tf.moist_air (dry air and water, ideal gases)" end })

-- The registry of media (docs/media.md): every medium registered in C (lied's and a
-- plugin's) by id. tf.medium("R134a") (or tf.medium("id", {c1, ...}) for a medium with
-- constants) returns its medium vector; tf.media() lists them. A medium with two phases
-- and entropy (the refrigerants, a plugin's) gets the property methods of
-- media.twophase: tf.R134a:T_ph(p, h), tf.R134a:psat(T), tf.R134a:h_liq(p), ...
local twophase_mt = {}
local function medium_vector(m, constants)
  if constants ~= nil and type(constants) ~= "table" then
    error("tf.medium: the constants of '" .. m.id .. "' must be a table of numbers", 3)
  end
  constants = constants or {}
  if #constants > m.nc then
    error(string.format("tf.medium: '%s' takes %d constants, got %d", m.id, m.nc, #constants), 3)
  end
  local v = { m.kind }
  for i = 1, 5 do
    local c = constants[i] or 0
    if type(c) ~= "number" then
      error(string.format("tf.medium: constant %d of '%s' is not a number", i, m.id), 3)
    end
    v[i + 1] = c
  end
  if m.two_phase then
    twophase_mt[m.id] = twophase_mt[m.id] or { __index = media.twophase,
      __tostring = function() return "tf." .. m.id .. " (" .. m.name .. ")" end }
    setmetatable(v, twophase_mt[m.id])
  end
  return v
end
function tf.media()
  local list = {}
  for _, m in ipairs(media.list()) do list[#list + 1] = m end
  return list
end
function tf.medium(id, constants)
  for _, m in ipairs(media.list()) do
    if m.id == id then return medium_vector(m, constants) end
  end
  local ids = {}
  for _, m in ipairs(media.list()) do ids[#ids + 1] = m.id end
  table.sort(ids)
  error(string.format("tf.medium: no medium '%s' (registered: %s)", tostring(id),
    table.concat(ids, ", ")), 2)
end
-- tf.R134a, tf.R1234yf, tf.R290, tf.R744: the refrigerants (no constants)
for _, m in ipairs(media.list()) do
  if m.two_phase and m.nc == 0 and rawget(tf, m.id) == nil then tf[m.id] = medium_vector(m) end
end

tf.water = tf.liquid {} -- the standard liquid (every component's default)
tf.air = tf.gas {}

return tf
