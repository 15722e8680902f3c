-- examples/ecs_pack.lua: an air-conditioning pack with water extraction over
-- a flight (docs/turbo.md, "Example: an air-conditioning pack").
--
-- Moist bleed air (200 degC at 1.8 times the cabin's pressure, 1 % water by
-- mass: a humid day's load, held over the flight) passes the primary
-- exchanger and the compressor of a three-wheel air-cycle machine, the main
-- exchanger (both cooled by ram air), the reheater and the condenser, where
-- the turbine's cold outflow cools it below its dew point; the water
-- separator drains the condensate, the reheater warms the dried air again,
-- the turbine expands it, the condenser takes back the condensation's heat
-- and the air enters the cabin.
-- An anti-ice valve mixes warm air from the duct into the turbine's outflow,
-- opened by a PI controller that holds the mixture at +2 degC: the turbine's
-- own outflow is at -5 to -18 degC and its water ice (moist air with ice,
-- docs/media.md "Ice"), liquid again in the mixture. The ram air's total
-- pressure and temperature and the ambient and cabin pressures follow the
-- flight profile, a time table of altitude and Mach number. Moist air of
-- NASA polynomials (tf.moist_air_nasa) throughout.
--   lied run examples/ecs_pack.lua              shaft speed, temperatures, water, flows
--   lied examples/ecs_pack.lua [plot.png]       simulate and plot
local lied = require "lied"
local tf = require "lied.thermofluid"
local rot = require "lied.rotational"
local turbo = require "lied.turbo"
local S = require "lied.signals"

-- the flight: {t [s], altitude [m], Mach}: taxi, take-off, climb to 9,000 m,
-- cruise, descent, taxi
local flight = { { 0, 0, 0 }, { 120, 0, 0 }, { 180, 0, 0.25 }, { 900, 9000, 0.78 },
                 { 1500, 9000, 0.78 }, { 2300, 0, 0.25 }, { 2400, 0, 0 } }
-- the International Standard Atmosphere's troposphere, T = 288.15 - 0.0065 z,
-- p = 101325 (T/288.15)^5.25588; the ram's total state T (1 + 0.2 M^2),
-- p (1 + 0.2 M^2)^3.5; the cabin at the pressure of at most 2,400 m
local function isa(z)
  local T = 288.15 - 0.0065 * z
  return T, 101325 * (T / 288.15) ^ 5.25588
end
-- the profile every 10 s (altitude and Mach linear between its points),
-- each row's boundary states from the atmosphere: tables of 241 rows
local pack_ratio = 1.8 -- the bleed pressure over the cabin's
local altitude, ram_p, ram_T, amb_p, cabin_p, bleed_p = {}, {}, {}, {}, {}, {}
for t = 0, 2400, 10 do
  local k = 1
  while flight[k + 1][1] < t do k = k + 1 end
  local a, b = flight[k], flight[k + 1]
  local f = (t - a[1]) / (b[1] - a[1])
  local z, mach = a[2] + f * (b[2] - a[2]), a[3] + f * (b[3] - a[3])
  local T, p = isa(z)
  local r = 1 + 0.2 * mach ^ 2
  local _, pc = isa(math.min(z, 2400))
  altitude[#altitude + 1] = { t, z }
  ram_p[#ram_p + 1], ram_T[#ram_T + 1] = { t, p * r ^ 3.5 }, { t, T * r }
  amb_p[#amb_p + 1], cabin_p[#cabin_p + 1] = { t, p }, { t, pc }
  bleed_p[#bleed_p + 1] = { t, pack_ratio * pc }
end

local air = tf.moist_air_nasa { X = 0.01 }
local ram_air = tf.moist_air_nasa { X = 0.001 }
local function ntu(UA, a, b) return tf.CounterFlowNTU { UA = UA, medium_a = a, medium_b = b } end

local EcsPack = lied.model "EcsPack" {
  doc = "air-conditioning pack over a flight: bootstrap air-cycle machine, condenser, water separator",
  parameters = { UA_phx = 800, UA_mhx = 500, UA_rh = 1000, UA_cond = 2500,
                 w_ref = 2500, m_ref_t = 0.4, m_aiv = 0.3 },
  altitude = S.TimeTable { table = altitude },
  bleed = tf.Source { p0_from_input = 1, T0 = 473.15, medium = air, L = 2e4 },
  bleed_p = S.TimeTable { table = bleed_p },
  phx = ntu(lied.param "UA_phx", air, ram_air),
  duct = tf.Volume { V = 0.005, p0 = pack_ratio * 101325, T0 = 400, medium = air, L = 1e5 },
  split = tf.Splitter { N = 2, medium = air, L = 1e4 },
  -- the anti-ice valve and its controller (a sensor with a lag of 0.5 s)
  aiv = tf.Valve { dp_ref = 5e4, m_flow_ref = lied.param "m_aiv", leakage = 0.01, medium = air, L = 1e6 },
  mix = tf.Junction { N = 2, medium = air },
  tsens = tf.TemperatureSensor { medium = air },
  lag = S.FirstOrder { T = 0.5, x = 288.15 },
  T_set = S.Constant { k = 275.15 },
  err = S.Add { k1 = 1, k2 = -1 },
  pi = S.PI { k = 0.05, Ti = 5, yMin = 0, yMax = 1 },
  comp = turbo.Compressor { w_ref = lied.param "w_ref", skew = 1, m_ref = 1, eta = 0.85, medium = air },
  mhx = ntu(lied.param "UA_mhx", air, ram_air),
  reheat = ntu(lied.param "UA_rh", air, air),
  cond = ntu(lied.param "UA_cond", air, air),
  sep = tf.Separator { outlet = 1, medium = air },
  plenum = tf.Volume { V = 0.005, p0 = 1.5e5, T0 = 330, medium = air, L = 1e5 },
  turb = turbo.Turbine { m_ref = lied.param "m_ref_t", skew = -0.2, k = 2, eta = 0.88, medium = air },
  supply = tf.TemperatureSensor { medium = air },
  cabin = tf.Sink { p0_from_input = 1, medium = air },
  cabin_p = S.TimeTable { table = cabin_p },
  -- the ram air: the inlet's total state, the exchangers, the duct, the fan
  ram = tf.Source { p0_from_input = 1, T0_from_input = 1, medium = ram_air, L = 1e5 },
  ram_p = S.TimeTable { table = ram_p },
  ram_T = S.TimeTable { table = ram_T },
  pipe = tf.Pipe { l = 5, d = 0.14, ks = 4.5e-5, mu = 1.7e-5, medium = ram_air },
  fan = turbo.Fan { w_ref = 500, skew = 1, m_ref = 0.21, eta = 0.7, medium = ram_air },
  exit = tf.LinearQuadraticDrop { k1 = 0, k2 = 2500, medium = ram_air },
  ram_out = tf.Sink { p0_from_input = 1, medium = ram_air },
  amb_p = S.TimeTable { table = amb_p },
  shaft = rot.Inertia { J = 0.02 },
  connect = {
    { "bleed_p.y", "bleed.p0_in" }, { "bleed.outlet", "phx.inlet_a" }, { "phx.outlet_a", "duct.inlet" },
    { "duct.outlet", "split.inlet" },
    { "split.outlet1", "comp.inlet" }, { "split.outlet2", "aiv.inlet" }, { "aiv.outlet", "mix.inlet2" },
    { "comp.outlet", "mhx.inlet_a" }, { "mhx.outlet_a", "reheat.inlet_a" },
    { "reheat.outlet_a", "cond.inlet_a" }, { "cond.outlet_a", "sep.inlet" },
    { "sep.outlet", "plenum.inlet" }, { "plenum.outlet", "reheat.inlet_b" },
    { "reheat.outlet_b", "turb.inlet" }, { "turb.outlet", "mix.inlet1" }, { "mix.outlet", "tsens.inlet" },
    { "tsens.outlet", "cond.inlet_b" }, { "cond.outlet_b", "supply.inlet" }, { "supply.outlet", "cabin.inlet" },
    { "tsens.y", "lag.u" }, { "T_set.y", "err.u1" }, { "lag.y", "err.u2" }, { "err.y", "pi.u" },
    { "pi.y", "aiv.opening" }, { "cabin_p.y", "cabin.p0_in" },
    { "ram.outlet", "mhx.inlet_b" }, { "mhx.outlet_b", "phx.inlet_b" }, { "phx.outlet_b", "pipe.inlet" },
    { "pipe.outlet", "fan.inlet" }, { "fan.outlet", "exit.inlet" }, { "exit.outlet", "ram_out.inlet" },
    { "ram_p.y", "ram.p0_in" }, { "ram_T.y", "ram.T0_in" }, { "amb_p.y", "ram_out.p0_in" },
    { "shaft.flange_a", "comp.flange" }, { "shaft.flange_a", "turb.flange" }, { "shaft.flange_b", "fan.flange" },
  },
  experiment = { stop = 2400, solver = "esdirk23", tol = 1e-6, interval = 5,
                 vars = "altitude.y,shaft.w,supply.T,turb.T_out,cond.T_a,sep.m_cond,bleed.outlet.m_flow," ..
                        "turb.m_flow,aiv.m_flow,fan.m_flow,pi.y" },
}

-- three panels: the flight (altitude, right: the shaft's speed), the
-- temperatures (cabin supply, turbine outflow, condenser outflow), the
-- flows (pack and ram, right: the water drained)
lied.main(EcsPack, { plot = { panels = {
  { "altitude.y", y2 = { "shaft.w" } },
  { "supply.T", "turb.T_out", "cond.T_a" },
  { "bleed.outlet.m_flow", "fan.m_flow", y2 = { "sep.m_cond:g/s" } } } } })
return EcsPack
