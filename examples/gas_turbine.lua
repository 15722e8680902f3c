-- examples/gas_turbine.lua: a single-shaft gas turbine from standstill to
-- idle (docs/turbo.md). A starter motor (a torque on the shaft) spins the
-- compressor up; at t = 4 s the fuel lights (the combustor a heat input into
-- the air, Q = fuel flow x heating value, ramped up over 6 s), at t = 12 s the
-- starter cuts out, and the shaft settles (near 4,240 rad/s) where the turbine's power equals
-- the compressor's. Dry air of NASA polynomials throughout (the products'
-- composition is left as air).
--   lied run examples/gas_turbine.lua              speed, flow, temperatures
--   lied examples/gas_turbine.lua [plot.png]       simulate and plot
local lied = require "lied"
local tf = require "lied.thermofluid"
local rot = require "lied.rotational"
local turbo = require "lied.turbo"
local S = require "lied.signals"

local air = tf.air
local GasTurbine = lied.model "GasTurbine" {
  doc = "single-shaft gas turbine: starter, compressor, combustor (heat input), turbine",
  parameters = { Q_idle = 6e4, tau_starter = 8, t_ignition = 4, t_cutout = 12 },
  intake = tf.Source { p0 = 1e5, T0 = 288.15, medium = air, L = 2e4 },
  comp = turbo.Compressor { w_ref = 2500, skew = 1, m_ref = 1, eta = 0.84 },
  combustor = tf.Heater { Q_from_input = 1, V = 0.02, T0 = 288.15, p0 = 1e5, medium = air },
  fuel = S.Ramp { height = lied.param "Q_idle", t0 = lied.param "t_ignition", duration = 6 },
  turb = turbo.Turbine { m_ref = 0.45, skew = 0, k = 2, eta = 0.89 },
  exhaust = tf.Sink { p0 = 1e5, medium = air },
  shaft = rot.Inertia { J = 0.02 },
  starter = rot.Torque {},
  starter_on = S.Step { offset = lied.param "tau_starter",
                        height = function(p) return -p.tau_starter end, t0 = lied.param "t_cutout" },
  connect = {
    { "intake.outlet", "comp.inlet" }, { "comp.outlet", "combustor.inlet" },
    { "combustor.outlet", "turb.inlet" }, { "turb.outlet", "exhaust.inlet" },
    { "fuel.y", "combustor.Q_in" },
    { "shaft.flange_a", "comp.flange" }, { "shaft.flange_a", "turb.flange" },
    { "shaft.flange_b", "starter.flange" }, { "starter_on.y", "starter.u" },
  },
  experiment = { stop = 120, solver = "dopri45", tol = 1e-6, interval = 0.2,
                 vars = "shaft.w,comp.m_flow,combustor.T,turb.T_out,comp.P,turb.P,starter.P" },
}

lied.main(GasTurbine, { plot = { "shaft.w", "combustor.T" } })
return GasTurbine
