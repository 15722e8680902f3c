-- examples/cooling_coil.lua: a cooling coil dehumidifying air. Humid air
-- (tf.moist_air, 30 degC at 60 % relative humidity, 1 atm) crosses a
-- CrossFlowHX (6 x 6 elements) against a cold water-glycol stream at 7 degC;
-- cooled below its dew point (21.4 degC) the air carries fog, which a
-- Separator drains: the condensate leaves as a drained mass flow
-- (sep.m_cond), the dried air goes on saturated (sep.phi = 1) with the
-- humidity ratio sep.x_out: the streams carry the water fraction X1, so the
-- air that leaves the Separator (sep.outlet.X1) is drier than the air that
-- entered it (air.outlet.X1).
--   lied run examples/cooling_coil.lua          outlet temperature, condensate, humidity
--   lied examples/cooling_coil.lua [plot.png]   simulate and plot the condensate flow
local lied = require "lied"
local tf = require "lied.thermofluid"
local S = require "lied.signals"

local p_atm = 101325
local X_in = tf.moist_air:X_phi(p_atm, 303.15, 0.6) -- 30 degC, 60 %: X = 0.01579
local humid = tf.moist_air { X = X_in }
local glycol = tf.liquid { rho = 1060, cp = 3500 }

local Coil = lied.model "CoolingCoil" {
  doc = "humid air cooled below its dew point in a cross-flow coil, condensate drained by a Separator",
  parameters = { m_air = 0.5, m_cold = 1.0, T_air_in = 303.15, T_cold_in = 280.15, UA = 3000 },
  air = tf.MassFlowSource { m_flow = lied.param "m_air", T0 = lied.param "T_air_in", p0 = p_atm,
                            medium = humid },
  coil = tf.CrossFlowHX { N = 6, UA = lied.param "UA", V_a = 0.05, V_b = 0.005,
                          T0_a = lied.param "T_air_in", T0_b = 293.15,
                          p0_a = p_atm, medium_a = humid, medium_b = glycol },
  sep = tf.Separator { outlet = 1, medium = humid },
  out = tf.Sink { p0 = p_atm, medium = humid },
  ramp = S.Ramp { offset = 293.15, height = function(p) return p.T_cold_in - 293.15 end,
                  t0 = 10, duration = 30 },
  cold = tf.MassFlowSource { m_flow = lied.param "m_cold", T0 = 293.15, T0_from_input = 1,
                             medium = glycol },
  cold_out = tf.Sink { medium = glycol },
  connect = {
    { "air.outlet", "coil.inlet_a" }, { "coil.outlet_a", "sep.inlet" }, { "sep.outlet", "out.inlet" },
    { "ramp.y", "cold.T0_in" }, { "cold.outlet", "coil.inlet_b" }, { "coil.outlet_b", "cold_out.inlet" },
  },
  experiment = { stop = 120, solver = "esdirk23", tol = 1e-6, interval = 0.5,
                 vars = "sep.T,sep.m_cond,sep.x_out,sep.phi,sep.outlet.X1,out.T,coil.Q_flow,coil.T_b" },
}

lied.main(Coil, { plot = { "sep.m_cond" } })
return Coil
