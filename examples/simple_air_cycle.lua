-- examples/simple_air_cycle.lua: two air cycles side by side, the shape of
-- ThermoFluid Stream's SimpleAirCycle (docs/turbo.md). Bleed air at 220 degC
-- and 2.5 bar is cooled by ram air at -30 degC (0.3 bar, 0.33 bar with the
-- ram recovery) and expanded to a 0.8 bar cabin:
--  - bootstrap (three-wheel): primary exchanger, compressor, main exchanger,
--    turbine; the turbine drives the compressor and the ram-air fan on one
--    free shaft;
--  - simple cycle: one exchanger, then the turbine, which drives the fan.
-- Both shafts start at rest and find their speed; the exchangers are
-- effectiveness-NTU (CounterFlowNTU), the gas is dry air of NASA polynomials
-- (tf.air). tests/validation/test_air_cycles.lua checks its
-- energy balance; bench/air_cycle.lua measures its speed.
--   lied run examples/simple_air_cycle.lua         shaft speeds, cabin inflow temperatures
--   lied examples/simple_air_cycle.lua [plot.png]  simulate and plot
local lied = require "lied"
local tf = require "lied.thermofluid"
local rot = require "lied.rotational"
local turbo = require "lied.turbo"

local air = tf.air
-- inertances (length/area) that put the flows' time constants near 0.1 s,
-- below the shafts' (the steep characteristics make a short duct stiff)
local function src(p, T, L) return tf.Source { p0 = p, T0 = T, medium = air, L = L } end
local function sink(p) return tf.Sink { p0 = p, medium = air } end
local function ntu(UA) return tf.CounterFlowNTU { UA = UA, medium_a = air, medium_b = air } end
-- the ram duct (radius 0.07 m, 5 m) and its outflow loss (zeta = 1 at 0.43 kg/m3)
local function duct() return tf.Pipe { l = 5, d = 0.14, ks = 4.5e-5, mu = 1.6e-5, medium = air } end
local function outflow() return tf.LinearQuadraticDrop { k1 = 0, k2 = 4900, medium = air } end

local SimpleAirCycle = lied.model "SimpleAirCycle" {
  doc = "a three-wheel bootstrap and a simple air cycle, bleed 220 degC / 2.5 bar, ram -30 degC",
  parameters = { p_bleed = 2.5e5, T_bleed = 493.15, p_ram = 0.33e5, p_amb = 0.3e5, T_ram = 243.15,
                 p_cabin = 0.8e5 },
  -- bootstrap
  bleed = src(lied.param "p_bleed", lied.param "T_bleed", 2e4),
  phx = ntu(400),
  comp = turbo.Compressor { w_ref = 2500, skew = 1, m_ref = 1, eta = 0.9 },
  -- the duct to the compressor holds air (states M, U): the ram air leaves
  -- the main exchanger for the primary one, whose bleed side feeds the main
  -- one again through the compressor, a loop no explicit law closes
  duct = tf.Volume { V = 0.005, p0 = 2.4e5, T0 = 400, medium = air, L = 1e5 },
  mhx = ntu(600),
  turb = turbo.Turbine { m_ref = 0.36, skew = -0.2, k = 2, eta = 0.93 },
  cabin = sink(lied.param "p_cabin"),
  ram = src(lied.param "p_ram", lied.param "T_ram", 1e5),
  pipe = duct(),
  fan = turbo.Fan { w_ref = 500, skew = 1, m_ref = 0.21, eta = 0.7 },
  exit = outflow(),
  ram_out = sink(lied.param "p_amb"),
  shaft = rot.Inertia { J = 0.02 },
  -- simple cycle
  bleed2 = src(lied.param "p_bleed", lied.param "T_bleed", 1e5),
  hx2 = ntu(1000),
  turb2 = turbo.Turbine { m_ref = 0.3658, skew = -0.2, k = 2, eta = 0.93 },
  cabin2 = sink(lied.param "p_cabin"),
  ram2 = src(lied.param "p_ram", lied.param "T_ram", 1e5),
  pipe2 = duct(),
  fan2 = turbo.Fan { w_ref = 1000, skew = 1, m_ref = 0.21, eta = 0.7 },
  exit2 = outflow(),
  ram_out2 = sink(lied.param "p_amb"),
  shaft2 = rot.Inertia { J = 0.01 },
  connect = {
    { "bleed.outlet", "phx.inlet_a" }, { "phx.outlet_a", "duct.inlet" }, { "duct.outlet", "comp.inlet" },
    { "comp.outlet", "mhx.inlet_a" }, { "mhx.outlet_a", "turb.inlet" }, { "turb.outlet", "cabin.inlet" },
    { "ram.outlet", "mhx.inlet_b" }, { "mhx.outlet_b", "phx.inlet_b" }, { "phx.outlet_b", "pipe.inlet" },
    { "pipe.outlet", "fan.inlet" }, { "fan.outlet", "exit.inlet" }, { "exit.outlet", "ram_out.inlet" },
    { "shaft.flange_a", "comp.flange" }, { "shaft.flange_a", "turb.flange" }, { "shaft.flange_b", "fan.flange" },
    { "bleed2.outlet", "hx2.inlet_a" }, { "hx2.outlet_a", "turb2.inlet" }, { "turb2.outlet", "cabin2.inlet" },
    { "ram2.outlet", "hx2.inlet_b" }, { "hx2.outlet_b", "pipe2.inlet" }, { "pipe2.outlet", "fan2.inlet" },
    { "fan2.outlet", "exit2.inlet" }, { "exit2.outlet", "ram_out2.inlet" },
    { "shaft2.flange_a", "turb2.flange" }, { "shaft2.flange_b", "fan2.flange" },
  },
  experiment = { stop = 60, solver = "dopri45", tol = 1e-6, interval = 0.5,
                 vars = "shaft.w,shaft2.w,turb.T_out,turb2.T_out,turb.m_flow,turb2.m_flow,fan.m_flow,fan2.m_flow" },
}

lied.main(SimpleAirCycle, { plot = { "shaft.w", "shaft2.w" } })
return SimpleAirCycle
