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
-- MassFlowSensor, EnthalpySensor, MassFractionSensor, Separator (moist air), CounterFlowNTU,
-- ParallelFlowNTU, CrossFlowNTU (effectiveness-NTU), Pipe (friction with roughness),
-- TwoPhaseCounterFlowHX, TwoPhaseCrossFlowHX (a refrigerant's cells holding their charge,
-- docs/refrigeration.md); the signal sources
-- Constant, Step, Ramp, Sine are lied.signals' classes in this domain (same
-- parameters and blocks; docs/signals.md). print(lied.describe(tf.Volume)) lists a class's
-- parameters with units and ranges.
local lied = require "lied"
local tf = lied.library("thermofluid")

if tf.liquid then return tf end -- already extended (lied.library caches the table)

-- A medium constructor: kind (1 liquid, 2 ideal gas, 4 and 6 moist air; 3 is tf.steam, 5 tf.ideal_gas) and its constants in
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

-- tf.gas{R = 287.05, cp = 1005.45}: a simple ideal gas of constant cp, h = cp*T,
-- p = rho*R*T (the Fan's default medium).
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

-- Ideal gases of NASA polynomials (docs/media.md, "Ideal gases"): a medium of
-- kind 5, {5, Y_N2, Y_O2, Y_Ar, Y_CO2, Y_H2O} (mass fractions), whose
-- property functions are methods: tf.air:h_T(T), tf.air:T_h(h),
-- tf.air:s_pT(p, T), tf.air:T_ps(p, s), tf.air:cp_T(T), tf.air:R(), ...
local gas_mt = { __index = media.gas,
  __tostring = function(g) return "ideal gas (NASA polynomials)" end }
local species = media.gas.species()
local function gas_vector(Y)
  local v = { 5 }
  for i = 1, #species do v[i + 1] = Y[i] end
  return setmetatable(v, gas_mt)
end

-- tf.ideal_gas{N2 = 0.7, O2 = 0.3} (mass fractions; mole = true: mole
-- fractions), normalised to sum 1.
function tf.ideal_gas(args)
  if type(args) ~= "table" then error("tf.ideal_gas{...} expects a table of fractions", 2) end
  local names, known = {}, {}
  for i, sp in ipairs(species) do names[i], known[sp.name] = sp.name, i end
  local Y, sum = {}, 0
  for k, v in pairs(args) do
    if k ~= "mole" then
      if not known[k] then
        error(string.format("tf.ideal_gas has no species '%s' (known: %s)", tostring(k),
          table.concat(names, ", ")), 2)
      end
      if type(v) ~= "number" or not (v >= 0) then
        error(string.format("tf.ideal_gas: the fraction of %s must be a number >= 0", k), 2)
      end
    end
  end
  for i, sp in ipairs(species) do
    local f = args[sp.name] or 0
    Y[i] = args.mole and f * sp.M or f
    sum = sum + Y[i]
  end
  if not (sum > 0) then error("tf.ideal_gas: the fractions sum to 0", 2) end
  for i = 1, #Y do Y[i] = Y[i] / sum end
  return gas_vector(Y)
end

-- tf.air: standard dry air (U.S. Standard Atmosphere 1976: N2, O2, Ar, CO2).
tf.air = gas_vector(media.gas.dry_air())

-- tf.combustion_products{fuel = {C = 12, H = 23}, far = 0.02}: the products
-- of burning the fuel C_c H_h completely in dry air at the fuel/air mass
-- ratio far (or phi = the equivalence ratio, at most 1): CO2 and H2O added,
-- the O2 used taken from the air's. Molar masses of C, H, O: 12.0107,
-- 1.00794, 15.9994 g/mol (those of the species' data).
function tf.combustion_products(args)
  if type(args) ~= "table" or type(args.fuel) ~= "table" then
    error("tf.combustion_products{fuel = {C = c, H = h}, far = f} expects a fuel and far or phi", 2)
  end
  local c, h = args.fuel.C or 0, args.fuel.H or 0
  if not (c >= 0 and h >= 0 and c + h > 0) then
    error("tf.combustion_products: the fuel needs C and H atoms >= 0", 2)
  end
  local Mf = (c * 12.0107 + h * 1.00794) * 1e-3
  local air = media.gas.dry_air()
  local n = {} -- moles per kg of air
  for i, sp in ipairs(species) do n[i] = air[i] / sp.M end
  local o2_stoich = (c + h / 4) -- per mole of fuel
  local far = args.far
  if args.phi then far = args.phi * Mf * n[2] / o2_stoich end
  if type(far) ~= "number" or not (far >= 0) then
    error("tf.combustion_products: far (or phi) must be a number >= 0", 2)
  end
  local nf = far / Mf
  n[2] = n[2] - o2_stoich * nf
  n[4] = n[4] + c * nf
  n[5] = n[5] + h / 2 * nf
  if n[2] < -1e-12 then
    error(string.format("tf.combustion_products: far = %g is richer than stoichiometric (%g): " ..
      "complete combustion needs more oxygen", far, Mf * (n[2] + o2_stoich * nf) / o2_stoich), 2)
  end
  n[2] = math.max(n[2], 0)
  local Y, m = {}, 0
  for i, sp in ipairs(species) do Y[i] = n[i] * sp.M; m = m + Y[i] end
  for i = 1, #Y do Y[i] = Y[i] / m end
  return gas_vector(Y)
end

-- tf.moist_air_nasa{X = 0.01}: moist air on the NASA basis (docs/media.md),
-- standard dry air and water vapour of NASA polynomials, fog above
-- saturation; the streams carry X as for tf.moist_air, and the property
-- functions are the same methods: tf.moist_air_nasa:h_pTX(p, T, X), ...
local moist_air_nasa = medium("tf.moist_air_nasa", 6, { { "X", 0 } })
tf.moist_air_nasa = setmetatable({}, { __index = media.moist_air_nasa,
  __call = function(_, args) return moist_air_nasa(args) end,
  __tostring = function() return "tf.moist_air_nasa (dry air and water, NASA polynomials)" end })

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
  if m.two_phase and m.nc == 0 and not lied.has(tf, m.id) then tf[m.id] = medium_vector(m) end
end

tf.water = tf.liquid {} -- the standard liquid (every component's default)

return tf
